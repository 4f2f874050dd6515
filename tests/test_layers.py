"""Imports flow one way: the turn path, then the store and LLM adapters, then authoring tools, then bots.

Every import is read from the source (module level, function level and `TYPE_CHECKING` blocks
alike), so a lazy import cannot slip a layer either. The README's map draws the same layers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What the flat turn path (engine/*.py) may never reach: the SQL side of the store, the
# openai adapter, the authoring tools, the command line and the bots.
CORE_FORBIDDEN = (
    "engine.store.sql",
    "engine.store.schema",
    "engine.store.connection",
    "engine.store.dialect",
    "engine.store.tracerow",
    "engine.llm.openai",
    "engine.authoring",
    "cli",
    "flows",
)
ADAPTER_FORBIDDEN = ("engine.authoring", "cli", "flows")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(*folders: str) -> list[Path]:
    found: list[Path] = []
    for folder in folders:
        base = ROOT / folder
        found += [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    return found


def imports(path: Path, source: str | None = None) -> Iterator[tuple[int, str]]:
    """(line, absolute module) for every import in the file (or in `source`, read as that file), `from x
    import y` giving x.y too."""
    text = source if source is not None else path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def reaches(name: str, target: str) -> bool:
    return name == target or name.startswith(target + ".")


def violations(files: list[Path], forbidden: tuple[str, ...], source: str | None = None) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in files
        for line, name in imports(path, source)
        if any(reaches(name, f) for f in forbidden)
    ]


def core_modules() -> list[Path]:
    # engine/__init__.py is the public surface, which names SqlStore; it is not the turn path
    return [p for p in sorted((ROOT / "engine").glob("*.py")) if p.name != "__init__.py"]


def test_the_turn_path_imports_no_adapter_tool_cli_or_bot() -> None:
    assert core_modules(), "no engine modules found"
    assert violations(core_modules(), CORE_FORBIDDEN) == []


@pytest.mark.parametrize("package", ["engine/store", "engine/llm"])
def test_adapters_import_no_tool_cli_or_bot(package: str) -> None:
    assert violations(sources(package), ADAPTER_FORBIDDEN) == []


def test_the_llm_package_loads_openai_only_on_demand() -> None:
    # the factory imports the adapter inside make_llm; nothing else in the package may
    others = [p for p in sources("engine/llm") if p.name not in ("openai.py", "factory.py")]
    assert violations(others, ("engine.llm.openai", "openai")) == []
    factory = ROOT / "engine" / "llm" / "factory.py"
    top_level = ast.parse(factory.read_text(encoding="utf-8")).body
    assert not [n for n in top_level if isinstance(n, ast.ImportFrom) and n.module == "engine.llm.openai"]


def test_authoring_imports_no_bot_and_no_cli() -> None:
    assert violations(sources("engine/authoring"), ("flows", "cli")) == []


def test_the_engine_never_imports_the_command_line() -> None:
    assert violations(sources("engine", "flows"), ("cli",)) == []


def bot_packages() -> list[str]:
    return sorted(
        p.parent.name for p in (ROOT / "flows").glob("*/__init__.py") if p.parent.name not in ("shared", "__pycache__")
    )


def test_no_bot_imports_another_bot() -> None:
    bots = bot_packages()
    assert len(bots) >= 4, bots
    found: list[str] = []
    for bot in bots:
        others = tuple(f"flows.{b}" for b in bots if b != bot)
        found += violations(sources(f"flows/{bot}"), others)
    shared = tuple(f"flows.{b}" for b in bots)
    found += violations(sources("flows/shared"), shared)
    assert found == []


def test_the_check_sees_a_violation(tmp_path: Path) -> None:
    # the walker must resolve relative and lazy imports, or the tests above prove nothing
    # read as if it were a file of engine/, never written there: the suite's other workers walk the tree
    # (ruff, mypy, the pattern collector), and a file that comes and goes under them fails them
    probe = ROOT / "engine" / "_layers_probe.py"
    text = "def f() -> None:\n    from .authoring import replay\n    import flows.support\n"
    found = violations([probe], CORE_FORBIDDEN, source=text)
    assert found == [
        "engine/_layers_probe.py:2 imports engine.authoring",
        "engine/_layers_probe.py:2 imports engine.authoring.replay",
        "engine/_layers_probe.py:3 imports flows.support",
    ]


# Within the turn path: values first, then what flows declare, then bots, then the turn.
# A context reaches the turn only through its TurnOps Protocol, so there is no cycle.
TURN_PATH_ORDER = {
    "engine/models.py": ("engine.context", "engine.flow", "engine.bot", "engine.turn", "engine.registry"),
    "engine/context.py": ("engine.flow", "engine.bot", "engine.turn", "engine.registry", "engine.runtime"),
    "engine/states.py": ("engine.flow", "engine.bot", "engine.turn", "engine.registry", "engine.runtime"),
    "engine/flow.py": ("engine.bot", "engine.turn", "engine.registry", "engine.runtime"),
    "engine/bot.py": ("engine.effects", "engine.flowrun", "engine.turn", "engine.registry", "engine.runtime"),
    "engine/effects.py": ("engine.answers", "engine.flowrun", "engine.turn", "engine.registry", "engine.runtime"),
    "engine/answers.py": ("engine.flowrun", "engine.turn", "engine.registry", "engine.runtime"),
    "engine/flowrun.py": ("engine.turn", "engine.registry", "engine.runtime"),
    # the stages of a turn: the commands are values; reading a message into them touches
    # nothing that executes them, phrases or writes (a stage imports none after it)
    "engine/commands.py": (
        "engine.models", "engine.bot", "engine.reading", "engine.effects", "engine.answers",
        "engine.flowrun", "engine.turn", "engine.voice", "engine.registry", "engine.runtime",
    ),
    # a flow's update path: read by the read stage, declared by flows; it executes nothing
    "engine/amend.py": (
        "engine.flow", "engine.bot", "engine.reading", "engine.effects", "engine.answers",
        "engine.flowrun", "engine.turn", "engine.voice", "engine.registry", "engine.runtime", "engine.store",
    ),
    "engine/reading.py": (
        "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.registry", "engine.runtime", "engine.store",
    ),
    # what reading tells questions back and small talk with: below the read stage
    "engine/askback.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.bot", "engine.flow", "engine.registry", "engine.runtime", "engine.store",
    ),
    "engine/message_parts.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.bot", "engine.flow", "engine.registry", "engine.runtime", "engine.store",
    ),
    "engine/smalltalk.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.bot", "engine.flow", "engine.registry", "engine.runtime", "engine.store",
    ),
    # the read stage's parts (engine/reading.py asks them): none reaches back into it
    "engine/reading_main.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.registry", "engine.runtime", "engine.store",
    ),
    "engine/carried.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.registry", "engine.runtime", "engine.store",
    ),
    "engine/question_talk.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.registry", "engine.runtime", "engine.store",
    ),
    "engine/answer_checks.py": (
        "engine.reading", "engine.effects", "engine.answers", "engine.flowrun", "engine.turn", "engine.voice",
        "engine.context", "engine.registry", "engine.runtime", "engine.store",
    ),
}  # fmt: skip


@pytest.mark.parametrize("module", sorted(TURN_PATH_ORDER))
def test_the_turn_path_has_no_cycles(module: str) -> None:
    assert violations([ROOT / module], TURN_PATH_ORDER[module]) == []


# The stages of a turn (issue 22): load -> read -> execute -> say -> write. A stage reaches none
# after it, directly or through a module it imports. Execute still phrases as it goes (a flow's
# step may use the phrased text at once), so it reaches the voice: the only crossing left, named
# here so that no other one can slip in. What flows declare and every stage uses (models, commands,
# flows and states, the parsers with their word tables: extract, yesno, names, feeling, gloss, cues,
# numwords, ahead, fill (with fact_clauses, slot_cues, declined), amend, and the message as they analyse it:
# utterance) belongs to no stage.
STAGES: dict[str, tuple[str, ...]] = {
    "load": ("engine.load",),
    "read": (
        "engine.reading", "engine.reading_main", "engine.carried", "engine.question_talk", "engine.answer_checks",
        "engine.said", "engine.commandphrases", "engine.beside", "engine.wrapped", "engine.askback",
        "engine.message_parts", "engine.smalltalk", "engine.corrections", "engine.correctionwords",
        "engine.takeback", "engine.requests", "engine.proposals", "engine.learned",
    ),
    "execute": (
        "engine.turn", "engine.kept", "engine.answering", "engine.mainconv", "engine.controls", "engine.flowrun",
        "engine.answers", "engine.effects",
    ),
    "say": ("engine.voice", "engine.guard", "engine.window"),
    # the store's contract (engine/store/__init__.py) is a port every stage may hold; its SQL
    # side is fenced off the whole turn path above
    "write": ("engine.runtime",),
}  # fmt: skip
ORDER = list(STAGES)
CROSSINGS_LEFT = {("execute", "say")}


def closure(module: str) -> set[str]:
    """Every project module `module` imports, directly or through others. The package's public
    surface (engine/__init__.py, which Python runs first) is left out: it names every layer."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        path = ROOT / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / name.replace(".", "/") / "__init__.py"
        if name in seen or name == "engine" or not path.exists():
            continue
        seen.add(name)
        todo += [n for _, n in imports(path) if n.startswith(("engine", "flows"))]
    return seen - {module}


@pytest.mark.parametrize("stage", ORDER[:-1])
def test_a_stage_reaches_none_after_it(stage: str) -> None:
    later = {s: STAGES[s] for s in ORDER[ORDER.index(stage) + 1 :] if (stage, s) not in CROSSINGS_LEFT}
    found = [
        f"{module} ({stage}) reaches {name} ({after})"
        for module in STAGES[stage]
        for name in sorted(closure(module))
        for after, modules in later.items()
        if any(reaches(name, m) for m in modules)
    ]
    assert found == []


def test_the_stage_check_sees_a_crossing() -> None:
    # engine/kept.py (execute) carries out requests through the flow runner: a read module
    # importing it would reach execute, and the closure must see that through one module more
    assert "engine.flowrun" in closure("engine.kept")
    assert "engine.voice" in closure("engine.turn")
