"""LanguageBuddy onboarding: entry rule, profile collection, placement test, confirmation, pause and restart."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from _restart import replay_in_processes

import flows.language_buddy.assessment
from engine import DataFileError, Engine, Resources, ScriptedLLM, SqlStore, TurnResult, default_registry
from engine.authoring.replay import seed_profile
from flows.language_buddy.answers import read_anytime
from flows.language_buddy.assessment import answer_parser, is_correct, shipped_banks
from flows.language_buddy.bank_file import LEVELS, Question, load_bank
from flows.language_buddy.languages import language_name
from flows.language_buddy.onboarding import onboarding
from flows.language_buddy.profile import OnboardingSlots

ROOT = Path(__file__).resolve().parent.parent
BANKS = Path(__file__).parent / "replays" / "banks"
RESTART = Path(__file__).parent / "replays" / "restart"
BOT = "language-buddy"
PROFILE = {"name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin", "level": "B1"}
# answers for banks/two_per_level.yaml, level by level: both right passes, one right fails
RIGHT = {"A1": ["no", "a"], "A2": ["ate", "b"], "B1": ["b", "written"], "B2": ["c", "exhausted"],
         "C1": ["b", "resilience"], "C2": ["a", "would"]}  # fmt: skip
WRONG = {"A1": ["x", "b"], "A2": ["x", "a"], "B1": ["a", "x"], "B2": ["a", "x"], "C1": ["a", "x"], "C2": ["b", "x"]}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "onboarding.db")


@pytest.fixture
def engine(db: str) -> Iterator[Engine]:
    store = SqlStore(db)
    yield Engine(store, resources=Resources(assessment=BANKS / "two_per_level.yaml"))
    store.close()


def talk(engine: Engine, *lines: str, user: str = "max") -> TurnResult:
    result = None
    for line in lines:
        result = engine.turn(BOT, user, line)
    assert result is not None
    return result


def profiles(engine: Engine, user: str = "max") -> list[dict[str, object]]:
    return [dict(r.data) for r in engine.store.records("profile", bot=BOT, user=user)]


def history(engine: Engine, user: str = "max") -> list[str]:
    s = engine.session(BOT, user)
    return [m.content for m in engine.store.history(s.id, 1000)] if s else []


PROFILE_TURNS = ("Hello!", "Max", "Deutsch", "English", "Berlin")


def test_hello_from_a_new_user_starts_onboarding(engine: Engine) -> None:
    r = talk(engine, "Hello!")
    assert (r.flow, r.state) == ("onboarding", "ask_name")
    assert "LanguageBuddy" in r.reply and "What's your name?" in r.reply


def test_whatever_a_new_user_says_first_starts_onboarding(engine: Engine) -> None:
    r = talk(engine, "I want to learn Spanish")
    assert (r.flow, r.state) == ("onboarding", "ask_name")


def test_feedback_asked_for_first_comes_first_and_onboarding_after(engine: Engine) -> None:
    # the onboarding lets feedback interrupt its questions: asked for before them, it is not lost to
    # the first one (it was: "What's your name?", and the request gone); no main conversation before
    # the profile either way
    r = talk(engine, "I want to give feedback")
    assert (r.flow, r.state) == ("feedback", "rating")
    for text in ("4", "the voice is too fast", "usability"):
        r = talk(engine, text)
    assert r.flow == "main" and "saved your feedback" in r.reply
    r = talk(engine, "ok")
    assert (r.flow, r.state) == ("onboarding", "ask_name")


def test_a_user_with_a_profile_goes_to_the_main_conversation(engine: Engine) -> None:
    seed_profile(engine.store, BOT, "max", dict(PROFILE))
    assert talk(engine, "hello").flow == "main"
    assert talk(engine, "I want to give feedback").flow == "feedback"


def test_happy_path_saves_the_profile_and_greets_by_name_at_the_level(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS)
    r = talk(engine, *RIGHT["A1"], *RIGHT["A2"], *RIGHT["B1"], "c", "tired")
    assert r.state == "confirm" and "your level is B1" in r.reply
    assert "name Max; native language German; learning English; timezone Europe/Berlin; level B1" in r.reply
    assert profiles(engine) == []
    r = talk(engine, "yes")
    assert r.flow == "main"
    assert "Great, Max! Let's start practising English at level B1." in r.reply
    assert profiles(engine) == [PROFILE]
    assert "User Max onboarded. Level: B1. Languages: de -> en." in history(engine)
    assert r.trace is not None and r.trace.records == ["profile"]  # written with the turn that closed the flow
    assert talk(engine, "hi").flow == "main"  # the entry rule is satisfied now


def test_several_slots_in_one_message_are_not_asked_again(engine: Engine) -> None:
    r = talk(engine, "I'm Max from Berlin, I speak German and want to learn English")
    assert (r.flow, r.state) == ("onboarding", "assess")
    assert r.slots["name"] == "Max" and r.slots["native_language"] == "de"
    assert r.slots["target_language"] == "en" and r.slots["timezone"] == "Europe/Berlin"
    assert "Noted so far: name: Max; native language: German; learning: English; timezone: Europe/Berlin" in r.reply
    assert "name?" not in r.reply and "timezone?" not in r.reply


def test_some_slots_at_once_leave_the_rest_to_be_asked(engine: Engine) -> None:
    r = talk(engine, "Hi, my name is Anna and I'm learning Spanish")
    assert r.state == "ask_native" and r.slots["target_language"] == "es"
    r = talk(engine, "French")
    assert r.state == "ask_timezone"  # the target was given already


def test_a_name_correction_mid_test_keeps_the_question(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS, "no")
    r = talk(engine, "actually my name is Maxim")
    assert (r.state, r.slots["name"]) == ("assess", "Maxim")
    assert r.reply.startswith("OK, name changed to Maxim.") and "[A1 · question 2 of 2]" in r.reply
    s = engine.session(BOT, "max")
    assert s is not None and s.active is not None and s.active.slots["correct"] == 1


def test_a_target_correction_before_the_test_just_updates_it(engine: Engine) -> None:
    talk(engine, "Hello!", "Max", "German", "English")
    r = talk(engine, "no, I want to learn Spanish")
    assert (r.state, r.slots["target_language"]) == ("ask_timezone", "es")
    assert "OK, target language changed to Spanish." in r.reply


def test_a_target_correction_during_the_test_restarts_it_for_the_new_language(db: str) -> None:
    store = SqlStore(db)
    engine = Engine(store)  # shipped banks: English has one, Japanese has none
    talk(engine, *PROFILE_TURNS, "b")
    r = talk(engine, "no, I want to learn Japanese")
    assert "Let's redo the placement" in r.reply and "placement test for Japanese" in r.reply
    assert (r.state, r.slots["level"], r.slots["target_language"]) == ("confirm", "A1", "ja")
    talk(engine, "yes")
    assert profiles(engine)[0]["target_language"] == "ja"
    store.close()


def test_no_at_the_confirmation_asks_what_to_change(engine: Engine) -> None:
    talk(engine, "I'm Max from Berlin, I speak German and want to learn English", *RIGHT["A1"], *WRONG["A2"])
    r = talk(engine, "no")
    assert r.state == "amend" and "What should I change" in r.reply
    r = talk(engine, "the timezone")
    assert r.state == "ask_timezone"
    r = talk(engine, "Tokyo")
    assert r.state == "confirm" and "timezone Asia/Tokyo" in r.reply  # the test is not taken again
    r = talk(engine, "no")
    r = talk(engine, "my name is Maxim")  # the new value itself answers "what should I change?"
    assert r.state == "confirm" and "name Maxim" in r.reply
    talk(engine, "yes")
    assert profiles(engine) == [{**PROFILE, "name": "Maxim", "timezone": "Asia/Tokyo", "level": "A1"}]


def test_changing_the_level_retakes_the_test(engine: Engine) -> None:
    talk(engine, "I'm Max from Berlin, I speak German and want to learn English", *WRONG["A1"])
    talk(engine, "no")
    r = talk(engine, "level")
    assert r.state == "assess" and "[A1 · question 1 of 2]" in r.reply


def test_cancel_pauses_and_the_next_message_resumes_the_same_question(engine: Engine) -> None:
    talk(engine, "Hello!", "Max", "German")
    r = talk(engine, "cancel")
    assert r.flow == "main" and "Paused" in r.reply
    assert profiles(engine) == []
    r = talk(engine, "hi again")
    assert (r.flow, r.state, r.slots["name"], r.slots["native_language"]) == ("onboarding", "ask_target", "Max", "de")
    assert r.reply == "Welcome back! Let's continue. Which language would you like to learn?"


def test_the_message_after_a_pause_is_the_answer_when_it_answers(engine: Engine) -> None:
    talk(engine, "Hello!", "Max")
    talk(engine, "cancel")
    r = talk(engine, "polish")  # was swallowed by the resume: the question came back and "polish" was lost
    assert (r.flow, r.state, r.slots["native_language"]) == ("onboarding", "ask_target", "pl")
    talk(engine, "cancel")
    r = talk(engine, "hello again")
    assert r.state == "ask_target"
    assert r.reply == "Welcome back! Let's continue. Which language would you like to learn?"


def test_feedback_asked_for_while_onboarding_is_paused_starts_at_once(engine: Engine) -> None:
    talk(engine, "Hello!", "Max", "German", "cancel")
    r = talk(engine, "I want to give feedback")  # it used to take a second request
    assert r.flow == "feedback"


def test_cancel_mid_test_resumes_at_the_same_question_with_the_score(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS, *RIGHT["A1"], "ate")
    talk(engine, "stop")
    r = talk(engine, "hello")
    assert r.state == "assess" and "[A2 · question 2 of 2]" in r.reply
    assert r.slots["tier"] == 1 and r.slots["correct"] == 1


def test_invalid_answers_get_a_clear_reprompt(engine: Engine) -> None:
    talk(engine, "Hello!", "Max")
    r = talk(engine, "Klingon")
    assert r.state == "ask_native" and "I don't know a language called “Klingon”" in r.reply
    talk(engine, "German", "English")
    r = talk(engine, "Portland")
    assert r.state == "ask_timezone" and "Portland, Oregon" in r.reply and "Portland, Maine" in r.reply
    r = talk(engine, "Portland, Oregon")
    assert r.slots["timezone"] == "America/Los_Angeles" and r.state == "assess"
    r = talk(engine, "z")
    assert r.state == "assess" and "Please answer" not in r.reply  # A1 q1 is open: any text is an answer
    r = talk(engine, "d")
    assert "Please answer with one letter: a, b, c." in r.reply


def test_the_timezone_falls_back_to_utc_after_three_tries(engine: Engine) -> None:
    talk(engine, "Hello!", "Max", "German", "English", "UTC+15", "Atlantis")
    r = talk(engine, "Springfield")
    assert "Let's skip that one for now." in r.reply and "I'll use UTC for now" in r.reply
    assert r.slots["timezone"] == "UTC" and r.state == "assess"


def test_a_name_given_three_times_unreadably_pauses_and_resumes_next_time(engine: Engine) -> None:
    r = talk(engine, "Hello!", "123", "R2D2", "4 5 6")
    assert r.flow == "main" and "paused the onboarding" in r.reply
    assert profiles(engine) == []
    assert talk(engine, "hi").state == "ask_name"  # still mandatory


def test_the_assessment_stops_at_the_first_failed_level(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS, *RIGHT["A1"], *RIGHT["A2"], *RIGHT["B1"])
    r = talk(engine, "c", "tired")  # one of two at B2 is not more than half
    assert r.slots["level"] == "B1" and r.state == "confirm"


def test_the_assessment_reaches_the_c2_ceiling(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS)
    r = talk(engine, *(a for lvl in LEVELS for a in RIGHT[lvl]))
    assert r.slots["level"] == "C2" and "your level is C2" in r.reply


def test_no_level_passed_is_a1(engine: Engine) -> None:
    r = talk(engine, *PROFILE_TURNS, "I don't know", "b")
    assert r.slots["level"] == "A1" and r.state == "confirm"


def test_a_bank_ceiling_below_c2_ends_the_test_there(db: str) -> None:
    store = SqlStore(db)
    engine = Engine(store, resources=Resources(assessment=BANKS / "tiny.yaml"))
    r = talk(engine, *PROFILE_TURNS)
    assert "up to A1" in r.reply
    r = talk(engine, "BLUE ")  # case and spacing do not matter
    assert r.slots["level"] == "A1" and r.slots["passed"] == "A1"
    store.close()


def test_a_broken_bank_fails_at_the_start_naming_every_problem(db: str) -> None:
    store = SqlStore(db)
    engine = Engine(store, resources=Resources(assessment=BANKS / "broken.yaml"))
    with pytest.raises(DataFileError) as info:
        talk(engine, "Hello!")
    problems = info.value.problems
    assert any("A1 question 2" in p and "'question'" in p for p in problems)
    assert any("A1 question 2" in p and "'answers'" in p for p in problems)
    assert any("B1 question 1" in p and "'d'" in p for p in problems)
    assert any("'B3'" in p for p in problems) and any("missing A2" in p for p in problems)
    assert engine.session(BOT, "max") is None  # the failed turn wrote nothing
    store.close()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[1, 2]", "'levels' mapping"),
        ("levels: {A1: []}", "A1: needs a non-empty list"),
        ("levels: {A1: [{question: q, answers: [x], options: {a: x, b: y}, answer: a}]}", "not both"),
        ("levels: {A1: [{question: q, answers: [yes]}]}", "quote it"),
        ("levels: {A1: [{question: q, options: {a: x}, answer: a}]}", "at least two"),
        ("levels: {A1: [{question: q, answers: [x], hint: h}]}", "unknown key 'hint'"),
        ("levels: {A1: [oops]}", "must be a mapping"),
        ("levels: {A1: [{question: q, answers: [x]}]}\nlang: en", "unknown top-level key"),
        ("levels: [A1", "YAML syntax error"),
    ],
)
def test_bank_validation_names_the_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bank.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_bank(path)
    assert problem in str(info.value) and str(path) in str(info.value)


def test_a_missing_bank_file_is_a_data_file_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot read"):
        load_bank(tmp_path / "nope.yaml")


def test_shipped_banks_are_valid_and_english_is_shipped() -> None:
    names = [p.stem for p in shipped_banks()]
    assert "en" in names
    for path in shipped_banks():
        assert load_bank(path).ceiling == "C2"


def test_rule_grading_ignores_case_spacing_and_letter_forms() -> None:
    open_q = Question(level="A1", number=1, of=1, text="q", accepted=["had already started"])
    assert is_correct(open_q, "  Had   already started. ")
    assert not is_correct(open_q, "started")
    choice_q = Question(level="A1", number=1, of=1, text="q", options={"a": "am", "b": "is"}, accepted=["b"])
    for given in ("b", "B", "(b)", "b)", "answer b", "IS"):
        assert is_correct(choice_q, given), given
    assert answer_parser(choice_q)("I don't know") == "?"
    assert not is_correct(choice_q, "?")
    assert answer_parser(open_q)("I don't know") == "?"  # an open question too: no LLM verdict is asked
    pass_q = Question(level="A1", number=1, of=1, text="The opposite of 'fail'?", accepted=["pass"])
    assert answer_parser(pass_q)("pass") == "pass"  # unless it is the answer


def test_an_llm_may_accept_an_open_answer_the_rules_did_not(engine: Engine) -> None:
    llm = ScriptedLLM()
    scripted = Engine(engine.store, llm, resources=engine.resources)
    llm.push(*["..."] * len(PROFILE_TURNS))  # one phrasing of the next question per turn
    for line in PROFILE_TURNS:
        scripted.turn(BOT, "ann", line)
    llm.push({"correct": True}, "next question")
    r = scripted.turn(BOT, "ann", "nope")  # "nope" is not in the bank's accepted answers for "opposite of yes"
    assert r.slots["correct"] == 1
    assert llm.calls[-2] == "grade:onboarding.A1.1"


def test_a_restart_mid_test_continues_with_a_new_engine(db: str) -> None:
    bank = Resources(assessment=BANKS / "two_per_level.yaml")
    first = SqlStore(db)
    talk(Engine(first, resources=bank), *PROFILE_TURNS, *RIGHT["A1"], "ate")
    first.close()
    second = SqlStore(db)  # a new process would open the file the same way
    engine = Engine(second, resources=bank)
    r = talk(engine, "b")
    assert r.slots["tier"] == 2 and "A2 passed" in r.reply
    talk(engine, *RIGHT["B1"], *WRONG["B2"], "yes")
    assert profiles(engine) == [PROFILE]
    second.close()


@pytest.fixture(scope="module")
def _after_part1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database onboarding.part1 left, replayed once for the module: each part 2 runs on a copy of it
    (a replay process costs seconds of CPU, and part 1 is the same run for both)."""
    db = tmp_path_factory.mktemp("part1") / "shared.db"
    replay_in_processes(db, "onboarding.part1")
    return db


