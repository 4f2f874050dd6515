"""Names and sentences: the person-name reader, a field's name said alone (`field_named`), and telling a short
sentence from a name (`reads_as_a_sentence`, `plainly_a_word`, with a contraction typed without its apostrophe
read as written: `with_apostrophe`). The word frequencies they weigh are engine/extract.py's (`_zipfs`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from wordfreq.tokens import tokenize

from engine.extract import _FUNCTION_WORD, SENTENCE_LANGUAGES, Invalid, Parser, _zipfs, fold
from engine.given_names import may_be_a_name
from engine.yesno import read_yes_no

_NAME_CUES = re.compile(
    # the cue is case-blind, but a second word counts only when capitalised ("Anna Lena", not "im tired")
    r"\b(?i:my name is|my name's|i am|i'm|im|call me|it's|this is|name is)\s+"
    r"([^\s,.!?;]+(?:\s+[A-Z][^\s,.!?;]*)?)"
)
# the cues after which anything may follow ("I'm tired", "it's late"), unlike "my name is" and "call me"
_WEAK_NAME_CUE = re.compile(r"(?i:i am|i'm|im|it's|this is)\b")
_NOT_NAMES = {"from", "a", "an", "the", "not", "learning", "here", "fine", "good", "ok", "okay",
              "sure", "tired", "later", "maybe", "back", "sorry", "done", "ready", "busy",
              "looking", "interested", "trying", "going", "new", "so", "very", "just"}  # fmt: skip


# words that stand in no name, anywhere in it ("thanks a lot"); name particles ("de", "van", "da",
# "al", "bin") are not among them
_NEVER_IN_A_NAME = frozenset({"a", "an", "the", "is", "are", "am", "to", "for", "of", "it", "this", "that", "you",
                              "me", "my", "lot", "please", "thanks", "thank", "thx", "not", "clue", "idea", "why",
                              "what", "how"})  # fmt: skip


# the small words inside names ("de la", "van der", "bin", "dos")
_NAME_PARTICLES = frozenset({"de", "del", "della", "la", "le", "van", "von", "der", "den", "da", "das", "do", "dos",
                             "di", "du", "y", "e", "bin", "ibn", "al", "el", "ben", "mac", "st"})  # fmt: skip


# a word of one language, not a name: used often there ("wrong" 5.4, "falsch" 5.0, "sbagliato" 4.9) and far less
# in every other; a name is used about as often in all six ("Smith" 4.1-4.9, "Hans" 3.7-5.0, "Jean" 4.2-5.5)
_OWN_WORD = 4.5
_OWN_LEAD = 1.5
# ... and a word that is plainly no name wherever it stands: used far more in one language still
_PLAIN_LEAD = 2.0
_EDGE_PUNCTUATION = '¿¡"“”«».,;:!?()'


def _own_word(row: Sequence[float], lead: float = _OWN_LEAD) -> bool:
    """Whether a word's frequencies (`_zipfs`) make it a word of one language, not a name."""
    six = sorted(row[: len(SENTENCE_LANGUAGES)], reverse=True)
    return six[0] >= _OWN_WORD and six[0] - six[1] >= lead


# a word typed without its apostrophe ("thats", "dont", "cest", "nest") is the contraction it stands for when, in
# one of the six languages, that contraction is among its common words (zipf 5: "what's" 5.2, "won't" 5.3) and
# used far more than the word as typed (by 1.0: "thats" 4.5 against "that's" 5.9); "its" (6.1 against 6.3), "were",
# "well", "ill" and German "im" (6.9, "i'm" 4.1 there) are words as typed
_CONTRACTION = 5.0
_CONTRACTION_LEAD = 1.0
# a word in use in a language (wordfreq's zipf scale): "len" is 3.1-3.4 in each of the six
_IN_USE = 3.0


