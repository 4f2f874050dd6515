"""A summary for the user's case: the engine's request for one, the guard that holds it to its
text's facts, and the support bot's answer through it (flows/support/handoff.py, say_answer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from engine import Engine, Phrased, Resources, ScriptedLLM, SqlStore, TurnResult
from engine.guard import summary_problem
from engine.llm import LLM, PhraseRequest
from engine.models import Message

BOT = "support"
CRASH = ["tasklane crashes every time i open it on my pixel", "just opening it", "yes reinstalling fixed it"]
# what the model is asked to phrase before the answer: the intro, then the two questions left
BEFORE_THE_ANSWER = ["intro:clarification", "ask:clarification.text", "ask:clarification.yes_no"]
# keeps the article's names (Tasklane, Play Store, Settings) and adds none
GOOD = (
    "Glad reinstalling fixed it on your Android phone! If the crash comes back: update Tasklane in the "
    "Play Store, restart the phone, and clear the cache under Settings → Apps → Tasklane → Storage."
)


def converse(tmp_path: Path, llm: LLM | None) -> list[TurnResult]:
    tmp_path.mkdir(exist_ok=True)
    engine = Engine(SqlStore(str(tmp_path / "s.db")), llm, Resources())
    return [engine.turn(BOT, "u", text) for text in CRASH]


def scripted(answer: str) -> ScriptedLLM:
    # the questions as written: only the answer is the model's
    return ScriptedLLM(
        [
            'I found our help article "The app crashes or closes on startup". 2 quick questions first.',
            "What were you doing right before it crashed?",
            "Did reinstalling the app help?",
            answer,
        ]
    )


def test_the_answer_asks_for_a_summary_of_the_article_for_what_the_user_described(tmp_path: Path) -> None:
    llm = scripted(GOOD)
    last = converse(tmp_path, llm)[-1]
    assert llm.calls == [*BEFORE_THE_ANSWER, "answer:clarification"]
    request = llm.requests[-1]
    assert isinstance(request, PhraseRequest) and request.mode == "summary"
    # the case: the user's description and answers, in their words
    assert request.case is not None
    assert "The user wrote: tasklane crashes every time i open it on my pixel" in request.case
    assert "- What were you doing right before it crashed? just opening it" in request.case
    assert "- Did reinstalling the app help? yes reinstalling fixed it" in request.case
    # the text: the article's sections for this case only, as plain text
    assert request.content.startswith("The app crashes or closes on startup\n\n")
    assert "Good to hear reinstalling helped" in request.content
    assert "Android" in request.content and "Clear cache" in request.content
    assert "iPhone and iPad" not in request.content and "Since reinstalling did not help" not in request.content
    assert "**" not in request.content
    assert last.reply.startswith(GOOD)
    assert last.trace is not None and not [n for n in last.trace.notices if n.kind == "phrase_rejected"]


@pytest.mark.parametrize(
    ("summary", "why"),
    [
        (GOOD.replace("restart the phone", "restart the phone, wait 10 minutes"), "adds '10'"),
        (GOOD.replace("clear the cache", "clear the cache in Google Drive"), "adds 'Google Drive'"),
        (GOOD.replace(" in the Play Store", ""), "lost 'Play Store'"),
        ("Glad it works now!", "lost 'Tasklane'"),
        (
            "Glad reinstalling fixed it! If the crash comes back: update Tasklane in the Play Store, and clear "
            "the cache under Settings → Apps → Tasklane → Storage.",
            "lost the step 'Restart the phone.'",
        ),
    ],
    ids=["invented number", "invented name", "dropped name", "dropped the steps", "dropped a step"],
)
def test_a_summary_that_adds_or_drops_a_fact_gives_way_to_the_articles_text(
    tmp_path: Path, summary: str, why: str
) -> None:
    offline = converse(tmp_path / "rules", None)[-1].reply
    last = converse(tmp_path / "model", scripted(summary))[-1]
    assert last.reply == offline
    assert "1. Update Tasklane in the Play Store" in last.reply  # the section text, steps and all
    assert last.trace is not None
    rejected = [n.detail for n in last.trace.notices if n.kind == "phrase_rejected"]
    assert len(rejected) == 1 and rejected[0].startswith("answer:clarification: the summary") and why in rejected[0]


def test_a_summary_the_model_was_stopped_in_gives_way_to_the_articles_text(tmp_path: Path) -> None:
    offline = converse(tmp_path / "rules", None)[-1].reply
    llm = scripted("x")
    llm.queue[-1] = Phrased(text=GOOD[:150], cut=True)  # whole facts so far, the next step half written
    last = converse(tmp_path / "model", llm)[-1]
    assert last.reply == offline
    assert last.trace is not None
    assert [n.detail for n in last.trace.notices if n.kind == "phrase_rejected"] == [
        "answer:clarification: the summary stopped at the token limit"
    ]


def test_an_article_answered_at_once_is_summarised_for_the_request(tmp_path: Path) -> None:
    summary = (
        "To export your tasks: Settings → Data → Export, then CSV (for Excel or Google Sheets) or JSON "
        "(complete, including subtasks, comments and reminders), and Export. Big accounts get a link by "
        "email, valid 7 days; choose Include attachments for a ZIP file with them."
    )
    llm = ScriptedLLM([summary])
    engine = Engine(SqlStore(str(tmp_path / "s.db")), llm, Resources())
    r = engine.turn(BOT, "u", "how do i export my tasks")
    request = llm.requests[-1]
    assert isinstance(request, PhraseRequest)
    assert (request.purpose, request.mode) == ("answer:main", "summary")
    assert request.case == "The user wrote: how do i export my tasks"
    assert request.content.startswith("Export your tasks to CSV or JSON\n\nYou can export everything")
    assert r.reply == summary


# -- the guard -----------------------------------------------------------------------------

TEXT = """Reset a forgotten password