def after_part1(part1_db: Path, folder: Path) -> Path:
    """A copy of part 1's database (the store's files share its name as a prefix) for one part 2 to change."""
    for f in part1_db.parent.glob(f"{part1_db.name}*"):
        shutil.copy(f, folder / f.name)
    return folder / part1_db.name


def test_a_restart_between_two_replay_runs_on_one_database(tmp_path: Path, _after_part1: Path) -> None:
    """tests/replays/restart/onboarding.part1 then .part2, each `innerloop replay --db` its own process."""
    db = after_part1(_after_part1, tmp_path)
    replay_in_processes(db, "onboarding.part2")
    store = SqlStore(str(db))
    assert [r.data["level"] for r in store.records("profile", bot=BOT, user="max")] == ["B1"]
    store.close()


# -- which bank a test in progress continues with ------------------------------------------

SHIPPED_A1 = ["b", "children", "b"]  # flows/language_buddy/data/assessment/en.yaml, A1


def stored_bank(engine: Engine, user: str = "max") -> dict[str, object]:
    """The onboarding frame's `bank` slot as stored, whether the frame is active or paused."""
    s = engine.session(BOT, user)
    assert s is not None
    frame = s.active if s.active is not None else next(f for f in s.stack if f.flow == "onboarding")
    bank = frame.slots["bank"]
    assert isinstance(bank, dict)
    return bank


