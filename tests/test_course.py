"""Study-pal's data and formulas: course validation (each error), grading, mastery,
severity thresholds, the time-window parser and the Pomodoro layout."""

from __future__ import annotations

import copy
import os
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.errors import DataFileError
from engine.extract import Invalid
from flows.study_pal import timewindow
from flows.study_pal.course import DEFAULT_COURSE, MASTERY_THRESHOLD, Exercise, get_course, load_course, parse_course
from flows.study_pal.marking import check_answer
from flows.study_pal.mastery import ExerciseResult, exercise_score, mastery, performance, severity, weak_points
from flows.study_pal.scheduling import allocate, pomodoros
from flows.study_pal.subjects import read_subject, subjects
from flows.study_pal.timewindow import Window, default_window, parse_window, window_parser

# -- course validation ----------------------------------------------------------------------


def chunk(n: int = 1) -> dict[str, Any]:
    return {"explain": f"part {n}", "exercise": {"question": "1+1?", "answers": ["2"]}, "hint": "add"}


def concept(cid: str, prereqs: list[str] | None = None, chunks: int = 3) -> dict[str, Any]:
    chunks_ = [chunk(i) for i in range(chunks)]
    return {"id": cid, "title": cid.title(), "prerequisites": prereqs or [], "chunks": chunks_}


def course(*concepts: dict[str, Any]) -> dict[str, Any]:
    return {"title": "Test course", "concepts": list(concepts)}


def problems(data: object) -> list[str]:
    with pytest.raises(DataFileError) as info:
        parse_course(data, "test.yaml")
    assert info.value.path == "test.yaml"
    return info.value.problems


def test_the_shipped_course_is_valid_and_ordered_prerequisites_first() -> None:
    c = load_course(DEFAULT_COURSE)
    assert len(c.concepts) >= 3
    assert c.order.index("limits") < c.order.index("derivatives") < c.order.index("integration")
    assert all(3 <= len(x.chunks) <= 6 for x in c.concepts)
    assert c.all_prerequisites("integration") == ["limits", "derivatives"]


def test_a_valid_course_parses() -> None:
    c = parse_course(course(concept("b", ["a"]), concept("a")))
    assert c.order == ["a", "b"]


def test_unknown_prerequisite_names_the_concept() -> None:
    found = problems(course(concept("a"), concept("b", ["nope"])))
    assert found == ["concept 'b': unknown prerequisite 'nope'"]


def test_a_cycle_is_reported_with_its_path() -> None:
    found = problems(course(concept("root"), concept("a", ["b"]), concept("b", ["a"])))
    assert "concept 'a': prerequisite cycle a -> b -> a" in found


def test_a_self_prerequisite_is_a_cycle() -> None:
    found = problems(course(concept("root"), concept("a", ["a"])))
    assert "concept 'a': prerequisite cycle a -> a" in found


def test_a_concept_behind_a_cycle_is_unreachable() -> None:
    found = problems(course(concept("root"), concept("a", ["b"]), concept("b", ["a"]), concept("c", ["a"])))
    assert any(p.startswith("concept 'c' is unreachable from a root concept") for p in found)
    assert not any(p.startswith("concept 'a' is unreachable") for p in found)  # reported as the cycle


def test_no_root_at_all_is_reported() -> None:
    found = problems(course(concept("a", ["b"]), concept("b", ["a"])))
    assert "the course has no root concept: every concept has prerequisites" in found


def test_empty_and_wrong_sized_chunk_lists_name_the_concept() -> None:
    found = problems(course(concept("a", chunks=0), concept("b", chunks=2), concept("c", chunks=7)))
    assert "concept 'a' has no chunks; each concept needs 3 to 6" in found
    assert "concept 'b' has 2 chunk(s); each concept needs 3 to 6" in found
    assert "concept 'c' has 7 chunk(s); each concept needs 3 to 6" in found


def test_a_duplicate_id_is_reported() -> None:
    assert "concept 'a' is defined more than once" in problems(course(concept("a"), concept("a")))


