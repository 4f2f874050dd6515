"""The support bot: search in the main conversation, the strict clarification queue, the answer, the soft handoff."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from _restart import replay_in_processes
from typer.testing import CliRunner

from cli import app
from engine import DataFileError, Engine, EngineError, Resources, ScriptedLLM, SqlStore, TurnResult
from engine.handoff import hold_of
from engine.llm import LLM
from flows.support.clarification import WHY
from flows.support.handoff import HANDOFF_NOTICE
from flows.support.questions import choice_words, read_yes_no

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "tests" / "replays"
BOT = "support"
ANDROID_QUERY = "My notifications don't arrive on Android"


class Chat:
    """One user's conversation with the support bot on an on-disk store."""

    def __init__(self, db: Path, *, kb: Path | None = None, llm: LLM | None = None, user: str = "u") -> None:
        self.store = SqlStore(str(db))
        self.engine = Engine(self.store, llm, Resources(kb=kb))
        self.user = user

    def say(self, text: str) -> TurnResult:
        return self.engine.turn(BOT, self.user, text)

    @property
    def session_id(self) -> str:
        s = self.engine.session(BOT, self.user)
        assert s is not None
        return s.id

    def history(self) -> list[str]:
        return [m.content for m in self.store.history(self.session_id, 100)]

    def escalations(self) -> list[dict[str, object]]:
        return [dict(r.data) for r in self.store.records("escalation", bot=BOT, user=self.user)]


@pytest.fixture
def chat(tmp_path: Path) -> Chat:
    return Chat(tmp_path / "s.db")


def asked(r: TurnResult) -> str:
    """The question a reply ends with (the first one follows a line naming the article)."""
    return r.reply.rsplit("\n\n", 1)[-1]


def searched(r: TurnResult) -> list[str]:
    assert r.trace is not None
    return [n.detail for n in r.trace.notices if n.kind == "tool" and n.detail.startswith("search: ")]


