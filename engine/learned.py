"""A learned reader of what a message says instead of an answer, for when the rules read nothing.

The rules (engine/said.py, engine/askback.py, the state's parser) read most messages; a message
they leave unread at a question was asked again, using an attempt ("meh whatever" at a choice, "lol
ok" at a date). Those misses are not one wording but a long tail of them, so this reader is not
written but learned: a multinomial logistic regression over the message's character and word
n-grams, trained by `bench/train_kinds.py` on the commands corpus's dev split only (its labels: the
kind of command each message carries) and shipped as weights in engine/data/kinds.json. It reads no
bot, flow or state, so it serves every flow alike, in the six languages the corpus is written in.

It is asked last, only when nothing else read the message, and only its confident readings of a
command with no value are kept (cancel, help, a question back, a skip, a person, small talk): a
value is never guessed, and anything else (an answer, a new request, a yes) leaves the message to
be asked about again as before. The threshold is the weights file's, chosen on the dev split by
cross-validation (bench/train_kinds.py says how); the test split measures it through the engine
(`python bench/understanding.py`).

    features(text) -> list[str]          # shared by training and reading
    KindModel.load(path).read(text)      # (kind, probability)
    learned_command(text)                # the command, when confident, else None
    with asked() as texts: ...           # the messages the reader was asked about inside the block
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.commands import AskBack, Cancel, Chitchat, Command, Handoff, Help, Skip
from engine.errors import DataFileError

WEIGHTS = Path(__file__).parent / "data" / "kinds.json"
# the labels the model is trained on: a command kind of the corpus, "answer" for a message that only
# gives values; the ones with no value are the ones it may propose
Label = Literal[
    "answer", "cancel", "help", "ask_back", "new_request", "chitchat", "handoff", "skip", "resume", "yes", "no"
]
PROPOSED: tuple[Label, ...] = ("cancel", "help", "ask_back", "chitchat", "handoff", "skip")
_WORD = re.compile(r"\w+")
# the list `asked` collects into, when one is open in this context (a ContextVar: a turn served on another
# thread or task is not counted in it)
_ASKED: ContextVar[list[str] | None] = ContextVar("learned_asked", default=None)


def features(text: str) -> list[str]:
    """The message's features: character 2- to 4-grams of each word with its edges (so "cancel" and
    "cancelar" share most), its words and word pairs, and its punctuation marks (a "?" says a
    question). Case and spacing do not count."""
    t = " ".join(text.casefold().split())
    words = _WORD.findall(t)
    out: list[str] = []
    for w in words:
        edged = f" {w} "
        for n in (2, 3, 4):
            out += [edged[i : i + n] for i in range(max(1, len(edged) - n + 1))]
    out += ["w:" + w for w in words]
    out += [f"b:{a} {b}" for a, b in itertools.pairwise(words)]
    out += ["p:" + c for c in t if not c.isalnum() and not c.isspace()]
    return out


class KindModel(BaseModel):
    """Weights of a trained reader: per feature its idf and one weight per label (sublinear tf-idf,
    l2-normalised, then a softmax over `labels`), with where they came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    labels: list[Label] = Field(min_length=2)
    intercepts: list[float]
    vocabulary: dict[str, tuple[float, list[float]]]  # feature -> (idf, a weight per label)
    threshold: float = Field(gt=0.5, le=1.0)
    trained_on: str  # the corpus file and the sha256 of its bytes
    examples: int = Field(gt=0)

    @model_validator(mode="after")
    def _shapes(self) -> KindModel:
        n = len(self.labels)
        if len(self.intercepts) != n:
            raise ValueError(f"{len(self.intercepts)} intercepts for {n} labels")
        wrong = [f for f, (_, w) in self.vocabulary.items() if len(w) != n]
        if wrong:
            raise ValueError(f"features with other than {n} weights: {wrong[:5]}")
        return self

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> KindModel:
        try:
            return cls.model_validate_json(path.read_bytes())
        except OSError as e:
            raise DataFileError(str(path), [f"cannot be read ({e}); make it with python bench/train_kinds.py"]) from e
        except ValidationError as e:
            problems = [f"{'.'.join(map(str, err['loc'])) or 'file'}: {err['msg']}" for err in e.errors()[:5]]
            raise DataFileError(str(path), [*problems, "retrain with python bench/train_kinds.py"]) from e

    def probabilities(self, text: str) -> dict[Label, float]:
        counts = Counter(f for f in features(text) if f in self.vocabulary)
        tfidf = {f: (1.0 + math.log(c)) * self.vocabulary[f][0] for f, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in tfidf.values())) or 1.0
        scores = list(self.intercepts)
        for f, v in tfidf.items():
            for i, w in enumerate(self.vocabulary[f][1]):
                scores[i] += w * v / norm
        top = max(scores)
        exp = [math.exp(s - top) for s in scores]
        total = sum(exp)
        return {label: e / total for label, e in zip(self.labels, exp, strict=True)}

    def read(self, text: str) -> tuple[Label, float]:
        """The most likely label of `text` and its probability."""
        label, p = max(self.probabilities(text).items(), key=lambda kv: kv[1])
        return label, p


@functools.cache
def shipped() -> KindModel:
    return KindModel.load()


def learned_command(text: str, model: KindModel | None = None) -> Command | None:
    """The command with no value `text` says, when the learned reader is confident of it; else None.
    Its words are the whole message: the model reads the message, not a clause of it."""
    if len(_WORD.findall(text)) < 2:
        # one word ("k", "ok", "x") is a handful of character n-grams: too little to go on, and the
        # reprompt that follows says what is needed
        return None
    if (heard := _ASKED.get()) is not None:
        heard.append(text)
    m = model or shipped()
    label, p = m.read(text)
    if p < m.threshold or label not in PROPOSED:
        return None
    words = text.strip()
    match label:
        case "cancel":
            return Cancel(words=words)
        case "help":
            return Help(words=words)
        case "ask_back":
            return AskBack(words=words, about="other")
        case "chitchat":
            return Chitchat(words=words)
        case "handoff":
            return Handoff(words=words)
        case _:
            return Skip(words=words)


@contextlib.contextmanager
def asked() -> Iterator[list[str]]:
    """The messages the reader is asked about inside the block, in order: those nothing else read, of two
    words or more, whatever it then reads in them. bench/train_kinds.py plays the dev split through the
    engine inside it, so the threshold is chosen on the messages the engine asks about, not on every
    message; nothing the reader or the engine does changes."""
    heard: list[str] = []
    token = _ASKED.set(heard)
    try:
        yield heard
    finally:
        _ASKED.reset(token)
