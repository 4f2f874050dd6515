"""Rule extractors: the offline half of parsing a user turn.

A rule returns the value it read, `None` when it cannot decide (the LLM may try), or
`Invalid(reason)` when it can tell the answer is wrong (the state reprompts with
`reason`; no LLM is asked). The parsed value is then validated by the slot's type.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, time, timedelta

from wordfreq import zipf_frequency

from engine import gloss, hedges, numwords, typos
from engine.cues import fold_same_length, in_english_cues
from engine.numwords import spelled_out
from engine.tables import (
    alternation,
    and_words,
    bound_words,
    for_now_words,
    none_but_words,
    nothing_else_words,
    taken_back_phrases,
)


@dataclass(frozen=True)
class Invalid:
    reason: str
    # the value the reason offers ("Did you mean German?"): a plain yes to it next turn takes it
    suggestion: str | None = None


Rule = Callable[[str], object]
# no value read yet (a rule's None is a value: it read nothing)
_UNREAD = object()

# What each parser read from each text during one turn (engine/turn.py sets it around the read and execute
# stages, and resets it after). A turn asks the open question's parser about the same message in two stages
# (the read stage's answers said again, engine/fill.py `restated`; then the answer itself,
# engine/answering.py), and a reader of several slots runs the parsers inside it once per slot asking: a
# rule reads nothing but its text, so the second asking is the first's answer. Only values that cannot be
# changed by whoever gets them are kept.
READ_THIS_TURN: ContextVar[dict[tuple[int, str], tuple[Parser, object]] | None] = ContextVar(
    "innerloop_read_this_turn", default=None
)


@dataclass(frozen=True)
class Parser:
    """How one state reads an answer: a rule and a description of what it expects."""

    rule: Rule
    expects: str
    llm_hint: str = ""
    # takes any text as its answer (free text): a message that filled other slots is not its answer
    greedy: bool = False
    # a quiz: an answer said as a question ("children?", "b?") is a guess at it, not a question back
    guesses: bool = False
    # the words of the values it reads beyond those `expects` names (the foods of an allergies question, the cities
    # of a timezone question, written as their names are, capitals kept): a word typed a letter or two off one of
    # them is read as it (engine/typos.py), as a word of `expects` is ("penuts", "Lisbn")
    known: frozenset[str] = frozenset()

    def __call__(self, text: str) -> object:
        kept = READ_THIS_TURN.get()
        if kept is None:
            return self._read(text)
        hit = kept.get((id(self), text))
        if hit is not None and hit[0] is self:  # the parser itself kept: its id cannot have been reused
            return hit[1]
        value = self._read(text)
        if value is None or isinstance(value, _KEPT_TYPES):
            kept[(id(self), text)] = (self, value)
        return value

    def reads_plainly(self, text: str) -> bool:
        """Whether `text` is only this question's value, written as the question writes it: one word or whole
        number, nothing around it (`written_as`). Such a message says nothing else a reader could find."""
        return self.plain_value(text) is not None

    def plain_value(self, text: str) -> object:
        """The value `text` is when it reads plainly (`reads_plainly`), else None (no value is written as None)."""
        if self.greedy or _ONE_WORD.fullmatch(text) is None:
            return None
        # `self(text)` written out, its one-word reading first: a plain value is the rule's own, and is then checked
        # once here, not again by `_read` (a rating's "4" went through eight calls of this class to be read)
        kept = READ_THIS_TURN.get()
        key = (id(self), text)
        hit = kept.get(key) if kept is not None else None
        if hit is not None and hit[0] is self:  # the parser itself kept: its id cannot have been reused
            value = hit[1]
            return value if self._plain(text, value) else None
        value = self.rule(text)
        plain = self._plain(text, value)
        if not plain:
            value = self._read(text, value)
        if kept is not None and (value is None or isinstance(value, _KEPT_TYPES)):
            kept[key] = (self, value)
        return value if plain or self._plain(text, value) else None

    def _plain(self, text: str, value: object) -> bool:
        # a word must be one the question names too: a reader that copies words back ("nothign" at the
        # injuries question) has not read them as written
        return written_as(value, text) and (not isinstance(value, str) or fold(text) in _named(self.expects))

    def _read(self, text: str, first: object = _UNREAD) -> object:
        # `first`: the rule's value for `text`, a word alone, when already read (`plain_value`)
        if first is not _UNREAD or (not self.greedy and _ONE_WORD.fullmatch(text)):
            # `_reading`'s first test, here: a plain value is no refusal, so it is returned as it was read
            value = self.rule(text) if first is _UNREAD else first
            if self._plain(text, value):
                return value
            value = self._reading_all(text, value)
        else:
            value = self._reading_all(text)
        # a list reader that keeps the words it does not know keeps a clause of the message as one item ("mein
        # nachbar hat einen ganzen kraftraum", "te lo digo tomorrow"): a list of sentences is no answer (None: the
        # read stage tells what else the message is). Beside a shorter item the clauses stay, for the read stage
        # to weigh the whole ("gonna finish this later, gotta cook" puts it off)
        if type(value) is list and value and not self.greedy and all(self._clause(x, text) for x in value):
            return None
        if isinstance(value, Invalid) and (echoed := _echoes(value.reason, text)):
            return Invalid(_requoted(value.reason, echoed, text), value.suggestion)
        return value

    def _reading(self, text: str) -> object:
        if not self.greedy and _ONE_WORD.fullmatch(text):
            # "4" at a rating, "content" at a menu naming it: the value written as the question writes it has no
            # closing, hedge, typo or other language to read it for (most answers; free text may be a decline)
            value = self.rule(text)
            if self._plain(text, value):
                return value
            return self._reading_all(text, value)
        return self._reading_all(text)

    def _reading_all(self, text: str, first: object = _UNREAD) -> object:
        # a none said with an exception ("none except shellfish", "keine, außer Laktose"): the exception is the answer,
        # read as the question reads any answer; the none before it only says there is nothing more
        if (excepted := none_but(text)) is not None:
            value = self._reading(excepted)
            if value is not None and not isinstance(value, Invalid | Empty | bool) and not self._echo(value, excepted):
                return value
        # a list closed with nothing more ("nuts, nothing else", "Laktose, sonst nichts"): the closing words are
        # no item of it, whichever list question reads them (a reading that is no list keeps the words)
        if (closed := without_closing(text)) != text and closed:
            listed = self._reading(closed)
            if isinstance(listed, list):
                return listed
        value = self._as_typed(text, first)
        if not self.greedy and (marked := _asked_mark(text, value)) is not None:
            # a value put forward as a question ("Sam?", "gluten?"): the mark is no part of it ("gluten?" was the
            # allergy "gluten?", "Sam?" no name); the read stage tells such an answer from a question back
            again = self._as_typed(marked)
            # a yes or a no asked ("ok what now?", "yes?") is the yes/no reader's to tell, which reads its marks
            if again is not None and not isinstance(again, Invalid | bool):
                value = again
        if self.greedy or isinstance(value, Empty) or (hedged := hedges.unhedged(text)) is None:
            return value
        # an answer said unsure ("maybe 4?", "le gluten je crois ?", "Paris, ça marche ?"): the hedge is no part
        # of the value, and read with it the words may give none, or a wrong one; free text keeps its words
        again = self._as_typed(hedged.words)
        if (marked := _asked_mark(hedged.words, again)) is not None:
            unmarked = self._as_typed(marked)
            again = unmarked if unmarked is not None and not isinstance(unmarked, Invalid | bool) else again
        if again is None or isinstance(again, Invalid | Empty):
            return value
        if isinstance(again, bool) and hedged.doubt:
            return value  # "maybe yes", "oui peut-être": a yes or a no said in doubt is unclear, as "maybe" is
        return again

    def _clause(self, item: object, text: str) -> bool:
        """Whether a list's item is a clause of the message copied back: three words or more besides the little
        ones ("a", "el", "die"), none of them a word this question knows, written as the message has them."""
        if not isinstance(item, str):
            return False
        words = [w for w in _COPY_WORDS.findall(fold(item)) if w not in _LITTLE]
        if len(words) < _CLAUSE_WORDS or any(w in self._typo_folded for w in words):
            return False
        said = " ".join(words)
        # as typed, or as its English gloss has it (a list reader reads a message in another language in English)
        return any(
            said in " ".join(w for w in _COPY_WORDS.findall(fold(t)) if w not in _LITTLE)
            for t in dict.fromkeys((text, gloss.in_english(text)))
        )

    def _echo(self, value: object, words: str) -> bool:
        """Whether `value` only copies back words of the message this question does not know: a list of them ("mi
        cuerpo" as equipment from "nada, solo mi cuerpo", "curious" as an allergy from "no, just curious"), or one
        such word: a reader that keeps any words read no value there."""
        said = set(_COPY_WORDS.findall(fold(words)))
        if isinstance(value, list):
            kept = [set(_COPY_WORDS.findall(fold(x))) if isinstance(x, str) else None for x in value]
            return all(got is not None and got <= said and not got & self._typo_folded for got in kept)
        return " " not in words.strip() and copied(value, words, words=1) and fold(words) not in self._typo_folded

    @functools.cached_property
    def _typo_words(self) -> frozenset[str]:
        # one set per parser: `respelled` and its search are cached by it, so it is made once, not per message
        said = typos.words_of(self.expects)
        return said | self.known if self.known else said

    @functools.cached_property
    def _typo_folded(self) -> frozenset[str]:
        return frozenset(w.casefold() for w in self._typo_words)

    def _as_typed(self, text: str, first: object = _UNREAD) -> object:
        # `first`: the rule's value for `text`, when already read
        value = self.rule(text) if first is _UNREAD else first
        if isinstance(value, Empty):
            return value
        spelt = typos.respelled(text, self._typo_words)
        if spelt != text and declines(english := gloss.in_english(spelt)) and not declines(gloss.in_english(text)):
            # only saying there is none, typed a letter off ("kiene", "nenuma", "noen"): the none it says
            again = self.rule(english)
            if again is not None and not isinstance(again, Invalid):
                return again
        if self.greedy and not declines(gloss.in_english(text)):
            return value  # free text keeps the user's own words, read in English only when it says there is none
        return self._in_english(text, value, cues=not self.greedy)

    def _in_english(self, text: str, value: object, *, cues: bool) -> object:
        """The message read again in English, when that reads more: its answer words (engine/gloss.py:
        "venerdì dalle 9 alle 11" gives a day as typed, a day and a time in English), then, when
        neither gave an answer, its cue phrases too (engine/cues.py: "vivo en Valencia" is "I live
        in Valencia"). A refusal of the English reading says more than one of the words as typed."""
        glossed = gloss.in_english(text)
        readings = [glossed] if glossed != text else []
        # first, the words typed a letter or two off a word the engine or this question knows ("begginer",
        # "spansh", "mierkoles", "ningna", "semnas") written right (engine/typos.py), in English and as typed:
        # what the user meant reads before what they typed ("el juevs de 18 a 20h" is a Thursday, not today;
        # "cuarneta y cinco" is 45, not the 5 its one word spelt right says)
        # A refusal that offers the value it takes the words for ("Did you mean German?") has read the typo
        # itself: the flow asks about its own near match rather than taking it
        offered = isinstance(value, Invalid) and value.suggestion is not None
        spelt = typos.respelled(text, self._typo_words) if cues and not offered else text
        if spelt != text:
            readings = [*dict.fromkeys(r for r in (gloss.in_english(spelt), spelt) if r != text), *readings]
        if cues and (value is None or isinstance(value, Invalid)):
            for source in dict.fromkeys((gloss.in_english(spelt), glossed)):
                cued = in_english_cues(source)
                if cued not in (text, source, *readings):
                    readings.append(cued)
            # last, the time words typed a letter off written right ("mon wendsday fri", "evnings")
            if (right := gloss.respelled(glossed)) != glossed:
                readings.append(right)
        refused = value
        # a word typed a letter off one this question knows, written right ("penuts" as "peanuts" at the allergies):
        # a reading with it says what was meant, though a list reader copies it back as it copied the typo
        known = spelt != text and bool(_respelt(text, spelt) & self._typo_folded)
        for reading in readings:
            again = self.rule(reading)
            if again is None:
                continue
            if not isinstance(again, Invalid):
                if (
                    value is not None
                    and not isinstance(value, Invalid)
                    and copied(again, reading, words=1)
                    and not (known and again != value)
                ):
                    continue  # the English only copied back: it reads no more than the words as typed
                return again
            if isinstance(refused, Invalid) and not _echoes(again.reason, text, reading):
                refused = again
        return value if refused is None else refused


def _respelt(text: str, spelt: str) -> frozenset[str]:
    """The words of `spelt` that `text` typed otherwise, lower-cased."""
    return frozenset(_COPY_WORDS.findall(spelt.casefold())) - frozenset(_COPY_WORDS.findall(text.casefold()))


_QUOTED = re.compile(r"“([^”]*)”")
# one word or one whole number, nothing around it
_ONE_WORD = re.compile(r"[^\W_]{1,40}")


@functools.lru_cache(maxsize=512)
def _named(expects: str) -> frozenset[str]:
    return frozenset(fold(w) for w in _ONE_WORD.findall(expects))


def written_as(value: object, text: str) -> bool:
    """Whether `value` is `text` itself: a whole number written in digits ("4" is 4), a word the value is
    ("content" is "content", whatever its case and accents); never a yes or a no, a list or a reading."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return text.isdecimal() and text.isascii() and int(text) == value
    return isinstance(value, str) and fold(value) == fold(text)


def _echoes(reason: str, text: str, *readings: str) -> list[str]:
    """The words a refusal quotes from the engine's English reading of the message rather than from the
    message: read in English, "soy de Valencia" is "I'm from Valencia" and "más o menos" "más o except"; a
    refusal quoting them would put the engine's gloss in the user's mouth. Examples a refusal gives
    (“German”) are no reading's words, so they stay."""
    said = fold(text)
    glossed, cued = gloss.in_english(text), in_english_cues(text)
    # each reading alone, and both ("ich bin ziemlich Anfänger": "I'm" from the cues, "beginner" from the gloss)
    english = [fold(r) for r in (*readings, glossed, cued, in_english_cues(glossed))]
    return [q for q in _QUOTED.findall(reason) if (f := fold(q)) and f not in said and any(f in e for e in english)]


def _requoted(reason: str, echoed: list[str], text: str) -> str:
    """The refusal quoting the message as typed where it quoted the engine's reading of it."""
    typed = text.strip(" .!?")
    for words in echoed:
        reason = reason.replace(f"“{words}”", f"“{typed}”")
    return reason


# several parsers of one turn read the same message (a flow's any-time readers, then the answer): kept per text
@functools.lru_cache(maxsize=1024)
def without_closing(text: str) -> str:
    """`text` without the words that close a list at its end with nothing more, and the "and" or comma before
    them ("nuts and shellfish, nothing else" -> "nuts and shellfish"; engine/data/nothing_else.yaml); `text`
    when it ends in none. Compared at the end only (the folded text keeps `text`'s positions)."""
    folded = fold_same_length(text)
    end = len(folded.rstrip(" .!"))
    # longest first ("rien de plus" before a shorter one inside it): the text's last characters of each
    # length looked up, not every phrase compared (of one length, at most one phrase can end the text)
    for size, phrases in _closings():
        start = end - size
        if start >= 0 and folded[start:end] in phrases and (start == 0 or not _WORDLIKE.match(folded, start - 1)):
            head = text[:start].rstrip(" ,;:-–—")
            # "nuts and nothing else": the "and" (engine/data/and.yaml) that joined the closing words goes too
            rest, _, last = head.rpartition(" ")
            return rest.rstrip(" ,;:-–—") if rest and last.lower() in _ands() else head
    return text


# a list's item of this many words besides the little ones, copied from the message, is a clause: no item
_CLAUSE_WORDS = 3
# the articles and little words of the six languages an item's words are counted without ("a pull-up bar")
_LITTLE = frozenset({
    "a", "an", "the", "of", "my", "some", "un", "una", "unos", "unas", "el", "la", "los", "las", "de", "del", "mi",
    "der", "die", "das", "ein", "eine", "einen", "dem", "den", "des", "mein", "meine", "le", "les", "du", "mon", "ma",
    "mes", "il", "lo", "gli", "i", "uno", "di", "o", "os", "as", "um", "uma", "do", "da", "meu", "minha",
    # and the words that only narrow a list ("just my running shoes", "nur meine Laufschuhe")
    "just", "only", "also", "too", "solo", "solamente", "tambien", "nur", "auch", "juste", "seulement", "aussi",
    "apenas", "so", "tambem", "soltanto", "anche",
})  # fmt: skip
# a none shrugged ("nothing really", "pas vraiment", "eigentlich keine"): the shrug is no part of it
_SHRUGS = re.compile(
    r"\b(?:really|actually|honestly|well|bueno|pues|realmente|la verdad|en fait|vraiment|franchement|eigentlich"
    r"|ehrlich gesagt|also|na verdade|bem|in realta|sinceramente|beh)\b"
)
# a none said as not really having any: a none alone before an exception ("not really, apart from peanuts")
_NOT_REALLY = re.compile(
    r"not really|not much|pas vraiment|pas grand-chose|nicht wirklich|no realmente|no mucho|nao muito|nao realmente"
    r"|non proprio|non molto|non davvero"
)


@functools.lru_cache(maxsize=1024)
def none_but(text: str) -> str | None:
    """The exception of a none said with one, as typed ("none except shellfish" -> "shellfish", "keine, außer
    Laktose" -> "Laktose", "nessuna tranne le noci" -> "le noci"): what follows the words that open it
    (engine/data/none_but.yaml) when all that comes before them says there is none; else None."""
    folded = fold(text).rstrip(" .!")
    for m in _none_but().finditer(folded):
        said = folded[: m.start()].strip(" ,;:-–—")
        head = " ".join(_SHRUGS.sub(" ", said).split()).strip(" ,;:-–—")
        rest = folded[m.end() :].strip(" ,;:-–—")
        if not rest or not (_NOT_REALLY.fullmatch(said) or (head and declines(head))):
            continue
        # the exception's words as typed: folding keeps the words and their count, only their letters change
        typed = text.rstrip(" .!").split()
        return " ".join(typed[len(typed) - len(rest.split()) :]).strip(" ,;:-–—") or None
    return None


@functools.lru_cache(maxsize=1)
def _none_but() -> re.Pattern[str]:
    # longest first ("except for" before "except"); whole words, after a space, a comma or the start
    cues = sorted(none_but_words().all(), key=len, reverse=True)
    return re.compile(rf"(?<![\w'])(?:{'|'.join(re.escape(c) for c in cues)})(?![\w'])")


# read once: every parser asks, and the tables' own methods would be a call into engine/tables.py per message
@functools.lru_cache(maxsize=1)
def _closings() -> tuple[tuple[int, frozenset[str]], ...]:
    """The closing phrases by length, longest first."""
    phrases = nothing_else_words().all()
    sizes = sorted({len(p) for p in phrases}, reverse=True)
    return tuple((n, frozenset(p for p in phrases if len(p) == n)) for n in sizes)


@functools.lru_cache(maxsize=1)
def _ands() -> frozenset[str]:
    return frozenset(and_words().all())


_WORDLIKE = re.compile(r"[\w']")


# "1,000" is a thousand (a thousands separator), "2,5" a decimal comma
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:[.,]\d+)?)(?![\w])")


