"""The README's example, read from the README and run, so the README keeps telling the truth."""

from __future__ import annotations

import re
from pathlib import Path

from engine import Bot
from engine.authoring.testing import DialogueFactory

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_example_runs(dialogue: DialogueFactory) -> None:
    blocks = [b for b in re.findall(r"```python\n(.*?)```", README.read_text(), re.S) if "def test_feedback(" in b]
    assert len(blocks) == 1, "README.md should hold one example with `def test_feedback(dialogue):`"
    assert len(blocks[0].splitlines()) <= 40, "the README's example should stay short"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    assert isinstance(namespace["bot"], Bot)
    test = namespace["test_feedback"]
    assert callable(test)
    test(dialogue)
    assert "chat.restart()" in blocks[0]  # the example shows a restart, and it ran above
