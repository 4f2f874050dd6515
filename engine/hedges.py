"""An answer said unsure: the words that put it forward without committing ("maybe 4", "beginner I guess",
"je crois que oui", "Paris, ça marche ?", "segunda, quarta e sexta, pode ser?"), or that ask the bot to take it
down ("can you put me down for 4 days?", "¿me apuntas mancuernas?", "kannst du 5 Tage eintragen?", "mi segni le
noci?"), and the answer without them.

A hedge is no question back and no part of the value: "perdre du gras je crois ?" gives the goal "perdre du
gras", "le gluten je crois ?" the allergy gluten, not the item "le gluten je crois". Parsers read a message
without its hedges when the words as typed read less (engine/extract.py `Parser`), and the read stage does not
take a hedge said as a question for a question back (engine/askback.py). The phrases, in six languages, are
data (engine/data/hedges.yaml), matched on the folded text so that what is kept is the user's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from engine.cues import fold_same_length
from engine.tables import any_of, compiles, load_table

HEDGES_FILE = Path(__file__).parent / "data" / "hedges.yaml"


class _Kinds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    belief: list[str]
    doubt: list[str]
    asking: list[str]

    _check = field_validator("belief", "doubt", "asking")(classmethod(lambda cls, v: compiles(v)))


class HedgesTable(BaseModel):
    """engine/data/hedges.yaml (its header says what each list is for)."""

    model_config = ConfigDict(extra="forbid")
    before: _Kinds
    after: _Kinds


def load_hedges(path: Path = HEDGES_FILE) -> HedgesTable:
    """The table, validated; a broken file says what to fix."""
    return load_table(path, HedgesTable, "hedges table")


# what separates a hedge from the answer: spaces, commas, dashes, the marks of a question or an exclamation
_GAP = r"[\s,;:.!?¿¡…-]"


@dataclass(frozen=True)
class _Compiled:
    before_belief: re.Pattern[str]
    before_doubt: re.Pattern[str]
    before_asking: re.Pattern[str]
    after_belief: re.Pattern[str]
    after_doubt: re.Pattern[str]
    after_asking: re.Pattern[str]


@lru_cache(maxsize=1)
def _table() -> _Compiled:
    t = load_hedges()
    # at the start (matched at the first word: the marks before it, "¿creo que sí?", are skipped by the caller);
    # the gap after it keeps a minus to its number ("maybe -3")
    before = r"(?:{words})(?![\w'])(?:[\s,;:.!?¿¡…]|-(?!\d))+".format
    # at the end, before any marks; the gap before it keeps a word's end from reading as a hedge ("Pixel 7" ends
    # in no "ok"); the run of gaps is possessive: searched at every position it stays linear
    after = r"(?<![\w'])(?:{words}){gap}*+\Z".format
    return _Compiled(
        before_belief=re.compile(before(words=any_of(t.before.belief))),
        before_doubt=re.compile(before(words=any_of(t.before.doubt))),
        before_asking=re.compile(before(words=any_of(t.before.asking))),
        after_belief=re.compile(after(gap=_GAP, words=any_of(t.after.belief))),
        after_doubt=re.compile(after(gap=_GAP, words=any_of(t.after.doubt))),
        after_asking=re.compile(after(gap=_GAP, words=any_of(t.after.asking))),
    )


@dataclass(frozen=True)
class Unhedged:
    """The words of a message without its hedges, as typed, whether a hedge of doubt was among them, and whether
    one asked the bot to take the answer down (`asking`: "can you put me down for 4 days?", "mi segni le noci?")."""

    words: str
    doubt: bool
    asking: bool = False


# a message longer than this is no answer said unsure: a hedge at its end qualifies its last clause only
_LONGEST_HEDGED = 12


@lru_cache(maxsize=1024)  # asked by several readers of a turn, of the same text
def unhedged(text: str) -> Unhedged | None:
    """`text` without the hedges it opens or ends with ("maybe 4?" -> "4", "Montag, Mittwoch, Freitag
    vielleicht?" -> "Montag, Mittwoch, Freitag"), or None when it has none or nothing is left without them."""
    if len(text.split()) > _LONGEST_HEDGED:
        return None
    t = _table()
    folded = fold_same_length(text)
    start, end = 0, len(text)
    doubt = asking = False
    changed = True
    while changed:
        changed = False
        for pattern, kind in ((t.before_belief, ""), (t.before_doubt, "doubt"), (t.before_asking, "asking")):
            at = start
            while at < end and _GAPS.fullmatch(folded[at]):
                at += 1
            m = pattern.match(folded, at, end)
            if m is not None and m.end() < end:
                start, changed = m.end(), True
                doubt, asking = doubt or kind == "doubt", asking or kind == "asking"
        for pattern, kind in ((t.after_belief, ""), (t.after_doubt, "doubt"), (t.after_asking, "asking")):
            m = pattern.search(folded, start, end)
            if m is not None and m.start() > start:
                end, changed = m.start(), True
                doubt, asking = doubt or kind == "doubt", asking or kind == "asking"
    # a minus belongs to a number ("-3 I think"); a dash alone separates ("4 - I guess")
    words = text[start:end].strip(" ,;:.!?¿¡…").rstrip(" -")
    if (start, end) == (0, len(text)) or not re.search(r"\w", words):
        return None
    # the message's own closing marks stay: what is left of "I'd say 4, is that normal?" still asks its question
    said = text.rstrip()
    return Unhedged(words=words + said[len(said.rstrip("?!")) :], doubt=doubt, asking=asking)


_GAPS = re.compile(_GAP)
