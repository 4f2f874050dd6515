"""A question back at a yes/no offer is neither a yes nor a no (issue 23, class 4).

At study-pal's plan offer "why derivatives? i thought i did ok" was read as a new request for a lesson on
derivatives: the offer was dropped ("OK, no plan for now.") and a lesson started. A question about what is
offered, in any of the six languages the engine reads, or a statement disputing what the offer is based on,
is answered from the offer's reason (the state's `why`, or the flow's own answer) and the offer stays open,
no attempt used; a yes or a no said beside a question ("yes why not", "no, why would I") still answers.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from engine import Engine, MemoryStore, Resources, TurnResult
from engine.askback import asks_about_offer, disputes
from engine.clock import pinned_clock

AT = datetime(2026, 11, 25, 20, 0)
TINY_BANK = Path(__file__).parent / "replays" / "banks" / "tiny.yaml"

# what reaches each offer: the bot, the messages, and the (flow, state) of the offer
PLAN_OFFER = (
    "study-pal",
    ("teach me derivatives", "no", "3", "4", "cancel", "Analyze my weak points from our last session"),
    ("analysis", "offer_plan"),
)
PREREQUISITE_OFFER = (
    "study-pal",
    ("What is calculus?", "6", "8", "Can you explain derivatives?"),
    ("tutoring", "offer"),
)
SAVE_OFFER = ("language-buddy", ("hi", "max", "german", "english pls", "berlin", "blue"), ("onboarding", "confirm"))
OFFERS = {"plan": PLAN_OFFER, "prerequisite": PREREQUISITE_OFFER, "save": SAVE_OFFER}

QUESTIONS_BACK = [
    "why derivatives? i thought i did ok",
    "why?",
    "why do you think so?",
    "¿por qué derivadas?",
    "warum Ableitungen?",
    "pourquoi ?",
    "perché?",
    "por quê?",
    "i thought i did ok",
    "pensé que lo hice bien",
    "ich dachte, ich war gut",
    "je pensais avoir bien réussi",
    "achei que fui bem",
    "pensavo di essere andato bene",
]


class Chat:
    def __init__(self, bot: str) -> None:
        self.bot = bot
        self.engine = Engine(MemoryStore(), resources=Resources(assessment=TINY_BANK))

    def say(self, *texts: str) -> TurnResult:
        result = None
        for text in texts:
            with pinned_clock(AT):
                result = self.engine.turn(self.bot, "u", text)
        assert result is not None
        return result


def at_offer(which: str) -> tuple[Chat, TurnResult]:
    bot, path, where = OFFERS[which]
    chat = Chat(bot)
    reached = chat.say(*path)
    assert (reached.flow, reached.state) == where
    return chat, reached


@pytest.mark.parametrize("which", list(OFFERS))
@pytest.mark.parametrize("text", QUESTIONS_BACK)
def test_a_question_back_at_an_offer_keeps_it_open_and_uses_no_attempt(which: str, text: str) -> None:
    chat, reached = at_offer(which)
    r = chat.say(text)
    assert (r.flow, r.state) == (reached.flow, reached.state), r.reply
    assert r.slots == reached.slots  # nothing taken, nothing counted
    assert r.trace is not None and r.trace.route == "command:ask_back"
    # the question is asked again, and a plain yes next takes the offer
    taken = chat.say("yes")
    assert (taken.flow, taken.state) != (reached.flow, reached.state), taken.reply


def test_why_at_the_plan_offer_is_answered_from_its_reason() -> None:
    chat, _ = at_offer("plan")
    r = chat.say("why derivatives? i thought i did ok")
    assert "weakest topics first" in r.reply and "study schedule" in r.reply
    assert "no plan for now" not in r.reply and "Let's learn" not in r.reply


def test_why_at_the_prerequisite_offer_is_its_reason_in_every_language() -> None:
    for text in ("why?", "¿por qué derivadas?", "warum Ableitungen?"):
        chat, _ = at_offer("prerequisite")
        r = chat.say(text)
        assert r.reply.startswith("Concepts build on each other"), (text, r.reply)


@pytest.mark.parametrize(
    ("which", "text", "taken"),
    [
        ("plan", "yes why not", ("main", None)),
        ("plan", "no, why would I", ("main", None)),
        ("prerequisite", "yes why not", ("tutoring", "exercise")),
        ("prerequisite", "no, why would I", ("tutoring", "exercise")),
        ("save", "yes why not", ("main", None)),
        ("save", "no, why would I", ("onboarding", "amend")),
    ],
)
def test_a_yes_or_a_no_beside_a_question_answers(which: str, text: str, taken: tuple[str, str | None]) -> None:
    chat, _ = at_offer(which)
    r = chat.say(text)
    assert (r.flow, r.state) == taken, r.reply


def test_a_plan_offer_still_takes_a_new_request() -> None:
    chat, _ = at_offer("plan")
    r = chat.say("teach me integrals")
    assert r.flow == "tutoring"


def test_a_no_beside_a_question_at_fitness_review_is_the_no() -> None:
    chat = Chat("fitness-coach")
    path = ("hi", "advanced", "none", "endurance", "none", "5", "an hour", "none", "omnivore", "none", "mon to fri")
    reached = chat.say(*path, "evenings")
    assert reached.state == "review"
    said_no = Chat("fitness-coach").say(*path, "evenings", "no")
    r = chat.say("no, why would I")
    assert r.reply == said_no.reply


@pytest.mark.parametrize("text", ["why?", "¿por qué?", "warum?", "pourquoi ?", "what do you mean?"])
def test_support_answers_a_question_back_at_its_offer_of_a_person(text: str) -> None:
    chat = Chat("support")
    assert "connect you to a person" in chat.say("How do I bake sourdough bread?").reply
    r = chat.say(text)
    assert "no article on" in r.reply and "Would you like me to connect you?" in r.reply
    assert "Connecting you" in chat.say("yes").reply  # the offer stayed open


@pytest.mark.parametrize(("text", "reply"), [("no, why would I", "Alright."), ("yes why not", "Connecting you")])
def test_support_takes_a_yes_or_a_no_beside_a_question(text: str, reply: str) -> None:
    chat = Chat("support")
    chat.say("How do I bake sourdough bread?")
    assert reply in chat.say(text).reply


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("why?", True),
        ("wieso?", True),
        ("i thought i did ok", True),
        ("why does sync fail?", False),  # a question of its own
        ("how do I export my tasks?", False),
        ("no, why would I", False),
        ("yes", False),
    ],
)
def test_asks_about_offer(text: str, asks: bool) -> None:
    assert asks_about_offer(text, "Would you like me to connect you to a person? (yes or no)") is asks


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("i thought i did ok", True),
        ("but i did fine", True),
        ("ich dachte, ich war gut", True),
        ("no, i thought i did ok", False),  # a no, with its reason
        ("i did it", False),
        ("ok", False),
    ],
)
def test_disputes(text: str, said: bool) -> None:
    assert disputes(text) is said
