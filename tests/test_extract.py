"""Rule extractors: what they read, what they refuse, and when they leave it to an LLM."""

from __future__ import annotations

import pytest

from engine.extract import Invalid, Parser, choice, free_text, integer, numbers, rating
from engine.feeling import sentiment
from engine.names import person_name
from engine.yesno import read_yes_no, yes_no


@pytest.mark.parametrize(
    ("text", "expected"),
    [("4", 4), ("I'd say 4", 4), ("four", 4), ("4/5", 4), ("4 out of 5", 4), ("★★★", 3), ("5 stars", 5)],
)
def test_rating_reads_common_forms(text: str, expected: int) -> None:
    assert rating(1, 5)(text) == expected


@pytest.mark.parametrize("text", ["7", "0", "3/10", "4 or 5"])
def test_rating_refuses_with_a_reason(text: str) -> None:
    out = rating(1, 5)(text)
    assert isinstance(out, Invalid)
    assert "1" in out.reason and "5" in out.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    # a later number hedged: the first is the answer ("4 or 5" alone is still two numbers, above)
    [("4 maybe 5", 4), ("a 4, maybe 4.5", 4), ("maybe 3, 4 on a good day", 3), ("3, 4 tops", 3), ("2 o quizás 3", 2)],
)
def test_rating_takes_the_first_of_hedged_numbers(text: str, expected: int) -> None:
    assert rating(1, 5)(text) == expected


def test_rating_undecided_on_no_number() -> None:
    assert rating(1, 5)("banana") is None


def test_integer_ranges_and_decimals() -> None:
    assert integer(1, 7)("3 days a week") == 3
    assert isinstance(integer(1, 7)("2.5"), Invalid)
    assert integer()("-3") == -3
    assert numbers("between 2,5 and 4") == [2.5, 4.0]


@pytest.mark.parametrize(("text", "expected"), [("yes", True), ("Yeah, sure", True), ("ok!", True), ("no", False),
                                                ("Nope.", False), ("not really", False), ("maybe", None)])  # fmt: skip
def test_yes_no(text: str, expected: bool | None) -> None:
    assert yes_no()(text) is expected


def test_choice_by_word_synonym_and_spelling() -> None:
    c = choice({"latency": ["slow"], "bug": ["crash"], "other": []})
    assert c("it is SLOW") == "latency"
    assert c("latncy") == "latency"
    assert c("it crashed") is None or c("it crashed") == "bug"
    assert c("purple") is None
    both = c("slow and a crash")
    assert isinstance(both, Invalid) and "more than one option (bug and latency)" in both.reason


def test_free_text_is_verbatim_but_not_empty() -> None:
    assert free_text()("  the bot is too slow  ") == "the bot is too slow"
    assert isinstance(free_text(min_chars=2)("x"), Invalid)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My name is Max", "Max"),
        ("I'm Max from Berlin", "Max"),
        ("call me maxim", "Maxim"),
        ("Anna Lena", "Anna Lena"),
        ("yes", None),
        ("I want to learn English and live in Berlin since 2019", None),
    ],
)
def test_person_name(text: str, expected: str | None) -> None:
    assert person_name()(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I want to complain", "negative"),
        ("the app is great", "positive"),
        ("it's not good", "negative"),
        ("it's okay", "neutral"),
        ("I'd like to give feedback", None),
    ],
)
def test_sentiment(text: str, expected: str | None) -> None:
    assert sentiment()(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("definitely not", False), ("absolutely not!", False), ("not at all", False), ("no idea", None),
     ("I don't know", None), ("maybe", None), ("not sure, sorry", None), ("of course", True)],
)  # fmt: skip
def test_yes_no_reads_negation_and_uncertainty(text: str, expected: bool | None) -> None:
    assert yes_no()(text) is expected


def test_choice_prefers_the_option_whose_phrase_covers_the_others() -> None:
    c = choice({"play_store": ["play store", "google play"], "store": ["store", "shop"]})
    assert c("I got it from the Play Store") == "play_store"
    assert c("from the shop") == "store"
    both = c("the play store and the shop")
    assert isinstance(both, Invalid)


def test_numbers_read_thousands_and_refuse_overflow() -> None:
    assert numbers("1,000 steps, 2,5 km") == [1000.0, 2.5]
    assert numbers("9" * 400) == []  # overflows to infinity: not a number anyone meant
    assert rating(1, 5)("9" * 400) is None
    out = integer(1, 7)("1,000")
    assert isinstance(out, Invalid) and "1000 is out of range" in out.reason


