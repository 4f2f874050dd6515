"""innerloop: explicit finite-state-machine dialogue flows, persisted per turn.

The public surface; everything a flow author, a bot author or an embedding program needs:
the parts of a flow and a bot, the answer readers (`rating`, `choice`, `listed_choice`, `picked`, `free_text`,
`words_answer`, ...), the store, the backends, and `load_bot` for a bot that is not installed. The pytest
harness, `dialogue`, is a fixture the installed package registers (engine/authoring/testing.py).
"""

from engine.ahead import Ahead
from engine.amend import (
    Amendable,
    Amends,
    Revision,
    accepted,
    asks_to_change,
    review,
    reviewed,
    revise,
    unrevised,
)
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
    SessionBusy,
    SessionNotFound,
    SlotRejected,
    StoreError,
    UnexpectedLLMCall,
    UnknownNameError,
    UnrecordedLLMCall,
)
from engine.extract import EMPTY, Empty, Invalid, Parser, choice, free_text, integer, optional, rating
from engine.feeling import sentiment
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
from engine.names import person_name
from engine.no_answer import words_answer
from engine.options import listed_choice, picked
from engine.registry import Registry, default_registry, load_bot
from engine.runtime import Engine, TurnResult
from engine.states import JUST_BEFORE, Aside, Ask, Correctable, Final, Step, T
from engine.store import MemoryStore, Store
from engine.store.sql import SqlStore
from engine.yesno import yes_no

__all__ = [
    "EMPTY",
    "JUST_BEFORE",
    "LLM",
    "Ahead",
    "Amendable",
    "Amends",
    "Aside",
    "Ask",
    "Bot",
    "ConflictError",
    "Correctable",
    "DataFileError",
    "DefinitionError",
    "Empty",
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
    "Revision",
    "RulesLLM",
    "SchemaError",
    "ScriptError",
    "ScriptedLLM",
    "SessionBusy",
    "SessionNotFound",
    "SessionState",
    "SlotRejected",
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
    "accepted",
    "asks_to_change",
    "choice",
    "default_registry",
    "free_text",
    "integer",
    "listed_choice",
    "load_bot",
    "optional",
    "person_name",
    "picked",
    "rating",
    "review",
    "reviewed",
    "revise",
    "sentiment",
    "unrevised",
    "words_answer",
    "yes_no",
]
