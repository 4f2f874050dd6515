"""A message cut into clauses of one fact each, and habits told that are no plan.

At , ; . ! ? and a spaced dash, and before the words that join a second thought ("and", "but",
"also" in six languages), not inside one number ("an hour and a half", "a hundred and ten"); a
number hedged after a comma stays with the one before ("3, maybe 4"). A habit of the past or of now
("i used to run 10k", "salgo a correr") says what the user does, not what the plan should hold: the
slots of a plan (`Ahead.plan`) are not read from it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.ahead import declared
from engine.extract import fold, said_number
from engine.numwords import may_hold_number
from engine.tables import alternation, and_words, but_words

if TYPE_CHECKING:
    from engine.flow import Flow


class Clause(NamedTuple):
    start: int
    end: int
    text: str


# the words that join a second thought: "and" and "but" in the six languages (engine/data/and.yaml, but.yaml),
# and "also"
_JOINS = alternation([*and_words().all(), *but_words().but.all(), "also", "btw", "tambien", "también"])
# where one fact ends and the next begins: punctuation, a spaced dash, and the words that join a second
# thought, not those inside one number ("an hour and a half", "a hundred and ten")
_SPLIT = re.compile(
    # "anything but mornings" is one clause: what follows "but" there is ruled out, no other fact
    r"[,;.!?¿¡…\n]+|\s[-–—]\s|(?<![\s])(?<!hundred)(?<!thousand)(?<!anything)(?<!everything)\s++"
    rf"(?={_JOINS}\s)"
    r"(?!and a half|y media|und halb|et demie|e mezz|e meia)",
    re.I,
)
# the joining word a clause may start with: not part of what it says
_LEAD = re.compile(rf"^{_JOINS}\s+", re.I)
# the words that join one more item to a list ("peanuts and soy"), not a contrast ("but")
AND = re.compile(alternation(and_words().all()), re.I)
# the words that join a contrast, in the six languages: what follows may qualify the value before it
BUT = re.compile(alternation(but_words().but.all()), re.I)
MAX_CLAUSES = 12
# a habit of the past, in the six languages: "i used to run 10k", "solía correr", "früher bin ich gelaufen"
PAST = re.compile(
    r"\b(?:used to|use to|back when|years ago|when i was (?:younger|a kid|in school)|solia|antes (?:corria|hacia|iba)"
    r"|fruher|damals|autrefois|avant je|je faisais|costumava|antigamente|prima (?:facevo|correvo|andavo)|un tempo)\b"
)
# a habit of now, in the six languages: the user (said or not) doing a sport or a pastime, told in the present
# ("i run twice a week", "salgo a correr", "ich spiele Fußball", "je fais du vélo", "jogo futebol", "corro"). It
# says what the user does, not what the plan should hold: what they will or can do is said with a modal
# (`_PLANNED`). Training itself ("i train 3x a week", "treino 3 vezes") is the plan's own activity: no habit.
_HABITS = (
    # English: a subject, then a sport or a pastime in the present
    r"(?:\b(?:i|i also|i usually|i normally|i already|we)\s+|^(?:also|usually|normally|already)\s+)"
    r"(?:run|jog|swim|cycle|bike|ride(?: my bike)?|walk|hike|climb|row|box|dance|ski|surf|skate|play\s+\w+"
    r"|go (?:running|jogging|swimming|cycling|biking|hiking|climbing|dancing|rowing|skiing|surfing"
    r"|for (?:a )?(?:run|swim|walk|ride)s?)"
    r"|do (?:yoga|pilates|crossfit|karate|judo|boxing|martial arts|zumba|spinning))\b",
    r"\b(?:i'?m|i am) (?:running|jogging|swimming|cycling|biking|hiking|climbing|playing \w+)\b",
    # Spanish
    r"\b(?:salgo a (?:correr|caminar|nadar|pedalear)|corro|nado|juego (?:al? )?\w+|camino|monto en bici"
    r"|hago (?:yoga|pilates|crossfit)|bailo|escalo)\b",
    # German
    r"\bich (?:laufe|jogge|schwimme|spiele|fahre rad|radle|wandere|klettere|tanze"
    r"|gehe (?:laufen|joggen|schwimmen|klettern|wandern)|mache (?:yoga|pilates|crossfit))\b",
    # French
    r"\bje (?:cours|nage|joue|marche|danse|grimpe|fais (?:du (?:velo|footing|jogging|yoga|pilates|crossfit|sport)"
    r"|de la (?:natation|course|danse|marche|boxe)))\b",
    # Portuguese
    r"\b(?:jogo \w+|ando de bicicleta|faco (?:yoga|pilates|crossfit|caminhada|corrida)|danco|nado|caminho|corro)\b",
    # Italian
    r"\b(?:gioco (?:a )?\w+|nuoto|vado (?:a correre|in bici|a nuotare)|faccio (?:yoga|pilates|crossfit|corsa)"
    r"|ballo)\b",
)
_HABIT = re.compile("|".join(_HABITS))
# a plan or an ability said with the habit's verb: "i can run 3 days a week", "i want to swim twice", "puedo"
_PLANNED = re.compile(
    r"\b(?:can|could|want|wanna|would|will|i'?ll|'d like|plan|planning|going to|gonna|able|puedo|quiero|podria|voy a"
    r"|kann|konnte|will|mochte|werde|peux|veux|voudrais|pourrais|vais|posso|quero|gostaria|vou|potrei|voglio|vorrei)\b"
)


def habit(text: str) -> bool:
    """Does `text` (one clause) tell what the user does now, a sport or a pastime ("i run twice a week"),
    rather than what they will or can do? Such a clause fills no `plan` slot ahead."""
    t = fold(text)
    return _HABIT.search(t) is not None and _PLANNED.search(t) is None


def plan_slots(flow: Flow[Any]) -> frozenset[str]:
    """The slots the flow declares hold a plan (`Ahead.plan`)."""
    return frozenset(a.slot for a in map(declared, flow.ahead) if a.plan)


def without_habits(text: str) -> str:
    """`text` without its clauses that tell a habit of now (`habit`), or of the past (`PAST`)."""
    parts = clauses(text)
    kept = [c for c in parts if not habit(c.text) and not PAST.search(fold(c.text))]
    return text if len(kept) == len(parts) else ", ".join(c.text for c in kept)


def clauses(text: str) -> list[Clause]:
    """The clauses of `text`, each with its span in it (a joining word it starts with left out)."""
    out: list[Clause] = []
    last = 0
    for m in [*_SPLIT.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[last:end]
        lead = len(piece) - len(piece.lstrip())
        joined = _LEAD.match(piece[lead:])
        if joined:
            lead += joined.end()
        s, e = last + lead, last + len(piece.rstrip())
        if e > s:
            out.append(Clause(s, e, text[s:e]))
        last = m.end() if m else len(text)
    return _hedged_numbers_joined(text, out)


# a number hedged after a comma is a few words: "3, maybe 4", "45, an hour max"
_HEDGE_WORDS = 5


def _hedged_numbers_joined(text: str, parts: list[Clause]) -> list[Clause]:
    """`parts` with a number and the one hedged after it as one clause: "three, maybe four days", "3 days, 4
    tops" say one number, as the question reads them (engine/extract.py `said_number`); split, the second
    would be read alone as the fact ("maybe four days": 4 days a week)."""
    out: list[Clause] = []
    for part in parts:
        before = out[-1] if out else None
        if (
            before is not None
            and len(part.text.split()) <= _HEDGE_WORDS
            and text[before.end : part.start].strip(" ,") == ""
            and may_hold_number(part.text)  # most clauses say no number: no number reader run
            and said_number(part.text)
            and said_number(before.text)
            and len(said_number(text[before.start : part.end])) == 1
        ):
            out[-1] = Clause(before.start, part.end, text[before.start : part.end])
        else:
            out.append(part)
    return out