1. Open https://tasklane.app/reset and enter your email.
2. We send a link that works for 30 minutes.
3. On iPhone, open it in Safari."""


@pytest.mark.parametrize(
    ("summary", "problem"),
    [
        ("Open https://tasklane.app/reset, enter your email, and open the link (valid 30 minutes) in Safari.", None),
        ("Step 1: open https://tasklane.app/reset. Step 2: the link works 30 minutes; open it in Safari.", None),
        ("Open https://tasklane.app/reset; the link works for 30 minutes. Use Safari.", None),
        ("", "the summary is empty"),
        ("Open the reset page; the link works for 30 minutes; use Safari.", "lost 'https://tasklane.app/reset'"),
        ("Open https://tasklane.app/reset; the link works a while; use Safari.", "lost '30'"),
        ("Open https://tasklane.app/reset; the link works for 30 minutes; use Safari 18.", "adds '18'"),
        ("Open https://tasklane.app/reset; the 30-minute link opens in Safari or Chrome.", "adds 'Chrome'"),
        (
            "Open https://tasklane.app/reset or https://help.tasklane.app; the link works 30 minutes; Safari.",
            "adds 'https://help.tasklane.app'",
        ),
        ("Open https://tasklane.app/reset, 30 minutes, Safari. " + "More. " * 80, "characters for a"),
        # every name and number kept, but not the step that says what the 30 minutes are
        ("Open https://tasklane.app/reset in Safari within 30 minutes.", "lost the step 'We send a link"),
    ],
)
def test_a_summary_keeps_the_texts_facts_and_adds_none(summary: str, problem: str | None) -> None:
    found = summary_problem(TEXT, summary, "The user wrote: i forgot my password on my iphone")
    assert (found is None) if problem is None else (found is not None and problem in found), found


def test_a_number_or_name_the_user_gave_is_not_made_up() -> None:
    case = "The user wrote: my iphone 13 with iOS 17\n- Which device? iPhone"
    summary = "On your iPhone 13 with iOS 17: open https://tasklane.app/reset; the link works 30 minutes in Safari."
    assert summary_problem(TEXT, summary, case) is None
    assert summary_problem(TEXT, summary, "The user wrote: i forgot it") is not None


def test_a_summary_in_another_language_than_the_users_is_refused() -> None:
    german = "Öffne https://tasklane.app/reset und gib deine E-Mail ein; der Link gilt 30 Minuten, in Safari öffnen."
    user = "ich habe mein passwort vergessen, was soll ich tun"
    # German writes every noun capitalised: no noun is taken for a made-up name
    assert summary_problem(TEXT, german, f"The user wrote: {user}", user_text=user) is None
    assert "the user writes en" in (
        summary_problem(TEXT, german, "x", user_text="i forgot my password what should i do now") or ""
    )


def test_a_summary_is_asked_for_a_case() -> None:
    chat = [Message(role="user", content="hi")]
    with pytest.raises(ValidationError, match="case"):
        PhraseRequest(purpose="answer", content="text", messages=chat, mode="summary")
    with pytest.raises(ValidationError, match="case"):
        PhraseRequest(purpose="answer", content="text", messages=chat, case="The user wrote: hi")
    assert PhraseRequest(purpose="answer", content="text", messages=chat, mode="summary", case="x").case == "x"
