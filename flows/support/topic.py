"""What a request the help centre does not cover asked about, said back in a few words.

"can you book me a flight" -> "booking a flight"; "what's the weather like in berlin" ->
"the weather in berlin"; "my washing machine is broken" -> '"my washing machine is broken"'.
The bot says the help centre does not cover *that* (flows/support/bot.py), so the user hears
their request was read, and not the nearest article passed off as an answer.

A request framed as one ("can you", "please", "i want to") is followed by a verb, said back as
its -ing form; a question ("what is", "how is") by what it asks about. Anything else is quoted
as written. Said back, "my" is "your" ("booking a flight for your mum"). Nothing is made up: every word
said back is the user's, and a request too long to say back is "that".
"""

from __future__ import annotations

import re

# said back in full up to this many words; longer, it is "that"
MAX_WORDS = 8
_FRAMES = (
    "can you", "could you", "would you", "will you", "can u", "could u", "please", "pls", "plz", "i want to",
    "i wanna", "i'd like to", "id like to", "i would like to", "i need to", "i need you to", "i want you to",
    "help me", "help me to", "how do i", "how can i", "how to", "can i", "is it possible to", "are you able to",
    "do you", "i'm trying to", "im trying to", "let's", "lets",
)  # fmt: skip
_QUESTIONS = (
    "what is", "what's", "whats", "what are", "how is", "how's", "hows", "how are", "when is", "where is", "who is",
    "tell me about", "what about",
)  # fmt: skip
_GREETINGS = ("hi", "hello", "hey", "ok", "okay", "so", "um", "uh", "yo")
_OBJECTS = frozenset({"me", "us"})
# a request's first word is a verb when a frame led to it, or when what follows it says so
_AFTER_VERB = frozenset({"me", "us", "a", "an", "the", "some", "my", "our", "this", "that"})
_PRONOUNS = {
    "my": "your", "me": "you", "i": "you", "i'm": "you're", "im": "you're", "mine": "yours", "myself": "yourself",
}  # fmt: skip
_WORD = re.compile(r"[\w'’]+|[^\w\s]")
_VOWELS = frozenset("aeiou")


def _strip(words: list[str], prefixes: tuple[str, ...]) -> tuple[list[str], bool]:
    for prefix in sorted(prefixes, key=lambda p: -len(p.split())):
        n = len(prefix.split())
        if words[:n] == prefix.split():
            return words[n:], True
    return words, False


def gerund(verb: str) -> str:
    """The -ing form of a verb as English spells it ("book" -> "booking", "make" -> "making")."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    short = len(verb) <= 4 and len(verb) >= 3
    if short and verb[-1] not in _VOWELS | set("wxy") and verb[-2] in _VOWELS and verb[-3] not in _VOWELS:
        return verb + verb[-1] + "ing"  # "get" -> "getting", "plan" -> "planning"
    return verb + "ing"


def topic(text: str) -> str:
    """What `text` asks about, in the user's own words, to follow "doesn't cover"."""
    words = [w.replace("’", "'") for w in _WORD.findall(text.casefold()) if re.match(r"[\w'’]", w)]
    while words and words[0] in _GREETINGS:
        words = words[1:]
    words, framed = _strip(words, _FRAMES)
    words, asked = _strip(words, _QUESTIONS)
    if asked and "like" in words[1:]:
        # "what's the weather like in berlin": the weather in berlin
        words = [w for w in words if w != "like"]
    words = [w for w in words if w not in ("please", "pls", "plz")]
    if not words or len(words) > MAX_WORDS:
        return "that"
    said = [_PRONOUNS.get(w, w) for w in words]
    if asked:
        return " ".join(said)
    verb_like = framed or (len(words) > 1 and words[1] in _AFTER_VERB and words[0] not in _PRONOUNS)
    if verb_like and words[0].isalpha():
        rest = words[1:]
        if rest[:1] and rest[0] in _OBJECTS:
            rest = rest[1:]  # "book me a flight": booking a flight
        return " ".join([gerund(words[0]), *(_PRONOUNS.get(w, w) for w in rest)])
    # quoted as written: "what can i cook" turned to "what can you cook" would ask the bot
    return '"' + " ".join(words) + '"'
