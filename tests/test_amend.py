"""A flow's update path (engine/amend.py): changes read in words by the slots' own parsers, a
review before a record is saved, and amendments of the saved record after, as new versions."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import httpx2
import pytest
from pydantic import Field

from engine import (
    Amendable,
    Amends,
    Ask,
    Bot,
    DefinitionError,
    Engine,
    Final,
    Flow,
    RecordDraft,
    Registry,
    Slots,
    SqlStore,
    T,
    integer,
    person_name,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.amend import SAVED, load, played_main, played_review
from bench.amend import Changes as Expected
from engine.amend import apply_changes, read_changes
from engine.commands import Amend, AmendAsk, Chitchat
from engine.llm.cassette import Cassette, Exchange, RecordingTransport, request_key
from engine.models import CarryOver, SessionState
from engine.reading import read
from flows.fitness.changes import PROFILE, from_profile

# -- reading changes: the same readers at the review and after saving ---------------------------


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("I'm actually intermediate", {"fitness_level": "intermediate"}),
        ("remove the knee thing", {"limitations": "none"}),
        ("add a kettlebell", {"equipment": ["dumbbells", "yoga mat", "kettlebell"]}),
        ("remove the mat", {"equipment": ["dumbbells"]}),
        ("I only have bands now", {"equipment": ["resistance bands"]}),
        ("switch me to tue thu sat", {"preferred_days": ["Tue", "Thu", "Sat"]}),
        ("no longer allergic to peanuts", {"allergies": []}),
        ("evenings are better", {"time_of_day": "evening"}),
        ("sessions of 30 minutes", {"minutes_per_session": 30}),
        ("target 70 kg", {"target_weight_kg": 70.0}),
    ],
)
def test_a_change_at_the_review_is_read_by_its_slots_parser(text: str, values: dict[str, object]) -> None:
    assert read_changes(PROFILE, text, SAVED).values == values


def test_two_facts_in_two_phrases_are_two_changes() -> None:
    found = read_changes(PROFILE, "switch me to tue thu sat and I got a kettlebell", SAVED, cued=True)
    assert found.values == {
        "preferred_days": ["Tue", "Thu", "Sat"],
        "equipment": ["dumbbells", "yoga mat", "kettlebell"],
    }
    assert found.words == {"preferred_days": "switch me to tue thu sat", "equipment": "I got a kettlebell"}


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("days should be", "What should your days a week be?"),  # a fact named with no value
        ("remove the kettlebell", "I have no kettlebell in your equipment to remove."),
        ("my back is fine now", "Your injuries are noted as “bad knee”"),  # another injury is not removed
    ],
)
def test_what_cannot_be_read_without_guessing_is_asked(text: str, question: str) -> None:
    found = read_changes(PROFILE, text, SAVED)
    assert found.values == {} and found.question is not None and question in found.question


@pytest.mark.parametrize(
    "text",
    [
        "what should I do on my rest days?",
        "my knee hurts a bit today",  # no word of changing: talk, not an edit
        "thanks, see you monday",
        "how many minutes should I warm up?",
    ],
)
def test_main_conversation_talk_is_not_an_amendment(text: str) -> None:
    assert read_changes(PROFILE, text, SAVED, cued=True) == read_changes(PROFILE, "", SAVED, cued=True)


def test_a_value_without_its_fact_is_asked_about() -> None:
    found = read_changes(PROFILE, "make it 4", SAVED, cued=True)
    assert (
        found.values == {}
        and found.question == "Do you mean your days a week? Say for example “days a week should be 4”."
    )


def test_a_change_to_what_is_saved_already_says_so() -> None:
    found = read_changes(PROFILE, "I'm a beginner now", SAVED, cued=True)
    assert found.question == "That's what I have already (level: beginner)."


def test_a_saved_profile_reads_back_into_the_slots_it_was_made_from() -> None:
    [draft] = PROFILE.records(SAVED)
    assert from_profile(draft.data) == SAVED


# -- the mechanism for any bot: a tiny one declares its update path -------------------------------


class PetSlots(Slots):
    name: str | None = None
    age: int | None = Field(None, ge=0, le=40)


def _pet(s: PetSlots) -> list[RecordDraft]:
    return [RecordDraft(kind="pet", data=s.model_dump(mode="json"))]


PET = Amends(
    kind="pet",
    fields=[
        Amendable("age", re.compile(r"\b(?:age|old|years?)\b"), lambda s: integer(0, 40), "age"),
        Amendable("name", re.compile(r"\bname\b"), lambda s: person_name(), "name"),
    ],
    load=PetSlots.model_validate,
    records=_pet,
)
pet_flow = Flow(
    name="pet",
    slots=PetSlots,
    states=[
        Ask("name", slot="name", say="Your pet's name?", parse=person_name(), initial=True),
        Ask("age", slot="age", say="How old is it?", parse=integer(0, 40)),
        Final("done", summary="Pet: {name}, {age}.", records=_pet),
    ],
    transitions=[T("answer", "name", "age"), T("answer", "age", "done")],
    amends=PET,
)
pet_bot = Bot(
    name="pets",
    persona="a vet's assistant",
    flows=[pet_flow],
    intents=[],
    capabilities="Pets.",
    entry=lambda ctx: "pet" if ctx.latest("pet") is None else None,
)


def test_a_saved_record_is_amended_as_a_new_version_through_the_turn(tmp_path: Path) -> None:
    db = str(tmp_path / "pets.db")
    engine = Engine(SqlStore(db), bots=Registry([pet_bot]))
    for line in ("hi", "Rex", "3"):
        engine.turn("pets", "al", line)
    r = engine.turn("pets", "al", "actually he is 4 years old now")
    assert r.flow == "main" and r.reply == "Updated your pet: age: 4 (was 3)."
    engine.store.close()
    # a new process on the same database amends the latest version
    engine = Engine(SqlStore(db), bots=Registry([pet_bot]))
    r = engine.turn("pets", "al", "he is 50 years old now")
    # a value its parser refuses is said so, and nothing is saved
    assert (
        r.reply == "50 is out of range; please give a whole number from 0 to 40."
        and len(engine.store.records("pet")) == 2
    )
    r = engine.turn("pets", "al", "hello")
    assert r.reply == "Hello! Pets."  # talk goes to the main conversation, greeted
    assert [x.data["age"] for x in engine.store.records("pet")] == [3, 4]
    assert engine.store.latest("pet", bot="pets", user="al").data == {"name": "Rex", "age": 4}  # type: ignore[union-attr]
    engine.store.close()


def test_the_read_stage_gives_amend_commands_only_with_a_saved_record() -> None:
    saved = RecordDraft(kind="pet", data={"name": "Rex", "age": 3})
    session = SessionState(id="s", bot="pets", user="al")
    from engine.models import StoredRecord, utcnow

    stored = StoredRecord(id=1, kind="pet", bot="pets", user="al", session_id="s", data=saved.data, created_at=utcnow())
    commands = read(pet_bot, session, CarryOver(), "he's 5 years old now", lambda: None, lambda kind: stored).commands
    assert commands == [Amend(words="he's 5 years old now", record="pet", flow="pet", slot="age", value=5)]
    assert read(pet_bot, session, CarryOver(), "he's 5 years old now", lambda: None, lambda kind: None).commands == [
        Chitchat(words="he's 5 years old now")
    ]
    asked = read(pet_bot, session, CarryOver(), "he is 5 years old, name is Max now", lambda: None, lambda k: stored)
    assert [type(c) for c in asked.commands] == [Amend, Amend]
    # two facts read from one phrase: which is meant is asked, nothing is changed
    asked = read(
        pet_bot, session, CarryOver(), "his name is Max and he is 5 years old now", lambda: None, lambda k: stored
    )
    assert (
        isinstance(asked.commands[0], AmendAsk) and "Did you mean your age or your name?" in asked.commands[0].question
    )


def test_an_update_path_naming_an_unknown_slot_is_refused() -> None:
    bad = Amends(
        kind="pet",
        fields=[Amendable("colour", re.compile("colour"), lambda s: integer())],
        load=PetSlots.model_validate,
        records=_pet,
    )
    with pytest.raises(DefinitionError, match="amends names unknown slots"):
        Flow(name="pet", slots=PetSlots, states=pet_flow.states, transitions=pet_flow.transitions, amends=bad)


# -- re-recording: an earlier recording answers what it holds --------------------------------------


def test_a_re_recording_asks_the_server_only_what_the_earlier_recording_does_not_hold() -> None:
    asked: list[bytes] = []

    def server(request: httpx2.Request) -> httpx2.Response:
        asked.append(request.content)
        return httpx2.Response(200, json={"answer": "new"})

    old, new, gone = b'{"q": "old"}', b'{"q": "new"}', b'{"q": "gone"}'
    known = Cassette(model="m")
    for body in (old, gone):
        key, data = request_key(body)
        known.exchanges.append(Exchange(key=key, request=data, status=200, response={"answer": "kept"}))
    cassette = Cassette(model="m")
    client = httpx2.Client(transport=RecordingTransport(cassette, inner=httpx2.MockTransport(server), known=known))
    assert client.post("http://x/v1", content=old).json() == {"answer": "kept"}
    assert client.post("http://x/v1", content=new).json() == {"answer": "new"}
    assert asked == [new]
    # the new recording holds exactly this run's exchanges: the answer no longer asked for is dropped
    assert [x.request for x in cassette.exchanges] == [{"q": "old"}, {"q": "new"}]


# -- the amend corpus (tests/corpora/amend/, bench/amend.py) ----------------------------------------


def test_the_test_split_is_the_hash_split_and_the_corpus_loads() -> None:
    import hashlib

    test, dev = load("test"), load("dev")
    assert len(test) >= 40 and len(dev) >= 39
    assert all(hashlib.sha256(e.text.encode()).digest()[0] % 2 == 1 for e in test)
    assert not {e.text for e in test} & {e.text for e in dev}


def test_no_talk_of_the_test_split_is_saved_as_an_edit() -> None:
    # a wrong edit corrupts the saved profile: talk must never become one (the figures: bench/amend.py)
    talk = [e for e in load("test") if e.mode == "main" and e.expect == "none"]
    edited = [e.text for e in talk if isinstance(played_main(e.text), dict)]
    assert talk and edited == []


def test_an_edit_the_review_reads_is_the_labelled_one_or_none() -> None:
    for e in load("test"):
        got = played_review(e.text) if e.mode == "review" else None
        if isinstance(got, dict) and isinstance(e.expect, Expected):
            assert got == e.expect.changes, e.text


# -- an entry of its own (a feedback entry): a new version revises it ---------------------------------


def test_a_feedback_rating_changed_after_saving_is_a_revision_of_that_entry(tmp_path: Path) -> None:
    from bench.amend import BUDDY, BUDDY_FEEDBACK, BUDDY_PROFILE, CLOCK
    from engine import unrevised

    store = SqlStore(str(tmp_path / "buddy.db"))
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="profile", data=BUDDY_PROFILE))
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="feedback", data={**BUDDY_FEEDBACK, "comment": "older"}))
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="feedback", data=BUDDY_FEEDBACK))
    engine = Engine(store, clock=lambda: CLOCK)
    r = engine.turn(BUDDY, "u", "i meant 2 stars, not 4")
    assert r.flow == "main" and r.reply == "Updated your feedback: rating: 2 (was 4)."
    entries = store.records("feedback", bot=BUDDY, user="u")
    assert len(entries) == 3 and entries[-1].data["revises"] == entries[1].id
    # the user said how they felt (sentiment_from None): the sentiment stays as said
    assert entries[-1].data["sentiment"] == "positive"
    assert [e.data["rating"] for e in unrevised(entries)] == [4, 2]  # the older entry stays, the revised goes
    # told from the entries as they stand: two given, the last one with its new rating
    assert engine.turn(BUDDY, "u", "what feedback did I give earlier?").reply.startswith(
        "You've given feedback 2 times. Your last feedback (rating 2/5"
    )
    r = engine.turn(BUDDY, "u", "change my rating to 9")  # refused by the rating's own parser, nothing saved
    assert "out of range" in r.reply and len(store.records("feedback", bot=BUDDY, user="u")) == 3
    store.close()


def test_a_rating_read_off_the_sentiment_follows_the_new_rating() -> None:
    from flows.shared.feedback import ENTRY, FeedbackSlots

    before = FeedbackSlots(sentiment="positive", sentiment_from="rating", rating=5, comment="ok")
    after = apply_changes(ENTRY, before, {"rating": 2})
    assert isinstance(after, FeedbackSlots) and (after.rating, after.sentiment) == (2, "negative")


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("can i change my name?", True),
        ("kann ich meinen Namen ändern?", True),  # the cue table's frame: "change meinen Namen"
        ("quiero cambiar mi nivel", True),
        ("what is my name?", False),
        ("my name is on the list", False),
    ],
)
def test_a_change_asked_for_is_read_in_the_languages_read(text: str, asks: bool) -> None:
    from engine import asks_to_change

    assert asks_to_change(text) is asks


# -- a fact named without its value: asked for, and the next message read as it -----------------------


def test_a_fact_changed_without_its_value_is_asked_for_and_the_next_message_answers_it(tmp_path: Path) -> None:
    db = str(tmp_path / "pets.db")
    engine = Engine(SqlStore(db), bots=Registry([pet_bot]))
    for line in ("hi", "Rex", "3"):
        engine.turn("pets", "al", line)
    assert engine.turn("pets", "al", "can i change his age?").reply == "What should your age be?"
    engine.store.close()
    engine = Engine(SqlStore(db), bots=Registry([pet_bot]))  # the question is kept with the session
    # a value its parser refuses is said, and asked again; then the value is taken
    assert engine.turn("pets", "al", "50").reply.startswith("50 is out of range")
    assert engine.turn("pets", "al", "4").reply == "Updated your pet: age: 4 (was 3)."
    # the next message only: after a message that gives no value, a bare number is no age
    assert engine.turn("pets", "al", "i want to change his age").reply == "What should your age be?"
    assert engine.turn("pets", "al", "hello").reply == "Hello! Pets."
    assert not engine.turn("pets", "al", "5").reply.startswith("Updated")
    assert [r.data["age"] for r in engine.store.records("pet")] == [3, 4]
    engine.store.close()