@functools.lru_cache(maxsize=2048)
def with_apostrophe(word: str) -> str:
    """`word` (lower case) as the contraction it is when typed without the apostrophe: "thats" is "that's", "dont"
    "don't", "cest" "c'est", "nest" "n'est", "youre" "you're"; any other word as it is. People type contractions
    without the apostrophe; a reader that tells a sentence from a name by its words reads them as written."""
    if "'" in word or len(word) < 3 or not word.isalpha():
        return word
    typed = _zipfs(word)
    # a form used in (nearly) every language read is a name or a shared word, not one language's contraction:
    # "jan", "dan", "len", "lan" are names ("Jan van Dijk"), not "j'an", "d'an", "l'en", "l'an"
    if sum(z >= _IN_USE for z in typed[: len(SENTENCE_LANGUAGES)]) >= len(SENTENCE_LANGUAGES) - 1:
        return word
    best, best_lead = word, 0.0
    for i in range(1, len(word)):
        row = _zipfs(f"{word[:i]}'{word[i:]}")
        for lang in range(len(SENTENCE_LANGUAGES)):
            if not _one_word(word[:i], word[i:], SENTENCE_LANGUAGES[lang]):
                continue
            lead = row[lang] - typed[lang]
            if row[lang] >= _CONTRACTION and lead >= _CONTRACTION_LEAD and lead > best_lead:
                best, best_lead = f"{word[:i]}'{word[i:]}", lead
    return best


# what French and Italian elide before a vowel ("c'est", "n'est", "qu'est", "l'ho", "c'è"): wordfreq reads such a
# form as its two words, and any two words joined by an apostrophe ("no'e") would otherwise pass for one
_ELIDED = frozenset({"c", "d", "j", "l", "m", "n", "s", "t", "qu"})


def _one_word(before: str, after: str, lang: str) -> bool:
    """Whether `before'after` is one word of `lang` as wordfreq reads it, or an elision of French or Italian."""
    joined = f"{before}'{after}"
    if tokenize(joined, lang) == [joined]:
        return True
    return lang in ("fr", "it") and before in _ELIDED


def plainly_a_word(word: str) -> bool:
    """Whether `word`, typed in lower case, is a word and no name: far more used in one of the six languages
    than in any other ("wrong", "pas", "falsch", "thats" as "that's"), where a name is used much alike in all
    ("joão" leads by 1.8)."""
    return word.islower() and _own_word(
        _zipfs(with_apostrophe(word.replace("’", "'").strip(_EDGE_PUNCTUATION))), _PLAIN_LEAD
    )


def not_a_name_after_a_weak_cue(word: str) -> bool:
    """Whether `word`, after a cue that may say anything ("I'm", "im", "it's"), says something other than a name:
    a word of one language ("wrong", "pas"), or a word in use typed in lower case that nobody is given as a name
    ("im stuck", "i'm exhausted", "sono confuso"; "im mia", "i'm joão" are names: engine/given_names.py)."""
    return plainly_a_word(word) or (word.islower() and not may_be_a_name(word))


# What may stand around a field's name said alone, in the six languages: an article or a possessive before it
# ("die Zeitzone", "mi nombre", "le fuseau horaire", "il mio livello", "o meu nome"), a please after it
_BEFORE_A_NAME = re.compile(
    r"^(?:the|my|el|la|los|las|mi|mis|le|les|mon|ma|mes|der|die|das|den|dem|mein|meine|meinen|il|lo|gli|i"
    r"|mio|mia|o|a|os|as|meu|minha)\s+|^l'"
)
_AFTER_A_NAME = re.compile(
    r"(?<!\s)\s++(?:please|pls|bitte|por favor|s'il te plait|s'il vous plait|svp|per favore|then)$"
)


def field_named(text: str, names: Mapping[str, Sequence[str]]) -> str | None:
    """The one field of `names` (field: the words that name it, in any language the flow reads) a message names
    and says nothing else of: "Zeitzone", "die Zeitzone", "mi nombre", "le fuseau horaire", "il mio livello".
    At a question asking which fact to change, a field's name is that fact, never a value of another (the German
    "Zeitzone" is no name to rename the user with)."""
    t = fold(text).strip(" .!?¿¡,;:")
    for _ in range(2):  # "o meu", "la mia" are one, "the my" is no one's
        t = _BEFORE_A_NAME.sub("", t, count=1).strip()
    t = _AFTER_A_NAME.sub("", t).strip()
    found = {field for field, said in names.items() if t and t in {fold(n) for n in (*said, field.replace("_", " "))}}
    return found.pop() if len(found) == 1 else None