def write_kb(folder: Path, docs: dict[str, str]) -> Path:
    """A small knowledge base: `docs` plus unrelated filler, so bm25's idf is meaningful."""
    filler = {
        "garden": "---\ntitle: Watering the garden\ntags: [garden]\n---\nWater in the morning.\n",
        "bikes": "---\ntitle: Fixing a bicycle chain\ntags: [bicycle]\n---\nOil the chain.\n",
        "bread": "---\ntitle: Baking sourdough bread\ntags: [baking]\n---\nFeed the starter.\n",
        "chess": "---\ntitle: Opening moves in chess\ntags: [chess]\n---\nControl the centre.\n",
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {**filler, **docs}.items():
        (folder / f"{name}.md").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return folder


# -- the seed's trace ---------------------------------------------------------------------


def test_the_seed_trace_answers_12_without_a_search(chat: Chat) -> None:
    first = chat.say(ANDROID_QUERY)
    assert (first.flow, first.state, first.reply) == (
        "clarification",
        "text",
        'I found our help article "Notifications not arriving on Android". 3 quick questions first, so I can '
        'answer for your case (say "cancel" if it\'s not what you need).\n\nWhich phone model do you use?',
    )
    assert searched(first) and "notifications-android" in searched(first)[0]

    second = chat.say("Pixel 7")
    assert (second.state, second.reply) == ("number", "Which Android version?")

    third = chat.say("12")
    assert (third.flow, third.state, third.reply) == ("clarification", "text", "Can you describe the error?")
    assert third.slots["current_index"] == 2
    assert third.slots["answers"] == {"Which phone model do you use?": "Pixel 7", "Which Android version?": "12"}
    assert third.slots["parsed"] == {"Which phone model do you use?": "Pixel 7", "Which Android version?": 12}

    last = chat.say("No sound, and the badge shows 3 when I open the app")
    assert last.flow == "main"
    assert 'help article "Notifications not arriving on Android"' in last.reply
    assert "2. Open Settings → Apps → Tasklane → Battery" in last.reply  # the document, as plain text
    assert "**" not in last.reply and "\n> " not in last.reply
    assert "- Which Android version? 12\n" in last.reply
    assert "- Can you describe the error? No sound, and the badge shows 3 when I open the app" in last.reply

    for r in (second, third, last):
        assert r.trace is not None and r.trace.route == "flow"
        assert searched(r) == [], r.trace.notices
    # the stored event log agrees: one search, on the turn that opened the queue
    stored = chat.store.traces(chat.session_id)
    assert [any(n.detail.startswith("search: ") for n in t.notices) for t in stored] == [True, False, False, False]

    assert (
        'Clarification completed for "Notifications not arriving on Android". Answers: '
        'Which phone model do you use? "Pixel 7"; Which Android version? "12"; '
        'Can you describe the error? "No sound, and the badge shows 3 when I open the app".'
    ) in chat.history()
    assert chat.escalations() == []


def test_exactly_one_question_per_turn(chat: Chat) -> None:
    replies = [asked(chat.say(t)) for t in ("I want a refund", "Google Play", "3")]
    assert replies == [
        "Where did you buy Premium? (App Store, Google Play or Tasklane website)",
        "How many days ago were you charged?",
        "Were you charged more than once for the same period?",
    ]


def test_an_answer_that_looks_like_a_query_is_still_an_answer(chat: Chat) -> None:
    chat.say(ANDROID_QUERY)
    r = chat.say("I want a refund, how do I reset my password")
    assert (r.flow, r.state) == ("clarification", "number") and searched(r) == []
    assert r.slots["answers"] == {"Which phone model do you use?": "I want a refund, how do I reset my password"}


def test_the_article_is_named_once_before_the_first_question(chat: Chat) -> None:
    first = chat.say("I want a refund")
    assert first.reply.startswith('I found our help article "Request a refund for Tasklane Premium". 3 quick questions')
    again = chat.say("at the supermarket")  # not a store: the reprompt does not name the article again
    assert again.state == "choice" and "help article" not in again.reply
    assert "help article" not in chat.say("app store").reply


def test_asking_for_a_person_mid_queue_hands_over_with_the_answers_so_far(chat: Chat) -> None:
    chat.say("I want a refund")
    chat.say("Google Play")
    r = chat.say("can I speak to a real person?")
    assert (r.flow, r.reply) == ("main", HANDOFF_NOTICE)
    assert (
        searched(r) == []
        and r.trace is not None
        and ("aside", "person") in [(n.kind, n.detail) for n in r.trace.notices]
    )
    [row] = chat.escalations()
    assert (row["document"], row["reason"], row["answers"]) == (
        "refund-request",
        "asked for a person",
        {"Where did you buy Premium?": "Google Play"},
    )
    run = chat.store.runs(chat.session_id)[-1]
    assert run.outcome == "escalated" and run.summary == (
        'Clarification for "Request a refund for Tasklane Premium" handed to an agent at the user\'s request. '
        'Answers so far: Where did you buy Premium? "Google Play".'
    )


def test_mentioning_an_agent_in_an_answer_is_still_an_answer(chat: Chat) -> None:
    chat.say(ANDROID_QUERY)
    r = chat.say("an agent phone from work, a Pixel 7")
    assert (r.flow, r.state, r.slots["current_index"]) == ("clarification", "number", 1)
    assert chat.escalations() == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("yes", True),
        ("yep, it is", True),
        ("no", False),
        ("definitely not", False),
        ("absolutely not!", False),
        ("not sure", None),
        ("no idea", None),
        ("I don't know", None),
        ("maybe", None),
    ],
)
def test_yes_no_answers_that_are_neither_are_not_read_as_one(text: str, value: bool | None) -> None:
    assert read_yes_no(text) is value


def test_thanks_gets_a_reply_not_a_search(chat: Chat) -> None:
    for text in ("thanks!", "great, thank you so much", "perfect"):
        r = chat.say(text)
        assert r.reply.startswith("You're welcome!") and searched(r) == [], text


# -- typed questions ----------------------------------------------------------------------


