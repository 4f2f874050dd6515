"""An answer taken back within the same message, read as the one meant, in any flow.

"three days a week, no wait, four" is "4 days a week", "childs? no wait, children" is
"children", "not Ann but Anna" is "Anna", "lunes, miércoles y viernes, no, martes, jueves y
sábado" the second list: the take-back cues ("no wait", "sorry", "anzi", "enfin"), a no said alone
between two answers, and a hedge settled at the end ("two, maybe three. let's say 3") pick the
answer meant before any reader sees the message. A correction of an answer given at an earlier
question is engine/corrections.py's; the cue words both read are engine/correctionwords.py's.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from engine.correctionwords import LEADING_NO, correction_words, fold_same_length, split_clauses, strip_ends
from engine.extract import Invalid, Parser, fold, numbers
from engine.flow import Flow
from engine.models import Slots
from engine.numwords import spelled_out
from engine.states import Ask
from engine.tables import alternation, and_words
from engine.utterance import Utterance


def answers(asked: Parser, text: str) -> bool:
    """Does `text` answer the open question ("no" at "Shall I save it?")?"""
    found = asked(text)
    return found is not None and not isinstance(found, Invalid)


_DIGITS = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")


def _cue_or_no(text: str) -> bool:
    folded = fold_same_length(text)
    w = correction_words()
    return (
        w.cue.search(folded) is not None
        or w.taken_back.search(folded) is not None
        or w.negation.fullmatch(folded.strip(" ,.!")) is not None
    )


def _without_taking_back(text: str) -> str:
    """`text` without its correction cues and the words that take an answer back ("enfin", "rectifico", "äh")."""
    folded = fold_same_length(text)
    spans = sorted(
        m.span() for p in (correction_words().cue, correction_words().taken_back) for m in p.finditer(folded)
    )
    parts, last = [], 0
    for a, b in spans:
        if a < last:
            continue  # inside a longer cue already cut
        parts.append(text[last:a])
        last = b
    parts.append(text[last:])
    return " ".join(" ".join(parts).split())


# what is said after the cue joins one more fact ("ah and 3 days", "well, also..."): nothing is taken back
# (?<!\s): matched at the start only; a scan from inside a run of spaces would retry it at every space
_ADDED = re.compile(rf"(?<!\s)\s*(?:{alternation([*and_words().all(), 'also', 'plus', 'too'])})(?![\w'])")


def _only_taking_back(text: str) -> bool:
    """Whether `text` only takes an answer back: cue words, fillers and a no ("no wait", "euh non", "äh nein")."""
    left = strip_ends(_without_taking_back(text))
    return not left or _NO_ALONE.fullmatch(fold_same_length(left)) is not None


_UNIT_WORDS = re.compile(r"[^\W\d_]{2,}")


def _units(text: str) -> frozenset[str]:
    """The words beside a clause's numbers that say what they count ("days", "min", "jours"), a plural's -s off."""
    return frozenset(w.rstrip("s") for w in _UNIT_WORDS.findall(fold(spelled_out(strip_ends(text)))))


def _same_kind(said: str, before: str) -> bool:
    """May the number of `said` replace one of `before`: neither says what it counts, or both say it alike
    ("no wait make it 3 days" takes back "4 days", not the "40 min" said between)."""
    new, old = _units(said), _units(before)
    return not new or not old or bool(new & old)


def repaired_numbers(heard: Utterance) -> str:
    """`self_repaired`, told at once by the numbers already read that nothing is taken back."""
    return heard.text if len(heard.numbers) < 2 else self_repaired(heard.text)


def self_repaired(text: str) -> str:
    """A number taken back within the message, as the number meant: "three days a week, no wait,
    four" is "4 days a week" (said ahead, it must not store 3). A clause that is a cue and one
    short number replaces the last number of the clause before the cue."""
    if len(numbers(text)) < 2:
        return text  # nothing taken back: one number or none
    # "85, no 88": the no that takes a number back is no old value said as wrong, its clause its own
    clauses = split_clauses(text, merged=False)
    for j, value in enumerate(clauses):
        said = numbers(value.text)
        content = strip_ends(_without_taking_back(value.text))
        if len(said) != 1 or not content or len(content.split()) > 3:
            continue
        if _ADDED.match(fold_same_length(_without_taking_back(value.text))):
            continue  # "45, ah and 3 days": a number added, none taken back
        k = j - 1
        folded = fold_same_length(value.text)
        cued = (
            correction_words().cue.search(folded) is not None
            or correction_words().taken_back.search(folded) is not None
        )
        while k >= 0 and _only_taking_back(clauses[k].text) and _cue_or_no(clauses[k].text):
            cued, k = True, k - 1  # "no wait," before the number
        if not cued or k < 0 or k == j:
            continue
        # the number taken back is the last one said of the same kind: "4 days, 40 min, no wait make it 3 days"
        # takes back the days, the minutes stay
        while k > 0 and numbers(clauses[k].text) and not _same_kind(content, clauses[k].text):
            k -= 1
        if not _same_kind(content, clauses[k].text):
            continue
        before = spelled_out(clauses[k].text)
        last = list(_DIGITS.finditer(before))
        if not last:
            continue
        n = said[0]
        new = before[: last[-1].start()] + (f"{n:g}") + before[last[-1].end() :]
        # what was said between them stays ("40 min"), the cue and the number meant go
        kept = [c.text for c in clauses[k + 1 : j] if not _only_taking_back(c.text)]
        return self_repaired(", ".join([text[: clauses[k].start] + new, *kept]) + text[value.end :])
    return text


_SHORT = 3  # words: an answer taken back and the one meant are short ("childs? no wait, children")


def words_taken_back(text: str) -> str:
    """A short answer taken back within the message, as the one meant: "childs? no wait, children"
    is "children", "monday, wednesday, sorry, thursday" is "monday, thursday". A clause that is
    only a cue ("no wait"), or a cue and a few words ("actually intermediate"), replaces the
    short clause before it; a hedge settled at its end ("two, maybe three days. let's say 3",
    "i think its GMT-6? central time anyway") is what settles it. The message as typed when nothing is taken back."""
    kept: list[str] = []
    cued = replaced = False
    for piece in _TAKE_APART.split(text):
        piece = piece.strip()
        if not piece:
            continue
        folded = fold_same_length(piece)
        settled = correction_words().decided.match(folded)
        answer = piece[settled.end() :].strip(" ,.;:!?-–—") if settled else ""
        after = None if settled else correction_words().settled.search(folded)
        # "no, teach me integration anyway" insists: only a hedge ("GMT-6? central time anyway") is settled
        if after is not None and _HEDGED.search(text[: text.find(piece)]):
            settled, answer = after, piece[: after.start()].strip(" ,.;:!?-–—")
        if settled and kept and 0 < len(answer.split()) <= _SHORT:
            # "…, call it beginner": the answer settled at the end stands for all before it
            kept, replaced, cued = [answer], True, False
            continue
        if kept and _NO_ALONE.fullmatch(folded.strip()) and not _NO_ALONE.fullmatch(fold_same_length(kept[-1]).strip()):
            cued = True  # "French... no, Italian": a no alone after an answer takes it back
            continue
        cues = list(correction_words().taken_back.finditer(fold_same_length(piece)))  # same length: spans hold
        has_cue = bool(cues)
        # the words after the cue as typed ("une heure": an article may be part of the value)
        content = _cut(piece, [m.span() for m in cues]).strip(" ,.;:!?-–—") if has_cue else piece
        if has_cue and kept and _NO_ALONE.fullmatch(fold_same_length(content)):
            if _YES_ALONE.fullmatch(fold_same_length(kept[-1]).strip(" ¡!¿?")):
                kept[-1], replaced, cued = content, True, False  # "ja, äh nein": the no is the answer meant
            else:
                cued = True  # "principiante, anzi no, intermedio": the no only takes back
            continue
        if has_cue and not strip_ends(content):
            cued = True  # "no wait": what follows replaces what came before
            continue
        if (
            (cued or has_cue)
            and kept
            and len(content.split()) <= _SHORT
            and len(kept[-1].split()) <= _SHORT
            and not _ADDED.match(fold_same_length(content))
            and (not (_DIGITS.search(kept[-1]) and _DIGITS.search(content)) or _same_kind(content, kept[-1]))
        ):
            # "4 days, ah, 30 minutes" takes no days back; "45, ah and 3 days" adds
            kept[-1], replaced = content, True
        else:
            kept.append(piece)
        cued = False
    return ", ".join(kept) if replaced else text


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without `spans`, as typed."""
    out, last = [], 0
    for a, b in spans:
        out.append(text[last:a])
        last = b
    return " ".join(" ".join([*out, text[last:]]).split())


