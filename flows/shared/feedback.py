"""Feedback: sentiment -> rating 1-5 -> details -> category -> save a feedback entry.

Sentiment is read from the message that started the flow ("I want to complain") and,
when that says nothing, from the rating; the category is read from the details when
they name it ("too slow" -> latency) and asked only otherwise.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator

from engine import (
    Amendable,
    Amends,
    Ask,
    Correctable,
    Final,
    Flow,
    RecordDraft,
    Slots,
    Step,
    StepContext,
    T,
    words_answer,
)
from engine.extract import Invalid, choice, rating
from engine.feeling import sentiment
from engine.gloss import without_superlatives
from engine.models import JsonObject
from engine.tables import alternation, but_words
from flows.shared.datafile import AccentedWordTuple, load_yaml
from flows.shared.feedback_answers import category_reader, comment_anywhere, rating_change, sentiment_anywhere

Sentiment = Literal["positive", "negative", "neutral"]
Category = Literal["bug", "latency", "content", "usability", "other"]


class FeedbackSlots(Slots):
    sentiment: Sentiment | None = None
    # "rating" when the sentiment was read off the rating, so that a new rating changes it;
    # None when the user said how they feel
    sentiment_from: Literal["rating"] | None = None
    rating: int | None = Field(None, ge=1, le=5)
    comment: str | None = None
    category: Category | None = None


read_sentiment = sentiment()
CATEGORIES = {
    "bug": [
        "bugs",
        "crash",
        "crashes",
        "crashed",
        "crashing",
        "error",
        "broken",
        "broke",
        "freeze",
        "freezes",
        "froze",
        "frozen",
        "freezing",
        "glitch",
        "doesnt work",
        "doesn't work",
        "does not work",
        "not working",
        "stopped working",
        "nothing works",
        "no sound",
    ],
    "latency": [
        "slow",
        "slowly",
        "lag",
        "lags",
        "lagging",
        "laggy",
        "latency",
        "takes forever",
        "take forever",
        "taking forever",
        "took forever",
        "speed",
        "wait",
        "delay",
        "to load",
        "loading",
        "loads",
        "load time",
        "freezes up",
        "spinner",
    ],
    # with the word in the languages learners write feedback in
    "content": [
        "lesson",
        "lessons",
        "exercise",
        "exercises",
        "wrong answer",
        "content",
        "vocabulary",
        "contenido",
        "contenu",
        "inhalt",
        "inhalte",
        "contenuto",
        "contenuti",
        "conteúdo",
        "conteudo",
    ],
    "usability": ["confusing", "hard to use", "ui", "interface", "navigation", "design", "button"],
    "other": ["something else", "other", "none of these"],
}
# what went wrong, not where: "the app freezes when i open my vocabulary" is a bug, not content
WRONG = ("bug", "latency", "usability")


class AreaWords(BaseModel):
    """One area's words in the languages learners write feedback in, by where they count."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    both: AccentedWordTuple = ()
    question: AccentedWordTuple = ()
    comment: AccentedWordTuple = ()


class AreasAbroad(RootModel[dict[Category, AreaWords]]):
    """flows/shared/data/feedback_areas.yaml: each word once, so that the area question's list and the
    comment's cannot drift apart (a word counting in both is listed under `both`)."""

    @model_validator(mode="after")
    def _each_word_once(self) -> AreasAbroad:
        seen: dict[str, str] = {}
        for area, words in self.root.items():
            if not (words.both or words.question or words.comment):
                raise ValueError(f"{area}: lists no word (leave the area out instead)")
            for where in ("both", "question", "comment"):
                for w in getattr(words, where):
                    if w in seen:
                        raise ValueError(
                            f"{w!r} is listed under {seen[w]} and {area}.{where}: list it once "
                            "(under both where it counts at the question and in the comment)"
                        )
                    seen[w] = f"{area}.{where}"
        return self


ABROAD = load_yaml(Path(__file__).parent / "data" / "feedback_areas.yaml", AreasAbroad).root


