"""Misreadings met by the team trying the four bots as users (eighteenth session), one class each, with new
messages in several languages; each class's replay is under tests/replays/users/."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine import Engine, MemoryStore
from engine.amend import read_changes
from engine.askback import asks_about_offer
from engine.extract import Invalid
from engine.message_parts import asks_why_beside
from engine.names import field_named, person_name, reads_as_a_sentence, with_apostrophe
from flows.fitness.anytime import read_anytime
from flows.fitness.changes import PROFILE as FITNESS
from flows.fitness.food import read_diet
from flows.fitness.profile import FitnessSlots
from flows.fitness.readers import parse_weight
from flows.language_buddy.answers import read_anytime as read_anytime_buddy
from flows.language_buddy.field_parsers import read_amend
from flows.language_buddy.names import parse_name
from flows.language_buddy.profile import FIELD_NAMES, OnboardingSlots

CLOCK = datetime(2026, 11, 25, 20, 0)

# -- contractions typed without the apostrophe, wherever a reader tells a sentence from a name ---------------


@pytest.mark.parametrize(
    "text",
    [
        "thats wrong",
        "Thats not it",
        "youre wrong",
        "Dont care",
        "whats this",
        "isnt it obvious",
        "Cest faux",  # French "c'est faux"
        "nest pas vrai",  # French "n'est pas vrai"
        "lho detto",  # Italian "l'ho detto"
    ],
)
def test_a_contraction_typed_without_its_apostrophe_reads_as_a_sentence_not_a_name(text: str) -> None:
    assert reads_as_a_sentence(text.split())
    for reader in (parse_name, person_name()):
        read = reader(text)
        assert read is None or isinstance(read, Invalid), (reader, read)


@pytest.mark.parametrize(
    ("typed", "written"),
    [("thats", "that's"), ("dont", "don't"), ("youre", "you're"), ("cest", "c'est"), ("nest", "n'est"),
     ("lho", "l'ho")],
)  # fmt: skip
def test_the_contraction_a_word_stands_for(typed: str, written: str) -> None:
    assert with_apostrophe(typed) == written


@pytest.mark.parametrize("word", ["its", "were", "well", "ill", "im", "ines", "noe", "anna", "dove", "dans"])
def test_a_word_that_is_a_word_as_typed_keeps_its_spelling(word: str) -> None:
    # "its", "were", "well" are used about as much as "it's", "we're", "we'll"; German "im" is a word as typed;
    # "noe" is no Italian elision ("no'e")
    assert with_apostrophe(word) == word


@pytest.mark.parametrize("word", ["jan", "dan", "len", "lan"])
def test_a_name_in_use_in_every_language_is_no_contraction(word: str) -> None:
    # "j'an", "d'an", "l'en" are French elisions wordfreq counts, but the typed form is a name used in all six
    # languages: "Jan van Dijk" was refused as a sentence
    assert with_apostrophe(word) == word
    assert person_name()(f"{word} van dijk") == f"{word.title()} Van Dijk"


@pytest.mark.parametrize("name", ["Anna Lena", "anna lena", "Ana de la Cruz", "Jony Ive", "Darcy Obrien", "Hes Ali"])
def test_names_stay_names(name: str) -> None:
    assert isinstance(parse_name(name), str)
    assert isinstance(person_name()(name), str)


# -- a number without a unit where the flow knows the unit it can only be in --------------------------------


@pytest.mark.parametrize(
    ("text", "kg"),
    [
        ("i'm 88 now, want to get to 80", 80.0),
        ("estoy en 88 ahora, quiero llegar a 80", 80.0),
        ("je pèse 92, je vise 85", 85.0),
        ("ich wiege 90 und will auf 82", 82.0),
        ("peso 95 agora, quero chegar a 85", 85.0),
        ("peso 87 adesso, vorrei arrivare a 78", 78.0),
        ("62", 62.0),  # 62 lb is 28 kg: only kg makes it a body weight
        ("currently 230, aiming for 200", 90.7),  # 230 kg is out of it: pounds
    ],
)
def test_a_weight_without_a_unit_is_read_in_the_one_unit_it_can_be(text: str, kg: float) -> None:
    assert parse_weight(text) == kg


@pytest.mark.parametrize("text", ["150", "160", "lose 10", "12"])
def test_a_weight_either_unit_reads_or_neither_is_asked_for_its_unit(text: str) -> None:
    # 150 kg and 150 lb (68 kg) are both someone's weight: asked, never guessed
    assert isinstance(parse_weight(text), Invalid)


def test_the_weight_of_now_beside_the_target_is_kept_with_the_unit() -> None:
    store = MemoryStore()
    engine = Engine(store, clock=lambda: CLOCK)
    for text in ("hi", "beginner", "none", "lose weight"):
        engine.turn("fitness-coach", "ann", text)
    result = engine.turn("fitness-coach", "ann", "i'm 88 now, want to get to 80")
    assert result.state == "days"
    assert result.slots is not None
    assert (result.slots["target_weight_kg"], result.slots["current_weight_kg"]) == (80.0, 88.0)
    assert result.slots["weight_unit"] == "kg"
    # the unit is the user's from now on: a later bare number is read in it
    assert "88.0 kg" in result.reply


# -- "no X" of a food names what is left out, not a diet of everything ------------------------------------


@pytest.mark.parametrize(
    "text",
    ["no dairy for me", "no sugar", "kein Zucker", "sin lácteos", "pas de gluten", "senza glutine", "sem açúcar",
     "no fish", "no dairy or eggs"],
)  # fmt: skip
def test_a_food_left_out_is_no_diet(text: str) -> None:
    read = read_diet(text)
    assert isinstance(read, Invalid) and "leave that out" in read.reason  # not "omnivore", nor "pescatarian"
    assert read_anytime(text, FitnessSlots(), "diet") == {"diet_detail": text}


@pytest.mark.parametrize(
    ("text", "diet"),
    [("no red meat", "omnivore"), ("no pork or beef", "omnivore"), ("no meat", "vegetarian"),
     ("no dairy or meat", "vegetarian"), ("no dairy, otherwise anything", "omnivore"),
     ("dairy free vegetarian", "vegetarian")],
)  # fmt: skip
def test_a_meat_left_out_or_a_diet_beside_it_is_still_a_diet(text: str, diet: str) -> None:
    # leaving out some meat says the rest is eaten: an omnivore's exception
    assert read_diet(text) == diet


# -- a field's name said at a question asking which fact to change -----------------------------------------


@pytest.mark.parametrize(
    ("text", "field"),
    [("Zeitzone", "timezone"), ("die Zeitzone", "timezone"), ("el nombre", "name"), ("le fuseau horaire", "timezone"),
     ("il mio livello", "level"), ("a língua materna", "native_language"), ("Muttersprache bitte", "native_language")],
)  # fmt: skip
def test_a_fields_name_in_any_language_names_the_fact_to_change(text: str, field: str) -> None:
    assert read_amend(text) == field
    assert field_named(text, FIELD_NAMES) == field


@pytest.mark.parametrize("text", ["Zeitzone", "el nombre", "Muttersprache"])
def test_a_fields_name_at_the_onboardings_amend_question_renames_nobody(text: str) -> None:
    s = OnboardingSlots(name="Max", native_language="de", target_language="en", timezone="Europe/Berlin",
                        confirmed=False)  # fmt: skip
    assert "name" not in read_anytime_buddy(text, s, "amend")


@pytest.mark.parametrize(("text", "label"), [("Gewicht", "current weight"), ("le niveau", "level"),
                                             ("l'objectif", "goal"), ("die Tage", "days a week")])  # fmt: skip
def test_a_fields_name_at_the_fitness_review_asks_its_value(text: str, label: str) -> None:
    found = read_changes(FITNESS, text, FitnessSlots())
    assert found.question == f"What should your {label} be?" and not found.values


# -- an answer and a question back in one message ------------------------------------------------------------


@pytest.mark.parametrize("why", ["why?", "¿por qué?", "warum?", "pourquoi ?", "perché?", "por quê?"])
def test_an_answer_with_a_why_beside_it_is_taken_and_the_why_answered(why: str) -> None:
    engine = Engine(MemoryStore(), clock=lambda: CLOCK)
    engine.turn("support", "sam", "my app keeps crashing")
    result = engine.turn("support", "sam", f"on my iphone, {why}")
    assert result.state == "text"  # the platform is answered, the next question asked
    assert "tells me which part of the help article applies to you" in result.reply  # and the why, from the state's


@pytest.mark.parametrize("text", ["on my iphone, why?", "Berlin. ¿por qué?", "3 - warum?", "iphone, perché?"])
def test_a_why_beside_an_answer(text: str) -> None:
    assert asks_why_beside(text)


@pytest.mark.parametrize("text", ["why?", "on my iphone", "why do you need my phone model if it crashes on the web?"])
def test_no_why_beside_an_answer(text: str) -> None:
    assert not asks_why_beside(text)


# -- a question back at an offer of a person: why it was offered ----------------------------------------------


@pytest.mark.parametrize(
    "text", ["why would i?", "why should i", "¿por qué lo haría?", "warum sollte ich?", "pourquoi devrais-je ?",
             "perché dovrei?", "por que eu faria isso?"],
)  # fmt: skip
def test_why_would_i_at_supports_offer_of_a_person_is_answered_from_the_offer(text: str) -> None:
    engine = Engine(MemoryStore(), clock=lambda: CLOCK)
    assert "connect you to a person" in engine.turn("support", "sam", "How do I knit a scarf?").reply
    r = engine.turn("support", "sam", text)
    assert "no article on" in r.reply and "Would you like me to connect you?" in r.reply  # not the capabilities
    assert "Connecting you" in engine.turn("support", "sam", "yes").reply  # the offer stayed open


@pytest.mark.parametrize("text", ["why would i reinstall the app?", "why does sync fail?"])
def test_a_question_of_its_own_at_the_offer_is_no_question_about_it(text: str) -> None:
    assert not asks_about_offer(text, "connect you to a person")


def test_a_no_with_a_rhetorical_why_at_an_offer_is_the_no_alone() -> None:
    engine = Engine(MemoryStore(), clock=lambda: CLOCK)
    assert engine.turn("study-pal", "kim", "teach me derivatives").state == "offer"
    r = engine.turn("study-pal", "kim", "no, why would I")
    assert r.state == "exercise" and "Concepts build on each other" not in r.reply


# -- foods left out said in two messages, or joined by a "nor" -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["sin gluten ni lácteos", "no dairy nor sugar", "neither dairy nor sugar", "weder Zucker noch Laktose",
     "ni gluten ni lácteos", "né glutine né lattosio", "senza glutine né lattosio", "nem glúten nem lactose",
     "pas de gluten ni de lactose"],
)  # fmt: skip
def test_foods_left_out_joined_by_a_nor_are_no_diet(text: str) -> None:
    read = read_diet(text)
    assert isinstance(read, Invalid) and "leave that out" in read.reason


@pytest.mark.parametrize("text", ["ni gluten", "ne glutine"])  # a "neither" with no "nor" after it is no list
def test_a_nor_word_alone_leaves_nothing_out(text: str) -> None:
    assert not isinstance(read_diet(text), Invalid)


@pytest.mark.parametrize(
    ("first", "second"),
    [("no dairy", "kein Zucker"), ("sin lácteos", "senza glutine"), ("pas de gluten", "no sugar nor eggs")],
)
def test_a_second_food_left_out_keeps_the_first(first: str, second: str) -> None:
    kept = read_anytime(first, FitnessSlots(), "diet")["diet_detail"]
    assert kept == first
    detail = read_anytime(second, FitnessSlots(diet_detail=kept), "diet")["diet_detail"]
    assert detail == f"{first}; {second}"
    # said a third time, nothing is doubled
    assert read_anytime(second, FitnessSlots(diet_detail=detail), "diet") == {"diet_detail": detail}
