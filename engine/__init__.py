"""innerloop: explicit finite-state-machine dialogue flows, persisted per turn.

The public surface; everything a flow author, a bot author or an embedding program needs.
"""

from engine.bot import Bot, Intent, all_bots, all_flows, get_bot, register
from engine.context import EntryContext, MainContext, StepContext
from engine.errors import (
    ConflictError,
    DataFileError,
    DefinitionError,
    EngineError,
    InputRejected,
    LLMError,
    LLMResponseError,
    LLMUnavailable,
    SchemaError,
    ScriptError,
    StoreError,
    UnexpectedLLMCall,
    UnknownNameError,
)
from engine.extract import Invalid, Parser
from engine.flow import Aside, Ask, Final, Flow, Slots, Step, T
from engine.llm import LLM, Parsed, ParseRequest, Phrased, PhraseRequest, RulesLLM, ScriptedLLM
from engine.models import FlowFrame, FlowRun, Message, RecordDraft, Resources, SessionState, StoredRecord, TurnTrace
from engine.runtime import Engine, TurnResult
from engine.store import MemoryStore, Store
from engine.store.sql import SqlStore

__all__ = [
    "LLM",
    "Aside",
    "Ask",
    "Bot",
    "ConflictError",
    "DataFileError",
    "DefinitionError",
    "Engine",
    "EngineError",
    "EntryContext",
    "Final",
    "Flow",
    "FlowFrame",
    "FlowRun",
    "InputRejected",
    "Intent",
    "Invalid",
    "LLMError",
    "LLMResponseError",
    "LLMUnavailable",
    "MainContext",
    "MemoryStore",
    "Message",
    "ParseRequest",
    "Parsed",
    "Parser",
    "PhraseRequest",
    "Phrased",
    "RecordDraft",
    "Resources",
    "RulesLLM",
    "SchemaError",
    "ScriptError",
    "ScriptedLLM",
    "SessionState",
    "Slots",
    "SqlStore",
    "Step",
    "StepContext",
    "Store",
    "StoreError",
    "StoredRecord",
    "T",
    "TurnResult",
    "TurnTrace",
    "UnexpectedLLMCall",
    "UnknownNameError",
    "all_bots",
    "all_flows",
    "get_bot",
    "register",
]