def _words(area: str, where: Literal["question", "comment"]) -> list[str]:
    """The area's English words, then its words abroad that count `where`."""
    abroad = ABROAD.get(cast(Category, area))
    return [*CATEGORIES[area], *(() if abroad is None else (*abroad.both, *getattr(abroad, where)))]


# "what do you mean" is no misspelt "wait" (latency), nor "the app" a misspelt "other"
read_category = category_reader({c: _words(c, "question") for c in CATEGORIES}, prefer=WRONG)
# the details are free text: only a category named outright counts, no close spellings
_SENSED = {c: _words(c, "comment") for c in CATEGORIES}
spot_category = choice(_SENSED, fuzzy=False)
_SAYS = {c: choice({c: _SENSED[c]}, fuzzy=False) for c in WRONG}


def opening(s: FeedbackSlots) -> str:
    lead = "I'm sorry to hear that." if s.sentiment == "negative" else "Thanks for taking the time!"
    return f"{lead} On a scale from 1 to 5, how would you rate the app so far?"


def details_question(s: FeedbackSlots) -> str:
    if s.sentiment == "negative":
        return "What went wrong? Tell me in a sentence or two."
    if s.sentiment == "positive":
        return "Great! What do you like most, or what could be even better?"
    return "What could we do better? Tell me in a sentence or two."


def sense_sentiment(ctx: StepContext[FeedbackSlots]) -> None:
    found = read_sentiment(ctx.text)
    if isinstance(found, str):
        ctx.slots.sentiment = cast(Sentiment, found)


def settle_sentiment(ctx: StepContext[FeedbackSlots]) -> None:
    ctx.slots = rated(ctx.slots)


def rated(s: FeedbackSlots) -> FeedbackSlots:
    """The sentiment read off the rating, where the user did not say how they feel."""
    if s.rating is not None and (s.sentiment is None or s.sentiment_from == "rating"):
        mood: Sentiment = "negative" if s.rating <= 2 else "neutral" if s.rating == 3 else "positive"
        return s.model_copy(update={"sentiment": mood, "sentiment_from": "rating"})
    return s


# a contrast (engine/data/but.yaml): praise, then the complaint ("lessons are nice but the app freezes")
_CONTRAST = re.compile(rf"\b{alternation([*but_words().but.all(), *but_words().though.all()])}\b", re.I)


def sense_category(ctx: StepContext[FeedbackSlots]) -> None:
    # "va lentísima", "è lentissima": the area's word raised to a superlative is that word
    comment = without_superlatives(ctx.slots.comment or "")
    # what follows a contrast is what the comment is about: the area it names there says the category
    # ("the lessons are nice but the app freezes" is a bug, not content), else the whole comment does
    after = _CONTRAST.split(comment)[-1]
    said = spot_category(after) if after != comment else None
    # the part the area is read from: what follows the contrast when it names one, else the whole comment
    contrasted = isinstance(said, str) and said != "other"
    part = after if contrasted else comment
    found = said if contrasted else spot_category(comment)
    if isinstance(found, Invalid) or found == "content":
        # "the exercises take forever to load", "lessons keep freezing on the last question": what went wrong
        # (slow, broken, confusing) says the area better than where it went wrong (the exercises, the lessons),
        # when only one such word is there
        wrong = [c for c in WRONG if _SAYS[c](part) == c]
        found = wrong[0] if len(wrong) == 1 else found
    if isinstance(found, str) and found != "other":
        ctx.slots.category = cast(Category, found)


def summary(s: FeedbackSlots) -> str:
    rated = f"{s.rating}/5" if s.rating is not None else "not given"
    return f'Feedback completed. Rating: {rated}. Category: {s.category or "not given"}. Comment: "{s.comment or ""}".'


def entry(s: FeedbackSlots) -> list[RecordDraft]:
    return [RecordDraft(kind="feedback", data=s.model_dump(mode="json"))]


# the words that name the rating in a correction ("change my rating to 1", "muda a nota para 1")
RATING_WORDS = ("rating", "rate", "score", "stars", "nota", "puntuación", "calificación", "valoración", "note",
                "Bewertung", "voto", "valutazione", "avaliação", "classificação")  # fmt: skip


