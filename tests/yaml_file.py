"""`safe_load` for the YAML files the tests read (corpora, shipped data): yaml.safe_load's result,
parsed by libyaml when PyYAML was built with it.

In pure Python the commands corpus alone took seconds to parse, and two test modules read it while
pytest collects them: collection (which CI also runs on its own first) spent most of its time here.
"""

from __future__ import annotations

from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    return yaml.load(text, Loader=LOADER)
