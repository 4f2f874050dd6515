"""Placement banks beyond English: the shipped ones load and hold to the shipped rules, a broken
one says what to fix, and learners of each shipped language are placed with their own bank."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import flows.language_buddy.assessment as assessment
from engine import DataFileError, Engine, Resources, SqlStore, TurnResult
from flows.language_buddy.assessment import answer_parser, bank_for, is_correct, shipped_banks
from flows.language_buddy.bank_file import LEVELS, MIN_SHIPPED, load_bank, load_shipped, normalise

BOT = "language-buddy"
SHIPPED_LANGUAGES = {"en", "es", "de", "fr"}
# every level right, in letters (the shipped es/de/fr banks spread the right letter a, b, c)
GOOD_BANK = """
language: es
levels:
  A1:
    - {question: "Elige: 'Yo ___ estudiante.'", options: {a: "soy", b: "estoy"}, answer: a}
    - {question: "Elige el artículo: '___ casa es grande.'", options: {a: "El", b: "La"}, answer: b}
"""


def talk(engine: Engine, *lines: str, user: str = "u") -> TurnResult:
    result = None
    for line in lines:
        result = engine.turn(BOT, user, line)
    assert result is not None
    return result


@pytest.fixture
def shipped_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shipped folder copied where a test may break a bank, and used in its place."""
    folder = tmp_path / "assessment"
    shutil.copytree(assessment.SHIPPED, folder)
    monkeypatch.setattr(assessment, "SHIPPED", folder)
    return folder


# -- the shipped banks ----------------------------------------------------------------------


def test_banks_are_shipped_for_english_spanish_german_and_french() -> None:
    assert {p.stem for p in shipped_banks()} >= SHIPPED_LANGUAGES


@pytest.mark.parametrize("path", shipped_banks(), ids=lambda p: p.stem)
def test_each_shipped_bank_places_its_language_from_a1_to_c2(path: Path) -> None:
    bank = load_shipped(path)
    assert bank.language == path.stem
    assert tuple(bank.levels) == LEVELS
    for questions in bank.levels.values():
        assert len(questions) >= MIN_SHIPPED
        for q in questions:
            if q.is_choice:  # one right letter, options that read apart
                assert q.accepted[0] in q.options
                assert len({normalise(v) for v in q.options.values()}) == len(q.options)


@pytest.mark.parametrize("name", ["es", "de", "fr"])
def test_always_the_same_letter_passes_no_level(name: str) -> None:
    """A guesser who answers 'a' (or 'b', or 'c') to everything is placed nowhere above A1."""
    bank = load_shipped(assessment.SHIPPED / f"{name}.yaml")
    for letter in "abc":
        for level, questions in bank.levels.items():
            right = sum(is_correct(q, letter) for q in questions)
            assert right * 2 <= len(questions), f"{name} {level}: {letter!r} is right {right} times"


# -- a broken bank says what to fix ---------------------------------------------------------


def test_a_shipped_bank_in_the_wrong_file_or_too_thin_names_each_fix(shipped_copy: Path) -> None:
    broken = shipped_copy / "es.yaml"
    broken.write_text(
        "language: fr\nlevels:\n  A1:\n    - {question: 'q1', options: {a: x, b: y}, answer: a}\n"
        "    - {question: 'q2', options: {a: x, b: y}, answer: b}\n"
        "  A2:\n    - {question: 'q3', options: {a: x, b: y}, answer: a}\n",
        encoding="utf-8",
    )
    with pytest.raises(DataFileError) as info:
        load_shipped(broken)
    problems = info.value.problems
    assert str(broken) in str(info.value)
    assert any("'language: fr'" in p and "rename the file to fr.yaml" in p for p in problems)
    assert any("add level(s) B1, B2, C1, C2" in p for p in problems)
    assert any(p.startswith("A2: 1 question(s)") and f"at least {MIN_SHIPPED} per level" in p for p in problems)


def test_a_shipped_bank_without_its_language_is_told_which_to_add(shipped_copy: Path) -> None:
    path = shipped_copy / "de.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("language: de\n", ""), encoding="utf-8")
    with pytest.raises(DataFileError, match="add 'language: de'"):
        load_shipped(path)


