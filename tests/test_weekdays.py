"""The days of the week as both bots read them (engine/weekdays.py): study-pal's plan over a set of days
(flows/study_pal/repeats.py) and fitness-coach's days to train on (flows/fitness/readers.py), one class a
test, in the six languages where the class has words in them. The corpus is tests/corpora/time_windows/."""

from __future__ import annotations

import re
from datetime import date, time
from pathlib import Path

import pytest
import yaml

from engine.errors import DataFileError
from engine.gloss import in_english
from engine.tables import LANGUAGES, day_words
from engine.weekdays import WHEN, DaySet, day_set
from flows.fitness.readers import days_in, weekdays_in
from flows.study_pal.repeats import repeat_days, weekdays

WEDNESDAY = date(2025, 3, 12)
SATURDAY = date(2025, 3, 15)
NINE = time(9, 0)
EVENING = time(19, 0)
WORKDAYS = frozenset(range(5))


def dates(text: str, today: date = WEDNESDAY, start: time = EVENING) -> list[int]:
    """The days of the month of the plan `text` gives at 09:00 on `today` for a window starting at `start`."""
    return [d.day for d in repeat_days(text, today, NINE, start)]


# -- a plan over a set of days said in another language: read through its English words


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("de lunes a viernes a las 19h", WORKDAYS),
        ("los martes y jueves por la tarde", frozenset({1, 3})),
        ("werktags von 18 bis 20 Uhr", WORKDAYS),
        ("jeden Tag außer Sonntag um 19 Uhr", frozenset(range(6))),
        ("en semaine à 19h", WORKDAYS),
        ("tous les jours sauf le dimanche", frozenset(range(6))),
        ("de segunda a sexta às 19h", WORKDAYS),
        ("dal lunedì al venerdì alle 18", WORKDAYS),
        ("nei giorni feriali alle 19", WORKDAYS),
    ],
)
def test_a_set_of_days_in_another_language_is_a_plan_over_them(text: str, days: frozenset[int]) -> None:
    assert weekdays(text) == days


@pytest.mark.parametrize("text", ["el viernes a las 18:00", "am Freitag um 17 Uhr", "vendredi après-midi"])
def test_one_day_in_another_language_is_still_one_day(text: str) -> None:
    assert weekdays(text) == frozenset()


# -- a range of days, not only Monday to Friday, for both bots


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("tue-thu 6-8pm", frozenset({1, 2, 3})),
        ("wed through fri at 5pm", frozenset({2, 3, 4})),
        ("Montag bis Freitag um 18 Uhr", WORKDAYS),
        ("du lundi au vendredi à 18h", WORKDAYS),
        ("de martes a jueves por la noche", frozenset({1, 2, 3})),
        ("fri-mon", frozenset({4, 5, 6, 0})),  # over the week's end
    ],
)
def test_a_range_of_days_is_every_day_in_it(text: str, days: frozenset[int]) -> None:
    assert weekdays(text) == days
    names = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    # fitness-coach's days question reads the message through the same words (its Parser glosses it)
    assert weekdays_in(in_english(text)) == [n for i, n in enumerate(names) if i in days]


# -- days taken out: in the plural, after a bare "but", with an article


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("each evening except fridays", frozenset({0, 1, 2, 3, 5, 6})),
        ("all weekdays but thursday, 7 to 9pm", frozenset({0, 1, 2, 4})),
        ("todos los días menos el sábado de 19 a 21", frozenset({0, 1, 2, 3, 4, 6})),
        ("tutti i giorni tranne il sabato alle 18", frozenset({0, 1, 2, 3, 4, 6})),
    ],
)
def test_days_taken_out_of_a_set_are_left_out(text: str, days: frozenset[int]) -> None:
    assert weekdays(text) == days


def test_fitness_counts_the_days_left_when_some_are_taken_out() -> None:
    assert days_in("every day except sunday") == 6
    assert days_in("every day except the weekend") == 5
    assert weekdays_in("every day apart from friday") == ["Mon", "Tue", "Wed", "Thu", "Sat", "Sun"]


# -- one day of a set ("a weekday evening"): the first of them ahead, not today's whatever day it is


def test_one_day_of_a_set_is_the_first_of_them() -> None:
    assert dates("a weekday evening at 7", SATURDAY) == [17]  # Monday, not Saturday
    assert dates("one weekend morning", WEDNESDAY, time(9, 0)) == [15]
    assert dates("weekday evenings at 7", SATURDAY) == [17, 18, 19, 20, 21]  # the plural is all of them
    assert day_set("a weekday evening") == DaySet(days=WORKDAYS, one=True)


# -- a weekday in the plural in another language comes back each week; one in the singular does not


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("dienstags von 17 bis 19 Uhr", frozenset({1})),
        ("às terças e quintas às 18h", frozenset({1, 3})),
        ("los lunes a las 17h", frozenset({0})),
        ("les lundis et mercredis à 17h", frozenset({0, 2})),
        ("il lunedì e il mercoledì sera", frozenset({0, 2})),
    ],
)
def test_a_weekday_that_comes_back_in_another_language(text: str, days: frozenset[int]) -> None:
    assert weekdays(text) == days