def fold(text: str, *, accents: bool = False) -> str:
    """Text as it is compared: casefolded, typographic apostrophes straightened, whitespace
    collapsed, and accents stripped unless `accents` (a language answer may hinge on them)."""
    if text.isascii():  # nothing to normalize, and no typographic apostrophe: most messages
        return " ".join(text.casefold().split())
    if accents:
        t = unicodedata.normalize("NFKC", text).casefold()
    else:
        t = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return " ".join(t.replace("’", "'").split())


def _norm(text: str) -> str:
    return fold(text, accents=True)


def numbers(text: str) -> list[float]:
    """Every number said in `text`, as digits or as words in six languages (engine/numwords.py), in order."""
    return written_numbers(spelled_out(text))


def written_numbers(text: str) -> list[float]:
    """The numbers written in digits in `text`, in order ("1,000" a thousand, "2,5" two and a half)."""
    found = [_number(m.group()) for m in _NUMBER.finditer(text)]
    # hundreds of digits overflow to infinity: that is no number a user meant
    return [n for n in found if math.isfinite(n)]


_THOUSANDS = re.compile(r"-?\d{1,3}(?:,\d{3})+")
# "3 out of 5", "two outta five", "trois sur cinq", "drei von fünf": the first is the answer
_OUT_OF = re.compile(r"(?<!\d)(\d++)\s*+(?:/|out of|outta|of|over|sur|su|de|von|em)\s*+(\d+)\b")


