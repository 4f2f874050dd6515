"""The correction words of six languages, and the pieces of a message they are looked for in.

engine/data/corrections.yaml lists, per kind and language, the cues of a correction ("actually",
"I meant", "eigentlich"), the words that take an answer back ("no wait", "anzi"), negations,
links, fillers and the rest; here they are compiled once into patterns, with the helpers both
readers of corrections share: a message cut into clauses, a value without its cues and fillers.
A correction of an earlier answer is read by engine/corrections.py, an answer taken back within
the same message by engine/takeback.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from engine.cues import fold_same_length as _fold_same_length
from engine.cues import in_english_cues
from engine.tables import CORRECTIONS_FILE, load_table

# the pieces of one message are folded several times over (cues, names, negations)
fold_same_length = lru_cache(maxsize=4096)(_fold_same_length)


class CorrectionWords(BaseModel):
    """engine/data/corrections.yaml: per kind, per language, the phrases."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    cues: dict[str, list[str]]
    meant: dict[str, list[str]]
    taken_back: dict[str, list[str]]
    decided: dict[str, list[str]]
    settled: dict[str, list[str]]
    said: dict[str, list[str]]
    swaps: dict[str, list[str]]
    negations: dict[str, list[str]]
    links: dict[str, list[str]]
    fillers: dict[str, list[str]]
    no_value: dict[str, list[str]]
    adding: dict[str, list[str]]
    compounds: dict[str, list[str]]
    instead: dict[str, list[str]]


@dataclass(frozen=True)
class _Words:
    cue: re.Pattern[str]
    meant: re.Pattern[str]
    taken_back: re.Pattern[str]
    decided: re.Pattern[str]
    settled: re.Pattern[str]
    said: re.Pattern[str]
    swap: re.Pattern[str]
    negation: re.Pattern[str]
    link: re.Pattern[str]
    filler: re.Pattern[str]
    english_filler: re.Pattern[str]  # a piece that is only English fillers ("ok", "um, sorry")
    no_value: re.Pattern[str]  # what follows a slot's name and says no value ("my name first", "fix my name too")
    compound: re.Pattern[str]  # the name joined to one more word names another thing ("nombre de usuario")
    adding: re.Pattern[str]  # a list slot named with these gets more items ("i'm also allergic to peanuts")
    instead: re.Pattern[str]  # "not 3 but 4": the value after the second word is the answer


def _phrases(table: dict[str, list[str]]) -> list[str]:
    return sorted({fold_same_length(p) for phrases in table.values() for p in phrases}, key=len, reverse=True)


def alternatives(phrases: list[str]) -> str:
    return "|".join(re.escape(p) for p in phrases)


# the prepositions and article that make a phrase of time of the word after them ("at the moment")
_NOT_IN_TIME = r"(?<!\bat the )(?<!\bfor the )(?<!\bin the )(?<!\bat this )"


@lru_cache(maxsize=1)
def correction_words() -> _Words:
    table = load_table(CORRECTIONS_FILE, CorrectionWords, "correction words")

    def whole(phrases: list[str]) -> re.Pattern[str]:
        # a cue word inside a phrase of time is none: "i'm 82 at the moment" corrects and takes back nothing
        # (German "Moment" is "wait")
        return re.compile(rf"(?<![\w']){_NOT_IN_TIME}(?:{alternatives(phrases)})(?![\w'])")

    # links and fillers are stripped from the ends of a value, repeatedly
    link = re.compile(
        rf"^(?:{alternatives(_phrases(table.links))})(?![\w'])|(?<![\w'])(?:{alternatives(_phrases(table.links))})$"
    )
    filler = re.compile(
        rf"^(?:{alternatives(_phrases(table.fillers))})(?![\w'])|(?<![\w'])(?:{alternatives(_phrases(table.fillers))})$"
    )
    english = alternatives(_phrases({"en": table.fillers.get("en", [])}))
    cues = whole(_phrases(table.cues) + _phrases(table.said) + _phrases(table.meant))
    # "switch fri to sat", "cambia martes por jueves": a verb, the old value, a link, the new one
    verbs, by = zip(*(p.split(" ... ") for ps in table.swaps.values() for p in ps), strict=True)
    swap = re.compile(
        rf"(?<![\w'])(?:{alternatives(_phrases({'': list(verbs)}))})\s+(?:the\s+|my\s+)?(?P<old>[\w'-]+(?:\s[\w'-]+)?)"
        rf"\s+(?:{alternatives(_phrases({'': list(by)}))})\s+(?P<new>.+)$"
    )
    return _Words(
        cues,
        whole(_phrases(table.meant)),
        whole(_phrases(table.taken_back)),
        re.compile(rf"(?<![\w'])(?:{alternatives(_phrases(table.decided))})(?![\w'])"),
        re.compile(rf"(?<![\w'])(?:{alternatives(_phrases(table.settled))})\W*$"),
        whole(_phrases(table.said)),
        swap,
        whole(_phrases(table.negations)),
        link,
        filler,
        re.compile(rf"(?:{english})(?:[\s,.!]+(?:{english}))*"),
        # possessive repeats: one pass over the words after the name, never rescanned
        re.compile(rf"\A[\s,.!?]*+(?:(?:{alternatives(_phrases(table.no_value))})(?![\w'])[\s,.!?]*+)++"),
        re.compile(rf"\A\s*+(?:(?:{alternatives(_phrases(table.compounds))})\s++|d')[^\W\d_]++[\s?!.]*+"),
        whole(_phrases(table.adding)),
        _instead(table.instead),
    )


