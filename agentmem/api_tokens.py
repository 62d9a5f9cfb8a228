"""The HTTP API's bearer tokens: one operator token, and tokens bound to one principal each.

Two files in the user config directory (``AGENTMEM_CONFIG_DIR`` overrides it), both 0600:

- ``api-token`` holds the **operator token** in clear (the operator's own client reads it).
  It may act for any principal, chosen per request with ``X-Agentmem-Principal``.
- ``principal-tokens`` lists **principal tokens**, one JSON object per line with an id, the
  principal, the SHA-256 of the token and when it was issued. The token itself is shown once
  when issued and never stored, so a copy of the file lets no one in. A principal token acts
  only as its principal: a request naming another one is refused (HTTP 403).

A server re-reads a file whenever its stat signature changes, so rotation, issue and revocation
take effect from the next request without a restart. A file that becomes open to other users
matches no token (the server fails closed).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import os
import secrets
import stat
import tempfile
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import msgspec

from agentmem.config import Principal
from agentmem.errors import NotFound, UsageError

__all__ = [
    "CONFIG_DIR_ENV",
    "PRINCIPAL_TOKENS_FILE_NAME",
    "TOKEN_FILE_NAME",
    "Caller",
    "PrincipalToken",
    "TokenRing",
    "default_token_path",
    "ensure_token",
    "issue_principal_token",
    "list_principal_tokens",
    "principal_tokens_path",
    "read_token",
    "revoke_principal_token",
    "rotate_token",
]

TOKEN_FILE_NAME = "api-token"
PRINCIPAL_TOKENS_FILE_NAME = "principal-tokens"
#: Overrides the directory holding the token files (tests, portable installs).
CONFIG_DIR_ENV = "AGENTMEM_CONFIG_DIR"

log = logging.getLogger("agentmem.http")
_T = TypeVar("_T")


class PrincipalToken(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One issued principal token as stored: never the token, only its SHA-256."""

    token_id: str
    principal: Principal
    sha256: str
    created_at: str


class Caller(msgspec.Struct, frozen=True):
    """Who a valid token speaks for: the operator (any principal) or one bound principal."""

    bound_principal: str | None = None


_line_decoder = msgspec.json.Decoder(PrincipalToken)
_line_encoder = msgspec.json.Encoder()


def default_token_path() -> Path:
    """``$AGENTMEM_CONFIG_DIR/api-token``, else ``<user config dir>/agentmem/api-token``."""
    explicit = os.environ.get(CONFIG_DIR_ENV)
    if explicit:
        return Path(explicit) / TOKEN_FILE_NAME
    import platformdirs

    return platformdirs.user_config_path("agentmem") / TOKEN_FILE_NAME


def principal_tokens_path(token_file: Path) -> Path:
    """The principal-token list kept next to an operator token file."""
    return token_file.with_name(PRINCIPAL_TOKENS_FILE_NAME)


def _unsafe_mode(st: os.stat_result) -> bool:
    """True when someone other than the owner may read the file (POSIX permission bits)."""
    return os.name == "posix" and bool(st.st_mode & (stat.S_IRWXG | stat.S_IRWXO))


