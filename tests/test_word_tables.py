"""The engine's word classes in six languages, one table each (engine/data/and.yaml, but.yaml, i_am.yaml,
nothing_else.yaml, bounds.yaml, for_now.yaml; engine/tables.py): each loads and is checked on load, and each
of its words does its job wherever it is read, in the engine and in the bots that read the table instead of a
copy. Every word of a table is tried, so a word added that a reader cannot use fails here.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import yaml

from engine.context import StepContext
from engine.errors import DataFileError
from engine.extract import Parser, declines, free_text, integer, said_number, without_closing
from engine.fact_clauses import clauses
from engine.tables import (
    LANGUAGES,
    and_words,
    bound_words,
    but_words,
    for_now_words,
    i_am_words,
    nothing_else_words,
)
from flows.fitness.food import parse_allergies
from flows.fitness.readers import minutes_in, parse_equipment
from flows.language_buddy.languages import nationality_language
from flows.shared.feedback import FeedbackSlots, sense_category
from tests.test_reading import commands, frame, session

LOADERS = {
    "and.yaml": and_words,
    "but.yaml": but_words,
    "i_am.yaml": i_am_words,
    "nothing_else.yaml": nothing_else_words,
    "bounds.yaml": bound_words,
    "for_now.yaml": for_now_words,
}
SIX = {"en": ["x"], "es": ["x"], "de": ["x"], "fr": ["x"], "pt": ["x"], "it": ["x"]}


def _yaml(tables: dict[str, Any]) -> str:
    return yaml.safe_dump(tables, allow_unicode=True)


# -- each table loads and is checked on load -------------------------------------------------


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_the_shipped_table_loads_with_six_languages(name: str) -> None:
    table = LOADERS[name]()
    parts = [getattr(table, p) for p in type(table).model_fields] if name in ("but.yaml", "bounds.yaml") else [table]
    for part in parts:
        assert all(getattr(part, lang) for lang in LANGUAGES), name


@pytest.mark.parametrize("name", sorted(LOADERS))
@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda t: t.pop("it"), "it\n  Field required"),
        (lambda t: t.update(it=[]), "it: no phrase listed"),
        (lambda t: t.update(de=["und", "und"]), "de: und listed twice"),
        (lambda t: t.update(en=["And"]), "'And' must be lower case"),
        (lambda t: t.update(nl=["en"]), "nl\n  Extra inputs are not permitted"),
    ],
)
def test_a_broken_table_says_what_to_fix(name: str, change: Any, says: str, tmp_path: Path) -> None:
    words = {k: list(v) for k, v in SIX.items()}
    change(words)
    tables = {"but": words, "though": SIX} if name == "but.yaml" else words
    tables = {"before": words, "after": SIX} if name == "bounds.yaml" else tables
    bad = tmp_path / name
    bad.write_text(_yaml(tables), encoding="utf-8")
    with pytest.raises(DataFileError, match=says.replace("\n", r"\n")) as e:
        LOADERS[name].__wrapped__(bad)  # type: ignore[attr-defined]
    assert str(bad) in str(e.value)


@pytest.mark.parametrize("name", ["i_am.yaml", "nothing_else.yaml", "bounds.yaml", "for_now.yaml"])
def test_a_table_matched_on_folded_text_is_written_folded(name: str, tmp_path: Path) -> None:
    words = {**SIX, "es": ["nada más"]}
    bad = tmp_path / name
    bad.write_text(_yaml({"before": words, "after": SIX} if name == "bounds.yaml" else words), encoding="utf-8")
    with pytest.raises(DataFileError, match="'nada más' must be written folded"):
        LOADERS[name].__wrapped__(bad)  # type: ignore[attr-defined]


def test_a_missing_table_names_its_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match='"and" words'):
        and_words.__wrapped__(tmp_path / "and.yaml")


# -- "and": where clauses part, and the items of a list -------------------------------------


@pytest.mark.parametrize("word", and_words().all())
def test_and_joins_a_second_clause_in_every_language(word: str) -> None:
    assert [c.text for c in clauses(f"vegetarian {word} gluten intolerant")] == ["vegetarian", "gluten intolerant"]


@pytest.mark.parametrize("word", and_words().all())
def test_and_joins_foods_in_every_language(word: str) -> None:
    assert parse_allergies(f"Nüsse {word} Erdnüsse") == ["nuts", "peanuts"]


@pytest.mark.parametrize("word", and_words().all())
def test_and_parts_the_items_of_an_introduction(word: str) -> None:
    from flows.language_buddy.languages import native_in

    assert native_in(f"Sven, Swedish {word} I want to learn English", weak=True) == "sv"


# -- "but": a contrast -------------------------------------------------------------------------


@pytest.mark.parametrize("word", but_words().but.all())
def test_but_joins_a_second_clause_in_every_language(word: str) -> None:
    assert [c.text for c in clauses(f"no meat {word} fish")] == ["no meat", "fish"]


@pytest.mark.parametrize("word", [*but_words().but.all(), *but_words().though.all()])
def test_the_complaint_after_any_contrast_says_the_feedback_category(word: str) -> None:
    ctx = SimpleNamespace(slots=FeedbackSlots(comment=f"the app freezes {word} the lessons are too easy"))
    sense_category(cast(StepContext[FeedbackSlots], ctx))
    assert ctx.slots.category == "content"


def test_without_a_contrast_the_whole_comment_says_the_category() -> None:
    # the control: the same words joined by no contrast word read as the app's failure first (a bug)
    ctx = SimpleNamespace(slots=FeedbackSlots(comment="the app freezes and the lessons are too easy"))
    sense_category(cast(StepContext[FeedbackSlots], ctx))
    assert ctx.slots.category == "bug"


# -- "I am" ----------------------------------------------------------------------------------


@pytest.mark.parametrize("phrase", i_am_words().all())
def test_i_am_before_a_condition_names_the_food(phrase: str) -> None:
    assert parse_allergies(f"{phrase} celíaca") == ["gluten"]


@pytest.mark.parametrize("phrase", i_am_words().all())
def test_i_am_before_a_nationality_says_the_native_language(phrase: str) -> None:
    assert nationality_language(f"{phrase} Österreicher") == "de"


# -- a list closed with nothing more -----------------------------------------------------------


def _listed(text: str) -> object:
    items = [i.strip() for i in text.replace(" and ", ",").split(",") if i.strip()]
    return items or None


LIST = Parser(_listed, "a list")


@pytest.mark.parametrize("phrase", nothing_else_words().all())
def test_a_list_closed_with_nothing_more_is_its_items_at_any_list_question(phrase: str) -> None:
    # the engine's answer reading takes the closing words off whatever list parser reads them
    assert LIST(f"mats, a bench, {phrase}") == ["mats", "a bench"]
    assert LIST(f"mats and {phrase.upper()}!") == ["mats"]
    assert parse_equipment(f"dumbbells, {phrase}") == ["dumbbells"]
    assert parse_allergies(f"Laktoseintoleranz, {phrase}") == ["lactose"]


@pytest.mark.parametrize("phrase", nothing_else_words().all())
def test_the_closing_words_stay_where_the_answer_is_no_list(phrase: str) -> None:
    assert free_text()(f"the app, {phrase}") == f"the app, {phrase}"
    assert without_closing(f"{phrase} comes to mind") == f"{phrase} comes to mind"
    assert without_closing(f"something{phrase}") == f"something{phrase}"


# -- a number's bound --------------------------------------------------------------------------


@pytest.mark.parametrize("phrase", bound_words().before.all())
def test_a_bound_before_a_number_is_its_value_alone_and_gives_way_to_another(phrase: str) -> None:
    assert integer(1, 200)(f"{phrase} 60") == 60
    assert said_number(f"45, {phrase} 60") == [45]
    assert said_number(f"{phrase} 60, ideally 45") == [45]
    assert minutes_in(f"{phrase} an hour") == 60
    assert minutes_in(f"{phrase} an hour, usually 30 min") == 30


@pytest.mark.parametrize("phrase", bound_words().after.all())
def test_a_bound_after_a_number_is_its_value_alone_and_gives_way_to_another(phrase: str) -> None:
    assert integer(1, 200)(f"60 {phrase}") == 60
    assert said_number(f"45, 60 {phrase}") == [45]
    assert said_number(f"45 minutes, 60 minutes {phrase}") == [45]
    assert minutes_in(f"45 minutes, an hour {phrase}") == 45
    assert minutes_in(f"an hour {phrase}") == 60


def test_two_numbers_neither_said_freely_stay_unclear() -> None:
    assert said_number("45, 60") == [45, 60]
    assert said_number("45 or 60") == [45, 60]
    # a bound over two alternatives bounds both: no number is said freely
    assert said_number("up to 3 or 4 days") == [3, 4]
    assert said_number("no más de 3 o 4 días") == [3, 4]


# -- "for now" ---------------------------------------------------------------------------------


@pytest.mark.parametrize("phrase", for_now_words().all())
def test_a_none_for_now_is_still_a_none(phrase: str) -> None:
    assert declines(f"none {phrase}")
    assert declines(f"{phrase}, nothing")
    assert not declines(phrase)


# -- being back at a paused run: one six-language table ------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["hi again", "hola de nuevo", "ciao di nuovo", "hi, i'm back", "ok", "vale", "machen wir weiter", "continuons",
     "riprendiamo", "vamos continuar", "where were we?"],
)  # fmt: skip
def test_being_back_goes_on_with_the_paused_run(text: str) -> None:
    paused = session(stack=[frame("feedback", "details", paused=True)])
    got = commands(paused, text)
    assert len(got) == 1 and got[0].kind == "start_flow" and got[0].flow == "feedback", got  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["interesting", "brb", "thanks for the help!", "the app is slow"])
def test_other_small_talk_leaves_the_run_paused(text: str) -> None:
    paused = session(stack=[frame("feedback", "details", paused=True)])
    assert all(c.kind != "start_flow" for c in commands(paused, text))