def move_shipped(monkeypatch: pytest.MonkeyPatch, to: Path) -> Path:
    """Stand in for an install moved elsewhere: the shipped banks now live only under `to`."""
    folder = to / "flows" / "language_buddy" / "data" / "assessment"
    shutil.copytree(flows.language_buddy.assessment.SHIPPED, folder)
    monkeypatch.setattr(flows.language_buddy.assessment, "SHIPPED", folder)
    return folder


def test_the_slots_name_a_shipped_bank_rather_than_its_path(db: str) -> None:
    store = SqlStore(db)
    engine = Engine(store)
    talk(engine, *PROFILE_TURNS, "b")
    bank = stored_bank(engine)
    assert bank["kind"] == "shipped" and bank["name"] == "en"
    assert str(flows.language_buddy.assessment.SHIPPED) not in json.dumps(bank) and "/" not in json.dumps(bank)
    store.close()


def test_a_paused_test_continues_after_the_shipped_folder_moves(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqlStore(db)
    talk(Engine(store), *PROFILE_TURNS, "b", "cancel")
    store.close()
    moved = move_shipped(monkeypatch, tmp_path / "new-install")
    store = SqlStore(db)
    engine = Engine(store)
    r = talk(engine, "hello")
    assert "[A1 · question 2 of 3]" in r.reply
    r = talk(engine, "children")
    assert (r.state, r.slots["tier"], r.slots["correct"]) == ("assess", 0, 2) and "[A1 · question 3 of 3]" in r.reply
    # the bank was found through the shipped folder of now: without it there, the test starts over
    (moved / "en.yaml").unlink()
    r = talk(engine, "b")
    assert "is gone" in r.reply and "starts over" in r.reply
    # no English bank is left, so English is placed at A1 like any language without one
    assert (r.state, r.slots["level"]) == ("confirm", "A1")
    store.close()


def test_a_changed_shipped_bank_restarts_the_test_with_a_notice(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqlStore(db)
    engine = Engine(store)
    talk(engine, *PROFILE_TURNS, "b")
    moved = move_shipped(monkeypatch, tmp_path / "upgrade")
    text = (moved / "en.yaml").read_text(encoding="utf-8")
    (moved / "en.yaml").write_text(text.replace("answers: [went]", "answers: [went, gone]"), encoding="utf-8")
    r = talk(engine, "children")
    assert "has changed" in r.reply and "[A1 · question 1 of 3]" in r.reply
    assert (r.slots["tier"], r.slots["correct"]) == (0, 0)
    store.close()


def set_stored_bank(db: str, value: object) -> None:
    """Write the `bank` slot the way an older version stored it, straight into the sessions table."""
    con = sqlite3.connect(db)
    with con:
        (slots,) = con.execute("SELECT slots FROM sessions").fetchone()
        con.execute("UPDATE sessions SET slots = ?", (json.dumps({**json.loads(slots), "bank": value}),))
    con.close()


def test_a_session_stored_with_a_shipped_path_continues_from_the_shipped_folder(db: str) -> None:
    store = SqlStore(db)
    talk(Engine(store), *PROFILE_TURNS, "b")
    store.close()
    set_stored_bank(db, "/opt/old-venv/lib/python3.11/site-packages/flows/data/assessment/en.yaml")
    store = SqlStore(db)
    engine = Engine(store)
    r = talk(engine, "children")
    assert (r.slots["correct"], "[A1 · question 3 of 3]" in r.reply) == (2, True)
    assert stored_bank(engine) == {"kind": "shipped", "name": "en", "digest": None}  # now stored as its name
    r = talk(engine, "b")
    assert r.slots["tier"] == 1 and "A1 passed" in r.reply
    store.close()


def test_a_session_stored_with_an_existing_bank_path_uses_it(db: str) -> None:
    bank = BANKS / "two_per_level.yaml"
    store = SqlStore(db)
    talk(Engine(store, resources=Resources(assessment=bank)), *PROFILE_TURNS, "no")
    store.close()
    set_stored_bank(db, str(bank.resolve()))
    store = SqlStore(db)
    engine = Engine(store)  # this run gives no bank: the stored file still exists, so it is used
    r = talk(engine, "a")
    assert r.slots["tier"] == 1 and "A1 passed" in r.reply and "[A2 · question 1 of 2]" in r.reply
    assert stored_bank(engine) == {"kind": "path", "path": str(bank.resolve())}
    store.close()


def test_a_session_stored_with_a_missing_bank_path_starts_over_with_this_runs_bank(db: str, tmp_path: Path) -> None:
    store = SqlStore(db)
    talk(Engine(store, resources=Resources(assessment=BANKS / "two_per_level.yaml")), *PROFILE_TURNS, "no")
    store.close()
    set_stored_bank(db, str(tmp_path / "gone" / "bank.yaml"))
    store = SqlStore(db)
    engine = Engine(store)
    r = talk(engine, "a")
    assert "can't be found anymore" in r.reply and "starts over" in r.reply
    assert "[A1 · question 1 of 3]" in r.reply  # the shipped English bank, this run's
    assert stored_bank(engine)["kind"] == "shipped" and r.slots["correct"] == 0
    r = talk(engine, *SHIPPED_A1)
    assert r.slots["passed"] == "A1"
    store.close()


def test_a_session_stored_with_a_path_to_a_now_broken_bank_starts_over(db: str, tmp_path: Path) -> None:
    store = SqlStore(db)
    talk(Engine(store, resources=Resources(assessment=BANKS / "two_per_level.yaml")), *PROFILE_TURNS, "no")
    store.close()
    broken = tmp_path / "bank.yaml"
    shutil.copy(BANKS / "broken.yaml", broken)
    set_stored_bank(db, str(broken))
    store = SqlStore(db)
    engine = Engine(store)
    r = talk(engine, "a")
    assert "(bank.yaml) can't be read" in r.reply and "[A1 · question 1 of 3]" in r.reply
    # the problems, for the operator
    assert r.trace is not None and any("A1 question 2" in n.detail for n in r.trace.notices)
    store.close()


def test_a_run_bank_that_moved_is_found_through_the_runs_resources(db: str, tmp_path: Path) -> None:
    first = tmp_path / "first" / "mine.yaml"
    first.parent.mkdir()
    shutil.copy(BANKS / "two_per_level.yaml", first)
    store = SqlStore(db)
    talk(Engine(store, resources=Resources(assessment=first)), *PROFILE_TURNS, "no", "cancel")
    assert stored_bank(Engine(store))["kind"] == "run" and str(tmp_path) not in json.dumps(stored_bank(Engine(store)))
    store.close()
    moved = tmp_path / "elsewhere" / "renamed.yaml"
    moved.parent.mkdir()
    first.rename(moved)
    store = SqlStore(db)
    engine = Engine(store, resources=Resources(assessment=moved))
    r = talk(engine, "hello", "a")
    assert r.slots["tier"] == 1 and "A1 passed" in r.reply
    store.close()


@pytest.mark.parametrize(
    ("bank", "notice", "first_question"),
    [
        (None, "which this run doesn't have", "[A1 · question 1 of 3]"),  # back to the shipped bank
        (BANKS / "tiny.yaml", "has other questions", "What colour is the sky"),
    ],
)
def test_a_test_begun_with_a_run_bank_starts_over_on_another_run_bank(
    db: str, bank: Path | None, notice: str, first_question: str
) -> None:
    store = SqlStore(db)
    talk(Engine(store, resources=Resources(assessment=BANKS / "two_per_level.yaml")), *PROFILE_TURNS, "no")
    store.close()
    store = SqlStore(db)
    engine = Engine(store, resources=Resources(assessment=bank))
    r = talk(engine, "a")
    assert notice in r.reply and "two_per_level.yaml" in r.reply and first_question in r.reply
    assert (r.state, r.slots["tier"], r.slots["correct"], r.slots["passed"]) == ("assess", 0, 0, None)
    assert r.trace is not None and any(n.kind == "tool" and n.detail.startswith("bank: ") for n in r.trace.notices)
    store.close()


def test_a_test_begun_with_the_shipped_bank_starts_over_on_a_run_bank(db: str) -> None:
    store = SqlStore(db)
    talk(Engine(store), *PROFILE_TURNS, "b")
    store.close()
    store = SqlStore(db)
    engine = Engine(store, resources=Resources(assessment=BANKS / "two_per_level.yaml"))
    r = talk(engine, "children")
    assert "uses two_per_level.yaml instead" in r.reply and "[A1 · question 1 of 2]" in r.reply
    assert stored_bank(engine)["kind"] == "run"
    store.close()


def test_a_restart_on_another_run_bank_between_two_replay_runs(tmp_path: Path, _after_part1: Path) -> None:
    """onboarding.part1 with a bank of its own, then a run without one: the test starts over, saying why."""
    replay_in_processes(after_part1(_after_part1, tmp_path), "onboarding_no_bank.part2")


def test_feedback_may_interrupt_onboarding_and_onboarding_resumes(engine: Engine) -> None:
    talk(engine, "Hello!", "Max")
    r = talk(engine, "I want to give feedback")
    assert r.flow == "feedback"
    r = talk(engine, "2", "the questions are confusing")
    assert r.flow == "onboarding" and r.state == "ask_native"
    assert "Back to the onboarding" in r.reply and "What's your native language?" in r.reply
    assert engine.store.records("feedback", bot=BOT, user="max")


def test_help_explains_the_current_question(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS)
    r = talk(engine, "help")
    assert "places you at a level from A1 to C2" in r.reply and r.state == "assess"


def test_the_flow_is_part_of_language_buddy() -> None:
    bot = default_registry().get(BOT)
    assert bot.flow("onboarding") is onboarding
    assert onboarding.on_cancel == "pause" and "feedback" in onboarding.interrupts


def test_a_test_answer_that_sounds_like_a_profile_change_is_an_answer(engine: Engine) -> None:
    talk(engine, *PROFILE_TURNS)
    r = talk(engine, "I live in London, my name is Tom")  # an open answer, not marked as a correction
    assert r.slots["timezone"] == "Europe/Berlin" and r.slots["name"] == "Max"
    assert "[A1 · question 2 of 2]" in r.reply
    r = talk(engine, "I would like to learn French")  # not a letter: reprompted, not a new target
    assert r.slots["target_language"] == "en" and "Please answer with one letter" in r.reply
    r = talk(engine, "sorry, I live in London")
    assert r.slots["timezone"] == "Europe/London" and "[A1 · question 2 of 2]" in r.reply


# -- found in review ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "hey im anna from vienna, i speak german, wanna learn french",
            {"name": "Anna", "native_language": "de", "target_language": "fr", "timezone": "Europe/Vienna"},
        ),
        (
            "Hi! My name is Max and I'd like to learn Spanish. I live in Munich.",
            {"name": "Max", "target_language": "es", "timezone": "Europe/Berlin"},
        ),
        ("Max, and I live in Berlin", {"name": "Max", "timezone": "Europe/Berlin"}),  # the name question's answer
        ("Honestly, I live in Berlin", {"timezone": "Europe/Berlin"}),  # an opener is no name
        ("I'm from Germany", {"timezone": "Europe/Berlin"}),
        ("im tired", {}),
    ],
)
def test_several_answers_in_loose_phrasings(text: str, found: dict[str, object]) -> None:
    assert read_anytime(text, OnboardingSlots(), "name") == found


