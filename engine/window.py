"""The history window: which messages a prompt carries, and in what order.

A prompt is the system message, then at most the last `WINDOW` messages of the
relevant history in chronological order, then the current user message. The store
loads the most recent `LOAD_LIMIT` messages; nothing is ever truncated or reworded.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.models import Message

WINDOW = 15
LOAD_LIMIT = 20
# A flow's phrasing rewords one template in the tone of the last exchange, and a parse reads
# one answer to the question just asked: neither needs more than this, and every message more
# is paid for on every call of every turn (bench/tokens.py).
SAY_WINDOW = 2
PARSE_WINDOW = 2


def build_prompt(
    system: str,
    history: Sequence[Message],
    current: Message | None = None,
    window: int = WINDOW,
) -> list[Message]:
    """Assemble a prompt; `history` is oldest to newest and excludes `current`."""
    if window < 0:
        raise ValueError("window must be >= 0")
    recent = list(history[-window:]) if window else []
    prompt = [Message(role="system", content=system), *recent]
    if current is not None:
        prompt.append(current)
    return prompt
