"""How well the engine understands a message, by command kind and by language, on the commands corpus.

    python bench/understanding.py                 # both splits and the blind batches' halves, offline (rules backend)
    python bench/understanding.py --misses dev --misses dev-fresh   # and every dev message read wrong
    python bench/understanding.py --llm openai    # through the local model (llama-cpp-python's server)
    python bench/understanding.py --limit 20      # the first 20 entries of each split (a smoke run)
    python bench/understanding.py --every 30      # every 30th entry of each split (a sample across the bots)

The fresh halves (tests/corpora/commands/fresh/{dev,test}.yaml, "dev fresh" and "test fresh") are a blind batch
written after dev had been tuned on until it showed nothing: fix on the dev halves' misses only; the test
halves are only measured. The "putting it off" batch (tests/corpora/commands/later/, "dev later" and "test later")
is one class written blind the same way: stopping for now to come back later, and its controls.
The typos halves (tests/corpora/commands/typos/, "dev typos" and "test typos") are a blind batch of messages
with a typo in a word that carries meaning, and controls that must not be corrected (`--misses dev-typos`).
The declines halves (tests/corpora/commands/declines/, "dev declines" and "test declines") are a blind batch of
"none" / "not for now" said for a question, before it is asked too, "maybe later" to an offer, and controls.
The hedges halves (tests/corpora/commands/hedges/, "dev hedges" and "test hedges") are a blind batch of answers
phrased as questions or hedges ("can I say 3?", "maybe 4?"), questions back holding a value-like word ("is 3 days
enough to see results?", "what does intermediate mean?"), and plain answers and questions back (`--misses dev-hedges`).
The precision halves (tests/corpora/commands/precision/, "dev precision" and "test precision") are a blind batch of
messages that mention a value of the open question without answering it ("my sister is 12 and trains 5 days a week",
"last year I did 5 days", "is Lisbon the same time as London?"), and near-twins that do answer
(`--misses dev-precision`).
The meaning halves (tests/corpora/commands/meaning/, "dev meaning" and "test meaning") are a blind batch of questions
about a term of the question ("what do you mean by endurance?", "was heißt B2?"): an ask_back there counts only when
answered with the declared meanings its label names (`meant`, from the turn's `meant` notice), a why-question only
when answered with none; facts no slot takes ("I'm 34, about 5 foot 9"), `unneeded` when the turn's `unneeded` notice
says so, the run still at its question and no attempt used; and answers (`--misses dev-meaning`).
The within halves (tests/corpora/commands/within/, "dev within" and "test within") are a blind batch of messages
that correct themselves inside the same message ("3, sorry 4", "drei, nein vier", "Madrid, pardon, Bruxelles"),
and controls that are no self-correction ("I mean it, 5 days", "3 or 4") (`--misses dev-within`).
The notasks halves (tests/corpora/commands/notasks/, "dev notasks" and "test notasks") are a blind batch of messages
shaped like a question that ask nothing back about the bot's question (answers said as questions, polite requests,
small talk, rhetorical answers: "¿por qué no 4?", "kannst du abbrechen?", "beginner, what else?") and true questions
back among them ("can you explain what paleo is?") (`--misses dev-notasks`).

The nonanswers halves (tests/corpora/commands/nonanswers/, "dev nonanswers" and "test nonanswers") are a blind batch
of messages at free-text and list questions that are no answer (a mood, a question, a request, someone else's or a
past value, a put-off, a refusal), and real answers among them ("none except shellfish") (`--misses dev-nonanswers`).

Each entry of tests/corpora/commands/{dev,test}.yaml is played as one turn against the engine at the state it
was typed at: a session is stored through the Store contract with the run at that flow, state and slots (paused
when the entry says so), with the question as the bot's last message, then the message is sent through
`Engine.turn`. What the turn did is read only from public results (the TurnResult, its trace, the stored
session and the runs it closed), so the benchmark keeps measuring whatever reads the message inside the turn,
and it is mapped to the command kinds:

- a slot of the run that the corpus labels somewhere in that flow (what users give, not what a flow derives)
  that changed: set_slot when it was empty, correct_slot when it held a value; support's answers are read from
  `parsed`/`given`, keyed by the question; the asked question's yes/no slot set true/false: yes/no. The asked
  slot's value is the one the `answer` fired from the entry's state carries (`Fired.value`), where it fired: the
  steps after it may use it up (study-pal's prerequisite offer clears its yes once the lesson begins). At a
  question answered yes or no, what else changed is the flow carrying the answer out (the yes to a prerequisite
  makes it the concept taught), unless the engine noted it read from the message (`correct`, `ahead`, `declined`);
- a slot value a flow's own step set (the turn's `derived` notices: feedback's area sensed from the comment, level
  A1 where no placement test exists) is no command of the message, unless the engine noted it read the slot from the
  message (`correct`, `ahead`) or it is the asked question's answer: set aside and printed on a line of its own, with
  how many a label names (since h-setp: a change in what is measured; before, it counted as set_slot/correct_slot);
- the asked question answered with its none (the answer fired with an empty value, no skip asked for and no
  fallback taken): set_slot of that slot with no value (the label's "none"), not a skip;
- the run cancelled or paused, or the cancel command routed: cancel; a paused run resumed (a `resume` notice): resume;
  the run paused at the end of the turn with a `later` notice (the turn carried out a put-off: the run kept to come
  back to, or a paused run kept paused): later, not cancel. A `cancel` label of a corpus written before the format
  could say put off (the splits, the fresh batch) is met by a put-off as well, since a put-off stops the flow now;
  in the later batch, which can say either, a `cancel` is a stop for good and only a cancel meets it;
- a question declined before it was asked, whose none leaves its slot empty (a `declined` notice): set_slot of
  that slot with no value (the label's "none");
- the session sent to a person (an `agent` notice) other than by a document that always goes to one: handoff;
- another flow of the bot started (not one the run handed over to as it finished), or a request for something
  else kept for after the run (a `request` notice at the entry's flow: the engine read a new request at the
  open question, engine/requests.py, and kept it, "kept: <flow or main>", or gave it to the flow's aside that
  hears it first, "aside: <name>", as support's clarification keeps another question for after its answer
  and a lesson answers a question on the saved plans): new_request;
- the asked question's slot left empty while the run moved past it, or a skip asked for where the flow needs
  the answer (a `skipped` notice): skip; a value the flow gives the skipped slot (a default) is no set_slot;
- the help command routed: help;
- the run still at its question (a paused one still paused), nothing set and no attempt used: ask_back or
  chitchat when the turn was routed as one (`command:ask_back`, `command:chitchat`: the read stage's command,
  engine/askback.py), or when a flow's aside that declares the command (`Aside.command`: study-pal's lesson answers
  a question on the exercise from the course) took it, as its `ask_back`/`chitchat` notice ("aside: <name>")
  says; else help when the reply holds the question's help text. Before the engine read questions
  back, every such turn that was not help counted as ask_back; that guess also counted new requests noted for
  later and asides as questions back, so the route (a public field of the turn's trace) now says which command
  the turn carried out, and the run's state, slots and attempts still have to show it was carried out as one.

A command counts as found when its kind matches and, for a slot command, its slot (and key) and its value (as
the slots model stores it; free text of three words or more matches when one contains the other).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.commands_corpus import KINDS, KLASSES, LANGS, SETS, SLOT_KINDS, Case, Command, load_set  # noqa: E402
from engine import (  # noqa: E402
    LLM,
    Ask,
    Engine,
    Flow,
    FlowFrame,
    FlowRun,
    MemoryStore,
    Message,
    SessionState,
    Store,
    TurnResult,
    TurnTrace,
    default_registry,
    learned,
)
from engine.models import TurnWrite  # noqa: E402
from engine.states import render  # noqa: E402

# the corpus's dates are relative to this local time (tests/corpora/commands/*.yaml say so)
CORPUS_NOW = datetime(2026, 3, 10, 9, 0)
# support's per-type answer slots are emptied once the answer is recorded; the answers live in these
SUPPORT_ANSWERS = ("parsed", "given")
SUPPORT_ASKED = ("text_answer", "number_answer", "yes_no_answer", "choice_answer")


@dataclass(frozen=True)
class Observed:
    kind: str
    slot: str | None = None
    key: str | None = None
    value: Any = None
    flow: str | None = None
    # an ask_back answered with declared meanings (a `meant` notice): which ones
    meant: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f" {self.slot}" + (f"[{self.key!r}]" if self.key else "") if self.slot else ""
        value = f"={self.value!r}" if self.kind in SLOT_KINDS else ""
        target = f">{self.flow}" if self.flow else ""
        meant = f"[{', '.join(self.meant)}]" if self.meant else ""
        return f"{self.kind}{target}{where}{value}{meant}"


@dataclass
class Outcome:
    case: Case
    observed: list[Observed]
    found: list[Command] = field(default_factory=list)
    missed: list[Command] = field(default_factory=list)
    extra: list[Observed] = field(default_factory=list)
    reply: str = ""
    # the model calls the turn made, by purpose, and the model parses the guard refused
    calls: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    # slot values the flow's own steps set (the turn's `derived` notices): no command of the message, not counted
    derived: list[Observed] = field(default_factory=list)
    # the engine asked the learned reader about the message: nothing else read it (engine.learned.asked);
    # bench/train_kinds.py chooses the reader's threshold on these messages only
    asked_learned: bool = False

    @property
    def exact(self) -> bool:
        return not self.missed and not self.extra


# -- playing one entry -------------------------------------------------------------------------------------


def seed_session(store: Store, case: Case, user: str) -> None:
    """Store a session whose run is at the entry's state, as a turn that asked its question would leave it."""
    e = case.entry
    flow = default_registry().get(e.bot).flow(e.flow)
    question = _question(flow, e.state, case.seed)
    at = CORPUS_NOW.replace(tzinfo=UTC)
    frame = FlowFrame(
        flow=e.flow,
        version=flow.version,
        state=e.state,
        slots=case.seed,
        scratchpad=[Message(role="assistant", content=question)] if question else [],
        turns=1,
        started_at=at,
        paused=e.paused,
    )
    session = SessionState(
        id=uuid.uuid4().hex,
        bot=e.bot,
        user=user,
        active=None if e.paused else frame,
        stack=[frame] if e.paused else [],
        turns=1,
        version=1,
        created_at=at,
        updated_at=at,
    )
    trace = TurnTrace(turn=0, user_text="", reply=question, route="bench:seed", at=at)
    store.commit(
        TurnWrite(
            session=session,
            expected_version=0,
            trace_doc=trace.doc(),
            messages=[Message(role="assistant", content=question)] if question else [],
            reply=question,
        )
    )