def _write_private(path: Path, text: str, *, replace: bool) -> bool:
    """Write ``text`` to ``path`` atomically with mode 0600; False if it existed (no replace).

    The text goes to a private temporary file first (``mkstemp`` creates it 0600), then is
    linked into place (create only if absent) or renamed over the old file, so no reader ever
    sees a half-written or world-readable file.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write the token file {path}: {exc.strerror}") from exc
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def ensure_token(path: Path) -> bool:
    """Create the operator token file if it is missing; True when a new token was created."""
    if path.exists():
        return False
    return _write_private(path, secrets.token_urlsafe(32) + "\n", replace=False)


def rotate_token(path: Path) -> None:
    """Replace the operator token: running servers accept only the new one from now on."""
    _write_private(path, secrets.token_urlsafe(32) + "\n", replace=True)


def _read_private(path: Path, what: str) -> str:
    try:
        st = path.stat()
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the {what} {path}: {exc}") from exc
    if _unsafe_mode(st):
        raise UsageError(
            f"the {what} {path} is open to other users (mode {stat.S_IMODE(st.st_mode):04o}); "
            "make it private to its owner (chmod 600) or replace it"
        )
    return text


def read_token(path: Path) -> str:
    """The operator token in ``path``; :class:`UsageError` if missing, empty or open to others."""
    try:
        text = _read_private(path, "API token file").strip()
    except FileNotFoundError as exc:
        raise UsageError(f"no API token file at {path}") from exc
    if not text or not text.isascii() or not text.isprintable():
        raise UsageError(f"the API token file {path} holds no usable token; rotate it")
    return text


def list_principal_tokens(path: Path) -> list[PrincipalToken]:
    """Every issued principal token (id, principal, digest, date) in ``path``; [] if none."""
    try:
        text = _read_private(path, "principal token list")
    except FileNotFoundError:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            found.append(_line_decoder.decode(line))
        except msgspec.DecodeError as exc:
            raise UsageError(f"{path}, line {number}: not a principal token record") from exc
    return found


def _save(path: Path, tokens: list[PrincipalToken]) -> None:
    text = "".join(_line_encoder.encode(t).decode("ascii") + "\n" for t in tokens)
    _write_private(path, text, replace=True)


def _digest(token: str | bytes) -> str:
    raw = token.encode("ascii") if isinstance(token, str) else token
    return hashlib.sha256(raw).hexdigest()


def issue_principal_token(path: Path, principal: str) -> tuple[PrincipalToken, str]:
    """Issue a token bound to ``principal``; returns its record and the token (shown once)."""
    try:
        principal = msgspec.convert(principal, Principal)
    except msgspec.ValidationError as exc:
        raise UsageError("a principal is 1 to 128 printable characters") from exc
    token = "amp_" + secrets.token_urlsafe(32)
    record = PrincipalToken(
        token_id="tok-" + secrets.token_hex(6),
        principal=principal,
        sha256=_digest(token),
        created_at=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
    )
    _save(path, [*list_principal_tokens(path), record])
    return record, token


def revoke_principal_token(path: Path, token_id: str) -> PrincipalToken:
    """Remove one principal token; running servers refuse it from their next request."""
    tokens = list_principal_tokens(path)
    kept = [t for t in tokens if t.token_id != token_id]
    if len(kept) == len(tokens):
        raise NotFound(f"no principal token {token_id!r}")
    _save(path, kept)
    return next(t for t in tokens if t.token_id == token_id)


class _Watched:
    """A file's parsed content, re-read when its stat signature changes; None when unusable."""

    def __init__(self, path: Path, parse: Callable[[Path], _T]) -> None:
        self.path = path
        self._parse = parse
        self._lock = threading.Lock()
        self._signature: tuple[int, ...] | None = None
        self._value: object = None

    def current(self) -> object:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        signature = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_size, st.st_mode)
        with self._lock:
            if signature != self._signature:
                try:
                    self._value = self._parse(self.path)
                except UsageError as exc:
                    log.warning("refusing the tokens of %s: %s", self.path, exc.message)
                    self._value = None
                self._signature = signature
            return self._value


class TokenRing:
    """The tokens a running server accepts, as the files say at this moment.

    A stat per file per request is cheap, and it makes rotation, issue and revocation
    immediate. Every candidate is compared in constant time.
    """

    def __init__(self, token_file: Path) -> None:
        self._operator = _Watched(token_file, lambda p: read_token(p).encode("ascii"))
        self._principals = _Watched(principal_tokens_path(token_file), list_principal_tokens)

    def identify(self, given: str) -> Caller | None:
        """The caller a presented token stands for, or ``None`` for no valid token."""
        raw = given.encode("utf-8", "replace")
        operator = self._operator.current()
        matched: Caller | None = None
        if isinstance(operator, bytes) and hmac.compare_digest(raw, operator):
            matched = Caller()
        digest = _digest(raw)
        tokens = self._principals.current()
        for record in tokens if isinstance(tokens, list) else ():
            if hmac.compare_digest(digest, record.sha256):
                matched = Caller(bound_principal=record.principal)
        return matched