def test_a_broken_shipped_bank_stops_the_placement_instead_of_asking_its_questions(shipped_copy: Path) -> None:
    path = shipped_copy / "fr.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("language: fr", "language: es"), encoding="utf-8")
    with pytest.raises(DataFileError, match="rename the file"):
        bank_for(Resources(), "fr")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("language: spanish\n" + GOOD_BANK.split("\n", 2)[2], "two-letter ISO 639-1 code"),
        ("levels: {A1: [{question: q, options: {a: est, b: 'Est.', c: x}, answer: a}]}", "'a' and 'b' read the same"),
        (
            "levels: {A1: [{question: q, options: {a: x, b: y}, answer: a}, "
            "{question: ' Q ', options: {a: x, b: y}, answer: b}]}",
            "A1 question 2: the same question as A1 question 1",
        ),
        ("levels: {A1: [{question: q, options: {a: x, b: y}, answer: c}]}", "must be one of the option letters (a, b)"),
        (
            "levels: {A1: [{question: q, options: {a: as, b: a}, answer: a}]}",
            "option 'b' ('a') reads as the letter 'a'",
        ),
    ],
)
def test_bank_validation_names_what_to_fix(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bank.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_bank(path)
    assert problem in str(info.value)


def test_the_same_question_with_other_options_is_its_own(tmp_path: Path) -> None:
    path = tmp_path / "bank.yaml"
    path.write_text(
        "levels: {A1: [{question: 'Choose:', options: {a: x, b: y}, answer: a}, "
        "{question: 'Choose:', options: {a: u, b: v}, answer: b}]}",
        encoding="utf-8",
    )
    assert len(load_bank(path).levels["A1"]) == 2


# -- answers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said", ["no sé", "No se", "keine Ahnung", "Ich weiß es nicht", "je ne sais pas", "Aucune idée"]
)
def test_i_dont_know_in_the_languages_of_the_banks_is_a_wrong_answer(said: str) -> None:
    bank = load_shipped(assessment.SHIPPED / "es.yaml")
    q = bank.question(0, 0)
    assert answer_parser(q)(said) == "?"
    assert not is_correct(q, "?")


# -- placing learners -----------------------------------------------------------------------


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return Engine(SqlStore(str(tmp_path / "placement.db")))


@pytest.mark.parametrize(("language", "head"), [("Spanish", "Elige"), ("German", "Wähle"), ("French", "Choisissez")])
def test_a_learner_of_a_shipped_language_gets_its_test_not_a_level(engine: Engine, language: str, head: str) -> None:
    r = talk(engine, "Hello", "Kim", "English", language, "London")
    assert r.state == "assess" and f"placement test in {language}" in r.reply
    assert f"[A1 · question 1 of 3] {head}" in r.reply
    assert "start you at level A1" not in r.reply


def test_a_language_without_a_bank_is_told_so_and_starts_at_a1(engine: Engine) -> None:
    r = talk(engine, "Hello", "Kim", "English", "Italian", "Rome")
    assert r.state == "confirm" and r.slots["level"] == "A1"
    assert "I don't have a placement test for Italian yet, so I'll start you at level A1" in r.reply


def bank_slot(r: TurnResult) -> dict[str, object]:
    bank = r.slots["bank"]
    assert isinstance(bank, dict)
    return dict(bank)


def run_bank(tmp_path: Path, text: str) -> Resources:
    path = tmp_path / "run_bank.yaml"
    path.write_text(text, encoding="utf-8")
    return Resources(assessment=path)


def test_a_run_bank_that_names_its_language_places_only_learners_of_it(tmp_path: Path) -> None:
    engine = Engine(SqlStore(str(tmp_path / "run.db")), resources=run_bank(tmp_path, GOOD_BANK))
    r = talk(engine, "Hello", "Kim", "English", "Spanish", "Madrid", user="es")
    assert "[A1 · question 1 of 2] Elige: 'Yo ___ estudiante.'" in r.reply  # the run's Spanish bank
    r = talk(engine, "a", "b", user="es")
    assert (r.state, r.slots["level"]) == ("confirm", "A1")
    r = talk(engine, "Hello", "Kim", "English", "German", "Berlin", user="de")
    assert "[A1 · question 1 of 3] Wähle" in r.reply  # not the run's: the shipped German one
    assert bank_slot(r) == {
        "kind": "shipped",
        "name": "de",
        "digest": load_shipped(assessment.SHIPPED / "de.yaml").digest,
    }
    r = talk(engine, "b", user="de")  # the test goes on: the run's bank is no reason to start over
    assert "[A1 · question 2 of 3]" in r.reply and r.slots["correct"] == 1


def test_a_run_bank_without_a_language_still_places_any_learner(tmp_path: Path) -> None:
    text = GOOD_BANK.replace("language: es\n", "")
    engine = Engine(SqlStore(str(tmp_path / "run.db")), resources=run_bank(tmp_path, text))
    r = talk(engine, "Hello", "Kim", "English", "German", "Berlin")
    assert "[A1 · question 1 of 2] Elige" in r.reply and bank_slot(r)["kind"] == "run"


@pytest.mark.parametrize("said", ["children creo", "children I guess", "children, ich glaube", "children"])
def test_an_open_answer_hedged_in_any_language_is_graded_without_the_hedge(said: str) -> None:
    child = next(q for q in load_shipped(assessment.SHIPPED / "en.yaml").levels["A1"] if not q.is_choice)
    assert is_correct(child, said) is (said != "children, ich glaube")  # two clauses: not one hedged answer