def test_the_answer_to_the_question_asked_is_read_beside_other_answers() -> None:
    asked_native = OnboardingSlots(name="Max")
    assert read_anytime("German, and I live in Hamburg", asked_native, "native_language") == {
        "native_language": "de",
        "timezone": "Europe/Berlin",
    }
    asked_target = OnboardingSlots(name="Max", native_language="de")
    assert read_anytime("German, and I live in Hamburg", asked_target, "target_language") == {
        "timezone": "Europe/Berlin"
    }


def test_no_with_a_field_at_the_confirmation_names_what_to_change() -> None:
    s = OnboardingSlots(name="Max", native_language="de", target_language="es", timezone="UTC")
    s.assessed_language, s.level = "es", "A1"
    assert read_anytime("no, the timezone", s) == {"confirmed": False, "amend": "timezone"}
    assert read_anytime("no, my name is Maxim", s) == {"name": "Maxim"}  # the new value itself
    assert read_anytime("no", s) == {}  # then "What should I change?" is asked


@pytest.mark.parametrize(
    ("answer", "accepted", "stands"),
    [
        ("red", ("am",), False),  # a weak model called this right on a placement question
        ("tired", ("went",), False),
        ("I am", ("am",), True),
        ("recieved", ("received",), True),
        ("2 + 6x", ("6x+2",), True),
        ("0.50", ("0.5", "1/2"), True),
        ("banana", ("x^2/2",), False),
        ("nope", ("no",), True),
        ("five tenths", ("0.5",), True),
        # two plain numbers are equal or not: a weak model called 3 right for 4
        ("3", ("4",), False),
        ("3", ("4", "four", "x = 4"), False),
        ("-2", ("2",), False),
        ("4.0", ("4",), True),
        ("0,5", ("0.5",), True),
        ("0.5", ("1/2",), True),  # no plain number accepted: the equivalence is the model's to judge
    ],
)
def test_a_models_correct_verdict_stands_only_near_an_accepted_answer(
    answer: str, accepted: tuple[str, ...], stands: bool
) -> None:
    from flows.shared.grading import plausibly_right

    assert plausibly_right(answer, accepted) is stands


