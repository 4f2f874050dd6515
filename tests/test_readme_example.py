"""The README's harness example, read from the README and run, so the README keeps telling the truth."""

from __future__ import annotations

import re
from pathlib import Path

from engine.authoring.testing import DialogueFactory

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_harness_example_runs(dialogue: DialogueFactory) -> None:
    blocks = re.findall(r"```python\n(def test_feedback\(dialogue\):\n.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1, "README.md should hold one harness example, `def test_feedback(dialogue):`"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    test = namespace["test_feedback"]
    assert callable(test)
    test(dialogue)
    assert "chat.restart()" in blocks[0]  # the example shows a restart, and it ran above