def _question(flow: Flow[Any], state: str, seed: dict[str, Any]) -> str:
    s = flow.state(state)
    if not isinstance(s, Ask):
        return ""
    try:
        return render(s.say, flow.slots.model_validate(seed))
    except Exception:  # a question that needs more than its slots to say: the turn does not need its words
        return ""


def play(engine: Engine, case: Case, user: str) -> Outcome:
    seed_session(engine.store, case, user)
    with learned.asked() as asked:
        result = engine.turn(case.entry.bot, user, case.entry.text)
    observed, derived = _observe(engine.store, case, result)
    out = Outcome(case=case, observed=observed, derived=derived, reply=result.reply, asked_learned=bool(asked))
    if result.trace is not None:
        out.calls.update(c.purpose.split(":")[0] for c in result.trace.llm_calls)
        out.refused = sum(n.kind == "parse_rejected" for n in result.trace.notices)
    _match(out)
    return out


# -- what the turn did, as commands ------------------------------------------------------------------------


def observe(store: Store, case: Case, result: TurnResult) -> list[Observed]:
    """The commands the turn carried out, as the message's (a slot a flow's step derived is none)."""
    return _observe(store, case, result)[0]


def _observe(store: Store, case: Case, result: TurnResult) -> tuple[list[Observed], list[Observed]]:
    """The commands the turn carried out, and the slot values the flow's own steps derived (set aside)."""
    e = case.entry
    bot = default_registry().get(e.bot)
    flow = bot.flow(e.flow)
    trace = result.trace or TurnTrace(turn=0, user_text=e.text, reply=result.reply, route="")
    session = store.get(result.session_id) if result.session_id else None
    runs = [r for r in (store.runs(result.session_id) if result.session_id else []) if r.flow == e.flow]
    frame, run = _where_now(session, runs, e.flow)
    after: dict[str, Any] = frame.slots if frame else run.slots if run else case.seed
    notices = {n.kind for n in trace.notices}
    asked = flow.state(e.state)
    asked_slot = asked.slot if isinstance(asked, Ask) else None
    out: list[Observed] = []
    # what the asked question was answered with, as the `answer` fired from it says (engine/models.py `Fired`):
    # the steps after it may use the value up (study-pal's prerequisite offer clears its yes once the lesson it
    # chose begins) or change it, so the slots after the turn are not always the answer
    answer = next(
        (
            f
            for f in trace.fired
            if f.flow == e.flow and f.source == e.state and f.trigger == "answer" and f.slot == asked_slot
        ),
        None,
    )
    if answer is not None and asked_slot is not None:
        after = {**after, asked_slot: answer.value}
    skipped = {n.detail for n in trace.notices if n.kind == "skipped"}
    gave_up = any(n.kind == "fallback" and n.flow == e.flow for n in trace.notices)

    out += _slot_changes(case, flow, case.seed, after, asked_slot)
    # a value a flow's own step set (feedback's area sensed from the comment, level A1 where no placement test
    # exists: the turn's `derived` notices) is no command the message carried; set aside, unless the engine noted it
    # read the slot from the message (a correction, a slot filled ahead) or it is the asked question's answer
    read = {n.detail for n in trace.notices if n.kind in ("correct", "ahead", "declined") and n.flow == e.flow}
    worked_out = {n.detail for n in trace.notices if n.kind == "derived" and n.flow == e.flow} - read
    if answer is not None:
        worked_out.discard(asked_slot)
    derived = [o for o in out if o.kind in SLOT_KINDS and o.slot in worked_out]
    out = [o for o in out if o not in derived]
    # a question declined before it was asked leaves its slot empty: the turn's `declined` notice says it was
    # answered with its none (engine/fill.py), a set_slot of no value
    out += [
        Observed("set_slot", slot=n.detail, value=None)
        for n in trace.notices
        if n.kind == "declined" and n.flow == e.flow and after.get(n.detail) is None
    ]
    # the asked question answered with its none ("no target", "none"): the answer left its slot empty, no skip
    # asked for and no fallback taken (those leave it empty too); a set_slot of no value, as one declined ahead
    if (
        answer is not None
        and answer.value is None
        and asked_slot not in skipped
        and not gave_up
        and not any(o.slot == asked_slot for o in out)
    ):
        out.append(Observed("set_slot", slot=asked_slot, value=None))
    # a question skipped leaves its slot to the flow, which may fill a default (the timezone UTC, today's
    # window): that value is the flow's, not read from the message
    out = [o for o in out if o.slot is None or o.slot != asked_slot or o.slot not in skipped]
    yes_no = [o for o in out if o.kind in ("yes", "no")]
    if yes_no and answer is not None:
        # a yes or a no to the asked question is carried out by the flow's steps after it (study-pal's yes to a
        # prerequisite makes it the concept taught): what else changed is the message's only where the engine
        # read it from the message (a correction, a slot filled ahead: its notice names the slot or the key, `read`)
        out = [o for o in out if o.kind not in ("set_slot", "correct_slot") or o.slot in read or o.key in read]
    cancelled = (run is not None and run.outcome == "cancelled") or (
        frame is not None and frame.paused and not e.paused
    )
    # a put-off carried out: the run is kept paused to come back to (engine/controls.py notes `later`)
    if "later" in notices and frame is not None and frame.paused:
        out.append(Observed("later"))
    elif cancelled or trace.route == "command:cancel":
        out.append(Observed("cancel"))
    if "resume" in notices:
        out.append(Observed("resume"))
    # the user asked for a person; a document that always goes to one ("requires_handoff") is not the user's ask
    if any(n.kind == "agent" and "requires_handoff" not in n.detail for n in trace.notices):
        out.append(Observed("handoff"))
    # a flow the run handed over to when it finished (analysis -> scheduling) is the run's doing, not a new request
    handed = {n.detail for n in trace.notices if n.kind == "handoff"}
    started = {x.flow for x in trace.entered if x.flow not in (e.flow, *handed) and bot.has_flow(x.flow)}
    if not yes_no:
        out += [Observed("new_request", flow=f) for f in sorted(started)]
    # a request for something else kept for after the run (engine/requests.py): its `request` notice
    for n in trace.notices:
        if n.kind == "request" and n.detail.startswith(("kept: ", "aside: ")) and n.flow == e.flow:
            target = n.detail.removeprefix("kept: ") if n.detail.startswith("kept") else "main"
            if target not in started:
                out.append(Observed("new_request", flow=None if target == "main" else target))
    moved = frame is None or frame.state != e.state
    left = (
        asked_slot is not None
        and after.get(asked_slot) is None
        and not _answered_support(out)
        and not any(o.slot == asked_slot for o in out)  # answered with its none
    )
    elsewhere = any(o.kind in ("cancel", "handoff", "new_request") for o in out)
    if left and moved and not e.paused and not elsewhere and frame is not None:
        out.append(Observed("skip"))
    # a skip asked for is read even where the flow needs the answer and asks again
    if any(n.kind == "skipped" for n in trace.notices) and not any(o.kind == "skip" for o in out):
        out.append(Observed("skip"))
    if trace.route == "command:help":
        out.append(Observed("help"))
    # a paused run stays paused at small talk or a question back (the main conversation answers it)
    elif not out and frame is not None and frame.state == e.state and (not frame.paused or e.paused):
        used = "reprompt" in notices or "fallback" in notices
        # or a flow's aside that answers such a message (`Aside.command`) took it: its notice says which
        carried = [
            n.kind
            for n in trace.notices
            if n.kind in ("ask_back", "chitchat") and n.flow == e.flow and n.detail.startswith("aside: ")
        ]
        meant = next((n.detail for n in trace.notices if n.kind == "meant" and n.flow == e.flow), "")
        if not used and "unneeded" in notices:
            out.append(Observed("unneeded"))
        elif not used and trace.route in ("command:ask_back", "command:chitchat"):
            out.append(Observed(trace.route.removeprefix("command:"), meant=tuple(meant.split("|")) if meant else ()))
        elif not used and carried:
            out.append(Observed(carried[0]))
        elif not used:
            text = asked.help if isinstance(asked, Ask) else ""
            if text and text[:40] in result.reply:
                out.append(Observed("help"))
    return out, derived


