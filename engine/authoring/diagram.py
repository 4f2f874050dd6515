"""What a flow looks like: an outline of its parts, a Mermaid state diagram, a PNG, the shipped bots' page.

The diagrams come from `transitions`' own diagram support: a `GraphMachine` is built from
the flow's declaration (states labelled with their kind, transitions with their
conditions named) on the Mermaid engine for text, on the Graphviz engine for PNG. It is
built per call, never on the turn path, and it never fires: conditions are only names.

`readme_section()` is the generated part of docs/bots.md (`BOTS_DOC`), between
`README_BEGIN` and `README_END`; `innerloop flows readme` writes it and a test checks it is
current. It lives there, not in README.md, so adding a flow changes only the bots' page.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict
from transitions import State
from transitions.extensions.diagrams import GraphMachine

from engine.authoring.coverage import condition_name
from engine.bot import Bot
from engine.errors import EngineError
from engine.extract import Parser
from engine.flow import Flow
from engine.models import Slots
from engine.registry import Registry, default_registry
from engine.states import Ask, Final, Step, Template, render

README_BEGIN = "<!-- flows:begin -->"
README_END = "<!-- flows:end -->"
README_COMMAND = "innerloop flows readme"
# the page holding the generated diagrams, relative to the repository's root
BOTS_DOC = Path("docs") / "bots.md"

GraphEngine = Literal["mermaid", "graphviz", "pygraphviz"]


# -- finding a flow -----------------------------------------------------------------------


def flows_named(name: str, bot: str | None = None, bots: Registry | None = None) -> list[tuple[Flow[Any], list[str]]]:
    """Each distinct flow called `name` (in `bot` only, when given) with the bots that run it.

    Two bots may each have their own `onboarding`; one flow object shared by several bots
    is one entry.
    """
    found: dict[int, tuple[Flow[Any], list[str]]] = {}
    for b in bots if bots is not None else default_registry():
        if bot is not None and b.name != bot:
            continue
        if b.has_flow(name):
            f = b.flow(name)
            found.setdefault(id(f), (f, []))[1].append(b.name)
    return list(found.values())


def shipped_bots() -> list[Bot]:
    """The installed bots (the `innerloop.bots` entry points), in name order."""
    return list(default_registry())


def shipped_flows() -> list[tuple[Flow[Any], list[str]]]:
    """Every distinct flow of every shipped bot, with its bots, in bot order."""
    found: dict[int, tuple[Flow[Any], list[str]]] = {}
    for b in shipped_bots():
        for f in b.flows:
            found.setdefault(id(f), (f, []))[1].append(b.name)
    return list(found.values())


# -- outline ------------------------------------------------------------------------------


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StateOutline(_Out):
    name: str
    kind: Literal["ask", "step", "final"]
    initial: bool
    details: list[str]
    templates: list[tuple[str, str]]
    """(what, text): the says, reprompts and summaries; a computed one as `fn()` plus an example."""


class TransitionOutline(_Out):
    source: str
    trigger: str
    dest: str
    condition: str | None


class SlotOutline(_Out):
    name: str
    type: str
    constraints: str
    default: str


class FlowOutline(_Out):
    name: str
    version: int
    description: str
    persona: str
    bots: list[str]
    options: list[str]
    states: list[StateOutline]
    transitions: list[TransitionOutline]
    slots: list[SlotOutline]


def _fn(fn: Callable[..., Any]) -> str:
    if getattr(fn, "__name__", "") == "<lambda>":
        return f"lambda: {condition_name(fn)}"
    return f"{condition_name(fn)}()"


def _template(what: str, template: Template, empty: Slots) -> tuple[str, str]:
    if isinstance(template, str):
        return what, template
    # A computed template is a function of the slots; showing what it says with none filled
    # gives an author the gist. Some need filled slots, and then only the name is shown.
    try:
        example = render(template, empty)
    except Exception:
        return what, f"computed by {_fn(template)}"
    return what, f"computed by {_fn(template)}, e.g. {example!r}"


def _type_name(annotation: object) -> str:
    """`Literal['a', 'b'] | None` rather than typing's `Optional[Literal['a', 'b']]`."""
    if annotation is type(None):
        return "None"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _type_name(args[0])
    if origin in (Union, UnionType):
        return " | ".join(_type_name(a) for a in args)
    if origin is Literal:
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin is not None and args:
        return f"{_type_name(origin)}[{', '.join(_type_name(a) for a in args)}]"
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def outline(flow: Flow[Any], bots: Sequence[str] = ()) -> FlowOutline:
    """Everything declared in `flow`, as plain values for a reader."""
    empty = flow.new_slots()
    states: list[StateOutline] = []
    for s in flow.states:
        details: list[str] = []
        templates: list[tuple[str, str]] = []
        kind: Literal["ask", "step", "final"]
        if isinstance(s, Ask):
            kind = "ask"
            details.append(f"slot {s.slot}")
            if isinstance(s.parse, Parser):
                details.append(f"expects {s.parse.expects}")
            else:
                details.append(f"parser chosen by {_fn(s.parse)}")
            details.append(f"max {s.max_attempts} attempts, then {s.fallback}")
            if s.ask_if_filled:
                details.append("asked even when filled")
            if s.prefill:
                details.append("prefilled from the opening message")
            templates.append(_template("says", s.say, empty))
            if s.again is not None:
                templates.append(_template("says again", s.again, empty))
            templates += [_template(f"reprompt {i}", r, empty) for i, r in enumerate(s.reprompts, start=1)]
            if s.help:
                templates.append(("help", s.help))
        elif isinstance(s, Step):
            kind = "step"
            details.append(f"runs {_fn(s.run)}")
        else:
            assert isinstance(s, Final)
            kind = "final"
            details.append(f"outcome {s.outcome}")
            if s.records:
                details.append(f"saves records from {_fn(s.records)}")
            if s.handoff:
                details.append(f"may hand off via {_fn(s.handoff)}")
            if s.say:
                templates.append(_template("says", s.say, empty))
            templates.append(_template("summary", s.summary, empty))
        states.append(StateOutline(name=s.name, kind=kind, initial=s.initial, details=details, templates=templates))
    transitions = [
        TransitionOutline(
            source=t.source, trigger=t.trigger, dest=t.dest, condition=condition_name(t.when) if t.when else None
        )
        for t in flow.transitions
    ]
    slots = [
        SlotOutline(
            name=name,
            type=_type_name(info.annotation),
            constraints=", ".join(str(m) for m in info.metadata),
            default=repr(info.default),
        )
        for name, info in flow.slots.model_fields.items()
    ]
    options = [f"max {flow.max_turns} turns", f"cancel {flow.on_cancel}s the flow"]
    if flow.interrupts:
        options.append(f"may be interrupted by {', '.join(flow.interrupts)}")
    if flow.asides:
        options.append(f"asides: {', '.join(a.name for a in flow.asides)}")
    if flow.extract:
        options.append(f"reads any slot from any answer via {_fn(flow.extract)}")
    return FlowOutline(
        name=flow.name,
        version=flow.version,
        description=flow.description,
        persona=flow.persona,
        bots=list(bots),
        options=options,
        states=states,
        transitions=transitions,
        slots=slots,
    )