def test_malformed_exercises_name_the_concept_and_field() -> None:
    a = concept("a")
    a["chunks"][0]["exercise"] = {"question": "pick", "options": {"a": "x", "b": "y"}, "answer": "c"}
    a["chunks"][1]["exercise"] = {"question": "say", "answers": []}
    a["chunks"][2]["exercise"] = {"question": "both", "answers": ["1"], "options": {"a": "1"}, "answer": "a"}
    found = problems(course(a))
    assert any(p.startswith("concept 'a': chunks.0.exercise:") and "'c' is not one of the options" in p for p in found)
    assert any(p.startswith("concept 'a': chunks.1.exercise:") and "at least one" in p for p in found)
    assert any(p.startswith("concept 'a': chunks.2.exercise:") and "not both" in p for p in found)


def test_missing_fields_and_bad_shapes() -> None:
    assert problems({"title": "x"}) == ["the course must be a mapping with a 'concepts' list"]
    assert problems(course()) == ["the course has no concepts"]
    found = problems(course({"title": "No id", "chunks": [chunk()] * 3}, {**concept("b"), "colour": "red"}))
    assert "concept #1 (no id): id: Field required" in found
    assert any(p.startswith("concept 'b': colour:") for p in found)


def test_a_concept_with_a_bad_chunk_still_counts_in_the_graph() -> None:
    # the root's malformed chunk is its only problem: no "unknown prerequisite 'a'", no "no root"
    a = concept("a")
    a["chunks"][0]["exercise"] = {"question": "say"}
    found = problems(course(a, concept("b", ["a"])))
    assert len(found) == 1 and found[0].startswith("concept 'a': chunks.0.exercise: needs 'answers")
    # and its own unknown prerequisite is still reported
    a["prerequisites"] = ["ghost"]
    assert "concept 'a': unknown prerequisite 'ghost'" in problems(course(a, concept("b")))


def test_messages_carry_no_pydantic_prefix() -> None:
    a = concept("a")
    a["chunks"][0]["exercise"] = {"question": "pick", "options": {"a": "x"}, "answer": "z"}
    assert not any("Value error" in p for p in problems(course(a)))


def test_every_cycle_of_a_group_is_reported() -> None:
    found = problems(course(concept("root"), concept("a", ["b", "c"]), concept("b", ["a"]), concept("c", ["a"])))
    assert "concept 'a': prerequisite cycle a -> b -> a" in found
    assert "concept 'c': prerequisite cycle c -> a -> c" in found
    assert not any("unreachable" in p for p in found)


def test_a_name_shared_by_two_concepts_is_reported() -> None:
    b = {**concept("b"), "aliases": ["a"]}
    assert problems(course(concept("a"), b)) == ["concept 'b': the name 'a' already refers to concept 'a'"]


def test_every_problem_is_reported_at_once() -> None:
    found = problems(course(concept("a", chunks=1), concept("b", ["ghost"]), concept("c", ["c"])))
    assert len(found) == 3


