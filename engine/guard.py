"""What a model's output must keep, checked before anything it says or reads is used.

Phrasing may reword a template; it may not drop or add facts. `phrase_problem` says why a
phrased reply cannot stand (empty, far too long, in another language than the user writes,
or missing the template's options, numbers, names, quoted strings, marked parts or its
question); the turn then says the template. A template may mark what must survive with
[[double brackets]] (shown without them).

Parsing may read; it may not invent. `parse_problem` says why a parsed value is not
consistent with the message: a number the message does not contain (as digits or as a
number word in a language text2num reads), a choice with no evidence in the message, or a
yes/no from a message that hedges ("maybe", "not sure"). What a model may decide is written in the
docs/model.md ("What the model decides, and what it may not").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel
from wordfreq import zipf_frequency

from engine.extract import fold, numbers, without_embedded_numbers, written_numbers
from engine.numwords import detect_language as detect_language  # its home: the readers ask it too (engine/typos.py)
from engine.numwords import in_every_language
from engine.yesno import hedged, read_yes_no

MARKED = re.compile(r"\[\[(.+?)\]\]")
_QUOTED = re.compile(r"\"([^\"]{1,80})\"|“([^”]{1,80})”|'([^'\s][^']{0,78}[^'\s])'(?!\w)")
# "bug, latency, content, usability or other": every option of a listed choice
# (a list starts at a word that is not itself a listed item: searched from every item of a
# long list, each start would rescan the rest of it)
_LISTED = re.compile(
    r"((?<![\w'-])(?<![\w'-], )(?:[\w'-]++(?: [\w'-]++)?, )+[\w'-]++(?: [\w'-]++)?,? (?:or|and) [\w'-]++(?: [\w'-]++)?)"
)
# a capitalised word inside a sentence (after a lower-case word): a name, a product, a
# language ("which Android version", "buy Premium"); sentence and line openers are not names
_NAME = re.compile(r"(?<=[a-z,;] )([A-Z][a-zA-Z]+(?:[ -][A-Z][a-zA-Z]+)*)")
# the languages a phrasing may be asked in: those `language` tells apart
LANGUAGE_NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
}
# how much longer than its template a phrasing may be before it is a ramble, not a rewording
MAX_GROWTH = 3.0
# A message this short that the rules cannot read as yes or no is not one a model may read so
TERSE_WORDS = 2
# a main-conversation reply is asked for in three sentences at most
MAX_REPLY_CHARS = 600
MAX_EXTRA_CHARS = 240
# where a sentence ends: its mark and any closing quote or bracket, before a space or the end; or a line's end
# (a list's items end no sentence)
_SENTENCE_END = re.compile(r"[.!?…。！？][\"'”’»)\]*]*+(?=\s|$)|\n")


def sentence_end(text: str) -> int:
    """Where `text`'s last whole sentence ends (the index just after it); 0 when none ends in it."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return ends[-1] if ends else 0


def whole_sentences(text: str, limit: int = MAX_REPLY_CHARS) -> str:
    """A reply the model wrote too long, or stopped at its token limit, cut to at most `limit`
    characters where a sentence ends, so that it never ends mid-sentence. A text with no sentence
    end in reach is cut after its last whole word (the one it stopped in may be half written),
    with an ellipsis saying so."""
    head = text[:limit].rstrip() if len(text) > limit else text.rstrip()
    end = sentence_end(head)
    if end:
        return head[:end].rstrip()
    words = head[: limit - 1].rsplit(maxsplit=1)[0] if " " in head else head[: limit - 1]
    return words.rstrip(" ,;:-–—") + "…"


def unmark(template: str) -> str:
    """The template as said: [[marks]] removed, their text kept."""
    return MARKED.sub(r"\1", template)


def must_keep(template: str) -> list[str]:
    """The facts a phrasing of `template` must still carry, as they appear in it."""
    facts = [m.group(1) for m in MARKED.finditer(template)]
    text = unmark(template)
    facts += [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]
    for m in _LISTED.finditer(text):
        facts += [item.strip() for item in re.split(r",| or | and ", m.group(1)) if item.strip()]
    facts += _names(text)
    # a bot's own text: its digits are its facts, and its number words only when it has no digits
    facts += [_number_text(n) for n in (written_numbers(text) or numbers(text))]
    seen: dict[str, None] = {}
    for f in facts:
        seen.setdefault(f, None)
    return list(seen)


