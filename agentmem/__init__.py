"""agentmem: a local, single-file SQLite store for desktop AI agents.

An append-only conversation log with projections, long-term memory formed only from what the
user said, and consent-gated, redacted exports of agent runs. ``agentmem.open()`` is the front
door; everything else hangs off the returned :class:`Store`.
"""

from agentmem.errors import (
    AgentmemError,
    ArtifactUnavailable,
    ConfigError,
    Conflict,
    ConsentRequired,
    EvaluationFailed,
    EventRejected,
    EvidenceMismatch,
    InvalidInput,
    NotADatabase,
    NotFound,
    PolicyRefused,
    ProviderError,
    RedactionFailed,
    Refused,
    SchemaTooNew,
    StoreError,
    UsageError,
)
from agentmem.events import (
    AssistantMessageCreated,
    Event,
    RunCompleted,
    RunStarted,
    SessionClosed,
    SystemPromptSet,
    ToolCall,
    ToolDef,
    ToolResultCreated,
    UserMessageCreated,
)
from agentmem.store import AppendResult, ImportResult, RunInfo, SessionInfo, Store, open

__version__ = "0.1.0"

__all__ = [
    "AgentmemError",
    "AppendResult",
    "ArtifactUnavailable",
    "AssistantMessageCreated",
    "ConfigError",
    "Conflict",
    "ConsentRequired",
    "EvaluationFailed",
    "Event",
    "EventRejected",
    "EvidenceMismatch",
    "ImportResult",
    "InvalidInput",
    "NotADatabase",
    "NotFound",
    "PolicyRefused",
    "ProviderError",
    "RedactionFailed",
    "Refused",
    "RunCompleted",
    "RunInfo",
    "RunStarted",
    "SchemaTooNew",
    "SessionClosed",
    "SessionInfo",
    "Store",
    "StoreError",
    "SystemPromptSet",
    "ToolCall",
    "ToolDef",
    "ToolResultCreated",
    "UsageError",
    "UserMessageCreated",
    "__version__",
    "open",
]
