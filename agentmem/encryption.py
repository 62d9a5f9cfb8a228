"""Encryption at rest: SQLite3 Multiple Ciphers under the same apsw module, and where keys live.

The cipher comes from the ``apsw-sqlite3mc`` distribution, which installs the very ``apsw``
module that ``apsw`` does (one replaces the other), so it cannot be a plain extra next to
``apsw``: :func:`cipher_available` checks at run time that the loaded apsw carries the cipher
(``apsw.mc_version``). Every database file is keyed right after it is opened
(:func:`unlock`, called by :func:`agentmem.db.connect`): an encrypted file is recognised by its
header (the first 16 bytes are not SQLite's magic, while bytes 16-23, which SQLite3 Multiple
Ciphers keeps in the clear, still describe a page layout), so without the cipher it is refused
with a message naming the extra, not SQLite's "file is not a database".

Keys are 256 bits. They come from the file named by ``AGENTMEM_KEY_FILE`` (64 hex digits; for
headless use) or else from the OS keyring (service ``agentmem``, one entry per database path,
a random key made when the file is encrypted); never from the command line, and never printed
or logged. With ``AGENTMEM_KEY_FILE`` set, a new database is created encrypted. The cipher is
ChaCha20-Poly1305 (SQLite3 Multiple Ciphers' default: authenticated, so a wrong key or a
tampered page is an error, not garbage).

:func:`convert` encrypts or decrypts an existing file through ``VACUUM INTO`` a temporary file
beside it (with the target's cipher settings in its URI) and an atomic rename.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

import apsw

from agentmem.errors import (
    DatabaseBusy,
    EncryptionUnavailable,
    InvalidInput,
    UsageError,
    WrongKey,
)

__all__ = [
    "CIPHER",
    "KEY_FILE_ENV",
    "cipher_available",
    "convert",
    "describe",
    "file_state",
    "key_for",
    "require_cipher",
    "unlock",
    "unlock_as",
]

KEY_FILE_ENV = "AGENTMEM_KEY_FILE"
CIPHER = "chacha20"
KEYRING_SERVICE = "agentmem"
_MAGIC = b"SQLite format 3\x00"
_EXTRA = (
    "agentmem's encryption extra (pip install 'agentmem[encryption]', then "
    "pip install --force-reinstall --no-deps apsw-sqlite3mc, whose apsw module has the cipher)"
)


def cipher_available() -> bool:
    """Whether the loaded apsw module is SQLite3 Multiple Ciphers' build."""
    return hasattr(apsw, "mc_version")


def require_cipher(what: str) -> None:
    """Refuse ``what`` with a message naming the extra when the loaded apsw has no cipher."""
    if not cipher_available():
        raise EncryptionUnavailable(f"{what} needs {_EXTRA}")


