"""Picking a backend from settings: the chat's and replay's `--llm` and `--model`."""

from __future__ import annotations

from engine.errors import UnknownNameError
from engine.llm.port import LLM
from engine.llm.rules import RulesLLM

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