def _where_now(
    session: SessionState | None, runs: Sequence[FlowRun], name: str
) -> tuple[FlowFrame | None, FlowRun | None]:
    if session is not None:
        if session.active is not None and session.active.flow == name:
            return session.active, None
        for f in reversed(session.stack):
            if f.flow == name:
                return f, None
    return None, (runs[-1] if runs else None)


def _slot_changes(
    case: Case, flow: Flow[Any], before: dict[str, Any], after: dict[str, Any], asked_slot: str | None
) -> list[Observed]:
    out: list[Observed] = []
    if all(k in flow.slots.model_fields for k in SUPPORT_ANSWERS):
        out += _answer_changes(case, before, after, asked_slot)
    for slot in _user_slots(case, flow, asked_slot):
        if slot in SUPPORT_ANSWERS or slot in SUPPORT_ASKED:
            continue
        old, new = before.get(slot), after.get(slot)
        if new == old or new is None:
            continue
        if slot == asked_slot and isinstance(new, bool):
            out.append(Observed("yes" if new else "no"))
        else:
            out.append(Observed("set_slot" if _empty(old) else "correct_slot", slot=slot, value=new))
    return out


def _answer_changes(
    case: Case, before: dict[str, Any], after: dict[str, Any], asked_slot: str | None
) -> list[Observed]:
    def answers(slots: dict[str, Any]) -> dict[str, Any]:
        return {**(slots.get("parsed") or {}), **(slots.get("given") or {})}

    old, new = answers(before), answers(after)
    questions = before.get("questions") or []
    index = before.get("current_index", 0)
    current = questions[index]["text"] if index < len(questions) else None
    out: list[Observed] = []
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        if key == current and asked_slot is not None:
            if isinstance(value, bool):
                out.append(Observed("yes" if value else "no"))
            else:
                out.append(Observed("set_slot", slot=asked_slot, value=value))
        else:
            out.append(Observed("set_slot" if key not in old else "correct_slot", slot="parsed", key=key, value=value))
    return out