# a no said alone between two answers ("spanish, no, italian", "Französisch... nein, Italienisch")
_NO_ALONE = re.compile(r"(?:no+|nope|nein|non|nao)")
# a yes said alone, which a no after a word that takes back replaces ("sí, bueno no", "ja, äh nein")
_YES_ALONE = re.compile(r"(?:yes|yeah|yep|si|ja|oui|sim)")


def _no_between(folded: str) -> bool:
    """Whether a no stands alone between two pieces of the message ("spanish, no, italian")."""
    pieces = [p.strip() for p in _TAKE_APART.split(folded) if p.strip()]
    return any(_NO_ALONE.fullmatch(p) for p in pieces[1:-1])


# what leaves an answer open: a question mark, a maybe
_HEDGED = re.compile(r"\?|\b(?:i think|i guess|maybe|probably|perhaps|not sure|or|either|between)\b", re.I)
_TAKE_APART = re.compile(r"[,;.!?…]+|\s[-–—]\s")


@lru_cache(maxsize=1024)
def _takes_back(folded: str) -> bool:
    """Whether the words take an answer back or settle one ("no wait", "let's say"): the message's alone."""
    w = correction_words()
    return any(p.search(folded) for p in (w.taken_back, w.decided, w.settled, w.instead)) or _no_between(folded)


