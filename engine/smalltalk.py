"""Small talk at an open question or in the main conversation: what kinds a message is made of, and what is said back.

Greetings, apologies, being back, thanks, laughter, remarks about the bot, asking to wait: a message
(or a part of it, beside a few words of its own) that is only these is `SmallTalk`, read with the
phrases of engine/data/questions_back.yaml (`chitchat`), a letter held down read as one, emoji and
faces typed with punctuation as the kinds they show. The read stage (engine/reading.py) turns it into
a `Chitchat` command; what is said back (`acknowledgement`, `talk_reply`) is the table's `say`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.commands import Social
from engine.message_parts import EMOTICONS, WORDS, Part, QuestionsBackPatterns, folded_text, parts, questions_back_table

# remarks about the bot or the conversation, and feelings: an answer where any text is one
REMARKS: frozenset[Social] = frozenset({"compliment", "feeling", "reaction", "complaint"})
# saying hello or being back, at a paused activity: its question is asked again
COMING_BACK: frozenset[Social] = frozenset({"greeting", "away", "sorry"})
# asking to wait answers nothing, whatever it names ("one sec" is no 1, "attends deux secondes" no name)
WAITING: frozenset[Social] = frozenset({"waiting"})
# back after stepping away, mid-question ("sorry, where were we?"): the question again, nothing else
COMING_BACK_ONLY: frozenset[Social] = frozenset({"away", "sorry"})


@dataclass(frozen=True)
class SmallTalk:
    kinds: tuple[Social, ...]
    words: str


_HELD = re.compile(r"(\w)\1{2,}+")


def talk_kinds(folded: str, table: QuestionsBackPatterns) -> tuple[Social, ...]:
    """The kinds of small talk `folded` is made of, every word of it; () when it says anything else.
    A letter held down ("heyyy", "LMAOOO", "thanksss", "mdrrr") is read as one letter, or two."""
    return _talk_of(folded) if table is questions_back_table() else _read_talk(folded, table)


@lru_cache(maxsize=1024)
def _talk_of(folded: str) -> tuple[Social, ...]:
    """`_talk` with the table, once per text: a turn reads the same parts for small talk several
    times (the cheap first look, the small-talk reader, questions back, new requests), and a part
    without filler is the whole message too; each reading tries a dozen long alternations per word."""
    return _read_talk(folded, questions_back_table())


def _read_talk(folded: str, table: QuestionsBackPatterns) -> tuple[Social, ...]:
    said = _talk_words(folded.split(), table)
    if said or not _HELD.search(folded):
        return said
    for held in (r"\1", r"\1\1"):
        said = _talk_words(_HELD.sub(held, folded).split(), table)
        if said:
            return said
    return ()


def _talk_words(words: list[str], table: QuestionsBackPatterns) -> tuple[Social, ...]:
    kinds: list[Social] = []
    at = 0
    while at < len(words):
        # the longest phrase at this word ("buenas tardes", not "buenas" and then "tardes")
        said = _phrase_at(words, at, table)
        if said is not None:
            kinds.append(said[0])
            at = said[1]
            continue
        if words[at].strip("-'") not in table.filler or (not kinds and at == len(words) - 1):
            return ()
        at += 1
    return tuple(dict.fromkeys(kinds))


_LONGEST_TALK = 8  # words in the longest phrase of small talk tried


def _phrase_at(words: list[str], at: int, table: QuestionsBackPatterns) -> tuple[Social, int] | None:
    """The kind of the longest phrase of small talk starting at word `at`, and the word after it."""
    last = min(len(words), at + _LONGEST_TALK)
    if not any(p.match(" ".join(words[at:last])) for _, p in table.talk):
        return None  # no phrase opens here: most words of most messages
    for end in range(last, at, -1):
        piece = " ".join(words[at:end])
        for kind, pattern in table.talk:
            if pattern.fullmatch(piece):
                return kind, end
    return None


# words said beside small talk that may still make it small talk: a short statement ("hold on a sec,
# dog is barking", "sorry, crazy day"); a longer one says something
_BESIDE_TALK_WORDS = 6


def talk_beside(text: str) -> tuple[SmallTalk, tuple[str, ...]] | None:
    """`text` as small talk beside short statements ("hold on a sec, dog is barking", "hi! sorry, long
    day"): the small talk, and the statements as typed, for the reader to check that they answer nothing;
    None when no part is small talk, or another part asks, proposes or says more."""
    table = questions_back_table()
    kinds: list[Social] = []
    talk: list[Part] = []
    other: list[str] = []
    for p in parts(text):
        if p.role == "filler":
            continue
        said = talk_kinds(p.folded, table)
        if said:
            kinds.extend(said)
            talk.append(p)
        elif p.role == "statement" and len(p.folded.split()) <= _BESIDE_TALK_WORDS:
            other.append(text[p.start : p.end])
        else:
            return None
    if not kinds or not other:
        return None
    return SmallTalk(kinds=tuple(dict.fromkeys(kinds)), words=text[talk[0].start : talk[-1].end]), tuple(other)


# greetings that are names too ("Ola", "Oi"): alone they may answer a name question; beside other small
# talk ("oi, tudo bem?", "olá, bom dia") they greet
_NAME_GREETINGS = frozenset({"oi", "ola", "hallo", "hola", "ciao"})


@lru_cache(maxsize=1024)  # the text's alone (a frozen answer), asked by several readers of a turn
def small_talk(text: str) -> SmallTalk | None:
    """`text` as only small talk (greetings, apologies, being back, thanks, laughter), or None."""
    table = questions_back_table()
    found = parts(text)
    if not found:
        said = only_filler_talk(text)
        return SmallTalk(kinds=said, words=text.strip()) if said else None
    kinds: list[Social] = []
    named = well = False
    for p in found:
        if p.role == "filler":
            continue
        said = talk_kinds(p.folded, table)
        if not said and p.folded in _NAME_GREETINGS:
            named = True
            continue
        if not said and p.folded in table.wellbeing:
            well = True
            continue
        if not said:
            # a part whose filler opens the small talk ("sorry about that": "sorry" is filler to a question)
            return whole_talk(text)
        kinds.extend(said)
    if not kinds or (well and "identity" not in kinds):
        return None  # "not bad" alone may answer; beside "yourself?" it says how the user is
    if named and "greeting" not in kinds:
        kinds.insert(0, "greeting")
    return SmallTalk(kinds=tuple(dict.fromkeys(kinds)), words=text[found[0].start : found[-1].end])


def whole_talk(text: str) -> SmallTalk | None:
    """`text` as small talk read whole, its filler words included ("sorry about that", "oh no"), or None."""
    said = talk_kinds(" ".join(WORDS.findall(folded_text(text))), questions_back_table())
    return SmallTalk(kinds=said, words=text.strip(" .!?")) if said else None


def only_filler_talk(text: str) -> tuple[Social, ...]:
    """Small talk made of words that are filler to a question ("lol sorry", "oops"): every part of
    the message trimmed away, the words as typed are read as small talk; or a message of emoji only."""
    return talk_kinds(" ".join(WORDS.findall(folded_text(text))), questions_back_table()) or _emoji_talk(text)


# emoji that say which small talk they are; any other emoji alone is a reaction
_EMOJI_TALK: dict[str, Social] = {
    **dict.fromkeys("😂🤣😆😹😄😁😅", "laughter"),
    **dict.fromkeys("👋", "greeting"),
    **dict.fromkeys("🙏", "thanks"),
    **dict.fromkeys("😔😞😢😭😩😫🥱😴", "feeling"),
}


_FACES: dict[str, Social] = {"(": "feeling", "d": "laughter"}


def _emoji_talk(text: str) -> tuple[Social, ...]:
    """A message of emoji only ("😂😂", "🙂", "👋"): small talk in any language; () when it holds a letter,
    a digit or no emoji. A reader of yes/no still reads "👍" first (engine/reading.py takes a value read
    from small talk when it is a yes or a no)."""
    kinds: list[Social] = []
    for m in EMOTICONS.finditer(text):
        kinds.append(_FACES.get(m.group()[-1].lower(), "reaction"))
    for c in EMOTICONS.sub(" ", text):
        if c.isspace() or unicodedata.category(c) in _EMOJI_MARKS:
            continue
        if unicodedata.category(c) != "So":
            return ()
        kinds.append(_EMOJI_TALK.get(c, "reaction"))
    return tuple(dict.fromkeys(kinds))


# what goes with an emoji and says nothing itself: joiners, variation selectors, skin tones, punctuation
_EMOJI_MARKS = frozenset({"Mn", "Me", "Cf", "Sk", "Po", "Pd", "Ps", "Pe", "Pi", "Pf"})


# a greeting that is only a part of the day may be an answer ("what time of day?" "morning")
_DAY_PARTS = frozenset({"morning", "afternoon", "evening", "night"})


def greets(text: str) -> bool:
    """Whether `text` holds a greeting ("good morning", "buenas tardes", "bonsoir", "hi"): it names
    no time of day and no name. A bare "morning" may be an answer ("what time of day?"), so it is
    not one here."""
    table = questions_back_table()
    words = WORDS.findall(folded_text(text))
    for at in range(len(words)):
        said = _phrase_at(words, at, table)
        if said is not None and said[0] == "greeting" and (said[1] - at > 1 or words[at] not in _DAY_PARTS):
            return True
    return False


def acknowledgement(kinds: Sequence[str]) -> str:
    """What the bot says to small talk before asking again: being back or sorry first, then thanks,
    then a greeting, then laughter."""
    say = questions_back_table().say
    for kind in (
        "identity",
        "away",
        "sorry",
        "waiting",
        "thanks",
        "greeting",
        "complaint",
        "compliment",
        "feeling",
        "reaction",
        "interjection",
        "laughter",
    ):
        if kind in kinds:
            return say[kind]
    return ""


# small talk answered in the main conversation, in this order: what the user is sorry for or back
# from first, then thanks and remarks, then the goodbye
_MAIN_ORDER: tuple[Social, ...] = (
    "away",
    "sorry",
    "waiting",
    "complaint",
    "thanks",
    "compliment",
    "feeling",
    "laughter",
    "reaction",
    "interjection",
    "goodbye",
)


def talk_reply(kinds: Sequence[Social], own: Mapping[Social, str]) -> str:
    """What answers a message of small talk alone in the main conversation, offline: `own`, the bot's
    replies by kind, before the engine's; one sentence for each kind said ("You're welcome! Bye for
    now!"), a reaction or an interjection only when nothing else was said. Greetings and questions
    about the bot are not answered here: the bot's account of what it does answers them."""
    say = questions_back_table().say
    told = [k for k in _MAIN_ORDER if k in kinds]
    if any(k not in _MINOR for k in told):
        told = [k for k in told if k not in _MINOR]  # "great, thanks!" is thanks
    return " ".join(dict.fromkeys(own.get(k) or say[k] for k in told))


_MINOR: frozenset[Social] = frozenset({"reaction", "interjection"})
