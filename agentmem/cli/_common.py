"""Options and rendering shared by every command module (imported only when a command runs)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
from cyclopts import Parameter

from agentmem.store import Store

DbOpt = Annotated[
    Path | None,
    Parameter(name="--db", help="Database file. Default: AGENTMEM_DB, config file, platformdirs."),
]
PrincipalOpt = Annotated[
    str | None,
    Parameter(name="--principal", help="Principal to act for. Default: settings ('local')."),
]
JsonOpt = Annotated[bool, Parameter(name="--json", negative="", help="Machine-readable output.")]


def open_store(db: Path | None, principal: str | None = None, *, create: bool = False) -> Store:
    """Open the store for a command; read-only commands do not create a missing file."""
    return Store.open(str(db) if db is not None else None, principal=principal, create=create)


_encoder = msgspec.json.Encoder()


def print_json(value: Any) -> None:
    """One JSON document on stdout."""
    sys.stdout.buffer.write(_encoder.encode(value) + b"\n")
    sys.stdout.flush()


def print_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Left-aligned columns; long cells are cut so one row stays one line."""
    rows = [["" if cell is None else _cell(cell) for cell in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
    line = "  ".join(h.upper().ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line.rstrip())
    if not rows:
        print("(none)")
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def _cell(value: Any) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def print_fields(pairs: Iterable[tuple[str, Any]]) -> None:
    """``name  value`` lines for one record."""
    pairs = list(pairs)
    width = max(len(k) for k, _ in pairs)
    for key, value in pairs:
        print(f"{key.ljust(width)}  {'-' if value is None else value}")


class Progress:
    """A one-line progress counter on stderr, shown only when stderr is a terminal."""

    def __init__(self, label: str, total: int | None = None) -> None:
        self.enabled = sys.stderr.isatty()
        self.label = label
        self.total = total
        self._last = -1

    def __call__(self, done: int) -> None:
        if not self.enabled or done - self._last < 1000:
            return
        self._last = done
        if self.total:
            pct = min(100, done * 100 // self.total)
            bar = "#" * (pct // 4)
            sys.stderr.write(f"\r{self.label} [{bar:<25}] {pct:3d}% ")
        else:
            sys.stderr.write(f"\r{self.label} {done:,}")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled and self._last >= 0:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()