@functools.lru_cache(maxsize=1)
def _self_correction() -> re.Pattern[str]:
    """ "fifteen, no wait, sixteen", "4 - I mean 5", "two, maybe three, let's say 3": what follows the last
    of these words is the answer. The words are engine/data/corrections.yaml's (engine/tables.py), read by
    the corrections reader too; matched on the folded text (accents off, as the table is written)."""
    words = sorted({fold_same_length(p) for p in taken_back_phrases()}, key=len, reverse=True)
    return re.compile(rf"(?<![\w'])(?:{'|'.join(re.escape(w) for w in words)})(?![\w'])")


_NEGATED_NUMBER = re.compile(r"\b(?:not|no|nicht|pas|non|n[aã]o)\s+-?\d+(?:[.,]\d+)?\b", re.I)


# the longest number in digits read as one (hundreds of digits overflow to infinity: no number a user meant)
_DIGITS_READ = 15


def said_number(text: str) -> list[float]:
    """The numbers a message gives as its answer: number words read, a scale ("3 out of 5") and a
    number taken back ("15, no wait, 16"; "3 (not 4)") left out. Several distinct ones are unclear."""
    if text.isdecimal() and text.isascii() and len(text) <= _DIGITS_READ:
        return [float(text)]  # "4": most numeric answers
    t = spelled_out(text)
    cues = list(_self_correction().finditer(fold_same_length(t)))  # same length: the spans hold in `t`
    if cues and written_numbers(t[: cues[-1].start()]) and written_numbers(t[cues[-1].end() :]):
        t = t[cues[-1].end() :]
    t = _OUT_OF.sub(lambda m: m.group(1), t)
    kept = _NEGATED_NUMBER.sub(" ", t)
    return _unhedged(written_numbers(kept) or written_numbers(t), t)


