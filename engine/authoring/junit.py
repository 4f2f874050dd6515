"""JUnit XML for CI: one testcase per replay script, failures with expected and actual."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from engine.authoring.replay import ScriptResult
from engine.authoring.script import AgentTurn, RestartTurn
from engine.errors import EngineError


@dataclass(frozen=True)
class CaseReport:
    """One script's outcome for a CI report: a result, or the error that kept it from running."""

    name: str
    seconds: float = 0.0
    result: ScriptResult | None = None
    error: EngineError | None = None


def _transcript(result: ScriptResult) -> str:
    lines: list[str] = []
    outcomes = iter(result.results)
    for step in result.script.turns:
        if isinstance(step, RestartTurn):
            lines.append("-- restart: new engine and store on the same database --")
            continue
        outcome = next(outcomes, None)
        if outcome is None:  # the run stopped at an engine error
            break
        said = f"agent: {step.agent}" if isinstance(step, AgentTurn) else f"user: {step.user}"
        lines += [said, f"bot ({outcome.flow}/{outcome.state or '-'}): {outcome.reply}"]
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
