"""Questions back and small talk at an open question: what they are, and when a message is one.

At an asking state a user may ask about the question instead of answering it ("why do you need my
timezone?", "¿qué es latency?", "was heißt das?") or only greet, apologise or say they are back ("hi,
sorry, I was away"). Neither is a failed answer. The read stage (engine/reading.py) asks `at_question`
what the message is, and reads it as an `AskBack` or a `Chitchat` command only when it carries no answer:

- a clause that states something the state's parser reads ("3 — why do you ask?", "why? bad knee") makes
  the message an answer;
- a yes/no question naming a value the question takes is a tentative answer ("is 4 ok?"), unless the
  parser only took the text as it was (a free-text reader's echo of "does asthma count??");
- an open question ("what counts as intermediate?", "whats pescatarian") asks, even when it names an option;
- where any text is an answer (the parser is `greedy`: a feedback comment, an exercise's answer), only a
  question that can be about nothing but the question itself ("why do you need that?", "what do you mean?")
  asks, and only when it is the whole message: "why does the app crash?" there is the comment.

The cue phrases of six languages are data (engine/data/questions_back.yaml), matched on the folded text
(lower case, no accents) so that positions stay those of the message and the `words` of a command are
the user's own. What is said back is decided by the executor (engine/flowrun.py) from the state's `why`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, field_validator

from engine.commands import Social
from engine.cues import fold_same_length
from engine.extract import Invalid, copied
from engine.hedges import unhedged
from engine.models import Slots
from engine.states import Ask, render
from engine.tables import any_of, compiles, load_table
from engine.yesno import read_yes_no

QUESTIONS_BACK_FILE = Path(__file__).parent / "data" / "questions_back.yaml"

About = Literal["why", "meaning", "options", "other"]
SOCIAL: tuple[Social, ...] = get_args(Social)
# remarks about the bot or the conversation, and feelings: an answer where any text is one
REMARKS: frozenset[Social] = frozenset({"compliment", "feeling", "reaction", "complaint"})
# saying hello or being back, at a paused activity: its question is asked again
COMING_BACK: frozenset[Social] = frozenset({"greeting", "away", "sorry"})
# asking to wait answers nothing, whatever it names ("one sec" is no 1, "attends deux secondes" no name)
WAITING: frozenset[Social] = frozenset({"waiting"})
# back after stepping away, mid-question ("sorry, where were we?"): the question again, nothing else
COMING_BACK_ONLY: frozenset[Social] = frozenset({"away", "sorry"})


class _Openings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    strong: list[str]
    weak: list[str]

    _check = field_validator("strong", "weak")(classmethod(lambda cls, v: compiles(v)))


class _About(BaseModel):
    model_config = ConfigDict(extra="forbid")
    why: list[str]
    options: list[str]
    meaning: list[str]

    _check = field_validator("why", "options", "meaning")(classmethod(lambda cls, v: compiles(v)))


class _Talk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    say: str
    phrases: list[str]

    _check = field_validator("phrases")(classmethod(lambda cls, v: compiles(v)))


class QuestionsBackTable(BaseModel):
    """engine/data/questions_back.yaml (its header says what each list is for)."""

    model_config = ConfigDict(extra="forbid")
    interrogatives: _Openings
    polar: list[str]
    weighing: list[str]
    comparing: list[str]
    judging: list[str]
    judging_conditional: list[str]
    proposals: list[str]
    about: _About
    about_the_question_tail: str
    about_the_question: list[str]
    about_the_answer: list[str]
    elsewhere: list[str]
    help: list[str]
    plain_words: list[str]
    meaning_words: list[str]
    filler: list[str]
    talk_tail: list[str]
    wellbeing: list[str]
    disputing: list[str]
    chitchat: dict[Social, _Talk]

    _check = field_validator(
        "polar",
        "weighing",
        "comparing",
        "judging",
        "judging_conditional",
        "proposals",
        "about_the_question",
        "about_the_answer",
        "elsewhere",
        "help",
        "talk_tail",
        "disputing",
    )(classmethod(lambda cls, v: compiles(v)))

    @field_validator("about_the_question_tail")
    @classmethod
    def _tail_compiles(cls, value: str) -> str:
        return compiles([value])[0]

    @field_validator("chitchat")
    @classmethod
    def _every_kind(cls, value: dict[Social, _Talk]) -> dict[Social, _Talk]:
        missing = [k for k in SOCIAL if k not in value]
        if missing:
            raise ValueError(f"chitchat needs every kind {list(SOCIAL)}; missing {missing}")
        return value


def load_questions_back(path: Path = QUESTIONS_BACK_FILE) -> QuestionsBackTable:
    """The table, validated; a broken file says what to fix."""
    return load_table(path, QuestionsBackTable, "questions-back table")


@dataclass(frozen=True)
class _Compiled:
    strong: re.Pattern[str]
    weak: re.Pattern[str]
    polar: re.Pattern[str]
    weighing: re.Pattern[str]
    comparing: re.Pattern[str]
    judging: re.Pattern[str]
    judging_conditional: re.Pattern[str]
    proposal: re.Pattern[str]
    about: tuple[tuple[About, re.Pattern[str]], ...]
    itself: re.Pattern[str]
    how_to_answer: re.Pattern[str]
    elsewhere: re.Pattern[str]
    help: re.Pattern[str]
    plain: frozenset[str]
    meaning_words: frozenset[str]
    filler: frozenset[str]
    wellbeing: frozenset[str]
    disputing: re.Pattern[str]
    talk: tuple[tuple[Social, re.Pattern[str]], ...]
    say: dict[Social, str]


@lru_cache(maxsize=1)
def _table() -> _Compiled:
    t = load_questions_back()
    opening = r"\A(?:{})(?![\w'])"
    word = r"(?<![\w']){}(?![\w'])"
    about: list[tuple[About, re.Pattern[str]]] = [
        ("why", re.compile(word.format(any_of(t.about.why)))),
        ("options", re.compile(word.format(any_of(t.about.options)))),
        ("meaning", re.compile(word.format(any_of(t.about.meaning)))),
    ]
    tail = t.about_the_question_tail
    return _Compiled(
        strong=re.compile(opening.format(any_of(t.interrogatives.strong))),
        weak=re.compile(opening.format(any_of(t.interrogatives.weak))),
        polar=re.compile(r"\A" + any_of(t.polar)),
        weighing=re.compile(r"(?<![\w'])" + any_of(t.weighing) + r"(?![\w'])"),
        comparing=re.compile(r"(?<![\w'])" + any_of(t.comparing) + r"(?![\w'])"),
        judging=re.compile(r"(?<![\w'])" + any_of(t.judging) + r"(?![\w'])"),
        judging_conditional=re.compile(r"(?<![\w'])" + any_of(t.judging_conditional) + r"(?![\w'])"),
        proposal=re.compile(opening.format(any_of(t.proposals))),
        about=tuple(about),
        # matched from a word's start only: searched anywhere, "h+i+" would start a run at every "h" of "hhhh…"
        itself=re.compile(rf"(?<![\w']){any_of(t.about_the_question)}(?: {tail})*"),
        how_to_answer=re.compile(opening.format(any_of(t.about_the_answer))),
        elsewhere=re.compile(r"(?<![\w'])" + any_of(t.elsewhere)),
        help=re.compile(any_of(t.help)),
        plain=frozenset(w for line in t.plain_words for w in fold_same_length(line).split()),
        meaning_words=frozenset(w for line in t.meaning_words for w in fold_same_length(line).split()),
        filler=frozenset(t.filler),
        wellbeing=frozenset(f"{w} {thanks}".strip() for w in t.wellbeing for thanks in ("", *_THANKED) if w),
        disputing=re.compile(r"(?<![\w'])(?:" + any_of(t.disputing) + r")(?![\w'])"),
        # small talk may end in words that say nothing more ("this is fun so far", "you're slow today lol")
        talk=tuple(
            (k, re.compile(rf"(?<![\w'])(?:{any_of(v.phrases)})(?: {any_of(t.talk_tail)})*"))
            for k, v in t.chitchat.items()
        ),
        say={k: v.say for k, v in t.chitchat.items()},
    )


# -- a message in parts ---------------------------------------------------------------------------------

Role = Literal["filler", "statement", "question", "open", "polar", "proposal"]


@dataclass(frozen=True)
class Part:
    """A comma-separated part of a sentence: its words (folded, filler trimmed) and where it is typed."""

    folded: str
    start: int
    end: int
    role: Role


_SENTENCE = re.compile(r"[?!.;…¿¡]+|\s[-–—]+\s|\s[-–—]+$|^[-–—]+\s")
_WORDS = re.compile(r"[\w'’-]+")


def _trimmed(folded: str) -> tuple[str, int, int]:
    """The words of `folded` without the filler it opens with ("hmm so what ..."), and where they are
    in it; filler at the end stays ("is 4 ok?")."""
    table = _table()
    spans = [(m.group(), m.start(), m.end()) for m in _WORDS.finditer(folded)]
    while spans and spans[0][0].strip("-'") in table.filler:
        spans.pop(0)
    if not spans:
        return "", 0, 0
    start, end = spans[0][1], spans[-1][2]
    return " ".join(w for w, _, _ in spans), start, end


# a face typed with punctuation (":)", ":D", ";-)", "xD", "<3"): it says nothing in words; read as blank, the
# same length, so the positions of the words stay those of the message
_EMOTICONS = re.compile(r"(?<![\w:;=])(?:[:;=][-'^]?[)(\]\[dDpPoO3/\\|*]++|[xX][dD]++|<3++|\^\^|\^_\^)(?![\w])")


def folded(text: str) -> str:
    """The message as its parts are cut from it (`parts`): lower case, accents off, emoticons blanked."""
    return _folded(text)


def _folded(text: str) -> str:
    """`fold_same_length`, without its per-character walk for the plain ASCII most messages are;
    emoticons blanked."""
    folded = text.lower() if text.isascii() else fold_same_length(text)
    return _EMOTICONS.sub(lambda m: " " * len(m.group()), folded) if _MAY_EMOTE.search(folded) else folded


_MAY_EMOTE = re.compile(r"[:;=<^]|\bx")


@lru_cache(maxsize=1024)  # the text's alone, asked at every question: the parts' small talk, help and questions
def may_ask(text: str) -> bool:
    """A cheap first look: could `text` be a question back, a call for help or small talk? Most
    answers are not, and the read stage then needs no parser and no slots to tell."""
    table = _table()
    found = parts(text)
    if not found:
        return bool(_only_filler_talk(text))
    return (
        any(
            p.role in ("question", "open", "polar") or table.help.fullmatch(p.folded) or _talk(p.folded, table)
            for p in found
        )
        or _whole_talk(text) is not None
    )


@lru_cache(maxsize=256)
def parts(text: str) -> tuple[Part, ...]:
    """`text` in the parts that ask, state or only fill, in order."""
    table = _table()
    folded = _folded(text)
    out: list[Part] = []
    last = 0
    bounds = [(m.start(), m.end(), m.group()) for m in _SENTENCE.finditer(folded)] + [(len(folded), len(folded), "")]
    for start, end, mark in bounds:
        sentence = folded[last:start]
        asked = "?" in mark or "¿" in folded[max(0, last - 1) : last + 1]
        pieces = [(m.start(), m.end()) for m in re.finditer(r"[^,]+", sentence)]
        for n, (a, b) in enumerate(pieces):
            words, i, j = _trimmed(sentence[a:b])
            if not words:
                continue
            at = last + a
            ends_asked = asked and n == len(pieces) - 1
            out.append(Part(words, at + i, at + j, _role(words, ends_asked, table)))
        last = end
    return tuple(out)


def _role(words: str, asked: bool, table: _Compiled) -> Role:
    if asked and table.comparing.search(words):
        return "open"  # "e lo stesso per iPhone e iPad?" asks whether they are the same, proposing neither
    if table.proposal.search(words):
        return "proposal"
    one_word = " " not in words
    if one_word and not asked and not table.itself.fullmatch(words):
        return "statement"  # "Chi", "Was": names and answers before they are questions
    # "does a yoga mat count?", "is 15 minutes even worth it?" weigh what they name against the question:
    # they ask, as an open question does
    if (table.weighing.search(words) or table.comparing.search(words)) and (asked or table.polar.search(words)):
        return "open"
    # "is 2 hours enough?", "¿2 horas es suficiente?", "5 minutos de atraso é normal?" say of the value whether it
    # will do: they ask about it, as a weighing does, though they name nothing it is weighed against; in the
    # conditional ("would 30 minutes be enough?") the value is put forward, a tentative answer
    if asked and table.judging.search(words) and not table.judging_conditional.search(words):
        return "open"
    if table.strong.search(words) or (asked and table.weak.search(words)):
        return "polar" if table.polar.search(words) else "open"
    return "question" if asked else "statement"


def _about(words: str) -> About:
    for about, pattern in _table().about:
        if pattern.search(words):
            return about
    return "other"


# a question back beside an answer is a few words of its own ("why?", "¿por qué?", "warum?")
_WHY_BESIDE_WORDS = 3


def asks_why_beside(text: str) -> bool:
    """Whether a message that answers also asks why, in a part of its own of a few words: "on my iphone, why?",
    "Berlin. ¿por qué?", "3 - warum?", "iphone, perché?". The answer is taken; the why is answered from the
    question's declared reason, not dropped."""
    found = parts(text)
    return len(found) > 1 and any(
        p.role in ("question", "open") and len(p.folded.split()) <= _WHY_BESIDE_WORDS and _about(p.folded) == "why"
        for p in found[1:]
    )


