"""A saved or exported conversation replays what happened, and nothing else.

`sessions export` and the chat's /save pin each turn's reply (offline), flow, state and
slots, the records saved, and a handoff's agent turns as agent turns, so a replay of a
different conversation fails where it differs.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner, Result

from cli import app
from engine.authoring.replay import clock_reading, replay, seed_profile
from engine.authoring.script import AgentTurn, UserTurn, load_script
from engine.runtime import Engine
from engine.store.sql import SqlStore

SUPPORT = "support"
BUDDY = "language-buddy"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def handed_off_session(db: str) -> str:
    """A support session: a question, a handoff, a person's reply, a release, one more question."""
    store = SqlStore(db)
    try:
        e = Engine(store)
        e.turn(SUPPORT, "u", "I was charged twice for Premium")
        for text in ("Google Play", "1", "yes", "hello?"):
            e.turn(SUPPORT, "u", text)
        e.agent_reply(SUPPORT, "u", "Hi, I'm Dana. I have refunded the second charge.")
        e.turn(SUPPORT, "u", "thanks, when will I see it?")
        e.release(SUPPORT, "u")
        e.turn(SUPPORT, "u", "how do I reset my password")
        session = e.session(SUPPORT, "u")
        assert session is not None
        return session.id
    finally:
        store.close()


def export(db: str, session_id: str, out: Path) -> Path:
    r = run("sessions", "export", session_id, "--replay", out, "--db", db)
    assert r.exit_code == 0, r.output
    return out


def test_a_handoff_exports_the_agents_turns_as_agent_turns(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    out = export(db, handed_off_session(db), tmp_path / "export.yaml")
    s = load_script(out)
    kinds = [("agent", t.agent) if isinstance(t, AgentTurn) else ("user", t.user) for t in s.turns]  # type: ignore[union-attr]
    assert kinds == [
        ("user", "I was charged twice for Premium"),
        ("user", "Google Play"),
        ("user", "1"),
        ("user", "yes"),
        ("user", "hello?"),
        ("agent", "Hi, I'm Dana. I have refunded the second charge."),
        ("user", "thanks, when will I see it?"),
        ("agent", "/release"),
        ("user", "how do I reset my password"),
    ]
    # the reply that shows the agent's words, and the end, are pinned
    thanks = s.turns[6]
    assert isinstance(thanks, UserTurn) and thanks.expect is not None and thanks.expect.reply is not None
    assert thanks.expect.reply.startswith("Agent: Hi, I'm Dana.")
    assert s.expect_end is not None and s.expect_end.records is not None
    [escalation] = s.expect_end.records["escalation"]
    assert escalation["document"] == "refund-request" and "at" not in escalation  # `at` is a clock reading
    r = run("replay", out)
    assert r.exit_code == 0 and f"PASS {out} (9 turns)" in r.output, r.output


def test_an_export_with_one_message_changed_fails(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    out = export(db, handed_off_session(db), tmp_path / "export.yaml")
    data = yaml.safe_load(out.read_text())
    # on hold every message gets the same reply, but the history keeps what the user said
    cases = ((4, "is anyone there?", "history_contains"), (8, "how do I export my tasks", "reply"))
    for index, replacement, what in cases:
        changed = yaml.safe_load(out.read_text())
        changed["turns"][index]["user"] = replacement
        path = tmp_path / f"changed{index}.yaml"
        path.write_text(yaml.safe_dump(changed, sort_keys=False))
        result = replay(load_script(path))
        assert not result.passed, f"turn {index + 1} changed to {replacement!r} still passes"
        assert any(f.what == what for f in result.failures), result.failures
    # the agent's words said by the user instead: the old export's mistake fails too
    data["turns"][5] = {"user": data["turns"][5]["agent"], "expect": data["turns"][5]["expect"]}
    path = tmp_path / "as_user.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert not replay(load_script(path)).passed


def test_a_saved_chat_pins_slots_and_records(tmp_path: Path) -> None:
    db = str(tmp_path / "f.db")
    store = SqlStore(db)
    try:
        seed_profile(store, BUDDY, "ann", {"name": "Ann", "native_language": "de", "target_language": "en",
                                           "timezone": "Europe/Berlin", "level": "B1"})  # fmt: skip
        e = Engine(store)
        for text in ("I want to give feedback", "4", "the bot is too slow"):
            e.turn(BUDDY, "ann", text)
        session = e.session(BUDDY, "ann")
        assert session is not None
    finally:
        store.close()
    out = export(db, session.id, tmp_path / "fb.yaml")
    s = load_script(out)
    assert s.expect_end is not None and s.expect_end.records is not None
    assert s.expect_end.records["feedback"][0]["rating"] == 4
    assert replay(s).passed
    # another rating: the slots of turn 2 and the record no longer match
    data = yaml.safe_load(out.read_text())
    data["turns"][1]["user"] = "5"
    path = tmp_path / "fb5.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    failures = replay(load_script(path)).failures
    assert {f.what for f in failures} >= {"slots.rating", "records.feedback (no distinct row for these)"}, failures


def test_an_agent_turn_without_a_handoff_fails_the_replay(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text("bot: support\nturns:\n  - user: hello\n  - agent: hi there\n")
    result = replay(load_script(path))
    assert [(f.turn, f.what) for f in result.failures] == [(2, "turn")]
    assert "not waiting for an agent" in str(result.failures[0].actual)


def test_clock_readings_are_times_to_the_second() -> None:
    assert clock_reading("2026-11-26T03:59:12.123456")
    assert clock_reading("2026-11-26T03:59:00+00:00")
    assert not clock_reading("2026-11-27T16:00:00")  # "tomorrow at 4" as a plan's start
    assert not clock_reading("2026-11-27") and not clock_reading("Tuesday") and not clock_reading(4)