SENTENCE_NOT_NAME = "That reads as a sentence, not a name. What should I call you?"


def reads_as_a_sentence(words: Sequence[str]) -> bool:
    """Whether a short message that could pass for a name is a sentence of one of the six languages read:
    "das ist falsch", "eso está mal", "c'est faux", "questo è sbagliato", "isso está errado", "that is wrong".

    Two of its words are among the most used of one language, or one is and every other word belongs to one
    language alone (a reader may have put an answer word in English already: "das ist wrong"). One word is
    never a sentence ("Will", "Mal", "Das" are names too), nor words each typed with a capital, as a name is
    ("Will Young"). A name particle ("das", "de la", "van") is no such word, but for the first word in the one
    beside words of one language ("das wrong"): "Le Thi Mai", "Ana de la Cruz" are names.
    """
    if len(words) < 2 or all(w[:1].isupper() for w in words):
        return False
    plain = [w.replace("’", "'").strip(_EDGE_PUNCTUATION).lower() for w in words]
    lead = plain[0] if plain[0] in _NAME_PARTICLES else None
    # a contraction typed without its apostrophe is read as written ("thats wrong", "cest faux", "youre wrong")
    plain = [with_apostrophe(w) for w in plain if w and w not in _NAME_PARTICLES]
    rows = [_zipfs(w) for w in plain]
    for lang in range(len(SENTENCE_LANGUAGES)):
        # a contraction is two words ("c'est", "it's"), used less than each of them ("that's" 5.9, "don't" 6.2):
        # one common contraction is enough
        common = sum(
            2 if "'" in w else 1
            for w, row in zip(plain, rows, strict=True)
            if row[lang] >= (_CONTRACTION if "'" in w else _FUNCTION_WORD)
        )
        if common >= 2:
            return True
        led = lead is not None and _zipfs(lead)[lang] >= _FUNCTION_WORD
        if common + led >= 1 and all(row[lang] >= _FUNCTION_WORD or _own_word(row) for row in rows):
            return True
    return False


def person_name() -> Parser:
    """Names from "my name is X", "I'm X", "call me X", or a bare name: one to three words, or four or
    five typed as a name ("Ana de la Cruz")."""

    def rule(text: str) -> object:
        m = _NAME_CUES.search(text)
        if m:
            words = [w for w in m.group(1).split() if w.lower() not in _NOT_NAMES]
            if words and _WEAK_NAME_CUE.match(m.group(0)) and not_a_name_after_a_weak_cue(words[0]):
                return None  # "it's wrong", "c'est pas ça" (read "I'm pas ça"), "im stuck": the cue may say anything
            if words and words[0][0].isalpha():
                return " ".join(w[:1].upper() + w[1:] for w in words)
            return None
        bare = text.strip().strip(".!")
        tokens = bare.split()
        # four or five words are a name only as one is typed: capitals, or a particle ("Ana de la Cruz",
        # "María José García Ruiz"); up to three may be typed in lower case ("anna lena")
        typed_as_a_name = len(tokens) <= 3 or (
            len(tokens) <= 5 and all(w[:1].isupper() or w.lower() in _NAME_PARTICLES for w in tokens)
        )
        if tokens and typed_as_a_name and all(re.fullmatch(r"[^\W\d_][\w'-]*", w) for w in tokens):
            if tokens[0].lower() in _NOT_NAMES or read_yes_no(tokens[0]) is not None:
                return None
            if any(w.lower() in _NEVER_IN_A_NAME for w in tokens):
                return None  # "thanks a lot", "not a clue": words no name is made of
            if reads_as_a_sentence(tokens):
                # "das ist falsch", "eso está mal": something said about the conversation. Refused, not left
                # undecided: a model asked would propose one of its words ("questo") as the name
                return Invalid(SENTENCE_NOT_NAME)
            if any(w[:1].isupper() for w in tokens):
                return " ".join(tokens)  # typed with capitals: as typed ("Ana de la Cruz", "McKay")
            return " ".join(w[:1].upper() + w[1:] for w in tokens)
        return None

    return Parser(rule, "your name")
