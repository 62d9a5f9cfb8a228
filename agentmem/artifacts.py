"""Content-addressed artifacts: one authorized read path, expiry, and one deletion path.

A blob is stored once under a platform-derived key, HMAC-SHA256 of its content under a secret
generated for this database at ``init``: callers never choose keys, and a key reveals nothing
about content to someone who lacks the database. Artifact rows point at blobs and carry the
principal, the run and ``expires_at``. Every read goes through :func:`read`, which refuses
another principal's artifact and an expired one at once, before any sweep. The sweeper
(:func:`sweep`) is the only code that deletes artifacts or blobs (ADR-0032 decision 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, cast

import msgspec

from agentmem.db import where
from agentmem.errors import ArtifactUnavailable, NotFound
from agentmem.events import format_time, now_text

if TYPE_CHECKING:
    from agentmem.log import EventLog

__all__ = ["ArtifactInfo", "SweepResult", "list_artifacts", "put", "read", "sweep"]


class ArtifactInfo(msgspec.Struct, frozen=True):
    """An artifact row (the blob's content is read separately, through :func:`read`)."""

    artifact_id: str
    origin: str
    run_id: str | None
    principal: str
    media_type: str
    doc_schema: str
    size: int
    created_at: str
    expires_at: str
    blob_key: str

    def expired(self, now: str | None = None) -> bool:
        """True once ``expires_at`` has passed: the artifact is then unreadable."""
        return self.expires_at <= (now or now_text())


# The columns are the struct's fields, so INSERT order and row binding cannot drift from it.
_FIELDS = tuple(field.name for field in msgspec.structs.fields(ArtifactInfo))
_COLUMNS = ", ".join(_FIELDS)


def _bind(row: Sequence[object]) -> ArtifactInfo:
    """An artifacts row as its struct, bound by column name (msgspec checks each type)."""
    return msgspec.convert(dict(zip(_FIELDS, row, strict=True)), ArtifactInfo)


class SweepResult(msgspec.Struct, frozen=True):
    """What one sweep deleted."""

    artifacts: int
    blobs: int
    bytes: int


def _blob_key(store: EventLog, data: bytes) -> str:
    import hashlib
    import hmac

    secret = store.conn.execute("SELECT value FROM meta WHERE key = 'blob_secret'").get
    return hmac.new(secret, data, hashlib.sha256).hexdigest()


def put(
    store: EventLog,
    *,
    origin: str,
    data: bytes,
    principal: str,
    media_type: str,
    doc_schema: str,
    run_id: str | None = None,
    retention_days: int | None = None,
) -> ArtifactInfo:
    """Store ``data`` as a new artifact (inside the caller's transaction, if any)."""
    import secrets

    days = retention_days or store.settings.artifacts.retention_days
    now = datetime.now(UTC)
    info = ArtifactInfo(
        artifact_id="art-" + secrets.token_hex(12),
        origin=origin,
        run_id=run_id,
        principal=principal,
        media_type=media_type,
        doc_schema=doc_schema,
        size=len(data),
        created_at=format_time(now),
        expires_at=format_time(now + timedelta(days=days)),
        blob_key=_blob_key(store, data),
    )
    with store.transaction():
        store.conn.execute(
            "INSERT INTO blobs (blob_key, size, data) VALUES (?, ?, ?) "
            "ON CONFLICT (blob_key) DO NOTHING",
            (info.blob_key, len(data), data),
        )
        store.conn.execute(
            f"INSERT INTO artifacts ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            msgspec.structs.astuple(info),
        )
    return info


def info(store: EventLog, artifact_id: str) -> ArtifactInfo:
    """The artifact row, without any access check (callers must still use :func:`read`)."""
    rows = store.conn.execute(
        f"SELECT {_COLUMNS} FROM artifacts WHERE artifact_id = ?", (artifact_id,)
    ).fetchall()
    if not rows:
        raise NotFound(f"no artifact {artifact_id!r}")
    return _bind(rows[0])


def read(
    store: EventLog, artifact_id: str, *, principal: str | None = None, operator: bool = False
) -> tuple[ArtifactInfo, bytes]:
    """The one authorized read path: the owner must be ``principal`` (the store's principal
    when ``None``), unless ``operator``; never expired."""
    row = info(store, artifact_id)
    if not operator and row.principal != store.acting_for(principal):
        raise ArtifactUnavailable(f"artifact {artifact_id!r} belongs to another principal")
    if row.expired():
        raise ArtifactUnavailable(
            f"artifact {artifact_id!r} expired at {row.expires_at} "
            "(retention ended or consent was withdrawn); it is no longer readable"
        )
    data = store.conn.execute("SELECT data FROM blobs WHERE blob_key = ?", (row.blob_key,)).get
    return row, data


def list_artifacts(
    store: EventLog,
    *,
    principal: str | None = None,
    all_principals: bool = False,
    include_expired: bool = False,
) -> list[ArtifactInfo]:
    """Artifacts of ``principal`` (the store's principal when ``None``; every principal's with
    ``all_principals``, an administrator's listing), newest first."""
    live = [] if include_expired else [("expires_at > ?", [now_text()])]
    owner = store.principal_filter(principal, all_principals)
    condition, params = where({"principal": owner}, *live)
    sql = f"SELECT {_COLUMNS} FROM artifacts{condition} ORDER BY created_at DESC, artifact_id"
    return [_bind(row) for row in store.conn.execute(sql, params)]


def sweep(store: EventLog) -> SweepResult:
    """Delete expired artifacts and unreferenced blobs, then give the pages back.

    ``secure_delete`` (set on every connection) zeroes the freed content in the file;
    ``incremental_vacuum`` returns the pages to the filesystem, and a TRUNCATE checkpoint moves
    the WAL into the file and empties it, so old page images do not linger there either.
    """
    now = now_text()
    with store.transaction():
        artifacts = store.conn.execute(
            "DELETE FROM artifacts WHERE expires_at <= ? RETURNING artifact_id", (now,)
        ).fetchall()
        blobs = store.conn.execute(
            "DELETE FROM blobs WHERE NOT EXISTS "
            "(SELECT 1 FROM artifacts WHERE artifacts.blob_key = blobs.blob_key) "
            "RETURNING size"
        ).fetchall()
    if artifacts or blobs:
        list(store.conn.execute("PRAGMA incremental_vacuum"))
        list(store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)"))
    freed = sum(cast("int", size) for (size,) in blobs)  # blobs.size: INTEGER NOT NULL
    return SweepResult(len(artifacts), len(blobs), freed)
