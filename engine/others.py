"""Clauses that are no answer of the user's own: a message at a question may name a value of it while telling
something else -- about someone else ("my sister is 12 and trains 5 days a week", "en el iPhone de mi madre llegan
bien"), what someone else says ("my coach says 4 days is the minimum"), the bot quoted back ("you asked how many
days"), a time gone by ("last year I did 5 days and burned out", "l'an dernier je pesais 75") or a condition ("if
it's 4 days then fine, but what if I miss one?"). Such a clause gives no value; the clause beside it may ("my
sister Maria uses this app too, I'm Elena", "last year I did 5 days, so 3 this time").

`own_words` is the message without those clauses, as typed (each kept clause keeps its punctuation, so a question
stays one): the read stage gives the open question what is left, and small talk when nothing is
(engine/reading.py). The words, in six languages, are data (engine/data/others.yaml), matched on the folded text;
a language's person is matched after that language's "my" or article only, so that words of two languages do not
make one ("la" and the English "son").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from engine.cues import fold_same_length
from engine.tables import LANGUAGES, FoldedWords, alternation, but_words, load_table

OTHERS_FILE = Path(__file__).parent / "data" / "others.yaml"


class OthersTable(BaseModel):
    """engine/data/others.yaml (its header says what each list is for)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    people: FoldedWords
    whose: FoldedWords
    of: FoldedWords
    they: FoldedWords
    like: FoldedWords
    says: FoldedWords
    you_said: FoldedWords
    i: FoldedWords
    then: FoldedWords
    now: FoldedWords
    busy: FoldedWords
    after: FoldedWords
    if_: FoldedWords = Field(alias="if")
    does: FoldedWords
    mine: FoldedWords


def load_others(path: Path = OTHERS_FILE) -> OthersTable:
    """The table, validated; a broken file says what to fix."""
    return load_table(path, OthersTable, "others table")


# a word of its own: no letter (or an apostrophe's elision) touching either side
_B, _E = r"(?<![\w'])", r"(?![\w])"
# a few words a clause may open with before what it says ("and", "oh", "so", "pues", "allora")
_OPENERS = (
    "and|but|also|oh|well|so|plus|then|ok|okay|hmm|y|e|pero|pues|bueno|entonces|und|aber|also|na|tja|et|mais|bon"
    "|alors|donc|mas|bem|entao|ma|beh|allora|quindi|pero"
)
# where one clause ends and the next begins: punctuation, a spaced dash, a "but", and "and" before the user
# ("and I", "y yo", "und ich") or a word of contrast ("while", "mientras")
_CONTRAST = "while|whereas|mientras|wahrend|alors que|tandis que|enquanto|mentre|invece"


@dataclass(frozen=True)
class _Compiled:
    about_other: re.Pattern[str]  # someone else opening the clause, or a comparison with them
    owned: re.Pattern[str]  # a thing of someone else's ("the iPhone of my mother", "my wife's phone")
    reported: re.Pattern[str]  # what someone else says, or the bot's words quoted back
    user: re.Pattern[str]  # the user as a subject ("I", "yo", "ich")
    then: re.Pattern[str]
    ago: re.Pattern[str]
    now: re.Pattern[str]
    busy: re.Pattern[str]
    after: re.Pattern[str]
    condition: re.Pattern[str]
    thing: re.Pattern[str]  # a thing with its "my" or article opening the clause as the subject of a verb
    mine: re.Pattern[str]  # words that make such a clause the user's choice all the same ("the best for me is")
    split: re.Pattern[str]
    cue: frozenset[str]  # words a clause of another holds one of: most messages have none


def _thing(t: OthersTable, lang: str) -> str:
    """A thing as the subject opening a clause, in one language: its "my" or article, one to three words of two
    letters or more (the thing, named `thing`), then a verb of the same language a thing does ("my lunch break
    is", "la palestra chiude", "a versão antiga merecia"). No digit in the thing's words ("the 3 is fine" names a
    value); one language throughout, so that "il y a trois jours" (an Italian article, a French verb) and "mon wed
    fri works" (a French "my", an English verb) are no thing."""
    whose = getattr(t.whose, lang)
    spaced = alternation([w for w in whose if not w.endswith("'")])
    elided = alternation([w for w in whose if w.endswith("'")] or ["\0"])
    word = r"[^\W\d_][\w'-]+"
    does = alternation(getattr(t.does, lang)).replace("ss", "(?:ss|ß)")  # the table is folded: "schließt" too
    return rf"(?:{spaced}\s+|{elided}\s*)(?P<thing_{lang}>(?:{word}\s+){{0,2}}?{word})\s+{does}{_E}"