# a number said as the most it may be, in the six languages (engine/data/bounds.yaml): "up to 60", "an hour max",
# "como mucho 45", "höchstens 3"; matched on the folded text
_BOUND_BEFORE = alternation(bound_words().before.all())
_BOUND_AFTER = alternation(bound_words().after.all())
# (a unit word may come between, "60 min max"; spaces and the word taken from their first character only, so
# it is linear on a long run of either)
_BOUNDED_AFTER = re.compile(rf"(?<!\s)\s*+(?:(?<![a-z])[a-z]++\s++)?{_BOUND_AFTER}(?![\w'])")
# the bound's words before a number: searched in the few characters before it (the longest phrase and spaces)
_BOUNDED_BEFORE = re.compile(rf"(?<![\w']){_BOUND_BEFORE}\s*+\Z")
_BEFORE_SPAN = max(map(len, bound_words().before.all())) + 4


def bounded(folded: str, start: int, end: int) -> bool:
    """Whether the number (or the length: "an hour") at `start`-`end` of the folded text is said as the most it
    may be: "up to 60", "60 min max", "como mucho 45 minutos", "4 tops" (engine/data/bounds.yaml)."""
    return (
        _BOUNDED_AFTER.match(folded, end) is not None
        or _BOUNDED_BEFORE.search(folded[max(0, start - _BEFORE_SPAN) : start]) is not None
    )