def _answered_support(out: Iterable[Observed]) -> bool:
    return any(o.slot in SUPPORT_ASKED or o.kind in ("yes", "no") for o in out)


def _user_slots(case: Case, flow: Flow[Any], asked_slot: str | None) -> list[str]:
    # the slots a user gives: those the corpus labels anywhere in the flow; bookkeeping a flow derives (feedback's
    # sentiment from the rating, fitness's completed stages) is no reading of the message
    named = _labelled.get((case.entry.bot, case.entry.flow), set()) | {asked_slot}
    return [s for s in flow.slots.model_fields if s in named]


_labelled: dict[tuple[str, str], set[str]] = defaultdict(set)


def label_slots(cases: Iterable[Case]) -> None:
    """Count the slots `cases` label, per bot and flow, as slots a user gives (`_user_slots`)."""
    for c in cases:
        for cmd in c.expected:
            if cmd.slot:
                _labelled[(c.entry.bot, c.entry.flow)].add(cmd.slot)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


# -- matching ----------------------------------------------------------------------------------------------


def _match(out: Outcome) -> None:
    left = list(out.observed)
    worked_out = {(d.slot, d.key) for d in out.derived}
    for want in out.case.expected:
        # a label naming a slot the flow's own step filled this turn is neither found nor missed: the value is the
        # step's, not the message's (the feedback area sensed from the comment was labelled on purpose in the main
        # splits before steps were told apart); the `derived` line counts them
        if want.kind in SLOT_KINDS and (want.slot, want.key) in worked_out:
            continue
        hit = next(
            (
                o
                for o in left
                if _same(
                    want,
                    o,
                    lenient=out.case.batch not in ("later", "declines", "nonanswers"),
                    meant=out.case.batch == "meaning",
                )
            ),
            None,
        )
        if hit is None:
            out.missed.append(want)
        else:
            out.found.append(want)
            left.remove(hit)
    out.extra = left


