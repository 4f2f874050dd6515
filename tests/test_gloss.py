"""engine/gloss.py: the answer words of other languages written in English, and `Parser` reading
a message through them only where the message as typed says less."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import DataFileError
from engine.extract import EMPTY, Invalid, Parser, free_text, optional
from engine.gloss import in_english, load_gloss, weekday_names
from engine.yesno import read_yes_no


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("media hora", "half an hour"),
        ("eine Stunde", "an hour"),
        ("uma hora e meia", "an hour and a half"),
        ("zweimal pro Woche", "twice per week"),
        ("trois fois par semaine", "3 times per week"),
        ("lunes, miércoles y viernes", "monday, wednesday and friday"),
        ("segunda, quarta e sexta", "monday, wednesday e friday"),  # pt "e" is left: "é" folds to it
        ("Donnerstags abends", "thursdays in the evening"),  # on Thursdays: a day that comes back
        ("ninguna", "none"),
        ("rien du tout", "none"),
        ("venerdì dalle 9 alle 11", "friday from 9 to 11"),
        ("demain de 14h à 16h", "tomorrow from 14 to 16"),
        ("pasado mañana por la mañana", "the day after tomorrow in the morning"),
        ("un quart d'heure", "15 minutes"),
        ("ich bin eher fortgeschritten", "ich bin eher advanced"),
        # a part of the day alone, where the word says nothing else (h-read9); "mañana" alone stays tomorrow
        ("tardes", "in the afternoon"),
        ("noches mejor", "in the evening mejor"),
        ("soir", "in the evening"),
        ("pomeriggio", "in the afternoon"),
        ("manhãs de preferência", "in the morning de preferência"),
        ("mañana", "tomorrow"),
        # no preference, and a yes said as "it can be" (h-read9)
        ("me da igual", "no preference"),
        ("ist mir egal", "no preference"),
        ("tanto faz", "no preference"),
        ("pode ser", "yes"),
        # noon as an end of a clock range (h-read9)
        ("vendredi de 10h à midi", "friday from 10 to 12"),
        ("Freitag von 10 bis Mittag", "friday from 10 to 12"),
        ("demain de midi à 14h", "tomorrow from 12 to 14"),
        # an hour said small, and a list closed with nothing more (h-fresh23)
        ("un'oretta", "an hour"),
        ("uma horinha", "an hour"),
        ("Laktose, sonst nichts", "Laktose, nothing else"),
        ("noci, niente altro", "noci, nothing else"),
        # one clock hour, and an hour of the afternoon or evening (lead, session 18)
        ("el lunes a las 7", "el monday at 7"),
        ("mañana a las 5 de la tarde", "tomorrow at 5 pm"),
        ("a las siete", "at 7"),
        ("lundi à 19h30", "monday at 19:30"),  # "19h30" written as the English clock
        ("vendredi à 7 heures du soir", "friday at 7 pm"),
        ("montags um 19 Uhr", "mondays at 19"),
        ("lunedì alle 19", "monday at 19"),
        ("segunda às 19h", "monday at 19"),
        ("alle 2 Tage", "alle 2 days"),  # every two days in German: no hour
    ],
)
def test_answer_words_of_five_languages_are_written_in_english(typed: str, english: str) -> None:
    assert in_english(typed) == english


@pytest.mark.parametrize(
    "english",
    [
        "I said so",
        "Dom",
        "see you on sat",
        "mar 3",
        "do it",
        "the week-end plan",
        "a hundred",
        # "a", "as", "um" are English too: an hour only with its unit after it
        "a 2 hour session",
        "um 3 hours",
        "as 5 people",
    ],
)
def test_english_and_names_are_left_as_typed(english: str) -> None:
    # "sat", "mar", "do" are weekday abbreviations elsewhere but English words first
    assert in_english(english) == english.replace("week-end", "weekend")


def test_weekday_names_come_from_cldr_in_every_language() -> None:
    names = weekday_names()
    assert names["mittwoch"] == names["mercredi"] == names["miercoles"] == names["quarta"] == "wednesday"
    assert names["domenica"] == "sunday" and names["sabado"] == "saturday"
    assert "mar" not in names and "sam" not in names  # common English words


def _days(text: str) -> object:
    """An English-only reader, as flows have: a weekday name or nothing."""
    found = [d for d in ("monday", "friday") if d in text.lower()]
    return found or None


def test_a_parser_reads_the_english_when_the_typed_message_gives_no_answer() -> None:
    parser = Parser(_days, "a weekday")
    assert parser("friday") == ["friday"]
    assert parser("viernes") == ["friday"]
    assert parser("ningún día") is None  # nothing to read in either


def test_the_english_reading_wins_when_it_reads_more() -> None:
    def window(text: str) -> object:
        day = "friday" if "friday" in text.lower() or "venerd" in text.lower() else None
        return (day, "9-11" if "from 9 to 11" in text else "default") if day else None

    assert Parser(window, "a window")("venerdì dalle 9 alle 11") == ("friday", "9-11")


def test_free_text_keeps_the_users_words_but_reads_a_none() -> None:
    comments = optional(free_text())
    assert comments("el martes me duele la espalda") == "el martes me duele la espalda"
    assert comments("ninguna") is EMPTY
    assert Parser(lambda t: Invalid("no"), "x")("lunes") == Invalid("no")  # refused both ways


def _lives_in(text: str) -> object:
    m = re.fullmatch(r"i live in (\w+)", text.strip(), re.I)
    if m is None:
        return Invalid(f"I don't know where {text!r} is.")
    return m.group(1) if m.group(1) != "Valencia" else Invalid("Several places are called Valencia.")


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("vivo en Sevilla", "Sevilla"),
        ("ich wohne in Köln", "Köln"),
        ("j'habite à Lyon", "Lyon"),
        ("moro em Lisboa", "Lisboa"),
        ("vivo en Valencia", Invalid("Several places are called Valencia.")),
    ],
)
def test_a_cue_phrase_of_another_language_is_read_as_the_english_cue(typed: str, read: object) -> None:
    # "vivo en Valencia" was "I don't know where 'vivo en Valencia' is": the refusal of the words as
    # typed, where the English reading knew the place and that it is ambiguous
    assert Parser(_lives_in, "a place")(typed) == read


def test_free_text_keeps_a_cue_phrase_as_typed() -> None:
    assert free_text()("vivo en Sevilla") == "vivo en Sevilla"


@pytest.mark.parametrize(("typed", "yes"), [("sim", True), ("claro", True), ("no, está mal", False), ("não", False)])
def test_yes_and_no_of_other_languages(typed: str, yes: bool) -> None:
    assert read_yes_no(typed) is yes


def test_a_broken_table_says_what_to_fix(tmp_path: Path) -> None:
    bad = tmp_path / "gloss.yaml"
    bad.write_text("phrases:\n  none: [nada]\n  nothing: [nada]\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="'nada' is listed under both"):
        load_gloss(bad)
    bad.write_text("phrases: {}\nframes: [{pattern: '(', english: x}]\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="does not compile"):
        load_gloss(bad)


def test_the_shipped_table_loads() -> None:
    table = load_gloss()
    assert "none" in table.phrases and table.frames


def test_a_word_the_gloss_writes_is_no_misspelling_of_an_option() -> None:
    # "keine Geräte" reads as "none Geräte"; "none" is an English word, not a typo of "tone"
    from flows.fitness.readers import read_goal

    assert read_goal("keine Geräte") is None and read_goal("none") is None
    assert read_goal("musle gain") == "muscle_gain"  # a typo is still read
