"""Replay scripts: every tests/replays/*.yaml as its own test, the loader's errors, the matching rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.authoring.expect import Failure, check_records, check_turn, match_records, subset_mismatches, values_equal
from engine.authoring.replay import replay, run_script, temporary_store
from engine.authoring.script import Expect, RestartTurn, Script, UserTurn, load_script
from engine.errors import ScriptError
from engine.llm import RulesLLM
from engine.models import RecordDraft, StoredRecord, utcnow
from engine.runtime import TurnResult
from engine.store import MemoryStore
from engine.store.sql import SqlStore
from tests.clocks import replayed, with_clocks

REPLAYS = Path(__file__).parent / "replays"
MESSY = REPLAYS / "messy"
SCRIPTS = sorted(REPLAYS.glob("*.yaml")) + sorted(MESSY.rglob("*.yaml"))
# a script whose day-relative expectations need a fixed clock says so in a leading comment
# ("# now: 2025-03-12T09:00"); study-pal reads it from STUDY_PAL_NOW (flows/study_pal/timewindow.py)
_PINNED = re.compile(r"^#\s*now:\s*(\S+)\s*$", re.M)


@pytest.mark.parametrize(
    ("path", "clock"), with_clocks(SCRIPTS), ids=[f"{p.relative_to(REPLAYS)}@{c}" for p, c in with_clocks(SCRIPTS)]
)
def test_replay_script(path: Path, clock: str) -> None:
    result = replayed(path, clock)  # under the clock this script is given (tests/clocks.py)
    assert result.passed, "\n".join(f.describe() for f in result.failures)


def test_there_are_replay_scripts() -> None:
    assert len(SCRIPTS) >= 9


# -- loading ------------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def load_error(tmp_path: Path, text: str) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        load_script(write(tmp_path, text))
    return info.value


def test_loads_the_issue_example(tmp_path: Path) -> None:
    s = load_script(
        write(
            tmp_path,
            """
bot: language-buddy
user: max
llm: rules
profile: {name: Max, native_language: de, target_language: en, timezone: Europe/Berlin, level: B1}
turns:
  - user: "I want to give feedback"
    expect: {flow: feedback, state: rating, reply_contains: [rate], reply_not_contains: [error], slots: {rating: null}}
  - user: "4"
expect_end:
  flow: main
  history_contains: ["Rating: 4/5"]
  records: {feedback: [{rating: 4, category: latency}]}
