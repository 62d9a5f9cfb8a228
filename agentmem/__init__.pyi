# The public API, each name listed once. Type checkers read this stub; at run time
# agentmem/__init__.py reads the same imports to resolve each name lazily on first use.

from agentmem.artifacts import ArtifactInfo as ArtifactInfo
from agentmem.consent import ConsentStatus as ConsentStatus
from agentmem.errors import AgentmemError as AgentmemError
from agentmem.errors import ArtifactUnavailable as ArtifactUnavailable
from agentmem.errors import ConfigError as ConfigError
from agentmem.errors import Conflict as Conflict
from agentmem.errors import ConsentRequired as ConsentRequired
from agentmem.errors import DatabaseBusy as DatabaseBusy
from agentmem.errors import DatabaseCorrupt as DatabaseCorrupt
from agentmem.errors import DiskFull as DiskFull
from agentmem.errors import EncryptionUnavailable as EncryptionUnavailable
from agentmem.errors import EvaluationFailed as EvaluationFailed
from agentmem.errors import EventRejected as EventRejected
from agentmem.errors import EvidenceMismatch as EvidenceMismatch
from agentmem.errors import InvalidInput as InvalidInput
from agentmem.errors import NotADatabase as NotADatabase
from agentmem.errors import NotFound as NotFound
from agentmem.errors import PolicyRefused as PolicyRefused
from agentmem.errors import ProviderError as ProviderError
from agentmem.errors import RedactionFailed as RedactionFailed
from agentmem.errors import Refused as Refused
from agentmem.errors import SchemaTooNew as SchemaTooNew
from agentmem.errors import StoreError as StoreError
from agentmem.errors import UsageError as UsageError
from agentmem.errors import WrongKey as WrongKey
from agentmem.events import AssistantMessageCreated as AssistantMessageCreated
from agentmem.events import Event as Event
from agentmem.events import RunCompleted as RunCompleted
from agentmem.events import RunStarted as RunStarted
from agentmem.events import SessionClosed as SessionClosed
from agentmem.events import SystemPromptSet as SystemPromptSet
from agentmem.events import ToolCall as ToolCall
from agentmem.events import ToolDef as ToolDef
from agentmem.events import ToolResultCreated as ToolResultCreated
from agentmem.events import UserMessageCreated as UserMessageCreated
from agentmem.log import BeliefCounts as BeliefCounts
from agentmem.log import EventLog as EventLog
from agentmem.log import StatusInfo as StatusInfo
from agentmem.memory.beliefs import Belief as Belief
from agentmem.memory.service import ConsolidationReport as ConsolidationReport
from agentmem.store import AppendResult as AppendResult
from agentmem.store import ImportResult as ImportResult
from agentmem.store import RunInfo as RunInfo
from agentmem.store import RunTool as RunTool
from agentmem.store import SessionInfo as SessionInfo
from agentmem.store import Store as Store
from agentmem.store import open as open
from agentmem.trajectory import ExportResult as ExportResult

__version__: str
__all__: list[str]
