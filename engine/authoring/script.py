"""The replay script format: pydantic models of the YAML, and loading with clear errors.

`load_script` reads and validates a script: every key is checked (an unknown key is an
error), and names of bots, flows, states and slots are checked against the code, so a
malformed script is reported with its file, turn and problem before anything runs.

An entry of `turns` is a user turn (`user`, optional `expect`), an agent turn (`agent`,
optional `expect`: a person answering a session handed to them, or `agent: /release`
handing it back), or a restart (`restart: true` and nothing else), which the runner plays
as a process restart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    PrivateAttr,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from engine.bot import MAIN
from engine.errors import DataFileError, ScriptError, UnknownNameError
from engine.models import Resources
from engine.registry import Registry, default_registry

LLMName = Literal["rules", "openai"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _as_list(value: object) -> object:
    # `reply_contains: rate` reads as naturally as `reply_contains: [rate]`.
    return [value] if isinstance(value, str) else value


class Expect(_Strict):
    """What must hold after one turn; every key is optional and None means "not checked"."""

    flow: str | None = None
    state: str | None = None
    # the whole reply, exactly; like reply_contains, checked on the offline backends only
    reply: str | None = None
    reply_contains: list[str] = Field(default_factory=list)
    reply_not_contains: list[str] = Field(default_factory=list)
    slots: dict[str, JsonValue] | None = None

    _listify = field_validator("reply_contains", "reply_not_contains", mode="before")(_as_list)


class UserTurn(_Strict):
    """One message from the user, and what must hold after the bot's reply."""

    user: str
    expect: Expect | None = None


class AgentTurn(_Strict):
    """A person answering a session handed to them (`agent: text`), or handing it back (`agent: /release`).

    Kept apart from user turns so that a saved conversation with a handoff replays the
    agent's words as the agent's, and the user's next reply shows them.
    """

    agent: str
    expect: Expect | None = None


# The error type of a malformed restart entry: its message is already worded for the author.
RESTART_ENTRY_ERROR = "restart_entry"


class RestartTurn(_Strict):
    """`- restart: true`: the runner closes the engine and the store and goes on with fresh ones."""

    restart: Literal[True]

    @model_validator(mode="before")
    @classmethod
    def _alone_and_true(cls, data: object) -> object:
        # pydantic's own wording ("extra inputs are not permitted", "input should be True")
        # would not tell the author what a restart entry is; these messages do.
        if not isinstance(data, dict):
            return data
        others = [k for k in data if k != "restart"]
        if others:
            keys = ", ".join(repr(k) for k in others)
            raise PydanticCustomError(
                RESTART_ENTRY_ERROR,
                f"a restart entry is `- restart: true` alone, but this one also has {keys}; "
                "put the user's message and its expectations in an entry of their own",
            )
        if data["restart"] is not True:
            raise PydanticCustomError(
                RESTART_ENTRY_ERROR,
                f"restart must be true, got {_yaml(data['restart'])}; to go on without a restart, leave the entry out",
            )
        return data


_TURN_KINDS = ("user", "agent", "restart")


def _turn_kind(value: object) -> str:
    # Any entry naming `restart` is meant as a restart, so mixing in `user` is reported as
    # a malformed restart rather than as an unknown key of a user turn.
    if isinstance(value, RestartTurn) or (isinstance(value, dict) and "restart" in value):
        return "restart"
    if isinstance(value, AgentTurn) or (isinstance(value, dict) and "agent" in value and "user" not in value):
        return "agent"
    return "user"


ScriptTurn = Annotated[
    Annotated[UserTurn, Tag("user")] | Annotated[AgentTurn, Tag("agent")] | Annotated[RestartTurn, Tag("restart")],
    Discriminator(_turn_kind),
]


class ExpectEnd(_Strict):
    """What must hold after the last turn."""

    flow: str | None = None
    history_contains: list[str] = Field(default_factory=list)
    records: dict[str, list[dict[str, JsonValue]]] | None = None

    _listify = field_validator("history_contains", mode="before")(_as_list)