def phrase_problem(
    template: str, reply: str, user_text: str = "", *, facts: bool = True, language: str | None = None
) -> str | None:
    """Why `reply` may not stand for `template`; None when it may.

    `facts`: the template is a flow's (a question, a reprompt, a closing), whose content the
    phrasing must carry. The main conversation's reply is the model's own, held only to
    being said at all, briefly. `language`: the phrasing was asked in that language (a code
    of LANGUAGE_NAMES), whatever the user writes in.
    """
    said = unmark(template)
    if not reply.strip():
        return "the phrasing is empty"
    limit = max(len(said) * MAX_GROWTH, len(said) + MAX_EXTRA_CHARS) if facts else MAX_REPLY_CHARS
    if len(reply) > limit:
        return f"the phrasing is {len(reply)} characters for a {len(said)}-character template (at most {limit:.0f})"
    if facts:
        lost = [f for f in must_keep(template) if not _carries(reply, f)]
        if lost:
            return "the phrasing lost " + ", ".join(repr(f) for f in lost[:5])
        if said.rstrip().endswith("?") and "?" not in reply:
            return "the phrasing lost the question"
    reply_lang = detect_language(reply)
    if language is not None:
        if reply_lang and reply_lang != language:
            return f"the phrasing is in {reply_lang}, it was asked in {language}"
        return None
    user_lang = detect_language(user_text)
    if user_lang and reply_lang and user_lang != reply_lang:
        return f"the phrasing is in {reply_lang}, the user writes {user_lang}"
    return None


# A summary keeps each step of its text: at least this share of the step's content words (a
# step's words may be said otherwise, but a summary that keeps a third of none of them dropped it)
STEP_SHARE = 1 / 3
# a word as common as "then", "again" or "your" carries no step
FUNCTION_WORD_ZIPF = 5.6
STEM_LETTERS = 5
# a numbered or bulleted step's marker ("1. ", "- "): the list's shape, not a number of the text
_STEP_MARK = re.compile(r"^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+", re.MULTILINE)
_LINK = re.compile(r"https?://[^\s)>\]]*[^\s)>\].,;:!?]")


def summary_problem(
    source: str, reply: str, case: str, *, user_text: str = "", known: str = "", language: str | None = None
) -> str | None:
    """Why `reply` may not stand as a summary of `source` for the user's `case`; None when it may.

    A summary may leave out what does not apply to the case and say the rest in its own words,
    but it keeps the text's facts (its names, numbers, options, quoted strings and links, so
    every step the user must take can still be taken) and adds none: a number, a name or a
    link that neither the text, the case, nor `known` (what the bot was told: its persona)
    holds is made up. The language is checked as for a phrasing (`phrase_problem`).
    """
    text = _STEP_MARK.sub("", unmark(source))
    if not reply.strip():
        return "the summary is empty"
    limit = len(text) + MAX_EXTRA_CHARS
    if len(reply) > limit:
        return f"the summary is {len(reply)} characters for a {len(text)}-character text (at most {limit})"
    lost = [f for f in [*must_keep(text), *_LINK.findall(text)] if not _carries(reply, f)]
    if lost:
        return "the summary lost " + ", ".join(repr(f) for f in lost[:5])
    said_words = _content_words(reply)
    for step in _steps(unmark(source)):
        wanted = _content_words(step)
        if wanted and len(wanted & said_words) < len(wanted) * STEP_SHARE:
            return f"the summary lost the step {' '.join(step.split())[:60]!r}"
    said = _STEP_MARK.sub("", reply)
    context = f"{text}\n{case}\n{known}"
    # a summary may number the steps it keeps ("Step 2: ...")
    given = set(numbers_in(context)) | set(range(1, len(_STEP_MARK.findall(unmark(source))) + 1))
    invented = [_number_text(n) for n in written_numbers(said) if n not in given]
    reply_lang = detect_language(reply)
    if reply_lang != "de":  # German writes every noun as English writes a name
        invented += [name for name in _names(said) if fold(name) not in fold(context)]
    invented += [link for link in _LINK.findall(said) if link not in text]
    if invented:
        return "the summary adds " + ", ".join(repr(f) for f in dict.fromkeys(invented))
    expected = language or detect_language(user_text)
    if expected and reply_lang and reply_lang != expected:
        return f"the summary is in {reply_lang}, {'it was asked in' if language else 'the user writes'} {expected}"
    return None