def _same(want: Command, got: Observed, *, lenient: bool = False, meant: bool = False) -> bool:
    """`lenient`: a cancel label written before labels could say put off is met by a put-off (it stops now).
    `meant`: an ask_back matches only when it was answered with the meanings the label names, and a why-question
    (no `meant`) only when it was answered with none (the batches written before meanings were declared say
    nothing of them)."""
    if lenient and want.kind == "cancel" and got.kind == "later":
        return True
    if want.kind != got.kind:
        return False
    if meant and want.kind == "ask_back":
        return sorted(m.casefold() for m in want.meant or ()) == sorted(m.casefold() for m in got.meant)
    if want.kind not in SLOT_KINDS:
        return True
    return want.slot == got.slot and want.key == got.key and _value_matches(want.value, got.value)


def _value_matches(want: Any, got: Any) -> bool:
    a, b = _norm(want), _norm(got)
    if a == b:
        return True
    if isinstance(a, str) and isinstance(b, str) and len(a.split()) >= 3:
        return a in b or b in a
    return False


def _norm(v: Any) -> Any:
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float):
        return round(float(v), 1)
    if isinstance(v, str):
        return " ".join(v.casefold().strip(" .,!?").split())
    if isinstance(v, list):
        return sorted(str(_norm(x)) for x in v)
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    return v


