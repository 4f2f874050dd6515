"""What the words of study-pal's questions mean: what a question back about one answers ("c'est quoi un prérequis ?"
at the prerequisite offer, "¿qué es un pomodoro?" at the offer of a plan), the question still open
(engine/meanings.py). Declared here, from the numbers the flows use, so a meaning never says other figures."""

from __future__ import annotations

from engine.meanings import Meaning
from flows.study_pal.course import MASTERY_THRESHOLD
from flows.study_pal.mastery import percent
from flows.study_pal.scheduling import LONG_BREAK, LONG_BREAK_EVERY, SHORT_BREAK, STUDY_MINUTES

POMODORO = Meaning(
    means=(
        f"A Pomodoro is {STUDY_MINUTES} minutes of focused study, then a {SHORT_BREAK}-minute break; after every "
        f"{LONG_BREAK_EVERY}th, a {LONG_BREAK}-minute one. The plan puts your weakest topics first."
    ),
    words=("pomodoros", "tomate", "Tomatentechnik"),
)
PREREQUISITE = Meaning(
    means=(
        "A prerequisite is a topic another one builds on: the new topic uses it, so it is easier with the "
        "prerequisite learnt first."
    ),
    words=("prerequisite", "prerrequisito", "requisito previo", "prérequis", "prerequis", "Voraussetzung",
           "Vorkenntnis", "prerequisito", "pré-requisito", "pre-requisito"),
)  # fmt: skip
MASTERY = Meaning(
    means=(
        "Mastery is the share of a topic's exercises you got right; from "
        f"{percent(MASTERY_THRESHOLD)} on, I count the topic as learnt."
    ),
    words=("dominio", "maîtrise", "maitrise", "Beherrschung", "padronanza", "domínio"),
)

# by question (the Ask state's name)
OFFER_PLAN = {"pomodoro": POMODORO, "mastery": MASTERY}
OFFER = {"prerequisite": PREREQUISITE, "mastery": MASTERY}
NEXT_TOPIC = {"mastery": MASTERY, "prerequisite": PREREQUISITE}
