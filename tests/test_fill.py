"""Several facts in one message (engine/fill.py): the slots a flow declares in `ahead`, read clause by
clause beside the asked one, as SetSlot commands; played through the engine, noted and not asked."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

import pytest
from pydantic import Field

from engine import (
    Ahead,
    Ask,
    Bot,
    DefinitionError,
    Engine,
    Final,
    Flow,
    Intent,
    MemoryStore,
    Registry,
    T,
    default_registry,
)
from engine.commands import SetSlot
from engine.extract import Parser, choice, free_text, integer, optional
from engine.fact_clauses import clauses
from engine.fill import read_ahead
from engine.models import Slots
from engine.reading import facts_ahead


class Kit(Slots):
    level: Literal["beginner", "advanced"] | None = None
    days: int | None = None
    minutes: int | None = None
    diet: Literal["vegan", "omnivore"] | None = None
    notes: str | None = None
    tags: list[str] = Field(default_factory=list)


LEVEL = choice({"beginner": [], "advanced": []})
FLOW = Flow(
    name="kit",
    slots=Kit,
    states=[
        Ask("level", slot="level", say="Level?", parse=LEVEL, initial=True),
        Ask("days", slot="days", say="Days?", parse=integer(1, 7)),
        Ask("minutes", slot="minutes", say="Minutes?", parse=integer(10, 240)),
        Ask("diet", slot="diet", say="Diet?", parse=choice({"vegan": [], "omnivore": []})),
        Ask("notes", slot="notes", say="Notes?", parse=free_text()),
        Final("done", summary="done"),
    ],
    transitions=[
        T("answer", "level", "days"),
        T("answer", "days", "minutes"),
        T("answer", "minutes", "diet"),
        T("answer", "diet", "notes"),
        T("answer", "notes", "done"),
    ],
    ahead=(
        "level",
        Ahead("days", cues=("days", "a week")),
        Ahead("minutes", cues=("min", "minutes")),
        "diet",
        "notes",  # free text: a clause must name it
        Ahead("tags", parser=Parser(lambda t: ["x"] if "tag" in t else None, "tags"), alone=True),
    ),
)


def ahead(state: str, text: str, **filled: object) -> tuple[dict[str, object], str]:
    found = read_ahead(FLOW, FLOW.named[state], Kit.model_validate(filled), text)  # type: ignore[arg-type]
    assert all(isinstance(s, SetSlot) and s.words in text for s in found.sets)
    return {s.slot: s.value for s in found.sets}, found.rest


def test_a_message_is_cut_into_clauses_at_punctuation_and_joining_words() -> None:
    said = [c.text for c in clauses("vegan, and 3 days a week but 40 min. advanced")]
    assert said == ["vegan", "3 days a week", "40 min", "advanced"]
    # what "anything but" rules out stays with it: "mornings" alone would be the time of day
    assert [c.text for c in clauses("anything but mornings")] == ["anything but mornings"]


def test_other_facts_are_read_beside_the_answer_and_the_rest_is_the_answer() -> None:
    assert ahead("level", "beginner, 3 days a week, 40 min, vegan") == (
        {"days": 3, "minutes": 40, "diet": "vegan"},
        "beginner",
    )


def test_a_number_alone_names_no_slot() -> None:
    assert ahead("level", "beginner, 3") == ({}, "beginner, 3")
    assert ahead("diet", "vegan and 45") == ({}, "vegan and 45")


@pytest.mark.parametrize("hedge", ["maybe 5 if i'm motivated", "5 tops", "5 on a good week"])
def test_a_clause_that_hedges_a_value_taken_ahead_is_that_slots_not_the_answer(hedge: str) -> None:
    # at a free-text question the hedge was the answer ("5 if i'm motivated" saved as the injuries)
    assert ahead("notes", f"4 days a week, {hedge}") == ({"days": 4}, "")
    # a clause the slot's reader does not fold into its value stays the question's
    assert ahead("level", "4 days a week, beginner") == ({"days": 4}, "beginner")


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("beginner, three, maybe four days", 3),
        ("beginner, 3, maybe 4 days a week", 3),
        ("beginner, tres, quizás cuatro días", 3),
        ("beginner, 3 days a week, 4 tops", 3),
    ],
)
def test_a_number_hedged_after_a_comma_is_one_fact_with_it(said: str, days: int) -> None:
    # "maybe four days" alone was read as the fact: 4 days, where the question itself reads "three, maybe four" as 3
    assert ahead("level", said) == ({"days": days}, "beginner")


def test_two_numbers_that_are_two_facts_stay_two_clauses() -> None:
    assert ahead("level", "beginner, 3 days a week, 45 min") == ({"days": 3, "minutes": 45}, "beginner")
    assert [c.text for c in clauses("3, maybe 4 days")] == ["3, maybe 4 days"]
    assert [c.text for c in clauses("3 days, 45 min")] == ["3 days", "45 min"]


@pytest.mark.parametrize(
    "hedge", ["more or less", "roughly", "más o menos", "ungefähr", "à peu près", "più o meno", "i guess, more or less"]
)
def test_a_hedge_left_after_a_value_taken_ahead_is_no_attempt_at_the_question(hedge: str) -> None:
    # "creo que B1, más o menos" at the timezone question: "más o menos" was refused as a place
    assert ahead("diet", f"4 days a week, {hedge}") == ({"days": 4}, "")
    # alone, or beside nothing taken, a hedge is the question's to read, as typed
    assert ahead("diet", hedge) == ({}, hedge)
    # a clause with an answer in it stays the question's
    assert ahead("diet", "4 days a week, vegan more or less") == ({"days": 4}, "vegan more or less")


def test_a_clause_that_names_another_slot_is_that_slots_even_where_the_asked_parser_reads_it() -> None:
    # the minutes question would read "4 days a week" as 4 (out of its range) or any number: it names the days
    assert ahead("minutes", "45, 4 days a week") == ({"days": 4}, "45")


@pytest.mark.parametrize(
    "text",
    [
        "3 days a week, ok?",
        "3 days a week, is that alright?",
        "3 days a week ¿vale?",
        "3 days a week, thanks",
        "3 days a week, passt das?",
        "3 days a week, thank you!",
    ],
)
def test_a_tag_question_or_thanks_after_the_facts_answers_nothing(text: str) -> None:
    # "about 45 min, ok?" at the injuries question was read as a yes to having one
    sets, rest = facts_ahead(FLOW, FLOW.named["diet"], {}, text, None)  # type: ignore[arg-type]
    assert ({s.slot: s.value for s in sets}, rest) == ({"days": 3}, "")


@pytest.mark.parametrize("text", ["3 days a week, ok", "3 days a week, vegan?", "3 days a week, sure"])
def test_a_yes_or_an_answer_after_the_facts_is_left_to_the_question(text: str) -> None:
    _, rest = facts_ahead(FLOW, FLOW.named["diet"], {}, text, None)  # type: ignore[arg-type]
    assert rest == text.split(", ")[1].rstrip("?")


def test_a_clause_naming_another_slot_with_an_unclear_value_is_no_ones_answer() -> None:
    # "like 3 or 4 times a week" at the injuries question was saved as the injury
    assert ahead("notes", "like 3 or 4 days a week") == ({}, "")
    assert ahead("notes", "bad knee, 3 or 4 days a week") == ({}, "bad knee")
    assert ahead("notes", "bad knee, 3 days a week") == ({"days": 3}, "bad knee")


def test_a_value_the_asked_question_reads_stays_its_answer() -> None:
    assert ahead("diet", "vegan") == ({}, "vegan")


def test_free_text_is_read_ahead_only_where_a_clause_names_it() -> None:
    assert ahead("level", "beginner, my knees hurt") == ({}, "beginner, my knees hurt")
    assert ahead("level", "beginner, notes: my knees hurt") == ({"notes": "notes: my knees hurt"}, "beginner")


def test_a_question_states_no_fact() -> None:
    assert ahead("level", "is 40 min enough?") == ({}, "is 40 min enough?")


def test_filled_slots_are_not_read_ahead_but_an_empty_list_default_is() -> None:
    assert ahead("level", "beginner, vegan", diet="omnivore") == ({}, "beginner, vegan")
    assert ahead("level", "beginner, tag it") == ({"tags": ["x"]}, "beginner")


def test_nothing_read_ahead_leaves_the_message_as_typed() -> None:
    assert ahead("level", "beginner and proud") == ({}, "beginner and proud")


# a question whose parser takes any words without being free text (it keeps the words as typed):
# an injury, equipment by any name; and the flow's reader of an injury said out of turn
ANY_WORDS = Parser(lambda t: t.strip() or None, "your injuries")
INJURY = Parser(lambda t: t if "knee" in t else None, "an injury")
INJURIES = Flow(
    name="injuries",
    slots=Kit,
    states=[Ask("notes", slot="notes", say="Injuries?", parse=ANY_WORDS, initial=True), Final("done", summary="d")],
    transitions=[T("answer", "notes", "done")],
    ahead=(
        Ahead("notes", parser=INJURY, alone=True),
        Ahead("diet", parser=choice({"vegan": [], "omnivore": []}), alone=True),
        Ahead("tags", parser=Parser(lambda t: ["knee brace"] if "brace" in t else None, "tags"), alone=True),
    ),
)


def test_words_an_any_text_question_copies_back_are_another_slots_unless_its_own_reader_reads_them() -> None:
    def said(text: str) -> tuple[dict[str, object], str]:
        found = read_ahead(INJURIES, INJURIES.named["notes"], Kit(), text)  # type: ignore[arg-type]
        return {s.slot: s.value for s in found.sets}, found.rest

    assert said("vegan") == ({"diet": "vegan"}, "")
    assert said("a brace") == ({"tags": ["knee brace"]}, "")
    # the injury reader reads it: the question's answer, though another slot reads it too
    assert said("my knee hurts under the brace") == ({}, "my knee hurts under the brace")


def test_an_ahead_naming_an_unknown_slot_is_refused() -> None:
    with pytest.raises(DefinitionError, match=r"ahead name unknown slots \['age'\]"):
        Flow(
            name="bad",
            slots=Kit,
            states=[Ask("level", slot="level", say="Level?", parse=LEVEL, initial=True), Final("done", summary="d")],
            transitions=[T("answer", "level", "done")],
            ahead=("age",),
        )


def test_a_slot_filled_ahead_is_noted_and_its_question_not_asked() -> None:
    """Through the engine, in a shipped bot: the diet answered, the allergies noted, the question after them asked."""
    engine = Engine(MemoryStore(), None, clock=lambda: datetime(2026, 11, 26, 10, tzinfo=UTC))
    bot = default_registry().get("fitness-coach")
    assert bot.flow("onboarding").ahead
    answers = ["hi", "beginner", "none", "endurance", "none", "3", "45", "none"]
    for text in answers:
        engine.turn("fitness-coach", "sam", text)
    result = engine.turn("fitness-coach", "sam", "vegetarian, and gluten intolerant")
    assert "Noted (" in result.reply and "gluten" in result.reply
    assert "Any food allergies" not in result.reply
    assert "Which 3 days" in result.reply
    assert result.trace is not None
    assert [n.detail for n in result.trace.notices if n.kind == "ahead"] == ["allergies"]
    session = engine.store.load("fitness-coach", "sam")
    assert session is not None and session.active is not None
    assert session.active.slots["diet"] == "vegetarian" and session.active.slots["allergies"] == ["gluten"]


def test_the_message_that_starts_a_flow_answers_its_questions_ahead_the_first_one_too() -> None:
    """Any flow: what the opening message says is read as at a question, none asked yet."""
    bot = Bot(
        name="kitbot", persona="p", flows=[FLOW], capabilities="kits",
        intents=[Intent("kit", patterns=[r"\bkit\b"], description="a kit")],
    )  # fmt: skip
    engine = Engine(MemoryStore(), None, bots=Registry([bot]), clock=lambda: datetime(2026, 11, 26, 10, tzinfo=UTC))
    result = engine.turn("kitbot", "ana", "new kit please! advanced, 3 days a week, vegan")
    session = engine.store.load("kitbot", "ana")
    assert session is not None and session.active is not None
    assert session.active.slots["level"] == "advanced" and session.active.slots["days"] == 3
    assert session.active.slots["diet"] == "vegan"
    assert session.active.state == "minutes" and result.reply.endswith("Minutes?")


def test_facts_ahead_beside_a_request_kept_for_later() -> None:
    """A new request in the same message is kept (engine/requests.py); the rest still answers and fills ahead."""
    engine = Engine(MemoryStore(), None, clock=lambda: datetime(2026, 11, 26, 10, tzinfo=UTC))
    for text in ["hi", "beginner", "none", "endurance", "none", "3"]:
        engine.turn("fitness-coach", "kim", text)
    result = engine.turn("fitness-coach", "kim", "45, and i only have dumbbells. can you also track my runs?")
    assert result.trace is not None
    kinds = [(n.kind, n.detail) for n in result.trace.notices]
    assert ("ahead", "equipment") in kinds and any(kind == "request" for kind, _ in kinds)
    session = engine.store.load("fitness-coach", "kim")
    assert session is not None and session.active is not None and session.active.state == "diet"
    assert session.active.slots["minutes_per_session"] == 45 and session.active.slots["equipment"] == ["dumbbells"]


def test_a_count_read_in_a_list_another_slot_reads_leaves_the_list_to_it_too() -> None:
    # "how many days a week?" answered "mon wed fri": 3, and the days themselves (h-read9)
    flow = default_registry().get("fitness-coach").flow("onboarding")
    seed = flow.new_slots({"fitness_level": "beginner", "limitations": "none", "goal": "fat_loss"})
    for text, days in [("Mon wed fri", ["Mon", "Wed", "Fri"]), ("segunda e quarta", ["Mon", "Wed"])]:
        found = read_ahead(flow, flow.named["days"], seed, text)  # type: ignore[arg-type]
        assert [(s.slot, s.value) for s in found.sets] == [("preferred_days", days)], text
        assert found.rest == text  # the count is the question's: the clause stays for it
        assert flow.named["days"].parser(seed)(found.rest) == len(days)  # type: ignore[union-attr]
    # all seven singles none out; a number said is no count of the days named
    assert read_ahead(flow, flow.named["days"], seed, "every day lol").sets == []  # type: ignore[arg-type]
    assert read_ahead(flow, flow.named["days"], seed, "3, mon or tue").sets == []  # type: ignore[arg-type]


def test_any_will_do_names_no_other_slot() -> None:
    # the diet reads "anything" as an omnivore's answer at its own question, not beside the level (h-read9)
    flow = default_registry().get("fitness-coach").flow("onboarding")
    seed = flow.new_slots({})
    for text in ["intermediate, anything goes!", "beginner, anything is fine", "beginner, lo que sea"]:
        found = read_ahead(flow, flow.named["level"], seed, text)  # type: ignore[arg-type]
        assert found.sets == [], text
    # a clause that names the slot still fills it
    found = read_ahead(flow, flow.named["level"], seed, "beginner, and i eat anything")  # type: ignore[arg-type]
    assert [(s.slot, s.value) for s in found.sets] == [("diet", "omnivore")]


def test_an_indefinite_word_names_no_value_of_a_slot_nothing_else_names() -> None:
    flow = default_registry().get("fitness-coach").flow("onboarding")
    seed = flow.new_slots({})
    for text in [
        "i used to run a lot but havent done anything in like 2 years",
        "honestly everything hurts after work",
        "je n'ai rien fait depuis des mois",
        "ich habe alles versucht",
    ]:
        found = read_ahead(flow, flow.named["level"], seed, text)  # type: ignore[arg-type]
        assert [s.slot for s in found.sets if s.slot == "diet"] == [], text
    # eating names the diet, in the languages users answer in; a diet's own name needs no indefinite word
    for text, diet in [
        ("i eat anything", "omnivore"),
        ("como de todo", "omnivore"),
        ("ich esse alles", "omnivore"),
        ("vegan, anything else is fine", "vegan"),
    ]:
        found = read_ahead(flow, flow.named["level"], seed, f"beginner, {text}")  # type: ignore[arg-type]
        assert [(s.slot, s.value) for s in found.sets if s.slot == "diet"] == [("diet", diet)], text


class Week(Slots):
    level: Literal["beginner", "advanced"] | None = None
    days: int | None = None
    weekdays: list[str] = Field(default_factory=list)
    weight: float | None = None
    unit: str | None = None


_DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _named_days(text: str) -> object:
    said = [d for d in _DAY_NAMES if d in text.lower().split()]
    return said or None


def _count(text: str) -> object:
    named = _named_days(text)
    return len(named) if isinstance(named, list) else integer(1, 7)(text)


def _weight(s: Week) -> Parser:
    # a number in kg, or, once the unit is known, a number said as "now"
    def rule(text: str) -> object:
        words = text.lower().split()
        for i, w in enumerate(words):
            if w.isdigit() and (words[i + 1 : i + 2] == ["kg"] or (s.unit and words[i + 1 : i + 2] == ["now"])):
                return float(w)
        return None

    return Parser(rule, "a weight")


WEEK = Flow(
    name="week",
    slots=Week,
    states=[
        Ask("level", slot="level", say="Level?", parse=LEVEL, initial=True),
        Ask("days", slot="days", say="Days?", parse=Parser(_count, "days")),
        Ask("weekdays", slot="weekdays", say="Which days?", parse=Parser(_named_days, "days")),
        Final("done", summary="done"),
    ],
    transitions=[T("answer", "level", "days"), T("answer", "days", "weekdays"), T("answer", "weekdays", "done")],
    ahead=(
        Ahead("days", cues=("days", "a week", "twice"), plan=True, parser=integer(1, 7)),
        Ahead("weekdays", parser=Parser(_named_days, "days"), alone=True, plan=True),
        Ahead("weight", parser=_weight, cues=("kg",), whole=True, named_by=("unit",),
              beside=lambda text: {"unit": "kg"} if " kg" in text else {}),
    ),
)  # fmt: skip


def week(state: str, text: str, **filled: object) -> dict[str, object]:
    found = read_ahead(WEEK, WEEK.named[state], Week.model_validate(filled), text)  # type: ignore[arg-type]
    return {s.slot: s.value for s in found.sets}


@pytest.mark.parametrize(
    "habit",
    ["i run 3 days a week", "ich spiele 3 Tage die Woche Tennis", "je cours 3 days a week", "i play tennis on sat"],
)
def test_a_habit_of_now_fills_no_plan_slot(habit: str) -> None:
    assert week("level", f"advanced, {habit}") == {}
    # the plan said with the same verb is the plan's
    assert week("level", "advanced, i can run 3 days a week") == {"days": 3}


def test_the_days_named_at_the_count_question_give_the_count_and_the_days() -> None:
    assert week("days", "mon wed fri") == {"weekdays": ["mon", "wed", "fri"]}
    # at another question the days named are no count
    assert week("level", "beginner, mon and thu") == {"weekdays": ["mon", "thu"]}


def test_a_unit_said_earlier_names_a_weight_said_without_it() -> None:
    # no cue word, no unit known: nothing read
    assert week("level", "beginner, 92 now") == {}
    assert week("level", "beginner, 92 now", unit="kg") == {"weight": 92.0}


class Trip(Slots):
    city: str | None = None
    budget: int | None = None  # None: no budget (its question takes "none" as no value)
    nights: int | None = None


TRIP = Flow(
    name="trip",
    slots=Trip,
    states=[
        Ask("city", slot="city", say="Which city?", parse=free_text(), initial=True),
        Ask("budget", slot="budget", say="Budget?", parse=optional(integer(1, 10000))),
        Ask("nights", slot="nights", say="How many nights?", parse=integer(1, 30)),
        Final("done", summary="trip to {city}"),
    ],
    transitions=[T("answer", "city", "budget"), T("answer", "budget", "nights"), T("answer", "nights", "done")],
    ahead=(Ahead("budget", cues=("budget", "Budget")), Ahead("nights", cues=("nights",))),
)
TRIPS = Bot(
    name="tripbot", persona="p", flows=[TRIP], capabilities="trips",
    intents=[Intent("trip", patterns=[r"\btrip\b"], description="a trip")],
)  # fmt: skip


@pytest.mark.parametrize("said", ["no budget", "kein Budget", "sin budget", "i don't have a budget"])
def test_a_question_declined_ahead_is_not_asked_though_its_slot_stays_empty(said: str) -> None:
    """Any flow: a none for a later question whose none is no value ("no budget" beside the city) is kept
    on the run as declined, said back, and its question is not asked (h-decline13)."""
    engine = Engine(MemoryStore(), None, bots=Registry([TRIPS]), clock=lambda: datetime(2026, 11, 26, 10, tzinfo=UTC))
    engine.turn("tripbot", "ana", "plan a trip")
    result = engine.turn("tripbot", "ana", f"Lisbon, {said}")
    session = engine.store.load("tripbot", "ana")
    assert session is not None and session.active is not None
    assert session.active.state == "nights" and session.active.slots["budget"] is None
    assert session.active.declined == ["budget"]
    assert "budget: none" in result.reply and result.reply.endswith("How many nights?")
    assert result.trace is not None and any(n.kind == "declined" for n in result.trace.notices)


@pytest.mark.parametrize("said", ["no idea about the budget yet", "a budget of 300"])
def test_a_budget_said_or_not_known_is_no_decline(said: str) -> None:
    found = read_ahead(TRIP, TRIP.named["city"], Trip(), f"Lisbon, {said}")  # type: ignore[arg-type]
    assert not any(s.declined for s in found.sets)
