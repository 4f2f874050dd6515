"""Property tests of the history window (hypothesis, >= 100 examples each)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.models import Message
from engine.window import WINDOW, build_prompt

texts = st.text(min_size=0, max_size=300)
messages = st.builds(Message, role=st.sampled_from(["user", "assistant", "system"]), content=texts)
histories = st.lists(messages, max_size=60)
EXAMPLES = settings(max_examples=150, deadline=None)


@EXAMPLES
@given(system=texts, history=histories, current=texts)
def test_system_first_current_last(system: str, history: list[Message], current: str) -> None:
    prompt = build_prompt(system, history, Message(role="user", content=current))
    assert prompt[0] == Message(role="system", content=system)
    assert prompt[-1] == Message(role="user", content=current)


@EXAMPLES
@given(history=histories, window=st.integers(min_value=0, max_value=30))
def test_at_most_window_messages_the_latest_in_order(history: list[Message], window: int) -> None:
    prompt = build_prompt("sys", history, Message(role="user", content="now"), window=window)
    middle = prompt[1:-1]
    assert len(middle) == min(window, len(history))
    assert middle == history[len(history) - len(middle) :]


@EXAMPLES
@given(history=histories)
def test_default_window_is_fifteen(history: list[Message]) -> None:
    prompt = build_prompt("sys", history)
    assert len(prompt) == 1 + min(WINDOW, len(history)) == 1 + min(15, len(history))


@EXAMPLES
@given(history=histories, current=texts)
def test_content_is_never_altered(history: list[Message], current: str) -> None:
    prompt = build_prompt("sys", history, Message(role="user", content=current))
    contents = [m.content for m in prompt[1:-1]]
    assert all(any(c is h.content or c == h.content for h in history) for c in contents)
    assert prompt[-1].content == current