def _entry(data: JsonObject) -> FeedbackSlots:
    """A saved entry read back into the flow's slots (what else the record holds, such as the entry it
    revises, is the record's)."""
    return FeedbackSlots.model_validate({k: v for k, v in data.items() if k in FeedbackSlots.model_fields})


def _told(s: FeedbackSlots) -> str:
    rated_ = f"rating {s.rating}/5" if s.rating is not None else "no rating"
    return f'Your last feedback: {rated_}{f", about {s.category}" if s.category else ""}: "{s.comment or ""}".'


# The saved entry's rating changed after the flow ("i meant 5 stars, not 4", "ich meinte 5 Sterne"): a
# new version of that entry, which names the one it revises (engine/amend.py); "what rating did I give?"
# is told from it. The names are English: the engine's cue table reads "Sterne", "ma note" as them.
ENTRY: Amends[FeedbackSlots] = Amends(
    kind="feedback",
    fields=[Amendable("rating", re.compile(r"\b(?:rating|rated|stars?|score)\b"), lambda s: rating(1, 5), "rating")],
    load=_entry,
    records=entry,
    settle=lambda before, after: rated(after),
    describe=_told,
    revises=True,
)

feedback = Flow(
    name="feedback",
    description="collect a rating, a comment and a category, then save a feedback entry",
    # feedback half-given a day ago is stale: close it rather than ask "and the details?" next week
    idle_timeout=timedelta(days=1),
    persona="the app's feedback interviewer: brief, warm, never defensive",
    slots=FeedbackSlots,
    states=[
        Step("sentiment", run=sense_sentiment, initial=True),
        Ask(
            "rating",
            slot="rating",
            say=opening,
            parse=rating(1, 5),
            reprompts=[
                "Please rate the app with a single number from 1 (poor) to 5 (excellent).",
                "Just type one digit: 1, 2, 3, 4 or 5.",
            ],
            help="A rating tells us how the app feels overall: 1 is poor, 5 is excellent.",
            why="A rating tells us how the app feels overall: 1 is poor, 5 is excellent.",
        ),
        Step("mood", run=settle_sentiment, reads=("rating",)),
        Ask(
            "details",
            slot="comment",
            say=details_question,
            # "ok" or "hello?" describes nothing: asked again, not saved as the comment
            parse=words_answer(min_chars=2),
            why="Your own words tell the team what to fix or what to keep.",
            reprompts=[
                "Could you describe it in a few words?",
                "Even a short phrase helps, like 'too slow' or 'great lessons'.",
            ],
        ),
        Step("triage", run=sense_category),
        Ask(
            "category",
            slot="category",
            say="Which area is that about: bug, latency, content, usability or other?",
            parse=read_category,
            why="The area sends your feedback to the people who work on that part of the app.",
            reprompts=[
                "Please pick one: bug, latency, content, usability or other.",
                "Type one word: bug, latency, content, usability or other.",
            ],
        ),
        Final(
            "done",
            summary=summary,
            say="Thank you! I've saved your feedback and the team will read it.",
            records=entry,
        ),
    ],
    transitions=[
        T("next", "sentiment", "rating"),
        T("answer", "rating", "mood"),
        T("next", "mood", "details"),
        T("answer", "details", "triage"),
        T("next", "triage", "category"),
        T("answer", "category", "done"),
    ],
    cancel_summary="Feedback cancelled by the user before it was saved.",
    # any message may carry the comment (beside the request or the rating), how it went, or a
    # new rating; a correction of the rating is read by the engine first (`correctable`), and
    # `rating_change` stays so that a model's form still holds the rating (its recorded prompts do)
    fills={"comment": comment_anywhere, "rating": rating_change, "sentiment": sentiment_anywhere},
    # a rating said again at a later question ("wait, I meant 3", "change my rating to 1"),
    # named by these words in the languages the bots' users write in
    correctable=(Correctable("rating", names=RATING_WORDS),),
    show=lambda slot, value: f"{slot}: {value}",
    amends=ENTRY,
)