# -- reading ---------------------------------------------------------------------------------------------

Reads = Callable[[str], object]  # the part's value as the state's parser reads it (None: nothing)


@dataclass(frozen=True)
class QuestionBack:
    about: About
    words: str  # the question as typed
    help: bool = False  # it calls for help ("help, what do these mean?"): the help command


def offers(reads: Reads) -> bool:
    """Whether a question's parser (`reads`) takes a plain yes and a plain no as its answers: a yes/no offer
    ("Shall I make a study plan?", "Shall I save it?", "Is this right?"), whose question back is about what
    is offered, never an answer."""
    return reads("yes") is True and reads("no") is False


def disputes(text: str) -> bool:
    """Whether `text` disputes what an offer is based on ("i thought i did ok", "pensé que lo hice bien",
    "ich dachte, ich war gut") and says neither yes nor no: a question back about the offer's reason."""
    words = " ".join(_WORDS.findall(_folded(text)))
    return bool(words) and _table().disputing.search(words) is not None and read_yes_no(text) is None


def _takes_yes(reads: Reads) -> bool:
    """Whether the question's parser takes a plain yes as an answer (an offer, a confirmation, a review)."""
    value = reads("yes")
    return value is not None and not isinstance(value, Invalid)


def asks_about_offer(text: str, offer: str) -> bool:
    """Whether `text`, said to a yes/no `offer` where any other message is a new request (the main conversation's
    offer of a person), asks about the offer itself or disputes it: "why?", "what do you mean?", "¿por qué?",
    "i thought it was covered"; not "why does sync fail?", a question of its own."""
    if read_yes_no(text) is not None:
        return False
    if disputes(text):
        return True
    return question_back(text, lambda _: None, free_text=True, question=offer) is not None


