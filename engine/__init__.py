"""innerloop: explicit finite-state-machine dialogue flows, persisted per turn.

The public surface; everything a flow author, a bot author or an embedding program needs.
"""

from engine.bot import Bot, Intent
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
    SessionNotFound,
    StoreError,
    UnexpectedLLMCall,
    UnknownNameError,
    UnrecordedLLMCall,
)
from engine.extract import Invalid, Parser
from engine.flow import Flow
from engine.llm import (
    LLM,
    Parsed,
    ParseRequest,
    Phrased,
    PhraseRequest,
    RulesLLM,
    ScriptedLLM,
    StreamingLLM,
    TextSink,
)
from engine.models import (
    Entered,
    Fired,
    FlowFrame,
    FlowRun,
    Message,
    Notice,
    RecordDraft,
    Resources,
    SessionState,
    Slots,
    StoredRecord,
    TurnTrace,
)
from engine.registry import Registry, default_registry
from engine.runtime import Engine, TurnResult
from engine.states import Aside, Ask, Final, Step, T
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
    "Entered",
    "EntryContext",
    "Final",
    "Fired",
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
    "Notice",
    "ParseRequest",
    "Parsed",
    "Parser",
    "PhraseRequest",
    "Phrased",
    "RecordDraft",
    "Registry",
    "Resources",
    "RulesLLM",
    "SchemaError",
    "ScriptError",
    "ScriptedLLM",
    "SessionNotFound",
    "SessionState",
    "Slots",
    "SqlStore",
    "Step",
    "StepContext",
    "Store",
    "StoreError",
    "StoredRecord",
    "StreamingLLM",
    "T",
    "TextSink",
    "TurnResult",
    "TurnTrace",
    "UnexpectedLLMCall",
    "UnknownNameError",
    "UnrecordedLLMCall",
    "default_registry",
]
