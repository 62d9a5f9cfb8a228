"""The one exception tree of agentmem.

Every error a user can cause derives from :class:`AgentmemError`; the CLI and the HTTP API
catch exactly that root and turn it into one line plus a documented exit code or status.
Anything else that escapes is a bug and is reported as an internal error (exit 1 / 500).

::

    AgentmemError                      exit  HTTP
    ├── UsageError                        2   400   bad arguments or settings
    │   ├── ConfigError                   2   400   a configuration value is invalid
    │   └── EncryptionUnavailable         2   400   encrypted file, no cipher or no key here
    ├── NotFound                          3   404   run, session, artifact, belief
    ├── InvalidInput                      4   422   validation, malformed file, unknown type
    │   └── EventRejected                 4   409   valid shape, refused by the log's state
    ├── Conflict                          5   409   same event_id, other content
    │   └── SchemaTooNew                  5   409   database written by newer code
    ├── Refused                           6   403   access refused
    │   ├── ConsentRequired               6   403   consent missing or withdrawn
    │   ├── ArtifactUnavailable           6   403   wrong principal, or expired
    │   └── WrongKey                      6   403   the key does not open the encrypted file
    ├── RedactionFailed                   7   422   verification found a leak (rule + path only)
    ├── PolicyRefused                     8   412   provider assistance refused by policy
    │   └── EvidenceMismatch              8   412   evidence missing, invalid or for another tuple
    ├── EvaluationFailed                  9    —    evaluation did not pass the activation schema
    ├── ProviderError                     —    —    a provider call failed; never reaches a user,
    │                                               formation falls back to deterministic
    └── StoreError                        1   500   the database itself failed (I/O error)
        ├── NotADatabase                  4   422   the file is not an agentmem database
        ├── DatabaseBusy                 10   503   another connection kept the file locked
        ├── DiskFull                     11   507   no space left; nothing was written
        └── DatabaseCorrupt              12   500   SQLite found the file damaged; writes stop

Exit codes 10-12 are the database's state, not the request: retry later (10), free space
(11), or check and restore the file (12).

Lower-level errors (``apsw.*Error``, ``msgspec.ValidationError``) are mapped at the boundary with
``raise ... from exc`` so the cause stays on the chain for ``AGENTMEM_DEBUG=1``.
"""

from __future__ import annotations

__all__ = [
    "AgentmemError",
    "ArtifactUnavailable",
    "ConfigError",
    "Conflict",
    "ConsentRequired",
    "DatabaseBusy",
    "DatabaseCorrupt",
    "DiskFull",
    "EncryptionUnavailable",
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
    "WrongKey",
]


class AgentmemError(Exception):
    """Root of every error a user of agentmem can cause or must handle.

    ``exit_code`` and ``http_status`` are class attributes so the CLI and the HTTP layer map
    errors with one table lookup; ``code`` is the stable machine-readable name used in HTTP
    error bodies and ``--json`` output.
    """

    exit_code: int = 1
    http_status: int = 500
    code: str = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(AgentmemError):
    """Bad arguments or flags: the user asked for something that cannot be meant."""

    exit_code = 2
    http_status = 400
    code = "usage"


class ConfigError(UsageError):
    """A setting (file, environment or argument) has a value outside its allowed set."""

    code = "config"


class EncryptionUnavailable(UsageError):
    """The file is encrypted (or is to be) and this installation cannot: no cipher in the loaded
    SQLite, or no key configured for it. Nothing was read or written."""

    code = "encryption_unavailable"


class NotFound(AgentmemError):
    """The named run, session, artifact or belief does not exist (for this principal)."""

    exit_code = 3
    http_status = 404
    code = "not_found"


class InvalidInput(AgentmemError):
    """Input failed validation; nothing was written."""

    exit_code = 4
    http_status = 422
    code = "invalid_input"


class EventRejected(InvalidInput):
    """A well-formed event the log refuses (closed session, completed run, unknown run).

    Over HTTP it is 409: the request is valid and conflicts with the state it meets (the
    statuses' one rule: 422 for input that is invalid anywhere, 409 for valid input the stored
    state refuses).
    """

    http_status = 409
    code = "event_rejected"