# -- a yes to "Did you mean German?" ------------------------------------------------------


@pytest.mark.parametrize("yes", ["yes", "yeah", "yep", "Yes please"])
def test_a_yes_to_a_suggested_language_takes_it(engine: Engine, yes: str) -> None:
    out = talk(engine, "hi", "Max", "germna")
    assert "Did you mean German?" in out.reply
    out = talk(engine, yes)
    assert out.state == "ask_target" and out.slots["native_language"] == "de"


def test_a_no_to_a_suggestion_asks_again_without_counting_an_attempt(engine: Engine) -> None:
    out = talk(engine, "hi", "Max", "germna", "no")
    assert out.state == "ask_native" and out.slots["native_language"] is None
    assert out.reply.startswith("Alright.") and "native language" in out.reply
    out = talk(engine, "germna", "no", "polish")  # two refusals counted of three: the flow goes on
    assert out.state == "ask_target" and out.slots["native_language"] == "pl"


@pytest.mark.parametrize(
    ("said", "language", "yes"),
    [("un poco, lo entiendo pero no lo hablo bien", "Spanish", "sí"),
     ("ich verstehe die Frage leider nicht ganz", "German", "ja")],
)  # fmt: skip
def test_a_learner_answering_in_their_language_is_offered_it_as_the_native_one(
    engine: Engine, said: str, language: str, yes: str
) -> None:
    out = talk(engine, "hi", "Max", said)
    assert out.state == "ask_native" and out.slots["native_language"] is None
    # the offer is the one question: the declared rephrasing of the question does not follow it
    assert out.reply.startswith(f"Is your native language {language}?") and "grow up" not in out.reply
    out = talk(engine, yes)
    assert out.state == "ask_target" and language_name(out.slots["native_language"]) == language