# -- scoring and printing ----------------------------------------------------------------------------------


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def cell(self) -> str:
        p = f"{self.tp / (self.tp + self.fp):.2f}" if self.tp + self.fp else "  - "
        r = f"{self.tp / (self.tp + self.fn):.2f}" if self.tp + self.fn else "  - "
        return f"{p}/{r}"


def tallies(outcomes: Sequence[Outcome]) -> tuple[dict[str, Tally], dict[str, Tally], dict[str, list[int]]]:
    per_kind: dict[str, Tally] = defaultdict(Tally)
    per_lang: dict[str, Tally] = defaultdict(Tally)
    per_class: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        lang = o.case.entry.lang
        for c in o.found:
            per_kind[c.kind].tp += 1
            per_lang[lang].tp += 1
            per_lang["all"].tp += 1
        for c in o.missed:
            per_kind[c.kind].fn += 1
            per_lang[lang].fn += 1
            per_lang["all"].fn += 1
        for x in o.extra:
            per_kind[x.kind].fp += 1
            per_lang[lang].fp += 1
            per_lang["all"].fp += 1
        for k in [*o.case.entry.classes, "all"]:
            per_class[k][0] += o.exact
            per_class[k][1] += 1
    return per_kind, per_lang, per_class


def report(results: dict[str, list[Outcome]], backend: str) -> str:
    splits = list(results)
    t = {s: tallies(results[s]) for s in splits}
    lines = [f"precision/recall per command kind ({backend}; {', '.join(f'{s} {len(results[s])}' for s in splits)})"]
    lines.append(f"{'kind':14}" + "".join(f"{s:>14}" for s in splits) + "   expected (" + "/".join(splits) + ")")
    for kind in KINDS:
        counts = "/".join(str(t[s][0][kind].tp + t[s][0][kind].fn) for s in splits)
        lines.append(f"{kind:14}" + "".join(f"{t[s][0][kind].cell():>14}" for s in splits) + f"   {counts}")
    lines.append("")
    lines.append("precision/recall per language (all commands)")
    lines.append(f"{'lang':14}" + "".join(f"{s:>14}" for s in splits))
    for lang in [*LANGS, "all"]:
        lines.append(f"{lang:14}" + "".join(f"{t[s][1][lang].cell():>14}" for s in splits))
    lines.append("")
    lines.append("messages read exactly (every command found, none extra) per class")
    lines.append(f"{'class':16}" + "".join(f"{s:>14}" for s in splits))
    for k in [*KLASSES, "all"]:
        cells = ""
        for s in splits:
            ok, n = t[s][2][k]
            cells += f"{f'{ok}/{n} {ok / n:.0%}' if n else '-':>14}"
        lines.append(f"{k:16}{cells}")
    lines.append("")
    lines.append("slot values the flows' steps derived, not counted above (and how many a label names)")
    cells = ""
    for s in splits:
        worked = [(o, d) for o in results[s] for d in o.derived]
        labelled = sum(any(_same(c, d) for c in o.case.expected) for o, d in worked)
        cells += f"{f'{len(worked)} ({labelled})':>14}"
    lines.append(f"{'derived':16}{cells}")
    return "\n".join(lines)


