"""The read stage's gates (engine/gates.py): a reader asked only when a cheap test says the message may
hold what it reads. The test is made from the reader's own patterns; these checks show, for every
entry of every table a gate is made from, that a text the entry matches is one the gate lets through,
so a reader never misses a message it would have read (the shadow runs in bench/README.md compare the
gated and the ungated read stage on every replay and corpus message too)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import default_registry, requests
from engine.cues import fold_same_length
from engine.extract import _norm, choice
from engine.gates import gate, needed

# every pattern the request reader's gate is made from, with how the reader searches it
_REQUEST_TABLES = {
    "asks": lambda t: t.asks,
    "elsewhere": lambda t: t.elsewhere,
    "beside": lambda t: t.beside,
    "knowledge": lambda t: t.knowledge,
    "topic": lambda t: t.topic,
    "openers": lambda t: t.openers,
}


def _searched(table: str) -> list[re.Pattern[str]]:
    """Each entry of a request table alone, wrapped as the reader's compiled table wraps it."""
    t = requests.load_requests()
    word = r"(?<![\w']){}(?![\w'])"
    starts = r"(?<![\w']){}"
    lead = r"\A(?:and |oh |so |but )?(?:{})"
    wrap = {"asks": word, "elsewhere": starts, "beside": starts, "knowledge": starts, "topic": lead, "openers": lead}
    return [re.compile(wrap[table].format(f"(?:{e})")) for e in _REQUEST_TABLES[table](t)]


@pytest.mark.parametrize("table", list(_REQUEST_TABLES))
def test_every_request_entry_needs_words_the_gate_holds(table: str) -> None:
    # each entry needs some words (else the gate would let every message through), and the gate holds them or a
    # part of them: it is made from the table, not written beside it
    strings = requests._gate().strings
    assert strings is not None
    for entry in _searched(table):
        need = needed(entry.pattern)
        assert need, entry.pattern
        assert all(any(kept in s for kept in strings) for s in need), entry.pattern


@pytest.mark.parametrize("table", list(_REQUEST_TABLES))
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_text_any_request_entry_matches_passes_the_gate(table: str, data: st.DataObject) -> None:
    entry = data.draw(st.sampled_from(_searched(table)))
    text = fold_same_length(data.draw(st.from_regex(entry)))
    assume(entry.search(text) is not None)
    assert requests._gate().may(text), (entry.pattern, text)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_text_an_intent_matches_passes_its_gate(data: st.DataObject) -> None:
    intents = [i for bot in default_registry() for i in bot.intents]
    intent = data.draw(st.sampled_from(intents))
    pattern = re.compile(data.draw(st.sampled_from(list(intent.patterns))), re.IGNORECASE)
    text = data.draw(st.from_regex(pattern))
    assume(intent.matches(text))
    assert intent.gate.may(text), (pattern.pattern, text)


def test_every_intent_has_a_gate_that_says_no_to_something() -> None:
    for bot in default_registry():
        for intent in bot.intents:
            assert intent.gate.strings is not None, (bot.name, intent.flow)


@pytest.mark.parametrize(
    ("pattern", "strings"),
    [
        ("hello", {"hello"}),
        # a word's edges are kept where the pattern asserts them: "is" then stands alone, not inside "this"
        (r"(?<![\w'])(?:is|are)\b", {"\x02is\x03", "\x02are\x03"}),
        (r"\bhow (?:does|do) (?P<t>.{1,80}?) (?:work|works)\b", {"\x02how do"}),
        # after a space a word starts, whatever the optional words before it
        (r"\A(?:(?:y|ahora) )*(?:me|nos) (?!gusta)\w+", {"\x02me", "\x02nos"}),
        # a branch needs one string of each alternative; a class of letters one of them
        (r"practi[cs]e|train", {"practi", "train"}),
        # nothing needed: a class or a repeat that may be absent
        (r"\w+", None),
        (r"(?:abc)?x?", None),
    ],
)
def test_needed_strings(pattern: str, strings: set[str] | None) -> None:
    found = needed(pattern)
    assert (None if found is None else set(found)) == strings
    if strings is not None:
        g = gate([pattern])
        for s in strings:
            assert g.may(s.replace("\x02", "").replace("\x03", ""))


def test_a_gate_says_no_inside_a_word_where_the_pattern_wants_a_whole_one() -> None:
    g = gate([r"(?<![\w'])(?:is|are)\b"])
    assert g.may("this is good") and g.may("are")
    assert not g.may("this")
    assert not g.may("isle")


def test_a_pattern_that_needs_nothing_makes_a_gate_that_says_may() -> None:
    g = gate(["hello", r"\d+"])
    assert g.strings is None and g.may("anything")


def test_case_blind_patterns_make_a_case_blind_gate() -> None:
    assert gate(["feedback"], ignore_case=True).may("FEEDBACK please")
    assert gate(["(?i)feedback"]).may("Feedback please")
    assert not gate(["feedback"]).may("FEEDBACK")


@pytest.mark.parametrize(
    "text",
    ["content", "Content", "CONTENT ", "play store", "store", "anything", "not", "both", "lo", "bug", "slow", "x"],
)
def test_a_choice_named_by_one_word_alone_is_what_the_search_finds(text: str) -> None:
    # an option's word alone, read again from what the first search kept, against the search itself, on options
    # that share words, hold a ruling-out cue or another option's word
    options = {
        "content": ["lessons", "material"],
        "play": ["play store", "google play"],
        "other": ["store", "anything"],
        "refuse": ["not", "both"],
        "twice": ["both", "lo"],
        "bug": ["slow", "bug"],
    }
    shortcut = choice(options, fuzzy=False)
    cells = {
        c.cell_contents.__name__: c.cell_contents for c in shortcut.rule.__closure__ or () if callable(c.cell_contents)
    }
    assert shortcut(text) == cells["searched"](_norm(text))
    assert shortcut(text) == cells["searched"](_norm(text))  # the second time, from what was kept
