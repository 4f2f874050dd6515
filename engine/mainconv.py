"""The main conversation: a message no flow is open for (or that asks for something else).

The bot's own handler (`Bot.converse`, given a `MainContext`) or the stock one: an intent's
keyword pattern starts its flow; with a model, a flow the model reads in the message (evidenced
by the intent's cue words) is asked back, never started; anything else gets the main reply, the
model's own words in the bot's persona (streamed) or, offline, the bot's capabilities.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bot import Intent
from engine.commands import Social
from engine.context import MainContext
from engine.errors import DefinitionError
from engine.extract import fold
from engine.flowrun import FlowRunner
from engine.llm.port import TextSink
from engine.models import Heard, Slots
from engine.smalltalk import acknowledgement, greets, talk_reply


class MainConversation:
    """The main conversation's half of a turn (what `MainContext` reaches as its `MainOps`)."""

    def __init__(self, flows: FlowRunner) -> None:
        self.flows = flows
        self.fx = flows.fx

    def start_flow(self, name: str, seed: Slots | None, heard: Heard) -> None:
        """Start `name` from code (a bot's main handler), with `seed` of the flow's own slots model."""
        flow = self.fx.bot.flow(name)
        if seed is not None and not isinstance(seed, flow.slots):
            raise DefinitionError(
                f"started with {type(seed).__name__}, but its slots model is {flow.slots.__name__}", flow=name
            )
        self.fx.trace.route = f"intent:{name}"
        self.flows.start(name, heard, seed=seed.model_dump(exclude_unset=True) if seed is not None else None)

    def converse(self, heard: Heard, social: Sequence[Social] = ()) -> None:
        """The message in the main conversation: the bot's own handler, or the stock one; `social`,
        the kinds of small talk the message is made of, when it is only that."""
        self.fx.route("main")
        if self.fx.bot.converse is not None:
            self.fx.bot.converse(MainContext(self.fx, self, heard, social))
        else:
            self.default_main(heard, social)

    def detect_intent(self, heard: Heard) -> str | None:
        """The flow a keyword pattern asks for. A model's guess never starts a flow here: see
        `_guess_intent`, whose answer is asked back first."""
        return self.fx.bot.intent_for(heard.text)

    def _guess_intent(self, heard: Heard) -> Intent | None:
        """With a model: the intent it reads in a message no pattern matched, when the message
        holds one of that intent's cue words and the model quotes the words that show it."""
        if self.fx.offline:
            return None
        candidates = [i for i in self.fx.bot.intents if i.cued(heard.text)]
        if not candidates:
            return None  # no cue word: small talk, and the model is not even asked
        answer = self.fx.llm_parse(self.fx.bot.intent_model(candidates), "classify:intent", None, heard)
        flow, evidence = getattr(answer, "value", None), getattr(answer, "evidence", None)
        chosen = next((i for i in candidates if i.flow == flow), None)
        if chosen is None or not isinstance(evidence, str) or not evidence.strip():
            return None
        if fold(evidence) not in fold(heard.text) or not chosen.cued(evidence):
            self.fx.trace.notice("route", detail=f"{flow}: the quoted evidence {evidence!r} is not in the message")
            return None
        return chosen

    def default_main(self, heard: Heard, social: Sequence[Social] = ()) -> None:
        flow = self.detect_intent(heard)
        if flow:
            self.fx.trace.route = f"intent:{flow}"
            self.flows.start(flow, heard)
            return
        guessed = self._guess_intent(heard)
        if guessed is not None:
            # a model's reading of what the user wants is asked back, never acted on
            self.fx.session.carry.confirm = guessed.flow
            self.fx.trace.notice("route", detail=f"asked: {guessed.flow}")
            self.fx.emit(guessed.question)
            return
        self.main_reply(heard, social=social)

    def main_reply(
        self, heard: Heard, fallback: str | None = None, background: str = "", social: Sequence[Social] = ()
    ) -> None:
        """Answer the message: with a model, its own words in the bot's persona, from the main
        history, what the bot knows of the user and `background`, streamed to the turn's sink;
        offline, `fallback` (the capabilities). Offline, a message of small talk alone (`social`:
        "thanks!", "ok bye") is answered as such (engine/askback.py, the bot's own replies first) and
        a greeting is greeted before what the bot can do; a model answers small talk in its own words,
        from the bot's own reply where it has one."""
        offline = self.fx.offline
        own = self.fx.bot.small_talk
        kinds = social if offline else [k for k in social if k in own]
        talk = talk_reply(kinds, own) if kinds else ""
        content = talk or fallback or self.fx.bot.capabilities
        if not talk and fallback is None and offline and self.fx.bot.offline_note:
            content = f"{content} {self.fx.bot.offline_note}"
        if not talk and "greeting" in kinds and not greets(content):
            content = f"{own.get('greeting') or acknowledgement(['greeting'])} {content}"
        sink = self.fx.voice.sink
        if sink is not None and self.fx.reply:
            self.fx.voice.sink = _after_a_break(sink)  # it follows what the turn has said already
        try:
            prompt = lambda: self.fx.prompt(None, "reply", heard, background)  # noqa: E731
            said = self.fx.voice.phrase(content, "reply:main", prompt, reply=True)
        finally:
            self.fx.voice.sink = sink
        self.fx.emit(said.text, shown=said.shown)


def _after_a_break(sink: TextSink) -> TextSink:
    """`sink`, with a paragraph break before the first piece."""
    started = False

    def separated(piece: str) -> None:
        nonlocal started
        sink(piece if started else "\n\n" + piece)
        started = True

    return separated
