"""What a reader of the disk finds in a database's files: the view the raw-file tests grep.

For a plain file that is the bytes of the file, its ``-wal`` and its ``-shm``. For an encrypted
file (every file when the suite runs with ``AGENTMEM_TEST_ENCRYPTED=1``) those bytes are
ciphertext, so a grep for left-over text would pass whatever was left behind. The view is then
what someone holding the file *and its key* reads: every page of a copy of the file and every
frame of its ``-wal``, stale ones included, decrypted by SQLite3 Multiple Ciphers' own VFS (its
``xRead``, called through the file handle SQLite gives out), so free pages, old frames and the
planner's samples are seen exactly as they would be in a plain file. Before that, the raw bytes
are checked to hold none of the words the caller names: the stronger property encryption adds.
"""

from __future__ import annotations

import contextlib
import ctypes
import shutil
import tempfile
from pathlib import Path

import apsw

from agentmem.encryption import file_state, unlock

_WAL_HEADER = 32
_FRAME_HEADER = 24


def raw_bytes(db_path: Path, suffixes: tuple[str, ...] = ("", "-wal", "-shm")) -> bytes:
    """The database file, its -wal and its -shm (page numbers only), byte for byte."""
    return b"".join(
        Path(f"{db_path}{s}").read_bytes() for s in suffixes if Path(f"{db_path}{s}").exists()
    )


def readable(db_path: Path, *words: bytes) -> bytes:
    """Everything of ``db_path``, its -wal and its -shm that a reader with the key can see.

    For an encrypted file, first asserts that none of ``words`` is in the raw bytes at all.
    """
    if file_state(db_path) != "encrypted":
        return raw_bytes(db_path)
    raw = raw_bytes(db_path)
    for word in words:
        assert word not in raw, f"{word!r} is in the encrypted file's raw bytes"
    return _decrypted(db_path)


class _IoMethods(ctypes.Structure):
    # The first members of sqlite3_io_methods: iVersion, xClose, xRead.
    _fields_ = [
        ("iVersion", ctypes.c_int),
        ("xClose", ctypes.c_void_p),
        (
            "xRead",
            ctypes.CFUNCTYPE(
                ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong
            ),
        ),
    ]


class _File(ctypes.Structure):
    _fields_ = [("pMethods", ctypes.POINTER(_IoMethods))]


def _reader(conn: apsw.Connection, op: int):
    """``read(offset, size)`` on the file SQLite opened for ``op`` (main file or journal)."""
    handle = ctypes.c_void_p()
    conn.file_control("main", op, ctypes.addressof(handle))
    assert handle.value, "SQLite gave out no file handle"
    methods = ctypes.cast(handle, ctypes.POINTER(_File)).contents.pMethods.contents

    def read(offset: int, size: int) -> bytes:
        buffer = ctypes.create_string_buffer(size)
        rc = methods.xRead(handle, buffer, size, offset)
        assert rc == apsw.SQLITE_OK, f"decrypting {size} bytes at {offset} failed (SQLite {rc})"
        return buffer.raw

    return read


def _decrypted(db_path: Path) -> bytes:
    with tempfile.TemporaryDirectory(prefix="agentmem-forensics-") as scratch:
        copy = Path(scratch) / db_path.name
        shutil.copyfile(db_path, copy)
        wal = Path(f"{db_path}-wal")
        if wal.exists():
            shutil.copyfile(wal, f"{copy}-wal")
        frames = Path(f"{copy}-wal").stat().st_size if wal.exists() else 0
        with contextlib.closing(apsw.Connection(str(copy))) as conn:
            unlock(conn, copy)  # also starts a read, which opens the -wal
            page = conn.pragma("page_size")
            read = _reader(conn, apsw.SQLITE_FCNTL_FILE_POINTER)
            view = [read(offset, page) for offset in range(0, copy.stat().st_size, page)]
            if frames:
                read = _reader(conn, apsw.SQLITE_FCNTL_JOURNAL_POINTER)
                view += [
                    read(offset + _FRAME_HEADER, page)
                    for offset in range(_WAL_HEADER, frames, _FRAME_HEADER + page)
                ]
        assert view[0].startswith(b"SQLite format 3\x00"), "the first page did not decrypt"
    return b"".join(view) + raw_bytes(db_path, ("-shm",))
