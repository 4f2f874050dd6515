"""The offline backend: templates as they are, parsing left to the rule extractors."""

from __future__ import annotations

from engine.llm.port import Parsed, ParseRequest, Phrased, PhraseRequest


class RulesLLM:
    """Offline backend: phrasing is the template itself; parsing is left to the rule extractors."""

    name = "rules"
    model = "rules"

    def phrase(self, request: PhraseRequest) -> Phrased:
        return Phrased(text=request.content)

    def parse(self, request: ParseRequest) -> Parsed:
        # Rules already ran before the engine asked; a rules backend cannot do better.
        return Parsed(value=None)
