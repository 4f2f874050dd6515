"""The language-model port and its backends.

`LLM` is the protocol the turn path depends on; `RulesLLM` and `ScriptedLLM` are the offline
and test backends, `make_llm` picks one by name. The `openai` backend lives in
`engine.llm.openai`, imported only when asked for, so the offline path never loads `openai`.
"""

from engine.llm.factory import BACKENDS, make_llm
from engine.llm.port import LLM, Parsed, ParseRequest, Phrased, PhraseRequest, StreamingLLM, TextSink
from engine.llm.rules import RulesLLM
from engine.llm.scripted import ScriptedAnswer, ScriptedLLM

__all__ = [
    "BACKENDS",
    "LLM",
    "ParseRequest",
    "Parsed",
    "PhraseRequest",
    "Phrased",
    "RulesLLM",
    "ScriptedAnswer",
    "ScriptedLLM",
    "StreamingLLM",
    "TextSink",
    "make_llm",
]
