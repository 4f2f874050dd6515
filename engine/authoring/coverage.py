"""Coverage of flows by conversations, computed from turn traces.

For every flow of the bots a set of conversations used, `Coverage` counts what the
conversations exercised:

- **states**: every declared state, hit when a trace's `entered` names it;
- **transitions**: every declared transition, identified by `(source, trigger, dest)`.
  Several transitions may share a source and trigger (conditional branches such as
  `T("next", "route", "number", when=asks("number"))` and the unconditional default);
  each branch is its own item. A transition declared with source `"*"` (an aside that
  may fire from any ask) is one item, hit from whichever ask it fired;
- **reprompt tiers**: for every `Ask` that declares `reprompts`, tiers
  `1 .. max_attempts - 1` (from the trace's `reprompt` notices) and its fallback
  (its `fallback` notice).

A trace records each fire as a typed `Fired(flow, source, trigger, dest)` and each state
entered as `Entered(flow, state)`, so nothing here parses names back out of strings (a
flow called `my.survey` is counted like any other).

No rich, no typer: `cli.py` renders what this module computes.
"""

from __future__ import annotations

import ast
import linecache
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.bot import Bot
from engine.flow import Flow
from engine.models import Fired, TurnTrace
from engine.registry import Registry, default_registry
from engine.states import Ask

WILDCARD = "*"

TransitionKey = tuple[str, str, str]
"""(source, trigger, dest); source is "*" for a transition declared from any ask."""

Tier = int | Literal["fallback"]
TierKey = tuple[str, Tier]
"""(ask state, reprompt tier 1.. or "fallback")."""


def condition_name(fn: Callable[..., Any]) -> str:
    """A readable name for a transition's condition: its function name.

    Closures made by a factory (`asks("number")` returning an inner `when`) would all be
    called `when`; naming them after the factory and its captured arguments tells the
    branches apart.
    """
    name = getattr(fn, "__name__", None) or type(fn).__name__
    if name == "<lambda>":
        return _lambda_body(fn) or "lambda"
    qualname = getattr(fn, "__qualname__", name)
    closure = getattr(fn, "__closure__", None)
    if "<locals>" in qualname and closure:
        outer = qualname.rsplit(".<locals>.", 1)[0].rsplit(".", 1)[-1]
        values = [c.cell_contents for c in closure]
        if all(isinstance(v, str | int | float | bool) or v is None for v in values):
            return f"{outer}({', '.join(repr(v) for v in values)})"
        return f"{outer}.{name}"
    return str(name)


def _lambda_body(fn: Callable[..., Any]) -> str | None:
    """The expression of a one-line lambda (`s.level is not None`), read from its source line.

    None when the line holds several lambdas or the source is not available: the name
    "lambda" is then all there is to show.
    """
    try:
        line = linecache.getline(fn.__code__.co_filename, fn.__code__.co_firstlineno)
    except AttributeError:
        return None
    if line.count("lambda") != 1:
        return None
    text = line[line.index("lambda") :].rstrip()
    # The lambda ends somewhere before the line does (`...),`): the longest prefix that
    # parses as a lambda is it.
    for end in range(len(text), 0, -1):
        try:
            node = ast.parse(text[:end], mode="eval").body
        except SyntaxError:
            continue
        return ast.unparse(node.body) if isinstance(node, ast.Lambda) else None
    return None


def transition_label(key: TransitionKey, conditions: Sequence[str] = ()) -> str:
    source, trigger, dest = key
    guard = f" [{' or '.join(conditions)}]" if conditions else ""
    return f"{source} -{trigger}-> {dest}{guard}"


def tier_label(flow: Flow[Any], key: TierKey) -> str:
    state, tier = key
    if tier != "fallback":
        return f"{state}: reprompt {tier}"
    s = flow.state(state)
    assert isinstance(s, Ask)  # only asks have tiers
    return f"{state}: fallback ({s.fallback}) after {s.max_attempts} failed attempts"