def question_back(text: str, reads: Reads, *, free_text: bool, question: str = "") -> QuestionBack | None:
    """`text` as a question back about the open question, or None when it is not one or also answers it.

    `reads` is the state's parser (a value, or None/an `Invalid` when it reads none); `free_text`: the
    parser takes any text (then only a question about the question itself, alone, asks: one that could
    be about nothing else, or one asking what a word of the `question` means, "what kind of steps?")."""
    table = _table()
    found = parts(text)
    helped = [p for p in found if table.help.fullmatch(p.folded.rstrip("?! "))]
    asking = [p for p in found if p.role in ("question", "open", "polar") and p not in helped]
    if not asking and not helped:
        return None
    if (
        table.elsewhere.search(_folded(text))
        and not all(_reason_guess(found, p) for p in asking[1:] or found)
        and not (asking and all(_answering_its(p, question) for p in asking))
    ):
        return None  # a request, a person asked for, another topic: not about this question
    hedged = unhedged(text) if not free_text and not helped else None
    if (
        hedged is not None
        and all(p.role == "question" for p in asking)
        and (
            _answers(reads(text), text, echo_counts=False, reads=reads)
            or _put_forward(reads, hedged.words.strip(" ?¿"), question)
        )
    ):
        # an answer said unsure, its parts read apart from each other ("Montag, Mittwoch, Freitag vielleicht?",
        # "segunda, quarta e sexta, pode ser?"): no part asks in words, the hedge asks nothing, the whole answers;
        # the words the hedge leaves are put forward as the answer whatever reader takes them ("le gluten je crois
        # ?", "peanuts maybe?": an allergy, though the allergies' reader takes any words)
        return None
    # asking whether two things are the same ("UTC+1, c'est pareil que Paris ?", "è lo stesso per iPhone e iPad?"):
    # the value said beside it is one of the things compared, not an answer
    comparing = not free_text and any(p.role == "open" and table.comparing.search(p.folded) for p in asking)
    for p in found:
        typed = text[p.start : p.end]
        if p.role == "filler" or p in helped or _talk(p.folded, table) or comparing:
            continue
        if free_text:
            if p.role == "statement" or p.role == "proposal":
                return None
            if (
                not table.itself.fullmatch(p.folded)
                and not asks_how_to_answer(p)
                and not _on_its_words(p, question)
                and not _guess(found, p)
                and not _reason_guess(found, p)
            ):
                return None
            continue
        if p.role == "open":
            continue  # an open question asks, whatever it names ("what counts as intermediate?")
        if p.role == "question" and " " not in p.folded and _asks_meaning_before(found, p):
            continue  # what the question before it asks about ("ça veut dire quoi, intermédiaire ?")
        if p.role == "statement" and read_yes_no(typed) is not None and _takes_yes(reads):
            # "no, why would I", "yes why not" at a question a yes answers (an offer, a review): the yes or the no
            # said is the answer, the question beside it rhetorical
            return None
        value = reads(typed)
        # one word alone, asked ("Sam?", "gluten?", "Chloé ?"): no interrogative, nothing asked of it but whether it
        # will do; put forward as the answer where the question takes it, even by a reader that takes any words (a
        # name, an allergy). A word of the question itself ("allergies?", "name?") asks
        alone = [q for q in found if q.role != "filler"] == [p]
        if p.role == "question" and " " not in p.folded and alone and _put_forward(reads, typed, question, value):
            return None
        if p.role == "polar" and isinstance(value, bool) and read_yes_no(typed) is None:
            continue  # a yes/no question of the user's own is no yes ("does the plan include derivatives?")
        if _answers(value, typed, echo_counts=p.role in ("statement", "proposal"), reads=reads):
            return None
        # a guess is a few words of an answer, never a question of its own ("is spelling important?")
        guess = p.role == "question" and getattr(reads, "guesses", False) and _GUESS.fullmatch(p.folded) is not None
        if guess and value is not None and not isinstance(value, Invalid):
            return None  # "children?" at a quiz question: a guess, graded like any answer
    said = helped + asking if helped and asking and helped[0].start < asking[0].start else asking + helped
    words = text[said[0].start : said[-1].end]
    return QuestionBack(about=_about(" ".join(p.folded for p in asking)), words=words, help=bool(helped))