def _steps(text: str) -> list[str]:
    """The steps of a text: its numbered or bulleted items; a text without any is one step."""
    items = re.findall(r"^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+(.+(?:\n(?![ \t]*(?:\d{1,2}[.)]|[-*•])[ \t])[ \t]*\S.*)*)",
                       text, re.MULTILINE)  # fmt: skip
    return items or [text]


def _content_words(text: str) -> set[str]:
    """The words that say something (not "then", "your", "again"), by their first letters, so
    "restarting" is "restart"."""
    words = re.findall(r"[^\W\d_]{4,}", text.casefold())
    return {w[:STEM_LETTERS] for w in words if zipf_frequency(w, "en", wordlist="small") < FUNCTION_WORD_ZIPF}


def _names(text: str) -> list[str]:
    return [m.group(1) for m in _NAME.finditer(text) if m.group(1) not in ("I", "OK")]


def parse_problem(value: BaseModel, text: str, options: Iterable[str] = (), *, answer: bool = True) -> str | None:
    """Why a model's parse `value` of the message `text` cannot be accepted; None when it can.

    `answer`: the value reads an answer to a question (a slot), so a yes/no must be said and
    a choice must be pointed to in the message. A judgement about the message (is it a
    correct answer, does it want to end the lesson) is the model's to make: only its numbers
    are held to the message then.
    """
    said = set(numbers_in(text))
    choices = [fold(o) for o in options] if answer else []
    for name, field in value:
        if field is None:
            continue
        if isinstance(field, bool):
            if not answer:
                continue
            if read_yes_no(text) is None and hedged(text):
                return f"{name}: the message hedges; it does not say yes or no"
            if read_yes_no(text) is None and len(text.split()) <= TERSE_WORDS:
                # "banana", "hmm": no sentence for a model to read a yes or a no into
                return f"{name}: {text.strip()!r} says neither yes nor no"
            if read_yes_no(text) is None and text.rstrip().endswith("?"):
                # "ok what now?" asks something back; it answers nothing
                return f"{name}: the message asks a question; it does not say yes or no"
        elif isinstance(field, int | float):
            if float(field) not in said:
                return f"{name}: {field:g} is not a number the message gives"
        elif isinstance(field, str) and fold(field) in choices and not _evidence(fold(field), fold(text)):
            return f"{name}: nothing in the message points to {field!r}"
        elif isinstance(field, str) and not any(c.isalpha() for c in field) and fold(field).strip() not in fold(text):
            # ".10" read out of "banana": a value made of no words must be in the message as it is
            return f"{name}: {field!r} is not in the message"
    return None


def numbers_in(text: str) -> list[float]:
    """Numbers given as digits or as number words in any language text2num reads; a digit inside
    markup or quoted code ("<b>1</b>", "' OR '1'='1") is not one the user gives (as the rules read it)."""
    text = without_embedded_numbers(text)
    found = list(numbers(text))
    for reading in in_every_language(text):
        found += numbers(reading)
    return found


def _carries(reply: str, fact: str) -> bool:
    r, f = fold(reply), fold(fact)
    if f in r:
        return True
    try:
        value = float(fact)
    except ValueError:
        return False
    return value in numbers_in(reply)


def _number_text(n: float) -> str:
    return f"{n:g}"


def _evidence(option: str, text: str) -> bool:
    """The option, or a word of it, or a close spelling of one, is in the message."""
    if option in text:
        return True
    words = [w for w in re.split(r"[\s_/-]+", option) if len(w) > 2]
    return any(w in text for w in words)
