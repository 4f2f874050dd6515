"""Engine commands said in a sentence, in six languages: cancel, skip, help, a person, resume.

A command word alone ("cancel", "help") was always read; users wrap it ("meh forget it,
cancel", "idk just skip", "im confused, help me", "quiero hablar con una persona"). Reading
is by clause (split at , ; . ! ? and a spaced dash), with the phrases of
engine/data/commands.yaml: a command is read when every clause of the message is one of its
phrases or filler, so a clause with anything else in it keeps the message an answer ("the
reminders stop", "cancel my subscription", "skip rope and dumbbells"). A person is asked for
when a clause names one beside a verb of talking (and, in a long clause, a word of asking).

Matching ignores case and accents. Nothing here decides what a command does: the read stage
(engine/reading.py) turns these into commands, the turn executes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Literal, Protocol

from wordfreq import zipf_frequency

from engine.commandphrases import CLAUSE_MARKS, CommandPhrases, folded_phrase, load_phrases
from engine.extract import WORD_LANGUAGES, fold
from engine.smalltalk import small_talk
from engine.tables import any_of
from engine.yesno import read_yes_no

Said = Literal["cancel", "help", "person", "skip"]
# a long clause must ask for a person in words, not only name one ("I talked to your agent")
_SHORT_CLAUSE = 6


class Phrases(Protocol):
    """What a phrase may be looked up in: a set, or phrases made of parts (`_Joined`)."""

    def __contains__(self, phrase: object, /) -> bool: ...


class _Joined:
    """Phrases made of an opener, a verb and an object ("just skip this one", "can i pass on that"),
    or listed as they are, tested by their parts: listed out, the parts multiply to ~130,000
    phrases (18 MB of strings and set, and a copy of it at every union)."""

    def __init__(
        self,
        listed: frozenset[str],
        openers: frozenset[str],
        verbs: frozenset[str],
        objects: frozenset[str],
        *,
        verb_last: bool = False,
    ):
        self.listed, self.openers, self.verbs, self.objects = listed, openers, verbs, objects
        self.verb_last = verb_last
        # two objects may stand before a verb put last ("die frage erstmal")
        self.longest = (
            _words_in_longest(openers) + _words_in_longest(verbs) + _words_in_longest(objects) * (2 if verb_last else 1)
        )
        # the first word of every verb: a phrase holding none of them is no joined phrase (told at once)
        self.verb_starts = frozenset(v.split()[0] for v in verbs if v.split())

    def __contains__(self, phrase: object) -> bool:
        if not isinstance(phrase, str):
            return False
        if phrase in self.listed:
            return True
        words = phrase.split()
        n = len(words)
        if not n or n > self.longest or self.verb_starts.isdisjoint(words):
            return False
        for i in range(n):  # words[:i]: the opener ("" when none)
            if i and not self._opened(words[:i]):
                continue
            for j in range(i + 1, n + 1):
                if " ".join(words[i:j]) in self.verbs and self._ends(words[j:], opened=bool(i)):
                    return True
            # the verb last, after what it names, as German puts it behind a word of wanting or being able
            # ("können wir die Zeitzone erstmal auslassen", "kann ich die Frage überspringen")
            if i and self.verb_last and self._named_then_verb(words[i:]):
                return True
        return False

    def _named_then_verb(self, rest: list[str]) -> bool:
        for j in range(len(rest) - 1, 0, -1):
            if " ".join(rest[j:]) in self.verbs:
                return self._named(rest[:j])
        return False

    def _named(self, words: list[str]) -> bool:
        """What a verb names, one thing or two ("die frage", "das erstmal", "die zeitzone vorerst")."""
        said = " ".join(words)
        if said in self.objects or _PART_NAMED.fullmatch(said):
            return True
        return any(
            " ".join(words[:k]) in self.objects and " ".join(words[k:]) in self.objects for k in range(1, len(words))
        )

    def _opened(self, words: list[str]) -> bool:
        return " ".join(words) in self.openers

    def _ends(self, rest: list[str], *, opened: bool) -> bool:
        """What follows the verb: nothing, or what it names ("this one", "the weight stuff")."""
        return not rest or " ".join(rest) in self.objects or _PART_NAMED.fullmatch(" ".join(rest)) is not None

    def words(self) -> set[str]:
        return {w for group in (self.listed, self.openers, self.verbs, self.objects) for p in group for w in p.split()}


# a part of the questions named by what it is about ("the weight stuff", "la parte del peso", "das mit dem
# Gewicht"): what a skip leaves out, whatever the flow calls it
_PART_NAMED = re.compile(
    r"(?:the|this|that|these|those) (?:\w+ ){1,2}(?:stuff|part|bit|bits|question|questions|thing|things|section)"
    r"|(?:la|esa|esta) parte (?:de|del|de la|sobre) (?:\w+ ?){1,2}"
    r"|(?:a|essa|esta) parte (?:de|do|da|sobre) (?:\w+ ?){1,2}"
    r"|(?:la|cette) partie (?:sur|du|de la|de) (?:\w+ ?){1,2}"
    r"|(?:la|questa) parte (?:sul|sulla|del|della|di) (?:\w+ ?){1,2}"
    r"|(?:das|den teil) mit (?:dem|der|den) \w+"
)


def _words_in_longest(phrases: frozenset[str]) -> int:
    return max((len(p.split()) for p in phrases), default=0)


class _Stops(_Joined):
    """A verb of stopping with what it stops ("cancel it", "olvídalo todo"), after one or two words of
    wanting or not ("i want to cancel", "let's forget the whole thing", "please just stop this"); with no
    word of wanting, what it stops must be said ("quit" alone is `putting_off`'s: a cancel only where the
    question reads nothing from it). Tested by its parts: listed out, the combinations are ~80,000 strings."""

    def __init__(self, listed: frozenset[str], openers: frozenset[str], verbs: frozenset[str], objects: frozenset[str]):
        super().__init__(listed, openers, verbs, objects)
        self.longest += _words_in_longest(openers)

    def _opened(self, words: list[str]) -> bool:
        if " ".join(words) in self.openers:
            return True
        return any(
            " ".join(words[:k]) in self.openers and " ".join(words[k:]) in self.openers for k in range(1, len(words))
        )

    def _ends(self, rest: list[str], *, opened: bool) -> bool:
        # with no word of wanting, what it stops must be said ("quit" alone is `putting_off`'s)
        return (not rest and opened) or (bool(rest) and " ".join(rest) in self.objects)


# a thing of the user's, named after a verb of telling ("my weight", "mi peso", "mon poids", "il mio peso")
_OWN_THING = re.compile(
    r"(?:my|mi|mis|mon|ma|mes|mein|meine|meinen|il mio|la mia|i miei|le mie|o meu|a minha|os meus|as minhas|meu|minha)"
    r"(?: \w+){1,2}"
)


_OWN_THING_WORDS = 4


class _Refusals(_Joined):
    """A refusal listed as it is, or said as a verb of telling after words of not wanting ("i'd rather not
    share my weight"): what is not told may be named, as a skip's object or a thing of the user's."""

    def _ends(self, rest: list[str], *, opened: bool) -> bool:
        return opened and (super()._ends(rest, opened=opened) or _OWN_THING.fullmatch(" ".join(rest)) is not None)


class _Either:
    """Phrases of any of `groups`, without copying them into one set."""

    def __init__(self, *groups: Phrases) -> None:
        self.groups = groups

    def __contains__(self, phrase: object) -> bool:
        return any(phrase in g for g in self.groups)


class _Greetings:
    """A piece that is a greeting or being back and nothing else ("bom dia", "hi", "sorry i was away"): said
    before going on ("bom dia, vamos continuar"), it is being back, no answer to the paused question."""

    def __contains__(self, phrase: object) -> bool:
        if not isinstance(phrase, str) or not phrase:
            return False
        talk = small_talk(phrase)
        return talk is not None and set(talk.kinds) <= {"greeting", "away"}


_GREETING = _Greetings()


def _without_article(thing: str, articles: tuple[str, ...]) -> str | None:
    """`thing` without the article it opens with ("the planning": "planning"), when what is left is a noun
    of its own (two words at most, not a pronoun); None otherwise."""
    first, _, rest = thing.partition(" ")
    if first not in articles or not rest or len(rest.split()) > 2 or rest in _PRONOUN_OBJECTS:
        return None
    return rest


# what an article before them does not make a thing of the user's: "this" alone, "the whole" alone
_PRONOUN_OBJECTS = frozenset({"it", "this", "that", "one", "whole thing", "questions"})


class _Table:
    def __init__(self, phrases: CommandPhrases) -> None:
        self.filler = frozenset(folded_phrase(p) for p in phrases.filler)
        self.trailing = frozenset(folded_phrase(p) for p in phrases.trailing)
        self.filler_ending = self.filler | self.trailing
        self.polite = self.filler | {folded_phrase(p) for p in phrases.polite}
        self.polite_ending = self.polite | frozenset(folded_phrase(p) for p in phrases.trailing)
        self.not_knowing = frozenset(folded_phrase(p) for p in phrases.not_knowing)
        self.unsure = self.not_knowing | {folded_phrase(p) for p in phrases.unsure}
        self.refusing = frozenset(folded_phrase(p) for p in phrases.refusing)
        telling = phrases.telling
        # a thing of the user's is at most two words after its possessive: room for it beyond the listed objects
        self.refusals = _Refusals(
            self.refusing,
            frozenset(folded_phrase(o) for o in telling.openers),
            frozenset(folded_phrase(v) for v in telling.verbs),
            frozenset(folded_phrase(o) for o in [*telling.objects, *phrases.skipping.objects]),
        )
        self.refusals.longest += _OWN_THING_WORDS
        self.cancel = frozenset(folded_phrase(p) for p in phrases.cancel)
        self.ending = frozenset(folded_phrase(p) for p in phrases.ending)
        self.leaving = frozenset(folded_phrase(p) for p in phrases.leaving)
        self.putting_off = frozenset(folded_phrase(p) for p in phrases.putting_off)
        later = sorted({folded_phrase(p) for p in phrases.until_later}, key=len, reverse=True)
        self.until_later = re.compile(r"(?<![\w'])(?:" + "|".join(map(re.escape, later)) + r")(?![\w'])")
        self.putting_off_words = frozenset(folded_phrase(p) for p in phrases.putting_off_words)
        self.now = re.compile(r"(?<![\w'])(?:now|rn|ahora|maintenant|tout de suite|jetzt|ora|adesso|agora)(?![\w'])")
        self.leaving_openings = frozenset(folded_phrase(p) for p in phrases.leaving_openings)
        self.resume = frozenset(folded_phrase(p) for p in phrases.resume)
        self.resume_verbs = tuple(dict.fromkeys(folded_phrase(v) for v in phrases.resuming))
        self.objects = tuple(dict.fromkeys(folded_phrase(o) for o in phrases.stopping.objects))
        stopping = phrases.stopping
        self.stop_verbs = tuple(dict.fromkeys(folded_phrase(v) for v in stopping.verbs))
        self.stop_articles = tuple(dict.fromkeys(folded_phrase(a) for a in stopping.articles))
        # "cancel it", "stop the questions", "i want to cancel", "let's forget the whole thing": tested by parts
        objects = {folded_phrase(o) for o in stopping.objects}
        # an object said without its article stops it as well ("forget planning", "cancel lesson")
        objects |= {bare for o in objects if (bare := _without_article(o, self.stop_articles)) is not None}
        self.stops = _Stops(
            frozenset(
                f"{folded_phrase(n)} {folded_phrase(g)}" for n in stopping.not_wanting for g in stopping.going_on
            ),
            frozenset(folded_phrase(w) for w in stopping.wanting),
            frozenset(self.stop_verbs),
            frozenset(objects),
        )
        skipping = phrases.skipping
        self.skip = _Joined(
            frozenset(folded_phrase(p) for p in phrases.skip),
            frozenset(folded_phrase(o) for o in skipping.openers),
            frozenset(folded_phrase(v) for v in skipping.verbs),
            frozenset(folded_phrase(o) for o in skipping.objects),
            verb_last=True,
        )
        self.confused = frozenset(folded_phrase(p) for p in phrases.confused)
        self.lost = frozenset(folded_phrase(p) for p in phrases.not_understanding)
        helps = {folded_phrase(p) for p in phrases.help}
        self.help = frozenset(helps | {f"{h} {folded_phrase(w)}" for h in helps for w in phrases.help_with})
        self.skip_objects = frozenset(folded_phrase(o) for o in skipping.objects)
        self.skip_named = re.compile(rf"(?<![\w'])(?:{any_of(skipping.named)})(?![\w'])")
        self.unsure_openings = frozenset(p for p in self.unsure | self.refusing if " " in p)
        # every word of every phrase: a word typed with a letter held down ("ayudaaa", "stoppp",
        # "skiiip") is read as the one of these it stands for
        self.vocabulary = frozenset(
            w
            for group in (
                self.filler,
                self.polite,
                self.trailing,
                self.unsure,
                self.refusing,
                self.cancel,
                self.ending,
                self.leaving,
                self.resume,
                frozenset(self.skip.words()),
                helps,
                self.confused,
                frozenset(self.stop_verbs),
            )
            for p in group
            for w in p.split()
        )
        self.nouns = _words_pattern(phrases.person.nouns)
        self.verbs = _words_pattern(phrases.person.verbs)
        self.asking = _words_pattern(phrases.person.asking)
        self.alone = frozenset(folded_phrase(p) for p in phrases.person.alone)
        self.tags = frozenset(folded_phrase(p) for p in phrases.tags)
        # thanks and please: politeness that is no filler, so never a yes
        self.courtesy = self.polite - self.filler
        # the person wanted ends the clause, or only what it is for follows ("can i get a human coach for this?")
        self.wanted_end = re.compile(_words_pattern(phrases.person.wanted).pattern + _WANTED_FOR + r"\Z")


# what may follow the person wanted at the end of a clause: what the person is for, or "instead"
_WANTED_FOR = r"(?P<tail> (?:for (?:this|that|me|it)|instead|here|now))?"


def _words_pattern(phrases: list[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(folded_phrase(p)) for p in sorted(set(phrases), key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{alternatives})(?![\w'])")


@lru_cache(maxsize=1)
def command_table() -> _Table:
    return _Table(load_phrases())


@lru_cache(maxsize=2048)
def clause_words(text: str) -> tuple[tuple[str, ...], ...]:
    """The message's clauses, folded, as words: folded and split once per message, whichever
    of the readers below asks first. Emoji and other symbols say nothing here ("skip pls 🙏")."""
    folded = _SYMBOLS.sub(" ", fold(text))
    return tuple(
        tuple(_respelt(_unheld(w)) for w in clause.split()) for clause in CLAUSE_MARKS.split(folded) if clause.strip()
    )


# a symbol that is no letter, digit, apostrophe or clause mark (emoji, "*", "~"); possessive, so
# a long run is taken once
_SYMBOLS = re.compile(r"[^\w\s'’,;.!?¿¡…/-]++")
_HELD = re.compile(r"(\w)\1{2,}+")


def _unheld(word: str) -> str:
    """`word` with a letter held down ("ayudaaa", "stoppp", "pleaseee") as the phrase word it stands
    for, with the run cut to one letter or to two ("ayuda", "stopp"); as typed when it stands for none."""
    if not _HELD.search(word):
        return word
    vocabulary = command_table().vocabulary
    for held in (r"\1", r"\1\1"):
        cut = _HELD.sub(held, word)
        if cut in vocabulary:
            return cut
    return word


# the command words people mistype most (a word of engine.extract's WORD_LANGUAGES is a word, not a slip)
_KEYWORDS = ("cancel", "skip", "help", "stop")


@lru_cache(maxsize=4096)
def _respelt(word: str) -> str:
    """A command word typed with a slip of the fingers ("cancle", "cancell", "skp", "hlep", "sikp"): two
    letters swapped, one left out or one added; a word of any language read here ("stp", "cancer") stays."""
    if len(word) < 3 or not word.isascii() or not word.isalpha() or word in _KEYWORDS:
        return word
    slipped = next((k for k in _KEYWORDS if _slip(word, k)), None)
    if slipped is None or any(zipf_frequency(word, lang, wordlist="small") >= 1.0 for lang in WORD_LANGUAGES):
        return word
    return slipped


def _slip(typed: str, word: str) -> bool:
    """Whether `typed` is `word` with two neighbouring letters swapped, one letter left out or one added."""
    if len(typed) == len(word):
        wrong = [i for i in range(len(word)) if typed[i] != word[i]]
        if len(wrong) != 2 or wrong[1] != wrong[0] + 1:
            return False
        a, b = wrong
        return typed[a] == word[b] and typed[b] == word[a]
    short, long = (typed, word) if len(typed) < len(word) else (word, typed)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


@lru_cache(maxsize=2048)
def clauses(text: str, *, polite: bool = True) -> tuple[tuple[str, ...], ...]:
    """The message's clauses, folded, each as the ways it may be read: as typed, without the
    filler at its end, at its start, at both ("no idea tbh": "no idea"; "ok cancel": "cancel");
    `polite`: "please" and its kind are filler too."""
    return tuple(_forms(list(words), polite) for words in clause_words(text))


def _forms(words: list[str], polite: bool) -> tuple[str, ...]:
    filler = command_table().polite if polite else command_table().filler
    # time words end a clause as filler ("keine lust mehr"), never start one
    ending = command_table().polite_ending if polite else command_table().filler_ending

    def lead(ws: list[str]) -> list[str]:
        while ws:
            n = next((n for n in (3, 2, 1) if len(ws) >= n and " ".join(ws[:n]) in filler), 0)
            if not n:
                break
            ws = ws[n:]
        return ws

    def trail(ws: list[str]) -> list[str]:
        while ws:
            n = next((n for n in (3, 2, 1) if len(ws) >= n and " ".join(ws[-n:]) in ending), 0)
            if not n:
                break
            ws = ws[:-n]
        return ws

    forms = (words, trail(words), lead(words), lead(trail(words)))
    return tuple(dict.fromkeys(" ".join(f) for f in forms))  # "" when the clause is only filler


def _only(text: str, phrases: Phrases, also: Phrases = frozenset(), *, polite: bool = True) -> bool:
    """Every clause is made of `phrases`, `also` and filler, run together or not ("nvm cancel",
    "idk just skip"), and at least one clause holds one of `phrases`."""
    filler = command_table().polite if polite else command_table().filler
    found = False
    for forms in clauses(text, polite=polite):
        if any(f in phrases for f in forms):
            found = True
            continue
        others = _Either(also, filler, command_table().trailing)
        if any(not f or f in also for f in forms):
            # a clause read whole as `also` may still end in one of `phrases` ("no idea next": a clause that
            # opens with not knowing, and a skip)
            found = found or bool(forms[0] and segmented(forms[0].split(), phrases, others))
            continue
        split = segmented(forms[0].split(), phrases, others)
        if split is None:
            return False
        found = found or split
    return found


_LONGEST_PHRASE = 6


def segmented(words: list[str], phrases: Phrases, others: Phrases) -> bool | None:
    """Whether `words` split into known phrases: None when they do not; True when one of the
    pieces is of `phrases`, False when all are `others` (a split using `phrases` is preferred)."""
    # best[i]: how words[:i] split (None: it does not; True: with a command phrase)
    best: list[bool | None] = [False] + [None] * len(words)
    for end in range(1, len(words) + 1):
        for n in range(1, min(end, _LONGEST_PHRASE) + 1):
            before = best[end - n]
            if before is None:
                continue
            piece = " ".join(words[end - n : end])
            if piece in phrases:
                best[end] = True
            elif piece in others and (best[end] is None or before):
                best[end] = before
    return best[-1]


@lru_cache(maxsize=1024)
def says_cancel(text: str, activity: str | None = None, *, polite: bool = False) -> bool:
    """Whether `text` says to stop what is going on ("nah forget this, cancel", "laisse tomber",
    "never mind, cancel the feedback" where `activity` is the open flow's name); `polite`: also
    with "please" and its kind as filler ("abbrechen bitte") and in other words ("i'm done", "ich
    gebe auf"), which a flow's own ending reads first where it has one."""
    t = command_table()
    # putting it off is a reason for leaving beside a cancel ("meh, not in the mood, cancel the lesson")
    return _only(
        text, cancel_phrases(activity, polite), t.leaving | t.putting_off | _opened_leaving(text), polite=polite
    )


@lru_cache(maxsize=64)
def cancel_phrases(activity: str | None, polite: bool) -> Phrases:
    """The cancel phrases where `activity` is open, joined once per flow without copying them."""
    t = command_table()
    return _Either(t.cancel, _stopping(activity), t.ending if polite else frozenset())


def _opened_leaving(text: str) -> frozenset[str]:
    """The clauses of `text` that open with words of not wanting to go on ("i don't want to study
    anymore", "no quiero hacer esto ahora", "ich will das nicht mehr"): leaving words beside a cancel."""
    openings = command_table().leaving_openings
    # a clause's tail too, so a cancel run into it reads ("nvm i don't want to leave feedback": "nvm", then
    # not wanting to go on); _only still needs the words before such a tail to be a command or filler
    return frozenset(tail for forms in clauses(text) for f in forms for tail in _tails(f) if opens_with(tail, openings))


def _tails(clause: str) -> Iterator[str]:
    """`clause`, then what follows each of its spaces ("nvm i don't": "nvm i don't", "i don't", "don't")."""
    yield clause
    at = clause.find(" ")
    while at >= 0:
        yield clause[at + 1 :]
        at = clause.find(" ", at + 1)


def opens_with(clause: str, openings: frozenset[str]) -> bool:
    """Whether `clause` is one of `openings` or opens with one of them followed by a space: its
    words up to each space looked up, not every opening compared (there are hundreds)."""
    if clause in openings:
        return True
    at = clause.find(" ")
    while at >= 0:
        if clause[:at] in openings:
            return True
        at = clause.find(" ", at + 1)
    return False


@lru_cache(maxsize=64)
def _stopping(activity: str | None) -> Phrases:
    """Each verb of stopping with each thing it stops ("cancel the feedback", "stop the questions"),
    the open flow among them by its name (a flow's name is a lower-case identifier)."""
    return _Either(command_table().stops, _named(command_table().stop_verbs, activity))


def _named(verbs: tuple[str, ...], activity: str | None) -> frozenset[str]:
    """Each of `verbs` with the flow `activity` named ("stop the onboarding", "resume my setup")."""
    if not activity:
        return frozenset()
    name = activity.replace("_", " ").replace("-", " ").lower()
    named = [name, *(f"{a} {name}" for a in command_table().stop_articles)]
    return frozenset(f"{v} {o}" for v in verbs for o in named)


@lru_cache(maxsize=64)
def _resuming(activity: str | None) -> frozenset[str]:
    t = command_table()
    return t.resume | {f"{v} {o}" for v in t.resume_verbs for o in t.objects} | _named(t.resume_verbs, activity)


@lru_cache(maxsize=1024)
def says_resume(text: str, activity: str | None = None) -> bool:
    """Whether `text` only says to go on with the paused activity ("ok im back, lets continue",
    "resume my setup pls", "machen wir weiter"): its question is asked again, not answered. Words of
    wanting may open it, as they open a stop ("can we go on with the lesson?", "quiero continuar")."""
    return _only(text, _resuming(activity), _Either(command_table().stops.openers, _GREETING))


@lru_cache(maxsize=1024)
def says_skip(text: str) -> bool:
    """Whether `text` says to leave the question unanswered ("idk, skip", "paso, siguiente")."""
    t = command_table()
    reasons = _Either(t.unsure, t.refusals, t.skip_objects, _opened_unsure(text), _skipped_named(text))
    if _only(text, t.skip, reasons):
        return True
    # going on, said beside not knowing or not wanting to say ("non saprei, andiamo avanti", "no sé, sigamos"), is
    # going past the question; alone it resumes a paused run, and at an open one is the flow's to read
    return _only(text, t.resume, reasons) and not _only(text, t.resume)


def _skipped_named(text: str) -> frozenset[str]:
    """The words of `text` that name the question it skips ("skip the weight question", "salta la pregunta
    del peso"): beside a skip, what it skips."""
    named = command_table().skip_named
    return frozenset(m.group() for forms in clauses(text) for f in forms for m in named.finditer(f))


def _opened_unsure(text: str) -> frozenset[str]:
    """The clauses of `text` that open with words of not knowing ("i dont know my time zone", "no sé
    cuál es"): beside a skip, a reason for it, never a skip alone."""
    openings = command_table().unsure_openings
    return frozenset(f for forms in clauses(text) for f in forms if opens_with(f, openings))


@lru_cache(maxsize=1024)
def says_unsure(text: str) -> bool:
    """Whether `text` only says the user does not know, or passes ("idk", "no idea, skip",
    "keine Ahnung"): a quiz reads it as a wrong answer, not as a guess."""
    t = command_table()
    return _only(text, _Either(t.unsure, t.refusals, t.skip))


@lru_cache(maxsize=1024)
def says_refusal(text: str) -> bool:
    """Whether `text` only declines to answer ("rather not say", "prefiero no decirlo", "möchte ich
    nicht sagen"): a skip where the open question reads nothing from it (engine/reading.py decides)."""
    t = command_table()
    # what is refused may be named ("prefiro não responder essa", "i'd rather not say this one")
    return _only(text, t.refusals, t.skip_objects, polite=True)


@lru_cache(maxsize=1024)
def says_putting_off(text: str) -> bool:
    """Whether `text` only puts the whole thing off or says goodbye ("ugh, not now", "gotta go", "ahora
    no"): alone, a cancel where the open question reads nothing from it (engine/reading.py decides: "not
    now" answers "shall we start?"). Other leaving words ("i'm good", "all good") may answer a question
    ("any injuries?"), so only beside a cancel are they one."""
    # beside words of not wanting to go on, it still only puts it off ("im not doing this right now, bye")
    return _only(text, command_table().putting_off, _opened_leaving(text), polite=True)


@lru_cache(maxsize=1024)
def says_later(text: str) -> bool:
    """Whether `text` only puts the thing off until later, in words of its own ("lo dejamos para mañana",
    "machen wir morgen weiter", "i'll look it up and come back tomorrow", "non ora, domani"): every clause
    is a put-off phrase, a clause of a later-word among only the words said around one (`putting_off_words`:
    who, going on, finishing, talking, the thing as a pronoun), or filler; one names the later at least.
    A clause with any other word is no put-off: "the lesson later on was too fast", "no injuries for now"."""
    t = command_table()
    found = False
    for forms in clauses(text):
        # a phrase of putting off that says now or later ("not now", "ahora no", "see you tomorrow"); a menu's
        # "quit", a goodbye or "not interested" leaves for good
        if any(f in t.putting_off and (t.until_later.search(f) or t.now.search(f)) for f in forms):
            found = True
            continue
        if any(not f for f in forms):
            continue  # only filler ("ok", "please")
        clause = forms[0]
        later = t.until_later.search(clause) is not None
        rest = t.until_later.sub(" ", clause).split()  # every later-word ("la suite demain", "come back later")
        if segmented(rest, t.putting_off_words, t.polite_ending) is None:
            return False
        found = found or later
    return found


def later_no_no(text: str) -> bool:
    """Whether a put-off (`says_later`) names a later and says no no of its own: "maybe later", "vielleicht
    ein andermal", not "not now", "ahora no" nor "nah, maybe later". To an offer it is a no for now, the
    offer kept to come back to; "not now" stays the no a yes/no question reads (docs/understanding.md)."""
    t = command_table()
    for forms in clauses(text):
        clause = forms[0]
        if t.now.search(clause):
            return False
        if not t.until_later.search(clause) and read_yes_no(clause) is False:
            return False
    return any(t.until_later.search(forms[0]) for forms in clauses(text))


def puts_off(text: str) -> bool:
    """Whether `text` puts what is going on off until later rather than dropping it ("can we finish this
    later?", "gotta go, bus is here"): a cancel said so leaves a paused run paused."""
    return any(command_table().until_later.search(forms[0]) for forms in clauses(text))


@lru_cache(maxsize=1024)
def says_not_knowing(text: str) -> bool:
    """Whether `text` only says the user does not know or remember ("idk", "no idea tbh", "keine
    Ahnung"): not a refusal ("rather not say") nor an answer ("any")."""
    return _only(text, command_table().not_knowing)


def says_not_understanding(text: str) -> bool:
    """Whether `text` only says the user does not understand ("i dont get it", "no entiendo", "je suis confus"):
    the engine's help where nothing reads it; a lesson explains the part at hand instead."""
    return _only(text, command_table().lost)


@lru_cache(maxsize=1024)
def says_help(text: str) -> bool:
    """Whether `text` asks what the question needs ("im confused, help me", "Hilfe, was soll ich hier eingeben?")."""
    t = command_table()
    return _only(text, _Either(t.help, t.lost), _Either(t.confused, t.lost))


@lru_cache(maxsize=1024)
def asks_for_person(text: str) -> bool:
    """Whether `text` asks to talk to a person ("human please", "quiero hablar con una persona")."""
    t = command_table()
    for forms in clauses(text):
        clause = forms[0]
        if not t.nouns.search(clause):
            continue
        if any(f in t.alone for f in forms):
            return True  # the person alone: "a real person", "human"
        if t.verbs.search(clause) and (len(clause.split()) <= _SHORT_CLAUSE or t.asking.search(clause)):
            return True
        # "i want a human", "can i get an agent", "ich brauche einen menschen": the person ends the clause
        # ("i want a human trainer someday" names a kind of trainer)
        if t.asking.search(clause) and any(_short_wanted(t.wanted_end.search(f)) for f in forms):
            return True
    return False


def _short_wanted(found: re.Match[str] | None) -> bool:
    """Whether a clause that ends with the person wanted is short: the words up to the person, what it is
    for not counted ("can i get a human coach for this")."""
    if found is None:
        return False
    said = found.string[: found.start("tail")] if found.group("tail") else found.string
    return len(said.split()) <= _SHORT_CLAUSE


@lru_cache(maxsize=1024)
def said(text: str, activity: str | None = None) -> Said | None:
    """The engine command `text` says, if any, in the order a turn heeds them (each is read by
    its own clauses, so no message says two); `activity`: the open flow's name."""
    if says_cancel(text, activity):
        return "cancel"
    if says_help(text):
        return "help"
    if asks_for_person(text):
        return "person"
    return "skip" if says_skip(text) else None


def says_any(text: str, activity: str | None = None) -> bool:
    """Whether any of the engine's own readers here takes `text` for what it reads: a command (`said`),
    putting off, declining, or not knowing. A value a question names may be such a word ("later", "none")."""
    return (
        said(text, activity) is not None
        or says_later(text)
        or says_refusal(text)
        or says_unsure(text)
        or says_putting_off(text)
    )