def test_fitness_reads_plural_weekdays_of_other_languages() -> None:
    assert weekdays_in(in_english("às terças e quintas")) == ["Tue", "Thu"]


# -- the set words typed a letter off


@pytest.mark.parametrize("text", ["wkdays 5-7pm", "weekdys at 6pm"])
def test_a_set_word_typed_a_letter_off(text: str) -> None:
    assert weekdays(text) == WORKDAYS


# -- what is no set of days stays none


@pytest.mark.parametrize(
    "text",
    ["monday or tuesday at 6", "this weekend", "on the weekend", "tomorrow evening", "thus we start at 5", "friday"],
)
def test_no_set_of_days(text: str) -> None:
    assert weekdays(text) == frozenset()


def test_the_italian_evening_and_tonight_in_english() -> None:
    assert in_english("mercoledì sera") == "wednesday in the evening"
    assert in_english("stasera alle 8") == "tonight at 8"


# -- the words around the days (engine/data/day_words.yaml): every word of each part does its job


def _each(part: str) -> list[str]:
    words = getattr(day_words(), part)
    return sorted({w for lang in LANGUAGES for w in getattr(words, lang)})


@pytest.mark.parametrize("word", _each("through"))
def test_each_range_word_joins_a_range(word: str) -> None:
    assert day_set(f"monday {word} wednesday") == DaySet(days=frozenset({0, 1, 2}), recurring=True)


@pytest.mark.parametrize("word", _each("the"))
def test_each_article_joins_a_list_across_it(word: str) -> None:
    assert day_set(f"monday and {word} wednesday") == DaySet(days=frozenset({0, 2}), recurring=True)


@pytest.mark.parametrize("word", _each("every"))
def test_each_every_word_makes_a_day_come_back(word: str) -> None:
    assert day_set(f"{word} monday") == DaySet(days=frozenset({0}), recurring=True)
    assert day_set("monday") == DaySet(days=frozenset({0}))


@pytest.mark.parametrize("word", _each("one"))
def test_each_one_word_takes_one_day_of_a_set(word: str) -> None:
    assert day_set(f"{word} weekday evening") == DaySet(days=WORKDAYS, one=True)


def test_a_broken_day_words_table_says_what_to_fix(tmp_path: Path) -> None:
    six = {lang: ["x"] for lang in LANGUAGES}
    bad = tmp_path / "day_words.yaml"
    bad.write_text(yaml.safe_dump({"through": six, "the": six, "every": {**six, "it": []}, "one": six}))
    with pytest.raises(DataFileError, match="it: no phrase listed"):
        day_words.__wrapped__(bad)  # type: ignore[attr-defined]


# -- clock words of the other languages, read by every flow's parsers (engine/data/gloss.yaml frames)


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("friday 19h30", "friday 19:30"),  # a clock time with "h" between hours and minutes
        ("à 19h30", "at 19:30"),
        ("Freitag 19:30 bis 21 Uhr", "friday 19:30 to 21"),  # a range without its "von", its end an hour
        ("15h à 17h", "15 to 17"),
        ("mercredi prochain à 18h", "next wednesday at 18"),  # "next" after the day
        ("giovedì prossimo alle 17", "next thursday at 17"),
        ("quinta-feira que vem às 18h", "next thursday at 18"),
        ("el próximo jueves", "el next thursday"),  # and before it
        ("sábado às 9 da manhã", "saturday às 9 am"),  # an hour of the morning
        ("sábado a las 10 de la mañana", "saturday at 10 am"),  # not "10 of tomorrow"
        ("morgen früh", "tomorrow morning"),
    ],
)
def test_clock_words_of_other_languages_in_english(typed: str, english: str) -> None:
    assert in_english(typed) == english


def test_all_days_but_some() -> None:
    assert weekdays_in("all days except tue and thu") == ["Mon", "Wed", "Fri", "Sat", "Sun"]


# a bot's intent names when a thing is with `WHEN` (study-pal: "a study block saturday morning"); a message of
# another language reaches it glossed, as `Bot.intent_for` reads it
_WHEN = re.compile(rf"\b{WHEN}\b", re.I)


@pytest.mark.parametrize(
    "text",
    ["tomorrow evening", "sat morning", "on weds", "mondays", "mañana por la tarde", "morgen Abend", "demain soir",
     "domani sera", "amanhã à noite", "el sábado", "am Wochenende"],
)  # fmt: skip
def test_when_is_a_day_or_a_part_of_one_in_six_languages(text: str) -> None:
    assert _WHEN.search(in_english(text))


@pytest.mark.parametrize("text", ["a study session", "the weekly review", "some time", "sunny", "i saturated it"])
def test_when_is_no_other_word(text: str) -> None:
    assert not _WHEN.search(in_english(text))
