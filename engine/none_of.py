"""A "no" that says there is none of something other than what the question asks about.

Every yes/no and optional question reads a message opening with "no" as its no (`read_yes_no`, `declines`):
"no thanks", "no, 7782", "no I don't", "no not really". But "no" before a noun says there is none of that
thing, and answers the question only when the thing is what the question asks about: "no injuries" at the
injuries question is its none, "no target" at the target weight its none, while "no dairy for me" or "no
restrictions, I eat everything" at "do you have a target weight?", and "no gym nearby" at the injuries question,
tell of something else. Such a message is no answer to the question: what it says is read where a slot takes it
(the diet ahead, engine/fill.py), and the question is asked again (engine/reading.py).

What the question asks about is the words of the question as asked, its slot's name and the words that name its
slot (`Ahead.cues`). The "no" is read before a noun in the six languages ("kein", "pas de", "sin", "sem",
"senza", "nessun"...); a noun of another language than English counts only when the engine knows which thing it
names (the kinds of things a none is said of: "keine Einschränkungen" names restrictions), so an unknown word
keeps its old reading, a no.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from engine.echo import echoed
from engine.extract import Empty, fold
from engine.extract import _zipfs as zipfs

# "no" before a noun, in the six languages (folded): English "no" also opens Spanish, Portuguese and Italian
# sentences ("no quiero", "no navegador": in the browser), so after it only an English word counts
_NONE_BEFORE = re.compile(
    r"^(?:(?P<no>no)|kein(?:e|en|er|es)?|pas d'|pas de|sans|aucune?|sin|ningun[oa]?|sem|nenhum[a]?|senza|nessun[oa]?)"
    r"(?:\s+|(?<='))(?P<what>[^\W\d_][\w'-]*(?:\s+[\w'-]+){0,3})"
)
# words after a "no" that leave it a plain no, or an idiom with one: "no I don't", "no not really", "no thanks",
# "no way", "no problem", "no idea", "no need", "no sorry, it's Ana", "no one told me", "no more than 3"; and the
# words that name any question's answer, not a thing of its own ("no specific number in mind", "no particular goal",
# "no preference", "no plans yet")
_PLAIN_AFTER = frozenset({
    "i", "i'm", "im", "i'd", "i've", "ive", "id", "it", "it's", "its", "that", "that's", "thats", "this", "we",
    "you", "he", "she", "they", "there", "here", "not", "never", "no", "nope", "nah", "thanks", "thank", "thx",
    "ty", "way", "problem", "problems", "worries", "worry", "sir", "chance", "need", "idea", "clue", "doubt",
    "sorry", "please", "pls", "plz", "man", "dude", "mate", "bro", "lol", "haha", "just", "really", "actually",
    "but", "because", "cause", "cuz", "and", "or", "so", "still", "one", "longer", "more", "less", "wait", "ok",
    "okay", "yes", "yeah", "yep", "the", "a", "an", "to", "for", "of", "in", "on", "at", "with", "as", "if", "is",
    "was", "what", "why", "how", "when", "who", "comment", "answer", "offense", "offence", "rush", "luck", "time",
    "dice", "kidding", "joke", "big", "matter", "biggie", "pressure", "comprende", "problema", "problemas",
    "probleme", "ahnung", "idee", "dank", "danke", "gracias", "grazie", "merci", "obrigado", "obrigada",
    "embargo", "duda", "dubbio", "doute", "zweifel", "duvida", "sorge", "sorgen", "souci", "preocupacion",
    "specific", "particular", "exact", "certain", "real", "set", "fixed", "definite", "special", "number", "goal",
    "goals", "preference", "preferences", "plan", "plans", "opinion", "other", "such", "any", "particolare",
    "specifico", "especifico", "particulier", "precis", "bestimmt", "bestimmtes", "bestimmten", "konkretes",
    # an outcome, at a question whether something helped ("no change", "no difference", "no improvement")
    "change", "changes", "difference", "improvement", "effect", "success", "progress"
})  # fmt: skip
# the kinds of things a none is said of, in the six languages (the stems `engine.extract.declines` knows), by the
# English word that names each: a noun of another language is compared with the question in English
_KINDS = (
    ("allergy", ("allerg", "alerg")),
    ("intolerance", ("intoleran", "unvertr")),
    ("injury", ("injur", "lesion", "lesao", "lesoe", "blessure", "verletzung", "infortun")),
    ("limitation restriction", ("limitation", "limitacion", "limitaca", "einschrank", "restric", "beschrank")),
    ("problem", ("problem", "issue")),
    ("equipment", ("equipment", "equipo", "equipamento", "ausrustung", "gerat", "attrezz", "materi")),
    ("target goal", ("ziel", "objetivo", "objectif", "obiettivo", "meta")),
    ("weight", ("gewicht", "peso", "poids")),
)
# words no thing is named by: "no dairy for me", "no receipt though"
_FUNCTION = frozenset({
    "for", "me", "my", "the", "a", "an", "to", "of", "in", "on", "at", "with", "please", "pls", "though", "tho",
    "thanks", "thank", "you", "yet", "either", "really", "all", "here", "there", "now", "today", "anymore", "any",
    "more", "nearby", "around"
})  # fmt: skip
# a word counts as English after "no" when it is a word of English at least this common, and no commoner in
# another language the engine reads ("carne", "quiero", "navegador" are not)
_ENGLISH = 2.5


def none_of(text: str) -> str | None:
    """The words naming what a message opening with a "no" before a noun says there is none of ("no dairy for
    me" -> "dairy for me", "keine Einschränkungen" -> "einschrankungen"); None when the no stands alone or in an
    idiom ("no, 7782", "no I don't", "no thanks", "no problem")."""
    first = re.split(r"[,;.!?:()]|\s[-–—]\s", fold(text), maxsplit=1)[0].strip()
    m = _NONE_BEFORE.match(first)
    if m is None:
        return None
    what = m.group("what")
    head = what.split()[0]
    if head in _PLAIN_AFTER or head.rstrip("s") in _PLAIN_AFTER:
        return None
    if m.group("no") is not None:
        zipf = zipfs(head)
        if zipf[0] < _ENGLISH or zipf[0] < max(zipf[1:]):
            return None  # "no quiero", "no meu mac", "no carne": another language's "no"
    return what


def _stems(words: Iterable[str]) -> frozenset[str]:
    # "injury" and "injuries", "charge" and "charged" share their first five letters
    return frozenset(w[:5] for w in words if len(w) >= 3 and w not in _FUNCTION)


@lru_cache(maxsize=512)
def _asked_stems(asked: str) -> frozenset[str]:
    return _stems(re.findall(r"[^\W\d_]+", fold(asked)))


def _named(what: str) -> tuple[frozenset[str], bool]:
    """The stems of the words of `what`, with the English words of the kinds it names; and whether every word
    of it is one the engine can compare with an English question (an English word, or a known kind)."""
    words = [w for w in re.findall(r"[^\W\d_]+", what) if w not in _FUNCTION]
    english: list[str] = []
    known = True
    for w in words:
        kinds = [k for k, stems in _KINDS if any(w.startswith(s) for s in stems)]
        if kinds:
            english += " ".join(kinds).split()
        elif zipfs(w)[0] < _ENGLISH or zipfs(w)[0] < max(zipfs(w)[1:]):
            known = False
        english.append(w)
    return _stems(english), known and bool(words)


def about_other(text: str, asked: str) -> bool:
    """Whether `text` opens with a "no" before words naming something `asked` (the question's words, its slot's
    name and cues) does not: "no dairy for me" at "do you have a target weight?", not "no target"."""
    what = none_of(text)
    if what is None or echoed(asked, text) is not None:
        return False  # a no alone, or one that echoes the question ("no luck" at "did it help?": engine/echo.py)
    stems, known = _named(what)
    return known and not (stems & _asked_stems(asked))


def reads_as_no(found: object, no: object) -> bool:
    """Whether a question's reading of a message (`found`) is the one it gives a plain "no" (`no`): False at a
    yes/no question, the empty value at an optional one, a reader's own none ("none", [])."""
    if isinstance(no, Empty):
        return isinstance(found, Empty)
    return no is not None and type(found) is type(no) and found == no
