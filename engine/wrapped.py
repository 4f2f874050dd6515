"""An answer wrapped in acknowledgement and politeness, and words that only ask whether the facts will do.

"ok. Sofía" is "Sofía", "english please" "english", "alright, 4 thanks" "4" (`unwrapped`): what may
lead an answer is the filler and acknowledgements of engine/data/commands.yaml and a few of six
languages here, what may trail it the politeness and thanks; a no is never taken off ("no, gluten").
"ok?", "is that alright?", "¿vale?", "thanks!" left after the facts of a message answer no question
(`asks_agreement`). The phrases are engine/said.py's table.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.extract import fold
from engine.said import clause_words, clauses, command_table, segmented

# words that deny: never taken off an answer ("no, gluten" is not "gluten")
_DENIALS = frozenset({"no", "nah", "nope", "non", "nein", "nee", "ne", "whatever"})
# an acknowledgement before an answer, beside the filler: "sure, Sofía", "alright. 4"
# in the learner's own language too: "tá bom, Rafael", "de acuerdo, Lucía", "d'accord, Chloé", "na gut, Jonas"
_ACKNOWLEDGED = frozenset({
    "sure", "alright", "all right", "right", "fine", "cool", "got it", "ok then",
    "de acuerdo", "dale", "va bien", "esta bien", "d'accord", "ok d'accord", "bon d'accord", "entendu",
    "na gut", "also gut", "in ordnung", "alles klar", "va bene", "d'accordo", "ok va bene",
    "ta bom", "tá bom", "ta bem", "tá bem", "esta bem", "está bem", "beleza", "certo",
})  # fmt: skip
_THANKS = frozenset({
    "thanks", "thank you", "thx", "ty", "cheers", "thanks a lot", "thank you so much", "many thanks",
    "gracias", "merci", "danke", "grazie", "obrigado", "obrigada",
})  # fmt: skip


@lru_cache(maxsize=1)
def _wrapping() -> tuple[re.Pattern[str], tuple[tuple[int, frozenset[str]], ...]]:
    """What may lead an answer (a pattern anchored at its start) and what may trail it (phrases,
    folded, taken off its end one at a time: a pattern searched from every position would take
    quadratic time on "please, please, please …"), the phrases by length, longest first: the
    longest that ends a text is one set lookup per length, not one `endswith` per phrase."""
    t = command_table()
    lead = sorted((t.filler - _DENIALS) | _ACKNOWLEDGED, key=len, reverse=True)
    trail = (t.polite - t.filler) | _THANKS
    by_length = tuple(
        (n, frozenset(p for p in trail if len(p) == n)) for n in sorted({len(p) for p in trail}, reverse=True)
    )
    # possessive: a run of punctuation is taken once, never tried again split up
    return re.compile(rf"^\W*+(?:(?:{_alternation(lead)})(?:\W++|$))++", re.I), by_length


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)


def _without_trailing(text: str, phrases: tuple[tuple[int, frozenset[str]], ...]) -> str:
    """`text` without the `phrases` (by length, longest first) at its end (each standing as
    words), as typed."""
    while True:
        stripped = text.rstrip(" \t\n,.!;:")
        folded = fold(stripped)
        size = len(folded)
        if size != len(stripped):  # folding changed the length: compare no further
            return stripped
        cut = next(
            (
                n
                for n, said in phrases
                if n <= size and folded[size - n :] in said and (size == n or not folded[-n - 1].isalnum())
            ),
            None,
        )
        if cut is None:
            return stripped
        text = stripped[:-cut]


def asks_agreement(text: str) -> bool:
    """Whether `text`, what a message leaves after the facts taken from it, only asks whether
    they will do or only thanks: "ok?", "is that alright?", "¿vale?", "thanks!". Such words
    answer no question; "ok" or "sure" without a question mark may (a yes), so they are not it."""
    parts = clauses(text)
    if not parts:
        return False
    t = command_table()
    if all(any(form == "" or form in t.tags for form in forms) for forms in parts) and text.rstrip().endswith("?"):
        return True
    return all(segmented(list(words), t.courtesy, frozenset()) is True for words in clause_words(text))


@lru_cache(maxsize=1024)  # the text's alone; asked of every word answer, and again of what it leaves
def unwrapped(text: str) -> str | None:
    """`text` without the acknowledgements before an answer and the politeness after it, as
    typed: "ok. Sofía" is "Sofía", "english please" is "english", "alright, 4 thanks" is "4";
    None when nothing wraps it (or nothing is left)."""
    lead, trail = _wrapping()
    inner = _without_trailing(lead.sub("", text), trail).strip()
    return inner if inner and inner != text.strip() else None