def _person(t: OthersTable, lang: str) -> str:
    """One language's someone: its "my" or article, up to two words ("my old coach"), the person."""
    whose = [w for w in getattr(t.whose, lang)]
    spaced = alternation([w for w in whose if not w.endswith("'")])
    elided = alternation([w for w in whose if w.endswith("'")] or ["\0"])
    return rf"(?:{spaced}\s+|{elided}\s*)(?:[\w'-]+\s+){{0,2}}?{alternation(getattr(t.people, lang))}{_E}"


@lru_cache(maxsize=1)
def _table() -> _Compiled:
    t = load_others()
    opener = rf"^(?:(?:{_OPENERS})\s+)*"
    people = {lang: _person(t, lang) for lang in LANGUAGES}
    # a comparison word before someone ("like my sister") is named, so that someone alone is told from it
    like = {lang: rf"(?P<like_{lang}>{alternation(getattr(t.like, lang))}\s+)?" for lang in LANGUAGES}
    others = [rf"{like[lang]}(?:{people[lang]}|{alternation(getattr(t.they, lang))}{_E})" for lang in LANGUAGES]
    owned = [rf"{_B}{alternation(getattr(t.of, lang))}\s+{people[lang]}" for lang in LANGUAGES]
    # English says it with 's, German with the case of its "my" alone ("das Handy meiner Tochter")
    owned.append(rf"{_B}{people['en']}'s{_E}")
    owned.append(rf"{_B}(?:meiner|meines|unserer|unseres)\s+(?:[\w'-]+\s+)?{alternation(t.people.de)}{_E}")
    reported = [rf"{_B}{people[lang]}\s+(?:[\w'-]+\s+)?{alternation(getattr(t.says, lang))}{_E}" for lang in LANGUAGES]
    reported.append(rf"{_B}{alternation(t.you_said.all())}{_E}")
    but = alternation([w for w in but_words().but.all() if w != "ma"])  # "ma" is the French "my" as well
    return _Compiled(
        about_other=re.compile(opener + "(?:" + "|".join(others) + ")"),
        owned=re.compile("|".join(owned)),
        reported=re.compile("|".join(reported)),
        user=re.compile(rf"{_B}{alternation(t.i.all())}{_E}|(?<![\w'])j'"),
        # "i was thinking 3" and "i was going to say 4" put an answer forward: no time gone by
        then=re.compile(rf"{_B}{alternation(t.then.all())}{_E}(?! (?:thinking|going|gonna|hoping|wondering|planning))"),
        ago=_AGO,
        now=re.compile(rf"{_B}{alternation(t.now.all())}{_E}"),
        busy=re.compile(rf"{_B}{alternation(t.busy.all())}{_E}"),
        after=re.compile(rf"{_B}{alternation(t.after.all())}{_E}"),
        condition=re.compile(opener + rf"{alternation(t.if_.all())}{_E}"),
        thing=re.compile(opener + "(?:" + "|".join(_thing(t, lang) for lang in LANGUAGES) + ")"),
        mine=re.compile(rf"{_B}{alternation(t.mine.all())}{_E}|(?<![\w'])m'"),
        # one word of each phrase (its longest): a clause of another holds one of them at least
        cue=frozenset(
            _rarest(phrase) for words in (t.people, t.they, t.then, t.busy, t.if_, t.you_said) for phrase in words.all()
        )
        | frozenset(phrase.split()[0] for phrase in t.does.all())
        | frozenset(phrase.split()[0].replace("ss", "ß") for phrase in t.does.all() if "ss" in phrase)
        | _AGO_WORDS,
        split=re.compile(
            rf"[,;.!?¿¡…\n]+\s*|\s[-–—]\s|\s(?=(?:{but}|{_CONTRAST}){_E})"
            rf"|\s(?=(?:and|y|und|et|e)\s+{alternation(t.i.all())}{_E})"
        ),
    )