# a number hedged after the answer: "4 maybe 5", "10 or 11", "a 4, maybe 4.5" (the words before it), "3, 4 tops",
# "75, 73 if im ambitious", "3, 4 on a good day" (the words after it), in the six languages; a bound is a hedge
_HEDGE_BEFORE = re.compile(
    # "two or three" alone stays two numbers (tests/corpora/number_words): "or" hedges only with "maybe"
    r"(?<=\d)[\s,;]*+(?:(?:(?:or|o|oder|ou)\s++)?(?:maybe|perhaps|possibly|vielleicht|quizas|quiza|tal vez"
    rf"|a lo mejor|peut-etre|forse|magari|talvez|se calhar|{_BOUND_BEFORE}|{_BOUND_AFTER})[\s,]++)+"
)
_HEDGE_AFTER = re.compile(
    rf"(?<=\d)\s*+(?:[a-z]++\s++)?(?:{_BOUND_AFTER}(?![\w'])|at best|if\b|on a good\b|when\b|si\b|wenn\b"
    r"|falls\b|se\b|au mieux|quando\b|cuando\b|quand\b"
    # the answer hedged as a whole after its second number: "10 or 11, not sure"
    r"|,?\s*(?:not sure|no idea|i think|i guess|no se|no estoy segur|je sais pas|pas sur|weiss nicht|nicht sicher"
    r"|non so|non sono sicur|nao sei|nao tenho certeza))"
)


# numbers joined as alternatives or a range: "3 or 4", "3-4", "3 to 4" (spaces from their first: linear)
_ALTERNATIVE = re.compile(r"(?<!\s)\s*+(?:(?:or|o|ou|oder|to|a|bis)\s++|[-–/]\s*+)")


def _unhedged(found: list[float], t: str) -> list[float]:
    """The first number alone when every later one is hedged ("maybe 3, 4 tops": 3), the one number said that is
    no bound when the others are ("45, up to 60": 45), else `found`."""
    if len({*found}) < 2:
        return found
    spans = [m for m in _NUMBER.finditer(t) if math.isfinite(_number(m.group()))]
    if len(spans) != len(found):
        return found
    folded = fold_same_length(t)
    bound = [bounded(folded, m.start(), m.end()) for m in spans]
    # a bound spans the numbers it joins as alternatives ("up to 3 or 4", "3-4 max"): none of them is said freely
    for _ in range(2):
        for i, (prev, m) in enumerate(itertools.pairwise(spans)):
            if (bound[i] or bound[i + 1]) and _ALTERNATIVE.fullmatch(folded, prev.end(), m.start()):
                bound[i] = bound[i + 1] = True
    free = {n for n, b in zip(found, bound, strict=True) if not b}
    if len(free) == 1:
        return [free.pop()]
    for prev, m in itertools.pairwise(spans):
        if not (_HEDGE_BEFORE.fullmatch(folded, prev.end(), m.start()) or _HEDGE_AFTER.match(folded, m.end())):
            return found
    return found[:1]


_EMBEDDED_NUMBER = re.compile(r"(?<=[<>='`\\])\s*+\d+|(?<!\d)\d++(?=\s*[<>='`\\])|(?<=\w\()\d++(?=\))")


def without_embedded_numbers(text: str) -> str:
    """`text` without the digits that stand inside markup or quoted code ("<b>1</b>", "' OR '1'='1")."""
    return _EMBEDDED_NUMBER.sub(" ", text)


def _number(written: str) -> float:
    if _THOUSANDS.fullmatch(written):
        return float(written.replace(",", ""))
    return float(written.replace(",", "."))


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                 "twenty")  # fmt: skip


def _misspelt_number(text: str) -> list[float]:
    """A number word typed wrong, when it is the whole message ("thre", "fourr", "sevn"): the number whose
    word is spelled closest, if close enough. A word of English ("tree", "for", "ate") is that word."""
    word = fold(text).strip(" .!?")
    if not (3 <= len(word) <= 9 and word.isalpha() and word.isascii()) or _zipfs(word)[0] >= _A_WORD:
        return []
    close = difflib.get_close_matches(word, _NUMBER_WORDS, n=1, cutoff=0.8)
    return [float(_NUMBER_WORDS.index(close[0]))] if close else []


def integer(lo: int | None = None, hi: int | None = None, unit: str = "") -> Parser:
    span = f" from {lo} to {hi}" if lo is not None and hi is not None else ""
    expects = f"a whole number{span}{' ' + unit if unit else ''}"

    def rule(text: str) -> object:
        found = said_number(text) or _misspelt_number(text)
        if not found:
            return None
        if len({*found}) > 1:
            return Invalid(f"I read several numbers there; please give just one, {expects}.")
        value = found[0]
        if value != int(value):
            return Invalid(f"Please give {expects}.")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return Invalid(f"{int(value)} is out of range; please give {expects}.")
        return int(value)

    return Parser(rule, expects)


def rating(lo: int = 1, hi: int = 5) -> Parser:
    """Ratings like "4", "4/5", "4 out of 5", "four stars", "★★★★", and "8/10" on a 1-5 scale."""
    base = integer(lo, hi)

    def rule(text: str) -> object:
        stars = text.count("★") or text.count("⭐")
        if stars:
            return base(str(stars))
        if text.isdecimal():
            return base(text)  # "4"
        # a digit inside markup or quoted code ("<b>1</b>", "' OR '1'='1") is no rating
        text = spelled_out(without_embedded_numbers(text))
        m = _OUT_OF.search(text.lower())
        if m:
            given, scale = int(m.group(1)), int(m.group(2))
            if scale == hi:
                return base(m.group(1))
            if scale > 0 and 0 <= given <= scale:
                value = given * hi / scale
                if value == int(value) and lo <= value <= hi:
                    return int(value)  # 8/10 on a 1-5 scale is 4: the same judgement, said on another scale
                return Invalid(f"{given}/{scale} falls between two points here; please rate from {lo} to {hi}.")
            return Invalid(f"Please rate on a scale from {lo} to {hi}.")
        return base(text)

    return Parser(rule, f"a rating from {lo} to {hi}")


_PUT_FORWARD_WORDS = 3
_CLAUSE_MARK = re.compile(r"[,.;:!?¿¡]")


def _asked_mark(text: str, value: object) -> str | None:
    """`text` without the question marks it ends with, where reading it with them gave no value or kept them in
    it ("Sam?" no name, "gluten?" the item "gluten?"); None where it ends in none or the value is without them."""
    if "?" not in text:
        return None  # most messages, each read by several parsers: no mark to take off
    bare = text.rstrip().rstrip("?").rstrip()
    # a value alone: a few words and no other clause ("I'd say 4, is that normal?" asks its own question, which a
    # reader of comments leaves alone)
    if bare == text.rstrip() or not bare or len(bare.split()) > _PUT_FORWARD_WORDS or _CLAUSE_MARK.search(bare):
        return None
    if value is None or isinstance(value, Invalid) or "?" in str(value):
        return bare
    return None