class Script(_Strict):
    """A replay script as written in YAML.

    `assessment`, `kb` and `course` point the bot at other data files (a question bank,
    a knowledge-base folder, a course), resolved relative to the script's folder.
    """

    bot: str
    user: str = "replay"
    llm: LLMName = "rules"
    profile: dict[str, JsonValue] | None = None
    turns: list[ScriptTurn] = Field(min_length=1)
    expect_end: ExpectEnd | None = None
    assessment: Path | None = None
    kb: Path | None = None
    course: Path | None = None
    # the local time the flows see for the whole run ("2025-03-12T09:30"): day-relative
    # expectations and recorded LLM prompts then hold on any day
    now: datetime | None = None

    _path: Path | None = PrivateAttr(default=None)

    @field_validator("assessment", "kb", "course")
    @classmethod
    def _relative_to_script(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        base = info.context.get("base") if isinstance(info.context, dict) else None
        if value is None or value.is_absolute() or not isinstance(base, Path):
            return value
        return base / value

    @property
    def user_turns(self) -> list[UserTurn]:
        return [t for t in self.turns if isinstance(t, UserTurn)]

    @property
    def restarts(self) -> int:
        return sum(1 for t in self.turns if isinstance(t, RestartTurn))

    @property
    def path(self) -> Path | None:
        """The file the script was loaded from (None when built in code)."""
        return self._path

    @property
    def resources(self) -> Resources:
        return Resources(assessment=self.assessment, kb=self.kb, course=self.course)


# libyaml's parser when PyYAML was built with it: a script parsed in pure Python took 30-40 ms,
# a tenth of replaying it, and the suite and `innerloop replay tests/replays` load hundreds
if TYPE_CHECKING:  # CSafeLoader has SafeLoader's constructor: typed as it, a base class mypy can check
    _SafeLoader = yaml.SafeLoader
else:
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_SafeLoader):
    """PyYAML keeps the last of two equal keys silently; a script with both is a mistake."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )  # fmt: skip
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_script(path: str | Path, *, bots: Registry | None = None) -> Script:
    """Read and validate a replay script against `bots` (the installed ones by default).

    ScriptError names the file, the turn and the problem.
    """
    p = Path(path)
    name = str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ScriptError(name, f"cannot read the file: {e}") from e
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)
    except yaml.YAMLError as e:
        raise ScriptError(name, _yaml_problem(e)) from e
    if not isinstance(data, dict):
        raise ScriptError(name, f"the script must be a mapping with at least 'bot' and 'turns', not {_kind(data)}")
    try:
        script = Script.model_validate(data, context={"base": p.parent})
    except ValidationError as e:
        turn, problem = _validation_problem(e)
        raise ScriptError(name, problem, turn=turn) from e
    registry = bots if bots is not None else default_registry()
    _check_names(script, name, registry)
    _check_resources(script, name, registry)
    script._path = p
    return script


SCRIPT_SUFFIXES = (".yaml", ".yml")


def is_script_file(path: str | Path) -> bool:
    """Whether a YAML file found in a folder is meant as a replay script.

    Scripts share folders with the data they point at (question banks, courses): a script
    is a mapping with a `bot` or `turns` key. A file that cannot be read or parsed counts as
    a script, so its problem is reported rather than skipped.
    """
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return True
    return isinstance(data, dict) and ("bot" in data or "turns" in data)


def find_scripts(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; folders searched recursively for the replay scripts in them, in name order."""
    out: list[Path] = []
    for path in paths:
        p = Path(path)
        if not p.is_dir():
            out.append(p)
            continue
        found = sorted(f for f in p.rglob("*") if f.suffix in SCRIPT_SUFFIXES and f.is_file())
        out += [f for f in found if is_script_file(f)]
    return out


def _yaml_problem(e: yaml.YAMLError) -> str:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem = getattr(e, "problem", None) or str(e)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return f"YAML syntax error{where}: {problem}"


def _kind(value: object) -> str:
    return "an empty file" if value is None else f"a {type(value).__name__}"


def _yaml(value: object) -> str:
    """A value as YAML spells it (false, null, "now"), not as Python does (False, None, 'now')."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _validation_problem(e: ValidationError) -> tuple[int | None, str]:
    """The turn (1-based) of the first problem, and every problem worded for a script author."""
    items: list[tuple[int | None, str]] = []
    for err in e.errors():
        loc = list(err["loc"])
        turn = None
        if len(loc) >= 2 and loc[0] == "turns" and isinstance(loc[1], int):
            turn = loc[1] + 1
            loc = loc[2:]
            # The turn's kind (the union's tag) is not a key the author wrote.
            if loc and loc[0] in _TURN_KINDS:
                loc = loc[1:]
        where = ".".join(str(x) for x in loc)
        if err["type"] == RESTART_ENTRY_ERROR:
            text = err["msg"]
        elif err["type"] == "extra_forbidden":
            parent = ".".join(str(x) for x in loc[:-1])
            text = f"unknown key {loc[-1]!r}" + (f" in {parent}" if parent else "")
        elif err["type"] == "missing":
            text = f"missing required key {where!r}"
            if turn is not None and where == "user":
                text += (
                    " (an entry is a user turn, `user:` with an optional `expect:`, an agent turn, `agent:`,"
                    " or `restart: true`)"
                )
        else:
            msg = err["msg"]
            if err["type"] == "string_type":
                msg += " (quote it in YAML)"
            text = f"{where or 'value'}: {msg}, got {err['input']!r}"
        items.append((turn, text))
    first = items[0][0]
    parts = [text if turn == first else f"turn {turn}: {text}" for turn, text in items]
    return first, "; ".join(parts)


def _check_resources(script: Script, name: str, bots: Registry) -> None:
    """A data file the script points at (kb, course, assessment) must load before turn 1."""
    try:
        bots.get(script.bot).check_resources(script.resources)
    except DataFileError as e:
        raise ScriptError(name, f"data file {e}") from e


def _check_names(script: Script, name: str, bots: Registry) -> None:
    """Names the bot does not have are typos in the script, not expectations that failed."""
    try:
        bot = bots.get(script.bot)
    except UnknownNameError as e:
        raise ScriptError(name, str(e)) from None
    checks = [(i + 1, t.expect) for i, t in enumerate(script.turns) if isinstance(t, UserTurn | AgentTurn) and t.expect]
    for turn, ex in checks:
        if ex.flow is None or ex.flow == MAIN:
            continue
        if not bot.has_flow(ex.flow):
            known = ", ".join([MAIN, *(f.name for f in bot.flows)])
            raise ScriptError(name, f"bot {bot.name!r} has no flow {ex.flow!r}; known: {known}", turn=turn)
        flow = bot.flow(ex.flow)
        if ex.state is not None and not flow.has_state(ex.state):
            states = ", ".join(s.name for s in flow.states)
            raise ScriptError(name, f"flow {flow.name!r} has no state {ex.state!r}; states: {states}", turn=turn)
        unknown = sorted(set(ex.slots or {}) - set(flow.slots.model_fields))
        if unknown:
            fields = ", ".join(flow.slots.model_fields)
            raise ScriptError(name, f"flow {flow.name!r} has no slot {unknown[0]!r}; slots: {fields}", turn=turn)
    end = script.expect_end
    if end and end.flow not in (None, MAIN) and not bot.has_flow(end.flow):
        raise ScriptError(name, f"expect_end: bot {bot.name!r} has no flow {end.flow!r}")