def test_english_or_the_language_to_learn_is_never_offered_as_the_native_one(engine: Engine) -> None:
    out = talk(engine, "hi", "Max", "sorry what do you mean by that")
    assert "Is your native language" not in out.reply
    out = talk(engine, "hi", "Lea", "quiero aprender español", "no entiendo la pregunta, perdón", user="lea")
    assert "Is your native language" not in out.reply


@pytest.mark.parametrize(
    ("said", "level"),
    [("idk, im a total beginner", "A1"), ("je sais pas trop, débutante je pense", "A1"), ("B2 probably", "B2"),
     ("ich bin Anfängerin", "A1"), ("I am upper intermediate", "B2"), ("intermediate or advanced maybe", None),
     ("a", None), ("no idea", None)],
)  # fmt: skip
def test_a_level_given_instead_of_an_answer(said: str, level: str | None) -> None:
    from flows.language_buddy.assessment import self_placed

    assert self_placed(said) == level


@pytest.mark.parametrize("unsure", ["idk", "no idea tbh", "keine Ahnung"])
def test_not_knowing_is_met_with_why_the_question_is_asked_not_refused_as_a_value(engine: Engine, unsure: str) -> None:
    out = talk(engine, "hi", "Max", unsure)
    assert out.state == "ask_native" and out.slots["native_language"] is None
    assert out.reply.startswith("No problem if you're not sure. Your native language lets me explain")
    assert "I don't know a language called" not in out.reply


