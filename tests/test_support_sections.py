"""Articles for the case (sections keyed by a clarifying answer) and talk that is not a search."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine import DataFileError
from flows.support import sections
from flows.support.kb import SHIPPED_KB, KnowledgeBase, parse_document
from flows.support.smalltalk import load_small_talk, talk

HEADER = """---
title: The app crashes
tags: [crash]
clarifying_questions:
  - {text: "Which app?", type: choice, choices: [Android, iPhone]}
  - {text: "Did reinstalling help?", type: yes_no}
  - What were you doing?
---
"""

BODY = """Crashes have two causes.
<!-- when: Which app? = Android -->
**Android:** clear the cache.
<!-- when: Which app? = iPhone -->
**iPhone:** reinstall from the App Store.
<!-- when: Did reinstalling help? = no -->
We need the crash log.
<!-- end -->
We read every report.
"""


def test_the_reply_shows_the_common_text_and_the_sections_for_the_answers() -> None:
    doc = parse_document("crash.md", HEADER + BODY)
    text = sections.for_case(doc.body, {"Which app?": "iPhone", "Did reinstalling help?": True})
    assert text == "Crashes have two causes.\n\n**iPhone:** reinstall from the App Store.\n\nWe read every report."
    # an unanswered question (skipped, or the article answered at once) shows all its sections
    both = sections.for_case(doc.body, {"Did reinstalling help?": False})
    assert "**Android:**" in both and "**iPhone:**" in both and "crash log" in both
    assert "<!--" not in both


def test_a_body_without_markers_is_the_reply_as_written() -> None:
    body = "1. Open **Settings**.\n2. Tap **Export**.\n"
    assert sections.for_case(body, {"x": "y"}) == body.strip("\n")


@pytest.mark.parametrize(
    ("marker", "problem"),
    [
        ("<!-- when: Which phone? = Android -->", "'Which phone?', which is not a clarifying question"),
        ("<!-- when: Which app? = Windows -->", "'Windows' is not one of the choices of 'Which app?': Android, iPhone"),
        ("<!-- when: Did reinstalling help? = maybe -->", "is a yes/no question; 'maybe' is not yes or no"),
        ("<!-- when: What were you doing? = opening -->", "sections need a yes/no or choice question"),
        ("<!-- when Which app? Android -->", "a marker is '<!-- when: <question> = <answer> -->'"),
    ],
)
def test_a_section_must_name_an_answer_a_question_can_have(marker: str, problem: str) -> None:
    with pytest.raises(DataFileError) as info:
        parse_document("crash.md", HEADER + f"Intro.\n{marker}\nSteps.\n")
    assert str(info.value).startswith("crash.md: ") and problem in str(info.value), str(info.value)


def test_markers_are_not_indexed(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "crash.md").write_text(HEADER + BODY, encoding="utf-8")
    kb = KnowledgeBase(folder, str(tmp_path / "index.db"))
    with sqlite3.connect(tmp_path / "index.db") as conn:
        (body,) = conn.execute(f"SELECT body FROM {kb.table}").fetchone()
    kb.close()
    assert "android" in body and "when" not in body.split() and "end" not in body.split()


def test_the_shipped_sections_are_valid_and_tailor_the_crash_article() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    assert kb.problems == []
    crash = kb.documents["app-crashes"]
    for platform in ("Android", "iPhone", "web", "Windows", "Mac"):
        text = sections.for_case(crash.body, {"Which app crashes?": platform})
        assert len(text) < len(crash.body) and "Our engineers investigate" in text


def test_late_reminders_get_the_steps_for_their_case() -> None:
    from datetime import datetime

    from engine.authoring.testing import dialogue
    from engine.clock import pinned_clock

    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("support") as chat:
        for text in ("my reminders keep showing up late on my phone", "its an iphone", "like 20 min or so"):
            chat.say(text)
        chat.say("ok it was on")
    reply = chat.reply
    # battery saving is on: its steps; the browser's and the desktop's are for other devices
    assert "A few minutes late" in reply and "Late only in the browser" not in reply and "On desktop" not in reply
    assert reply.startswith("Thanks, that's everything I needed.")


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("ok thanks bye", {"thanks", "closings"}),
        ("Thank you so much!!", {"thanks"}),
        ("thx, that worked", {"thanks"}),
        ("have a nice day :)", {"closings"}),
        ("hi there", {"greetings"}),
        ("who are you?", {"about_bot"}),
        ("that's all, cheers", {"closings", "thanks"}),
    ],
)
def test_talk_is_read_as_talk(text: str, kinds: set[str]) -> None:
    assert talk(text) == kinds


@pytest.mark.parametrize("text", ["ok", "lol", "thanks, but my sync is still broken", "bye bye sync", "", "??"])
def test_a_message_with_anything_else_or_only_fillers_is_no_talk(text: str) -> None:
    assert talk(text) is None


def test_a_malformed_talk_table_names_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "talk.yaml"
    bad.write_text("thanks: [thanks, Thanks]\nclosings: [bye]\ngreetings: [hi]\nabout_bot: [who]\nfillers: [ok]\n")
    with pytest.raises(DataFileError) as info:
        load_small_talk(bad)
    assert "thanks" in str(info.value) and "lower-case" in str(info.value)


def test_a_list_cut_by_sections_stays_one_list() -> None:
    body = "Steps:\n\n<!-- when: Which app? = Android -->\n1. Clear the cache.\n<!-- end -->\n2. Restart.\n"
    doc = parse_document("crash.md", HEADER + body)
    assert sections.for_case(doc.body, {"Which app?": "Android"}) == "Steps:\n\n1. Clear the cache.\n2. Restart."
    assert sections.for_case(doc.body, {"Which app?": "iPhone"}) == "Steps:\n\n2. Restart."
