"""Replay scripts: a conversation and its expectations in YAML, checked against the engine.

`load_script` reads and validates a script (every key is checked; an unknown key is an
error), `run_script` plays it against a store and an LLM and returns typed `Failure`s.
The matching rules here (`values_equal`, `subset_mismatches`, `match_records`,
`check_turn`) are the only implementation; the pytest harness in engine/testing.py
reuses them. A turn saying exactly `/reset` runs the chat's /reset meta-command.

`script_from_traces` / `session_script` turn a conversation that happened into a script
expecting what happened (the chat's /save, `innerloop sessions export --replay`), and
`junit_xml` reports a run of scripts for CI.
"""

from __future__ import annotations

import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from engine.bot import MAIN, get_bot
from engine.errors import EngineError, LLMUnavailable, ScriptError, UnknownNameError
from engine.llm import LLM, RulesLLM
from engine.models import JsonObject, RecordDraft, Resources, StoredRecord, TurnTrace
from engine.runtime import Engine, TurnResult
from engine.sqlstore import SqlStore
from engine.store import Store

LLMName = Literal["rules", "openai"]
# history() takes a limit; a replay wants the whole main history, however long.
ALL_HISTORY = 1_000_000
# Rows seeded before the first turn belong to no session yet.
SEED_SESSION = ""
# A turn saying exactly this is the chat's /reset meta-command, so a saved chat replays as it ran.
RESET = "/reset"


# -- the script format --------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _as_list(value: object) -> object:
    # `reply_contains: rate` reads as naturally as `reply_contains: [rate]`.
    return [value] if isinstance(value, str) else value


class Expect(_Strict):
    """What must hold after one turn; every key is optional and None means "not checked"."""

    flow: str | None = None
    state: str | None = None
    reply_contains: list[str] = Field(default_factory=list)
    reply_not_contains: list[str] = Field(default_factory=list)
    slots: dict[str, JsonValue] | None = None

    _listify = field_validator("reply_contains", "reply_not_contains", mode="before")(_as_list)