# -- reading traces -----------------------------------------------------------------------


def declared(flow: Flow[Any], source: str, trigger: str, dest: str) -> TransitionKey | None:
    """The declared transition a fire of `trigger` from `source` to `dest` followed.

    The first match in declaration order, as the Machine tries them; None if none fits.
    """
    for t in flow.transitions:
        if t.trigger != trigger or t.dest != dest:
            continue
        if t.source == source or (t.source == WILDCARD and isinstance(_state(flow, source), Ask)):
            return (t.source, t.trigger, t.dest)
    return None


def _state(flow: Flow[Any], name: str) -> object:
    return flow.state(name) if flow.has_state(name) else None


def moves(trace: TurnTrace, bot: Bot) -> list[Fired]:
    """The transitions `trace` fired, in order.

    Fires naming a flow or state the bot no longer has are left out: a trace may be older
    than the code reading it.
    """
    return [f for f in trace.fired if _known(bot, f.flow, f.source) and _known(bot, f.flow, f.dest)]


def _known(bot: Bot, flow: str, state: str | None) -> bool:
    return state is not None and bot.has_flow(flow) and bot.flow(flow).has_state(state)


# -- the coverage model -------------------------------------------------------------------


def _percent(hit: int, total: int) -> float:
    return 100.0 if total == 0 else 100.0 * hit / total


@dataclass(frozen=True)
class Ratio:
    hit: int
    total: int

    @property
    def percent(self) -> float:
        return _percent(self.hit, self.total)

    @property
    def rounded(self) -> int:
        """The percentage as a whole number that reads 100 only when complete and 0 only when nothing was hit."""
        p = round(self.percent)
        if p == 100 and self.hit < self.total:
            return 99
        if p == 0 and self.hit > 0:
            return 1
        return p

    def __str__(self) -> str:
        return f"{self.hit}/{self.total}"


@dataclass
class FlowCoverage:
    """How often each state, transition and reprompt tier of one flow was exercised."""

    flow: Flow[Any]
    bots: list[str] = field(default_factory=list)
    # set by Coverage when it also counts another flow of this name (each bot's own onboarding)
    name_shared: bool = False
    states: dict[str, int] = field(init=False)
    transitions: dict[TransitionKey, int] = field(init=False)
    conditions: dict[TransitionKey, list[str]] = field(init=False)
    tiers: dict[TierKey, int] = field(init=False)

    def __post_init__(self) -> None:
        f = self.flow
        self.states = {s.name: 0 for s in f.states}
        self.transitions = {}
        self.conditions = {}
        for t in f.transitions:
            key = (t.source, t.trigger, t.dest)
            self.transitions.setdefault(key, 0)
            if t.when is not None:
                self.conditions.setdefault(key, []).append(condition_name(t.when))
        self.tiers = {}
        for s in f.states:
            if isinstance(s, Ask) and s.reprompts:
                for tier in range(1, s.max_attempts):
                    self.tiers[(s.name, tier)] = 0
                self.tiers[(s.name, "fallback")] = 0

    @property
    def name(self) -> str:
        return self.flow.name

    @property
    def label(self) -> str:
        """The flow's name, with its bots when another counted flow has that name too."""
        return f"{self.flow.name} ({', '.join(self.bots)})" if self.name_shared else self.flow.name

    @property
    def state_ratio(self) -> Ratio:
        return Ratio(sum(1 for n in self.states.values() if n), len(self.states))

    @property
    def transition_ratio(self) -> Ratio:
        return Ratio(sum(1 for n in self.transitions.values() if n), len(self.transitions))

    @property
    def tier_ratio(self) -> Ratio:
        return Ratio(sum(1 for n in self.tiers.values() if n), len(self.tiers))

    def uncovered_states(self) -> list[str]:
        return [s for s, n in self.states.items() if not n]

    def uncovered_transitions(self) -> list[TransitionKey]:
        return [k for k, n in self.transitions.items() if not n]

    def uncovered_tiers(self) -> list[TierKey]:
        return [k for k, n in self.tiers.items() if not n]

    def describe(self, key: TransitionKey) -> str:
        return transition_label(key, self.conditions.get(key, []))

    def never_exercised(self) -> list[str]:
        """One line per state, transition and reprompt tier no conversation reached."""
        return (
            [f"state {s}" for s in self.uncovered_states()]
            + [f"transition {self.describe(k)}" for k in self.uncovered_transitions()]
            + [f"reprompt {tier_label(self.flow, k)}" for k in self.uncovered_tiers()]
        )

    # -- counting --------------------------------------------------------------------------

    def enter(self, state: str) -> None:
        if state in self.states:
            self.states[state] += 1

    def fire(self, move: Fired) -> None:
        key = declared(self.flow, move.source, move.trigger, move.dest)
        if key is not None:
            self.transitions[key] += 1

    def notice(self, kind: str, state: str, detail: str) -> None:
        if kind == "fallback":
            key: TierKey = (state, "fallback")
        elif detail.isdigit():
            key = (state, int(detail))
        else:
            return
        if key in self.tiers:
            self.tiers[key] += 1


