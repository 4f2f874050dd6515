"""Numbers as people say them, measured on a labelled corpus rather than one string at a time.

tests/corpora/numbers/{dev,test}.yaml were split once by hash; the test split was written before
engine/numwords.py and is never extended with a case found while fixing. `python
bench/number_words.py --misses` prints the table and what is read wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.extract import Invalid, integer, numbers, rating
from tests.yaml_file import safe_load

CORPUS = Path(__file__).parent / "corpora" / "numbers"


def outcome(text: str) -> str:
    read = integer()(text)
    return "none" if read is None else "refused" if isinstance(read, Invalid) else str(read)


@pytest.mark.parametrize("split", ["dev", "test"])
def test_whole_numbers_are_read_as_said_in_six_languages(split: str) -> None:
    cases = safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
    assert len({c["lang"] for c in cases}) == 6
    wrong = [
        f"{c['text']!r}: {outcome(c['text'])}, not {c['expect']}"
        for c in cases
        if outcome(c["text"]) != str(c["expect"])
    ]
    assert 1 - len(wrong) / len(cases) >= 0.95, "\n".join(wrong)


def test_the_splits_do_not_overlap() -> None:
    dev, test = (
        {c["text"] for c in safe_load((CORPUS / f"{s}.yaml").read_text(encoding="utf-8"))} for s in ("dev", "test")
    )
    assert not dev & test and len(dev) + len(test) >= 200


@pytest.mark.parametrize(
    ("text", "lang_word"),
    [
        ("once a week", "English once"),
        ("não sei", "Portuguese sei"),
        ("no one came", "the pronoun one"),
        ("not sure, the latest one I think", "one after a superlative"),
        ("my old one broke", "one after a determiner and an adjective"),
        ("the blue one please", "one after a determiner and a colour"),
        ("the best one", "one after best"),
    ],
)
def test_a_word_that_only_looks_like_a_number_is_none(text: str, lang_word: str) -> None:
    assert numbers(text) == [], lang_word


@pytest.mark.parametrize(("text", "value"), [("the twenty one", 21), ("twenty one", 21), ("I have one", 1)])
def test_one_that_builds_or_counts_is_a_number(text: str, value: int) -> None:
    assert numbers(text) == [value]


def test_a_rating_reads_words_and_scales_in_other_languages() -> None:
    assert rating(1, 5)("two outta five") == 2
    assert rating(1, 5)("ocho de diez") == 4
    assert rating(1, 5)("quatre sur cinq") == 4


def test_every_number_said_in_words_in_the_corpus_passes_the_cheap_test() -> None:
    # the test that spares text2num and the frequency tables must not hide a number word
    from engine.numwords import _may_hold_number_word

    for split in ("dev", "test"):
        for case in safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8")):
            if isinstance(case["expect"], int) and not any(ch.isdigit() for ch in case["text"]):
                assert _may_hold_number_word(case["text"]), case["text"]


@pytest.mark.parametrize(("text", "value"), [("un cuatro", 4), ("un tre", 3), ("ein vier", 4), ("um quatro", 4)])
def test_an_article_before_a_number_word_is_no_one_even_read_twice(text: str, value: int) -> None:
    # the rating reads number words, then integer() reads what it left ("un 4") once more
    assert rating(1, 5)(text) == value
    assert rating(1, 5)("un") == 1  # alone, the word is the number


def test_a_weight_said_in_words_is_read_in_six_languages() -> None:
    from flows.fitness.readers import parse_weight

    assert parse_weight("soixante-cinq kilos") == 65.0
    assert parse_weight("so um die achtzig Kilo") == 80.0
    assert parse_weight("a hundred and ten kilos") == 110.0


@pytest.mark.parametrize(
    ("text", "expect"),
    [("thre days a week", [3]), ("sixty eigth kilos", [68]), ("fourten i think", [14]), ("twelev", [12])],
)
def test_a_number_word_misspelt_by_one_letter_is_read(text: str, expect: list[int]) -> None:
    assert numbers(text) == expect


@pytest.mark.parametrize(
    ("text", "expect"),
    [("a tree", []), ("the tow truck", []), ("fife and drum", []), ("forty minuts later", [40])],
)
def test_a_real_word_one_letter_from_a_number_word_stays_a_word(text: str, expect: list[int]) -> None:
    # "tree", "tow", "fife" are words; "minuts" is "minutes", never "minus"
    assert numbers(text) == expect