def test_no_idea_at_the_confirmation_is_no_correction(engine: Engine) -> None:
    out = talk(engine, "hi", "Max", "german", "spanish", "berlin", "skip the test")
    assert out.state == "confirm"
    out = talk(engine, "no idea")
    assert out.state == "confirm" and out.slots["name"] == "Max" and "Idea" not in out.reply


def test_a_level_said_at_the_confirmation_changes_it() -> None:
    from engine.authoring.testing import dialogue

    with dialogue("language-buddy") as chat:
        for text in ("hey", "Jo", "english", "japanese", "tokyo"):  # no bank for Japanese: A1
            chat.say(text)
        assert chat.state == "confirm" and chat.slots["level"] == "A1"
        chat.say("actually I'm already intermediate in japanese")
        assert chat.state == "confirm" and chat.slots["level"] == "B1" and "level B1" in chat.reply
        chat.say("no idea")  # not knowing changes nothing
        assert chat.slots["level"] == "B1"


def test_no_with_the_language_answers_at_once(engine: Engine) -> None:
    out = talk(engine, "hi", "Max", "germna", "no, polish")
    assert out.state == "ask_target" and out.slots["native_language"] == "pl"


def test_a_suggestion_lasts_one_turn_and_the_latest_counts(engine: Engine) -> None:
    out = talk(engine, "hi", "Max", "germna", "engish", "yes")
    assert out.slots["native_language"] == "en"
    # "xyzzy" suggests nothing, so the "yes" is a third refusal (the onboarding pauses), not German
    out = talk(engine, "hi", "Ola", "germna", "xyzzy", "yes", user="ola")
    assert "paused" in out.reply and out.slots.get("native_language") is None


