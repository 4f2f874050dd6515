"""The public surface is exactly `engine.__all__`, and the exception tree hangs off EngineError."""

from __future__ import annotations

import inspect
import typing

import engine
import engine.errors as errors
import engine.extract as extract
import engine.feeling as feeling
import engine.names as names
import engine.yesno as yesno


def test_all_matches_the_public_names() -> None:
    public = {name for name in dir(engine) if not name.startswith("_")}
    modules = {name for name, value in vars(engine).items() if inspect.ismodule(value)}
    assert set(engine.__all__) == public - modules
    assert len(engine.__all__) == len(set(engine.__all__))


def test_every_exported_name_resolves() -> None:
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def test_every_error_derives_from_engine_error_and_is_drawn_in_the_docstring() -> None:
    classes = [c for c in vars(errors).values() if inspect.isclass(c) and issubclass(c, Exception)]
    assert classes
    for cls in classes:
        assert issubclass(cls, errors.EngineError)
        assert cls.__name__ in (errors.__doc__ or ""), f"{cls.__name__} missing from the tree drawing"


def test_errors_carry_where_they_happened() -> None:
    e = errors.ConflictError("abc123", 4)
    assert (e.session, e.expected_version) == ("abc123", 4)
    assert "session=abc123" in str(e)
    d = errors.DefinitionError("bad", flow="f", state="s")
    assert (d.flow, d.state) == ("f", "s") and str(d) == "bad [flow=f, state=s]"
    s = errors.ScriptError("x.yaml", "unknown key 'foo'", turn=3)
    assert str(s) == "x.yaml, turn 3: unknown key 'foo'"


def test_every_answer_reader_is_public() -> None:
    # a flow author imports from `engine` alone (docs/authoring.md): a reader left in
    # engine.extract would send them looking for it
    # (and the modules split off it, issue 22: each kind of reader in its own)
    functions = [
        (n, f)
        for module in (extract, feeling, names, yesno)
        for n, f in vars(module).items()
        if inspect.isfunction(f) and not n.startswith("_")
    ]
    readers = [name for name, fn in functions if typing.get_type_hints(fn).get("return") is extract.Parser]
    assert readers and sorted(set(readers) - set(engine.__all__)) == []
