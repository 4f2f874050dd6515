"""Authoring tools: coverage, JUnit, flow outlines and diagrams, the bots page's section, /save and export, traces."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

import cli
from cli import app
from engine.authoring.coverage import Coverage, condition_name, moves
from engine.authoring.diagram import (
    BOTS_DOC,
    README_BEGIN,
    README_COMMAND,
    README_END,
    mermaid,
    outline,
    png_unavailable,
    readme_section,
    splice_readme,
)
from engine.authoring.replay import replay, seed_profile
from engine.authoring.report import SessionReport
from engine.authoring.script import load_script
from engine.bot import Bot
from engine.extract import choice
from engine.flow import Flow
from engine.llm import Phrased, PhraseRequest, ScriptedLLM
from engine.models import LLMCall, Slots, TurnTrace
from engine.registry import Registry, default_registry
from engine.runtime import Engine
from engine.states import Ask, Final, Step, T
from engine.store.sql import SqlStore
from engine.yesno import yes_no

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
PROFILE = "{name: Max, native_language: de, target_language: en, timezone: Europe/Berlin, level: B1}"
PROFILE_DATA = {
    "name": "Max",
    "native_language": "de",
    "target_language": "en",
    "timezone": "Europe/Berlin",
    "level": "B1",
}


def run(*args: str | Path, input: bytes | str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


def script(tmp_path: Path, name: str, turns: list[str], expect_last: str = "") -> Path:
    """A language-buddy script; the profile keeps onboarding out of the way."""
    lines = ["bot: language-buddy", f"profile: {PROFILE}", "turns:"]
    lines += [f"  - user: {json.dumps(t)}" for t in turns]
    if expect_last:
        lines.append(f"    expect: {expect_last}")
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


# -- coverage -----------------------------------------------------------------------------


@pytest.fixture
def never_answers_category(tmp_path: Path) -> list[Path]:
    """Feedback scripts that reach every state but done: the category question is never answered."""
    return [
        script(tmp_path, "happy.yaml", ["I want to give feedback", "4", "meh", "cancel"], "{flow: main}"),
        script(tmp_path, "retry.yaml", ["I want to give feedback", "banana", "no idea", "purple", "x"]),
    ]


def test_coverage_names_the_transition_never_taken(never_answers_category: list[Path]) -> None:
    r = run("replay", "--coverage", *never_answers_category)
    assert r.exit_code == 0, r.output
    assert "coverage" in r.output and "states" in r.output and "reprompt tiers" in r.output
    assert "feedback: never exercised" in r.output
    assert "transition category -answer-> done" in r.output
    assert "state done" in r.output
    assert "6/7 (86%)" in r.output  # states
    assert "5/6 (83%)" in r.output  # transitions
    # the retry script went through rating's ladder and its fallback, and details' first reprompt
    assert "reprompt rating: reprompt 1" not in r.output
    assert "reprompt rating: fallback" not in r.output
    assert "reprompt details: reprompt 2" in r.output


def test_coverage_counts_the_turns_after_a_restart(tmp_path: Path) -> None:
    # Before the restart only sentiment and rating are entered; the rest of the flow comes after it.
    p = script(tmp_path, "restart.yaml", ["I want to give feedback", "3", "meh", "usability"], "{flow: main}")
    lines = p.read_text().splitlines()
    lines.insert(lines.index('  - user: "I want to give feedback"') + 1, "  - restart: true")
    p.write_text("\n".join(lines) + "\n")
    r = run("replay", "--coverage", p)
    assert r.exit_code == 0 and f"PASS {p} (4 turns, 1 restart)" in r.output, r.output
    [row] = [line for line in r.output.splitlines() if "│ feedback" in line]
    assert "7/7 (100%)" in row and "6/6 (100%)" in row, r.output


def test_min_coverage_exits_1_for_a_flow_below_it(never_answers_category: list[Path]) -> None:
    r = run("replay", "--min-coverage", "90", *never_answers_category)
    assert r.exit_code == 1, r.output
    assert "transition coverage below 90%" in r.output and "feedback 83.3%" in r.output
    assert "PASS" in r.output  # the scripts themselves passed; coverage alone failed the run


def test_min_coverage_counts_every_flow_of_the_bots_used(never_answers_category: list[Path]) -> None:
    # The scripts never start onboarding, yet it is a flow of their bot, so it counts (at 0%).
    r = run("replay", "--min-coverage", "80", *never_answers_category)
    others = [f.name for f in default_registry().get("language-buddy").flows if f.name != "feedback"]
    if not others:
        assert r.exit_code == 0, r.output
        return
    assert r.exit_code == 1, r.output
    [below] = [line for line in r.output.splitlines() if "below 80%" in line]
    assert "feedback" not in below  # 83.3% is enough
    assert all(name in below for name in others) and below.count(" 0.0%") == len(others)


def test_malformed_script_outranks_low_coverage(tmp_path: Path, never_answers_category: list[Path]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("bot: language-buddy\nturns: []\n")
    r = run("replay", "--min-coverage", "100", *never_answers_category, bad)
    assert r.exit_code == 2, r.output


def test_coverage_model_from_traces() -> None:
    bot = default_registry().get("language-buddy")
    flow = bot.flow("feedback")
    cov = Coverage([bot])
    cov.add(
        bot,
        [
            TurnTrace(
                turn=1, user_text="feedback", reply="", route="intent:feedback",
                triggers=["feedback.sentiment.next"], states_entered=["feedback.sentiment", "feedback.rating"],
            ),
            TurnTrace(
                turn=2, user_text="x", reply="", route="flow", flow_before="feedback", state_before="rating",
                notices=["reprompt:feedback.rating:1", "reprompt:feedback.rating:7", "aside:feedback.x"],
            ),
        ],
    )  # fmt: skip
    fc = cov.flow("feedback")
    assert fc.flow is flow and fc.bots == ["language-buddy"]
    assert (fc.state_ratio.hit, fc.state_ratio.total) == (2, 7)
    assert (fc.transition_ratio.hit, fc.transition_ratio.total) == (1, 6)
    assert fc.tiers[("rating", 1)] == 1 and fc.tiers[("rating", 2)] == 0  # tier 7 does not exist: ignored
    assert fc.transition_ratio.percent == pytest.approx(100 / 6)
    assert cov.below(20) == [f for f in cov.flows if f.transition_ratio.percent < 20]


def _loop_flow() -> Flow:
    """A flow whose initial ask loops to itself on a condition, and an aside from any ask."""

    class S(Slots):
        more: bool | None = None
        pick: str | None = None

    return Flow(
        name="loop",
        slots=S,
        states=[
            Ask("again", slot="more", say="Again?", parse=yes_no(), initial=True, ask_if_filled=True),
            Step("tick", run=lambda ctx: None),
            Ask("pick", slot="pick", say="Which?", parse=choice({"a": ["a"], "b": ["b"]}), reprompts=["a or b?"]),
            Final("out", summary="Out."),
        ],
        transitions=[
            T("answer", "again", "tick"),
            T("next", "tick", "again", when=lambda s: s.more is True),
            T("next", "tick", "pick"),
            T("answer", "pick", "out"),
            T("exit", "*", "out"),
        ],
    )


def test_moves_pair_triggers_with_states_entered() -> None:
    loop = _loop_flow()
    bot = Bot(name="loopy", persona="p", flows=[loop], intents=[], capabilities="c")
    # started at "again" and looped back to it: the start and the loop-back enter the same state
    trace = TurnTrace(
        turn=1, user_text="y", reply="", route="intent:loop",
        triggers=["loop.again.answer", "loop.tick.next"],
        states_entered=["loop.again", "loop.tick", "loop.again"],
    )  # fmt: skip
    assert [str(m) for m in moves(trace, bot)] == ["loop: again -answer-> tick", "loop: tick -next-> again"]
    aside = TurnTrace(
        turn=2, user_text="bye", reply="", route="flow", flow_before="loop", state_before="pick",
        triggers=["loop.pick.exit"], states_entered=["loop.out"],
    )  # fmt: skip
    cov = Coverage([bot])
    cov.add(bot, [trace, aside])
    fc = cov.flow("loop")
    assert fc.transitions[("*", "exit", "out")] == 1  # one item however many asks it may fire from
    assert fc.transitions[("tick", "next", "again")] == 1
    assert fc.uncovered_transitions() == [("tick", "next", "pick"), ("pick", "answer", "out")]
    assert "transition tick -next-> again [s.more is True]" not in fc.never_exercised()
    assert "reprompt pick: fallback (skip) after 3 failed attempts" in fc.never_exercised()


def test_condition_names() -> None:
    def asks(kind: str) -> Callable[[object], bool]:
        def when(s: object) -> bool:
            return kind == "x"

        return when

    def is_done(s: object) -> bool:
        return True

    assert condition_name(is_done) == "is_done"
    assert condition_name(asks("number")) == "asks('number')"
    assert condition_name(lambda s: s.level is not None) == "s.level is not None"


# -- JUnit and progress -------------------------------------------------------------------


def test_junit_xml(tmp_path: Path) -> None:
    good = script(tmp_path, "good.yaml", ["I want to give feedback"], "{flow: feedback, state: rating}")
    bad = script(tmp_path, "bad.yaml", ["I want to give feedback"], "{state: details}")
    malformed = tmp_path / "malformed.yaml"
    malformed.write_text("bot: language-buddy\nturns:\n  - user: hi\n    expect: {flwo: main}\n")
    out = tmp_path / "junit.xml"
    r = run("replay", "--junit", out, good, bad, malformed)
    assert r.exit_code == 2, r.output
    root = ET.parse(out).getroot()
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases[str(good)].find("failure") is None and cases[str(good)].find("error") is None
    failure = cases[str(bad)].find("failure")
    assert failure is not None and failure.text is not None
    assert "turn 1: state" in failure.text
    assert "expected: 'details'" in failure.text and "actual:   'rating'" in failure.text
    transcript = cases[str(bad)].find("system-out")
    assert transcript is not None and "user: I want to give feedback" in (transcript.text or "")
    error = cases[str(malformed)].find("error")
    assert error is not None and error.get("type") == "ScriptError"
    assert "unknown key 'flwo'" in (error.get("message") or "")


def test_junit_transcript_marks_the_restart(tmp_path: Path) -> None:
    p = tmp_path / "restart.yaml"
    p.write_text(
        f"bot: language-buddy\nprofile: {PROFILE}\nturns:\n  - user: I want to give feedback\n  - restart: true\n"
        "  - user: '4'\n    expect: {state: category}\n"
    )
    out = tmp_path / "junit.xml"
    r = run("replay", "--junit", out, p)
    assert r.exit_code == 1, r.output
    case = ET.parse(out).getroot().find("testsuite/testcase")
    assert case is not None
    failure, transcript = case.find("failure"), case.find("system-out")
    assert failure is not None and "turn 3: state" in (failure.text or "")
    assert transcript is not None
    lines = (transcript.text or "").splitlines()
    assert len(lines) == 5 and lines[0] == "user: I want to give feedback", lines
    assert lines[1].startswith("bot (feedback/rating): ") and lines[4].startswith("bot (feedback/details): ")
    assert lines[2:4] == ["-- restart: new engine and store on the same database --", "user: 4"]


def test_no_progress_bar_in_piped_output(tmp_path: Path) -> None:
    paths = [script(tmp_path, f"s{i}.yaml", ["hello"]) for i in range(cli.PROGRESS_OVER + 2)]
    r = run("replay", *paths)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [f"PASS {p} (1 turns)" for p in paths]


def test_progress_bar_only_on_a_terminal_for_many_scripts() -> None:
    terminal = Console(force_terminal=True)
    with cli._progress(terminal, cli.PROGRESS_OVER + 1) as progress:
        assert not progress.disable
    with cli._progress(terminal, cli.PROGRESS_OVER) as progress:
        assert progress.disable
    with cli._progress(Console(force_terminal=False), 100) as progress:
        assert progress.disable


# -- flows list / show / diagram ----------------------------------------------------------


def test_flows_list_shows_every_bot_and_flow() -> None:
    r = run("flows", "list")
    assert r.exit_code == 0, r.output
    for b in default_registry():
        assert b.name in r.output
        for f in b.flows:
            assert f"{f.name} (v{f.version})" in r.output


def test_flows_show() -> None:
    r = run("flows", "show", "feedback", "--bot", "language-buddy")
    assert r.exit_code == 0, r.output
    assert "feedback v1" in r.output and "language-buddy" in r.output
    assert "sentiment (initial)" in r.output and "│ step " in r.output and "│ final " in r.output
    assert "slot rating; expects a rating from 1 to 5; max 3 attempts, then skip" in r.output
    assert "│ triage    │ next    │ category │" in r.output
    assert "int | None" in r.output and "Ge(ge=1), Le(le=5)" in r.output
    assert "Literal['bug', 'latency', 'content', 'usability', 'other'] | None" in r.output
    assert "category · says: Which area is that about" in r.output
    assert "rating · says: computed by opening()" in r.output
    assert "rating · reprompt 2: Just type one digit" in r.output


def test_outline_names_conditions() -> None:
    o = outline(_loop_flow(), ["loopy"])
    conditions = {(t.source, t.dest): t.condition for t in o.transitions}
    assert conditions[("tick", "again")] == "s.more is True"
    assert conditions[("tick", "pick")] is None
    assert [s.kind for s in o.states] == ["ask", "step", "ask", "final"]
    assert [s.name for s in o.slots] == ["more", "pick"] and o.slots[0].type == "bool | None"


def test_flows_unknown_and_ambiguous(monkeypatch: pytest.MonkeyPatch) -> None:
    r = run("flows", "show", "nope")
    assert r.exit_code == 1 and "no flow 'nope'; flows:" in r.output and "feedback" in r.output
    r = run("flows", "diagram", "feedback", "--bot", "nobot")
    assert r.exit_code == 1 and "unknown bot 'nobot'" in r.output
    # A second bot with a flow of its own called feedback: the name alone is ambiguous.
    other = Bot(name="other-bot", persona="p", flows=[_renamed_loop("feedback")], intents=[], capabilities="c")
    monkeypatch.setattr(cli, "default_registry", lambda: Registry([*default_registry(), other]))
    for command in ("show", "diagram"):
        r = run("flows", command, "feedback")
        assert r.exit_code == 1, r.output
        assert "several bots have their own 'feedback' flow (" in r.output and "pick one with --bot" in r.output
        assert "language-buddy" in r.output and "other-bot" in r.output
    r = run("flows", "show", "feedback", "--bot", "other-bot")
    assert r.exit_code == 0 and "other-bot" in r.output and "again" in r.output
    r = run("flows", "diagram", "feedback", "--bot", "language-buddy")
    assert r.exit_code == 0 and "rating --> mood: answer" in r.output


def _renamed_loop(name: str) -> Flow:
    f = _loop_flow()
    return Flow(name=name, slots=f.slots, states=f.states, transitions=f.transitions)


def test_flows_diagram_mermaid(tmp_path: Path) -> None:
    r = run("flows", "diagram", "feedback", "--bot", "language-buddy")
    assert r.exit_code == 0, r.output
    assert r.output == mermaid(default_registry().get("language-buddy").flow("feedback"))
    lines = [line.strip() for line in r.output.splitlines()]
    assert lines[:4] == ["---", "title: feedback", "---", "stateDiagram-v2"]
    for edge in ("[*] --> sentiment", "sentiment --> rating: next", "rating --> mood: answer", "done --> [*]"):
        assert edge in lines
    assert 'state "details (ask comment)" as details' in lines and "Class done s_final" in lines
    out = tmp_path / "feedback.mmd"
    r = run("flows", "diagram", "feedback", "--bot", "language-buddy", "--out", out)
    assert r.exit_code == 0 and out.read_text() == mermaid(default_registry().get("language-buddy").flow("feedback"))


def test_mermaid_shows_conditions_wildcards_and_reserved_names() -> None:
    text = mermaid(_renamed_loop("end"))
    assert "tick --> again: next [s.more is True]" in text
    assert "again --> out: exit" in text and "pick --> out: answer | exit" in text  # "*" is any ask
    assert "tick --> out" not in text  # not from a step
    f = _loop_flow()
    states = [Final("state", summary="x") if isinstance(s, Final) else s for s in f.states]
    transitions = [T(t.trigger, t.source, "state" if t.dest == "out" else t.dest, t.when) for t in f.transitions]
    text = mermaid(Flow(name="kw", slots=f.slots, states=states, transitions=transitions))
    assert 'state "state (final, completed)" as state_' in text and "state_ --> [*]" in text


def test_flows_diagram_png_without_graphviz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "png_unavailable", lambda: "PNG diagrams need Graphviz (test)")
    r = run("flows", "diagram", "feedback", "--bot", "language-buddy", "--format", "png", "--out", tmp_path / "f.png")
    assert r.exit_code == 1 and "PNG diagrams need Graphviz (test)" in r.output
    assert not (tmp_path / "f.png").exists()


def test_png_unavailable_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.authoring.diagram

    monkeypatch.setattr(engine.authoring.diagram.shutil, "which", lambda _: None)
    message = png_unavailable()
    assert message is not None and "'dot' program" in message and "--format mermaid" in message


@pytest.mark.skipif(png_unavailable() is not None, reason="Graphviz (dot and its Python binding) is not installed")
def test_flows_diagram_png(tmp_path: Path) -> None:
    out = tmp_path / "feedback.png"
    r = run("flows", "diagram", "feedback", "--bot", "language-buddy", "--format", "png", "--out", out)
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(b"\x89PNG")


# -- the generated section of docs/bots.md -------------------------------------------------------------------


def test_flows_readme_writes_between_the_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nintro\n\n{README_BEGIN}\nstale\n{README_END}\n\n## After\n")
    r = run("flows", "readme", "--path", readme, "--check")
    assert r.exit_code == 1 and f"run `{README_COMMAND}`" in r.output
    r = run("flows", "readme", "--path", readme)
    assert r.exit_code == 0, r.output
    text = readme.read_text()
    assert text.startswith("# Title\n\nintro\n\n") and text.endswith("\n\n## After\n") and "stale" not in text
    assert "### feedback (language-buddy)" in text and "```mermaid" in text
    assert run("flows", "readme", "--path", readme, "--check").exit_code == 0


def test_flows_readme_creates_the_file(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    assert run("flows", "readme", "--path", readme).exit_code == 0
    assert readme.read_text() == f"{README_BEGIN}\n{readme_section().rstrip()}\n{README_END}\n"


def test_splice_readme_leaves_the_rest_alone() -> None:
    text = f"a\n{README_BEGIN}\nold\n{README_END}\nb\n"
    assert splice_readme(text, "new\n") == f"a\n{README_BEGIN}\nnew\n{README_END}\nb\n"
    assert splice_readme("just text\n", "new") == f"just text\n\n{README_BEGIN}\nnew\n{README_END}\n"


def test_flow_diagrams_are_current() -> None:
    page = ROOT / BOTS_DOC
    text = page.read_text(encoding="utf-8") if page.exists() else ""
    assert README_BEGIN in text and README_END in text, f"{BOTS_DOC} lacks the flow markers: run `{README_COMMAND}`"
    assert splice_readme(text, readme_section()) == text, (
        f"{BOTS_DOC}'s flow diagrams are out of date with flows/: run `{README_COMMAND}` and commit {BOTS_DOC}"
    )


def test_the_readme_holds_no_generated_diagrams() -> None:
    # adding a flow changes docs/bots.md only
    assert README_BEGIN not in (ROOT / "README.md").read_text(encoding="utf-8")


def test_flows_readme_writes_the_bots_page_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    assert run("flows", "readme").exit_code == 0
    assert README_BEGIN in (tmp_path / BOTS_DOC).read_text() and not (tmp_path / "README.md").exists()


# -- /save and sessions export ------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "chat.db")
    store = SqlStore(path)
    try:
        seed_profile(store, "language-buddy", "ann", dict(PROFILE_DATA))
    finally:
        store.close()
    return path


def chat(db: str, lines: list[str]) -> Result:
    return run("chat", "--db", db, "--user", "ann", input="".join(f"{line}\n" for line in lines).encode())


def session_id(db: str) -> str:
    store = SqlStore(db)
    try:
        [summary] = store.sessions()
    finally:
        store.close()
    return summary.id


def test_help_lists_every_meta_command(db: str) -> None:
    r = chat(db, ["/help"])
    assert r.exit_code == 0, r.output
    for name in ("/help", "/state", "/slots", "/history", "/reset", "/save PATH", "/quit"):
        assert name in r.output


def test_save_then_replay_round_trip(db: str, tmp_path: Path) -> None:
    saved = tmp_path / "saved.yaml"
    r = chat(db, ["hello", "I want to give feedback", "banana", "4", f"/save {saved}", "/quit"])
    assert r.exit_code == 0, r.output
    assert f"saved 4 turns to {saved}" in r.output
    s = load_script(saved)
    assert s.bot == "language-buddy" and s.user == "ann" and s.profile == PROFILE_DATA
    expects = [t.expect for t in s.turns]
    assert all(e is not None for e in expects)
    assert [(e.flow, e.state) for e in expects if e] == [
        ("main", None), ("feedback", "rating"), ("feedback", "rating"), ("feedback", "details"),
    ]  # fmt: skip
    assert expects[3] is not None and expects[3].slots == {
        "sentiment": "positive", "sentiment_from": "rating", "rating": 4, "comment": None, "category": None,
    }  # fmt: skip
    r = run("replay", saved)
    assert r.exit_code == 0 and f"PASS {saved} (4 turns)" in r.output, r.output


def test_save_covers_earlier_runs_and_reset(db: str, tmp_path: Path) -> None:
    assert chat(db, ["I want to give feedback", "2"]).exit_code == 0
    saved = tmp_path / "later.yaml"
    r = chat(db, ["meh", "/reset", "I want to complain", f"/save {saved}"])
    assert r.exit_code == 0, r.output
    s = load_script(saved)
    assert [t.user for t in s.turns] == ["I want to give feedback", "2", "meh", "/reset", "I want to complain"]
    # the stored traces carry the slots after each turn, so an earlier run's turns have them too
    assert s.turns[1].expect is not None and s.turns[1].expect.slots == {
        "sentiment": "negative",
        "sentiment_from": "rating",
        "rating": 2,
        "comment": None,
        "category": None,
    }
    assert s.turns[2].expect is not None and s.turns[2].expect.state == "category"
    assert s.turns[2].expect.slots is not None and s.turns[2].expect.slots["comment"] == "meh"
    assert s.turns[3].expect is not None and s.turns[3].expect.flow == "main"
    result = replay(s)
    assert result.passed, [f.describe() for f in result.failures]


def test_save_needs_a_path_and_a_session(db: str, tmp_path: Path) -> None:
    r = chat(db, ["/save", f"/save {tmp_path / 'x.yaml'}"])
    assert r.exit_code == 0, r.output
    assert "usage: /save PATH" in r.output and "nothing to save yet" in r.output
    r = chat(db, ["hello", f"/save {tmp_path / 'missing' / 'x.yaml'}"])
    assert "could not save" in r.output and "cannot write the file" in r.output


def test_sessions_export_replays(db: str, tmp_path: Path) -> None:
    assert chat(db, ["I want to give feedback", "5", "the app crashed"]).exit_code == 0
    out = tmp_path / "export.yaml"
    r = run("sessions", "export", session_id(db)[:6], "--replay", out, "--db", db)
    assert r.exit_code == 0, r.output
    assert f"wrote 3 turns to {out}" in r.output
    s = load_script(out)
    assert s.profile == PROFILE_DATA and [t.expect.flow for t in s.turns if t.expect] == ["feedback"] * 2 + ["main"]
    r = run("replay", out)
    assert r.exit_code == 0 and "PASS" in r.output, r.output


def test_a_session_replayed_with_a_restart_exports_as_one_run(tmp_path: Path) -> None:
    # A restart leaves nothing in the database, so the saved script has every user turn and no restart.
    db = str(tmp_path / "r.db")
    assert run("replay", "--db", db, ROOT / "tests" / "replays" / "support_restart.yaml").exit_code == 0
    out = tmp_path / "saved.yaml"
    r = run("sessions", "export", session_id(db), "--replay", out, "--db", db)
    assert r.exit_code == 0 and f"wrote 4 turns to {out}" in r.output, r.output
    s = load_script(out)
    assert s.restarts == 0 and [t.user for t in s.user_turns][2:] == ["12", "no sound"]
    r = run("replay", out)
    assert r.exit_code == 0 and f"PASS {out} (4 turns)" in r.output, r.output


def test_sessions_export_unknown_session(db: str, tmp_path: Path) -> None:
    assert chat(db, ["hello"]).exit_code == 0
    r = run("sessions", "export", "zzzzzz", "--replay", tmp_path / "x.yaml", "--db", db)
    assert r.exit_code == 1 and "no session matches 'zzzzzz'" in r.output


# -- traces -------------------------------------------------------------------------------


class CountingLLM(ScriptedLLM):
    """Phrases like the scripted backend and reports token usage and latency, as a real one would."""

    def phrase(self, request: PhraseRequest) -> Phrased:
        out = super().phrase(request)
        call = LLMCall(
            purpose=request.purpose, backend="counting", model="tiny-1", prompt_tokens=31, completion_tokens=9,
            latency_ms=12.5,
        )  # fmt: skip
        return Phrased(text=out.text, call=call)


@pytest.fixture
def traced(db: str) -> str:
    store = SqlStore(db)
    try:
        e = Engine(store, CountingLLM(["How would you rate us, 1 to 5?", "What happened?", "Thanks!"] * 3))
        for text in ("I want to give feedback", "4", "it is too slow"):
            e.turn("language-buddy", "ann", text)
    finally:
        store.close()
    return session_id(db)


def test_sessions_show_trace(db: str, traced: str) -> None:
    r = run("sessions", "show", traced, "--trace", "--db", db)
    assert r.exit_code == 0, r.output
    assert "turn 1" in r.output and "route intent:feedback" in r.output and "route flow" in r.output
    assert "main → feedback/rating" in r.output
    assert "entered: feedback.mood, feedback.details" in r.output
    assert "transition: feedback: rating -answer-> mood" in r.output
    assert "llm ask:feedback.rating · counting/tiny-1 · 31+9 tokens · 12 ms · ok" in r.output
    assert "records: feedback" in r.output
    assert "turn 3" in r.output and "recent events" not in r.output


def test_sessions_show_json(db: str, traced: str) -> None:
    r = run("sessions", "show", traced[:5], "--json", "--db", db)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["format"] == "innerloop.session/2"
    assert set(data) == {"format", "session", "active", "stack", "history", "runs", "turns"}
    report = SessionReport.model_validate(data)
    assert report.session.id == traced and report.session.bot == "language-buddy"
    assert [t.route for t in report.turns] == ["intent:feedback", "flow", "flow"]
    first, second, third = report.turns
    assert [(m.source, m.trigger, m.dest) for m in first.fired] == [("sentiment", "next", "rating")]
    assert [(m.source, m.dest) for m in second.fired] == [("rating", "mood"), ("mood", "details")]
    assert second.llm_calls[0].prompt_tokens == 31 and second.llm_calls[0].latency_ms == 12.5
    assert third.records == ["feedback"] and report.active is None
    assert [run.flow for run in report.runs] == ["feedback"]
    assert any("Rating: 4/5" in m.content for m in report.history)


def test_sessions_show_unknown_json(db: str, traced: str) -> None:
    r = run("sessions", "show", "zzzzzz", "--json", "--db", db)
    assert r.exit_code == 1 and "no session matches 'zzzzzz'" in r.output


def test_replay_a_folder_skips_the_data_files_beside_the_scripts(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    (folder / "banks").mkdir(parents=True)
    (folder / "banks" / "bank.yaml").write_text("levels:\n  A1: []\n")
    nested = folder / "nested"
    nested.mkdir()
    first = script(folder, "a.yaml", ["hello"], "{flow: main}")
    second = script(nested, "b.yml", ["I want to give feedback"], "{flow: feedback}")
    (folder / "notes.md").write_text("not yaml")
    r = run("replay", folder)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [f"PASS {first} (1 turns)", f"PASS {second} (1 turns)"]
    # a file named on the command line is always a script, so a data file given by mistake is reported
    r = run("replay", folder / "banks" / "bank.yaml")
    assert r.exit_code == 2 and "MALFORMED" in r.output