class ScriptTurn(_Strict):
    user: str
    expect: Expect | None = None


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

    _path: Path | None = PrivateAttr(default=None)

    @field_validator("assessment", "kb", "course")
    @classmethod
    def _relative_to_script(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        base = info.context.get("base") if isinstance(info.context, dict) else None
        if value is None or value.is_absolute() or not isinstance(base, Path):
            return value
        return base / value

    @property
    def path(self) -> Path | None:
        """The file the script was loaded from (None when built in code)."""
        return self._path

    @property
    def resources(self) -> Resources:
        return Resources(assessment=self.assessment, kb=self.kb, course=self.course)


class _UniqueKeyLoader(yaml.SafeLoader):
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


def load_script(path: str | Path) -> Script:
    """Read and validate a replay script; ScriptError names the file, the turn and the problem."""
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
    _check_names(script, name)
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


def _validation_problem(e: ValidationError) -> tuple[int | None, str]:
    """The turn (1-based) of the first problem, and every problem worded for a script author."""
    items: list[tuple[int | None, str]] = []
    for err in e.errors():
        loc = list(err["loc"])
        turn = None
        if len(loc) >= 2 and loc[0] == "turns" and isinstance(loc[1], int):
            turn = loc[1] + 1
            loc = loc[2:]
        where = ".".join(str(x) for x in loc)
        if err["type"] == "extra_forbidden":
            parent = ".".join(str(x) for x in loc[:-1])
            text = f"unknown key {loc[-1]!r}" + (f" in {parent}" if parent else "")
        elif err["type"] == "missing":
            text = f"missing required key {where!r}"
        else:
            msg = err["msg"]
            if err["type"] == "string_type":
                msg += " (quote it in YAML)"
            text = f"{where or 'value'}: {msg}, got {err['input']!r}"
        items.append((turn, text))
    first = items[0][0]
    parts = [text if turn == first else f"turn {turn}: {text}" for turn, text in items]
    return first, "; ".join(parts)


def _check_names(script: Script, name: str) -> None:
    """Names the bot does not have are typos in the script, not expectations that failed."""
    try:
        bot = get_bot(script.bot)
    except UnknownNameError as e:
        raise ScriptError(name, str(e)) from None
    checks = [(i + 1, t.expect) for i, t in enumerate(script.turns) if t.expect]
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


# -- matching (shared with engine/testing.py) ---------------------------------------------


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def values_equal(expected: object, actual: object) -> bool:
    """Numbers compare numerically (4 == 4.0), booleans and strings exactly, containers deeply."""
    if _is_number(expected) and _is_number(actual):
        return expected == actual
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return expected.keys() == actual.keys() and all(values_equal(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        return len(expected) == len(actual) and all(values_equal(e, a) for e, a in zip(expected, actual, strict=True))
    return type(expected) is type(actual) and expected == actual


_MISSING = object()


def subset_mismatches(expected: Mapping[str, object], actual: Mapping[str, object]) -> list[str]:
    """Keys of `expected` whose value `actual` lacks or holds differently (a subset match)."""
    return [k for k, v in expected.items() if not values_equal(v, actual.get(k, _MISSING))]


def match_records(expected: Sequence[Mapping[str, object]], rows: Sequence[Mapping[str, object]]) -> list[int]:
    """Indexes of `expected` entries left without a distinct matching row; [] means all matched.

    A maximum bipartite matching (augmenting paths), so an entry that fits several rows
    never takes the only row a later entry could use.
    """
    fits = [[j for j, row in enumerate(rows) if not subset_mismatches(want, row)] for want in expected]
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(expected)):
        place(i, set())
    matched = set(owner.values())
    return [i for i in range(len(expected)) if i not in matched]


@dataclass(frozen=True)
class Failure:
    """One expectation that did not hold; `turn` is 1-based, None for end-of-script checks."""

    turn: int | None
    what: str
    expected: JsonValue
    actual: JsonValue

    def describe(self) -> str:
        where = f"turn {self.turn}" if self.turn is not None else "end"
        return f"{where}: {self.what}: expected {self.expected!r}, got {self.actual!r}"


def check_turn(expect: Expect, result: TurnResult, turn: int | None) -> list[Failure]:
    """Compare one turn's result with its expectations."""
    out: list[Failure] = []
    if expect.flow is not None and expect.flow != result.flow:
        out.append(Failure(turn, "flow", expect.flow, result.flow))
    if expect.state is not None and expect.state != result.state:
        out.append(Failure(turn, "state", expect.state, result.state))
    reply = result.reply.casefold()
    missing: list[JsonValue] = [s for s in expect.reply_contains if s.casefold() not in reply]
    if missing:
        out.append(Failure(turn, "reply_contains", missing, result.reply))
    present: list[JsonValue] = [s for s in expect.reply_not_contains if s.casefold() in reply]
    if present:
        out.append(Failure(turn, "reply_not_contains", present, result.reply))
    if expect.slots is not None:
        for key in subset_mismatches(expect.slots, result.slots):
            out.append(Failure(turn, f"slots.{key}", expect.slots[key], result.slots.get(key, "<no such slot>")))
    return out


def check_history(contains: Sequence[str], history: Sequence[str], turn: int | None = None) -> list[Failure]:
    """Each string must occur (case-sensitively: summaries keep values verbatim) in some message."""
    return [Failure(turn, "history_contains", s, list(history)) for s in contains if not any(s in m for m in history)]


def check_records(
    kind: str, expected: Sequence[Mapping[str, JsonValue]], found: Sequence[StoredRecord], turn: int | None = None
) -> list[Failure]:
    """Each expected mapping must match a distinct row of `found`; an empty list asks for no rows."""
    rows: list[JsonValue] = [r.data for r in found]
    if not expected:
        return [Failure(turn, f"records.{kind}", [], rows)] if rows else []
    unmatched = match_records(expected, [r.data for r in found])
    want: list[JsonValue] = [dict(expected[i]) for i in unmatched]
    return [Failure(turn, f"records.{kind} (no distinct row for these)", want, rows)] if unmatched else []


# -- running ------------------------------------------------------------------------------


@dataclass
class ScriptResult:
    """The outcome of one script: every turn's result and every failed expectation."""

    script: Script
    results: list[TurnResult] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def make_llm(name: str, model: str | None = None) -> LLM:
    """The backend called `name`; OpenAILLM raises LLMUnavailable without OPENAI_API_KEY."""
    if name == "rules":
        return RulesLLM()
    if name == "openai":
        # Imported here so the offline path never loads the openai client.
        from engine.openai_llm import OpenAILLM

        return OpenAILLM(model)
    raise UnknownNameError("llm backend", name, ["rules", "openai"])


def seed_profile(store: Store, bot: str, user: str, profile: JsonObject) -> None:
    """Store `profile` as the user's `profile` record, as onboarding would have."""
    store.add_record(get_bot(bot).name, user, SEED_SESSION, RecordDraft(kind="profile", data=profile))


@contextmanager
def temporary_store() -> Iterator[SqlStore]:
    """A SqlStore on a fresh SQLite file that is deleted afterwards."""
    with tempfile.TemporaryDirectory(prefix="innerloop-") as d:
        store = SqlStore(str(Path(d) / "replay.db"))
        try:
            yield store
        finally:
            store.close()


def run_script(script: Script, store: Store, llm: LLM) -> ScriptResult:
    """Play `script` on `store`; an engine error ends the run as a failure of that turn."""
    result = ScriptResult(script)
    bot = get_bot(script.bot).name
    if script.profile is not None:
        seed_profile(store, bot, script.user, script.profile)
    engine = Engine(store, llm, script.resources)
    for number, step in enumerate(script.turns, start=1):
        try:
            if step.user.strip() == RESET:
                outcome = engine.reset(bot, script.user)
            else:
                outcome = engine.turn(bot, script.user, step.user)
        except EngineError as e:
            result.failures.append(Failure(number, "turn", "a reply", f"{type(e).__name__}: {e}"))
            return result
        result.results.append(outcome)
        if step.expect:
            result.failures.extend(check_turn(step.expect, outcome, number))
    end = script.expect_end
    if end is not None:
        session = engine.session(bot, script.user)
        flow = session.active.flow if session and session.active else MAIN
        if end.flow is not None and end.flow != flow:
            result.failures.append(Failure(None, "flow", end.flow, flow))
        history = [m.content for m in store.history(session.id, ALL_HISTORY)] if session else []
        result.failures.extend(check_history(end.history_contains, history))
        for kind, rows in (end.records or {}).items():
            result.failures.extend(check_records(kind, rows, store.records(kind, bot=bot, user=script.user)))
    return result


def replay(
    script: Script, *, db: str | Path | None = None, llm: str | None = None, model: str | None = None
) -> ScriptResult:
    """Run `script` on `db` (a fresh temporary SQLite file when None) with `llm` or the script's backend.

    An unavailable backend becomes a failure of the script rather than an exception.
    """
    try:
        backend = make_llm(llm or script.llm, model)
    except LLMUnavailable as e:
        return ScriptResult(script, failures=[Failure(None, "llm", f"a usable {e.backend} backend", e.message)])
    if db is None:
        with temporary_store() as store:
            return run_script(script, store, backend)
    store = SqlStore(str(db))
    try:
        return run_script(script, store, backend)
    finally:
        store.close()


# -- saving a conversation as a script ----------------------------------------------------


def script_from_traces(
    bot: str,
    user: str,
    traces: Sequence[TurnTrace],
    *,
    profile: JsonObject | None = None,
    resources: Resources | None = None,
) -> dict[str, JsonValue]:
    """A replay script (as plain data for YAML) whose expectations are what the traces show happened.

    Each turn expects the flow and state it ended in and the active flow's slots. Replaying it on a fresh store
    passes as long as the bot behaves the same.
    """
    turns: list[JsonValue] = []
    for t in sorted(traces, key=lambda t: t.turn):
        expect: dict[str, JsonValue] = {"flow": t.flow_after or MAIN}
        if t.flow_after is not None and t.state_after is not None:
            expect["state"] = t.state_after
            if t.slots_after:
                expect["slots"] = dict(t.slots_after)
        text = RESET if t.route == "command:reset" else t.user_text
        turns.append({"user": text, "expect": expect})
    data: dict[str, JsonValue] = {"bot": get_bot(bot).name, "user": user}
    backends = {c.backend for t in traces for c in t.llm_calls}
    if "openai" in backends:
        data["llm"] = "openai"
    if profile is not None:
        data["profile"] = dict(profile)
    for key, path in (resources or Resources()).model_dump().items():
        if path is not None:
            data[key] = str(Path(path).resolve())
    data["turns"] = turns
    return data


def session_script(store: Store, session_id: str, *, resources: Resources | None = None) -> dict[str, JsonValue]:
    """The replay script of a stored session (an id or a unique prefix); EngineError if there is none."""
    session = store.get(session_id)
    if session is None:
        raise EngineError(f"no session matches {session_id!r}", session=session_id)
    traces = store.traces(session.id)
    if not traces:
        raise EngineError("the session has no turns to save yet", session=session.id)
    # A profile seeded before the first turn (a replay's `profile:`) is part of the setup.
    seeded = [r for r in store.records("profile", bot=session.bot, user=session.user) if r.session_id == SEED_SESSION]
    profile = seeded[-1].data if seeded else None
    return script_from_traces(session.bot, session.user, traces, profile=profile, resources=resources)


def write_script(path: str | Path, data: Mapping[str, JsonValue], comment: str = "") -> Script:
    """Write `data` as a replay script to `path` and load it back, so what was written is valid."""
    header = "".join(f"# {line}\n" for line in comment.splitlines())
    text = yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=100)
    p = Path(path)
    try:
        p.write_text(header + text, encoding="utf-8")
    except OSError as e:
        raise ScriptError(str(path), f"cannot write the file: {e}") from e
    return load_script(p)


# -- JUnit XML ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseReport:
    """One script's outcome for a CI report: a result, or the error that kept it from running."""

    name: str
    seconds: float = 0.0
    result: ScriptResult | None = None
    error: EngineError | None = None


def _transcript(result: ScriptResult) -> str:
    lines: list[str] = []
    for step, outcome in zip(result.script.turns, result.results, strict=False):
        lines += [f"user: {step.user}", f"bot ({outcome.flow}/{outcome.state or '-'}): {outcome.reply}"]
    return "\n".join(lines)


def junit_xml(cases: Sequence[CaseReport], *, suite: str = "innerloop replay") -> str:
    """JUnit XML for CI: one testcase per script; a failed expectation is a <failure> with
    expected and actual, a malformed script or a run that could not start an <error>."""
    failures = sum(1 for c in cases if c.result is not None and not c.result.passed)
    errors = sum(1 for c in cases if c.result is None)
    total = f"{sum(c.seconds for c in cases):.3f}"
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": str(errors), "time": total}
    root = ET.Element("testsuites", {"name": suite, **counts})
    node = ET.SubElement(root, "testsuite", {"name": suite, **counts, "skipped": "0"})
    for c in cases:
        bot = c.result.script.bot if c.result is not None else "malformed"
        case = ET.SubElement(
            node, "testcase", {"classname": f"replay.{bot}", "name": c.name, "time": f"{c.seconds:.3f}"}
        )
        if c.result is None:
            error = c.error or EngineError("not run")
            el = ET.SubElement(case, "error", {"message": str(error), "type": type(error).__name__})
            el.text = str(error)
        elif not c.result.passed:
            lines: list[str] = []
            for f in c.result.failures:
                where = f"turn {f.turn}" if f.turn is not None else "end"
                lines += [f"{where}: {f.what}", f"  expected: {f.expected!r}", f"  actual:   {f.actual!r}"]
            message = f"{len(c.result.failures)} expectation(s) failed; first: {c.result.failures[0].describe()}"
            el = ET.SubElement(case, "failure", {"message": message, "type": "ExpectationFailed"})
            el.text = "\n".join(lines)
            ET.SubElement(case, "system-out").text = _transcript(c.result)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
