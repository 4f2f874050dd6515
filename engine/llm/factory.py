"""Picking a backend from settings: the chat's and replay's `--llm` and `--model`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import UnknownNameError
from engine.llm.port import LLM
from engine.llm.rules import RulesLLM

if TYPE_CHECKING:
    from engine.llm.cassette import Cassette, ReplayTransport

BACKENDS = ("rules", "openai")


def make_llm(name: str, model: str | None = None) -> LLM:
    """The backend called `name`; OpenAILLM raises LLMUnavailable without OPENAI_API_KEY."""
    if name == "rules":
        return RulesLLM()
    if name == "openai":
        # Imported here so the offline path never loads the openai client.
        from engine.llm.openai import OpenAILLM

        return OpenAILLM(model)
    raise UnknownNameError("llm backend", name, list(BACKENDS))


def recording_llm(model: str | None = None, reuse: Path | None = None) -> tuple[LLM, Cassette]:
    """The openai backend, talking to its server as usual while every exchange goes into the
    returned cassette (save it after the run). `reuse`: an earlier recording whose answers
    stand in for the server on the requests it holds (RecordingTransport)."""
    import httpx2

    from engine.llm.cassette import Cassette, RecordingTransport
    from engine.llm.openai import OpenAILLM

    cassette = Cassette(model="")
    known = Cassette.load(reuse) if reuse is not None and reuse.exists() else None
    transport = RecordingTransport(cassette, known=known)
    # formats={}: each recording negotiates the server's format itself, as its replay will
    llm = OpenAILLM(model, http_client=httpx2.Client(transport=transport), formats={})
    cassette.model = llm.model
    return llm, cassette


def replaying_llm(path: Path) -> tuple[LLM, ReplayTransport]:
    """The openai backend answered from the recording at `path`, offline: no server, no key.
    The transport tells afterwards how many recorded answers were never asked for."""
    import httpx2

    from engine.llm.cassette import Cassette, ReplayTransport
    from engine.llm.openai import OpenAILLM

    cassette = Cassette.load(path)
    transport = ReplayTransport(cassette, source=str(path))
    client = httpx2.Client(transport=transport)
    llm = OpenAILLM(
        cassette.model,
        base_url="http://recorded.invalid/v1",
        api_key="recorded",
        backoff=0.0,
        http_client=client,
        formats={},
    )
    return llm, transport
