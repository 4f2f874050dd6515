"""An answer at the open question: what a message said at an asking state does.

Asides first, then corrections of earlier answers and slots filled ahead (each said back),
then the flow's any-time readers, then the state's parser and, when it cannot tell, one model
call (engine/answers.py). A usable answer fires `answer`; a question back or small talk is
answered and the question stays open; a failed answer climbs the reprompt ladder to the
state's fallback. Moving the machine is the flow runner's (engine/flowrun.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from engine.answers import extract, parse_answer, try_set, validator_sentence
from engine.askback import COMING_BACK_ONLY, acknowledgement, explanation, later_topic
from engine.commands import AskBack, Chitchat, Command, CorrectSlot, Restated, SetSlot, WhichSlot, YesNo
from engine.context import StepContext
from engine.corrections import says_nothing_of_its_own
from engine.extract import Invalid
from engine.fill import clauses, declined_now, fill, noted_line
from engine.fill import shown as slot_shown
from engine.flow import Flow
from engine.flowrun import FlowRunner
from engine.learned import learned_command
from engine.models import FlowFrame, Heard, Slots
from engine.said import says_not_knowing
from engine.states import ANSWER, Aside, Ask, render, says, without_clause


class OpenQuestion:
    """What a message does at the open question of the session's flow."""

    def __init__(self, run: FlowRunner) -> None:
        self.run = run
        self.fx = run.fx

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
        """
        opened = self.run.counted(flow, frame, heard)
        if opened is None:
            return None
        slots, state = opened
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
            slots, noted = self._correct(flow, frame, slots, corrections, heard)
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
        # the state's parser, made once: the answer below is read by it unless the readers change the slots
        parser = state.parser(slots)
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
            corrected = [k for k in changed if _corrects(getattr(before, k), getattr(slots, k))]
            if corrected:
                slots = self._rerun(flow, frame, slots, corrected, heard)
            # what the user will see acknowledged: corrections, answers to questions to come,
            # and any change to a slot the flow lets be corrected
            asked = {s.slot for s in flow.states if isinstance(s, Ask)}
            shown = [k for k in changed if k in corrected or k in asked or k in flow.correctable_names]
            found = f"Noted ({', '.join(slot_shown(flow, k, getattr(slots, k)) for k in shown)})." if shown else ""
            noted = f"{told} {found}".strip()
            # Beside what else it said, the message may still answer the question ("3 — the audio
            # keeps cutting out"); a correction ("no, my native language is Polish") is not an
            # answer, and the question is asked again with the change noted.
            if not corrected:
                updated = parse_answer(self.fx, flow, state, slots, frame, heard, resuming=resuming).slots
            else:
                # "30, oh btw i sprained my ankle last month": the clauses that correct nothing may answer
                updated = self._beside_correction(flow, state, before, slots, heard)
            if updated is not None:
                frame.attempts = 0
                self.fx.emit(f"{told} {found}".strip())
                self.run.move(flow, frame, updated, ANSWER, heard)
                return None
            self.fx.emit(f"{noted} {self.run.question(flow, state, slots, heard)}".strip())
            return None
        updated, reason, others, proposal = parse_answer(
            self.fx, flow, state, slots, frame, heard, resuming=resuming, parser=parser
        )
        if proposal is not None:
            # what the model found the message says instead, evidenced: the turn carries it out
            return proposal, heard
        if updated is not None:
            if frame.attempts:
                frame.attempts = 0
            if told:
                self.fx.emit(told)
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
        opened = self.run.counted(flow, frame, heard)
        if opened is None:
            return
        slots, state = opened
        # coming back ("sorry, where were we?") is the engine's to answer: a flow's asides would take
        # it for something else (a question about the lesson); asking to wait a flow may answer itself
        stepping = isinstance(command, Chitchat) and set(command.social) <= COMING_BACK_ONLY
        for aside in () if stepping else flow.asides:
            if aside.match(heard.text) and self.run.run_aside(flow, frame, slots, state, aside, heard):
                return
        # what is said first is the author's sentence, shown as written like `help`; the question
        # after it is phrased as always
        rephrase = ""
        ahead = later_question(flow, state, slots, heard.text) if isinstance(command, AskBack) else None
        if ahead is not None:
            # about a question still to come ("how many days do you recommend?" at the level question)
            self.fx.trace.notice("ask_back", flow.name, state.name, f"later:{ahead}")
            self.fx.emit(coming_later(flow, ahead, slots))
        elif isinstance(command, AskBack):
            self.fx.trace.notice("ask_back", flow.name, state.name, command.about)
            why = render(state.why, slots) if state.why else ""
            if command.about != "why" and state.reprompts:
                # asked what it means: the phrasing a reprompt would use now (more explicit at each
                # failed attempt), without using an attempt
                rephrase = render(state.reprompts[min(frame.attempts + 1, len(state.reprompts)) - 1], slots)
            expects = state.parser(slots).expects
            self.fx.emit(explanation(command.about, why, state.help, expects, rephrased=bool(rephrase)))
        else:
            self.fx.trace.notice("chitchat", flow.name, state.name, ",".join(command.social))
            self.fx.emit(acknowledgement(command.social))
        if rephrase:
            self.fx.emit(self.fx.phrase(rephrase, f"reprompt:{flow.name}.{state.name}", flow.name, heard))
        else:
            self.fx.emit(self.run.question(flow, state, slots, heard))

    def restated(self, flow: Flow[Any], frame: FlowFrame, command: Restated, heard: Heard) -> None:
        """The message only says again what filled slots hold: said so, and the question asked again;
        it stays open and no attempt is used (the user was not answering it). The flow's asides hear
        it first, as they hear any message (a language named may change the one learnt)."""
        opened = self.run.counted(flow, frame, heard)
        if opened is None:
            return
        slots, state = opened
        for aside in flow.asides:
            if aside.match(heard.text) and self.run.run_aside(flow, frame, slots, state, aside, heard):
                return
        self.fx.trace.notice("restated", flow.name, state.name, ",".join(command.slots))
        held = ", ".join(slot_shown(flow, k, getattr(slots, k)) for k in command.slots)
        self.fx.emit(f"I have that already ({held}). {self.run.question(flow, state, slots, heard)}")

    def _correct(
        self, flow: Flow[Any], frame: FlowFrame, slots: Slots, fixes: Sequence[CorrectSlot | WhichSlot], heard: Heard
    ) -> tuple[Slots, str]:
        """Make the corrections (each validated by the slots model), say what changed, and run
        again the steps behind that read a corrected slot; a value several slots could take is
        asked about instead."""
        said: list[str] = []
        changed: list[str] = []
        for fix in fixes:
            if isinstance(fix, WhichSlot):
                names = [_label(flow, n) for n in fix.slots]
                which = " or ".join(names)
                said.append(f"Which answer do you want to change: {which}? Name it, e.g. “change the {names[0]} to …”.")
                continue
            try:
                slots = flow.slots.model_validate({**slots.model_dump(), fix.slot: fix.value})
            except ValidationError as e:
                said.append(f"I couldn't change that ({_reason(e)}).")
                continue
            changed.append(fix.slot)
            self.fx.trace.notice("correct", flow.name, frame.state, fix.key or fix.slot)
            said.append(_changed(flow, fix, getattr(slots, fix.slot)))
        if changed:
            frame.slots = slots.model_dump(mode="json")
            slots = self._rerun(flow, frame, slots, changed, heard)
        return slots, " ".join(said)

    def _rerun(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, corrected: list[str], heard: Heard) -> Slots:
        """Run again the steps behind the current state that read a corrected slot, so what they
        derived follows the correction; the state does not move."""
        for step in flow.steps_behind(frame.state, corrected):
            ctx = StepContext(self.fx, heard, flow.name, slots.model_copy(deep=True))
            step.run(ctx)
            slots = flow.slots.model_validate(ctx.slots.model_dump())
            self.fx.trace.notice("rerun", flow.name, frame.state, f"{step.name} ({', '.join(corrected)} corrected)")
        frame.slots = slots.model_dump(mode="json")
        return slots

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
        found = state.parser(slots)(heard.text)
        if found is not None and not isinstance(found, Invalid):
            return False
        self.fx.emit("Alright. " + self.run.question(flow, state, slots, heard))
        return True

    def _beside_correction(
        self, flow: Flow[Any], state: Ask, before: Slots, slots: Slots, heard: Heard
    ) -> Slots | None:
        """The answer in the clauses of the message the flow's any-time reader corrects nothing in,
        when they read one: a correction said in passing leaves the answer beside it standing."""
        if flow.extract is None:
            return None
        plain = [
            c.text
            for c in clauses(heard.text)
            if not any(getattr(before, k, None) != v for k, v in flow.extract(c.text, before, state.slot).items())
        ]
        if not plain or len(plain) == len(clauses(heard.text)):
            return None
        raw = state.parser(slots)(", ".join(plain))
        # a yes or a no beside a correction is about it: "no, call me Sam" at "Shall I save it?"
        return None if isinstance(raw, bool) else try_set(flow, slots, state, raw)

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
        expects = state.parser(slots).expects
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
    found = state.parser(slots)(lead)
    return None if found is None or isinstance(found, Invalid) else found


def later_question(flow: Flow[Any], state: Ask, slots: Slots, words: str) -> str | None:
    """The slot of an empty question still to come that a question back is about (see
    askback.later_topic): its label, reason and wording are what it is about."""
    at = flow.states.index(state)
    later = {
        s.slot: " ".join((_label(flow, s.slot), s.why or "", _wording(s)))
        for s in flow.states[at + 1 :]
        if isinstance(s, Ask) and s.slot and s.slot != state.slot and getattr(slots, s.slot, None) is None
    }
    if not later:
        return None
    asked = " ".join((_label(flow, state.slot), state.why or "", _wording(state)))
    return later_topic(words, asked, later)


def coming_later(flow: Flow[Any], slot: str, slots: Slots) -> str:
    """ "We'll come to that in a later question.", and that question's reason as its author wrote it."""
    state = next(s for s in flow.states if isinstance(s, Ask) and s.slot == slot)
    why = render(state.why, slots) if state.why else ""
    return f"We'll come to that in a later question. {why}".strip()


