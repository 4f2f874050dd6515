"""Declaring a flow: slots, states, transitions; validated and turned into one shared Machine.

A flow file reads top to bottom: a `Slots` model, then `Flow(states=[...], transitions=[...])`.
States are `Ask` (say a template, parse the answer into one slot), `Step` (run code
between asks, then fire `next`) and `Final` (collapse into a summary). Transitions
fire on `answer` (from an Ask) or `next` (from a Step), guarded by conditions over the
typed slots, never by free LLM text.
"""

from __future__ import annotations

import string
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from types import MappingProxyType
from typing import Any, Generic, Literal, Optional

from pydantic import BaseModel, ValidationError, create_model
from typing_extensions import TypeVar

from engine.ahead import Ahead
from engine.amend import Amends
from engine.errors import DefinitionError, EngineError
from engine.extract import Parser
from engine.machine import QuietMachine
from engine.meanings import problems as meaning_problems
from engine.models import JsonObject, Slots
from engine.states import (
    ANSWER,
    NEXT,
    SKIP,
    Aside,
    Ask,
    Condition,
    Correctable,
    Final,
    State,
    Step,
    T,
    Template,
    alternatives,
    render,
    template_fields,
)

# The flow's slots model; its states are typed by it (engine/states.py).
S = TypeVar("S", bound=Slots)


class _Cursor:
    """The single model object of a flow's Machine; a turn loads a session's values into it."""

    state: str
    slots: Any


