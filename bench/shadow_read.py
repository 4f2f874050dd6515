"""The read stage with its gates, against the read stage with every gate open, on every message a script reads.

    python bench/shadow_read.py bench/understanding.py            # every commands-corpus message
    python bench/shadow_read.py bench/conversations.py            # every conversations-corpus turn
    python bench/shadow_read.py -m cli replay tests/replays       # every replay turn (add --replay-llm ...)

A reader asked only when its gate (engine/gates.py) says the message may hold its kind must read every
message as it would have without the gate. This runs the script with `engine.reading.read` wrapped:
each message is read with the gates, then again with every gate saying "may", and the two `Reading`s
are compared; each choice parser's answer (engine/extract.py `choice`, which keeps what an option's
word alone was searched to) is compared with its search on every text it reads. Printed at the end
(stderr): how many were compared, how often a gate said no, and each difference; the exit status is
1 when any was found. The script's own output is as it is without the wrapper (the gated reading is
the one returned).
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import os
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.extract as extract_module
import engine.gates as gates_module

counts: collections.Counter[str] = collections.Counter()
differences: list[tuple[object, ...]] = []
_open = [False]  # every gate says "may" while the ungated reading is made


def _shadow_gates() -> None:
    gated = gates_module.Gate.may

    def may(self: gates_module.Gate, text: str) -> bool:
        if _open[0]:
            return True
        said = gated(self, text)
        counts["gate asked"] += 1
        counts["gate said no"] += not said
        return said

    gates_module.Gate.may = may  # type: ignore[method-assign]


def _shadow_choices() -> None:
    made = extract_module.choice

    def choice(*args: Any, **kwargs: Any) -> extract_module.Parser:
        parser = made(*args, **kwargs)
        inner = {
            c.cell_contents.__name__: c.cell_contents
            for c in parser.rule.__closure__ or ()
            if callable(c.cell_contents) and hasattr(c.cell_contents, "__name__")
        }
        searched: Callable[[str], object] = inner["searched"]
        rule = parser.rule

        def compared(text: str) -> object:
            full = searched(extract_module._norm(text))
            if _open[0]:
                return full
            got = rule(text)
            counts["choice compared"] += 1
            if repr(got) != repr(full):
                differences.append(("choice", text, parser.expects, got, full))
            return got

        return dataclasses.replace(parser, rule=compared)

    extract_module.choice = choice


def _shadow_read() -> None:
    # imported once the choice parsers are shadowed: a bot's parsers are made when its module is imported
    import engine.reading as reading_module
    import engine.turn as turn_module

    gated = reading_module.read

    def read(*args: Any, **kwargs: Any) -> Any:
        got = gated(*args, **kwargs)
        _open[0] = True
        try:
            full = gated(*args, **kwargs)
        finally:
            _open[0] = False
        counts["read compared"] += 1
        if full != got:
            session = args[1]
            a = session.active
            differences.append(("read", args[3], a and a.flow, a and a.state, got, full))
        return got

    reading_module.read = read
    turn_module.read = read  # type: ignore[attr-defined]


@atexit.register
def _report() -> None:
    print(f"shadow: {dict(counts)}, differences: {len(differences)}", file=sys.stderr)
    seen: set[str] = set()
    for d in differences:
        if (key := repr(d[:4])) not in seen:
            seen.add(key)
            print(f"  DIFFERENT {d}", file=sys.stderr)
    if differences:
        os._exit(1)


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    _shadow_gates()
    _shadow_choices()  # before the bots are imported: their parsers are made then
    _shadow_read()
    if sys.argv[1] == "-m":
        sys.argv = sys.argv[2:]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        script = sys.argv[1]
        sys.argv = sys.argv[1:]
        sys.path.insert(0, str(Path(script).resolve().parent))
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