_GUESS = re.compile(
    r"(?!(?:is|are|do|does|did|can|could|should|will|would|what|why|how|which|who|where|when)\b)\S+(?:\s+\S+){0,2}"
)
# a guess at what the question meant, after asking what it meant: "what do you mean, like which screen?"
_GUESSING = re.compile(r"^(?:like|you mean|do you mean|as in|so like|tipo|genre|also|cioè|ou seja|o sea)\b")


def _guess(found: Sequence[Part], p: Part) -> bool:
    """Whether `p` is a question guessing at what the question before it asked about the open one means."""
    before = [q for q in found if q.end <= p.start and q.role != "filler"]
    return (
        p.role == "question"
        and _GUESSING.match(p.folded) is not None
        and bool(before)
        and _table().itself.fullmatch(before[-1].folded) is not None
    )


# why the question is asked, alone ("why?", "¿por qué?", "warum?", "perché?"), folded
_WHY = re.compile(r"(?:why|por que|porque|pourquoi|warum|wieso|wozu|perche|pra que|para que)")


def _reason_guess(found: Sequence[Part], p: Part) -> bool:
    """Whether `p` guesses at the reason right after asking why ("why? do you need it for the logs?", "¿por
    qué? ¿es para las recetas?"): a yes/no question about the asking, whatever it names."""
    before = [q for q in found if q.end <= p.start and q.role != "filler"]
    return (
        p.role in ("polar", "question")
        and len(before) == 1
        and before[0].role in ("open", "question")
        and _WHY.fullmatch(before[0].folded) is not None
    )