# words that rule out a preference said after them, in the six languages: "anything but mornings",
# "not in the morning", "i dont want to bulk", "rather than running", "sauf le soir". Not "no" nor
# "without": "no dairy", "sem glúten" at a question of what to avoid say the answer itself.
RULED_OUT_CUES = (
    r"not|never|anything but|everything but|except|but not|rather than|instead of"
    r"|(?:do not|don'?t|dont) (?:want|like)(?: to)?|jamais|sauf|nunca|excepto|tranne|exceto"
    # the other languages' "not" before the option ("não de manhã", "non la mattina", "keine Hanteln",
    # "no soy principiante"): "no" only with a verb, "no dairy" says an answer where what to avoid is asked
    r"|n[aã]o|non|nicht|kein|keine|keinen|pas|ni|no (?:soy|estoy|es|quiero|me gusta)"
    r"|n[aã]o (?:sou|estou|quero|gosto de)"
    r"|non (?:sono|voglio|mi piace)|ich bin (?:nicht|kein|keine)|ich will (?:nicht|kein|keine)|je ne suis pas"
    # "cualquier día menos el domingo", "jeder Tag außer Sonntag"; "menos de 30" is less than 30
    r"|menos(?! de\b)|ausser|außer"
)
_RULED_OUT_BEFORE = re.compile(
    rf"(?<![\w'])(?:{RULED_OUT_CUES})\s{{1,3}}(?:(?:es|é|è|est|ist|era|foi)\s{{1,3}})?"  # "não é google play"
    r"(?:(?:in|on|at|during|en|am|im|por|di|de|da)\s{1,3})?"
    r"(?:(?:the|a|an|any|le|la|les|el|los|las|der|die|das|il|o|os)\s{1,3})?\Z"
)


_RULED_OUT_CUE = re.compile(rf"(?<![\w'])(?:{RULED_OUT_CUES})(?![\w'])")


def ruled_out(text: str, start: int) -> bool:
    """Whether the words just before `start` rule out what `text` says from there ("anything but
    mornings", "not in the morning"); "not sure, maybe mornings" answers, with its comma."""
    return _RULED_OUT_BEFORE.search(text[max(0, start - 30) : start]) is not None


def choice(options: Mapping[str, Sequence[str]], cutoff: float = 0.75, fuzzy: bool = True) -> Parser:
    """One of `options` (value -> synonyms): by exact word, synonym, or (`fuzzy`) a close spelling."""
    vocab = {value: [value, *syns] for value, syns in options.items()}
    listed = ", ".join(options)
    # what a message to the user calls an option: its value as words ("fat_loss" is "fat loss")
    shown = {value: value.replace("_", " ") for value in options}
    # compiled once per parser: a turn runs these on every answer
    patterns = {value: re.compile(_whole_words(w.lower() for w in words)) for value, words in vocab.items()}
    flat = {w.lower(): value for value, words in vocab.items() for w in words}
    # one pass that fails fast on the common answer naming no option at all (free text)
    named = re.compile(_whole_words(flat))
    # an answer that is one option's word and nothing else ("content" at a menu naming it, most answers) is read
    # by the search below once per parser, and its option kept: the search reads nothing but the words
    plain: dict[str, str] = {}

    def rule(text: str) -> object:
        t = _norm(text)
        kept = plain.get(t)
        if kept is not None:
            return kept
        found = searched(t)
        if isinstance(found, str) and t in flat:
            plain[t] = found
        return found

    def searched(t: str) -> object:
        if not named.search(t):
            return _closest(t, flat, cutoff) if fuzzy else None
        # the words that rule something out name no option themselves: "anything but mornings" is no "anything"
        cues = [m.span() for m in _RULED_OUT_CUE.finditer(t)]
        spans = {
            value: [m.span() for m in pattern.finditer(t) if not _covered(m.span(), cues)]
            for value, pattern in patterns.items()
        }
        spans = {value: found for value, found in spans.items() if found}
        # an option only ruled out ("anything but mornings") is no choice of it
        refused = {value for value, found in spans.items() if all(ruled_out(t, a) for a, _ in found)}
        spans = {value: found for value, found in spans.items() if value not in refused}
        if refused and not spans:
            others = [o for o in options if o not in refused]
            named_out = " or ".join(shown[o] for o in sorted(refused))
            return Invalid(f"So not {named_out}: which one, then ({', '.join(shown[o] for o in others)})?")
        # "play store" names one option even though its "store" alone would name another:
        # an option whose every match lies inside another option's longer match does not count
        hits = {
            value
            for value, found in spans.items()
            if not all(_covered(span, [o for k, os in spans.items() if k != value for o in os]) for span in found)
        }
        if len(hits) == 1:
            return hits.pop()
        if len(hits) > 1:
            # names only the options it matched: the reprompt after it lists them all (once)
            *first, last = (shown[o] for o in sorted(hits))
            return Invalid(f"That matches more than one option ({', '.join(first)} and {last}).")
        # nor is a spelling close to an option: the cue's words are the cue's
        return _closest(_RULED_OUT_CUE.sub(" ", t) if cues else t, flat, cutoff) if fuzzy else None

    return Parser(rule, f"one of: {listed}")


# how often an English word must be used (wordfreq's zipf scale) to be a word rather than a typo:
# "none" is 5.3; typos ("beginer", "intermidiate") are near 0
_A_WORD = 3.0


_NOT_A_LETTER = "¿¡\"'“”‘’«»(-–—.,;:!? "


