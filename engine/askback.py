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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cues import fold_same_length
from engine.extract import Invalid, copied
from engine.hedges import unhedged
from engine.message_parts import WORDS, About, Part, asked_about, folded_text, parts, questions_back_table
from engine.models import Slots
from engine.smalltalk import only_filler_talk, talk_kinds, whole_talk
from engine.states import Ask, render
from engine.yesno import read_yes_no


@lru_cache(maxsize=1024)  # the text's alone, asked at every question: the parts' small talk, help and questions
def may_ask(text: str) -> bool:
    """A cheap first look: could `text` be a question back, a call for help or small talk? Most
    answers are not, and the read stage then needs no parser and no slots to tell."""
    table = questions_back_table()
    found = parts(text)
    if not found:
        return bool(only_filler_talk(text))
    return (
        any(
            p.role in ("question", "open", "polar") or table.help.fullmatch(p.folded) or talk_kinds(p.folded, table)
            for p in found
        )
        or whole_talk(text) is not None
    )


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
    words = " ".join(WORDS.findall(folded_text(text)))
    return bool(words) and questions_back_table().disputing.search(words) is not None and read_yes_no(text) is None


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
    table = questions_back_table()
    found = parts(text)
    helped = [p for p in found if table.help.fullmatch(p.folded.rstrip("?! "))]
    asking = [p for p in found if p.role in ("question", "open", "polar") and p not in helped]
    if not asking and not helped:
        return None
    if (
        table.elsewhere.search(folded_text(text))
        and not all(_reason_guess(found, p) for p in asking[1:] or found)
        and not (asking and all(_answering_its(p, question) or _explains_its_words(p, question) for p in asking))
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
        if p.role == "filler" or p in helped or talk_kinds(p.folded, table) or comparing:
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
        if p.role == "open" or _explains_its_words(p, question):
            # an open question asks, whatever it names ("what counts as intermediate?"), as a request to explain the
            # question's own words does ("can you explain what paleo is?" at the diet question)
            continue
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
    return QuestionBack(about=asked_about(" ".join(p.folded for p in asking)), words=words, help=bool(helped))


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
        and questions_back_table().itself.fullmatch(before[-1].folded) is not None
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
    m = questions_back_table().how_to_answer.search(p.folded)
    return None if m is None else p.folded[m.end() :]


def _answering_its(p: Part, question: str) -> bool:
    """Whether `p` asks how to answer the `question` naming only its words ("where do I find the model?" at
    "Which phone model do you use?"): where to find the answer is no request for something else."""
    rest = about_answering(p)
    if rest is None or not question:
        return False
    table = questions_back_table()
    own = [w for w in WORDS.findall(rest) if len(w) >= 3 and w not in table.plain]
    said = WORDS.findall(folded_text(question))
    return bool(own) and all(any(q.startswith(w[:4]) for q in said) for w in own)


# asking the bot to explain or say something, in six languages (folded): "can you explain what paleo is?", "¿me
# explicas qué es la latencia?", "kannst du mir erklären, was Paleo ist?", "mi spieghi cos'è la latenza?"
_EXPLAIN = re.compile(
    r"(?<![\w'])(?:explain|clarify|tell|explicar|explicarme|explicas|explica|expliquer|m'expliquer|expliques|expliquez"
    r"|erklaren|erklarst|erklar|erklare|spiegare|spiegarmi|spieghi|spiega|decirme|dime|dire|sagen|dirmi|dizer)(?![\w'])"
)
# the words of such a request that name nothing of what is to be explained
_ASKING_WORDS = frozenset(
    {"you", "tell", "please", "pls", "por", "favor", "mir", "moi", "bitte", "again", "mal", "vous", "per", "piacere",
     "voce", "explain", "clarify"}
)  # fmt: skip


def _explains_its_words(p: Part, question: str) -> bool:
    """Whether `p` asks the bot to explain words of the `question` and nothing else ("can you explain what paleo is?"
    at the diet question, "could you explain what usability means?"): a question back about its terms; to explain
    anything else ("can you explain what a derivative is first?" at the study time) is a request."""
    if not question or p.role not in ("question", "polar") or _EXPLAIN.search(p.folded) is None:
        return False
    table = questions_back_table()
    own = [
        w
        for w in WORDS.findall(p.folded)
        if len(w) >= 3
        and w not in table.plain
        and w not in table.meaning_words
        and w not in _ASKING_WORDS
        and _EXPLAIN.fullmatch(w) is None
    ]
    said = WORDS.findall(folded_text(question))
    return bool(own) and all(any(q.startswith(w[:4]) for q in said) for w in own)


def asks_options(p: Part) -> bool:
    """Whether part `p` asks which answers there are ("which ones do you have?", "what options are there?")."""
    return p.role in ("question", "open", "polar") and asked_about(p.folded) == "options"


def asks_how_to_answer(p: Part) -> bool:
    """Whether `p` asks how to answer ("should I mention the bugs here?", "devo descrivere il bug qui?"): what it
    names is what the answer might say, not a fact given."""
    return p.role in ("question", "open", "polar") and questions_back_table().how_to_answer.search(p.folded) is not None


def _on_its_words(p: Part, question: str) -> bool:
    """Whether `p` asks what words of the `question` mean ("what does lim mean?", "what kind of steps?")."""
    if p.role != "open" or asked_about(p.folded) != "meaning" or not question:
        return False
    table = questions_back_table()
    own = [w for w in WORDS.findall(p.folded) if len(w) >= 3 and w not in table.plain and w not in table.meaning_words]
    said = WORDS.findall(folded_text(question))
    return bool(own) and all(any(q.startswith(w[:4]) for q in said) for w in own)


def plain_words() -> frozenset[str]:
    """Words that say nothing of a subject (engine/data/questions_back.yaml `plain_words`), folded."""
    return questions_back_table().plain


def not_terms() -> frozenset[str]:
    """Words that name no term a question back may ask about: the plain words and those asking what something means
    ("what does ... mean", "qué significa", "was heißt"), folded."""
    return questions_back_table().plain | questions_back_table().meaning_words


def _asks_meaning_before(found: Sequence[Part], p: Part) -> bool:
    """Whether an open question asking what something means comes right before `p`."""
    at = found.index(p)
    return at > 0 and found[at - 1].role == "open" and asked_about(found[at - 1].folded) == "meaning"


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
    said = set(WORDS.findall(folded_text(question)))
    own = [w for w in WORDS.findall(folded_text(words)) if w not in questions_back_table().plain]
    # the question's word, or another ending of it ("allergy" for "allergies"): five letters in common
    return bool(own) and not all(any(w == q or (len(w) >= 5 and q[:5] == w[:5]) for q in said) for w in own)


def _trimmed_copy(value: object, typed: str) -> bool:
    """Whether a list reader's one item is several words of the question typed, in order, with some trimmed off
    (a reader of free items drops the words it knows around an item: "allergies" from "do you mean food
    allergies")."""
    if not (isinstance(value, list) and len(value) == 1 and isinstance(value[0], str)):
        return False
    got = WORDS.findall(fold_same_length(value[0]).lower())
    said = WORDS.findall(folded_text(typed))
    if len(got) < 2 or len(got) >= len(said):
        return False
    return any(said[i : i + len(got)] == got for i in range(len(said) - len(got) + 1))


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