@dataclass
class Flow(Generic[S]):
    """A declared inner loop; building it validates it and creates its one Machine.

    Generic in its slots model `S`: every template, condition and Step of the flow is
    type-checked against it.
    """

    name: str
    slots: type[S]
    states: Sequence[Ask[S] | Step[S] | Final[S]]
    transitions: Sequence[T[S]]
    persona: str = "a concise, friendly assistant"
    version: int = 1
    description: str = ""
    max_turns: int = 60
    llm_calls_per_turn: int = 1
    # how many of the run's last messages its phrasing and parsing calls carry; None: the
    # engine's (engine/window.py: SAY_WINDOW, PARSE_WINDOW). A flow whose model must see its
    # earlier answers sets more, and pays for them on every call.
    window: int | None = None
    interrupts: Sequence[str] = ()
    # The language (ISO 639-1) the flow's texts are phrased in, from its slots: the user's
    # native language once the flow knows it, say. None, or no function: the language the
    # user writes in. Asked for only in a language the guard can hold a phrasing to.
    speaks: Callable[[S], str | None] | None = None
    cancel_summary: str | Callable[[S], str] = "{flow} cancelled by the user."
    # "pause" keeps the frame (slots and all) suspended; starting the flow again resumes it
    on_cancel: Literal["abandon", "pause"] = "abandon"
    pause_message: str = "Paused. We'll pick up right here next time."
    # reads any slots a message mentions, at any ask: several at once, or corrections;
    # called with (text, slots, the slot the open question fills or None at the start)
    extract: Callable[[str, S, str | None], dict[str, object]] | None = None
    # how a slot reads when the engine acknowledges it ("native language: French"), from
    # (slot, value); without it the slot name and the stored value are shown
    show: Callable[[str, Any], str] | None = None
    asides: Sequence[Aside[S]] = ()
    # Form filling: readers that find a slot's value in any message of the flow (the opening
    # one included), not only in the answer to its own question; a question whose slot is
    # filled is skipped. A slot in `correctable` may be changed by a later message the same way.
    # A reader may be picked from the slots (`lambda s: Parser(...)`), as an Ask's parser may:
    # the questions it reads for may be data (a knowledge-base document's). A dict slot holds
    # several answers: a message adding one fills it, one changing an answer corrects it.
    fills: Mapping[str, Parser | Callable[[S], Parser]] = field(default_factory=dict)
    # A slot named here (or as a `Correctable`, with the words that name it) may also be
    # corrected by a message that says so at a later question ("wait, I meant 3"); the engine
    # reads it (engine/corrections.py). `corrects` adds ones known only from the slots (a
    # knowledge-base document's answered questions).
    correctable: Sequence[str | Correctable] = ()
    corrects: Callable[[S], Sequence[Correctable]] | None = None
    # Several facts in one message (engine/fill.py): the slots a message may fill before their
    # question is asked, read clause by clause; a name is read by its question's parser and its
    # values name it by themselves, an `Ahead` says how it is read and the words that name it.
    ahead: Sequence[str | Ahead] = ()
    # Earlier versions still shipped: a run started on one of them finishes on it.
    older: Sequence[Flow[Any]] = ()
    # {N: f}: f turns the stored slots of a version-N run into version N+1's; a run whose
    # version is neither shipped nor migratable to this one is reset (and the user told).
    migrations: Mapping[int, Callable[[JsonObject], JsonObject]] = field(default_factory=dict)
    # The update path of the record the flow saves (engine/amend.py): the slots a later message
    # may change in it, read by their own parsers, and how its new version is derived.
    amends: Amends[S] | None = None
    # How long a half-finished run stays open without a message from the user; then it is
    # closed as "expired" on the next message (or by `innerloop sessions expire`).
    idle_timeout: timedelta | None = None
    # the states by name, read-only: a turn finds a stored run's state in it
    named: Mapping[str, State] = field(init=False, repr=False)
    _by_name: dict[str, State] = field(init=False, repr=False)
    correctable_names: frozenset[str] = field(init=False, repr=False)
    _cursor: _Cursor = field(init=False, repr=False)
    _machine: QuietMachine = field(init=False, repr=False)
    # (source, trigger) -> (dest, condition) in the order declared: what the machine would try, read-only
    # (the flow runner takes an unconditional edge from it without a call into the flow)
    edges: dict[tuple[str, str], tuple[tuple[str, Condition | None], ...]] = field(init=False, repr=False)
    _lock: threading.Lock = field(init=False, repr=False)
    answer_models: dict[str, type[BaseModel]] = field(init=False, repr=False)
    _forms: dict[tuple[str, tuple[str, ...]], type[BaseModel]] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._by_name = {}
        self.named = MappingProxyType(self._by_name)
        self.correctable_names = frozenset(c if isinstance(c, str) else c.slot for c in self.correctable)
        for s in self.states:
            if s.name in self._by_name:
                raise self._error(f"state {s.name!r} is declared twice", s.name)
            self._by_name[s.name] = s
        self._validate()
        self._cursor = _Cursor()
        self._machine = QuietMachine(
            model=self._cursor,
            states=[s.name for s in self.states],
            initial=self.initial.name,
            auto_transitions=False,
            send_event=True,
            ignore_invalid_triggers=False,
        )
        edges: dict[tuple[str, str], list[tuple[str, Condition | None]]] = {}
        for t in self.expanded_transitions():
            conditions: list[str | Callable[..., bool | None]] = [_condition(t.when)] if t.when else []
            self._machine.add_transition(t.trigger, t.source, t.dest, conditions=conditions)
            edges.setdefault((t.source, t.trigger), []).append((t.dest, t.when))
        self.edges = {k: tuple(v) for k, v in edges.items()}
        self._lock = threading.Lock()
        self.answer_models = {s.name: self._answer_model(s) for s in self.states if isinstance(s, Ask)}

    # -- lookups ---------------------------------------------------------------------------

    @property
    def initial(self) -> State:
        return next(s for s in self.states if s.initial)

    def state(self, name: str) -> State:
        return self._by_name[name]

    def has_state(self, name: str) -> bool:
        return name in self._by_name

    def at(self, version: int) -> Flow[Any] | None:
        """This flow as shipped at `version`: itself or one of `older`; None when not shipped."""
        if version == self.version:
            return self
        return next((f for f in self.older if f.version == version), None)

    def new_slots(self, values: JsonObject | None = None) -> S:
        return self.slots.model_validate(values or {})

    def correctables(self, slots: S) -> list[tuple[Correctable, Parser, object]]:
        """The filled slots a message may correct now, each with the parser its new value is
        read by and the value it holds."""
        out: list[tuple[Correctable, Parser, object]] = []
        declared = [Correctable(c) if isinstance(c, str) else c for c in self.correctable]
        for c in [*declared, *(self.corrects(slots) if self.corrects else ())]:
            current = c.current if c.key is not None else getattr(slots, c.slot, None)
            if current is None or current == [] or current == {}:
                continue
            parser = c.parser or self.parser_of(c.slot)
            if parser is None:
                continue
            out.append((c, parser if isinstance(parser, Parser) else parser(slots), current))
        return out

    def label(self, slot: str) -> str:
        """How the flow names a slot ("days a week"), from its `show`; else the slot's name in words."""
        if self.show is None:
            return slot.replace("_", " ")
        return self.show(slot, "").split(":")[0].strip() or slot.replace("_", " ")

    def parser_of(self, slot: str) -> Parser | Callable[[Any], Parser] | None:
        """How `slot` is read when it is asked for (its Ask's parser), else by the flow's `fills`."""
        ask = next((s for s in self.states if isinstance(s, Ask) and s.slot == slot), None)
        if ask is not None:
            return ask.parse
        return self.fills.get(slot)

    # -- running ---------------------------------------------------------------------------

    def fire(self, state: str, trigger: str, slots: Slots) -> str:
        """Fire `trigger` from `state` with `slots` loaded; returns the state entered.

        The machine the flow built has no callbacks, only conditions: its transitions from
        `state` on `trigger` are tried in the order declared, the first whose condition holds
        is taken. That lookup is kept per flow (a turn fires one to three triggers, and the
        machine's event objects cost more than the rest of a fire); a state or trigger the flow
        does not have goes to the machine, which says what is wrong."""
        edges = self.edges.get((state, trigger))
        if edges is None:
            return self._fire_machine(state, trigger, slots)
        for dest, when in edges:
            if when is None:
                return dest
            try:
                taken = bool(when(slots))
            except EngineError:
                raise
            except Exception as e:
                raise EngineError(f"trigger {trigger!r} failed: {e}", flow=self.name, state=state) from e
            if taken:
                return dest
        raise DefinitionError(f"no transition on {trigger!r} matched", flow=self.name, state=state)

    def _fire_machine(self, state: str, trigger: str, slots: Slots) -> str:
        with self._lock:
            self._cursor.state = state
            self._cursor.slots = slots
            try:
                moved = self._cursor.trigger(trigger)  # type: ignore[attr-defined]
            except EngineError:
                raise
            except Exception as e:
                raise EngineError(f"trigger {trigger!r} failed: {e}", flow=self.name, state=state) from e
            if not moved:
                raise DefinitionError(f"no transition on {trigger!r} matched", flow=self.name, state=state)
            return self._cursor.state

    # -- validation ------------------------------------------------------------------------

    def skips_from(self, state: str) -> bool:
        """Whether the flow declares its own way past `state` when the user skips it (a `skip` transition)."""
        return any(t.trigger == SKIP and t.source in (state, "*") for t in self.transitions)

    def expanded_transitions(self) -> list[T[S]]:
        """Transitions with source "*" spelled out for every Ask (asides fire from any ask)."""
        asks = [s.name for s in self.states if isinstance(s, Ask)]
        out: list[T[S]] = []
        for t in self.transitions:
            sources = asks if t.source == "*" else [t.source]
            out.extend(T(t.trigger, src, t.dest, t.when) for src in sources)
        return out

    def _error(self, problem: str, state: str | None = None) -> DefinitionError:
        return DefinitionError(f"invalid flow: {problem}", flow=self.name, state=state)

    def _validate(self) -> None:
        initials = [s.name for s in self.states if s.initial]
        if len(initials) != 1:
            raise self._error(f"needs exactly one state with initial=True, found {initials or 'none'}")
        if self.max_turns < 1 or self.llm_calls_per_turn < 0:
            raise self._error("max_turns must be at least 1 and llm_calls_per_turn at least 0")
        for st in self.states:
            if isinstance(st, Step) and (unread := sorted(set(st.reads) - set(self.slots.model_fields))):
                known = sorted(self.slots.model_fields)
                raise self._error(f"step reads unknown slots {unread}; slots are {known}", st.name)
        ahead = {a if isinstance(a, str) else a.slot for a in self.ahead}
        unknown = sorted((set(self.fills) | self.correctable_names | ahead) - set(self.slots.model_fields))
        if unknown:
            raise self._error(
                f"fills, correctable or ahead name unknown slots {unknown}; slots are {sorted(self.slots.model_fields)}"
            )
        if self.amends is not None and (
            bad_amend := sorted({f.slot for f in self.amends.fields} - set(self.slots.model_fields))
        ):
            raise self._error(f"amends names unknown slots {bad_amend}; slots are {sorted(self.slots.model_fields)}")
        if self.idle_timeout is not None and self.idle_timeout <= timedelta(0):
            raise self._error(f"idle_timeout must be positive, not {self.idle_timeout}")
        for old in self.older:
            if old.name != self.name or old.version >= self.version:
                raise self._error(
                    f"older version {old.name!r} v{old.version} must be {self.name!r} below v{self.version}"
                )
        if len({old.version for old in self.older}) != len(self.older):
            raise self._error("two older versions share a version number")
        bad = sorted(v for v in self.migrations if not 1 <= v < self.version)
        if bad:
            raise self._error(
                f"migrations from {bad} cannot lead to v{self.version}: a key is the version migrated from"
            )
        try:
            empty = self.slots()
        except ValidationError as e:
            raise self._error(f"slots model needs a default for every field: {e}") from e
        fields = set(self.slots.model_fields)
        # a skipped question leaves its slot None: words said to the user must say something else
        skippable = {s.slot for s in self.states if isinstance(s, Ask) and s.fallback == "skip"}
        for s in self.states:
            said: list[Template] = []
            if isinstance(s, Ask):
                said = [s.say, *s.reprompts, *([s.again] if s.again is not None else [])]
                said += [s.why] if isinstance(s.why, str) else []
            elif isinstance(s, Final):
                said = [s.say]
            for tpl in said:
                self._check_skippable(tpl, skippable, s.name)
        for s in self.states:
            templates: list[Template] = []
            if isinstance(s, Ask):
                if s.slot not in fields:
                    raise self._error(f"asks into unknown slot {s.slot!r}; slots are {sorted(fields)}", s.name)
                if s.max_attempts < 1:
                    raise self._error("max_attempts must be at least 1", s.name)
                if s.why is not None and (not isinstance(s.why, str) or not s.why.strip()):
                    raise self._error(
                        f"why must be a sentence saying why the question is asked (or None), not {s.why!r}", s.name
                    )
                if s.meanings is not None and not callable(s.meanings):
                    wrong = meaning_problems(s.meanings)
                    if wrong:
                        raise self._error(f"meanings: {'; '.join(wrong)}", s.name)
                templates = [s.say, *s.reprompts, *([s.again] if s.again is not None else [])]
                templates += [s.why] if s.why is not None else []
            elif isinstance(s, Final):
                templates = [s.say, s.summary]
            for tpl in templates:
                self._check_template(tpl, fields, empty, s.name)
        self._check_template(self.cancel_summary, fields | {"flow"}, empty, None)
        out: dict[str, list[T[S]]] = {s.name: [] for s in self.states}
        for t in self.expanded_transitions():
            for end in (t.source, t.dest):
                if not isinstance(end, str):  # T("switch", ["text", "number"], ...): one source per transition
                    raise self._error(f"transition {t.trigger!r} names a state by {end!r}: give one state's name")
                if end not in self._by_name:
                    raise self._error(f"transition {t.trigger!r} {t.source}->{t.dest} names unknown state {end!r}")
            src = self._by_name[t.source]
            if isinstance(src, Final):
                raise self._error("a final state cannot have outgoing transitions", t.source)
            if t.trigger != src.trigger and not (isinstance(src, Ask) and t.trigger not in (ANSWER, NEXT)):
                raise self._error(
                    f"transitions out of a {type(src).__name__} fire on {src.trigger!r}, not {t.trigger!r}",
                    t.source,
                )
            out[t.source].append(t)
        for s in self.states:
            if isinstance(s, Final):
                continue
            own = [t for t in out[s.name] if t.trigger == s.trigger]
            if not own:
                raise self._error(f"non-final state has no way out on {s.trigger!r}", s.name)
            for trigger in {t.trigger for t in out[s.name]}:
                group = [t for t in out[s.name] if t.trigger == trigger]
                if group[-1].when is not None:
                    raise self._error(
                        f"the last {trigger!r} transition out of a state must be unconditional (the default)", s.name
                    )
                default = next(i for i, t in enumerate(group) if t.when is None)
                if default != len(group) - 1:
                    never = group[default + 1]
                    raise self._error(
                        f"transition {trigger!r} -> {never.dest!r} can never fire: an unconditional "
                        f"{trigger!r} -> {group[default].dest!r} comes before it",
                        s.name,
                    )
        reachable = _closure(self.initial.name, {k: [t.dest for t in v] for k, v in out.items()})
        unreachable = [s.name for s in self.states if s.name not in reachable]
        if unreachable:
            raise self._error(f"unreachable from {self.initial.name!r}: {unreachable}", unreachable[0])
        finals = {s.name for s in self.states if isinstance(s, Final)}
        if not finals:
            raise self._error("has no Final state")
        for s in self.states:
            if not finals & _closure(s.name, {k: [t.dest for t in v] for k, v in out.items()}):
                raise self._error("cannot reach any final state", s.name)

    def _check_skippable(self, tpl: Template, skippable: set[str], state: str) -> None:
        """A question or closing line naming a slot whose question may be skipped gives words for it."""
        if not isinstance(tpl, str):
            return
        bare = sorted(set(template_fields(tpl)) & skippable - set(alternatives(tpl)))
        if bare:
            name = bare[0]
            raise self._error(
                f"template {tpl!r} names slot {name!r}, which is empty when its question is skipped "
                f'(fallback="skip"): write {{{name}|words for that case}}, or give its question another fallback',
                state,
            )

    def _check_template(self, tpl: Template, names: set[str], empty: Slots, state: str | None) -> None:
        """Fields must name slots, and the template must render even before any slot is filled."""
        if not isinstance(tpl, str):
            return
        try:
            fields = [f.split("|")[0] for _, f, _, _ in string.Formatter().parse(tpl) if f is not None]
        except ValueError as e:
            raise self._error(f"template {tpl!r} is not a valid format string: {e}", state) from e
        for field_name in fields:
            name = field_name.split(".")[0].split("[")[0]
            if not name or name.isdigit():
                raise self._error(f"template {tpl!r} has a positional field; name a slot instead", state)
            if name not in names:
                raise self._error(f"template {tpl!r} uses unknown slot {name!r}", state)
        try:
            render(tpl, empty, flow=self.name)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
            # e.g. {rating:d}: a skipped slot renders as "not given", which no number format takes
            raise self._error(f"template {tpl!r} fails with unfilled slots: {e}", state) from e

    def steps_behind(self, state: str, corrected: Sequence[str]) -> list[Step[Any]]:
        """Steps that read a corrected slot and lie on the way to `state` (they have run), in
        declaration order."""
        edges: dict[str, list[str]] = {}
        for t in self.transitions:
            edges.setdefault(t.source, []).append(t.dest)
        start = next(st.name for st in self.states if st.initial)
        before = _closure(start, edges)
        return [
            st
            for st in self.states
            if isinstance(st, Step)
            and set(st.reads) & set(corrected)
            and st.name in before
            and st.name != state
            and state in _closure(st.name, edges)
        ]

    def form_model(self, s: Ask[S], others: tuple[str, ...]) -> type[BaseModel]:
        """The schema of one parse call at `s` that reads its slot (`value`) and, beside it, each
        slot of `others` the message may fill or correct; every field nullable."""
        if not others:
            return self.answer_models[s.name]
        key = (s.name, others)
        found = self._forms.get(key)
        if found is None:
            fields: dict[str, Any] = {}
            for name in (s.slot, *others):
                info = self.slots.model_fields[name]
                fields["value" if name == s.slot else name] = (Optional[info.annotation], info)  # noqa: UP045
            found = create_model(f"{self.name}_{s.name}_form", **fields)
            self._forms[key] = found
        return found

    def _answer_model(self, s: Ask[S]) -> type[BaseModel]:
        """The JSON schema an LLM fills for this state: the slot's type, nullable for 'not given'."""
        info = self.slots.model_fields[s.slot]
        nullable = Optional[info.annotation]  # type: ignore[name-defined]  # noqa: UP045
        return create_model(f"{self.name}_{s.name}_answer", value=(nullable, info))


def _condition(fn: Condition) -> Callable[[Any], bool]:
    def check(event: Any) -> bool:
        return bool(fn(event.model.slots))

    return check


def _closure(start: str, edges: dict[str, list[str]]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), []):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
