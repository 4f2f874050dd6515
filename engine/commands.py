"""What a message asks the machine to do: the typed commands a reading of it produces.

A turn reads the message into a `Reading` (engine/reading.py), then executes its commands
against the machine (engine/turn.py): a reader decides what the message means, never what
happens next. Every command carries `words`, the part of the message that justifies it, so
a trace or a test can say why a command was read.

Today's readers produce one route-level command per message (`reading.read`), and the open
flow's own reading (asides, offers, slots set or corrected, the state's parser, a model's
parse) still happens inside the flow's executor (`AnswerFlow`). Corrections of a filled slot
at a later question are read before it (engine/corrections.py) into `CorrectSlot` (or
`WhichSlot` when the value fits several); other slots a message fills beside the answer, clause
by clause, into `SetSlot` (engine/fill.py). The open flow makes both before it reads the rest.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

# the kinds of small talk (engine/askback.py reads them): one list for the command and its reader
Social = Literal[
    "greeting",
    "away",
    "sorry",
    "thanks",
    "laughter",
    "compliment",
    "feeling",
    "waiting",
    "reaction",
    "identity",
    "interjection",
    "complaint",
    "goodbye",
]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    words: str  # what in the message says so (the whole message when nothing narrower does)


class SetSlot(_Command):
    """Fill an empty slot of the open flow ahead of its question (`Flow.ahead`); `words` are the
    clause that says it, `value` what the slot will hold (as stored)."""

    kind: Literal["set_slot"] = "set_slot"
    slot: str
    value: JsonValue
    # False: read beside another slot's value from the same words (the unit a weight was written in,
    # `Ahead.beside`), kept without being told or counted as a fact the user gave
    noted: bool = True
    # True: the clause declines a question whose none leaves its slot empty ("no target weight" beside the level):
    # `value` is None, and the run remembers the question as answered so the flow does not ask it
    declined: bool = False


class CorrectSlot(_Command):
    """Replace a filled slot's value (the flow must let it be corrected): `value` is what the
    slot holds afterwards; `key`, for a dict slot, the one answer in it that changed."""

    kind: Literal["correct_slot"] = "correct_slot"
    slot: str
    value: JsonValue
    key: str | None = None


class WhichSlot(_Command):
    """A correction whose value fits several filled slots: the user is asked which one."""

    kind: Literal["which_slot"] = "which_slot"
    slots: list[str]


class Restated(_Command):
    """The message answers nothing and only says again what filled `slots` hold ("inglés,
    obviamente" with English noted as the language learnt): said so, and the question asked
    again without using an attempt (engine/fill.py `restated`)."""

    kind: Literal["restated"] = "restated"
    slots: list[str]


class Cancel(_Command):
    """Stop the open flow (or pause it, when it must finish); nothing to cancel is said so. `later`:
    the message puts it off rather than drops it ("can we finish this later?"), so a paused run stays
    paused instead of being stopped for good."""

    kind: Literal["cancel"] = "cancel"
    later: bool = False


class Help(_Command):
    """Say what the open question needs, or what the bot can do."""

    kind: Literal["help"] = "help"


class AskBack(_Command):
    """The user asks about the open question instead of answering it: why it is asked, what it
    means, which answers it takes, or `other` (a question on its topic). It is answered from the
    state's declared `why` and the question stays open, no attempt used (engine/askback.py)."""

    kind: Literal["ask_back"] = "ask_back"
    about: Literal["why", "meaning", "options", "other"]


class StartFlow(_Command):
    """Start `flow`: a new request. `via` says who asked: an interrupt the open question
    allows (the open run is suspended), the bot's entry rule, or an intent."""

    kind: Literal["start_flow"] = "start_flow"
    flow: str
    via: Literal["interrupt", "entry", "intent"]


class NewRequest(_Command):
    """The user asks for something else than the open question: another flow of the bot (`flow`,
    named by one of its intents) or anything the main conversation answers (`flow` None). At an open
    question it is kept and offered once the open flow is done (the question asked again, no attempt
    used); with no flow open it is carried out at once (engine/requests.py)."""

    kind: Literal["new_request"] = "new_request"
    flow: str | None = None


class Resume(_Command):
    """Bring back `flow`'s paused run with this message as the answer to its open question."""

    kind: Literal["resume"] = "resume"
    flow: str


class AnswerFlow(_Command):
    """The open flow reads the message at its question (`flow`, `state`)."""

    kind: Literal["answer_flow"] = "answer_flow"
    flow: str
    state: str
    # the words are only the question's value, written as the question writes it ("4" at a rating: read by
    # `Parser.reads_plainly` in the read stage, engine/reading.py `plain_answer`): nothing else reads them
    plain: bool = False


class Chitchat(_Command):
    """Small talk. With no flow open and none asked for, the main conversation answers; at an open
    question (greetings, apologies, "I was away", thanks, laughter: `social`), a short
    acknowledgement and the question again, no attempt used; a question about the bot itself ("are
    you a bot?": `identity`) is small talk too. In the main conversation `social` says the message
    is only small talk ("ok thanks bye"): offline it is answered as such, not with what the bot can do."""

    kind: Literal["chitchat"] = "chitchat"
    social: tuple[Social, ...] = ()
    # said while the bot's entry flow is paused: acknowledged, and the run stays paused
    paused: bool = False


class Held(_Command):
    """A person has the conversation: the bot holds the line, or the user `leave`s the queue."""

    kind: Literal["held"] = "held"
    leave: bool = False


class Handoff(_Command):
    """The user asks for a person at the open question: handed over where the bot has people,
    told so where it has none."""

    kind: Literal["handoff"] = "handoff"


class Skip(_Command):
    """Leave the open question unanswered and go on, where the state's fallback is to skip it."""

    kind: Literal["skip"] = "skip"


class YesNo(_Command):
    """A yes (True), a no (False), or neither (None) to what the last turn put to the user:
    a flow asked back (`to="confirm"`), a suggested value, an offered message; with no flow open,
    a no to what the main conversation proposed (`to="proposed"`: a yes is read as the proposal)."""

    kind: Literal["yes_no"] = "yes_no"
    to: Literal["confirm", "suggested", "offered", "proposed"]
    subject: str  # the flow, the value or the message the question was about
    yes: bool | None
    # a kept request's words, when the flow asked back is the one it asked for: what a yes starts it with
    request: str | None = None


class Amend(_Command):
    """Change one fact of a saved record of `kind` (declared by `flow`'s `Amends`): its new
    version is saved and the change confirmed; `words` are the phrase that says it."""

    kind: Literal["amend"] = "amend"
    record: str
    flow: str
    slot: str
    value: JsonValue


class AmendAsk(_Command):
    """A change to a saved record that cannot be made without asking (no value, two facts in
    one phrase, a value that leaves the record inconsistent): `question` is asked, nothing changes."""

    kind: Literal["amend_ask"] = "amend_ask"
    record: str
    flow: str
    question: str
    # the fact whose new value is asked for ("can i change my goal?"): the next message may be its value
    slot: str | None = None
    # the value the refusal suggested ("Did you mean Amsterdam?"): a yes next is that value
    suggested: str | None = None


class Recall(_Command):
    """A question about a saved record of `record` kind, or one fact of it ("what's my plan again?"),
    answered from the latest record (`told`): nothing changes (engine/amend.py `recalled`)."""

    kind: Literal["recall"] = "recall"
    record: str
    told: str


Command = Annotated[
    SetSlot
    | CorrectSlot
    | WhichSlot
    | Restated
    | Cancel
    | Help
    | AskBack
    | StartFlow
    | NewRequest
    | Resume
    | AnswerFlow
    | Chitchat
    | Held
    | Handoff
    | Skip
    | YesNo
    | Amend
    | AmendAsk
    | Recall,
    Field(discriminator="kind"),
]


class Reading(BaseModel):
    """A message read: the commands it gives, in the order they are to be executed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str  # the message as read: a yes to a message offered at the open question reads as that message
    commands: list[Command]