""",
        )
    )
    assert s.bot == "language-buddy" and s.user == "max" and s.llm == "rules"
    assert s.profile == {"name": "Max", "native_language": "de", "target_language": "en",
                         "timezone": "Europe/Berlin", "level": "B1"}  # fmt: skip
    assert s.turns[0].expect == Expect(
        flow="feedback", state="rating", reply_contains=["rate"], reply_not_contains=["error"], slots={"rating": None}
    )
    assert s.turns[1].expect is None
    assert s.expect_end is not None and s.expect_end.records == {"feedback": [{"rating": 4, "category": "latency"}]}
    assert s.path == tmp_path / "s.yaml"


def test_a_single_string_is_a_one_item_list(tmp_path: Path) -> None:
    s = load_script(write(tmp_path, "bot: language-buddy\nturns:\n  - user: hi\n    expect: {reply_contains: rate}\n"))
    assert s.turns[0].expect is not None and s.turns[0].expect.reply_contains == ["rate"]


def test_data_file_keys_resolve_relative_to_the_script(tmp_path: Path) -> None:
    sub = tmp_path / "scripts"
    sub.mkdir()
    s = load_script(
        write(sub, "bot: language-buddy\nkb: data/kb.yaml\ncourse: /abs/course.yaml\nturns: [{user: hi}]\n")
    )
    assert s.kb == sub / "data" / "kb.yaml"
    assert s.course == Path("/abs/course.yaml")
    assert s.assessment is None


def test_unknown_key_names_file_turn_and_key(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nturns:\n  - user: hi\n  - user: x\n    expect: {flwo: main}\n")
    assert e.turn == 2
    assert "s.yaml" in str(e) and "turn 2" in str(e) and "unknown key 'flwo'" in str(e)


def test_unknown_top_level_key(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nturns: [{user: hi}]\nexpect_ned: {flow: main}\n")
    assert e.turn is None and "unknown key 'expect_ned'" in str(e)


def test_unknown_key_in_expect_end(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nturns: [{user: hi}]\nexpect_end: {state: rating}\n")
    assert "unknown key 'state' in expect_end" in str(e)


def test_bad_type_names_the_field(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nturns:\n  - user: hi\n  - user: 4\n")
    assert e.turn == 2 and "user" in e.problem and "quote it" in e.problem


def test_bad_type_in_expectations(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nturns:\n  - user: hi\n    expect: {slots: [1, 2]}\n")
    assert e.turn == 1 and "slots" in e.problem


def test_bad_llm_value(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nllm: gpt\nturns: [{user: hi}]\n")
    assert "llm" in e.problem and "'rules'" in e.problem


def test_yaml_syntax_error_gives_the_line(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nturns:\n  - user: [unclosed\n  - user: x\n")
    assert "YAML syntax error at line" in e.problem and "s.yaml" in str(e)


def test_duplicate_keys_are_an_error(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: language-buddy\nbot: support\nturns: [{user: hi}]\n")
    assert "duplicate key 'bot'" in e.problem and "line 2" in e.problem


def test_missing_bot(tmp_path: Path) -> None:
    e = load_error(tmp_path, "turns: [{user: hi}]\n")
    assert "missing required key 'bot'" in e.problem


def test_missing_turns(tmp_path: Path) -> None:
    assert "missing required key 'turns'" in load_error(tmp_path, "bot: language-buddy\n").problem


def test_unknown_bot_lists_the_known_ones(tmp_path: Path) -> None:
    e = load_error(tmp_path, "bot: languagebuddy\nturns: [{user: hi}]\n")
    assert "unknown bot 'languagebuddy'" in e.problem and "language-buddy" in e.problem


def test_unknown_flow_state_and_slot_are_malformed(tmp_path: Path) -> None:
    base = "bot: language-buddy\nturns:\n  - user: hi\n  - user: x\n    expect: "
    assert "no flow 'feedbak'" in load_error(tmp_path, base + "{flow: feedbak}\n").problem
    assert "no state 'rate'" in load_error(tmp_path, base + "{flow: feedback, state: rate}\n").problem
    e = load_error(tmp_path, base + "{flow: feedback, slots: {score: 4}}\n")
    assert e.turn == 2 and "no slot 'score'" in e.problem


def test_empty_file_and_non_mapping(tmp_path: Path) -> None:
    assert "empty file" in load_error(tmp_path, "").problem
    assert "must be a mapping" in load_error(tmp_path, "- bot: x\n").problem


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot read"):
        load_script(tmp_path / "nope.yaml")


# -- matching rules -----------------------------------------------------------------------


def test_numbers_compare_numerically_strings_exactly() -> None:
    assert values_equal(4, 4.0) and values_equal(4.0, 4)
    assert not values_equal(4, "4") and not values_equal("4", 4)
    assert not values_equal(True, 1) and not values_equal(1, True)
    assert values_equal("latency", "latency") and not values_equal("latency", "Latency")
    assert values_equal(None, None) and not values_equal(None, 0)
    assert values_equal({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not values_equal({"a": 1}, {"a": 1, "b": 2})


def test_subset_match() -> None:
    actual = {"rating": 4, "category": "latency", "comment": None}
    assert subset_mismatches({"rating": 4.0}, actual) == []
    assert subset_mismatches({"comment": None}, actual) == []
    assert subset_mismatches({"rating": 5, "category": "latency", "nope": None}, actual) == ["rating", "nope"]


def test_records_need_distinct_rows() -> None:
    rows = [{"rating": 4, "category": "bug"}, {"rating": 4, "category": "latency"}]
    assert match_records([{"rating": 4}, {"rating": 4}], rows) == []
    assert match_records([{"rating": 4}, {"rating": 4}, {"rating": 4}], rows) == [2]
    # A greedy pick of row 0 for the first entry would starve the second one.
    assert match_records([{"rating": 4}, {"category": "bug"}], rows) == []
    assert match_records([{"rating": 4.0, "category": "latency"}], rows) == []
    assert match_records([{"rating": "4"}], rows) == [0]


def _stored(data: dict[str, object]) -> StoredRecord:
    return StoredRecord.model_validate(
        {"id": 1, "kind": "feedback", "bot": "b", "user": "u", "session_id": "s", "data": data, "created_at": utcnow()}
    )


def test_empty_record_list_means_no_row() -> None:
    assert check_records("feedback", [], []) == []
    [f] = check_records("feedback", [], [_stored({"rating": 4})])
    assert f == Failure(None, "records.feedback", [], [{"rating": 4}])


def test_check_turn_reports_expected_and_actual() -> None:
    result = TurnResult(reply="Please Rate the app", session_id="s", flow="feedback", state="rating",
                        slots={"rating": None})  # fmt: skip
    assert check_turn(Expect(flow="feedback", reply_contains=["rate"], slots={"rating": None}), result, 1) == []
    failures = check_turn(
        Expect(flow="main", state="details", reply_contains=["thanks"], reply_not_contains=["PLEASE"],
               slots={"rating": 4}),
        result,
        3,
    )  # fmt: skip
    assert [f.what for f in failures] == ["flow", "state", "reply_contains", "reply_not_contains", "slots.rating"]
    assert failures[0] == Failure(3, "flow", "main", "feedback")
    assert failures[4].describe() == "turn 3: slots.rating: expected 4, got None"


def test_failed_expectations_are_reported(tmp_path: Path) -> None:
    s = load_script(
        write(
            tmp_path,
            """
