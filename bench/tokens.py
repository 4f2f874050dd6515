"""Prompt tokens: innerloop against a bot that sends its whole linear history (a benchmark).

    python bench/tokens.py [--base-url http://127.0.0.1:8765/v1 --model NAME]

A 60-turn Study Pal conversation (small talk, two lessons, an analysis, a study plan, more
talk between them) runs through the openai backend against a real local model: by default
llama-cpp-python's server with SmolLM2-135M-Instruct, started the way the local_llm tests
start it (tests/local_llm.py), or any OpenAI-compatible server at --base-url.

For each turn it prints the prompt tokens innerloop sent (the server's own usage, summed
over the turn's calls) beside what a linear-history bot would send for the same turn: its
system prompt (the one innerloop's main reply carries), every earlier message of the
conversation (the inner loops' turns included)
and the current message, counted with the same server's tokenizer plus the chat template's
per-message cost (measured on the server). Then the totals, their ratio, and whether
innerloop's per-turn prompt stays flat (mean of the first and last fifteen turns that
called the model, and the least-squares slope per turn).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Engine, Message, Resources, SqlStore
from engine.llm.openai import REPLY_INSTRUCTION, OpenAILLM
from engine.window import WINDOW
from flows.study_pal.bot import CAPABILITIES, course_outline, study_pal
from flows.study_pal.course import course_path, get_course

BOT = "study-pal"


def linear_system() -> str:
    """The linear bot's system prompt: the one innerloop's main reply carries (persona, course,
    reply instruction with the capabilities). A single-conversation bot would need at least
    that, and more: it would also have to describe every activity's rules in it."""
    course = get_course(course_path(Resources()))
    persona = f"You are {study_pal.persona}.\n\n{course_outline(course)}"
    return persona + REPLY_INSTRUCTION.format(content=CAPABILITIES)


TALK = [
    "hi there!",
    "how are you today?",
    "what do you like most about maths?",
    "I have an exam next month",
    "I'm a bit nervous about it honestly",
]
CONVERSATION = [
    *TALK,
    "teach me limits",
    "I think it's 6",
    "7",
    "4",
    "c",
    "that's enough for today",
    "thanks, that helped",
    "do you think I'm making progress?",
    "what should I focus on?",
    "analyze my weak points",
    "no thanks, not now",
    "ok cool",
    "tell me a fun fact about calculus",
    "schedule study from 14-16 tomorrow",
    "great, thank you",
    "what's the weather like for studying outside?",
    "haha fair enough",
    "teach me continuity",
    "a",
    "b",
    "5",
    "6",
    "yes",
    "I'm done with this one",
    "that was hard",
    "can you cheer me up a bit?",
    "teach me derivatives",
    "5",
    "4x^3",
    "6x+2",
    "10",
    "12",
    "let's stop here",
    "analyze my session",
    "yes, make a plan",
    "thanks!",
    "how long should I study every day?",
    "is it ok to take breaks?",
    "what is a good way to take notes?",
    "teach me integration",
    "a",
    "b",
    "x^2/2",
    "4",
    "I'm done",
    "that's all for now",
    "see you tomorrow",
    "actually one more question",
    "what is a limit again?",
    "7",
    "stop",
    "hello again",
    "remind me what we covered today?",
    "you have been very helpful",
    "bye for now",
]


def server_tokens(base_url: str, text: str) -> int:
    """Tokens of `text` in the server's own tokenizer (llama-cpp-python's /extras/tokenize)."""
    root = base_url.removesuffix("/v1")
    body = json.dumps({"input": text}).encode()
    request = urllib.request.Request(f"{root}/extras/tokenize", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return len(json.load(r)["tokens"])


def per_message_cost(base_url: str, model: str) -> float:
    """The chat template's tokens per message: the server's usage for a tiny prompt, less its contents."""
    messages = [{"role": "system", "content": "a"}, {"role": "user", "content": "b"}]
    body = json.dumps({"model": model, "messages": messages, "max_tokens": 1}).encode()
    request = urllib.request.Request(f"{base_url}/chat/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:
        used = int(json.load(r)["usage"]["prompt_tokens"])
    return (used - 2 * server_tokens(base_url, "a")) / 2


def linear_prompt(history: list[Message], current: str, base_url: str, cost: float, cache: dict[str, int]) -> int:
    total = 0.0
    for text in [linear_system(), *(m.content for m in history), current]:
        if text not in cache:
            cache[text] = server_tokens(base_url, text)
        total += cache[text] + cost
    return round(total)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url", help="an OpenAI-compatible server (default: start a local one)")
    ap.add_argument("--model", default="smollm2")
    args = ap.parse_args()
    server = None
    base_url, model = args.base_url, args.model
    if base_url is None:
        from tests.local_llm import LocalModel, find_server

        spec = find_server()
        if isinstance(spec, str):
            sys.exit(f"no local model: {spec}")
        server = LocalModel(spec, Path(tempfile.mkdtemp()) / "server.log")
        base_url, model = server.base_url, server.model
    try:
        run(base_url, model)
    finally:
        if server is not None:
            server.stop()


def run(base_url: str, model: str) -> None:
    cost = per_message_cost(base_url, model)
    cache: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as d:
        store = SqlStore(str(Path(d) / "tokens.db"))
        engine = Engine(store, OpenAILLM(model, base_url=base_url, api_key="local", timeout=120))
        history: list[Message] = []
        ours: list[int] = []
        linear: list[int] = []
        print(f"chat template: {cost:.1f} tokens per message; window: {WINDOW} main messages")
        print(f"{'turn':>4}  {'flow':<12} {'innerloop':>9} {'linear':>7}  message")
        for n, text in enumerate(CONVERSATION, start=1):
            lin = linear_prompt(history, text, base_url, cost, cache)
            r = engine.turn(BOT, "bench", text)
            sent = sum(c.prompt_tokens for c in r.trace.llm_calls) if r.trace else 0
            ours.append(sent)
            linear.append(lin)
            history += [Message(role="user", content=text), Message(role="assistant", content=r.reply)]
            print(f"{n:>4}  {r.flow:<12} {sent:>9} {lin:>7}  {text[:40]}")
        store.close()
    called = [t for t in ours if t]
    head, tail = called[:15], called[-15:]
    xs = [i for i, t in enumerate(ours) if t]
    slope = statistics.linear_regression(xs, called).slope if len(called) > 1 else 0.0
    print(f"\ntotal prompt tokens: innerloop {sum(ours):,}, linear history {sum(linear):,}")
    print(f"ratio innerloop / linear: {sum(ours) / sum(linear):.3f} (goal <= 0.25)")
    print(
        f"innerloop per turn that called the model: first 15 mean {statistics.mean(head):.0f}, "
        f"last 15 mean {statistics.mean(tail):.0f}, slope {slope:+.1f} tokens/turn "
        f"({'flat' if abs(slope) < 5 else 'growing'}); linear grows {linear[-1] - linear[0]:,} tokens "
        f"from turn 1 to {len(linear)}"
    )


if __name__ == "__main__":
    main()