def about_answering(p: Part) -> str | None:
    """The words of part `p` beside those asking how to answer ("the model" of "where do I find the model?",
    "il bug qui" of "devo descrivere il bug qui?"), or None when it asks no such thing."""
    if p.role not in ("question", "open", "polar"):
        return None
    m = _table().how_to_answer.search(p.folded)
    return None if m is None else p.folded[m.end() :]


def _answering_its(p: Part, question: str) -> bool:
    """Whether `p` asks how to answer the `question` naming only its words ("where do I find the model?" at
    "Which phone model do you use?"): where to find the answer is no request for something else."""
    rest = about_answering(p)
    if rest is None or not question:
        return False
    table = _table()
    own = [w for w in _WORDS.findall(rest) if len(w) >= 3 and w not in table.plain]
    said = _WORDS.findall(_folded(question))
    return bool(own) and all(any(q.startswith(w[:4]) for q in said) for w in own)


def asks_options(p: Part) -> bool:
    """Whether part `p` asks which answers there are ("which ones do you have?", "what options are there?")."""
    return p.role in ("question", "open", "polar") and _about(p.folded) == "options"


def asks_how_to_answer(p: Part) -> bool:
    """Whether `p` asks how to answer ("should I mention the bugs here?", "devo descrivere il bug qui?"): what it
    names is what the answer might say, not a fact given."""
    return p.role in ("question", "open", "polar") and _table().how_to_answer.search(p.folded) is not None