def answer_meant(flow: Flow[Any], here: Ask, values: dict[str, Any], checked: Slots | None, heard: Utterance) -> str:
    """The answer meant, where the message takes a number or a short answer back; a question where any
    text is an answer (a comment) keeps the message whole: "it's slow, actually it crashes too"."""
    repaired = repaired_numbers(heard)
    if repaired != heard.text or not _takes_back(heard.lowered):
        return repaired
    try:
        slots = checked if checked is not None else flow.new_slots(values)
    except ValidationError:
        return repaired
    parser = here.parser(slots)
    if parser.greedy:
        return repaired
    found = instead_of(heard.text, parser) or list_taken_back(heard.text, parser)
    if found:
        return found
    taken = words_taken_back(heard.text)
    # what is left must answer the question: "vegan, bueno, casi siempre" takes nothing back, the diet stays
    if taken != heard.text and not answers(parser, taken) and answers(parser, heard.text):
        return heard.text
    return taken


def instead_of(text: str, parser: Parser) -> str | None:
    """The answer of "not X but Y" (engine/data/corrections.yaml `instead`): "not Ann but Anna" is "Anna",
    "nicht 75 sondern 70" "70"; None when the message is no such thing or `parser` reads no value in Y."""
    m = correction_words().instead.match(fold_same_length(text))
    if m is None:
        return None
    new = text[m.start("new") :].strip(" ,.;:!?")
    found = parser(new)
    return new if found is not None and not isinstance(found, Invalid) else None


def list_taken_back(text: str, parser: Parser) -> str | None:
    """A list said again after words that take the first back, as the list meant: "lunes, miércoles y viernes,
    no, martes, jueves y sábado" is "martes, jueves y sábado" (each item is no short answer taken back alone, as
    "monday, wednesday, sorry, thursday" takes back one day). None when the message says no such thing: the
    list after the cue has two items or more, and `parser` reads a list before it too."""
    folded = fold_same_length(text)
    cues = [*correction_words().taken_back.finditer(folded), *_NO_BETWEEN.finditer(folded)]
    for cue in sorted(cues, key=lambda m: m.start(), reverse=True):
        before = text[: cue.start()].strip(" ,.;:!?-–—…")
        after = text[cue.end() :].strip(" ,.;:!?-–—…")
        if lead := LEADING_NO.match(fold_same_length(after)):
            after = after[lead.end() :]  # "äh nein, Dienstag...": the no only takes back
        if not before or not after:
            continue
        new, old = parser(after), parser(before)
        if isinstance(new, list) and len(new) >= 2 and isinstance(old, list) and old:
            return after
    return None


# a no alone between two pieces of a message ("lunes, miércoles y viernes, no, martes"), as typed and folded
_NO_BETWEEN = re.compile(r"(?<=[,;.…])\s*(?:no+|nope|nein|non|nao)\s*(?=[,;.…])")