def _instead(table: dict[str, list[str]]) -> re.Pattern[str]:
    """ "not X but Y" as the whole message, X a few words: group `new` is Y."""
    pairs = [p.split(" ... ") for ps in table.values() for p in ps]
    alternatives = "|".join(
        rf"{re.escape(fold_same_length(a))}\s++[^,;.!?]{{1,40}}?[\s,]+{re.escape(fold_same_length(b))}"
        for a, b in sorted(pairs, key=lambda ab: -len(ab[1]))
    )
    return re.compile(rf"\A\s*(?:{alternatives})\s+(?P<new>\S.*)\Z")


LEADING_NO = re.compile(r"(?:no+|nah|nope|nein|non|nao)\b[\s,.!:-]*")


# Sentences, commas and the words that join a second thought ("i said 3 days but make it 4").
# a colon before a space ends a clause too: "make it four days: mon, wed, fri" changes the count, then
# names the days (a clock time's colon, "7:30", has no space after it)
_CLAUSE = re.compile(
    r"[.;!?\n]+|,|:(?=\s)|\s[-–—]\s|\s(?=(?:but|also|btw|plus|pero|mais|aber|però|ma|tambien|también)\s)", re.I
)


def strip_ends(text: str) -> str:
    """`text` without the links, fillers and punctuation at its ends."""
    w = correction_words()
    t = text.strip(" ,.;:!?-–—\"'()")
    while True:
        folded = fold_same_length(t)
        m = w.link.search(folded) or w.filler.search(folded)
        if m is None:
            return t
        t = (t[: m.start()] + t[m.end() :]).strip(" ,.;:!?-–—\"'()")


def without_cues(text: str) -> str:
    folded = fold_same_length(text)
    parts, last = [], 0
    for m in correction_words().cue.finditer(folded):
        parts.append(text[last : m.start()])
        last = m.end()
    parts.append(text[last:])
    return " ".join(" ".join(parts).split())


def says_nothing_of_its_own(text: str) -> bool:
    """Whether `text` is only cue words and fillers ("ok", "wait", "hmm so", "oh and"): no answer."""
    return not strip_ends(without_cues(text))


@dataclass
class Clause:
    start: int
    end: int
    text: str  # as typed
    comma: bool = False  # it ends at a comma (not a full stop): it runs on into the next one

    @property
    def read(self) -> str:
        """Its cues written in English ("me llamo" -> "my name is"), for finding slot names."""
        return in_english_cues(self.text)


# a clause that opens by saying what something is ("it's Anita", "c'est Anne", "es Ana", "ist Deutsch", "è il francese")
_VALUE_OF = re.compile(r"(?:it'?s|it is|that'?s|that is|its|c'est|ce sera|es|son|ist|sind|e|sono|sao)\s+\S")


def split_clauses(text: str, *, merged: bool = True) -> list[Clause]:
    """The clauses of `text`; `merged`: a clause that only says what is wrong joins the one before ("Ana, no Anna")."""
    out: list[Clause] = []
    last = 0
    comma = False  # the clause before ended at a comma
    for m in [*_CLAUSE.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[last:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            s, e = last + lead, last + len(piece.rstrip())
            t = text[s:e]
            # "Ana, no Anna", "3, pas 2": a clause that only says what is wrong belongs to the one before
            neg = correction_words().negation.match(fold_same_length(t))
            said = strip_ends(without_cues(t[neg.end() :])) if neg else ""
            # "the name, it's Anita", "my native language, it's portuguese": the value said of what the clause before
            # named, after a comma, belongs to it too
            value_of = _VALUE_OF.match(fold_same_length(t)) is not None and len(t.split()) <= 5
            if merged and out and comma and ((neg and said and len(t.split()) <= 4) or value_of):
                prev = out[-1]
                out[-1] = Clause(prev.start, e, text[prev.start : e])
            else:
                out.append(Clause(s, e, t))
        last = m.end() if m else len(text)
        comma = m is not None and not re.search(r"[.;!?\n]", m.group())  # a comma or a dash runs on
        if out:
            out[-1].comma = comma
    return out
