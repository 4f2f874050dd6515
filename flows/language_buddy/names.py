"""Reading a person's name from an answer or from a sentence that gives it ("call me Sam").

(Offline and deterministic.) A reader returns the stored value, `Invalid(reason)` when it can
tell the answer is unusable (the reason is the reprompt, so it says what would work), or None
when it cannot decide (a model may try). The `*_in` helpers find a value inside a longer
sentence only after an explicit cue ("I speak", "call me", "I live in"): they run on every
message of a flow and must not mistake an ordinary answer for a correction.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

from engine.cues import in_english_cues
from engine.extract import Invalid, Parser, fold
from engine.names import SENTENCE_NOT_NAME, not_a_name_after_a_weak_cue, plainly_a_word, reads_as_a_sentence
from flows.language_buddy.languages import language_aliases, nationalities
from flows.language_buddy.non_names import is_placeholder, refusal_reason
from flows.language_buddy.text import trim

# -- names --------------------------------------------------------------------------------

_WORD = r"[^\W\d_][\w'’\-]*"
_STRONG_NAME = re.compile(
    rf"(?:\b(?:my name is|my name's|my names|name is|name's|call me|you can call me|i go by"
    rf"|i'm called|i am called|i’m called)\s+|(?<!\w)name\s*[:=–-]\s*)({_WORD}(?:\s+{_WORD}){{0,3}})",
    re.IGNORECASE,
)
_WEAK_NAME = re.compile(
    rf"(?:^|[\s,.!?;])(?:i am|i'm|i’m|im|this is|it's|it’s|its)\s+({_WORD}(?:\s+{_WORD}){{0,3}})", re.IGNORECASE
)
# "Dan here", "hey, Dan here, english speaker": after a greeting too
_HERE_NAME = re.compile(
    rf"^(?:(?:hi|hey|hello|hiya|heya|yo|ok|okay|hola|hallo|salut|ciao|oi|ola)[,!.\s]+)?({_WORD})\s+here\b",
    re.IGNORECASE,
)
# Words that end a name or show the cue was not about a name ("I'm from", "I'm learning").
_STOP = """a an the and or but from in at on to of for with by so very just not really here there fine good
    great ok okay well new learning looking interested trying going native fluent currently also still back
    i'm im ready excited happy glad sorry tired sure yes no yeah nope hello hi hey thanks thank you your my me i
    is am are was be been living based working studying moving beginner intermediate advanced student
    teacher doing feeling into about totally quite pretty kind sort like want wanna would could can will
    actually now today too as bit little right wrong speaker hoping planning afraid done idk dunno whatever
    why what who how where when skip pass none nothing maybe later called honestly basically anyway hmm
    um uh oh ah cool nice alright perfect awesome true again continue resume con avec mit com instead rather
    please pls plz then it's its that's c'est incorrect faux falsch sbagliato sbagliata errado errada incorrecto
    incorrecta incorreto incorreta"""
# (the last: "no, it's wrong" and "non, c'est faux" at the confirmation judge the profile, and name nobody)
STOP_WORDS = frozenset(_STOP.split())
# Stop words that end a name even when capitalised; others may be name particles ("Nguyễn Văn An").
# "Anna con dos n", "Anne avec un e", "Jonas mit s", "Ana com um n": the spelling said after a name
_BREAKS = "i i'm im and or but from in at to of with my me is am are here the a con avec mit com"
_NAME_BREAKS = frozenset(_BREAKS.split())
GREETINGS = frozenset(
    fold(g)
    for g in ("hello", "hi", "hey", "hiya", "howdy", "yo", "good morning", "good evening", "good afternoon",
              "greetings", "hallo", "hola", "bonjour", "ciao", "servus", "moin")
)  # fmt: skip


def _tidy(words: list[str]) -> str:
    out: list[str] = []
    for w in words:
        f = fold(w)
        if f in STOP_WORDS and (not out or not w[:1].isupper() or f in _NAME_BREAKS):
            break
        out.append(w)
    # all-lowercase chat typing ("max mustermann") is capitalised; a name typed with capitals is
    # kept as typed ("McKay", "María de la Cruz")
    if all(w.islower() for w in out):
        # each part of a joined name too: "jean-luc" -> "Jean-Luc", "o'brien" -> "O'Brien"
        return " ".join(re.sub(r"(^|[-'’])(\w)", lambda m: m.group(1) + m.group(2).upper(), w) for w in out)
    return " ".join(out)


def _not_a_name(word: str) -> bool:
    w = fold(word)
    # "c'est pas ça" (read "I'm pas ça"), "stimmt nicht": a word of one language, typed in lower case
    return w in STOP_WORDS or w in GREETINGS or w in language_aliases() or w in nationalities() or plainly_a_word(word)


def _not_a_name_after_a_cue(word: str) -> bool:
    return _not_a_name(word) or not_a_name_after_a_weak_cue(word)


def name_in(text: str, *, weak: bool, lowercase: bool = False) -> str | None:
    """A name given with a cue: "my name is X", "call me X"; with `weak` also "I'm X" (capitalised).

    The weak cues are only trusted when no name is known yet: "I'm tired" or "I'm German"
    must not rename anybody, so they need a capitalised word that is not a language, unless
    `lowercase` says the message is plainly a self-introduction ("im anna from vienna, i
    speak german").
    """
    if m := _STRONG_NAME.search(text):
        name = _tidy(m.group(1).split())
        return name if name and not is_placeholder(name) else None
    if not weak:
        return None
    for m in [*_WEAK_NAME.finditer(text), *_HERE_NAME.finditer(text.strip())]:
        words = m.group(1).split()
        if (lowercase or words[0][:1].isupper()) and not _not_a_name_after_a_cue(words[0]):
            # later words count only when capitalised: "I'm Max from Berlin" -> "Max"
            kept = _tidy([words[0], *_take_while_capitalised(words[1:])])
            return kept if kept and not is_placeholder(kept) else None
    return None


def _take_while_capitalised(words: list[str]) -> list[str]:
    out = []
    for w in words:
        if not w[:1].isupper() or _not_a_name(w):
            break
        out.append(w)
    return out


def parse_name(text: str) -> object:
    """A name from "my name is X", "I'm X", "call me X", "X here" or a bare one-to-four-word name."""
    cued = name_in(text, weak=True)
    if cued or _STRONG_NAME.search(text):
        return cued  # "call me maybe": the cue was there, and what followed is no name
    # a question back ("why do you need it?") stays undecided: the help text answers it
    if not text.rstrip().endswith("?") and (reason := refusal_reason(text)) is not None:
        return Invalid(reason)
    for m in _WEAK_NAME.finditer(text):
        # "i'm max": lowercase is fine when the question asked for a name
        words = m.group(1).split()
        if not _not_a_name_after_a_cue(words[0]):
            return _tidy(words) or None
    bare = trim(text)
    if fold(bare) in GREETINGS or text.rstrip().endswith("?"):
        return None  # a greeting, or a question back ("why?", "what?"), is not a name
    bare = re.sub(r"^(?:hi|hello|hey)[,!\s]+", "", bare, flags=re.IGNORECASE)
    tokens = bare.split()
    if len(tokens) > 4 or (len(tokens) > 1 and "," in tokens[0]):
        # "Maria, i'm Brazilian and want to learn english": a capitalised name as the message's first clause
        first = bare.split(",", 1)[0].split()
        if (
            1 <= len(first) <= 3
            and all(re.fullmatch(_WORD, w) and w[:1].isupper() for w in first)
            and not _not_a_name(first[0])
        ):
            return _tidy(first) or None
        return None
    if not tokens:
        return None
    if any(ch.isdigit() for ch in bare):
        return Invalid("A name has no digits in it. What should I call you?")
    if not all(re.fullmatch(_WORD + r"\.?", w) for w in tokens):
        return None
    if fold(bare) in GREETINGS:
        return None
    if reads_as_a_sentence(tokens):
        # "das ist falsch", "questo è sbagliato": said about the conversation, nobody's name; refused, not left
        # to a model, which would propose one of its words ("questo")
        return Invalid(SENTENCE_NOT_NAME)
    if _not_a_name(tokens[0]):
        return None
    return _tidy([w.rstrip(".") for w in tokens]) or None


def _check_name(value: str) -> str:
    value = " ".join(value.split())
    if not value or len(value) > 60:
        raise ValueError("a name has 1 to 60 characters")
    if any(ch.isdigit() for ch in value) or not any(ch.isalpha() for ch in value):
        raise ValueError("a name is made of letters")
    if is_placeholder(value):
        raise ValueError(f"{value!r} is not a name")
    return value


PersonName = Annotated[str, AfterValidator(_check_name)]


def person_name() -> Parser:
    return Parser(lambda text: parse_name(in_english_cues(text)), "your name (for example “Max” or “my name is Max”)")