class Coverage:
    """Coverage of every flow of the bots included, fed with the traces of their sessions.

    A flow object shared by several bots is counted once, from all of their traces; two
    different flows of the same name (each bot's own `onboarding`) are counted apart.
    """

    def __init__(self, bots: Iterable[Bot | str] = (), *, registry: Registry | None = None) -> None:
        self._flows: dict[int, FlowCoverage] = {}
        self._registry = registry
        for b in bots:
            self.include(b)

    def include(self, bot: Bot | str) -> Bot:
        """Count every flow of `bot`, even those no trace will touch (they show as 0%)."""
        b = (self._registry or default_registry()).get(bot) if isinstance(bot, str) else bot
        for f in b.flows:
            fc = self._flows.get(id(f))
            if fc is None:
                fc = self._flows[id(f)] = FlowCoverage(f)
            if b.name not in fc.bots:
                fc.bots.append(b.name)
        names = Counter(fc.name for fc in self._flows.values())
        for fc in self._flows.values():
            fc.name_shared = names[fc.name] > 1
        return b

    def add(self, bot: Bot | str, traces: Iterable[TurnTrace]) -> None:
        """Count what each trace of a session with `bot` exercised."""
        b = self.include(bot)
        for trace in traces:
            self.add_trace(b, trace)

    def add_trace(self, bot: Bot, trace: TurnTrace) -> None:
        for entry in trace.entered:
            if _known(bot, entry.flow, entry.state):
                self._of(bot, entry.flow).enter(entry.state)
        for move in moves(trace, bot):
            self._of(bot, move.flow).fire(move)
        for n in trace.notices:
            if n.kind in ("reprompt", "fallback") and n.flow and _known(bot, n.flow, n.state):
                self._of(bot, n.flow).notice(n.kind, n.state or "", n.detail)

    def _of(self, bot: Bot, flow: str) -> FlowCoverage:
        return self._flows[id(bot.flow(flow))]

    @property
    def flows(self) -> list[FlowCoverage]:
        return sorted(self._flows.values(), key=lambda fc: (fc.name, fc.bots))

    def flow(self, name: str, bot: str | None = None) -> FlowCoverage:
        """The coverage of flow `name` (of `bot` when several bots have such a flow)."""
        found = [fc for fc in self._flows.values() if fc.name == name and (bot is None or bot in fc.bots)]
        if len(found) != 1:
            raise KeyError(f"{len(found)} flows named {name!r}" + (f" in bot {bot!r}" if bot else ""))
        return found[0]

    def below(self, minimum: float) -> list[FlowCoverage]:
        """The flows whose transition coverage is under `minimum` percent."""
        return [fc for fc in self.flows if fc.transition_ratio.percent < minimum]
