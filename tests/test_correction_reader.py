"""The engine's correction reader (engine/corrections.py): one shape of correction per case, in six
languages, against the shipped flows' own declarations (which slots may be corrected, the words
that name them) and their own parsers."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Ask, Correctable, Final, Flow, Slots, T, free_text, rating
from engine.commands import CorrectSlot, WhichSlot
from engine.corrections import correction_commands, read_corrections
from engine.takeback import self_repaired, words_taken_back
from flows.fitness.onboarding import fitness_onboarding
from flows.language_buddy.onboarding import onboarding as buddy_onboarding
from flows.shared.feedback import feedback

FITNESS_AT_EQUIPMENT: dict[str, Any] = {
    "fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "target_weight_kg": 72,
    "weight_unit": "kg", "days_per_week": 3, "minutes_per_session": 45, "completed": ["assessment", "goals"],
}  # fmt: skip
FITNESS_AT_TIME = {
    **FITNESS_AT_EQUIPMENT, "equipment": ["dumbbells"], "diet": "vegetarian", "allergies": [],
    "preferred_days": ["Mon", "Wed", "Fri"], "completed": ["assessment", "goals", "workout", "diet"],
}  # fmt: skip
BUDDY_AT_TIMEZONE = {"name": "Anna", "native_language": "es", "target_language": "en"}
FEEDBACK_AT_DETAILS = {"rating": 2, "sentiment": "negative", "sentiment_from": "rating"}


def read(flow: Flow[Any], state: str, values: dict[str, Any], text: str) -> tuple[dict[str, Any], str]:
    """The corrections as {slot: value}, and what is left of the message for the open question."""
    asking = flow.state(state)
    assert isinstance(asking, Ask)
    found = read_corrections(flow, asking, flow.new_slots(values), text)
    return {c.slot: c.value for c in found.commands}, found.rest


@pytest.mark.parametrize(
    ("text", "corrected", "rest"),
    [
        # a value alone, with a cue, that only one filled slot reads
        ("wait, I meant 3", {"rating": 3}, ""),
        ("perdón, quise decir 3", {"rating": 3}, ""),
        ("scusa, volevo dire quattro", {"rating": 4}, ""),
        ("ops, era pra ser 5", {"rating": 5}, ""),
        ("sorry, eigentlich eine 4", {"rating": 4}, ""),
        # the slot named, and the rest of the message is the answer to the open question
        ("change my rating to one. the voice recognition never works", {"rating": 1},
         "the voice recognition never works"),
        # new value and old one ("X, pas Y")
        ("en fait je mets 3, pas 2", {"rating": 3}, ""),
    ],
)  # fmt: skip
def test_a_rating_corrected_at_the_free_text_details_question(text: str, corrected: dict[str, Any], rest: str) -> None:
    assert read(feedback, "details", FEEDBACK_AT_DETAILS, text) == (corrected, rest)


def test_free_text_without_a_cue_stays_free_text() -> None:
    # a number inside a comment is no correction without a cue saying so
    assert read(feedback, "details", FEEDBACK_AT_DETAILS, "the app crashed 3 times today") == ({}, "")
    assert read(feedback, "details", FEEDBACK_AT_DETAILS, "I'd give it 3 stars if the audio worked") == ({}, "")


@pytest.mark.parametrize(
    ("text", "corrected", "rest"),
    [
        ("change the days to five", {"days_per_week": 5}, ""),
        ("actually 60 minutes per session not 45. i have a gym membership", {"minutes_per_session": 60},
         "i have a gym membership"),
        ("oh and my target is 75 not 72 sorry. just dumbbells", {"target_weight_kg": 75.0}, "just dumbbells"),
        ("perdona, mejor cuatro días. tengo gimnasio", {"days_per_week": 4}, "tengo gimnasio"),
        ("scusa, i giorni sono quattro, non tre", {"days_per_week": 4}, ""),
        ("go back to goals, i want muscle gain instead", {"goal": "muscle_gain"}, ""),
        ("i was wrong about my level, put beginner. and i have a kettlebell", {"fitness_level": "beginner"},
         "and i have a kettlebell"),
    ],
)  # fmt: skip
def test_fitness_answers_corrected_at_the_equipment_question(text: str, corrected: dict[str, Any], rest: str) -> None:
    assert read(fitness_onboarding, "equipment", FITNESS_AT_EQUIPMENT, text) == (corrected, rest)


def test_a_correction_then_the_open_questions_answer_after_a_colon() -> None:
    at_days = {
        **FITNESS_AT_EQUIPMENT, "equipment": ["dumbbells"], "diet": "vegan", "allergies": [],
        "completed": ["assessment", "goals", "workout", "diet"],
    }  # fmt: skip
    # the colon ends the correction; "mon" (French "my", a filler) is Monday to the weekdays question
    assert read(fitness_onboarding, "preferred_days", at_days, "oh wait, make it four days: mon, tue, thu, sat") == (
        {"days_per_week": 4},
        "mon, tue, thu, sat",
    )
    # a clock time's colon does not end a clause
    assert read(fitness_onboarding, "preferred_days", at_days, "sorry, make it 4 days. mon tue thu sat at 7:30") == (
        {"days_per_week": 4},
        "mon tue thu sat at 7:30",
    )


@pytest.mark.parametrize(
    ("text", "corrected"),
    [
        ("afternoon, and sorry my equipment is bands not dumbbells", {"equipment": ["resistance bands"]}),
        ("evenings. and switch fri to sat please", {"preferred_days": ["Mon", "Wed", "Sat"]}),
        ("btw i'm not vegetarian anymore, omnivore", {"diet": "omnivore"}),
        ("soy. also i said 3 days but make it 4", {"days_per_week": 4}),
    ],
)
def test_old_value_said_as_wrong_picks_the_slot(text: str, corrected: dict[str, Any]) -> None:
    assert read(fitness_onboarding, "time_of_day", FITNESS_AT_TIME, text)[0] == corrected


@pytest.mark.parametrize(
    ("text", "corrected", "rest"),
    [
        ("no sorry, it's Ana not Anna", {"name": "Ana"}, ""),
        ("ah, y me llamo Ana, no Anna. Estoy en Bogotá", {"name": "Ana"}, "Estoy en Bogotá"),
        ("Moment, mein Name ist eigentlich Annika", {"name": "Annika"}, ""),
        ("change my name to Annie please", {"name": "Annie"}, ""),
        ("wait, im learning german not english. timezone is Vienna", {"target_language": "de"}, "timezone is Vienna"),
        ("oops my native language is catalan. Barcelona", {"native_language": "ca"}, "Barcelona"),
    ],
)
def test_language_buddy_profile_corrected_at_the_timezone_question(
    text: str, corrected: dict[str, Any], rest: str
) -> None:
    assert read(buddy_onboarding, "ask_timezone", BUDDY_AT_TIMEZONE, text) == (corrected, rest)


def test_a_name_is_never_picked_by_a_value_alone() -> None:
    # "Barcelona" after a cue is the timezone answer, and no word alone renames anyone
    assert read(buddy_onboarding, "ask_timezone", BUDDY_AT_TIMEZONE, "sorry, Barcelona") == ({}, "")
    assert read(buddy_onboarding, "ask_timezone", BUDDY_AT_TIMEZONE, "oops, Maria") == ({}, "")


def test_a_value_several_slots_read_is_asked_about_never_guessed() -> None:
    values = {**FITNESS_AT_EQUIPMENT, "equipment": ["dumbbells"]}
    # 60 is a session length and a target weight: which one is asked
    commands, rest = correction_commands(fitness_onboarding, "diet", values, "sorry, 60")
    assert commands == [WhichSlot(words="sorry, 60", slots=["minutes_per_session", "target_weight_kg"])]
    assert rest == ""


def test_the_open_questions_own_answer_is_not_a_correction() -> None:
    # at the minutes question "sorry, 30" answers it (30 minutes), it corrects nothing
    values = {k: v for k, v in FITNESS_AT_EQUIPMENT.items() if k != "minutes_per_session"}
    assert read(fitness_onboarding, "minutes", values, "sorry, 30") == ({}, "")


def test_nothing_filled_nothing_to_correct() -> None:
    assert read(feedback, "rating", {}, "wait, I meant 3") == ({}, "")


class Order(Slots):
    size: int | None = None
    note: str | None = None


ORDER = Flow(
    name="order",
    slots=Order,
    states=[
        Ask("size", slot="size", say="Size, 1 to 5?", parse=rating(1, 5), initial=True),
        Ask("note", slot="note", say="Any note?", parse=free_text()),
        Final("done", summary="{size}"),
    ],
    transitions=[T("answer", "size", "note"), T("answer", "note", "done")],
    correctable=(Correctable("size", names=("size", "talla", "taille", "Größe", "taglia", "tamanho")),),
)


@pytest.mark.parametrize(
    "text",
    [
        "change the size to 4",
        "perdón, la talla es 4",
        "pardon, la taille c'est 4",
        "Moment, die Größe ist 4",
        "scusa, la taglia è 4",
        "desculpa, o tamanho é 4",
    ],
)
def test_a_slot_named_in_six_languages(text: str) -> None:
    asking = ORDER.state("note")
    assert isinstance(asking, Ask)
    found = read_corrections(ORDER, asking, Order(size=2), text)
    assert [(c.slot, c.value) for c in found.commands] == [("size", 4)]
    assert all(isinstance(c, CorrectSlot) and c.words in text for c in found.commands)


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("three days a week, no wait, four", "4 days a week"),
        ("tres días, no, perdón, cuatro", "4 días"),
        ("I have 2 kids, the app is great", "I have 2 kids, the app is great"),
    ],
)
def test_a_number_taken_back_within_the_message(text: str, meant: str) -> None:
    assert self_repaired(text) == meant


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("not Max, Sam", {"name": "Sam"}),
        ("its polish not german", {"native_language": "pl"}),
        ("no the name should be Sam", {"name": "Sam"}),
        ("no my native is polish", {"native_language": "pl"}),
        ("nah im in lisbon", {"timezone": "Europe/Lisbon"}),
        ("no - Lisbon", {"timezone": "Europe/Lisbon"}),
        ("wrong timezone, it's Tokyo", {"timezone": "Asia/Tokyo"}),
        ("no, target italian", {"target_language": "it"}),
        ("no, Polish", {}),  # either language: "What should I change?" asks
        ("no its Max", {}),  # the same value again
        ("yes the name is right", {}),
        # all of it right but one, its value after a comma ("it's ...", "es ...", "c'est ...")
        ("all good except my native language, it's portuguese", {"native_language": "pt"}),
        ("yes except the name, it's Sam", {"name": "Sam"}),
        ("todo bien excepto el nombre, es Sam", {"name": "Sam"}),
        ("tout est bon sauf le fuseau, c'est Paris", {"timezone": "Europe/Paris"}),
    ],
)
def test_a_correction_at_the_profile_confirmation(text: str, found: dict[str, Any]) -> None:
    confirming = {
        "name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin",
        "level": "A1", "assessed_language": "en",
    }  # fmt: skip
    commands, _ = correction_commands(buddy_onboarding, "confirm", confirming, text)
    assert {c.slot: c.value for c in commands if isinstance(c, CorrectSlot)} == found


def test_except_alone_answers_and_corrects_nothing() -> None:
    # "except" is a correction's only after a word that all the rest is right ("all good except ...")
    at_days = {"fitness_level": "beginner", "limitations": "none", "goal": "fat_loss", "days_per_week": 5}
    commands, rest = correction_commands(fitness_onboarding, "preferred_days", at_days, "every day except the weekend")
    assert commands == [] and rest == "every day except the weekend"


def test_a_goal_changes_only_when_the_message_corrects_it() -> None:
    values = {"fitness_level": "beginner", "limitations": "none", "goal": "muscle_gain"}
    commands, _ = correction_commands(fitness_onboarding, "target_weight", values, "actually my goal is to lose weight")
    assert [(c.slot, c.value) for c in commands if isinstance(c, CorrectSlot)] == [("goal", "fat_loss")]
    # talk about the target is no new goal
    said = "I just want to lose some weight, maybe 80"
    assert correction_commands(fitness_onboarding, "target_weight", values, said) == ([], said)


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("childs? no wait, children", "children"),
        ("monday, wednesday, sorry, thursday", "monday, thursday"),
        ("beginner, actually Intermediate", "Intermediate"),
        ("Ana, i mean Anna", "Anna"),
        ("vegetariano, perdón, vegano", "vegano"),
        # a hedge settled at its end
        ("somewhere between beginner and intermediate, call it beginner", "beginner"),
        ("two, maybe three days. let's say 3", "3"),
        ("entre 2 y 3, digamos 3", "3"),
        ("i think its GMT-6? central time anyway", "central time"),
        ("beginner anyway", "beginner anyway"),  # nothing before it to settle
        ("vegetarian, say no meat", "vegetarian, say no meat"),
        # nothing taken back: a longer clause, a word that only changes, a no that answers
        ("the app is slow, actually it crashes too", "the app is slow, actually it crashes too"),
        ("no, reinstalling didn't change anything", "no, reinstalling didn't change anything"),
        ("berlin", "berlin"),
    ],
)
def test_a_short_answer_taken_back_within_the_message_is_the_one_meant(text: str, meant: str) -> None:
    assert words_taken_back(text) == meant


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("anzi no, ci ho ripensato: il tedesco", {"target_language": "de"}),  # the language answered just before
        ("actually, spanish instead", {"target_language": "es"}),
        ("on second thought, Europe/Paris", {}),  # the open question's own answer, no correction
    ],
)
def test_a_value_two_answers_could_hold_corrects_the_one_just_given(text: str, found: dict[str, Any]) -> None:
    at_timezone = {"name": "Max", "native_language": "it", "target_language": "fr"}
    commands, _ = correction_commands(buddy_onboarding, "ask_timezone", at_timezone, text)
    assert {c.slot: c.value for c in commands if isinstance(c, CorrectSlot)} == found


@pytest.mark.parametrize(
    ("text", "days", "rest"),
    [
        ("wait, make the days tue, thu and sat", ["Tue", "Thu", "Sat"], ""),
        ("actually mondays, wednesdays and saturdays instead", ["Mon", "Wed", "Sat"], ""),
        ("perdón, los días son lunes, martes y jueves", ["Mon", "Tue", "Thu"], ""),
        # the list ends where a clause lists none of its items: the rest answers the open question
        ("wait, the days are tue, thu and sat, evenings", ["Tue", "Thu", "Sat"], "evenings"),
    ],
)
def test_a_list_corrected_is_not_cut_at_its_commas(text: str, days: list[str], rest: str) -> None:
    # h-read9: "tue" alone was the correction
    corrected, left = read(fitness_onboarding, "time_of_day", FITNESS_AT_TIME, text)
    assert corrected == {"preferred_days": days}
    assert left.strip(" ,") == rest


@pytest.mark.parametrize(
    "text",
    [
        "wait, i made a mistake, it's 4 days",
        "sorry, hab mich vertan, 4 Tage",
        "scusa, ho sbagliato, sono 4 giorni",
        "espera, eu errei, são 4 dias",
    ],
)
def test_a_mistake_owned_is_a_correction_cue_in_six_languages(text: str) -> None:
    # h-read9
    corrected, _ = read(fitness_onboarding, "minutes", FITNESS_AT_EQUIPMENT, text)
    assert corrected == {"days_per_week": 4}


@pytest.mark.parametrize(
    ("text", "settled"),
    [
        ("honestly somewhere between beginner and intermediate, leaning beginner", "beginner"),
        ("beginner or intermediate, leaning towards intermediate", "intermediate"),
        ("entre principiante e intermedio, tirando a principiante", "principiante"),
        ("two or three, closer to 3", "3"),
    ],
)
def test_a_hedge_settled_by_the_side_it_leans_to(text: str, settled: str) -> None:
    assert words_taken_back(text) == settled


@pytest.mark.parametrize(
    ("text", "corrected", "rest"),
    [
        # the new value said again in other words is the correction's, not the open question's answer
        ("sorry, my native language is German, Deutsch", {"native_language": "de"}, ""),
        ("wait no, my native language is french, en français", {"native_language": "fr"}, ""),
        # a clause that says something else stays the open question's
        ("sorry, my native language is German, I live in Berlin", {"native_language": "de"}, "I live in Berlin"),
    ],
)  # fmt: skip
def test_a_new_value_said_twice_is_one_correction(text: str, corrected: dict[str, Any], rest: str) -> None:
    assert read(buddy_onboarding, "ask_timezone", BUDDY_AT_TIMEZONE, text) == (corrected, rest)


FITNESS_AT_TARGET: dict[str, Any] = {
    "fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "completed": ["assessment"],
}  # fmt: skip
FITNESS_AT_ALLERGIES = {**FITNESS_AT_EQUIPMENT, "equipment": ["dumbbells"], "diet": "vegetarian"}


def uncued(state: str, values: dict[str, Any], text: str) -> dict[str, Any]:
    """What the read stage's correction reader corrects from `text` at fitness's `state` ({} for nothing)."""
    commands, _ = correction_commands(fitness_onboarding, state, values, text)
    return {c.slot: c.value for c in commands if isinstance(c, CorrectSlot)}


@pytest.mark.parametrize(
    ("state", "values", "text", "corrected"),
    [
        # a change of mind said as the value alone, with no cue: a slot whose values name it by themselves
        ("target_weight", FITNESS_AT_TARGET, "muscle gain", {"goal": "muscle_gain"}),
        ("target_weight", FITNESS_AT_TARGET, "Endurance.", {"goal": "endurance"}),
        ("allergies", FITNESS_AT_ALLERGIES, "vegan", {"diet": "vegan"}),
        ("allergies", FITNESS_AT_ALLERGIES, "pescatarian!", {"diet": "pescatarian"}),
        ("allergies", FITNESS_AT_ALLERGIES, "Vegano", {"diet": "vegan"}),  # spelt nearly as the value
        ("equipment", FITNESS_AT_EQUIPMENT, "bad knee", {"limitations": "bad knee"}),
        ("equipment", FITNESS_AT_EQUIPMENT, "beginner", {"fitness_level": "beginner"}),
    ],
)  # fmt: skip
def test_a_value_said_alone_corrects_the_slot_it_names(
    state: str, values: dict[str, Any], text: str, corrected: dict[str, Any]
) -> None:
    assert uncued(state, values, text) == corrected


@pytest.mark.parametrize(
    ("state", "values", "text"),
    [
        # the open question's own answer, or a value it refuses (meant for it)
        ("target_weight", FITNESS_AT_TARGET, "lose 10 kg"),
        ("target_weight", FITNESS_AT_TARGET, "75 kg"),
        ("allergies", FITNESS_AT_ALLERGIES, "nuts"),
        ("allergies", FITNESS_AT_ALLERGIES, "dairy"),
        # the value held already
        ("target_weight", FITNESS_AT_TARGET, "fat loss"),
        # a question or small talk that names a value in passing
        ("target_weight", FITNESS_AT_TARGET, "are eggs good for building muscle?"),
        ("target_weight", FITNESS_AT_TARGET, "what is endurance"),
        ("target_weight", FITNESS_AT_TARGET, "salut toi"),
        ("allergies", FITNESS_AT_ALLERGIES, "Para qué sirve esto?"),
        ("target_weight", FITNESS_AT_TARGET, "¿qué desayuno antes de correr?"),
        # a value asked about, its words all its own: a question back, not a change
        ("target_weight", FITNESS_AT_TARGET, "muscle gain?"),
        ("allergies", FITNESS_AT_ALLERGIES, "vegan or keto?"),
        # a value found inside other words, not said as itself ("meat" reads as the diet omnivore)
        ("target_weight", FITNESS_AT_TARGET, "i had eggs for building muscle"),
        ("allergies", FITNESS_AT_ALLERGIES, "meat"),
        ("allergies", FITNESS_AT_ALLERGIES, "low carb"),
        # more than one clause, or longer than a value said alone
        ("target_weight", FITNESS_AT_TARGET, "muscle gain, 75 kg"),
        ("target_weight", FITNESS_AT_TARGET, "i think muscle gain would be nice for me now"),
        # a slot whose values do not name it alone (a number needs its cue)
        ("equipment", FITNESS_AT_EQUIPMENT, "5"),
    ],
)  # fmt: skip
def test_an_uncued_value_in_other_words_or_the_open_questions_corrects_nothing(
    state: str, values: dict[str, Any], text: str
) -> None:
    assert uncued(state, values, text) == {}


def test_a_free_text_question_keeps_an_uncued_value_as_its_answer() -> None:
    # the feedback details question takes any text: "3" there is a comment, never a new rating
    commands, rest = correction_commands(feedback, "details", FEEDBACK_AT_DETAILS, "3")
    assert (commands, rest) == ([], "3")