def _closest(t: str, flat: Mapping[str, str], cutoff: float) -> str | None:
    """The option whose word is spelled closest to the answer or one of its words, if close enough."""
    # each distinct word once, and the options within reach of each length once: a long message
    # of the same few words would otherwise compare every one of its words with every option
    by_length: dict[int, list[str]] = {}
    for token in dict.fromkeys([t, *t.split()]):
        if token not in flat and " " not in token and _zipfs(token)[0] >= _A_WORD:
            # an English word ("none") is no misspelling of an option ("tone"); a word of another
            # language may be its cognate ("vegetariano", "contenuti"), which the spelling finds
            continue
        n = len(token)
        near = by_length.get(n)
        if near is None:
            # difflib's ratio is at most 2*min(n, m)/(n + m): words of far-off length cannot reach cutoff
            near = by_length[n] = [w for w in flat if 2 * min(n, len(w)) >= cutoff * (n + len(w))]
        # a slip keeps the first letter, or swaps the first two (as engine/typos.py reads a typo): "esta" is no
        # "test", "mal" no "email"
        lead = token.lstrip(_NOT_A_LETTER)[:2]  # "¿vegano?" starts with its "v"
        starts = [w for w in near if w[:1] == lead[:1] or w[:2] == lead[::-1]]
        close = difflib.get_close_matches(token, starts, n=1, cutoff=cutoff) if starts else []
        if close:
            return flat[close[0]]
    return None


def _whole_words(words: Iterable[str]) -> str:
    """A pattern for any of `words` standing as whole words.

    The lookarounds sit outside the alternation: written around each word instead, they
    stop the regex engine from skipping ahead and make a search some 25 times slower.
    """
    return rf"(?<!\w)(?:{'|'.join(re.escape(w) for w in words)})(?!\w)"


def _covered(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    """Whether `span` lies inside a strictly longer span of `others`."""
    a, b = span
    return any(lo <= a and b <= hi and hi - lo > b - a for lo, hi in others)


# words that stand for words ("bla bla", "lorem ipsum", "stuff"): a message of only these says nothing
_PLACEHOLDERS = frozenset(
    {"bla", "blah", "blabla", "blablabla", "yada", "yadda", "lorem", "ipsum", "asdf", "qwerty", "xyz", "foo",
     "etc", "whatever", "stuff", "something"}
)  # fmt: skip
# the letter rows of a keyboard, and the languages whose words count as words (wordfreq's lists): read by
# the mash tests here and in flows/language_buddy/non_names.py, and by engine/said.py
KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
WORD_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl")


def _mash(word: str) -> bool:
    """Keyboard noise ("asdfgh", "sdfsdf", "xzqk"): no word in any language we read, and typed
    along a row, repeating itself, or without a vowel. A word of free text, not a name: names repeat
    ("Lolo", "Juju") and may lack a vowel ("Pwll"), so the name question has its own, narrower test
    (flows/language_buddy/non_names.py keyboard_mash)."""
    if any(zipf_frequency(word, lang, wordlist="small") >= 1.0 for lang in WORD_LANGUAGES):
        return False
    along_a_row = any(word[i : i + 4] in row for row in KEYBOARD_ROWS for i in range(len(word) - 3))
    return along_a_row or re.fullmatch(r"(.{1,3})\1+.{0,2}", word) is not None or not re.search("[aeiouy]", word)


# a free-text answer is judged by its words (word frequencies in seven languages, the keyboard rows)
# twice a turn (the parser, then its copy in English): a function of the text alone, kept per text
@functools.lru_cache(maxsize=1024)
def no_content(text: str) -> bool:
    """Whether `text` carries no words at all: placeholders ("bla bla", "lorem ipsum") or
    keyboard noise ("asdfgh"). A digit, a word of a script we cannot judge, or any real or
    unknown-but-plausible word (a brand: "Tasklane") is content."""
    t = fold(text)
    if re.search(r"\d", t):
        return False
    tokens = re.findall(r"[^\W\d_]+", t)
    if not tokens or any(not tok.isascii() for tok in tokens):
        return False
    return " ".join(tokens) in _PLACEHOLDERS or all(tok in _PLACEHOLDERS or _mash(tok) for tok in tokens)


def free_text(min_chars: int = 2, *, words: bool = True) -> Parser:
    """Any words, kept as written; too short, or (`words`) no words at all ("bla bla",
    "asdfgh"), is refused. `words=False` where an answer need not be words (a formula: "dy/dx")."""

    def rule(text: str) -> object:
        t = text.strip()
        if len(t) < min_chars:
            return Invalid(f"Could you say a little more (at least {min_chars} characters)?")
        if words and no_content(t):
            return Invalid("That doesn't tell me anything yet; could you say it in a few words?")
        return t

    return Parser(rule, "a few words in your own words", greedy=True)


@dataclass(frozen=True)
class Empty:
    """An answer that declines an optional question ("none", "n/a"): it answers the question,
    and the slot takes its empty value (None; [] for a list), never the word."""


EMPTY = Empty()
# values a turn may hand twice (`READ_THIS_TURN`): none can be changed in place by the one it is handed to
_KEPT_TYPES = (str, int, float, Invalid, Empty, date, time, timedelta)
# a none said for now ("none for now", "aucune pour l'instant", "im Moment keine", "per ora nessuna"): still the none
# the question takes. "not now" alone says no none: it puts the question off (engine/said.py, docs/understanding.md)
FOR_NOW = alternation(for_now_words().all())  # engine/data/for_now.yaml
# the kinds of thing a none is said of ("nenhuma alergia", "keine Verletzungen", "pas d'équipement"), word starts
_KINDS = (
    r"(?:allerg|alerg|intoleran|unvertr|injur|lesion|lesao|lesoe|blessure|verletzung|infortun|limitation|limitacion"
    r"|limitaca|einschrank|problem|issue|restriction|equipment|equipo|equipamento|ausrustung|gerat|attrezz|materi)\w*"
)
# (?<!\w): it is matched whole (`declines`); a scan from inside a word would run a kind's \w* to its end at every letter
_DECLINES = re.compile(
    rf"(?<!\w)(?:{FOR_NOW},? )?(?:"
    r"(?:none|no|nope|nah|n/?a|n\.a\.?|not applicable|nothing|nothing at all|none at all|no thanks|"
    r"no thank you|i don'?t have (?:one|any)|i have none|there is none|there isn'?t one|-+)"
    # having nothing, said in a sentence and in the six languages, maybe with where ("no tengo nada en
    # casa", "ich habe nichts zu hause", "i don't have anything at home")
    r"|(?:i (?:don'?t|do not) (?:really )?have (?:anything|any|one)|i have nothing|i'?ve got nothing|i got nothing"
    r"|no tengo(?: nada)?|je n'?ai rien|j'?ai rien|je n'?en ai pas|ich habe? (?:nichts|keine?s?)"
    r"|non ho (?:niente|nulla)|nao tenho(?: nada)?)"
    r"(?:\s+(?:at home|here|at all|really|en casa|a la maison|chez moi|zu hause|daheim|a casa|em casa))?"
    # the word for none in the six languages, with the kind of thing there is none of ("nenhuma alergia", "pas
    # d'allergie", "keine Verletzungen"), or with "that I know of" ("none that i know of", "ninguna que yo sepa")
    r"|(?:(?:none|nothing|no|ninguna|ninguno|ningun|nada|sin|keine?|keins|nichts|aucune?|rien|pas d'?|pas de"
    rf"|nessuna|nessuno|nessun|niente|nulla|nenhuma|nenhum|sem)(?:(?:\s+(?:\w+\s+)?|(?<=')){_KINDS})?"
    # ... and the kind first, the none after it ("Allergien hab ich keine", "allergies: none", "alergias no
    # tengo", "allergie non ne ho", "des allergies, je n'en ai pas", "lesões não tenho")
    rf"|(?:(?:any|des|les|los|las|die|gli|le|os|as)\s+)?{_KINDS}[\s,.:;?!-]+(?:(?:(?:hab|habe) ich|i have|i'?ve got"
    r"|i got|j'?en ai|ho|tengo|tenho)\s+)?(?:none|(?:gar )?keine?|keins|ninguna|ninguno|nessuna|nessuno|aucune?"
    r"|nenhuma|nenhum|nada|niente|nulla|rien)"
    rf"|(?:(?:any|des|les|los|las|die|gli|le|os|as)\s+)?{_KINDS}[\s,.:;?!-]+"
    r"(?:no tengo(?: ninguna| ninguno)?|nao tenho(?: nenhuma| nenhum)?|non ne ho(?: nessuna)?"
    r"|je n'?en ai pas|j'?en ai pas|je n'?en ai aucune?|i have none|i don'?t have any|there are none|ich habe? keine?)"
    r"|(?:none|nothing|not)(?: that)? i know of"
    r"|que (?:yo )?sepa|soweit ich weiss|che io sappia|que eu saiba|que je sache"
    # nothing wrong, said of the body or the question ("all good, nothing hurts", "nothing to report")
    r"|(?:(?:all good|all fine|i'?m (?:all )?(?:good|fine))\s*,?\s*)?nothing (?:hurts|wrong(?: with me)?|bothers me"
    r"|to report))"
    # "nothing really", "none at all really": the none said with a shrug
    r"(?:\s+(?:que (?:yo )?sepa|soweit ich weiss|che io sappia|que eu saiba|que je sache|that i know of|at all"
    r"|really))?"
    rf")(?:,? {FOR_NOW})?"
)


_COPY_WORDS = re.compile(r"[\w'-]+")


def copied(value: object, typed: str, *, words: int = 2) -> bool:
    """Whether a parser's value only copies a message of `words` words or more back (an any-text
    parser's "answer": "thanks so far" as the equipment, "Monday" as it), rather than reading a
    value out of it; in the message's English gloss too."""
    said = _COPY_WORDS.findall(fold(typed))
    if len(said) < words:
        return False
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, str) or not said:
        return False
    got = _COPY_WORDS.findall(fold(value))
    # a parser reads a message in another language in its English gloss ("lunes miércoles" is
    # "monday wednesday" to the allergies reader): a copy of the gloss is a copy too
    return got == said or ((english := gloss.in_english(typed)) != typed and got == _COPY_WORDS.findall(fold(english)))


