"""Bad user input gets a clear reply and changes nothing stored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from engine import Engine, InputRejected, SqlStore
from engine.authoring.replay import seed_profile
from engine.runtime import MAX_CHARS, check_message, decode_terminal

BAD = {
    "empty": "",
    "whitespace": " \t\n  ",
    "huge": "a" * 100_000,
    "control": "hello\x07world",
    "nul": "hi\x00",
    "escape": "\x1b[31mred",
    "invalid-utf8": decode_terminal(b"caf\xe9 time"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_check_message_refuses(name: str) -> None:
    with pytest.raises(InputRejected) as err:
        check_message(BAD[name])
    assert err.value.reason.endswith(".")


def test_reasons_say_what_is_wrong() -> None:
    with pytest.raises(InputRejected, match="empty"):
        check_message("   ")
    with pytest.raises(InputRejected, match="100,000 characters"):
        check_message("a" * 100_000)
    with pytest.raises(InputRejected, match="U\\+0007"):
        check_message("a\x07")
    with pytest.raises(InputRejected, match="UTF-8"):
        check_message(decode_terminal(b"\xff\xfe"))


def test_good_text_is_kept_verbatim_inside() -> None:
    assert check_message("  Grüße,\n\tMax 👋🏽  ") == "Grüße,\n\tMax 👋🏽"
    assert check_message("a" * MAX_CHARS) == "a" * MAX_CHARS


@pytest.mark.parametrize("name", list(BAD))
def test_rejected_turn_changes_nothing(tmp_path: Path, name: str) -> None:
    store = SqlStore(str(tmp_path / "t.db"))
    seed_profile(store, "language-buddy", "max", {"name": "Max", "level": "B1"})
    engine = Engine(store)
    first = engine.turn("language-buddy", "max", "I want to give feedback")
    before = store.get(first.session_id or "")
    result = engine.turn("language-buddy", "max", BAD[name])
    assert result.rejected
    assert result.flow == "feedback" and result.state == "rating"
    after = store.get(first.session_id or "")
    assert after == before
    assert len(store.traces(first.session_id or "")) == 1
    # the conversation carries on where it was
    assert engine.turn("language-buddy", "max", "4").state == "details"


@pytest.mark.parametrize(
    "text",
    [
        "line one\r\nline two",
        "שלום\u200f!",
        "co\u00adoperate",
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",
        "می\u200cخواهم",
    ],
)
def test_ordinary_text_with_format_characters_is_accepted(text: str) -> None:
    assert check_message(text)


def test_line_endings_are_normalised() -> None:
    assert check_message("a\r\nb\rc") == "a\nb\nc"


@pytest.mark.parametrize(
    ("user", "problem"),
    [
        ("ann\udcff", "not valid UTF-8"),
        ("ann\x00", "control or invisible character (U+0000)"),
        ("ann\u200b", "U+200B"),
        ("a" * 201, "201 characters long"),
        ("  ", "empty"),
        (" ann", "starts or ends with whitespace"),
    ],
)
def test_a_bad_user_id_is_refused_at_the_boundary_and_nothing_is_stored(
    tmp_path: Path, user: str, problem: str
) -> None:
    store = SqlStore(str(tmp_path / "ids.db"))
    e = Engine(store)
    with pytest.raises(InputRejected, match=re.escape(problem)):
        e.turn("language-buddy", user, "hello")
    with pytest.raises(InputRejected):
        e.reset("language-buddy", user)
    assert store.sessions() == []
    store.close()


def test_the_chat_refuses_a_bad_user_id_with_a_message(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["chat", "--db", str(tmp_path / "c.db"), "--user", "ann\x07"], input="hello\n")
    assert r.exit_code == 1 and "error: The --user contains a control or invisible character (U+0007)" in r.output
