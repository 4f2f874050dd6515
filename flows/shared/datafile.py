"""Reading a YAML data file into its pydantic model, with messages that say what to fix."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated, TypeVar

import yaml
from pydantic import BaseModel, BeforeValidator, ValidationError

from engine.errors import DataFileError
from engine.extract import fold

M = TypeVar("M", bound=BaseModel)
# libyaml's parser when PyYAML was built with it: the same documents, read about ten times faster
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> object:
    """A YAML document's data, as `yaml.safe_load` reads it (errors are `yaml.YAMLError`s)."""
    return yaml.load(text, Loader=_LOADER)


def load_yaml(path: Path, model: type[M]) -> M:
    """`path` validated as `model`; DataFileError names the file and each problem by its place."""
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
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


def word(entry: object, *, accents: bool = False) -> str:
    """A word-table entry: lower-case text without extra spaces, as messages are folded to (with their
    accents when `accents`: a table matched on text that keeps them, as engine.extract.choice does)."""
    if not isinstance(entry, str) or not entry or entry != fold(entry, accents=accents):
        raise ValueError(f"{entry!r} must be lower-case text without extra spaces")
    return entry


def word_list(value: object, *, accents: bool = False) -> object:
    """A word table's list (a field validator's check): not empty, each entry a `word`, none twice."""
    if not isinstance(value, list) or not value:
        raise ValueError("must be a non-empty list")
    seen: set[str] = set()
    for entry in value:
        if word(entry, accents=accents) in seen:
            raise ValueError(f"{entry!r} is listed twice")
        seen.add(entry)
    return value


# A word table's field: the checks above run before the type's own
WordSet = Annotated[frozenset[str], BeforeValidator(word_list)]
WordTuple = Annotated[tuple[str, ...], BeforeValidator(word_list)]
AccentedWordTuple = Annotated[tuple[str, ...], BeforeValidator(partial(word_list, accents=True))]