@pytest.mark.parametrize("text", ["I am not sure", "call me later", "im tired", "I'm sorry"])
def test_person_name_does_not_take_everyday_phrases(text: str) -> None:
    assert person_name()(text) is None


# One reader for every yes/no question in every bot: what a hedge or a mixed answer means is
# decided here once ("unclear" is asked again, never taken as yes).
@pytest.mark.parametrize(
    ("text", "expected"),
    [("not yet", False), ("nope, not really", False), ("I guess so", True), ("yes but not sure", None),
     ("yes, but not sure", None), ("sure not", False), ("ok what now?", None), ("sure, why not", True),
     ("no problem", True), ("wrong name", False), ("no, my native language is Polish", False),
     ("teach me integrals", None), ("yes please", True), ("I don’t think so", False), ("hmm", None),
     ("nope, maybe another day", False), ("no, later", False), ("maybe later", None)],
)  # fmt: skip
def test_one_yes_no_reader(text: str, expected: bool | None) -> None:
    assert read_yes_no(text) is expected
    assert yes_no()(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"), [("8/10", 4), ("10 out of 10", 5), ("6/10", 3), ("3 — the audio keeps cutting out", 3)]
)
def test_rating_on_another_scale_converts_when_exact(text: str, expected: int) -> None:
    assert rating(1, 5)(text) == expected


@pytest.mark.parametrize("text", ["<b>1</b>", "' OR '1'='1", "<script>alert(2)</script>", "x=3"])
def test_a_digit_inside_markup_or_code_is_no_rating(text: str) -> None:
    assert rating(1, 5)(text) is None


@pytest.mark.parametrize(
    "text",
    ["no tengo nada en casa", "i have nothing at home", "je n'ai rien", "ich habe nichts zu Hause",
     "i don't have anything", "não tenho nada em casa"],
)  # fmt: skip
def test_having_nothing_in_a_sentence_declines(text: str) -> None:
    from engine.extract import declines

    assert declines(text)


@pytest.mark.parametrize("text", ["no tengo ni idea", "i have a mat", "nothing works"])
def test_having_something_or_not_knowing_does_not_decline(text: str) -> None:
    from engine.extract import declines

    assert not declines(text)


def test_a_copy_of_the_messages_english_gloss_is_a_copy() -> None:
    from engine.extract import copied

    # the allergies reader reads "lunes miércoles" as "monday wednesday": no allergy read, a copy
    assert copied(["monday wednesday"], "lunes miércoles", words=1)
    assert not copied(["peanuts"], "lunes miércoles", words=1)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("evenings", "evening"),
        ("evenings not mornings", "evening"),  # the one ruled out is no second option
        ("not sure, maybe evening", "evening"),  # "not" rules out "sure", not what comes after the comma
        ("no, mornings", "morning"),  # a no before the answer, with its comma
        ("anything but mornings", None),
        ("not in the morning", None),
        ("i dont like evenings", None),
        ("sauf le morning", None),
    ],
)
def test_an_option_ruled_out_is_no_choice_of_it(text: str, read: str | None) -> None:
    when = choice({"morning": ["mornings"], "evening": ["evenings"], "midday": []})
    found = when(text)
    if read is not None:
        assert found == read
    else:
        # asked again, naming what is left: "anything but mornings" was read as morning
        assert isinstance(found, Invalid) and found.reason.startswith("So not ") and "which one, then" in found.reason


def test_a_goal_ruled_out_is_no_goal() -> None:
    from flows.fitness.readers import goal_named, read_goal

    assert read_goal("i dont want to bulk") is None  # was muscle gain, from "want to bulk"
    # the goal read ahead at another question (flows/fitness/ahead.py's `Ahead("goal")`) is no goal either
    assert goal_named("i dont want to bulk") is None and goal_named("want to bulk") == "muscle_gain"
    assert read_goal("not lose weight, build muscle") == "muscle_gain"


@pytest.mark.parametrize(
    ("text", "picked"),
    [
        ("non la mattina, la sera", "evening"),
        ("nicht morgens, lieber abends", "evening"),
        ("não é google play, é a app store", "app store"),
        ("ich bin kein anfänger, eher fortgeschritten", "advanced"),
        ("no soy principiante, más bien intermedio", "intermediate"),
    ],
)
def test_an_option_ruled_out_by_not_in_other_languages_is_no_choice_of_it(text: str, picked: str) -> None:
    # h-read9: the five other languages' "not" (a bare "no" only with a verb: "no dairy" answers)
    options = {
        "morning": ["mattina", "morgens"],
        "evening": ["sera", "abends"],
        "google play": [],
        "app store": [],
        "beginner": ["anfänger", "principiante"],
        "intermediate": ["intermedio"],
        "advanced": ["fortgeschritten"],
    }
    assert choice(options)(text) == picked


