"""An answer at the open question: what a message said at an asking state does.

Asides first, then corrections of earlier answers and slots filled ahead (each said back,
engine/answers.py), then the flow's any-time readers (engine/answers.py), then the state's parser
and, when it cannot tell, one model call (`parse_answer`, here). A usable answer fires `answer`; a
question back or small talk is answered and the question stays open; a failed answer climbs the
reprompt ladder to the state's fallback. Moving the machine is the flow runner's (engine/flowrun.py).

A plain answer ("4" at a rating) walks the least: counted here (`opened`), read by the state's
parser here, and the machine moved by the runner, without a call into the slot readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from engine.answers import (
    beside_correction,
    correct,
    corrects,
    empty_value,
    extract,
    fill_from_model,
    fillable,
    refused_because,
    rerun,
    try_set,
)
from engine.askback import coming_later, explanation, later_question, not_terms, offers
from engine.commands import AskBack, Chitchat, Command, CorrectSlot, Restated, SetSlot, WhichSlot, YesNo
from engine.correctionwords import says_nothing_of_its_own
from engine.declined import declined_now, declines_asked
from engine.effects import Effects
from engine.errors import DefinitionError
from engine.extract import Empty, Invalid, Parser
from engine.fact_clauses import clauses
from engine.fill import fill, noted_line
from engine.fill import shown as slot_shown
from engine.flow import Flow
from engine.flowrun import FlowRunner
from engine.learned import learned_command
from engine.meanings import meanings_of, named
from engine.meanings import said as said_meanings
from engine.message_parts import asks_why_beside
from engine.models import FlowFrame, Heard, Message, Slots
from engine.proposals import kept, proposed, with_proposal
from engine.said import says_not_knowing
from engine.smalltalk import COMING_BACK_ONLY, acknowledgement
from engine.states import ANSWER, Aside, Ask, render, says, without_clause
from engine.unneeded import facts, not_needed
from engine.wrapped import unwrapped


def open_at(run: FlowRunner, flow: Flow[Any], frame: FlowFrame, heard: Heard) -> tuple[Slots, Ask] | None:
    """A message at the open question: counted towards `max_turns` (no flow may be kept open
    forever, whatever is said at it) and kept in the scratchpad; None when the run has expired."""
    fx = run.fx
    # the frame's own fields are not validated on assignment: set as pydantic's __setattr__ sets them, without its
    # two calls (several such assignments a turn)
    frame.__dict__["turns"] += 1
    frame.__pydantic_fields_set__.add("turns")
    frame.scratchpad.append(Message(role="user", content=fx.said))  # as typed: "yes" to an offer
    # validated once already by _reconcile this turn
    slots = fx.checked.pop(id(frame), None) or flow.new_slots(frame.slots)
    if frame.turns > flow.max_turns:
        summary = f"{flow.name.capitalize()} ended after {flow.max_turns} turns without finishing."
        run.close(flow, frame, slots, "expired", summary)
        fx.emit(f"We've been at this for a while, so I've stopped the {flow.name} here.")
        run.resume_or_return(heard)
        return None
    state = flow.named[frame.state]
    if not isinstance(state, Ask):
        raise DefinitionError("session rests in a state that does not ask", flow=flow.name, state=frame.state)
    return slots, state


def parser_of(state: Ask, slots: Slots) -> Parser:
    """`state.parser(slots)`, without a call into engine/states.py for the usual fixed parser."""
    parse = state.parse
    return parse if isinstance(parse, Parser) else parse(slots)


# a dataclass: its generated __init__ is no code of this module (bench/walk.py)
@dataclass(eq=False)
class OpenQuestion:
    """What a message does at the open question of the session's flow."""

    run: FlowRunner
    fx: Effects

    def flow_turn(
        self,
        flow: Flow[Any],
        frame: FlowFrame,
        heard: Heard,
        *,
        resuming: bool = False,
        replies: Sequence[YesNo] = (),
        fixes: Sequence[CorrectSlot | WhichSlot | SetSlot] = (),
        rest: str = "",
        plain: bool = False,
    ) -> tuple[Command, Heard] | None:
        """`heard` answers the open flow's question, resting in `frame.state`; returns the
        command the model found it says instead (engine/proposals.py), for the turn to carry out,
        with the words it was read in.

        Asides come first, then the flow's any-time extractor (several slots, corrections),
        then the state's parser and, when that cannot tell, the model; a failed answer
        climbs the reprompt ladder and, after `max_attempts`, takes the state's fallback.
        `resuming`: the run was paused and this message brings it back; it answers the
        question only when the rules read it so. `replies`: the message read as a yes or a no
        to a value suggested at this question last turn, or a no to a message offered there.
        `fixes`: earlier answers the message corrects (engine/corrections.py), made first; then
        `rest`, the message without them, is read as usual, and a rest that answers nothing asks
        the question again without using an attempt. `SetSlot`s among them fill slots ahead of
        their questions (engine/fill.py), after the asides; `rest` is then the rest of the message.
        `plain`: the read stage found the message the question's value as it writes it (`AnswerFlow.plain`).
        """
        opened = open_at(self.run, flow, frame, heard)
        if opened is None:
            return None
        slots, state = opened
        stored = slots, frame.slots  # the slots as validated from the stored ones: an answer to them validates itself
        sets = [f for f in fixes if isinstance(f, SetSlot)]
        fixes = corrections = [f for f in fixes if isinstance(f, CorrectSlot | WhichSlot)]
        if sets:
            heard = Heard(heard.text, whole=heard.text)  # the flow reads the rest; what it says answers the whole
        if rest and not fixes and rest != self.fx.said:
            # a number taken back within the message is the number meant (engine/corrections.py)
            heard = heard.reading(rest)
        noted = ""
        if fixes:
            # the flow's own asides read the message first, as they do any message (a new target
            # language said at the placement test restarts it); then the corrections are made
            for aside in flow.asides:
                if aside.match(heard.text) and self.run.run_aside(flow, frame, slots, state, aside, heard):
                    return None
            slots, noted = correct(self.fx, flow, frame, slots, corrections, heard)
            if not rest.strip():
                self.fx.emit(f"{noted} {self.run.question(flow, state, slots, heard)}".strip())
                return None
            # the rest of the message is read as usual; what was corrected is said first
            self.fx.emit(noted)
            heard = heard.reading(rest)
        for reply in replies:
            if reply.to == "suggested" and self._answer_suggestion(flow, frame, slots, state, reply, heard):
                return None
            if reply.to == "offered" and self._declined(flow, slots, state, reply, heard):
                return None  # a yes was read as the offered message already (reading.as_read)
        for aside in flow.asides:
            if aside.match(heard.text):
                answer = _answer_before(state, slots, aside, heard)
                if self.run.run_aside(flow, frame, slots, state, aside, heard, answer):
                    return None
        if not plain and not sets and not fixes and not resuming and any(map(str.isdigit, heard.text)):
            # facts no slot takes ("I'm 34, about 5 foot 9" at the level question): said not needed, and the question
            # again, no attempt used; beside other words, those are read as the answer (a digit looked for by `map`,
            # in C, not a generator step per character)
            given = facts(heard.text, flow.slots.model_fields, parser_of(state, slots))
            if given is not None and not given.rest:
                self.fx.trace.notice("unneeded", flow.name, state.name, ",".join(given.kinds))
                self.fx.emit(f"{not_needed(given.kinds)} {self.run.question(flow, state, slots, heard)}")
                return None
            if given is not None:
                # the answer beside them is read without them ("I'm 34 and I can do 4 days": 4, not two numbers)
                heard = heard.reading(given.rest)
        if not rest.strip() and not resuming and not sets and not fixes and self.fx.said.strip():
            # every clause was another question's, unclear ("like 3 or 4 times a week" at the injuries
            # question): no answer here, and that question asks it in its turn; no attempt used
            self.fx.emit(f"Let's come back to that later. {self.run.question(flow, state, slots, heard)}")
            return None
        # what was filled ahead, said with what comes next, whether the question is answered too or not:
        # every fact kept is said, a question that will not be asked and a fact no question asks alike
        # ("beginner, and 80kg": the body weight kept beside the level is said, never kept unsaid)
        told = ""
        ahead: list[str] = []
        if sets:
            slots, ahead = fill(flow, slots, sets)
            frame.slots = slots.model_dump(mode="json")
            frame.declined = declined_now(frame.declined, sets)
            for name in ahead:
                if name in frame.declined and getattr(slots, name) is None:
                    self.fx.trace.notice("declined", flow.name, state.name, name)
                else:
                    self.fx.trace.notice("ahead", flow.name, state.name, name)
            told = noted_line(flow, slots, ahead)
            if not rest.strip():
                self.fx.emit(f"{told} {self.run.question(flow, state, slots, heard)}".strip())
                return None
            fixes = [*fixes, *sets]  # a rest that answers nothing asks again, no attempt used
        before = slots
        # the state's parser, made once: the answer below is read by it unless the readers change the slots;
        # the read stage's plain reading picked it already from these very slots (engine/reading.py)
        picked = self.fx.chosen.pop(id(frame), None) if plain else None
        if picked is not None and picked[0] is not slots:
            picked = None
        parser = picked[1] if picked is not None else parser_of(state, slots)
        # a plain answer ("4" at the rating) is the value alone: no slot reader is asked (as `extract` says)
        plain = plain or parser.reads_plainly(heard.text)  # the read stage may have asked it already
        changed: list[str] = []
        if not plain:
            slots, changed = extract(flow, slots, state.slot, heard.text, parser)
        if changed:
            frame.slots = slots.model_dump(mode="json")
        if state.slot in changed:
            # the answer, read by the flow's any-time readers with other facts beside it ("Lena, from Berlin, I
            # speak German"): those are said too, as the facts filled ahead are, never kept unsaid
            asked = {s.slot for s in flow.states if isinstance(s, Ask)}
            beside = [
                k for k in changed if k != state.slot and k not in ahead and (k in asked or k in flow.correctable_names)
            ]
            frame.attempts = 0
            self.fx.emit(noted_line(flow, slots, [*ahead, *beside]))
            self.run.move(flow, frame, slots, ANSWER, heard)
            return None
        if changed:
            corrected = [k for k in changed if corrects(getattr(before, k), getattr(slots, k))]
            if corrected:
                slots = rerun(self.fx, flow, frame, slots, corrected, heard)
            # what the user will see acknowledged: corrections, answers to questions to come,
            # and any change to a slot the flow lets be corrected
            asked = {s.slot for s in flow.states if isinstance(s, Ask)}
            shown = [k for k in changed if k in corrected or k in asked or k in flow.correctable_names]
            found = f"Noted ({', '.join(slot_shown(flow, k, getattr(slots, k)) for k in shown)})." if shown else ""
            noted = f"{told} {found}".strip()
            # Beside what else it said, the message may still answer the question ("3 — the audio
            # keeps cutting out"); a correction ("no, my native language is Polish") is not an
            # answer, and the question is asked again with the change noted.
            refused = ""
            if not corrected:
                answer = parse_answer(self.fx, flow, state, slots, frame, heard, resuming=resuming)
                updated = answer.slots
                # the readers kept something nothing says back ("no dairy for me": what is left out, beside the diet
                # still to say): the parser's reason says what it made of the message, where the question alone
                # would read as not heard
                refused = "" if shown else (answer.reason or "")
            else:
                # "30, oh btw i sprained my ankle last month": the clauses that correct nothing may answer
                updated = beside_correction(flow, state, before, slots, heard)
            if updated is not None:
                frame.attempts = 0
                self.fx.emit(f"{told} {found}".strip())
                self.run.move(flow, frame, updated, ANSWER, heard)
                return None
            self.fx.emit(" ".join(p for p in (noted, refused, self.run.question(flow, state, slots, heard)) if p))
            return None
        updated, reason, others, proposal = parse_answer(
            self.fx, flow, state, slots, frame, heard, resuming=resuming, parser=parser, plain=plain,
            checked=slots is stored[0] and frame.slots is stored[1], value=picked[2] if picked is not None else None,
        )  # fmt: skip
        if proposal is not None:
            # what the model found the message says instead, evidenced: the turn carries it out
            return proposal, heard
        if updated is not None:
            if frame.attempts:
                frame.attempts = 0
            if told:
                self.fx.emit(told)
            # one word ("4", "beginner", most answers) has no part beside it to ask why: asked before the readers
            # the check calls, which are otherwise run on every answer (bench/walk.py)
            several = not heard.text.strip().isalnum()
            if several and state.why and asks_why_beside(heard.text) and not offers(parser):
                # "on my iphone, why?": the answer is taken, and the why asked beside it answered from the question's
                # declared reason before the next question, not dropped; at a yes/no offer "no, why would I" is the
                # no, the question beside it rhetorical (engine/askback.py question_back)
                self.fx.trace.notice("ask_back", flow.name, state.name, "why beside the answer")
                self.fx.emit(render(state.why, updated))
            self.run.move(flow, frame, updated, ANSWER, heard)
            return None
        if resuming and reason is None:
            # back after a pause with a message that answers nothing ("hi again"): the question, no reprompt
            self.fx.emit(f"{told} Welcome back! Let's continue. {self.run.question(flow, state, slots, heard)}".strip())
            return None
        if others:
            # the message answered other questions, not this one: noted, and this one asked again
            self.fx.emit(f"{told} {self.run.question(flow, state, flow.new_slots(frame.slots), heard)}".strip())
            return None
        if fixes:
            # the message was a correction (or filled other slots); the rest answers nothing: no attempt
            # used, and what is wrong with a rest that tried ("germna": German?) is said
            why = reason if sets and reason else ""
            self.fx.emit(" ".join(p for p in (told, why, self.run.question(flow, state, slots, heard)) if p))
            return None
        # only a message nothing read: a parser's refusal with a reason ("No need for details...") read it,
        # and not knowing ("idk") is answered below with why the question is asked
        unread = reason is None and not says_not_knowing(heard.text)
        learned = learned_command(heard.text) if unread else None
        if learned is not None:
            # nothing else read the message; the learned reader is confident it says this instead of an
            # answer (engine/learned.py): carried out like a command the rules read, and a value a refused
            # answer suggested is not put to the user
            self.fx.session.carry.suggested = None
            self.fx.trace.notice("learned", flow.name, state.name, f"{learned.kind}: {learned.words!r}")
            return learned, heard
        self._reprompt(flow, frame, slots, state, reason, heard)
        return None

    def asked_back(self, flow: Flow[Any], frame: FlowFrame, command: AskBack | Chitchat, heard: Heard) -> None:
        """A question back about the open question, or small talk at it: answered, and the question
        asked again; it stays open and no attempt is used. The flow's asides hear it first (a
        course answers a question on its content better than the state's reason does)."""
        opened = open_at(self.run, flow, frame, heard)
        if opened is None:
            return
        slots, state = opened
        # coming back ("sorry, where were we?") is the engine's to answer: a flow's asides would take
        # it for something else (a question about the lesson); asking to wait a flow may answer itself
        stepping = isinstance(command, Chitchat) and set(command.social) <= COMING_BACK_ONLY
        # "why?" at a yes/no offer ("Shall I make a study plan?", "Shall we start with Limits first?") asks why it is
        # offered: in any language it is answered from the offer's reason when it declares one, not from the flow's
        # material; and whatever answers it keeps the offer open ("why derivatives?" names a subject, but asks: it
        # declines nothing and starts nothing). Other questions back go to the asides as before: "is there anyone
        # real i can talk to?" at a yes/no question is a flow's own way to a person
        asks_why = isinstance(command, AskBack) and command.about == "why" and offers(parser_of(state, slots))
        if isinstance(command, AskBack) and self._meant(flow, state, slots, command, heard):
            return
        for aside in () if stepping or (asks_why and state.why) else flow.asides:
            if aside.match(heard.text) and self.run.run_aside(flow, frame, slots, state, aside, heard, stay=asks_why):
                return
        # what is said first is the author's sentence, shown as written like `help`; the question
        # after it is phrased as always
        rephrase = ""
        ahead = (
            later_question(flow.states, flow.label, state, slots, heard.text) if isinstance(command, AskBack) else None
        )
        if ahead is not None:
            # about a question still to come ("how many days do you recommend?" at the level question)
            self.fx.trace.notice("ask_back", flow.name, state.name, f"later:{ahead}")
            self.fx.emit(coming_later(flow.states, ahead, slots))
        elif isinstance(command, AskBack):
            self.fx.trace.notice("ask_back", flow.name, state.name, command.about)
            why = render(state.why, slots) if state.why else ""
            if command.about != "why" and state.reprompts:
                # asked what it means: the phrasing a reprompt would use now (more explicit at each
                # failed attempt), without using an attempt
                rephrase = render(state.reprompts[min(frame.attempts + 1, len(state.reprompts)) - 1], slots)
            expects = parser_of(state, slots).expects
            self.fx.emit(explanation(command.about, why, state.help, expects, rephrased=bool(rephrase)))
        else:
            self.fx.trace.notice("chitchat", flow.name, state.name, ",".join(command.social))
            self.fx.emit(acknowledgement(command.social))
        if rephrase:
            self.fx.emit(self.fx.phrase(rephrase, f"reprompt:{flow.name}.{state.name}", flow.name, heard))
        else:
            self.fx.emit(self.run.question(flow, state, slots, heard))

    def _meant(self, flow: Flow[Any], state: Ask, slots: Slots, command: AskBack, heard: Heard) -> bool:
        """A question back about terms the question declares meanings for ("what do you mean by endurance?", "was
        heißt B2?", "what's the difference between intermediate and advanced?"): their meanings, then the question
        again (False: it names none, or asks why). Before the flow's asides: the question's own declaration says
        what its words mean better than a flow's material on its subject."""
        if command.about == "why":
            return False
        declared = meanings_of(state.meanings, slots)
        terms = named(heard.text, declared, parser_of(state, slots), not_terms()) if declared else ()
        if not terms:
            return False
        self.fx.trace.notice("ask_back", flow.name, state.name, "meaning")
        self.fx.trace.notice("meant", flow.name, state.name, "|".join(terms))
        self.fx.emit(said_meanings(terms, declared))
        self.fx.emit(self.run.question(flow, state, slots, heard))
        return True

    def restated(self, flow: Flow[Any], frame: FlowFrame, command: Restated, heard: Heard) -> None:
        """The message only says again what filled slots hold: said so, and the question asked again;
        it stays open and no attempt is used (the user was not answering it). The flow's asides hear
        it first, as they hear any message (a language named may change the one learnt)."""
        opened = open_at(self.run, flow, frame, heard)
        if opened is None:
            return
        slots, state = opened
        for aside in flow.asides:
            if aside.match(heard.text) and self.run.run_aside(flow, frame, slots, state, aside, heard):
                return
        self.fx.trace.notice("restated", flow.name, state.name, ",".join(command.slots))
        held = ", ".join(slot_shown(flow, k, getattr(slots, k)) for k in command.slots)
        self.fx.emit(f"I have that already ({held}). {self.run.question(flow, state, slots, heard)}")

    def _answer_suggestion(
        self, flow: Flow[Any], frame: FlowFrame, slots: Slots, state: Ask, reply: YesNo, heard: Heard
    ) -> bool:
        """A yes to "Did you mean German?" takes German; a no asks the question again, unread and
        uncounted (the user is about to retype it). Anything else is read as usual (False)."""
        if reply.yes is True and (updated := try_set(flow, slots, state, reply.subject)) is not None:
            frame.attempts = 0
            self.run.move(flow, frame, updated, ANSWER, heard)
            return True
        return self._declined(flow, slots, state, reply, heard)

    def _declined(self, flow: Flow[Any], slots: Slots, state: Ask, reply: YesNo, heard: Heard) -> bool:
        """A no to what was offered that answers nothing asks the question again ("no, Polish"
        is read as an answer: False)."""
        if reply.yes is not False:
            return False
        found = parser_of(state, slots)(heard.text)
        if found is not None and not isinstance(found, Invalid):
            return False
        self.fx.emit("Alright. " + self.run.question(flow, state, slots, heard))
        return True

    def _reprompt(
        self, flow: Flow[Any], frame: FlowFrame, slots: Slots, state: Ask, reason: str | None, heard: Heard
    ) -> None:
        """No usable answer: one more attempt used, and the question asked again one rung more
        explicit (the state's reprompts, then the engine's), saying `reason` first; after
        `max_attempts`, the state's fallback."""
        frame.attempts += 1
        if frame.attempts >= state.max_attempts:
            self.run.fallback(flow, frame, slots, state, heard)
            return
        tier = frame.attempts
        self.fx.trace.notice("reprompt", flow.name, state.name, str(tier))
        if says_not_knowing(heard.text) or any(says_not_knowing(c.text) for c in clauses(heard.text)):
            # "idk", "no idea": no value to refuse ('I don't know a language called “idk”'); why the
            # question is asked may help the user answer it. Said beside words the question reads nothing
            # from ("not sure, the latest one I think"), not knowing is still what the message says
            why = render(state.why, slots) if state.why else ""
            reason = f"No problem if you're not sure. {why}".strip()
        expects = parser_of(state, slots).expects
        offers = self.fx.session.carry.suggested is not None
        if reason and "?" in reason and (offers or (tier == 1 and not state.reprompts)):
            # the reason asks the question that follows up ("Which injury?") or offers a value ("Is your
            # native language Spanish?", taken by a yes): one question at a time
            again = ""
        elif tier <= len(state.reprompts):
            again = render(state.reprompts[tier - 1], slots)
        elif tier == 1 and reason:
            again = render(state.say_again, slots)  # the reason says what is needed already
        elif tier == 1:
            again = f"I need {expects}. {render(state.say_again, slots)}"
        else:
            # past the declared phrasings each rung still gets more explicit, never a repeat
            last = render(state.reprompts[-1], slots) if state.reprompts else render(state.say_again, slots)
            again = f"Please reply with just {'your answer' if says(last, expects) else expects}. {last}"
        if reason:
            reason = without_clause(reason, again)  # "7 is out of range." when the question gives the range
        text = f"{reason} {again}" if reason and again else reason or again
        phrasing = f"reprompt:{flow.name}.{state.name}"
        self.fx.emit(self.fx.phrase(text, phrasing, flow.name, heard) if state.phrased else text)