def misses(outcomes: Sequence[Outcome]) -> str:
    lines = []
    for o in outcomes:
        if o.exact:
            continue
        e = o.case.entry
        want = ", ".join(_show(c) for c in o.case.expected)
        got = ", ".join(str(x) for x in o.observed) or "nothing"
        lines.append(f"  {e.lang} {e.bot}/{e.flow}.{e.state} {e.text!r}\n      expected {want}\n      observed {got}")
        if o.derived:
            lines.append(f"      derived by the flow (not counted) {', '.join(str(x) for x in o.derived)}")
    return "\n".join(lines)


def _show(c: Command) -> str:
    return str(Observed(c.kind, c.slot, c.key, c.value, c.flow))


# -- running -----------------------------------------------------------------------------------------------


def run(
    llm: LLM | None, splits: Sequence[str], limit: int | None = None, progress: bool = False, every: int = 1
) -> dict[str, list[Outcome]]:
    os.environ["INNERLOOP_NOW"] = CORPUS_NOW.isoformat()
    loaded = {name: load_set(name) for name in SETS}
    # which slots count is one set for every split, whichever are played
    label_slots(c for cases in loaded.values() for c in cases)
    results: dict[str, list[Outcome]] = {}
    for split in splits:
        # every k-th entry spans the bots and states (the files run bot by bot): a sample for slow backends
        cases = loaded[split][::every]
        cases = cases[:limit] if limit else cases
        engine = Engine(MemoryStore(), llm, clock=lambda: CORPUS_NOW.replace(tzinfo=UTC))
        results[split] = []
        for n, c in enumerate(cases, 1):
            results[split].append(play(engine, c, f"{split.replace(' ', '-')}{c.index}"))
            if progress and n % 10 == 0:
                print(f"{split}: {n}/{len(cases)}", file=sys.stderr, flush=True)
    return results