def test_load_course_reports_unreadable_and_invalid_yaml(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot read"):
        load_course(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("concepts: [\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="not valid YAML"):
        load_course(bad)


def test_get_course_picks_up_an_edited_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(course(concept("a"))), encoding="utf-8")
    assert get_course(path).order == ["a"]
    edited = copy.deepcopy(course(concept("a"), concept("b", ["a"])))
    path.write_text(yaml.safe_dump(edited), encoding="utf-8")
    os.utime(path, ns=(1, 2_000_000_000_000_000_000))
    assert get_course(path).order == ["a", "b"]


def test_find_prefers_the_first_concept_mentioned() -> None:
    c = load_course(DEFAULT_COURSE)
    assert c.find("teach me derivatives") == "derivatives"
    assert c.find("what is a limit?") == "limits"
    assert c.find("that's all for limits, now derivatives") == "limits"
    assert c.find("what is an antiderivative?") == "integration"
    assert c.find("teach me physics") is None
    assert c.mentions_course("What is calculus?")


@pytest.mark.parametrize(
    ("text", "found"),
    [("teach me derivitives", ["derivatives"]), ("intergals pls", ["integration"]), ("limts", ["limits"]),
     ("limits and diferentiation", ["limits", "derivatives"]), ("contiuity?", ["continuity"]),
     ("let's continue", []), ("an integer", []), ("definitely", []), ("I need a break", [])],
)  # fmt: skip
def test_misspelt_topics_are_found_and_everyday_words_are_not(text: str, found: list[str]) -> None:
    assert load_course(DEFAULT_COURSE).find_all(text) == found


# -- grading --------------------------------------------------------------------------------


OPEN = Exercise(question="d/dx x^4?", answers=["4x^3"])
NUMERIC = Exercise(question="half?", answers=["0.5"])
CHOICE = Exercise(question="which?", options={"a": "6x", "b": "x³", "c": "x³/3"}, answer="b")


@pytest.mark.parametrize("text", ["4x^3", " 4X^3 ", "4 x ^ 3", "4x³", "4*x**3", "f'(x) = 4x^3", "it's 4x^3."])
def test_open_answers_ignore_case_whitespace_and_notation(text: str) -> None:
    assert check_answer(OPEN, text)


@pytest.mark.parametrize("text", ["1/2", ".5", "0.50", "0,5", "the answer is 0.5", "1 / 2"])
def test_numbers_compare_numerically(text: str) -> None:
    assert check_answer(NUMERIC, text)


@pytest.mark.parametrize(
    ("exercise", "text"),
    [
        (Exercise(question="lim?", answers=["7"]), "lim = 7"),
        (Exercise(question="lim?", answers=["7"]), "= 7"),
        (Exercise(question="∫ x dx? (no + C)", answers=["x^2/2"]), "x^2/2 + C"),
        (Exercise(question="∫ x dx?", answers=["1/2x^2"]), "½x²"),
        (Exercise(question="a root? (yes/no)", answers=["yes"]), "Yes, it must"),
        (Exercise(question="a root? (yes/no)", answers=["yes"]), "yep"),
        (Exercise(question="a root? (yes/no)", answers=["no"]), "nope, it need not"),
    ],
)
def test_answers_as_students_write_them(exercise: Exercise, text: str) -> None:
    assert check_answer(exercise, text)


SEVEN = Exercise(question="lim?", answers=["7"])
HALF = Exercise(question="1/2 as a fraction?", answers=["1/2"])
NEGATIVE = Exercise(question="slope?", answers=["-4"])


@pytest.mark.parametrize(
    ("exercise", "text"),
    [(SEVEN, "seven"), (SEVEN, "Seven!"), (SEVEN, "the answer is seven"), (SEVEN, "7, I think"),
     (SEVEN, "I'd go with 7"), (SEVEN, "is it seven?"), (NUMERIC, "one half"), (NUMERIC, "a half"),
     (NUMERIC, "zero point five"), (HALF, "0.5"), (HALF, "half"), (NEGATIVE, "minus four"), (NEGATIVE, "negative 4"),
     (Exercise(question="3/4?", answers=["0.75"]), "three quarters"),
     (Exercise(question="slope?", answers=["12"]), "twelve")],
)  # fmt: skip
def test_number_words_and_equivalent_forms(exercise: Exercise, text: str) -> None:
    assert check_answer(exercise, text)


@pytest.mark.parametrize("text", ["not 7", "6 or 7", "seventy", "7 - no wait, 8", "eight"])
def test_number_readings_do_not_accept_wrong_or_taken_back_answers(text: str) -> None:
    assert not check_answer(SEVEN, text)


@pytest.mark.parametrize(
    ("exercise", "text"),
    [
        (Exercise(question="lim?", answers=["7"]), "x = 7 = 8"),
        (Exercise(question="∫ x dx?", answers=["x^2/2"]), "x^2 + C"),
        (Exercise(question="a root? (yes/no)", answers=["no"]), "no idea"),
        (Exercise(question="a root? (yes/no)", answers=["yes"]), "not sure"),
    ],
)
def test_lenient_forms_do_not_accept_wrong_answers(exercise: Exercise, text: str) -> None:
    assert not check_answer(exercise, text)


@pytest.mark.parametrize("text", ["4x^2", "3x^4", "", "0.51"])
def test_wrong_open_answers(text: str) -> None:
    assert not check_answer(OPEN if "x" in text or not text else NUMERIC, text)


@pytest.mark.parametrize("text", ["b", "B", "b)", "(b)", "option b", " b. ", "x³", "X^3", "b) x³", "B. x^3"])
def test_an_option_by_letter_or_text(text: str) -> None:
    assert check_answer(CHOICE, text)


@pytest.mark.parametrize("text", ["a", "c", "x^3/3", "yes", "a) x³", "b, c"])
def test_a_wrong_option(text: str) -> None:
    assert not check_answer(CHOICE, text)


# -- mastery and severity --------------------------------------------------------------------


def result(chunk: int, correct: bool, attempts: int, concept: str = "limits") -> ExerciseResult:
    return ExerciseResult(concept=concept, chunk=chunk, correct=correct, attempts=attempts)


def test_exercise_scores() -> None:
    assert exercise_score(True, 1) == 1.0
    assert exercise_score(True, 2) == 0.5
    assert exercise_score(False, 2) == 0.0


def test_mastery_is_latest_score_per_chunk_over_all_chunks() -> None:
    assert mastery([], "limits", 3) == 0.0
    assert mastery([result(1, True, 1)], "limits", 3) == 0.33
    assert mastery([result(1, True, 1), result(2, True, 2), result(3, False, 2)], "limits", 3) == 0.5
    # a later attempt at the same chunk replaces the earlier one
    assert mastery([result(1, False, 2), result(1, True, 1)], "limits", 1) == 1.0
    # other concepts do not count
    assert mastery([result(1, True, 1, "derivatives")], "limits", 3) == 0.0
    assert mastery([result(1, True, 1), result(2, True, 2)], "limits", 3) < MASTERY_THRESHOLD
    assert mastery([result(1, True, 1), result(2, True, 1), result(3, False, 2)], "limits", 3) >= MASTERY_THRESHOLD


def test_performance_counts_only_attempted_chunks() -> None:
    assert performance([], "limits") is None
    assert performance([result(1, True, 1)], "limits") == 1.0
    assert performance([result(1, True, 2), result(2, False, 2)], "limits") == 0.25


@pytest.mark.parametrize(
    ("score", "level"),
    [(0.0, "severe"), (0.49, "severe"), (0.5, "moderate"), (0.74, "moderate"), (0.75, "mild"), (0.99, "mild"),
     (1.0, None)],
)  # fmt: skip
def test_severity_thresholds(score: float, level: str | None) -> None:
    assert severity(score) == level


def test_weak_points_are_ordered_by_severity_then_score() -> None:
    c = load_course(DEFAULT_COURSE)
    results = [
        result(1, True, 2, "limits"),  # 0.5 moderate
        result(1, False, 2, "derivatives"),  # 0.0 severe
        result(1, True, 1, "integration"),
        result(2, True, 2, "integration"),  # 0.75 mild
        result(1, True, 1, "continuity"),  # 1.0 none
    ]
    weak = weak_points(c, results)
    assert [(w.concept, w.severity, w.score) for w in weak] == [
        ("derivatives", "severe", 0.0),
        ("limits", "moderate", 0.5),
        ("integration", "mild", 0.75),
    ]


# -- time windows ---------------------------------------------------------------------------

NOW = datetime(2025, 5, 7, 10, 0)  # a Wednesday morning
TOMORROW = date(2025, 5, 8)


def window(day: date, a: str, b: str) -> Window:
    return Window(day=day, start=time.fromisoformat(a), end=time.fromisoformat(b))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14-16 tomorrow", window(TOMORROW, "14:00", "16:00")),
        ("Schedule study from 14-15 tomorrow for Math", window(TOMORROW, "14:00", "15:00")),
        ("from 2pm to 4pm on Friday", window(date(2025, 5, 9), "14:00", "16:00")),
        ("2-4pm today", window(NOW.date(), "14:00", "16:00")),
        ("between 9 and 11 on Monday", window(date(2025, 5, 12), "09:00", "11:00")),
        ("14:30–16:00 tomorrow", window(TOMORROW, "14:30", "16:00")),
        ("from 2 to 4", window(NOW.date(), "14:00", "16:00")),
        ("11am-1pm on 2025-05-20", window(date(2025, 5, 20), "11:00", "13:00")),
        ("on Wednesday 9-11", window(date(2025, 5, 14), "09:00", "11:00")),  # today's has passed: next week
        ("next Wednesday 14-16", window(date(2025, 5, 14), "14:00", "16:00")),
        ("9-11", window(TOMORROW, "09:00", "11:00")),  # no day and already past today
        ("tomorrow", window(TOMORROW, "16:00", "18:00")),
        ("noon to 2pm tomorrow", window(TOMORROW, "12:00", "14:00")),
        ("10pm to midnight", window(NOW.date(), "22:00", "23:59")),
        ("tonight 8-10", window(NOW.date(), "20:00", "22:00")),  # a day part marks unmarked hours
        ("tomorrow evening 6-8", window(TOMORROW, "18:00", "20:00")),
        ("tomorrow morning 7-9", window(TOMORROW, "07:00", "09:00")),
        ("at 3pm tomorrow", window(TOMORROW, "15:00", "17:00")),  # a lone start: the default length
        ("from 9 tomorrow", window(TOMORROW, "09:00", "11:00")),
        ("study for 90 minutes tomorrow", window(TOMORROW, "16:00", "17:30")),  # a length: the default start
        ("at 15:00 for an hour on Thursday", window(TOMORROW, "15:00", "16:00")),
        ("half an hour at 9am tomorrow", window(TOMORROW, "09:00", "09:30")),
        ("from now until 6pm", window(NOW.date(), "10:00", "18:00")),
        ("tmrw 14-16", window(TOMORROW, "14:00", "16:00")),
        ("on fri 2-4pm", window(date(2025, 5, 9), "14:00", "16:00")),
        ("on sat 10-12", window(date(2025, 5, 10), "10:00", "12:00")),
        ("I sat down to plan 14-16", window(NOW.date(), "14:00", "16:00")),  # "sat" alone is a verb
    ],
)
def test_time_windows(text: str, expected: Window) -> None:
    assert parse_window(text, NOW) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("16-14 tomorrow", "ends (14:00) before it starts (16:00)"),
        ("14:00-14:10 tomorrow", "too short"),
        ("8-9 today", "already passed today"),
        ("25-26 tomorrow", "can't read"),
        ("14pm-16pm", "can't read"),
        ("from 10pm to 1am tomorrow", "has to end by midnight"),
        ("at 11pm for 2 hours", "has to end by midnight"),
        ("13-1 tomorrow", "starts and ends at 13:00"),
    ],
)
def test_impossible_windows_say_why(text: str, reason: str) -> None:
    found = parse_window(text, NOW)
    assert isinstance(found, Invalid) and reason in found.reason