def test_typed_questions_validate_and_reprompt_on_the_ladder(chat: Chat) -> None:
    assert chat.say("my reminders come late").state == "choice"

    bad = chat.say("my fridge")
    assert (bad.state, bad.slots["current_index"]) == ("choice", 0)
    assert bad.reply == "Please type one of: Android, iPhone, web, desktop. Which device shows the late reminders?"
    assert bad.trace is not None and "reprompt:clarification.choice:1" in map(str, bad.trace.notices)

    assert chat.say("the web one").state == "number"
    far_question = "About how many minutes late do they arrive?"
    far = chat.say("5000")
    assert far.reply == "5000 is above 1440. Please type just the number, a number from 1 to 1440. " + far_question
    mushy = chat.say("quite a lot")
    assert mushy.trace is not None and "reprompt:clarification.number:2" in map(str, mushy.trace.notices)
    assert mushy.reply == (
        "Digits only, a number from 1 to 1440. One more try, or I'll skip this question. " + far_question
    )

    assert chat.say("about 20 minutes").state == "yes_no"
    assert chat.say("maybe").reply == "Please answer yes or no. Is battery saver or Low Power Mode turned on?"
    done = chat.say("no, it's off")
    assert done.flow == "main"
    run = chat.store.runs(chat.session_id)[-1]
    assert run.slots["answers"] == {
        "Which device shows the late reminders?": "the web one",
        "About how many minutes late do they arrive?": "about 20 minutes",
        "Is battery saver or Low Power Mode turned on?": "no, it's off",
    }
    assert run.slots["parsed"] == {
        "Which device shows the late reminders?": "web",
        "About how many minutes late do they arrive?": 20,
        "Is battery saver or Low Power Mode turned on?": False,
    }


def test_three_invalid_answers_skip_the_question(chat: Chat) -> None:
    chat.say("my reminders come late")
    chat.say("web")
    for text in ("lots", "ages", "forever"):
        r = chat.say(text)
    assert r.state == "yes_no" and r.reply.startswith("Let's skip that one for now.")
    assert r.slots["skipped"] == ["About how many minutes late do they arrive?"]
    last = chat.say("yes")
    assert "- About how many minutes late do they arrive? (not answered)" in last.reply
    assert "About how many minutes late do they arrive? (no answer)" in chat.history()[-1]


def test_help_explains_the_question_without_consuming_it(chat: Chat) -> None:
    chat.say("I want a refund")
    chat.say("app store")
    r = chat.say("help")
    assert r.state == "number" and r.slots["current_index"] == 1
    # why the question is asked, then what it needs (engine/askback.py: help shows the why too)
    assert r.reply.startswith(f"{WHY} I'm asking for a number from 0 to 365. How many days ago were you charged?")


def test_choice_words_pick_a_choice_by_its_own_word_or_a_synonym() -> None:
    stores = ["App Store", "Google Play", "Tasklane website"]
    assert choice_words(stores, {}) == {
        "App Store": ["store"],
        "Google Play": ["google", "play"],
        "Tasklane website": ["tasklane", "website"],
    }
    # "store" no longer picks App Store once "play store" means Google Play
    assert choice_words(stores, {"App Store": ["apple"], "Google Play": ["play store"]}) == {
        "App Store": ["apple"],
        "Google Play": ["play store", "google", "play"],
        "Tasklane website": ["tasklane", "website"],
    }


# -- the answer and the handoff -----------------------------------------------------------


def test_handoff_comes_after_the_answer_in_the_same_reply(chat: Chat) -> None:
    for text in ("I was charged twice for Premium", "on the website", "2"):
        chat.say(text)
    last = chat.say("yes, twice in March")
    assert last.flow == "main"
    assert last.reply.endswith("\n\n" + HANDOFF_NOTICE)
    answer, notice = last.reply.rsplit("\n\n", 1)
    assert 'help article "Request a refund for Tasklane Premium"' in answer and "Duplicate charges" in answer
    assert "**" not in answer
    assert "- Were you charged more than once for the same period? yes, twice in March" in answer
    assert notice == "Connecting you to an agent…"

    [row] = chat.escalations()
    assert row["title"] == "Request a refund for Tasklane Premium" and row["document"] == "refund-request"
    assert row["answers"] == {
        "Where did you buy Premium?": "on the website",
        "How many days ago were you charged?": "2",
        "Were you charged more than once for the same period?": "yes, twice in March",
    }
    assert isinstance(row["at"], str) and row["at"].startswith("20")
    session = chat.engine.session(BOT, "u")
    assert session is not None and hold_of(session) is not None
    run = chat.store.runs(chat.session_id)[-1]
    assert run.outcome == "escalated"
    assert run.summary.startswith('Clarification completed for "Request a refund for Tasklane Premium", then handed')
    assert 'Where did you buy Premium? "on the website"' in run.summary