# what a clause's span may start or end with beside its words
_EDGES = " ,;.!¿¡…-–—\n"
# years ago, by number, in the six languages ("2 years ago", "il y a 2 ans", "hace 3 años", "vor 2 Jahren"): a time
# gone by. Not days or months: "how many days ago were you charged?" is answered so ("a month ago maybe")
_AGO = re.compile(
    r"(?<![\w'])(?:\d+|a|an|one|two|three|a few|a couple of) years? ago"
    r"|(?<![\w'])(?:hace|vor|il y a|ha) (?:\d+|un|unos|einem|zwei|drei|deux|trois|um|dois|tres)"
    r" (?:anos?|jahren?|ans?)(?![\w])"
    r"|(?<![\w'])(?:\d+|un|uno|due|tre) (?:anni|anno) fa(?![\w])"
)
# the words `_AGO` turns on, and a word of a message as the cue words are written
_AGO_WORDS = frozenset({"ago", "fa", "hace", "vor", "il", "ha"})
_WORD = re.compile(r"[\w'-]+")
_BARE_WORD = re.compile(r"[\w-]+")
# words too common to say a phrase is there ("i have a match" is there when "match" is)
_COMMON = frozenset({"i", "i'm", "im", "have", "has", "had", "a", "an", "the", "my", "to", "in", "at", "on", "is", "am",
                     "de", "la", "le", "el", "ich", "je", "eu", "io", "um", "un", "una", "une", "ho", "tengo", "j'ai",
                     "bin", "bist", "sono", "sou", "estoy", "estou", "habe", "hab"})  # fmt: skip


def _rarest(phrase: str) -> str:
    """The word of `phrase` a message is least likely to hold by chance: its longest uncommon one."""
    words = phrase.split()
    return max([w for w in words if w not in _COMMON] or words, key=len)


# a "si" or a "se" opening a short clause is a yes ("si, 3 días") or a pronoun more often than an "if"
_SHORT_CONDITION_WORDS = 4


def _not_own(
    clause: str,
    typed: str,
    past: Callable[[str], bool] | None,
    thing: Callable[[str, str], bool] | None = None,
    same: str = "",
) -> bool:
    """Whether one clause (folded; `typed` as typed) tells something other than the user's own answer now; a time
    gone by only where `past` says so of it, a thing as the subject only where `thing` says so of the thing's
    words and the clause as typed (`same`: the clause as typed, one character for one of `clause`; `own_words`).
    A question is left to the readers of questions back ("se reinstallo perdo le liste?", "my coach says 4, is
    that enough?" keeps its question)."""
    c = _table()
    if clause.endswith("?"):
        return False
    if c.reported.search(clause):
        return True
    if (c.then.search(clause) or c.ago.search(clause)) and not c.now.search(clause) and (past is None or past(typed)):
        return True
    if c.busy.search(clause) and not c.after.search(clause):
        return True  # busy then: the time it names is ruled out ("de manhã eu trabalho")
    cond = c.condition.match(clause)
    if cond and (cond.group(0).split()[-1] not in ("si", "se") or len(clause.split()) >= _SHORT_CONDITION_WORDS):
        return cond.end() < len(clause.rstrip(" ?!."))
    # someone else said alone is the subject of the clause after it ("my wife and I train 3 days"), no clause
    # ("like my sister" alone is a comparison: someone else's, not the user's)
    opened = c.about_other.match(clause)
    alone = opened is not None and opened.end() >= len(clause.rstrip(" ?!.")) and not any(opened.groupdict().values())
    about = (opened is not None and not alone) or c.owned.search(clause) is not None
    if about:
        return c.user.search(clause) is None
    # a thing as the subject ("my lunch break is 60 minutes", "la palestra chiude tra 20 minuti"): the number or
    # the day it names is the thing's, unless the user is in the clause ("the best for me is 3") or the thing is
    # what the question asks about (`thing`, given by the read stage: "my goal is to lose weight")
    said = c.thing.match(clause)
    if said is None or c.user.search(clause):
        return False
    named = next(k for k, v in said.groupdict().items() if v is not None and k.startswith("thing_"))
    if c.mine.search(clause, said.start(named)):
        return False
    whole = same or clause
    return thing is None or thing(whole[said.start(named) : said.end(named)], whole)