# asked of every free-text answer and of every optional question's answer, often twice a turn for
# the same text (the rule, then `Parser` on its English): a function of the text alone, kept per text
@functools.lru_cache(maxsize=1024)
def declines(text: str) -> bool:
    """Whether the whole message says there is nothing to give: "none", "no", "n/a", "nothing"."""
    t = re.sub(r"[.!\s]+$", "", fold(text))
    return _DECLINES.fullmatch(t) is not None


def optional(parser: Parser) -> Parser:
    """`parser`, where a message that declines ("none", "no", "n.a.", "nothing") is `EMPTY`."""

    def rule(text: str) -> object:
        return EMPTY if declines(text) else parser(text)

    expects = parser.expects if "none" in parser.expects else f"{parser.expects}, or “none”"
    return Parser(rule, expects, parser.llm_hint, parser.greedy)


# wordfreq's zipf from which a word is among the most used of a language: copulas, pronouns, demonstratives,
# negations ("ist" 7.1, "das" 7.2, "está" 6.2, "questo" 6.5, "è" 7.1, "is" 7.1). Given names stay below it
# (Maria 5.2, Jean 5.5, Peter 5.1), but for a few ("Will", "Mal", "An", "Ma"): hence two such words, or one
# beside words of that language only
_FUNCTION_WORD = 6.0
# the languages read; `_zipfs` holds them first, in this order
SENTENCE_LANGUAGES = ("en", "de", "fr", "es", "it", "pt")
# VADER's lexicon is English: "die" in "Ich will die App bewerten" is not a death
_OTHER_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl")


def _reads_as_english(text: str) -> bool:
    table = [_zipfs(w) for w in re.findall(r"[^\W\d_]+", text)]
    english = sum(z[0] for z in table)
    return all(english >= sum(z[i] for z in table) for i in range(1, len(_OTHER_LANGUAGES) + 1))


@functools.lru_cache(maxsize=1024)
def _zipfs(word: str) -> tuple[float, ...]:
    """`word`'s frequency in English, then in each of `_OTHER_LANGUAGES`: one cached row per
    word, where each lookup otherwise tokenizes the word again (seven times per word)."""
    return tuple(zipf_frequency(word, lang, wordlist="small") for lang in ("en", *_OTHER_LANGUAGES))


def warm_up() -> None:
    """Load the word-frequency tables now, not on the first message that needs them.

    A server, or a parent process that forks workers, calls this once at start. Loaded on a
    message, they cost seconds inside its turn, while the session's other writers wait.
    """
    _reads_as_english("warm up")
    numwords.warm_up()  # the number reader's tables, in each of its languages
    gloss.warm_up()  # the answer words of other languages
