"""Commands a model proposes, and the check that keeps only those the message says.

When the rules leave a message unread at a question (its parser cannot tell, no command word,
no question back, no correction), one model call reads it (engine/answers.py). That call's
schema is the asked slot and every slot the message may fill (form filling) and, beside them,
`command`: what the message says instead of an answer, one of the commands a question takes
(cancel, help, a question back, a skip, a person, small talk), with the words that say it.
Rasa's command generator lets the model decide; here the model only points. A proposal is kept
when its words are in the message and the engine's own reader of that command reads them as
it (engine/said.py, engine/askback.py): the model finds the clause the rules could not single
out ("ugh this is taking forever, just cancel it"), the rules decide what it means. With no
model, nothing is proposed and the message is asked about again, never guessed.
"""

from __future__ import annotations

import re
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, create_model

from engine.askback import question_back
from engine.commandphrases import CLAUSE_MARKS
from engine.commands import AskBack, Cancel, Chitchat, Command, Handoff, Help, Skip
from engine.cues import fold_same_length
from engine.extract import Invalid, Parser
from engine.said import asks_for_person, says_cancel, says_help, says_skip
from engine.smalltalk import small_talk

ProposedKind = Literal["cancel", "help", "ask_back", "skip", "person", "chitchat"]
# the schema field that carries the proposal beside the slots (a slot of that name keeps it)
FIELD = "command"


class Proposal(BaseModel):
    """What a message says instead of an answer: the kind, and its exact words."""

    model_config = ConfigDict(extra="forbid")

    kind: ProposedKind = Field(
        description="cancel: stop this; help: what is needed here; ask_back: a question about this "
        "question; skip: leave it unanswered; person: talk to a human; chitchat: small talk"
    )
    words: str = Field(description="the words of the user's message that say it, copied exactly")


def with_proposal(form: type[BaseModel]) -> type[BaseModel]:
    """`form` (the asked slot as `value`, other slots beside it) with an optional `command`."""
    if FIELD in form.model_fields:
        return form  # a slot named "command": that flow's parse proposes nothing
    found = _models.get(form)
    if found is None:
        found = create_model(
            f"{form.__name__}_or_command",
            __base__=form,
            command=(
                Optional[Proposal],  # noqa: UP045
                Field(default=None, description="only when the message is not an answer: what it says instead"),
            ),
        )
        _models[form] = found
    return found


_models: dict[type[BaseModel], type[BaseModel]] = {}


def proposed(answer: BaseModel | None) -> Proposal | None:
    """The proposal in a parse of a `with_proposal` schema, if the model made one."""
    found = getattr(answer, FIELD, None) if answer is not None else None
    return found if isinstance(found, Proposal) else None


def clause_of(words: str, text: str) -> str | None:
    """The clause or clauses of `text` that hold `words` (as typed), or None when `text` does not."""
    folded, quote = fold_same_length(text), " ".join(fold_same_length(words).split())
    if not quote:
        return None
    at = " ".join(folded.split()).find(quote)
    if at < 0:
        return None
    # positions in the message with its spaces as typed: map the match back word by word
    spans = [m.span() for m in re.finditer(r"\S+", folded)]
    start_word = len(" ".join(folded.split())[:at].split())
    end_word = start_word + len(quote.split()) - 1
    start, end = spans[start_word][0], spans[end_word][1]
    marks = [m.span() for m in CLAUSE_MARKS.finditer(folded)]
    start = max([e for _, e in marks if e <= start], default=0)
    end = min([b for b, _ in marks if b >= end], default=len(text))
    return text[start:end].strip() or None


def kept(proposal: Proposal, text: str, parser: Parser, activity: str | None) -> Command | str:
    """The command `proposal` stands for when `text` evidences it; otherwise why it is not kept.

    A message the state's parser reads an answer from is that answer. Evidence: the proposal's
    words are in the message, and the clause they are in (from one clause mark to the next:
    engine/said.py's) is read as that command by the engine's reader of it (a cancel phrase, a
    help phrase, a question back about this question...): a word quoted out of an answer ("stop"
    of "the reminders stop") is not enough.
    """
    words = clause_of(proposal.words, text)
    if words is None:
        return f"{proposal.kind}: {proposal.words!r} is not in the message"
    value = parser(text)
    if value is not None and not isinstance(value, Invalid) and not parser.greedy:
        return f"{proposal.kind}: the message answers the question"
    match proposal.kind:
        case "cancel" if says_cancel(words, activity):
            return Cancel(words=words)
        case "help" if says_help(words):
            return Help(words=words)
        case "skip" if says_skip(words):
            return Skip(words=words)
        case "person" if asks_for_person(words):
            return Handoff(words=words)
        case "ask_back":
            asked = question_back(words, parser, free_text=parser.greedy)
            if asked is not None:
                return Help(words=asked.words) if asked.help else AskBack(words=asked.words, about=asked.about)
        case "chitchat":
            talk = small_talk(words)
            if talk is not None:
                return Chitchat(words=talk.words, social=talk.kinds)
    return f"{proposal.kind}: {words!r} does not say it"