def file_state(path: str | os.PathLike[str]) -> str:
    """``missing``, ``empty``, ``plain`` (an SQLite header), ``encrypted`` or ``unknown``."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return "missing"
    except (IsADirectoryError, PermissionError):
        return "unknown"
    if not header:
        return "empty"
    if header.startswith(_MAGIC):
        return "plain"
    if len(header) >= 24 and _looks_like_layout(header[16:24]):
        return "encrypted"
    return "unknown"


def _looks_like_layout(clear: bytes) -> bool:
    """Bytes 16-23 of an SQLite3 Multiple Ciphers file: page size, file format versions,
    reserved bytes per page (the cipher's nonce and tag), and the fixed payload fractions."""
    page_size = int.from_bytes(clear[0:2], "big")
    power_of_two = page_size == 1 or (
        512 <= page_size <= 32768 and page_size & (page_size - 1) == 0
    )
    return (
        power_of_two
        and clear[2] in (1, 2)
        and clear[3] in (1, 2)
        and clear[4] > 0
        and clear[5:8] == b"\x40\x20\x20"
    )


def key_for(path: str | os.PathLike[str], *, create: bool = False) -> bytes | None:
    """The key for the database at ``path``: the key file, else the OS keyring; ``None`` when
    neither has one. With ``create`` a missing keyring entry is made (a random key)."""
    named = os.environ.get(KEY_FILE_ENV)
    if named:
        return _read_key_file(Path(named))
    keyring = _keyring()
    account = _account(path)
    try:
        stored = keyring.get_password(KEYRING_SERVICE, account)
        if stored is None and create:
            import secrets

            stored = secrets.token_hex(32)
            keyring.set_password(KEYRING_SERVICE, account, stored)
    except keyring.errors.KeyringError as exc:
        raise EncryptionUnavailable(
            f"no usable OS keyring here ({type(exc).__name__}); "
            f"set {KEY_FILE_ENV} to a file holding the key instead"
        ) from exc
    return bytes.fromhex(stored) if stored else None


def _read_key_file(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise EncryptionUnavailable(f"cannot read the key file named by {KEY_FILE_ENV}") from exc
    if not re.fullmatch(r"[0-9a-fA-F]{64}", text):
        # Never quote the file: it is meant to hold a secret.
        raise EncryptionUnavailable(
            f"the key file named by {KEY_FILE_ENV} must hold 64 hexadecimal digits (256 bits)"
        )
    return bytes.fromhex(text)


def _keyring() -> Any:  # keyring ships no type information
    try:
        import keyring  # type: ignore[import-not-found, unused-ignore]
        import keyring.errors  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise EncryptionUnavailable(
            f"no key: set {KEY_FILE_ENV} to a file holding the key, or install {_EXTRA} "
            "for the OS keyring"
        ) from exc
    return keyring


def _account(path: str | os.PathLike[str]) -> str:
    return f"database:{Path(path).resolve()}"


def unlock(conn: apsw.Connection, path: str | os.PathLike[str]) -> None:
    """Key a freshly opened connection when its file is (or is to be) encrypted.

    A plain file is left alone. An encrypted file needs the cipher and its key; a wrong key
    is :class:`WrongKey` and nothing is written. A new or empty file is created encrypted
    when ``AGENTMEM_KEY_FILE`` is set.
    """
    state = file_state(path)
    if state == "encrypted":
        if not cipher_available():
            raise EncryptionUnavailable(f"{path} is encrypted; opening it needs {_EXTRA}")
        key = key_for(path)
        if key is None:
            raise EncryptionUnavailable(
                f"{path} is encrypted and no key for it was found "
                f"({KEY_FILE_ENV} is not set and the OS keyring has no entry for this path)"
            )
        apply_key(conn, key, path)
    elif state in ("missing", "empty") and os.environ.get(KEY_FILE_ENV):
        if not cipher_available():
            raise EncryptionUnavailable(
                f"{KEY_FILE_ENV} is set, so {path} would be created encrypted, but the loaded "
                f"SQLite has no cipher; that needs {_EXTRA}"
            )
        apply_key(conn, _read_key_file(Path(os.environ[KEY_FILE_ENV])), path)


def unlock_as(conn: apsw.Connection, path: str | os.PathLike[str], *owners: str) -> None:
    """Key a connection to the existing file ``path`` when it is encrypted, with the key of
    ``path`` itself or else of one of ``owners`` (the database a backup was taken of)."""
    if file_state(path) != "encrypted":
        return
    if not cipher_available():
        raise EncryptionUnavailable(f"{path} is encrypted; opening it needs {_EXTRA}")
    for candidate in (path, *owners):
        key = key_for(candidate)
        if key is not None:
            apply_key(conn, key, path)
            return
    raise EncryptionUnavailable(f"{path} is encrypted and no key for it was found")


def apply_key(conn: apsw.Connection, key: bytes, path: str | os.PathLike[str]) -> None:
    """Select the cipher, give the key, and prove it opens the file."""
    conn.pragma("cipher", CIPHER)
    conn.pragma("hexkey", key.hex())
    try:
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchall()
    except apsw.NotADBError as exc:
        raise WrongKey(f"the key does not open {path}; it was not modified") from exc


def describe(conn: apsw.Connection, path: str | os.PathLike[str]) -> str | None:
    """The cipher of an open database (``chacha20``), or ``None`` for a plain file."""
    if file_state(path) != "encrypted":
        return None
    return str(conn.pragma("cipher")) if cipher_available() else CIPHER


def convert(path: str | os.PathLike[str], *, encrypt: bool) -> Path:
    """Encrypt (or decrypt) the agentmem database at ``path`` in place; returns its path.

    The file is copied with ``VACUUM INTO`` to a temporary file beside it, keyed (or plain)
    through the URI, checked, and renamed over the original, so a crash leaves either file
    whole. No other process may have the database open meanwhile (its connection would keep
    the old file). The key is the key file's, else a new random key in the OS keyring.
    """
    require_cipher(f"converting {path}")
    target = Path(path)
    state = file_state(target)
    if state not in ("plain", "encrypted"):
        raise UsageError(f"no agentmem database at {target}")
    if (state == "encrypted") == encrypt:
        raise InvalidInput(f"{target} is already {'encrypted' if encrypt else 'plain'}")
    key = key_for(target, create=encrypt)
    if key is None:
        raise EncryptionUnavailable(f"{target} is encrypted and no key for it was found")
    import secrets

    partial = target.with_name(f".{target.name}.converting-{secrets.token_hex(4)}")
    uri = (
        partial.resolve().as_uri()
        + f"?cipher={CIPHER}&"
        + (f"hexkey={key.hex()}" if encrypt else "key=")
    )
    flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_URI
    try:
        source = apsw.Connection(str(target), flags=flags)
        try:
            if state == "encrypted":
                apply_key(source, key, target)
            source.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            source.execute("VACUUM INTO ?", (uri,))
        finally:
            source.close()
        check = apsw.Connection(str(partial), flags=flags)
        try:
            if encrypt:
                apply_key(check, key, partial)
            if check.execute("PRAGMA integrity_check").get != "ok":  # pragma: no cover
                raise UsageError(f"the converted copy of {target} failed its check; unchanged")
            check.pragma("journal_mode", "wal")
        finally:
            check.close()
        if Path(f"{target}-wal").exists():
            # The last connection to close removes the -wal; another process still has it open
            # and would go on writing the old file (or mix its -wal into the new one).
            raise DatabaseBusy(
                f"another process has {target} open; it was not converted (close it and retry)"
            )
        os.replace(partial, target)
    finally:
        for leftover in [partial, *(Path(f"{partial}-{x}") for x in ("journal", "wal", "shm"))]:
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return target
