"""The main conversation talks: with a model, a message that starts no flow is answered by the
model in the bot's persona, from the main history (summaries in, inner turns out) and what the
bot knows of the user; offline the reply stays the honest capabilities text."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, Phrased, PhraseRequest, ScriptedLLM, SqlStore
from engine.authoring.replay import seed_profile
from tests.test_turn import BOTS


@pytest.fixture
def store(tmp_path: Path) -> SqlStore:
    return SqlStore(str(tmp_path / "main.db"))


def last_phrase(llm: ScriptedLLM) -> PhraseRequest:
    found = [r for r in llm.requests if isinstance(r, PhraseRequest)]
    assert found, "no phrase request was made"
    return found[-1]


def test_a_model_answers_small_talk_itself_in_the_bots_persona(store: SqlStore) -> None:
    llm = ScriptedLLM(["Doing well, thanks! Want to take the survey?"])
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "hello, how are you?")
    assert (r.flow, r.reply) == ("main", "Doing well, thanks! Want to take the survey?")
    req = last_phrase(llm)
    assert req.mode == "reply" and req.purpose == "reply:main"
    assert req.messages[0].role == "system" and "You are a test bot" in req.messages[0].content
    assert req.messages[-1].content == "hello, how are you?"
    # what the bot can do travels with the request, as the fallback the model may use
    assert req.content == "I can run a survey or take feedback."
    assert r.trace is not None and [c.purpose for c in r.trace.llm_calls] == ["reply:main"]


def test_the_reply_window_holds_the_summary_of_an_inner_loop_but_not_its_turns(store: SqlStore) -> None:
    llm = ScriptedLLM(["Pick a number from 1 to 9.", "Happy with 4?"])  # "Thanks." is said as written
    e = Engine(store, llm, bots=BOTS)
    for line in ("let's do the survey", "4", "yes"):
        e.turn("test-bot", "u", line)
    llm.push("Glad you picked 4!")
    r = e.turn("test-bot", "u", "what did I pick again?")
    assert r.reply == "Glad you picked 4!"
    said = [m.content for m in last_phrase(llm).messages[1:]]
    assert "Survey done: n=4, ok=True." in said
    assert "Happy with 4?" not in said and "4" not in said
    assert said[-1] == "what did I pick again?"


def test_the_window_is_the_last_fifteen_main_messages(store: SqlStore) -> None:
    llm = ScriptedLLM()
    e = Engine(store, llm, bots=BOTS)
    for i in range(12):
        llm.push(f"reply {i}")
        e.turn("test-bot", "u", f"message {i}")
    llm.push("fine")
    e.turn("test-bot", "u", "last one")
    messages = last_phrase(llm).messages
    assert len(messages) == 1 + 15 + 1
    assert messages[1].content == "reply 4" and messages[-2].content == "reply 11"


def test_what_the_bot_knows_of_the_user_is_in_the_system_message(store: SqlStore) -> None:
    seed_profile(store, "test-bot", "u", {"name": "Ana", "target": "German", "level": "A2"})
    llm = ScriptedLLM(["Hallo Ana!"])
    Engine(store, llm, bots=BOTS).turn("test-bot", "u", "hi")
    system = last_phrase(llm).messages[0].content
    assert '"name": "Ana"' in system and '"level": "A2"' in system


def test_a_reply_that_claims_facts_is_allowed_but_an_empty_or_foreign_one_falls_back(store: SqlStore) -> None:
    llm = ScriptedLLM([""])
    e = Engine(store, llm, bots=BOTS)
    r = e.turn("test-bot", "u", "hello there, how is your day going?")
    assert r.reply == "I can run a survey or take feedback."
    llm.push("Hola, ¿qué tal? Estoy muy bien, gracias por preguntar, ¿y tú cómo estás hoy?")
    r = e.turn("test-bot", "u", "hello there, how is your day going so far?")
    assert r.reply == "I can run a survey or take feedback."
    assert r.trace is not None and r.trace.noticed("phrase_rejected")


def test_a_short_message_is_checked_against_the_language_of_the_ones_before(store: SqlStore) -> None:
    spanish = "Hola, ¿qué tal? Estoy muy bien, gracias por preguntar. ¿Quieres hacer la encuesta hoy?"
    llm = ScriptedLLM(["Doing well, thanks for asking! How can I help you today?", spanish])
    e = Engine(store, llm, bots=BOTS)
    e.turn("test-bot", "u", "hello there, how is your day going?")
    r = e.turn("test-bot", "u", "tell me a story")  # three words: no language of its own
    assert r.reply == "I can run a survey or take feedback."
    assert r.trace is not None and "the user writes en" in r.trace.noticed("phrase_rejected")[0].detail
    # a user who switches is judged by the message that says it
    llm.push(spanish)
    r = e.turn("test-bot", "u", "hola, ¿podemos hablar en español, por favor?")
    assert r.reply == spanish


def test_offline_language_buddy_is_honest_about_chatting(store: SqlStore) -> None:
    seed_profile(store, "language-buddy", "u", {"name": "Ana", "native": "English", "target": "German", "level": "A2"})
    r = Engine(store).turn("language-buddy", "u", "how's it going?")
    assert r.flow == "main" and "can't chat freely" in r.reply


def test_study_pal_tells_the_model_about_its_course(store: SqlStore) -> None:
    llm = ScriptedLLM(["Calculus is fun! Shall we start with limits?"])
    r = Engine(store, llm).turn("study-pal", "u", "good morning!")
    assert r.reply == "Calculus is fun! Shall we start with limits?"
    system = last_phrase(llm).messages[0].content
    assert "The course is" in system and "Derivatives" in system


# -- streaming ---------------------------------------------------------------------------


def test_a_main_reply_streams_piece_by_piece_and_the_turn_commits_whole(store: SqlStore) -> None:
    llm = ScriptedLLM(["Doing well, thanks for asking! The survey takes a minute, and feedback is always welcome."])
    got: list[str] = []
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "hello, how are you today?", on_text=got.append)
    assert len(got) > 3 and "".join(got) == r.reply and r.streamed
    assert r.reply.startswith("Doing well") and store.history(r.session_id or "")[-1].content == r.reply


def test_a_flow_question_reaches_the_sink_whole_after_its_guard(store: SqlStore) -> None:
    llm = ScriptedLLM(["Pick a number from 1 to 9, please!"])
    got: list[str] = []
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "survey", on_text=got.append)
    assert got == ["Pick a number from 1 to 9, please!"] == [r.reply]


def test_offline_the_sink_gets_every_part_of_the_reply_in_order(store: SqlStore) -> None:
    got: list[str] = []
    e = Engine(store, bots=BOTS)
    e.turn("test-bot", "u", "survey")
    e.turn("test-bot", "u", "4")
    r = e.turn("test-bot", "u", "yes", on_text=got.append)
    assert "".join(got) == r.reply and r.streamed


def test_a_streamed_reply_in_another_language_is_never_shown(store: SqlStore) -> None:
    llm = ScriptedLLM(["Hola, ¿qué tal? Estoy muy bien, gracias por preguntar. ¿Quieres hacer la encuesta hoy?"])
    got: list[str] = []
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "hello there, how is your day going?", on_text=got.append)
    assert got == ["I can run a survey or take feedback."] == [r.reply]
    assert r.trace is not None and "the phrasing is in" in r.trace.noticed("phrase_rejected")[0].detail


def test_a_streamed_reply_is_cut_where_a_reply_must_end(store: SqlStore) -> None:
    llm = ScriptedLLM(["Well, " + "this is a very long story indeed, told slowly. " * 40])
    got: list[str] = []
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "tell me a story", on_text=got.append)
    # the user never sees a sentence begun and dropped: the reply ends where one of its sentences does
    assert 500 < len(r.reply) <= 600 and "".join(got).strip() == r.reply
    assert r.reply.endswith("told slowly.")


def test_a_reply_the_model_stopped_at_its_token_limit_ends_at_a_whole_sentence(store: SqlStore) -> None:
    story = "Once upon a time there was a quiz. It had five questions. The last one was about"
    for streaming in (True, False):
        llm = ScriptedLLM([Phrased(text=story, cut=True)])
        got: list[str] = []
        r = Engine(store, llm, bots=BOTS).turn(
            "test-bot", f"u{streaming}", "tell me a story please", on_text=got.append if streaming else None
        )
        if streaming:
            # shown as it came until the cut: what was on screen stands, marked as unfinished
            assert "".join(got).strip() == r.reply == story + "…"
        else:
            assert r.reply == "Once upon a time there was a quiz. It had five questions."


def test_a_long_reply_written_at_once_keeps_its_whole_sentences(store: SqlStore) -> None:
    long = "Here is the plan. " + "We practise a little every day, and it adds up over time. " * 15
    r = Engine(store, ScriptedLLM([long]), bots=BOTS).turn("test-bot", "u", "how should i study?")
    # too long for a reply: cut at a sentence end, not thrown away for the canned text
    assert r.reply.startswith("Here is the plan. We practise") and r.reply.endswith("over time.")
    assert len(r.reply) <= 600


def test_a_flow_phrasing_stopped_at_its_token_limit_is_not_said(store: SqlStore) -> None:
    llm = ScriptedLLM([Phrased(text="Pick a number from 1 to 9, and", cut=True)])
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "survey")
    assert r.trace is not None and "stopped at the token limit" in r.trace.noticed("phrase_rejected")[0].detail
    assert "Pick a number" in r.reply and not r.reply.endswith(", and")


def test_a_stream_the_guard_stops_is_in_the_trace_and_the_budget(store: SqlStore) -> None:
    long = "Well, " + "this is a very long story indeed. " * 40
    foreign = "Hola, ¿qué tal? Estoy muy bien, gracias por preguntar. ¿Quieres hacer la encuesta hoy?"
    for text, why in [(long, "cut at 600 characters"), (foreign, "refused: the phrasing is in")]:
        r = Engine(store, ScriptedLLM([text]), bots=BOTS).turn(
            "test-bot", "u", "hello there, how is your day going?", on_text=[].append
        )
        assert r.trace is not None
        [call] = r.trace.llm_calls
        assert call.purpose == "reply:main" and call.ok and why in call.detail
        # one piece per word here; a stopped stream counts what arrived, not the whole answer
        assert 0 < call.completion_tokens < len(text.split()) and call.prompt_tokens > 0


def test_ctrl_c_during_a_stream_leaves_the_session_as_it_was(store: SqlStore) -> None:
    later = "Doing fine, thanks for asking, the survey and feedback are both ready for you now."
    llm = ScriptedLLM(["Doing well!", later])
    e = Engine(store, llm, bots=BOTS)
    first = e.turn("test-bot", "u", "hello")
    before = e.session("test-bot", "u")
    assert before is not None

    def interrupted(piece: str) -> None:
        if "survey" in piece:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        e.turn("test-bot", "u", "how are you doing today?", on_text=interrupted)
    after = e.session("test-bot", "u")
    assert after is not None and after.version == before.version and after.turns == before.turns
    assert [m.content for m in store.history(first.session_id or "")] == ["hello", "Doing well!"]
    assert len(store.traces(first.session_id or "")) == 1


# -- one parse call fills the open slots -------------------------------------------------


def test_other_slots_without_the_asked_one_are_noted_and_the_question_asked_again(store: SqlStore) -> None:
    llm = ScriptedLLM(["On a scale from 1 to 5, how would you rate the app so far?"])
    e = Engine(store, llm, bots=BOTS)
    e.turn("test-bot", "u", "I'd like to give feedback")
    llm.push({"value": None, "comment": "lessons repetitive"}, "Rate it 1 to 5?")
    # (too short for the rules to take as the comment: "hmm, hard to say, the lessons are repetitive" they take)
    r = e.turn("test-bot", "u", "ugh, lessons repetitive")
    # one parse call read the asked slot and every slot the message may fill beside it
    parse = [q for q in llm.requests if not isinstance(q, PhraseRequest)][-1]
    # (sentiment is set already, and not correctable: it is not asked for)
    # and what else the message may say instead (engine/proposals.py)
    assert set(parse.schema_model.model_fields) == {"value", "comment", "command"}  # type: ignore[union-attr]
    assert (r.state, r.slots["comment"], r.slots["rating"]) == ("rating", "lessons repetitive", None)
    assert r.reply.startswith("Noted (comment: lessons repetitive).")
    s = e.session("test-bot", "u")
    assert s is not None and s.active is not None and s.active.attempts == 0


def test_a_free_text_the_message_does_not_hold_is_not_taken(store: SqlStore) -> None:
    llm = ScriptedLLM(["On a scale from 1 to 5, how would you rate the app so far?"])
    e = Engine(store, llm, bots=BOTS)
    e.turn("test-bot", "u", "I'd like to give feedback")
    llm.push({"value": None, "comment": "users want dark mode"}, "Rate it 1 to 5?")
    r = e.turn("test-bot", "u", "hmm, hard to say really")
    assert r.slots["comment"] is None and "Noted" not in r.reply
