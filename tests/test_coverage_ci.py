"""CI gate: the project's own replay suite exercises every shipped flow.

Every state of every flow of every shipped bot must be entered by some script under
tests/replays/ (folders included), and at least 90% of each flow's transitions taken.
A flow that falls short fails its own test, which lists what no script reaches; see the
whole picture with `innerloop replay --coverage tests/replays`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.authoring.coverage import Coverage, FlowCoverage
from engine.authoring.diagram import shipped_bots, shipped_flows
from engine.authoring.script import find_scripts
from engine.errors import ScriptError
from engine.flow import Flow
from tests.clocks import replayed, with_clocks
from tests.test_replay import SCRIPTS

REPLAYS = Path(__file__).parent / "replays"
MIN_STATES = 100.0
MIN_TRANSITIONS = 90.0
FLOWS = shipped_flows()


def _id(flow: Flow, bots: list[str]) -> str:
    return f"{flow.name}@{'+'.join(bots)}"


@pytest.fixture(scope="module")
def suite() -> Coverage:
    """Coverage of every shipped flow by the whole replay suite, run once for all the flows."""
    cov = Coverage(shipped_bots())
    clocks = dict(with_clocks(SCRIPTS))  # each played as test_replay plays it: once for both
    for path in find_scripts([REPLAYS]):
        try:
            result = replayed(path, clocks.get(path))
        except ScriptError:
            continue  # test_replay reports malformed scripts; here they just cover nothing
        cov.add(result.script.bot, [r.trace for r in result.results if r.trace is not None])
    return cov


def _of(cov: Coverage, flow: Flow) -> FlowCoverage:
    return next(fc for fc in cov.flows if fc.flow is flow)


@pytest.mark.parametrize(("flow", "bots"), FLOWS, ids=[_id(f, b) for f, b in FLOWS])
def test_replay_suite_covers_the_flow(suite: Coverage, flow: Flow, bots: list[str]) -> None:
    fc = _of(suite, flow)
    states, transitions = fc.state_ratio, fc.transition_ratio
    problems: list[str] = []
    if states.percent < MIN_STATES:
        problems.append(f"states {states} ({states.percent:.0f}%), need {MIN_STATES:.0f}%; never entered:")
        problems += [f"  {s}" for s in fc.uncovered_states()]
    if transitions.percent < MIN_TRANSITIONS:
        problems.append(
            f"transitions {transitions} ({transitions.percent:.1f}%), need {MIN_TRANSITIONS:.0f}%; never taken:"
        )
        problems += [f"  {fc.describe(k)}" for k in fc.uncovered_transitions()]
    assert not problems, (
        f"the replay suite does not cover flow {fc.name} of {', '.join(bots)} enough; add scripts under "
        f"tests/replays/ that reach these (check with `innerloop replay --coverage tests/replays`):\n"
        + "\n".join(problems)
    )


def test_the_shipped_bots_are_checked() -> None:
    # Test modules register bots of their own; only those of the flows package are gated.
    names = {b.name for b in shipped_bots()}
    assert "language-buddy" in names and not any(name.startswith("test") for name in names)
    assert {id(f) for f, _ in FLOWS} == {id(f) for b in shipped_bots() for f in b.flows}
