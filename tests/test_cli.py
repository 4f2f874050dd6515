"""The `innerloop` command line, driven through typer's CliRunner."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cli import app
from engine.authoring.replay import seed_profile
from engine.store.sql import SqlStore

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = Path(__file__).parent / "replays"
runner = CliRunner()


def run(*args: str, input: bytes | str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database where ann already has a profile, so language-buddy skips onboarding."""
    path = str(tmp_path / "chat.db")
    store = SqlStore(path)
    seed_profile(store, "language-buddy", "ann", {"name": "Ann", "level": "A2"})
    store.close()
    return path


def chat(db: str, lines: list[str] | bytes, *extra: str) -> Result:
    data = lines if isinstance(lines, bytes) else "".join(f"{line}\n" for line in lines).encode()
    return run("chat", "--db", db, "--user", "ann", *extra, input=data)


# -- chat ---------------------------------------------------------------------------------


def test_chat_runs_a_flow_and_quits(db: str) -> None:
    r = chat(db, ["I want to give feedback", "4", "/quit"])
    assert r.exit_code == 0, r.output
    assert "[language-buddy · main] ann>" in r.output
    assert "how would you rate the app" in r.output
    assert "[language-buddy · feedback/details] ann>" in r.output
    assert r.output.rstrip().endswith("bye")


def test_chat_end_of_input_leaves_cleanly(db: str) -> None:
    r = chat(db, ["hello"])
    assert r.exit_code == 0, r.output
    assert "can't chat freely" in r.output and "bye" in r.output


def test_chat_resumes_the_session_across_runs(db: str) -> None:
    assert chat(db, ["I want to give feedback", "/quit"]).exit_code == 0
    r = chat(db, ["5", "great lessons"])
    assert r.exit_code == 0, r.output
    assert "resuming feedback at rating" in r.output
    assert "I've saved your feedback" in r.output
    store = SqlStore(db)
    try:
        [row] = store.records("feedback", user="ann")
        assert row.data["rating"] == 5
    finally:
        store.close()


def test_chat_rejects_bad_input_and_changes_nothing(db: str) -> None:
    assert chat(db, ["I want to give feedback"]).exit_code == 0
    r = chat(db, b"   \n\x07hi\n\xff\xfe broken\n/state\n")
    assert r.exit_code == 0, r.output
    assert "Your message is empty" in r.output
    assert "control character (U+0007)" in r.output
    assert "not valid UTF-8" in r.output
    assert "flow: feedback · state: rating · attempts: 0" in r.output
    store = SqlStore(db)
    try:
        session = store.load("language-buddy", "ann")
        assert session is not None and session.turns == 1
    finally:
        store.close()


def test_chat_meta_commands(db: str) -> None:
    r = chat(db, ["/help", "/slots", "I want to complain", "/slots", "/history", "/state", "/quit"])
    assert r.exit_code == 0, r.output
    assert "/history" in r.output and "/quit" in r.output
    assert "no active flow" in r.output
    assert '"sentiment": "negative"' in r.output
    assert "user: I want to complain" in r.output
    assert "flow: feedback · state: rating" in r.output


def test_chat_unknown_bot_is_one_line_exit_1(db: str) -> None:
    r = chat(db, ["/quit"], "--bot", "nobot")
    assert r.exit_code == 1
    assert "unknown bot 'nobot'" in r.output and "Traceback" not in r.output


