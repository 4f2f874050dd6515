"""Every regular expression in engine/ and flows/, and the messages that make a bad one slow.

Run as a script, it prints the patterns it collected (`{"patterns": [[pattern, flags, where],
...]}`), then times each (from index START) against adversarial messages of the input limit's
length and prints one JSON line per pattern as it finishes: `[index, worst CPU ms, what was
slowest, growth]` (growth: how much slower that search is on the whole message than on its first
quarter, measured when the pattern took more than SLOW_MS; 0 otherwise).
tests/test_pattern_shapes.py runs it in a subprocess so a pattern that backtracks for minutes
costs the test a timeout, not the suite.

    python tests/_patterns.py [START]
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import itertools
import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.bot import Intent  # noqa: E402
from engine.runtime import MAX_CHARS  # noqa: E402

PACKAGES = ("engine", "flows")
_RE_FUNCS = {"search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "compile": 1, "split": 3, "sub": 4}


@dataclasses.dataclass(frozen=True)
class Found:
    pattern: str
    flags: int
    where: str


def _modules() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _walk(obj: object, where: str, out: dict[tuple[str, int], str], memo: set[int], depth: int = 0) -> None:
    """Patterns held by a module's globals, in containers and dataclasses (a bot's intents)."""
    if id(obj) in memo or depth > 5:
        return
    memo.add(id(obj))
    if isinstance(obj, re.Pattern):
        out.setdefault((obj.pattern, obj.flags), where)
    elif isinstance(obj, list | tuple | set | frozenset):
        for item in obj:
            _walk(item, where, out, memo, depth + 1)
    elif isinstance(obj, dict):
        for item in obj.values():
            _walk(item, where, out, memo, depth + 1)
    elif isinstance(obj, Intent):  # a bot's intent keeps its patterns as text, compiled on first use
        for p in obj.patterns:  # as Intent.matches compiles them
            _walk(re.compile(p, re.IGNORECASE), where, out, memo, depth + 1)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            _walk(getattr(obj, f.name, None), where, out, memo, depth + 1)


def _flags(node: ast.expr | None) -> int:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    return 0


def _literals(path: Path, out: dict[tuple[str, int], str]) -> None:
    """Patterns written inline: `re.search(r"...", text)` compiles nothing a module keeps."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _RE_FUNCS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            continue
        flags = next((k.value for k in node.keywords if k.arg == "flags"), None)
        position = _RE_FUNCS[node.func.attr]
        if flags is None and len(node.args) > position:
            flags = node.args[position]
        compiled = re.compile(node.args[0].value, _flags(flags))
        out.setdefault((compiled.pattern, compiled.flags), f"{path.relative_to(ROOT)}:{node.lineno}")


def _cached_builder(value: object, module: str) -> bool:
    """A module's own `@cache` function of no arguments (what builds a pattern from a data file)."""
    wrapped = getattr(value, "__wrapped__", None)
    if not (callable(value) and hasattr(value, "cache_info") and wrapped is not None):
        return False
    if getattr(wrapped, "__module__", None) != module:
        return False
    params = inspect.signature(wrapped).parameters.values()
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def collect() -> list[Found]:
    """Every distinct (pattern, flags) the code holds compiled or writes inline, in a stable order."""
    out: dict[tuple[str, int], str] = {}
    for name, path in _modules():
        module = importlib.import_module(name)
        memo: set[int] = set()
        for key, value in vars(module).items():
            if isinstance(value, type(sys)):
                continue
            if _cached_builder(value, name):
                value = value()  # a pattern built from data once, on first use: words().fillers
            _walk(value, f"{name}.{key}", out, memo)
        _literals(path, out)
    return [Found(p, f, w) for (p, f), w in sorted(out.items(), key=lambda kv: (kv[1], kv[0]))]


# Pieces repeated up to the input limit: punctuation and separators, whitespace, digits, one
# long word, clause words, mixed scripts, emoji, brackets and quotes.
PIECES = [
    ".", "!", "?!", ", ", "- ", " ", "a", "a ", "1", "1 ", "1.", "1:", "12:", "'", "a-", "(", ")(", '"',
    "and ", "not ", "but ", "so ", "aé中д ", "ab, ", "a1", "1-", ":)", "x.", "🙂", "a\n", "a b. ", "ñ", "-",
]  # fmt: skip


def adversarial(pattern: str, length: int = MAX_CHARS) -> list[str]:
    """Messages of `length` built to make `pattern` backtrack: PIECES repeated, and the
    pattern's own words repeated, cut short, and glued to separators (near-matches)."""
    pieces = list(PIECES)
    bare = re.sub(r"\\.", " ", pattern.lower())  # r"\bdid" holds the word "did"
    words = sorted(set(re.findall(r"[a-z]{3,}", bare)), key=lambda w: (-len(w), w))[:8]
    for w in words:
        pieces += [w + " ", w[:-1] + " ", w, w + ", ", w + "-", w + ".", "1 " + w + " "]
    pieces += [f"{a} {b} " for a, b in itertools.pairwise(words)]
    # a run of a letter the pattern repeats ("h+i+" searched in "hhhh…" starts a run at every h)
    pieces += sorted(set(re.findall(r"(?<!\\)([a-z])\+", pattern.lower())) - {"a"})
    return [(p * (length // len(p) + 1))[:length] for p in pieces]


def _time(compiled: re.Pattern[str], op: str, text: str) -> float:
    start = time.process_time()
    if op == "finditer":
        for _ in compiled.finditer(text):
            pass
    else:
        compiled.fullmatch(text)
    return time.process_time() - start


def growth(compiled: re.Pattern[str], op: str, text: str) -> float:
    """How much slower `op` is on `text` than on its first quarter: about 4 for a linear pattern,
    about 16 for a quadratic one. A ratio, so a loaded machine (both cores busy in CI) that makes
    every search slower does not make a linear pattern look like a quadratic one."""
    quarter = min(_time(compiled, op, text[: len(text) // 4]) for _ in range(3))
    full = min(_time(compiled, op, text) for _ in range(3))
    return full / max(quarter, 1e-6)


def worst(compiled: re.Pattern[str], messages: list[str]) -> tuple[float, str, str, str]:
    """The slowest CPU time (s) of finditer and fullmatch over `messages`, which, and on what.

    `search` is not timed on its own: finditer's first step is that same scan from the start
    (the pattern's scanner), so a message that makes search slow makes finditer at least as
    slow, and timing both spent nearly half the check's time on a figure finditer bounds."""
    slowest, what, op_of, text_of = 0.0, "", "finditer", ""
    for text in messages:
        for op in ("finditer", "fullmatch"):
            spent = _time(compiled, op, text)
            if spent > slowest:
                slowest, what, op_of, text_of = spent, f"{op} on {text[:16]!r}…", op, text
    return slowest, what, op_of, text_of


# below this a pattern's growth is not measured (a linear one takes well under 5 ms at the input limit)
SLOW_MS = 10.0


def main(start: int) -> None:
    found = collect()
    # the list the indexes below refer to, as a fresh interpreter finds it (a process that ran
    # other code first may hold more, filled into module-level caches)
    print(json.dumps({"patterns": [dataclasses.astuple(f) for f in found]}), flush=True)
    for i, f in enumerate(found[start:], start):
        compiled = re.compile(f.pattern, f.flags)
        spent, what, op, text = worst(compiled, adversarial(f.pattern))
        # the growth is only worth its time for a pattern that was slow at all
        ratio = growth(compiled, op, text) if spent * 1000 > SLOW_MS else 0.0
        print(json.dumps([i, round(spent * 1000, 2), what, round(ratio, 1)]), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
