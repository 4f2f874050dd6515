"""A question declined by naming what there is none of: "no target weight", "kein Zielgewicht", "pas d'objectif".

The words that say there is none of what follows (or after it: "ein Zielgewicht habe ich nicht",
"target weight: none") in six languages, beside the words that name a slot (engine/slot_cues.py). Said
ahead of its question, the slot is kept as declined (`declined_now`) and not asked; said at its own
question, where the parser reads no value, it declines it (`declines_asked`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.commands import SetSlot
from engine.extract import FOR_NOW, fold
from engine.slot_cues import asked_slot_cue

if TYPE_CHECKING:
    from engine.flow import Flow

# the words that say there is none of what follows, in the six languages (folded): "no target weight", "sin peso
# objetivo", "ohne Zielgewicht", "pas de poids cible", "senza peso obiettivo", "i don't have a target weight"
_NONE_OF = (
    r"(?:no|none|without|zero|i don'?t (?:really )?have(?: an?| any)?|i have no|sin|sin un|ningun\w*"
    r"|no tengo(?: un| una)?|sem|sem um|nenhum\w*|nao tenho(?: um| uma)?|ohne|kein\w*|habe? kein\w*"
    r"|pas d'|pas de|sans|aucun\w*|je n'?ai pas d'|senza|nessun\w*|non ho(?: un| una)?)"
)
# ... or after them: "ein Zielgewicht habe ich nicht", "target weight: none"
_NONE_AFTER = (
    r"(?:\s*:)?\s+(?:none|no|habe ich (?:nicht|keins)|hab ich (?:nicht|keins)|keins|nada|aucun|nessuno|nenhum)\b"
)


_FOR_NOW_ONLY = re.compile(rf"(?:{FOR_NOW}|really|yet|thanks|thank you)(?:[ ,]+(?:{FOR_NOW}|really|yet|thanks))*")


@lru_cache(maxsize=256)
def _declining(cue: str) -> re.Pattern[str]:
    # at most one word between the none and the slot's words ("no specific target"), never a word that makes it
    # something else than a none ("no idea what target", "no more than")
    return re.compile(
        rf"(?<![\w'])(?:{_NONE_OF})(?:\s+|(?<='))(?!idea\b|clue\b|sure\b|more\b|less\b)(?:[\w'-]+\s+)?{cue}"
        rf"|{cue}{_NONE_AFTER}"
    )


def declines_named(folded: str, cue: re.Pattern[str]) -> bool:
    """Does a clause (folded) say there is none of what `cue` names ("no target weight", "kein Zielgewicht")?"""
    return _declining(cue.pattern).search(folded) is not None


def declines_asked(flow: Flow[Any], slot: str, text: str) -> bool:
    """Does the message only decline the asked question by the words naming its slot ("no target for now",
    "im Moment kein Zielgewicht", "pas d'objectif pour l'instant"), where its parser reads no value? What is
    left beside the none may only say for now."""
    cue = asked_slot_cue(flow, slot)
    if cue is None:
        return False
    folded = fold(text).strip(" .!")
    found = _declining(cue.pattern).search(folded)
    if found is None:
        return False
    left = f"{folded[: found.start()]} {folded[found.end() :]}".strip(" ,.!")
    return not left or _FOR_NOW_ONLY.fullmatch(left) is not None


def declined_now(before: Sequence[str], sets: Sequence[SetSlot]) -> list[str]:
    """The questions a run keeps as declined ahead (`FlowFrame.declined`): `before`, and those `sets` decline."""
    return [*before, *(s.slot for s in sets if s.declined and s.slot not in before)]
