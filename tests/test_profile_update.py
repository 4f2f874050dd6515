"""Changing a saved profile after onboarding: a change with its value is the engine's update path
(onboarding's `Amends`, flows/language_buddy/changes.py), saved at once; the profile update flow
starts only where a question is needed. Which messages do which, what they change, what is saved."""

from __future__ import annotations

import pytest

from bench.amend import BUDDY_PROFILE, CLOCK, played_buddy
from engine import Engine, MemoryStore, RecordDraft, SqlStore
from engine.authoring.replay import seed_profile
from engine.extract import Invalid
from flows.language_buddy.profile_update import (
    Profile,
    ProfileUpdateSlots,
    ask_timezone,
    field_to_change,
    read_update,
    timezone_parser,
    wants_change,
)

MAX = Profile(name="Max", native_language="de", target_language="en", timezone="Europe/Berlin", level="B1")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("actually call me Sam", {"name": "Sam"}),
        ("I moved to Lisbon", {"timezone": "Europe/Lisbon"}),
        ("change my target language to Italian", {"target_language": "it"}),
        ("change my native language to polish", {"native_language": "pl"}),
        ("my timezone is pacific time", {"timezone": "America/Los_Angeles"}),
        ("can you change my level to A2?", {"level": "A2"}),
        ("put me at intermediate please", {"level": "B1"}),
        ("my level should be C1", {"level": "C1"}),
    ],
)
def test_a_change_with_its_value_read_at_the_update_flows_start(text: str, found: dict[str, object]) -> None:
    assert read_update(text, ProfileUpdateSlots(current=MAX)) == found


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("actually call me Sam", {"name": "Sam"}),
        ("I moved to Lisbon", {"timezone": "Europe/Lisbon"}),
        ("i'm living in tokio now", {"timezone": "Asia/Tokyo"}),
        ("change my target language to Italian", {"target_language": "it", "level": "A1"}),  # measured in another
        ("change my native language to polish", {"native_language": "pl"}),
        ("my timezone is pacific time", {"timezone": "America/Los_Angeles"}),
        ("can you change my level to A2?", {"level": "A2"}),
        ("my level should be C1", {"level": "C1"}),
        ("ich heiße jetzt Jonas", {"name": "Jonas"}),
        ("en fait ma langue maternelle est l'italien", {"native_language": "it"}),
    ],
)
def test_a_change_with_its_value_is_the_engines_update_path(text: str, changed: dict[str, object]) -> None:
    # a learner whose profile is bench/amend.py's (Max, de -> en, Berlin, B1): one turn, one new version
    assert BUDDY_PROFILE["level"] == "B1" and played_buddy(text) == changed
    # made by the engine's amend (the update flow's own confirmation is "Done, your profile now says")
    store = MemoryStore()
    store.add_record("language-buddy", "max", "seed", RecordDraft(kind="profile", data=BUDDY_PROFILE))
    result = Engine(store, clock=lambda: CLOCK).turn("language-buddy", "max", text)
    assert result.flow == "main" and result.reply.startswith("Updated your profile: ")


@pytest.mark.parametrize("text", ["update my profile", "can I edit my details?", "change my settings"])
def test_asking_to_change_with_no_value(text: str) -> None:
    assert read_update(text, ProfileUpdateSlots(current=MAX)) == {}
    assert wants_change(text) and played_buddy(text) == "ask"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("can i change my name?", "name"),
        ("kann ich meinen Namen ändern?", "name"),
        ("je voudrais changer mon fuseau horaire", "timezone"),
        ("quiero cambiar mi nivel", "level"),
        ("posso cambiare la mia lingua madre?", "native_language"),
        ("quero mudar meu nome", "name"),
    ],
)
def test_a_change_of_a_named_fact_asks_for_its_value(text: str, field: str) -> None:
    # the verbs and the facts' names of five other languages are the engine's cue table's (engine/data/cues.yaml)
    assert field_to_change(text) == field and wants_change(text)


@pytest.mark.parametrize("text", ["my name is on the list", "i like the level of the lessons", "change is hard"])
def test_a_fact_named_without_a_change_asked_is_none(text: str) -> None:
    assert field_to_change(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "hello",
        "I'm tired",
        "I'm learning a lot",
        "the weather in Paris is nice",
        "no",
        "what time is it in London?",
        "i moved to a new flat lol",
        "we moved to the countryside",
        "the B2 exam is hard",
        "this lesson felt advanced",
    ],
)
def test_ordinary_messages_change_nothing(text: str) -> None:
    assert not wants_change(text) and played_buddy(text) == "none"


def test_the_value_answers_what_to_change() -> None:
    assert read_update("call me sam", ProfileUpdateSlots(current=MAX), "field") == {"name": "Sam", "field": "name"}


def test_a_change_is_a_new_record_and_onboarding_does_not_start_again(tmp_path: object) -> None:
    store = SqlStore(f"{tmp_path}/db.sqlite")
    seed_profile(store, "language-buddy", "max", MAX.model_dump())
    engine = Engine(store)
    r = engine.turn("language-buddy", "max", "actually call me Sam")
    assert r.flow == "main" and "name: Sam" in r.reply
    rows = store.records("profile", bot="language-buddy", user="max")
    assert [row.data["name"] for row in rows] == ["Max", "Sam"]
    latest = store.latest("profile", bot="language-buddy", user="max")
    assert latest is not None and latest.data["name"] == "Sam"
    assert engine.turn("language-buddy", "max", "Hello!").flow == "main"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("i moved to amsterdm", {"field": "timezone", "moved_to": "amsterdm"}),
        ("i just moved to the us", {"field": "timezone", "moved_to": "the us"}),
    ],
)
def test_a_move_the_sentence_readers_miss_asks_about_its_place(text: str, found: dict[str, object]) -> None:
    assert read_update(text, ProfileUpdateSlots(current=MAX)) == found
    assert wants_change(text) and played_buddy(text) == "ask"


def test_did_you_mean_after_a_move_takes_a_yes_and_asks_again_after_a_no() -> None:
    s = ProfileUpdateSlots(current=MAX, field="timezone", moved_to="amsterdm")
    assert ask_timezone(s) == "I don't know where “amsterdm” is. Did you mean Amsterdam?"
    read = timezone_parser(s)
    assert read("yes") == "Europe/Amsterdam"
    no = read("no")
    assert isinstance(no, Invalid) and no.reason.startswith("Alright.")
    assert read("no, rotterdam") == "Europe/Amsterdam"  # the city said with the no
    assert ask_timezone(ProfileUpdateSlots(current=MAX, field="timezone", moved_to="the us")).startswith(
        "The US has several timezones"
    )


def test_a_timezone_asked_for_takes_a_yes_to_the_place_it_suggested() -> None:
    # "can i change my timezone?" is the engine's question (the fact named, no value); a misspelt city is
    # asked about, and a yes takes the suggestion (what the update flow's own question did)
    store = MemoryStore()
    store.add_record("language-buddy", "max", "seed", RecordDraft(kind="profile", data=BUDDY_PROFILE))
    engine = Engine(store, clock=lambda: CLOCK)
    replies = [engine.turn("language-buddy", "max", t).reply for t in ("can i change my timezone?", "amsterdm", "yes")]
    assert replies == [
        "What should your timezone be?",
        "I don't know where “amsterdm” is. Did you mean Amsterdam?",
        "Updated your profile: timezone: Europe/Amsterdam (was Europe/Berlin).",
    ]