def test_a_document_without_questions_is_answered_from_main(chat: Chat) -> None:
    r = chat.say("how do I reset my password")
    assert r.flow == "main"
    assert r.reply.startswith('Here is what our help article "Reset a forgotten password" says:\n\nTo reset')
    assert "Your details" not in r.reply and chat.escalations() == []


def test_a_handoff_document_without_questions_escalates_after_answering(tmp_path: Path) -> None:
    kb = write_kb(
        tmp_path / "kb",
        {"legal": "---\ntitle: Subpoenas and court orders\nrequires_handoff: true\n---\nWe need it.\n"},
    )
    chat = Chat(tmp_path / "s.db", kb=kb)
    r = chat.say("I have a subpoena")
    assert (
        r.reply
        == f'Here is what our help article "Subpoenas and court orders" says:\n\nWe need it.\n\n{HANDOFF_NOTICE}'
    )
    assert [row["title"] for row in chat.escalations()] == ["Subpoenas and court orders"]


def test_no_match_offers_a_person_and_yes_accepts(chat: Chat) -> None:
    r = chat.say("How do I bake sourdough bread?")
    assert r.flow == "main" and r.reply.startswith("Our help center doesn't cover baking sourdough bread.")
    assert "connect you to a person" in r.reply
    assert searched(r) == ["search: 'How do I bake sourdough bread?' -> no match"]
    yes = chat.say("yes please")
    assert yes.reply == HANDOFF_NOTICE
    [row] = chat.escalations()
    assert (row["query"], row["document"], row["answers"]) == ("How do I bake sourdough bread?", None, {})
    assert chat.say("agent").reply.startswith("You're already in the queue")
    assert len(chat.escalations()) == 1


def test_declining_the_offer_or_moving_on(chat: Chat) -> None:
    chat.say("what's the weather in Paris")
    assert chat.say("no thanks").reply.startswith("Alright.")
    chat.say("what's the weather in Paris")
    moved_on = chat.say("how do I reset my password")  # the offer only holds for the next message
    assert "Reset a forgotten password" in moved_on.reply
    assert chat.say("yes").reply != HANDOFF_NOTICE
    assert chat.escalations() == []


@pytest.mark.parametrize(
    "text",
    [
        "can I talk to a human?",
        "agent",
        "I want to speak with someone",
        "can I get a real person",
        "get me an agent",
        "customer service please",
        "contact support",
    ],
)
def test_asking_for_a_person_directly(chat: Chat, text: str) -> None:
    r = chat.say(text)
    assert r.reply == HANDOFF_NOTICE and searched(r) == []
    assert chat.escalations()[0]["reason"] == "asked for a person"


def test_small_talk_gets_the_capabilities_not_a_search(chat: Chat) -> None:
    r = chat.say("hi!")
    assert "Tasklane support assistant" in r.reply and searched(r) == []


# -- cancel, restart, resources -----------------------------------------------------------


def test_cancel_mid_queue_leaves_with_a_summary_that_says_so(chat: Chat) -> None:
    chat.say("I want a refund")
    chat.say("Google Play")
    r = chat.say("cancel")
    assert (r.flow, r.reply) == ("main", "OK, I've stopped the clarification.")
    run = chat.store.runs(chat.session_id)[-1]
    assert run.outcome == "cancelled"
    assert chat.history()[-2] == (
        'Clarification for "Request a refund for Tasklane Premium" cancelled by the user. '
        'Answers so far: Where did you buy Premium? "Google Play".'
    )
    assert chat.escalations() == []
    assert searched(chat.say("how do I reset my password"))  # back in main: searching again


