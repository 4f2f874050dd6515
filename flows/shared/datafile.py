"""Reading a YAML data file into its pydantic model, with messages that say what to fix."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from engine.errors import DataFileError

M = TypeVar("M", bound=BaseModel)


def load_yaml(path: Path, model: type[M]) -> M:
    """`path` validated as `model`; DataFileError names the file and each problem by its place."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise DataFileError(str(path), [f"cannot read it: {e}"]) from e
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = [
            f"{'.'.join(str(p) for p in err['loc']) or 'file'}: {err['msg'].removeprefix('Value error, ')}"
            for err in e.errors()
        ]
        raise DataFileError(str(path), problems) from e