def _answer_before(state: Ask, slots: Slots, aside: Aside, heard: Heard) -> object:
    """The open question's answer in the clauses before the one the aside hears: "7. oh and do i have
    anything planned this week?" answers the exercise and asks about the plans. Clauses of cue words
    and fillers only ("ok, what does that mean?") answer nothing. The aside hears the whole message,
    and the answer is taken only where it asks the question again (flowrun.run_aside)."""
    parts = clauses(heard.text)
    at = next((n for n, c in enumerate(parts) if aside.match(c.text)), 0)
    lead = ", ".join(c.text for c in parts[:at])
    if at == 0 or says_nothing_of_its_own(lead):
        return None
    found = parser_of(state, slots)(lead)
    return None if found is None or isinstance(found, Invalid) else found


# -- the answer to the asked slot --------------------------------------------------------


class Answer(NamedTuple):
    """What reading the message as the asked slot's answer found."""

    slots: Slots | None  # the slots with the answer set; None when there is no usable answer
    reason: str | None  # why the answer was refused, when it was
    others: bool = False  # a model's parse filled other slots (noted), not the asked one
    # what the message says instead of an answer, proposed by the model and evidenced (engine/proposals.py)
    command: Command | None = None


def parse_answer(
    fx: Effects,
    flow: Flow[Any],
    state: Ask,
    slots: Slots,
    frame: FlowFrame,
    heard: Heard,
    *,
    resuming: bool = False,
    parser: Parser | None = None,
    plain: bool | None = None,
    checked: bool = False,
    value: object = None,
) -> Answer:
    """`heard` as the answer to `state`; `resuming` a paused run, a message the rules cannot
    read is no answer, and no model is asked to make it one. `parser`: the state's parser for
    `slots`, when the caller has made it already; `plain`: whether it reads the message plainly
    (`Parser.reads_plainly`), when the caller has asked already; `checked`: `slots` are the frame's
    stored slots as validated this turn, so the answer is validated alone (as a step's assignment is); `value`:
    what `parser` read the message as, when the read stage read it plainly."""
    text = heard.text
    if parser is None:
        parser = parser_of(state, slots)
    raw = parser(text) if value is None else value
    # the value as the question writes it ("beginner") is only itself: no words around it to take off
    if plain is None:
        plain = parser.reads_plainly(text)
    words = isinstance(raw, str | list) and not parser.greedy and not plain
    if words and isinstance(raw, list) and says_not_knowing(text):
        # "keine Ahnung, ehrlich" at the allergies question: not knowing, whose words a list reader would
        # keep as two items; no value, and the question's way with not knowing follows (engine/answering.py).
        # A reader that takes not knowing as its answer (a placement test's "no idea") returns it whole.
        raw = None
    inner = _unwrapped(text) if raw is None or isinstance(raw, Invalid) or words else None
    if inner is not None:
        # the answer between an acknowledgement and a "please": "ok. Sofía", "english please"; a
        # value in words keeps none of them ("ok yeah asthma" is asthma)
        again = parser(inner)
        if again is not None and not isinstance(again, Invalid) and (not words or type(again) is type(raw)):
            raw = again
    if (raw is None or isinstance(raw, Invalid)) and declines_asked(flow, state.slot, text):
        # "im Moment kein Zielgewicht" at the target question: its none, said with the words naming it
        raw = parser("none")
    if isinstance(raw, Empty):
        # "none" to an optional question answers it: the slot's own empty value, never the word
        empty = empty_value(flow.slots, state.slot)
        try:
            return Answer(flow.slots.model_validate({**frame.slots, state.slot: empty}), None)
        except ValidationError as e:
            return Answer(None, refused_because(e, parser_of(state, slots).expects))
    if isinstance(raw, Invalid):
        if raw.suggestion is not None:
            # read by the next turn only, at this question
            fx.session.carry.suggested = raw.suggestion
        # a reply that only adds what is missing ("kg", "pm") is read with this message (engine/reading.py)
        fx.session.carry.refused_at, fx.session.carry.refused = f"{flow.name}.{frame.state}", text
        return Answer(None, raw.reason)
    if raw is None and resuming:
        return Answer(None, None)  # a greeting after a pause
    filled = False
    if raw is None:
        # one call reads the asked slot and every other slot the message may fill or correct
        others = tuple(n for n in flow.fills if n != state.slot and fillable(flow, slots, n))
        form = with_proposal(flow.form_model(state, others))
        answer = fx.llm_parse(form, f"parse:{flow.name}.{state.name}", flow.name, heard)
        raw = getattr(answer, "value", None) if answer else None
        if isinstance(raw, str) and not raw.strip():
            raw = None  # an empty text says nothing was given
        # a field left at its default (None, or an empty dict slot's {}) says nothing
        extra = {n: v for n in others if (v := getattr(answer, n, None)) is not None and v != getattr(slots, n)}
        if extra:
            slots, frame.slots, filled = fill_from_model(fx, flow, slots, extra, text)
        if raw is None:
            return Answer(None, None, filled, None if filled else _proposed(fx, flow, state, slots, answer, text))
    try:
        if checked and not filled:
            # the other slots were validated from the stored ones on load (engine/load.py): validating them
            # again would run their validators a second time to the same values; the answer is validated
            # with the model's own validators, as `Slots` validates every assignment
            answered = _copy(slots)
            slots.__pydantic_validator__.validate_assignment(answered, state.slot, raw)  # in place, on the copy
            return Answer(answered, None)
        return Answer(flow.slots.model_validate({**frame.slots, state.slot: raw}), None, filled)
    except ValidationError as e:
        return Answer(None, refused_because(e, parser_of(state, slots).expects), filled)