def test_a_yes_to_did_you_mean_for_the_language_to_learn_takes_it_at_another_question(engine: Engine) -> None:
    """At the native question, "want to learn englsh" is answered "Did you mean English?"; a
    yes sets the language to learn (it used to be read as the native language "yes")."""
    r = talk(engine, "hi", "Joana", "want to learn englsh")
    assert "Did you mean English?" in r.reply and r.state == "ask_native"
    r = talk(engine, "yes")
    assert r.state == "ask_native" and r.slots["target_language"] == "en" and r.slots["native_language"] is None
    r = talk(engine, "portuguese")
    assert r.slots["native_language"] == "pt" and r.state == "ask_timezone"


def test_wanna_learn_with_a_typo_is_asked_about_and_a_yeah_takes_it(engine: Engine) -> None:
    r = talk(engine, "hi", "i wanna learn germn")
    assert "Did you mean German?" in r.reply and r.state == "ask_name"
    r = talk(engine, "yeah")
    assert r.slots["target_language"] == "de" and r.state == "ask_name"


def test_a_no_to_did_you_mean_asks_the_question_again(engine: Engine) -> None:
    r = talk(engine, "hi", "Joana", "want to learn englsh", "no")
    assert r.reply.startswith("Alright.") and r.reply.endswith("What's your native language?")
    assert r.state == "ask_native" and r.slots["target_language"] is None


def test_wanting_a_language_is_not_a_misspelt_one(engine: Engine) -> None:
    """Wanting "a language" names none: nothing is suggested for it (it used to be "Did you mean Lao?")."""
    for said in ("I want to learn a language", "i want to learn a new language", "want to learn another language"):
        r = talk(engine, "hi", said, user=said)
        assert "Did you mean" not in r.reply and r.state == "ask_name", (said, r.reply)


def test_a_misspelt_native_language_after_a_native_cue_fills_the_empty_slot(engine: Engine) -> None:
    r = talk(engine, "hi", "im Joana, native portugese")
    assert (r.slots["name"], r.slots["native_language"]) == ("Joana", "pt")
    assert read_anytime("my mother tongue is germn", OnboardingSlots()).get("native_language") == "de"
    # a filled native language is changed only by a name spelt right; "native speaker" names none
    filled = OnboardingSlots(native_language="es")
    assert "native_language" not in read_anytime("native portugese", filled)
    assert "native_language" not in read_anytime("I'm a native speaker, ha", OnboardingSlots())


@pytest.mark.parametrize(
    ("text", "native"),
    [
        ("japanese, but i also speak a bit of english", "ja"),
        ("spanish and some french", "es"),
        ("german, basic english", "de"),
        ("english and spanish", None),
    ],
)
def test_the_native_language_is_the_one_not_spoken_a_little(text: str, native: str | None) -> None:
    from engine.extract import Invalid
    from flows.language_buddy.field_parsers import native_parser
    from flows.language_buddy.profile import OnboardingSlots

    read = native_parser(OnboardingSlots())(text)
    assert read == native if native else isinstance(read, Invalid)  # two languages alike are asked about


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("quiero aprender inglés y un poco de francés", "en"),
        ("english and a bit of french", "en"),
        ("tedesco e un po' di spagnolo", "de"),
        ("inglés y francés", None),
        # the native language and a little English: which to learn is asked (no guess)
        ("español y un poco de inglés", None),
    ],
)
def test_the_language_to_learn_is_the_one_not_wanted_only_a_little(text: str, target: str | None) -> None:
    from engine.extract import Invalid
    from flows.language_buddy.field_parsers import target_parser
    from flows.language_buddy.profile import OnboardingSlots

    read = target_parser(OnboardingSlots(native_language="es"))(text)
    assert read == target if target else isinstance(read, Invalid)


@pytest.mark.parametrize(
    "text", ["i wanna get better at english", "I'd like to work on my English", "wanna brush up on english"]
)
def test_getting_better_at_a_language_names_the_one_to_learn(text: str) -> None:
    from flows.language_buddy.languages import target_in

    assert target_in(text, weak=False) == "en"


@pytest.mark.parametrize(
    "text",
    ["pular o teste", "saltar el test", "den Test überspringen", "sauter le test", "saltare il test",
     "kann ich den Test auslassen?", "skip the test pls"],
)  # fmt: skip
def test_leaving_the_placement_test_is_read_in_six_languages(text: str) -> None:
    # the verbs and "the test" of five other languages are the engine's cue table's (engine/data/cues.yaml)
    from flows.language_buddy.assessment import skips_test

    assert skips_test(text)


@pytest.mark.parametrize("text", ["el test es difícil", "la prueba de hoy", "quiero saltar de alegría"])
def test_the_test_named_without_leaving_it_is_no_skip(text: str) -> None:
    from flows.language_buddy.assessment import skips_test

    assert not skips_test(text)