def _wording(state: Ask) -> str:
    # a question worded by a function may need slots that are not filled yet: its label and reason
    # speak for it
    return re.sub(r"\{[^}]*\}", " ", state.say) if isinstance(state.say, str) else ""


def _label(flow: Flow[Any], slot: str) -> str:
    if flow.show is None:
        return slot.replace("_", " ")
    return flow.show(slot, "").split(":")[0].strip() or slot.replace("_", " ")


def _changed(flow: Flow[Any], fix: CorrectSlot, value: object) -> str:
    """ "OK, rating changed to 3.": the flow's way of showing the slot, as a change."""
    if fix.key is not None and isinstance(value, dict):
        return f"OK, changed: {fix.key} {value.get(fix.key)}."
    told = ", ".join(map(str, value)) if isinstance(value, list) else value
    shown = flow.show(fix.slot, value) if flow.show else f"{fix.slot.replace('_', ' ')}: {told}"
    label, sep, told = shown.partition(": ")
    return f"OK, {label} changed to {told}." if sep else f"OK, changed: {shown}."


def _reason(e: ValidationError) -> str:
    first = e.errors()[0]
    return validator_sentence(first) or str(first.get("msg", "not a valid value")).lower()


def _corrects(old: object, new: object) -> bool:
    """Does setting a slot from `old` to `new` change an answer? Filling an empty slot does not,
    nor does adding answers to a dict slot that holds several; replacing one does."""
    if old is None or (isinstance(old, list | dict | str) and not old):
        return False  # an empty list is no answer yet ("chemistry" at the time question fills the subjects)
    if isinstance(old, dict) and isinstance(new, dict):
        return any(k not in new or new[k] != v for k, v in old.items())
    return True
