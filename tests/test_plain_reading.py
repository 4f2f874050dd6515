"""A parser's plain reading (issue 22): `Parser.plain_value` reads a word alone with the rule once and checks it once,
and `Parser.__call__` reads a word alone without the extra step through `_reading`. Both must give what the longer
path gave (`_reading`, then the refusal's echo, then the plain check), keep the same value for the turn
(`READ_THIS_TURN`), and ask the rule no more often."""

from __future__ import annotations

import pytest

from engine.extract import (
    _ONE_WORD,
    READ_THIS_TURN,
    Invalid,
    Parser,
    _echoes,
    _requoted,
    choice,
    free_text,
    integer,
    optional,
    rating,
)

PARSERS = {
    "integer": integer(1, 9),
    "rating": rating(),
    "choice": choice({"content": ["lessons"], "bug": ["crash"], "latency": ["slow"]}),
    "optional": optional(integer(0, 120, "kg")),
    "free text": free_text(),
}
TEXTS = ["4", "four", "12", "0", "Content", "contnt", "bug", "4/5", "hello", "none", "nothign", "Sam?", "4?",
         "maybe 4", "vier", "ninguno", "", "  4 ", "8/10", "crash", "lessons", "slow", "yes"]  # fmt: skip


def _read_before(parser: Parser, text: str) -> object:
    """`_read` as it was: `_reading`, then a refusal quoting the engine's reading quotes the message."""
    value = parser._reading(text)
    if isinstance(value, Invalid) and (echoed := _echoes(value.reason, text)):
        return Invalid(_requoted(value.reason, echoed, text), value.suggestion)
    return value


def _plain_before(parser: Parser, text: str) -> object:
    if parser.greedy or _ONE_WORD.fullmatch(text) is None:
        return None
    value = _read_before(parser, text)
    return value if parser._plain(text, value) else None


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_the_plain_reading_is_the_long_one(name: str) -> None:
    parser = PARSERS[name]
    for text in TEXTS:
        assert parser.plain_value(text) == _plain_before(parser, text), text
        assert parser(text) == _read_before(parser, text), text


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_what_the_turn_keeps_is_the_same(name: str) -> None:
    parser = PARSERS[name]
    for text in TEXTS:
        token = READ_THIS_TURN.set({})
        try:
            plain = parser.plain_value(text)
            kept = dict(READ_THIS_TURN.get() or {})
            assert parser(text) == _read_before(parser, text), text  # from what was kept, when it was
            assert parser.plain_value(text) == plain, text
        finally:
            READ_THIS_TURN.reset(token)
        token = READ_THIS_TURN.set({})
        try:
            if not parser.greedy and _ONE_WORD.fullmatch(text):
                parser(text)
                assert kept == READ_THIS_TURN.get(), text  # the same entry as the call would have left
        finally:
            READ_THIS_TURN.reset(token)


def _counting() -> tuple[Parser, list[str]]:
    asked: list[str] = []

    def rule(text: str) -> object:
        asked.append(text)
        return int(text) if text.isdecimal() and 1 <= int(text) <= 9 else None

    return Parser(rule, "a whole number from 1 to 9"), asked


def test_a_word_alone_asks_the_rule_once_a_turn() -> None:
    parser, asked = _counting()
    token = READ_THIS_TURN.set({})
    try:
        assert parser.plain_value("4") == 4
        assert parser.reads_plainly("4")
        assert parser("4") == 4
    finally:
        READ_THIS_TURN.reset(token)
    assert asked == ["4"]


def test_a_word_that_is_no_plain_value_is_read_the_whole_way_once() -> None:
    parser, asked = _counting()
    token = READ_THIS_TURN.set({})
    try:
        assert parser.plain_value("twelve") is None
        assert asked.count("twelve") == 1  # the rule's reading of the word is handed on, not asked again
        read = len(asked)
        value = parser("twelve")  # kept from the plain reading's whole way
        assert len(asked) == read
    finally:
        READ_THIS_TURN.reset(token)
    assert value == _read_before(parser, "twelve")