@pytest.mark.parametrize("text", ["anything but mornings", "everything but keto", "anything but cardio pls"])
def test_the_words_of_a_ruled_out_cue_name_no_option(text: str) -> None:
    options = choice({"omnivore": ["anything", "everything"], "keto": [], "vegan": []})
    assert not isinstance(options(text), str) or options(text) != "omnivore"
    assert options("anything") == "omnivore"


@pytest.mark.parametrize(
    ("text", "feeling"),
    [
        ("honestly like 3/5", None),  # a hedge and a filler: how frankly, not how it went
        ("like a 4 i guess", None),
        ("i would like more lessons", None),  # a request, not praise
        ("i really like the lessons", "positive"),
        ("like it a lot", "positive"),
        ("tbh the lessons are boring", "negative"),
    ],
)
def test_like_and_hedges_without_feeling_are_none(text: str, feeling: str | None) -> None:
    from engine.feeling import sentiment

    assert sentiment()(text) == feeling


# a none said for now ("aucune pour l'instant"): every phrase of engine/data/for_now.yaml in test_word_tables.py


@pytest.mark.parametrize("text", ["not now", "for now", "right now", "jetzt nicht", "ahora no"])
def test_a_moment_alone_is_no_none(text: str) -> None:
    # "not now" alone puts the question off (engine/said.py), never the none
    from engine.extract import declines

    assert not declines(text)


def test_a_refusal_quotes_the_words_as_typed_never_the_engines_english_reading_of_them() -> None:
    """A parser reads "soy de Valencia" in English ("I'm from Valencia", engine/cues.py) and "más o menos" with
    its answer words glossed ("más o except"): its refusal quotes what the user typed."""

    def language(text: str) -> object:
        from engine.cues import in_english_cues

        return Invalid(f"I don't know a language called “{in_english_cues(text)}”. Try “German”.")

    def place(text: str) -> object:
        return Invalid(f"I don't know where “{text}” is.")

    said = Parser(language, "a language")("soy de Valencia")
    assert isinstance(said, Invalid)
    assert said.reason == "I don't know a language called “soy de Valencia”. Try “German”."
    glossed = Parser(place, "a place")("más o menos")
    assert isinstance(glossed, Invalid) and glossed.reason == "I don't know where “más o menos” is."

    # read through both, the cues' "I'm" and the gloss's "beginner": "ich bin ziemlich Anfänger"
    def both(text: str) -> object:
        from engine.cues import in_english_cues
        from engine.gloss import in_english

        return Invalid(f"I don't know a language called “{in_english_cues(in_english(text))}”.")

    twice = Parser(both, "a language")("ich bin ziemlich Anfänger")
    assert isinstance(twice, Invalid) and twice.reason == "I don't know a language called “ich bin ziemlich Anfänger”."
    # the words as typed, and an example the refusal gives, are quoted as they are
    typed = Parser(place, "a place")("Atlantis")
    assert isinstance(typed, Invalid) and typed.reason == "I don't know where “Atlantis” is."


def test_an_ambiguous_or_ruled_out_choice_names_the_options_as_words() -> None:
    # the values are slot values ("fat_loss"); what the user reads says them as words
    goals = choice(
        {"fat_loss": ["fat loss", "lose weight"], "muscle_gain": ["tone up", "build muscle"], "endurance": []}
    )
    both = goals("i want to lose weight and tone up")
    assert isinstance(both, Invalid) and "(fat loss and muscle gain)" in both.reason
    not_one = goals("anything but fat loss")
    assert isinstance(not_one, Invalid) and "_" not in not_one.reason, not_one


@pytest.mark.parametrize(
    "text",
    ["Allergien hab ich keine", "allergies: none", "alergias no tengo", "allergie non ne ho",
     "des allergies, je n'en ai pas", "lesões não tenho", "Verletzungen? keine", "injuries, none really"],
)  # fmt: skip
def test_the_kind_named_first_and_the_none_after_it_declines(text: str) -> None:
    from engine.extract import declines

    assert declines(text)


@pytest.mark.parametrize(
    "text", ["allergic to nuts", "allergies to nuts and none to dairy", "problems with my knee", "allergies: peanuts"]
)
def test_a_kind_named_with_what_there_is_does_not_decline(text: str) -> None:
    from engine.extract import declines

    assert not declines(text)