def test_a_restart_mid_queue_resumes_at_the_same_question(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    before = Chat(db)
    before.say(ANDROID_QUERY)
    assert before.say("Pixel 7").reply == "Which Android version?"  # no article line after the first question
    before.store.close()

    after = Chat(db)  # a new store and engine, as after a process restart
    r = after.say("12")
    assert (r.state, r.reply, r.slots["current_index"]) == ("text", "Can you describe the error?", 2)
    assert searched(r) == []
    assert after.say("no sound").flow == "main"
    assert 'Which Android version? "12"' in after.history()[-1]


def test_a_restart_mid_queue_between_two_replay_runs(tmp_path: Path) -> None:
    """tests/replays/restart/support.part1 and .part2, each in its own process, on one database."""
    db = tmp_path / "s.db"
    replay_in_processes(db, "support.part1", "support.part2")
    traces = SqlStore(str(db)).traces(Chat(db, user="max").session_id)
    assert [t.route for t in traces] == ["intent:clarification", "flow", "flow", "flow"]
    assert [n for t in traces[1:] for n in t.notices if n.detail.startswith("search: ")] == []


def test_editing_the_document_mid_queue_does_not_shift_the_questions(tmp_path: Path) -> None:
    kb = write_kb(
        tmp_path / "kb",
        {"export": '---\ntitle: Export your data\nclarifying_questions: ["First?", "Second?"]\n---\nDo it.\n'},
    )
    chat = Chat(tmp_path / "s.db", kb=kb)
    assert asked(chat.say("export my data")) == "First?"
    # the edited article still says what it exports: one that never says "data" is not asked about exporting
    # data (flows/support/acted.py)
    (kb / "export.md").write_text('---\ntitle: Export your data v2\nclarifying_questions: ["Other?"]\n---\nNew.\n')
    assert chat.say("one").reply == "Second?"
    assert "Do it." in chat.say("two").reply
    assert asked(chat.say("how do I export my data")) == "Other?"  # the next search sees the edit


def test_the_kb_resource_replaces_the_shipped_folder(tmp_path: Path) -> None:
    kb = write_kb(
        tmp_path / "kb",
        {
            "printer": "---\ntitle: Printer offline\nclarifying_questions:\n"
            '  - {text: "Is it plugged in?", type: yes_no}\n---\nRestart it.\n',
            "broken": "---\ntitle: [oops\n---\nx\n",
        },
    )
    chat = Chat(tmp_path / "s.db", kb=kb)
    r = chat.say("my printer is offline")
    assert (r.flow, asked(r)) == ("clarification", "Is it plugged in?")
    assert r.trace is not None and any(
        n.detail.startswith("kb: 1 document(s) skipped: broken.md: ") for n in r.trace.notices
    )
    # the shipped help centre is not searched: a question it answers is kept for after this one
    reply = chat.say("how do I reset my password").reply
    assert "Reset a forgotten password" not in reply and reply.endswith("Is it plugged in?")


def test_a_missing_kb_folder_is_a_data_file_error(tmp_path: Path) -> None:
    chat = Chat(tmp_path / "s.db", kb=tmp_path / "nowhere")
    with pytest.raises(DataFileError, match="folder not found"):
        chat.say("my printer is offline")


# -- with a language model ----------------------------------------------------------------


def test_an_llm_phrases_the_questions_and_the_answer_and_its_readings_are_held_to_the_question(
    tmp_path: Path,
) -> None:
    kb = write_kb(
        tmp_path / "kb",
        {
            "refund": """\
                ---
                title: Refunds
                tags: [refund]
                clarifying_questions:
                  - {text: "How many days ago were you charged?", type: number, min: 0, max: 365}
                  - {text: "Where did you buy it?", type: choice, choices: [App Store, Google Play]}
                requires_handoff: true
                ---
                Refunds take 5 days.
                """
        },
    )
    llm = ScriptedLLM()
    chat = Chat(tmp_path / "s.db", kb=kb, llm=llm)

    intro = "Dazu gibt es den Hilfeartikel „Refunds“. Zuerst zwei kurze Fragen (sag „cancel“, wenn es nicht passt)."
    llm.push(intro, "Vor wie vielen Tagen wurde abgebucht?")
    first = chat.say("Ich möchte eine Rückerstattung, refund")
    assert first.reply == f"{intro}\n\nVor wie vielen Tagen wurde abgebucht?"

    # a number the message does not give is no reading of it (and 999 would break the bounds too)
    llm.push({"value": 999}, "Bitte nur die Zahl von 0 bis 365: Vor wie vielen Tagen wurde abgebucht?")
    r = chat.say("vor einer Weile")  # "a while ago": no number in it (a week, "vor einer Woche", is 7 days)
    assert (r.state, r.reply) == ("number", "Bitte nur die Zahl von 0 bis 365: Vor wie vielen Tagen wurde abgebucht?")
    assert r.trace is not None and [n.kind for n in r.trace.notices] == ["parse_rejected", "reprompt"]

    # German number words are read by the rules (engine/numwords.py): no model parse is asked
    llm.push("Wo gekauft: App Store oder Google Play?")
    assert chat.say("vor sieben Tagen").slots["parsed"] == {"How many days ago were you charged?": 7}

    llm.push({"value": "Amazon"}, "Bitte App Store oder Google Play.")  # not one of the choices
    assert chat.say("bei Amazon").state == "choice"

    answer = "Laut „Refunds“ dauern Erstattungen 5 Tage; du hast Premium vor 7 Tagen bei Google Play gekauft."
    llm.push(answer)
    last = chat.say("Google Play")
    assert last.reply == f"{answer}\n\n{HANDOFF_NOTICE}"
    assert llm.calls == [
        "intro:clarification",
        "ask:clarification.number",
        "parse:clarification.number",
        "reprompt:clarification.number",
        "ask:clarification.choice",
        "parse:clarification.choice",
        "reprompt:clarification.choice",
        "answer:clarification",
    ]
    # answers stay verbatim under the document's own questions, whatever language was spoken
    assert chat.escalations()[0]["answers"] == {
        "How many days ago were you charged?": "vor sieben Tagen",
        "Where did you buy it?": "Google Play",
    }


def test_a_handed_off_session_waits_for_an_agent_who_replies_and_hands_back(tmp_path: Path) -> None:
    db = str(tmp_path / "agent.db")
    store = SqlStore(db)
    e = Engine(store)
    assert e.turn(BOT, "u", "can I talk to a real person?").reply == HANDOFF_NOTICE
    held = e.turn(BOT, "u", "hello?")
    assert held.reply == "You're already in the queue; an agent will reply here shortly."
    assert held.trace is not None and held.trace.route == "agent:waiting"
    s = e.session(BOT, "u")
    assert s is not None and hold_of(s) is not None
    with pytest.raises(EngineError, match="not waiting for an agent"):
        e.agent_reply(BOT, "someone-else", "hi")
    store.close()
    sid = s.id
    r = CliRunner().invoke(app, ["sessions", "reply", sid[:6], "Hi, I'm Dana from support. What happened?", "--db", db])
    assert r.exit_code == 0, r.output
    store = SqlStore(db)
    e = Engine(store)
    after = e.turn(BOT, "u", "my tasks vanished")
    assert after.reply.startswith("Agent: Hi, I'm Dana from support. What happened?")
    assert after.reply.endswith("You're already in the queue; an agent will reply here shortly.")
    store.close()
    r = CliRunner().invoke(app, ["sessions", "release", sid, "--db", db])
    assert r.exit_code == 0 and "back with the bot" in r.output, r.output
    store = SqlStore(db)
    e = Engine(store)
    back = e.turn(BOT, "u", "how do I reset my password")
    assert back.reply.startswith("(The agent has handed you back to me. How can I help?)")
    assert "reset" in back.reply.lower() and back.trace is not None and back.trace.route != "agent:waiting"
    history = [m.content for m in store.history(sid, 100)]
    assert "my tasks vanished" in history and "Hi, I'm Dana from support. What happened?" in history
    assert "An agent handed the conversation back to the bot." in history
    routes = [t.route for t in store.traces(sid)]
    assert "agent:reply" in routes and "agent:release" in routes
    store.close()