def _on_its_words(p: Part, question: str) -> bool:
    """Whether `p` asks what words of the `question` mean ("what does lim mean?", "what kind of steps?")."""
    if p.role != "open" or _about(p.folded) != "meaning" or not question:
        return False
    table = _table()
    own = [w for w in _WORDS.findall(p.folded) if len(w) >= 3 and w not in table.plain and w not in table.meaning_words]
    said = _WORDS.findall(_folded(question))
    return bool(own) and all(any(q.startswith(w[:4]) for q in said) for w in own)


def plain_words() -> frozenset[str]:
    """Words that say nothing of a subject (engine/data/questions_back.yaml `plain_words`), folded."""
    return _table().plain


def not_terms() -> frozenset[str]:
    """Words that name no term a question back may ask about: the plain words and those asking what something means
    ("what does ... mean", "qué significa", "was heißt"), folded."""
    return _table().plain | _table().meaning_words


def _asks_meaning_before(found: Sequence[Part], p: Part) -> bool:
    """Whether an open question asking what something means comes right before `p`."""
    at = found.index(p)
    return at > 0 and found[at - 1].role == "open" and _about(found[at - 1].folded) == "meaning"


# a word no reader knows, in no language: a parser that reads a value from it takes any words as its value
_UNKNOWN_WORD = "qxzvjk"


def _answers(value: object, typed: str, *, echo_counts: bool, reads: Reads | None = None) -> bool:
    """Does a parser's `value` for `typed` answer the question? A value the parser only copied from a
    question ("does asthma count??" as the injuries) is no answer; in a statement it is one. A value
    that is the words themselves is one when the parser knows its words (it reads nothing from a word
    it does not know): "vegan?", "débutant ?", "Trello??" name one of the question's own values, said
    unsure, as "beginner i guess?" does."""
    if value is None or isinstance(value, Invalid):
        return False
    if not echo_counts and _trimmed_copy(value, typed):
        return False  # "do you mean food allergies?" read as the allergy "do you mean food": the words, trimmed
    if echo_counts or not copied(value, typed, words=1):
        return True
    if reads is None or (" " in typed.strip() and not isinstance(value, str)):
        return False  # a list reader's item of several words is the words it was given
    # as many unknown words as were typed: a parser that reads nothing from them knows its words ("app store?" is
    # one of its options), one that takes them takes any words
    probe = reads(" ".join([_UNKNOWN_WORD] * len(typed.split())))
    return probe is None or isinstance(probe, Invalid)


def _put_forward(reads: Reads, words: str, question: str, value: object = None) -> bool:
    """Whether `words`, put forward unsure, are a value the question takes (`value`: what `reads` made of them,
    when read already) and not the question's own words ("allergies?" at "Any food allergies?" asks about it)."""
    if not words:
        return False
    found = reads(words) if value is None else value
    if found is None or isinstance(found, Invalid):
        return False
    said = set(_WORDS.findall(_folded(question)))
    own = [w for w in _WORDS.findall(_folded(words)) if w not in _table().plain]
    # the question's word, or another ending of it ("allergy" for "allergies"): five letters in common
    return bool(own) and not all(any(w == q or (len(w) >= 5 and q[:5] == w[:5]) for q in said) for w in own)


def _trimmed_copy(value: object, typed: str) -> bool:
    """Whether a list reader's one item is several words of the question typed, in order, with some trimmed off
    (a reader of free items drops the words it knows around an item: "allergies" from "do you mean food
    allergies")."""
    if not (isinstance(value, list) and len(value) == 1 and isinstance(value[0], str)):
        return False
    got = _WORDS.findall(fold_same_length(value[0]).lower())
    said = _WORDS.findall(_folded(typed))
    if len(got) < 2 or len(got) >= len(said):
        return False
    return any(said[i : i + len(got)] == got for i in range(len(said) - len(got) + 1))