# -- diagrams -----------------------------------------------------------------------------


# Words Mermaid's state-diagram grammar reserves; a state of that name gets another node id.
_MERMAID_WORDS = frozenset(
    {"as", "choice", "class", "classdef", "click", "direction", "end", "fork", "hide", "join", "note", "scale", "state"}
)

# Node styles by state kind, in Graphviz attributes; transitions turns them into Mermaid classDefs.
_DEFAULT_NODE = {"style": "rounded,filled", "shape": "rectangle", "color": "black", "peripheries": "1"}
_NODE_STYLES: dict[str, str | dict[str, Any]] = {
    "default": {**_DEFAULT_NODE, "fillcolor": "white"},
    "ask": {**_DEFAULT_NODE, "fillcolor": "aliceblue"},
    "step": {**_DEFAULT_NODE, "fillcolor": "whitesmoke", "style": "rounded,filled,dashed"},
    "final": {**_DEFAULT_NODE, "fillcolor": "honeydew", "peripheries": "2"},
}


class _Model:
    state: str


class _LabelledState(State):
    """A state carrying a display label; transitions' markup draws `label` instead of the name."""

    def __init__(self, *args: Any, label: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.label = label


class _Diagram(GraphMachine):
    state_cls = _LabelledState
    style_attributes = {**GraphMachine.style_attributes, "node": _NODE_STYLES}


def _node(name: str) -> str:
    return f"{name}_" if name.lower() in _MERMAID_WORDS else name


def _kind(flow: Flow[Any], name: str) -> Literal["ask", "step", "final"]:
    s = flow.state(name)
    return "ask" if isinstance(s, Ask) else "step" if isinstance(s, Step) else "final"


def _state_label(flow: Flow[Any], name: str) -> str:
    s = flow.state(name)
    if isinstance(s, Ask):
        return f"{name} (ask {s.slot})" if s.slot != name else f"{name} (ask)"
    if isinstance(s, Step):
        return f"{name} (step)"
    assert isinstance(s, Final)
    return f"{name} (final, {s.outcome})"


def _graph_machine(flow: Flow[Any], engine: GraphEngine) -> tuple[_Diagram, _Model]:
    model = _Model()
    machine = _Diagram(
        model=model,
        states=[{"name": _node(s.name), "label": _state_label(flow, s.name)} for s in flow.states],
        initial=_node(flow.initial.name),
        auto_transitions=False,
        show_conditions=True,
        title=flow.name,
        graph_engine=engine,
    )
    # Wildcard sources mean "any ask" in a flow, not any state as in transitions, hence the
    # flow's own expansion. Conditions go in as names: this machine only draws.
    for t in flow.expanded_transitions():
        conditions: list[str | Callable[..., bool | None]] = [condition_name(t.when)] if t.when else []
        machine.add_transition(t.trigger, _node(t.source), _node(t.dest), conditions=conditions)
    graph = machine.model_graphs[id(model)]
    # GraphMachine highlights the model's current state; a flow's diagram has none, and
    # shows each state's kind instead.
    graph.reset_styling()
    for s in flow.states:
        graph.set_node_style(_node(s.name), _kind(flow, s.name))
    return machine, model


def mermaid(flow: Flow[Any]) -> str:
    """A Mermaid stateDiagram-v2 of `flow`: kinds on the states, conditions on the edges, finals marked."""
    _, model = _graph_machine(flow, "mermaid")
    source: str = model.get_graph().source  # type: ignore[attr-defined]
    lines = source.splitlines()
    # transitions writes the title as a bare YAML scalar; Mermaid reads front matter as a mapping.
    if len(lines) > 2 and lines[0] == "---" and lines[2] == "---":
        lines[1] = f"title: {flow.name}"
    lines += [f"  {_node(s.name)} --> [*]" for s in flow.states if isinstance(s, Final)]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def png_unavailable() -> str | None:
    """Why PNG diagrams cannot be drawn here, or None when they can."""
    missing = []
    if shutil.which("dot") is None:
        missing.append("the Graphviz 'dot' program (apt-get install graphviz, brew install graphviz)")
    if _png_engine() is None:
        missing.append("its Python binding (pip install graphviz)")
    if not missing:
        return None
    return "PNG diagrams need " + " and ".join(missing) + "; --format mermaid needs neither"


def _png_engine() -> GraphEngine | None:
    engines: tuple[GraphEngine, ...] = ("graphviz", "pygraphviz")
    for engine in engines:
        if importlib.util.find_spec(engine) is not None:
            return engine
    return None


def png(flow: Flow[Any]) -> bytes:
    """The flow's diagram as PNG bytes, drawn by Graphviz; EngineError if Graphviz is missing."""
    problem = png_unavailable()
    engine = _png_engine()
    if problem is not None or engine is None:
        raise EngineError(problem or "no Graphviz binding", flow=flow.name)
    _, model = _graph_machine(flow, engine)
    graph = model.get_graph()  # type: ignore[attr-defined]
    data = graph.draw(None, format="png", prog="dot")
    if not isinstance(data, bytes):
        raise EngineError(f"Graphviz returned {type(data).__name__}, not PNG bytes", flow=flow.name)
    return data


# -- the generated section of docs/bots.md -----------------------------------------------------


def readme_section() -> str:
    """The generated text of docs/bots.md: each shipped flow's diagram (without the markers)."""
    parts = [
        f"<!-- generated by `{README_COMMAND}` from flows/*.py; edit the flows, then run it again -->",
        "",
    ]
    for flow, bots in shipped_flows():
        parts += [f"### {flow.name} ({', '.join(bots)})", ""]
        if flow.description:
            parts += [flow.description[0].upper() + flow.description[1:].rstrip(".") + ".", ""]
        parts += [
            "```mermaid",
            mermaid(flow).rstrip("\n"),
            "```",
            "",
        ]
    return "\n".join(parts)


def splice_readme(text: str, section: str) -> str:
    """`text` with everything between the markers replaced by `section`.

    A page without the markers gets them appended at its end.
    """
    block = f"{README_BEGIN}\n{section.rstrip()}\n{README_END}"
    start = text.find(README_BEGIN)
    end = text.find(README_END, start + 1) if start >= 0 else -1
    if start < 0 or end < 0:
        return (text.rstrip() + "\n\n" if text.strip() else "") + block + "\n"
    return text[:start] + block + text[end + len(README_END) :]


def readme_current(path: Path) -> bool:
    """Whether the generated section of the page at `path` matches the flows."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return splice_readme(text, readme_section()) == text