def _proposed(
    fx: Effects, flow: Flow[Any], state: Ask, slots: Slots, answer: BaseModel | None, text: str
) -> Command | None:
    """The command the model proposed instead of an answer, when the message says it."""
    proposal = proposed(answer)
    if proposal is None:
        return None
    found = kept(proposal, text, parser_of(state, slots), flow.name)
    if isinstance(found, str):
        fx.trace.notice("parse_rejected", flow.name, state.name, f"proposed {found}")
        return None
    fx.trace.notice("proposed", flow.name, state.name, f"{found.kind}: {found.words!r}")
    return found


def _copy(slots: Slots) -> Slots:
    """`slots.model_copy()`: the same class holding a copy of its values (a Slots model has no extra or private
    parts), without pydantic's generic copy (six calls through the copy module)."""
    made = object.__new__(type(slots))
    object.__setattr__(made, "__dict__", dict(slots.__dict__))
    object.__setattr__(made, "__pydantic_fields_set__", set(slots.__pydantic_fields_set__))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def _unwrapped(text: str) -> str | None:
    """`text` without every acknowledgement before it ("ok yeah asthma" is "asthma"), None when none wraps it."""
    inner = None
    while (again := unwrapped(inner or text)) is not None and again != inner:
        inner = again
    return inner