@dataclass(frozen=True)
class SmallTalk:
    kinds: tuple[Social, ...]
    words: str


_HELD = re.compile(r"(\w)\1{2,}+")


def _talk(folded: str, table: _Compiled) -> tuple[Social, ...]:
    """The kinds of small talk `folded` is made of, every word of it; () when it says anything else.
    A letter held down ("heyyy", "LMAOOO", "thanksss", "mdrrr") is read as one letter, or two."""
    return _talk_of(folded) if table is _table() else _read_talk(folded, table)


@lru_cache(maxsize=1024)
def _talk_of(folded: str) -> tuple[Social, ...]:
    """`_talk` with the table, once per text: a turn reads the same parts for small talk several
    times (the cheap first look, the small-talk reader, questions back, new requests), and a part
    without filler is the whole message too; each reading tries a dozen long alternations per word."""
    return _read_talk(folded, _table())


def _read_talk(folded: str, table: _Compiled) -> tuple[Social, ...]:
    said = _talk_words(folded.split(), table)
    if said or not _HELD.search(folded):
        return said
    for held in (r"\1", r"\1\1"):
        said = _talk_words(_HELD.sub(held, folded).split(), table)
        if said:
            return said
    return ()


def _talk_words(words: list[str], table: _Compiled) -> tuple[Social, ...]:
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


def _phrase_at(words: list[str], at: int, table: _Compiled) -> tuple[Social, int] | None:
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
    table = _table()
    kinds: list[Social] = []
    talk: list[Part] = []
    other: list[str] = []
    for p in parts(text):
        if p.role == "filler":
            continue
        said = _talk(p.folded, table)
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


# thanks said after how the user is ("bene grazie, e tu?")
_THANKED = ("thanks", "thank you", "thx", "gracias", "merci", "danke", "grazie", "obrigado", "obrigada")


# greetings that are names too ("Ola", "Oi"): alone they may answer a name question; beside other small
# talk ("oi, tudo bem?", "olá, bom dia") they greet
_NAME_GREETINGS = frozenset({"oi", "ola", "hallo", "hola", "ciao"})


@lru_cache(maxsize=1024)  # the text's alone (a frozen answer), asked by several readers of a turn
def small_talk(text: str) -> SmallTalk | None:
    """`text` as only small talk (greetings, apologies, being back, thanks, laughter), or None."""
    table = _table()
    found = parts(text)
    if not found:
        said = _only_filler_talk(text)
        return SmallTalk(kinds=said, words=text.strip()) if said else None
    kinds: list[Social] = []
    named = well = False
    for p in found:
        if p.role == "filler":
            continue
        said = _talk(p.folded, table)
        if not said and p.folded in _NAME_GREETINGS:
            named = True
            continue
        if not said and p.folded in table.wellbeing:
            well = True
            continue
        if not said:
            # a part whose filler opens the small talk ("sorry about that": "sorry" is filler to a question)
            return _whole_talk(text)
        kinds.extend(said)
    if not kinds or (well and "identity" not in kinds):
        return None  # "not bad" alone may answer; beside "yourself?" it says how the user is
    if named and "greeting" not in kinds:
        kinds.insert(0, "greeting")
    return SmallTalk(kinds=tuple(dict.fromkeys(kinds)), words=text[found[0].start : found[-1].end])


def _whole_talk(text: str) -> SmallTalk | None:
    """`text` as small talk read whole, its filler words included ("sorry about that", "oh no"), or None."""
    said = _talk(" ".join(_WORDS.findall(_folded(text))), _table())
    return SmallTalk(kinds=said, words=text.strip(" .!?")) if said else None


def _only_filler_talk(text: str) -> tuple[Social, ...]:
    """Small talk made of words that are filler to a question ("lol sorry", "oops"): every part of
    the message trimmed away, the words as typed are read as small talk; or a message of emoji only."""
    return _talk(" ".join(_WORDS.findall(_folded(text))), _table()) or _emoji_talk(text)


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
    for m in _EMOTICONS.finditer(text):
        kinds.append(_FACES.get(m.group()[-1].lower(), "reaction"))
    for c in _EMOTICONS.sub(" ", text):
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
    table = _table()
    words = _WORDS.findall(_folded(text))
    for at in range(len(words)):
        said = _phrase_at(words, at, table)
        if said is not None and said[0] == "greeting" and (said[1] - at > 1 or words[at] not in _DAY_PARTS):
            return True
    return False