def test_chat_openai_without_key_exits_1(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    r = chat(db, ["hi"], "--llm", "openai")
    assert r.exit_code == 1
    assert "OPENAI_API_KEY" in r.output and "Traceback" not in r.output


def test_chat_foreign_database_exits_1(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "foreign.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE sessions (x INTEGER)")
    r = chat(str(path), ["hi"])
    assert r.exit_code == 1
    assert "not written by innerloop" in r.output and "Traceback" not in r.output


def test_chat_uses_innerloop_db_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "env.db"
    monkeypatch.setenv("INNERLOOP_DB", str(path))
    r = run("chat", "--user", "ann", input="hello\n")
    assert r.exit_code == 0, r.output
    assert path.exists()


# -- replay -------------------------------------------------------------------------------


def test_replay_all_pass() -> None:
    # every tenth script: the command line over many files (tests/test_replay.py plays them all)
    scripts = sorted(str(p) for p in REPLAYS.glob("*.yaml"))[::10]
    r = run("replay", *scripts)
    assert r.exit_code == 0, r.output
    assert r.output.count("PASS ") == len(scripts)


def test_replay_failure_shows_expected_and_actual(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "bot: language-buddy\nprofile: {name: Max}\n"
        "turns:\n  - user: I want to give feedback\n    expect: {state: details}\n"
    )
    r = run("replay", str(REPLAYS / "feedback_help.yaml"), str(bad))
    assert r.exit_code == 1, r.output
    assert "PASS " in r.output and f"FAIL {bad}" in r.output
    assert "turn 1: state" in r.output
    assert "expected: 'details'" in r.output and "actual:   'rating'" in r.output


def test_replay_malformed_beats_failed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("bot: language-buddy\nprofile: {name: Max}\nturns:\n  - user: x\n    expect: {state: details}\n")
    malformed = tmp_path / "malformed.yaml"
    malformed.write_text("bot: language-buddy\nturns:\n  - user: hi\n  - user: x\n    expect: {flwo: main}\n")
    r = run("replay", str(bad), str(malformed))
    assert r.exit_code == 2, r.output
    assert "FAIL" in r.output
    assert f"MALFORMED {malformed}, turn 2: unknown key 'flwo'" in r.output


def test_replay_malformed_restart_exits_2_with_file_turn_and_problem(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("bot: language-buddy\nprofile: {name: Max}\nturns:\n  - user: hi\n  - restart: true\n")
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text("bot: language-buddy\nturns:\n  - user: hi\n  - restart: true\n    user: again\n")
    off = tmp_path / "off.yaml"
    off.write_text("bot: language-buddy\nturns:\n  - user: hi\n  - user: x\n  - restart: false\n")
    r = run("replay", str(good), str(mixed), str(off))
    assert r.exit_code == 2, r.output
    assert f"PASS {good} (1 turns, 1 restart)" in r.output
    assert f"MALFORMED {mixed}, turn 2: a restart entry is `- restart: true` alone, but this one also has 'user'" in (
        r.output.replace("\n", " ")
    )
    assert f"MALFORMED {off}, turn 3: restart must be true, got false;" in r.output.replace("\n", " ")


def test_replay_on_a_given_db(tmp_path: Path) -> None:
    db = tmp_path / "replay.db"
    r = run("replay", "--db", str(db), str(REPLAYS / "feedback_happy_path.yaml"))
    assert r.exit_code == 0, r.output
    r = run("sessions", "list", "--db", str(db))
    assert "max" in r.output and "language-buddy" in r.output


def test_replay_openai_without_key_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    r = run("replay", "--llm", "openai", str(REPLAYS / "feedback_help.yaml"))
    assert r.exit_code == 1
    assert "end: llm" in r.output and "OPENAI_API_KEY" in r.output and "Traceback" not in r.output


# -- sessions and flows -------------------------------------------------------------------


def test_sessions_list_and_show(db: str) -> None:
    assert chat(db, ["hello", "I want to give feedback", "4"]).exit_code == 0
    r = run("sessions", "list", "--db", db)
    assert r.exit_code == 0, r.output
    store = SqlStore(db)
    try:
        [summary] = store.sessions()
    finally:
        store.close()
    assert summary.id in r.output and "feedback" in r.output and "details" in r.output
    for header in ("id", "bot", "user", "flow", "state", "turns", "updated"):
        assert header in r.output
    r = run("sessions", "show", summary.id[:6], "--db", db)
    assert r.exit_code == 0, r.output
    assert f"session {summary.id}" in r.output
    assert "user: hello" in r.output and "assistant: Hello! I'm LanguageBuddy" in r.output
    assert "feedback (v1) at details" in r.output and '"rating": 4' in r.output
    assert "route intent:feedback" in r.output
    assert "transition: feedback: rating -answer-> mood" in r.output
    assert "entered: feedback.mood, feedback.details" in r.output


def test_sessions_show_unknown_id(db: str) -> None:
    assert chat(db, ["hello"]).exit_code == 0
    r = run("sessions", "show", "zzzzzz", "--db", db)
    assert r.exit_code == 1
    assert "no session matches 'zzzzzz'" in r.output


def test_sessions_on_a_missing_database(tmp_path: Path) -> None:
    r = run("sessions", "list", "--db", str(tmp_path / "none.db"))
    assert r.exit_code == 1 and "no database at" in r.output
    assert not (tmp_path / "none.db").exists()


def test_sessions_list_empty(db: str) -> None:
    SqlStore(db).close()
    r = run("sessions", "list", "--db", db)
    assert r.exit_code == 0 and "no sessions yet" in r.output


def test_flows_list() -> None:
    r = run("flows", "list")
    assert r.exit_code == 0, r.output
    assert "language-buddy" in r.output and "feedback (v1)" in r.output and "rating" in r.output


def test_python_cli_py_works() -> None:
    r = subprocess.run([sys.executable, "cli.py", "flows", "list"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "feedback" in r.stdout


def test_chat_sends_a_new_user_to_onboarding_first(tmp_path: Path) -> None:
    r = run("chat", "--db", str(tmp_path / "new.db"), "--user", "newbie", input=b"Hello!\n/quit\n")
    assert r.exit_code == 0, r.output
    assert "[language-buddy · onboarding/" in r.output


def test_chat_refuses_bad_data_files_before_the_first_turn(tmp_path: Path) -> None:
    bad_course = tmp_path / "course.yaml"
    bad_course.write_text("concepts:\n  - {id: a, title: A, prerequisites: [zzz], chunks: []}\n")
    r = run("chat", "--bot", "study-pal", "--db", str(tmp_path / "c.db"), "--course", str(bad_course), input=b"hi\n")
    assert r.exit_code == 2, r.output
    assert str(bad_course) in r.output and "zzz" in r.output
    r = run("chat", "--bot", "support", "--db", str(tmp_path / "c.db"), "--kb", str(tmp_path / "nowhere"), input=b"")
    assert r.exit_code == 2 and "nowhere" in r.output, r.output
    assert not (tmp_path / "c.db").exists()  # refused before a database was opened


def test_chat_warns_about_a_malformed_document_and_goes_on(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "ok.md").write_text("---\ntitle: Reset your password\n---\nUse the login page link.\n")
    (kb / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n")
    r = run("chat", "--bot", "support", "--db", str(tmp_path / "k.db"), "--kb", str(kb), input=b"/quit\n")
    assert r.exit_code == 0, r.output
    assert "warning:" in r.output and "broken.md" in r.output


def test_replay_with_a_bad_data_file_is_malformed(tmp_path: Path) -> None:
    script = tmp_path / "s.yaml"
    script.write_text("bot: study-pal\ncourse: missing.yaml\nturns: [{user: hi}]\n")
    r = run("replay", str(script))
    assert r.exit_code == 2, r.output
    assert "MALFORMED" in r.output and "missing.yaml" in r.output


def test_sessions_expire_closes_idle_runs_and_the_user_hears_of_it(db: str) -> None:
    lines = ["I'd like to give feedback"]
    store = SqlStore(db)
    seed_profile(store, "language-buddy", "you", {"name": "Ann", "native_language": "de", "target_language": "en"})
    store.close()
    assert chat(db, lines, "--user", "you").exit_code == 0
    r = run("sessions", "expire", "--db", db)
    assert r.exit_code == 0 and "closed idle runs in 0 sessions" in r.output
    with sqlite3.connect(db) as conn:  # two days pass
        conn.execute("UPDATE sessions SET updated_at = ?", ((datetime.now(UTC) - timedelta(days=2)).isoformat(),))
    r = run("sessions", "expire", "--db", db)
    assert r.exit_code == 0 and "closed idle runs in 1 session" in r.output, r.output
    r = chat(db, ["hello"], "--user", "you")
    assert "Your unfinished feedback was closed: nothing was said in it for 2 days." in r.output