@pytest.mark.parametrize("text", ["make me a study plan", "for 1-2 hours", "chapter 3", "yes please", "whenever"])
def test_no_window(text: str) -> None:
    assert parse_window(text, NOW) is None


def test_whenever_at_the_window_question_takes_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timewindow, "now", lambda: NOW)
    parse = window_parser()
    assert parse("whenever") == default_window(NOW)
    assert parse("you pick") == default_window(NOW)
    assert parse("banana") is None


def test_default_window_is_the_next_one_not_begun() -> None:
    assert default_window(NOW) == window(NOW.date(), "16:00", "18:00")
    assert default_window(datetime(2025, 5, 7, 17, 0)) == window(TOMORROW, "16:00", "18:00")


def test_subject() -> None:
    assert read_subject("Schedule study from 14-15 tomorrow for Math") == "Math"
    assert read_subject("plan 2 hours for linear algebra on Friday") == "Linear algebra"
    assert read_subject("Yes, create a schedule for me") is None
    assert read_subject("a study plan for these topics please") is None
    assert read_subject("schedule for tomorrow") is None


def test_several_subjects_and_course_topics() -> None:
    c = load_course(DEFAULT_COURSE)
    assert subjects(c, "Limits and derivatives") == ["Limits", "Derivatives"]
    assert subjects(c, "math & physics, math") == ["Math", "Physics"]
    assert subjects(c, "integrals") == ["Integration"]


# -- Pomodoro layout ------------------------------------------------------------------------


def test_pomodoros_take_a_long_break_after_four() -> None:
    slots = pomodoros(window(TOMORROW, "14:00", "17:00"))
    as_text = [f"{a:%H:%M}-{b:%H:%M}" for a, b in slots]
    assert as_text == ["14:00-14:25", "14:30-14:55", "15:00-15:25", "15:30-15:55", "16:10-16:35"]
    assert pomodoros(window(TOMORROW, "14:00", "14:24")) == []


def test_allocation_gives_each_topic_one_then_dhondt() -> None:
    assert allocate(2, [3, 2, 1]) == [1, 1, 0]
    assert allocate(4, [3, 2, 1]) == [2, 1, 1]
    assert allocate(8, [3, 2, 1]) == [4, 3, 1]
    assert allocate(3, [1]) == [3]
    assert allocate(0, [3, 2]) == [0, 0]


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("las derivadas", "derivatives"),
        ("les intégrales", "integration"),
        ("Grenzwerte", "limits"),
        ("continuità", "continuity"),
    ],
)
def test_a_topic_is_found_by_its_name_in_the_learners_language(text: str, concept: str) -> None:
    found = get_course(DEFAULT_COURSE).find(text)
    assert found == concept
