"""agentmem: a local, single-file SQLite store for desktop AI agents.

An append-only conversation log with projections, long-term memory formed only from what the
user said, and consent-gated, redacted exports of agent runs. ``agentmem.open()`` is the front
door; everything else hangs off the returned :class:`Store`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentmem.artifacts import ArtifactInfo
    from agentmem.consent import ConsentStatus
    from agentmem.errors import (
        AgentmemError,
        ArtifactUnavailable,
        ConfigError,
        Conflict,
        ConsentRequired,
        DatabaseBusy,
        DatabaseCorrupt,
        DiskFull,
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
    from agentmem.memory.service import Belief, ConsolidationReport
    from agentmem.store import (
        AppendResult,
        ImportResult,
        RunInfo,
        RunTool,
        SessionInfo,
        Store,
        open,
    )
    from agentmem.trajectory import ExportResult

# Public names resolve lazily (PEP 562) so `import agentmem.cli` stays cheap: the CLI's
# start-up cost is cyclopts plus whatever one command needs, never the whole library.
_LAZY = {
    **dict.fromkeys(
        [
            "AgentmemError",
            "ArtifactUnavailable",
            "ConfigError",
            "Conflict",
            "ConsentRequired",
            "DatabaseBusy",
            "DatabaseCorrupt",
            "DiskFull",
            "EvaluationFailed",
            "EventRejected",
            "EvidenceMismatch",
            "InvalidInput",
            "NotADatabase",
            "NotFound",
            "PolicyRefused",
            "ProviderError",
            "RedactionFailed",
            "Refused",
            "SchemaTooNew",
            "StoreError",
            "UsageError",
        ],
        "agentmem.errors",
    ),
    **dict.fromkeys(
        [
            "AssistantMessageCreated",
            "Event",
            "RunCompleted",
            "RunStarted",
            "SessionClosed",
            "SystemPromptSet",
            "ToolCall",
            "ToolDef",
            "ToolResultCreated",
            "UserMessageCreated",
        ],
        "agentmem.events",
    ),
    **dict.fromkeys(
        ["AppendResult", "ImportResult", "RunInfo", "RunTool", "SessionInfo", "Store", "open"],
        "agentmem.store",
    ),
    **dict.fromkeys(["Belief", "ConsolidationReport"], "agentmem.memory.service"),
    "ArtifactInfo": "agentmem.artifacts",
    "ConsentStatus": "agentmem.consent",
    "ExportResult": "agentmem.trajectory",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__version__ = "0.1.0"

__all__ = [
    "AgentmemError",
    "AppendResult",
    "ArtifactInfo",
    "ArtifactUnavailable",
    "AssistantMessageCreated",
    "Belief",
    "ConfigError",
    "Conflict",
    "ConsentRequired",
    "ConsentStatus",
    "ConsolidationReport",
    "DatabaseBusy",
    "DatabaseCorrupt",
    "DiskFull",
    "EvaluationFailed",
    "Event",
    "EventRejected",
    "EvidenceMismatch",
    "ExportResult",
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
    "RunTool",
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