# the user, said as the subject set against someone else's clause left out ("mon fils est allergique aux arachides,
# moi au gluten", "il mio gatto si chiama Luna, io Marco"), after a joining word ("and me", "y yo", "e io")
_USER_OPENING = re.compile(
    r"^(?:(?:and|but|y|pero|et|mais|und|aber|e|ma|mas)\s+)?(?:me|myself|yo|moi|ich|eu|io)(?:\s*,)?\s+(?=\w)"
    # the verb is left out with the rest of the clause set against, so its preposition stays with what the user
    # names ("moi au gluten", "yo a los frutos secos", "io al glutine", "eu ao glúten", "me to peanuts", "ich gegen
    # Nüsse"): no word of it
    r"(?:(?:to|with|from|al|a\s+(?:los|las|la|l')|a|au|aux|a\s+la|à\s+la|à\s+l'|à|de|du|des|gegen|auf|mit|von"
    r"|alla|allo|alle|agli|ai|all'|ao|aos|à|às|com|da|do|dos|das)\s*(?<=[\s'])(?=\w))?",
    re.I,
)


def without_user(text: str) -> str | None:
    """`text` without the user named as the subject it opens with ("moi au gluten" -> "au gluten", "io Marco" ->
    "Marco"), or None when it opens with no such word."""
    m = _USER_OPENING.match(text.strip())
    return text.strip()[m.end() :] if m else None


def own_words(
    text: str, *, past: Callable[[str], bool] | None = None, thing: Callable[[str, str], bool] | None = None
) -> str:
    """`text` without its clauses that are no answer of the user's own (`_left`)."""
    if past is None and thing is None:
        return _own_words(text)  # read twice a turn at a question, on the same text
    return _left(text, past, thing)


@lru_cache(maxsize=1024)
def _own_words(text: str) -> str:
    return _left(text, None, None)


def _typed(text: str, folded: str, start: int, end: int) -> str:
    """The clause `folded[start:end]` as typed, cut at the same edges (folding keeps every position)."""
    lead = len(folded[start:end]) - len(folded[start:end].lstrip(_EDGES))
    trail = len(folded[start:end].rstrip(_EDGES))
    return text[start + lead : start + trail]


def _left(text: str, past: Callable[[str], bool] | None, thing: Callable[[str, str], bool] | None = None) -> str:
    """`text` without its clauses that are no answer of the user's own (`_not_own`), as typed; "" when every
    clause is one of them, `text` itself when none is. A clause telling of a time gone by is left out where
    `past` (given the clause as typed) says it names the asked value ("last year I did 5 days" at the days
    question), not where it tells something else ("30, oh btw i sprained my ankle last month" gives an injury
    ahead) or where the question asks about the past itself ("tive uma cirurgia no joelho há dois anos"); with
    no `past`, always. A clause whose subject is a thing is left out where `thing` (given the thing's words as
    typed, and the clause) says it is not what the question asks about; with no `thing`, always."""
    folded = fold_same_length(text)
    cue = _table().cue
    # "she's" as written and "daughter" of "daughter's"
    if cue.isdisjoint(_WORD.findall(folded)) and cue.isdisjoint(_BARE_WORD.findall(folded)):
        return text  # no word any such clause is made of
    spans: list[tuple[int, int]] = []
    last = 0
    for m in _table().split.finditer(folded):
        if m.end() > last:
            spans.append((last, m.end()))
            last = m.end()
    if last < len(text):
        spans.append((last, len(text)))
    kept = [
        (s, e)
        for s, e in spans
        if not (
            (c := folded[s:e].strip(_EDGES)) and _not_own(c, text[s:e].strip(), past, thing, _typed(text, folded, s, e))
        )
    ]
    if len(kept) == len(spans):
        return text
    own = "".join(text[s:e] for s, e in kept)
    return own.strip(" ,;-–—") if any(ch.isalnum() for ch in own) else ""
