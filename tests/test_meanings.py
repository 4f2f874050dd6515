"""Questions about a term of the open question (engine/meanings.py): a question declares what its options and words
mean, a question back naming them is answered with their meanings (both, for a difference), the question still open
and no attempt used; a why-question still gets the reason. And facts no slot takes (engine/unneeded.py): "I'm 34,
about 5 foot 9" is said not to be needed, the question asked again."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import Field

from engine import Ask, Bot, Final, Flow, Intent, Slots, T, choice
from engine.authoring.testing import DialogueFactory
from engine.errors import DataFileError, DefinitionError
from engine.meanings import Meaning, load_meanings, named
from engine.unneeded import not_needed, unneeded

LEVELS = {
    "beginner": ["principiante", "débutant", "Anfänger", "iniziante", "iniciante"],
    "intermediate": ["intermedio", "intermédiaire", "mittel", "intermediario", "intermediário"],
    "advanced": ["avanzado", "avancé", "fortgeschritten", "avanzato", "avançado"],
}
MEANS = {
    "beginner": Meaning(means="Beginner: new to training."),
    "intermediate": Meaning(means="Intermediate: training for some months."),
    "advanced": Meaning(means="Advanced: training for years."),
    "warm-up": Meaning(means="A warm-up is easy movement before the work.", words=("calentamiento", "Aufwärmen")),
}


class LevelSlots(Slots):
    level: str | None = None
    note: str | None = Field(default=None)


def _flow(**meanings: object) -> Flow[LevelSlots]:
    return Flow(
        name="level",
        slots=LevelSlots,
        states=[
            Ask(
                "level",
                slot="level",
                say="Your level: beginner, intermediate or advanced? Each plan starts with a warm-up.",
                parse=choice(LEVELS),
                reprompts=["Please pick one: beginner, intermediate or advanced."],
                why="Your level sets how hard the first weeks are.",
                meanings=meanings or MEANS,  # type: ignore[arg-type]
                max_attempts=1,
                initial=True,
            ),
            Final("done", summary="Level {level}."),
        ],
        transitions=[T("answer", "level", "done")],
    )


def _bot(flow: Flow[LevelSlots]) -> Bot:
    return Bot(
        name="leveller",
        persona="p",
        flows=[flow],
        intents=[Intent("level", patterns=[r"\blevel\b"], description="set a level")],
        capabilities="c",
    )


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("what do you mean by intermediate?", ("intermediate",)),
        ("what's the difference between intermediate and advanced?", ("intermediate", "advanced")),
        ("¿qué significa intermedio?", ("intermediate",)),  # read by the question's own parser
        ("was heißt fortgeschritten?", ("advanced",)),
        ("c'est quoi la différence entre débutant et avancé ?", ("beginner", "advanced")),
        ("cosa vuol dire avanzato?", ("advanced",)),
        ("o que é iniciante?", ("beginner",)),
        ("¿qué es un calentamiento?", ("warm-up",)),  # a word of the question, by its declared words
        ("what's a warm-up?", ("warm-up",)),
        ("why do you need that?", ()),
    ],
)
def test_the_terms_a_question_names_in_six_languages(text: str, terms: tuple[str, ...]) -> None:
    assert named(text, MEANS, choice(LEVELS), {"what", "mean", "means", "difference", "between"}) == terms


def test_a_question_about_an_option_gets_its_meaning_and_uses_no_attempt(dialogue: DialogueFactory) -> None:
    chat = dialogue("leveller", bots=_bot(_flow()))
    chat.say("set my level").expect(flow="level", state="level")
    # one attempt only: a question back that used one would take the fallback and skip the question
    chat.say("what do you mean by intermediate?").expect(
        state="level", slots={"level": None}, reply_contains=["Intermediate: training for some months."]
    )
    last = chat.last
    assert last is not None and last.trace is not None
    assert [n.detail for n in last.trace.notices if n.kind == "meant"] == ["intermediate"]
    assert "Your level sets" not in last.reply  # the reason answers why, not what a word means


def test_a_difference_gets_both_meanings(dialogue: DialogueFactory) -> None:
    chat = dialogue("leveller", bots=_bot(_flow()))
    chat.say("set my level").say("¿cuál es la diferencia entre intermedio y avanzado?").expect(
        state="level", reply_contains=["Intermediate: training for some months.", "Advanced: training for years."]
    )
    chat.say("intermedio").expect(state=None, flow="main")


def test_a_difference_between_declared_terms_the_question_does_not_name_asks_about_it(
    dialogue: DialogueFactory,
) -> None:
    # the question names neither a circuit nor a superset: its declared terms are its words all the same, so the
    # difference between them is a question back about it, not a request for something else
    means = {
        **MEANS,
        "circuit": Meaning(means="A circuit is several exercises done back to back."),
        "superset": Meaning(means="A superset is two exercises done back to back."),
    }
    chat = dialogue("leveller", bots=_bot(_flow(**means)))
    chat.say("set my level").say("what's the difference between a circuit and a superset?").expect(
        state="level", reply_contains=["A circuit is several", "A superset is two"]
    )


def test_why_still_gets_the_reason(dialogue: DialogueFactory) -> None:
    chat = dialogue("leveller", bots=_bot(_flow()))
    chat.say("set my level").say("warum fragst du das?").expect(
        state="level", reply_contains=["Your level sets how hard the first weeks are."]
    )
    last = chat.last
    assert last is not None and last.trace is not None
    assert not [n for n in last.trace.notices if n.kind == "meant"]


@pytest.mark.parametrize(
    ("meanings", "problem"),
    [
        ({"beginner": "  "}, "blank"),
        ({" ": "A level."}, "blank"),
        ({"beginner": Meaning(means="New.", words=("novice",)), "advanced": Meaning(means="Old.", words=("novice",))},
         "names both"),
    ],
)  # fmt: skip
def test_bad_meanings_are_refused_when_the_flow_is_declared(meanings: dict[str, object], problem: str) -> None:
    with pytest.raises(DefinitionError, match=problem):
        _flow(**meanings)


def test_a_meanings_file_is_checked_on_load(tmp_path: Path) -> None:
    path = tmp_path / "meanings.yaml"
    path.write_text("levle:\n  beginner: {means: New to it.}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="'levle' is no question of the flow"):
        load_meanings(path, states=("level",))
    path.write_text("level:\n  advanced: {means: ''}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="means"):
        load_meanings(path, states=("level",))
    path.write_text("level:\n  beginner: {means: New to it., words: [novato]}\n", encoding="utf-8")
    assert load_meanings(path, states=("level",))["level"]["beginner"].words == ("novato",)


def test_the_shipped_bots_declare_meanings_for_their_choices() -> None:
    from engine import default_registry

    registry = default_registry()
    declared = {("fitness-coach", "onboarding", s) for s in ("level", "goal", "diet", "equipment", "time_of_day")} | {
        ("language-buddy", "onboarding", s) for s in ("assess", "confirm", "amend")
    }
    declared |= {("study-pal", "tutoring", "offer"), ("study-pal", "analysis", "offer_plan")}
    declared |= {("support", "clarification", "choice")}
    for bot, flow, state in declared:
        ask = registry.get(bot).flow(flow).state(state)
        assert isinstance(ask, Ask) and ask.meanings is not None, (bot, flow, state)


# -- facts no slot takes ---------------------------------------------------------------------------------------


def _reads_nothing(text: str) -> object:
    return None


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("I'm 34, about 5 foot 9", ("height", "age")),
        ("tengo 34 años y mido 1,75", ("height", "age")),
        ("ich bin 1,80 m groß", ("height",)),
        ("j'ai 45 ans", ("age",)),
        ("ho 52 anni", ("age",)),
        ("tenho 1,68 m de altura", ("height",)),
        ("I'm 25 years old", ("age",)),
        ("intermediate, I'm 34", ()),  # an answer beside it: no message of facts only
        ("3 days", ()),
        ("I'm fine", ()),
    ],
)
def test_facts_in_six_languages(text: str, kinds: tuple[str, ...]) -> None:
    assert unneeded(text, ["level"], _reads_nothing) == kinds


def test_a_fact_a_slot_takes_is_the_flows() -> None:
    assert unneeded("I weigh 85 kg", ["target_weight_kg"], _reads_nothing) == ()
    assert unneeded("I weigh 85 kg", ["level"], _reads_nothing) == ("weight",)


def test_a_slot_is_named_by_its_words() -> None:
    # "native_language" holds the letters of "age", not the word
    assert unneeded("tengo 19 años", ["name", "native_language"], _reads_nothing) == ("age",)
    assert unneeded("tengo 19 años", ["age_years"], _reads_nothing) == ()


def test_a_bare_number_the_question_reads_may_answer_it() -> None:
    assert unneeded("I'm 30", ["minutes"], lambda _: 30) == ()
    assert unneeded("I'm 30", ["level"], _reads_nothing) == ("age",)
    assert unneeded("30 years old", ["minutes"], lambda _: 30) == ("age",)  # said with its unit: an age


def test_not_needed_names_the_facts() -> None:
    assert not_needed(["age", "height"]) == "Thanks, but I don't need your age or your height for this."


def test_a_fact_no_slot_takes_asks_again_without_an_attempt(dialogue: DialogueFactory) -> None:
    chat = dialogue("leveller", bots=_bot(_flow()))
    chat.say("set my level").say("I'm 34, about 5 foot 9").expect(
        state="level", slots={"level": None}, reply_contains=["don't need your height or your age", "Your level"]
    )
    chat.say("beginner, I'm 60 years old").expect(flow="main")


def test_an_articles_choice_meanings_are_checked_on_load() -> None:
    from pydantic import ValidationError

    from flows.support.kb import Question

    ok = Question(text="Where?", type="choice", choices=["web", "desktop"], meanings={"web": "In a browser."})
    assert ok.meanings == {"web": "In a browser."}
    with pytest.raises(ValidationError, match="not among the choices"):
        Question(text="Where?", type="choice", choices=["web", "desktop"], meanings={"phone": "On a phone."})