def _local_llm() -> tuple[LLM, Any]:
    from engine.llm.openai import OpenAILLM
    from tests.local_llm import LocalModel, find_server

    found = find_server()
    if isinstance(found, str):
        sys.exit(f"no local model server: {found}")
    server = LocalModel(found, Path(os.environ.get("TMPDIR", "/tmp")) / "understanding-llm.log")
    return OpenAILLM(server.model, base_url=server.base_url, api_key="local"), server


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--llm", choices=["rules", "openai"], default="rules")
    # "dev-fresh" for "dev fresh", "dev-typos" for "dev typos": a set named on the command line without quotes
    named = lambda v: v.replace("-", " ")  # noqa: E731
    ap.add_argument("--split", type=named, choices=SETS, action="append", help="only this set (default: all of them)")
    ap.add_argument("--limit", type=int, help="only the first N entries of each split")
    ap.add_argument("--every", type=int, default=1, help="only every K-th entry of each split (a sample)")
    ap.add_argument(
        "--misses", type=named, choices=SETS, action="append", default=[], help="print what this set reads wrong"
    )
    args = ap.parse_args(argv)
    server = None
    llm: LLM | None = None
    if args.llm == "openai":
        llm, server = _local_llm()
    try:
        started = time.perf_counter()
        # a model turn takes seconds: say how far it got
        results = run(llm, args.split or list(SETS), args.limit, progress=llm is not None, every=args.every)
        took = time.perf_counter() - started
    finally:
        if server is not None:
            server.stop()
    backend = "rules backend, offline" if args.llm == "rules" else f"local model {server.model if server else ''}"
    print(report(results, backend))
    print(f"\n{sum(len(v) for v in results.values())} turns in {took:.1f} s")
    for split in args.misses:
        if split in results:
            print(f"\nread wrong in {split}:")
            print(misses(results[split]))
    calls: Counter[str] = Counter()
    for outs in results.values():
        for out in outs:
            calls.update(out.calls)
    if calls:
        refused = sum(out.refused for outs in results.values() for out in outs)
        shown = ", ".join(f"{k} {n}" for k, n in sorted(calls.items()))
        print(f"model calls: {sum(calls.values())} ({shown}); parses refused by the guard: {refused}")
    counts = Counter(o.kind for outs in results.values() for out in outs for o in out.observed)
    print("observed kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