class Conflict(AgentmemError):
    """The request contradicts what is already stored (same event_id, other content)."""

    exit_code = 5
    http_status = 409
    code = "conflict"


class SchemaTooNew(Conflict):
    """The database was written by a newer agentmem; we refuse rather than guess."""

    code = "schema_too_new"


class Refused(AgentmemError):
    """Access refused for a reason the caller cannot fix by changing the request."""

    exit_code = 6
    http_status = 403
    code = "refused"


class ConsentRequired(Refused):
    """Export needs a consent grant stamped on the run, and no withdrawal since."""

    code = "consent_required"


class ArtifactUnavailable(Refused):
    """The artifact belongs to another principal, or it has expired."""

    code = "artifact_unavailable"


class WrongKey(Refused):
    """The configured key does not decrypt the file; it was not modified."""

    code = "wrong_key"


class RedactionFailed(AgentmemError):
    """The verification scan found a secret after replacement: the export fails closed.

    The message names the rule and the JSON path of the hit, never the matched text.
    """

    exit_code = 7
    http_status = 422
    code = "redaction_failed"

    def __init__(self, rule: str, path: str) -> None:
        super().__init__(
            f"redaction verification found a {rule} match at {path}; no artifact was written"
        )
        self.rule = rule
        self.path = path


class PolicyRefused(AgentmemError):
    """A policy forbids what was asked (provider assistance required without evidence)."""

    exit_code = 8
    http_status = 412
    code = "policy_refused"


class EvidenceMismatch(PolicyRefused):
    """An evidence artifact is missing, invalid, or for another exact model tuple."""

    code = "evidence_mismatch"


class EvaluationFailed(AgentmemError):
    """An evaluation ran to completion but did not pass the activation schema."""

    exit_code = 9
    http_status = 422
    code = "evaluation_failed"


class ProviderError(AgentmemError):
    """A provider call failed; ``failure_class`` is the audited reason.

    Formation catches this and falls back to the deterministic result, so it never reaches a
    user as an exit code. ``status`` is the HTTP status when one was received; the two hashes
    identify the request and, when a body arrived, the response, for the audit. ``message``
    must already be content-free.
    """

    code = "provider_error"

    def __init__(
        self,
        failure_class: str,
        message: str,
        *,
        status: int | None = None,
        request_sha256: str | None = None,
        body_sha256: str | None = None,
    ) -> None:
        super().__init__(message)
        self.failure_class = failure_class
        self.status = status
        self.request_sha256 = request_sha256
        self.body_sha256 = body_sha256

    @property
    def retryable(self) -> bool:
        """Whether trying again could help: a transport failure, a timeout, a 429 or a 5xx.

        The formation budget allows no retries within a call; a later consolidation retries
        (ADR-0068).
        """
        if self.failure_class == "http_status":
            return self.status is not None and (self.status == 429 or self.status >= 500)
        return self.failure_class in ("transport", "timeout")


class StoreError(AgentmemError):
    """The database itself failed (I/O, disk full, corruption)."""

    code = "store_error"


class NotADatabase(StoreError):
    """The file exists but is not an agentmem database; it was not modified."""

    exit_code = 4
    http_status = 422
    code = "not_a_database"


class DatabaseBusy(StoreError):
    """Another connection held the lock this operation needed past the busy timeout.

    Nothing was changed; the same call can simply be repeated. Readers never wait for writers
    (WAL), so only writes, and opening a database that is being created, can meet this.
    """

    exit_code = 10
    http_status = 503
    code = "database_busy"


class DiskFull(StoreError):
    """The file system (or a file-size limit) has no room for the write; it was rolled back."""

    exit_code = 11
    http_status = 507
    code = "disk_full"


class DatabaseCorrupt(StoreError):
    """SQLite found the file damaged. The operation was rolled back and the ``Store`` that
    met the damage refuses every later write, so nothing more is built on a broken file."""

    exit_code = 12
    http_status = 500
    code = "database_corrupt"