bot: language-buddy
profile: {name: Max}
turns:
  - user: "I want to give feedback"
    expect: {state: details}
  - user: "4"
    expect: {slots: {rating: 5}}
expect_end:
  flow: main
  history_contains: ["Rating: 4/5"]
  records: {feedback: [{rating: 4}]}
""",
        )
    )
    with temporary_store() as store:
        result = run_script(s, store, RulesLLM())
    assert not result.passed
    assert [(f.turn, f.what) for f in result.failures] == [
        (1, "state"),
        (2, "slots.rating"),
        (None, "flow"),
        (None, "history_contains"),
        (None, "records.feedback (no distinct row for these)"),
    ]
    assert result.failures[0].expected == "details" and result.failures[0].actual == "rating"
    assert len(result.results) == 2


def test_profile_is_seeded_before_the_first_turn() -> None:
    s = Script.model_validate(
        {
            "bot": "language-buddy",
            "user": "max",
            "profile": {"name": "Max", "level": 2},
            "turns": [{"user": "hi"}],
            "expect_end": {"records": {"profile": [{"level": 2.0}]}},
        }
    )
    with temporary_store() as store:
        result = run_script(s, store, RulesLLM())
        assert result.passed, result.failures
        [row] = store.records("profile")
    assert row.user == "max" and row.bot == "language-buddy" and row.data == {"name": "Max", "level": 2}


def test_replay_on_a_given_db_keeps_the_rows(tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    s = load_script(REPLAYS / "feedback_happy_path.yaml")
    assert replay(s, db=db).passed
    assert db.exists()


def test_openai_without_a_key_is_a_failure_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    s = Script.model_validate({"bot": "language-buddy", "llm": "openai", "turns": [{"user": "hi"}]})
    result = replay(s)
    [f] = result.failures
    assert f.turn is None and f.what == "llm" and "OPENAI_API_KEY" in str(f.actual)


# -- restart entries ----------------------------------------------------------------------

PROFILED = "bot: language-buddy\nprofile: {name: Max, level: B1}\n"


def test_a_restart_entry_loads_between_user_turns(tmp_path: Path) -> None:
    s = load_script(write(tmp_path, PROFILED + "turns:\n  - user: hi\n  - restart: true\n  - user: x\n"))
    assert [type(t) for t in s.turns] == [UserTurn, RestartTurn, UserTurn]
    assert s.restarts == 1 and [t.user for t in s.user_turns] == ["hi", "x"]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("{restart: true, user: hi}", "a restart entry is `- restart: true` alone, but this one also has 'user'"),
        ("{user: hi, restart: true}", "a restart entry is `- restart: true` alone, but this one also has 'user'"),
        ("{restart: true, expect: {flow: main}}", "but this one also has 'expect'"),
        ("{restart: true, user: hi, expect: {flow: main}}", "also has 'user', 'expect'"),
        ("{restart: false}", "restart must be true, got false;"),
        ("{restart: 1}", "restart must be true, got 1;"),
        ("{restart: now}", 'restart must be true, got "now";'),
        ("{restart: }", "restart must be true, got null;"),
    ],
)
def test_a_malformed_restart_entry_names_file_turn_and_problem(tmp_path: Path, entry: str, problem: str) -> None:
    e = load_error(tmp_path, PROFILED + f"turns:\n  - user: hi\n  - {entry}\n  - user: x\n")
    assert e.turn == 2 and problem in e.problem
    assert str(e).startswith(f"{tmp_path / 's.yaml'}, turn 2: ")


def test_user_turn_errors_do_not_name_the_turn_kind(tmp_path: Path) -> None:
    # the union's tag ("user"/"restart") sits in pydantic's error path; it is no key of the script
    assert load_error(tmp_path, PROFILED + "turns:\n  - user: 4\n").problem.startswith("user: Input should be")
    assert load_error(tmp_path, PROFILED + "turns:\n  - expect: {}\n").problem == (
        "missing required key 'user' (an entry is a user turn, `user:` with an optional `expect:`, an agent turn,"
        " `agent:`, or `restart: true`)"
    )
    # an agent turn's problems are worded like a user turn's
    e = load_error(tmp_path, PROFILED + "turns:\n  - user: hi\n  - agent: ok\n    expect: {flwo: main}\n")
    assert e.turn == 2 and e.problem == "unknown key 'flwo' in expect"
    e = load_error(tmp_path, PROFILED + "turns:\n  - restart: true\n  - user: x\n    expect: {flwo: main}\n")
    assert e.turn == 2 and e.problem == "unknown key 'flwo' in expect"


class SeedsInMemory(SqlStore):
    """Records added outside a turn (a script's `profile:`) live in this object only, never in the database."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.seeded: list[StoredRecord] = []

    def add_record(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        row = {"id": -1, "kind": draft.kind, "bot": bot, "user": user, "session_id": session_id, "data": draft.data}
        self.seeded.append(StoredRecord.model_validate({**row, "created_at": utcnow()}))

    def latest(self, kind: str, *, bot: str, user: str) -> StoredRecord | None:
        mine = [r for r in self.seeded if (r.kind, r.bot, r.user) == (kind, bot, user)]
        return mine[-1] if mine else super().latest(kind, bot=bot, user=user)


def forgetting_script(*, restart: bool) -> Script:
    """Feedback started while the in-memory profile is known, finished and followed by a greeting."""
    turns: list[dict[str, object]] = [{"user": "I want to give feedback"}]
    turns += [{"restart": True}] if restart else []
    turns += [{"user": "4"}, {"user": "the bot is too slow"}, {"user": "hello"}]
    return Script.model_validate({"bot": "language-buddy", "user": "max", "profile": {"name": "Max"}, "turns": turns})


@pytest.mark.parametrize("restart", [False, True])
def test_a_restart_forgets_what_only_memory_held_and_the_session_goes_on(tmp_path: Path, restart: bool) -> None:
    store = SeedsInMemory(str(tmp_path / "r.db"))
    try:
        result = run_script(forgetting_script(restart=restart), store, RulesLLM())
    finally:
        store.close()
    assert result.passed, result.failures
    started, rated, finished, greeted = result.results
    # the feedback flow started before the restart resumes from its stored state and finishes
    assert started.flow == "feedback" and rated.state == "details" and rated.slots["rating"] == 4
    assert finished.flow == "main" and finished.trace is not None and finished.trace.records
    assert len({r.session_id for r in result.results}) == 1
    # the profile lived in the first store object only: a fresh store does not know it, so
    # the entry rule sends the next main-conversation message to onboarding
    assert greeted.flow == ("onboarding" if restart else "main")
    db = SqlStore(str(tmp_path / "r.db"))
    try:
        assert [t.turn for t in db.traces(greeted.session_id or "")] == [1, 2, 3, 4]
    finally:
        db.close()


def test_expect_end_reads_the_store_opened_at_the_restart(tmp_path: Path) -> None:
    s = load_script(
        write(
            tmp_path,
            PROFILED + "turns:\n  - user: I want to give feedback\n  - user: '4'\n  - user: it is too slow\n"
            "  - restart: true\nexpect_end: {flow: main, history_contains: ['Rating: 4/5'],"
            " records: {feedback: [{rating: 4}]}}\n",
        )
    )
    result = replay(s)
    assert result.passed, result.failures
    assert len(result.results) == 3


def test_a_restart_on_a_memory_store_is_a_failure_not_a_fresh_start(tmp_path: Path) -> None:
    s = load_script(write(tmp_path, PROFILED + "turns:\n  - user: I want to give feedback\n  - restart: true\n"
                                               "  - user: '4'\n"))  # fmt: skip
    result = run_script(s, MemoryStore(), RulesLLM())
    [f] = result.failures
    assert (f.turn, f.what) == (2, "restart") and "outlives" in str(f.actual) and "memory://" in str(f.actual)
    assert [r.flow for r in result.results] == ["feedback"]  # the turn before it ran; none after it
    for url in ("sqlite://", "sqlite:///:memory:"):
        store = SqlStore(url)
        try:
            result = run_script(s, store, RulesLLM())
        finally:
            store.close()
        assert [(f.turn, f.what) for f in result.failures] == [(2, "restart")], url


def test_a_restart_on_a_given_db_keeps_one_session_there(tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    assert replay(load_script(REPLAYS / "support_restart.yaml"), db=db).passed
    store = SqlStore(str(db))
    try:
        [session] = store.sessions()
        assert session.turns == 4 and session.flow is None
    finally:
        store.close()
