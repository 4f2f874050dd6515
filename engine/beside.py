"""A command said beside a few words of its own: a cancel, a skip or a put-off with a reason or a fact.

"this is taking too long, cancel", "no target really, move on", "gonna finish this later, gotta cook":
when the first or the last clause is only the command (engine/said.py reads it) and the other
clauses are short, those others as typed, for the read stage (engine/reading.py) to decide whether
they answer the open question; () when the message is no such thing, or a command read by itself.
"""

from __future__ import annotations

from functools import lru_cache

from engine.commandphrases import CLAUSE_MARKS
from engine.said import cancel_phrases, clauses, command_table, opens_with, says_later, says_skip

# a cancel beside words of its own: at most this many other clauses, each this short
_BESIDE_CLAUSES = 2
_BESIDE_WORDS = 10


@lru_cache(maxsize=1024)
def cancel_beside(text: str, activity: str | None = None) -> tuple[str, ...]:
    """The clauses said beside a cancel ("this is taking too long, cancel", "ok stop, i changed my
    mind about all this", "ich will das nicht mehr, abbrechen"): when the first or the last clause
    is only a cancel and the others are not leaving words, those others as typed; () when the
    message is no such cancel (or is a cancel `says_cancel` reads by itself). Whether those words
    answer the open question is the read stage's to decide (engine/reading.py): at "what
    equipment?" they are a reason, at a free-text question they may be the answer."""
    t = command_table()
    pieces = [p for p in CLAUSE_MARKS.split(text) if p.strip()]
    found = clauses(text)
    if len(found) < 2 or len(found) != len(pieces) or len(found) > _BESIDE_CLAUSES + 1:
        return ()
    phrases = cancel_phrases(activity, True)

    def cancels(forms: tuple[str, ...]) -> bool:
        return any(f in phrases for f in forms)

    def leaves(forms: tuple[str, ...]) -> bool:
        return any(not f or f in t.leaving or f in t.putting_off or opens_with(f, t.leaving_openings) for f in forms)

    at = 0 if cancels(found[0]) else len(found) - 1 if cancels(found[-1]) else -1
    if at < 0:
        return ()
    others = [(pieces[i], forms) for i, forms in enumerate(found) if i != at and not leaves(forms)]
    if not others or any(len(forms[0].split()) > _BESIDE_WORDS for _, forms in others):
        return ()
    return tuple(piece.strip() for piece, _ in others)


@lru_cache(maxsize=1024)
def skip_beside(text: str) -> tuple[str, ...]:
    """The clauses said beside a skip ("no target really, move on", "non ho un peso obiettivo, vai avanti"): when
    the first or the last clause is only a skip, the others as typed; () when the message is no such skip (or one
    `says_skip` reads by itself). Whether those words are the open question's none, which the skip then only
    confirms, is the read stage's to decide (engine/reading.py): a skip asked for is a skip all the same."""
    if says_skip(text):
        return ()
    pieces = [p for p in CLAUSE_MARKS.split(text) if p.strip()]
    found = clauses(text)
    if len(found) < 2 or len(found) != len(pieces) or len(found) > _BESIDE_CLAUSES + 1:
        return ()
    skip = command_table().skip

    def skips(forms: tuple[str, ...]) -> bool:
        return any(f in skip for f in forms)

    at = 0 if skips(found[0]) else len(found) - 1 if skips(found[-1]) else -1
    if at < 0:
        return ()
    others = [pieces[i].strip() for i, forms in enumerate(found) if i != at and all(forms)]
    if not others or any(len(w.split()) > _BESIDE_WORDS for w in others):
        return ()
    return tuple(others)


# a reason said beside a put-off is a few words ("gotta cook", "dinner's ready", "my bus is here")
_REASON_WORDS = 4


@lru_cache(maxsize=1024)
def later_beside(text: str) -> tuple[str, ...]:
    """The clauses said beside a put-off ("gonna finish this later, gotta cook", "dinner's ready, let's do the rest
    tomorrow"): when the first or the last clause only puts the thing off (`says_later`) and the others are a few
    words each, those others as typed; () when the message is no such put-off (or one `says_later` reads by
    itself). Whether the open question reads anything from them is the read stage's to decide (engine/reading.py):
    at "what equipment?" they are the reason, at the days question "3, finish later" answers."""
    if says_later(text):
        return ()
    pieces = [p for p in CLAUSE_MARKS.split(text) if p.strip()]
    found = clauses(text)
    if len(found) < 2 or len(found) != len(pieces) or len(found) > _BESIDE_CLAUSES + 1:
        return ()
    at = 0 if says_later(pieces[0]) else len(found) - 1 if says_later(pieces[-1]) else -1
    if at < 0:
        return ()
    others = [pieces[i].strip() for i, forms in enumerate(found) if i != at and all(forms)]
    if not others or any(len(w.split()) > _REASON_WORDS or says_later(w) for w in others):
        return ()
    return tuple(others)