def acknowledgement(kinds: Sequence[str]) -> str:
    """What the bot says to small talk before asking again: being back or sorry first, then thanks,
    then a greeting, then laughter."""
    say = _table().say
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
    say = _table().say
    told = [k for k in _MAIN_ORDER if k in kinds]
    if any(k not in _MINOR for k in told):
        told = [k for k in told if k not in _MINOR]  # "great, thanks!" is thanks
    return " ".join(dict.fromkeys(own.get(k) or say[k] for k in told))


_MINOR: frozenset[Social] = frozenset({"reaction", "interjection"})


def explanation(about: str, why: str, help_text: str, expects: str, *, rephrased: bool) -> str:
    """What answers a question back, before the question is asked again: the state's reason; for what
    the question means or which answers it takes, also its help, and what its parser expects unless a
    more explicit phrasing of the question follows (`rephrased`: the state's reprompt)."""
    if about == "why":
        return why or help_text or f"I'm asking for {expects}."
    said = [why] if why else []
    if help_text and help_text != why:
        said.append(help_text)
    if not rephrased:
        said.append(f"I'm asking for {expects}.")
    return " ".join(said)


# words no question is about: asked of every question alike ("what do I need to tell you?"); and the
# question and function words of the other languages read that are spelt like English topic words
# ("comment ça marche ?" asks nothing about a comment question)
_NOT_TOPIC = frozenset({
    "the", "and", "for", "you", "your", "are", "was", "were", "what", "which", "how", "why", "when", "who",
    "does", "did", "can", "could", "will", "would", "should", "need", "needs", "tell", "ask", "asked", "about",
    "too", "also", "this", "that", "these", "those", "with", "from", "into", "have", "has", "had", "any", "not",
    "its", "one", "just", "say", "please", "there", "their", "them", "they", "then", "than", "yes", "none",
    "comment", "come", "como", "cosa", "que", "quel", "quelle", "qual", "quale", "wie", "warum", "pour", "per",
    "par", "con", "les", "des", "une", "die", "der", "das", "und",
})  # fmt: skip


def _topic_words(text: str) -> set[str]:
    words = re.findall(r"[a-z]+", fold_same_length(text).casefold())
    # a plural and its singular name one topic ("days" is the days question's "day")
    return {w[:-1] if len(w) > 4 and w.endswith("s") else w for w in words if len(w) > 2 and w not in _NOT_TOPIC}


def later_topic(words: str, asked: str, later: Mapping[str, str]) -> str | None:
    """Which question still to come a question back is about, when it is about one: "how many days
    do you recommend?" at the fitness level question asks about the days question, and gets "we'll
    come to that" rather than the level question's reason. `asked` is the open question's text and
    reason, `later` each question to come (its label, reason and wording) by key, in the order they
    come. A question sharing a topic word with the open question is about it; of questions to come
    named alike, the first to come is the one "we'll come to"."""
    said = _topic_words(words)
    if not said or said & _topic_words(asked):
        return None
    scores = {key: len(said & _topic_words(text)) for key, text in later.items()}
    best = max(scores.values(), default=0)
    return next((key for key, score in scores.items() if score == best), None) if best else None


def later_question(
    states: Sequence[object], label: Callable[[str], str], state: Ask, slots: Slots, words: str
) -> str | None:
    """The slot of an empty question still to come (of a flow's `states`, named by its `label`) that a
    question back at `state` is about (see `later_topic`): its label, reason and wording are what it
    is about."""
    at = states.index(state)
    later = {
        s.slot: " ".join((label(s.slot), s.why or "", _wording(s)))
        for s in states[at + 1 :]
        if isinstance(s, Ask) and s.slot and s.slot != state.slot and getattr(slots, s.slot, None) is None
    }
    if not later:
        return None
    asked = " ".join((label(state.slot), state.why or "", _wording(state)))
    return later_topic(words, asked, later)


def coming_later(states: Sequence[object], slot: str, slots: Slots) -> str:
    """ "We'll come to that in a later question.", and that question's reason as its author wrote it."""
    state = next(s for s in states if isinstance(s, Ask) and s.slot == slot)
    why = render(state.why, slots) if state.why else ""
    return f"We'll come to that in a later question. {why}".strip()


def _wording(state: Ask) -> str:
    # a question worded by a function may need slots that are not filled yet: its label and reason
    # speak for it
    return re.sub(r"\{[^}]*\}", " ", state.say) if isinstance(state.say, str) else ""
