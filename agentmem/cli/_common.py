"""Options and rendering shared by every command module (imported only when a command runs)."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from cyclopts import Parameter, Token, validators

from agentmem.errors import UsageError

if TYPE_CHECKING:
    from agentmem.config import Settings
    from agentmem.store import Store

DbOpt = Annotated[
    Path | None,
    Parameter(name="--db", help="Database file. Default: AGENTMEM_DB, config file, platformdirs."),
]
PrincipalOpt = Annotated[
    str | None,
    Parameter(
        name="--principal",
        help="Principal to act for. Default: settings (AGENTMEM_PRINCIPAL, config file, 'local').",
    ),
]
AllPrincipalsOpt = Annotated[
    bool,
    Parameter(
        name="--all-principals",
        negative="",
        help="List every principal's records, not only those of --principal.",
    ),
]
JsonOpt = Annotated[bool, Parameter(name="--json", negative="", help="Machine-readable output.")]

# Appended by commands when the item exists but belongs to someone else.
OWNER_HINT = " (it belongs to another principal: pass --principal to act for them)"

# SQLite integers are signed 64-bit; a larger number is a typo, never a request.
SQL_INT_MAX = 2**63 - 1


def _whole_number(type_: Any, tokens: Sequence[Token]) -> int:
    """Digits only: cyclopts alone would round ``1.5`` and accept ``0x10`` or ``1e3``."""
    text = tokens[0].value.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ValueError(f"{tokens[0].value!r} is not a whole number")
    return int(text)


def whole_number(help: str, *, minimum: int = 0, maximum: int = SQL_INT_MAX) -> Parameter:
    """An integer option refused (exit 2) unless it is written as digits within bounds."""
    return Parameter(
        help=help,
        converter=_whole_number,
        validator=validators.Number(gte=minimum, lte=maximum),
    )


def check_scope(principal: str | None, all_principals: bool) -> None:
    """``--all-principals`` widens a listing; combined with ``--principal`` it means nothing."""
    if all_principals and principal is not None:
        raise UsageError("--all-principals and --principal exclude each other; pass one of them")


def resolve_settings(
    db: Path | None,
    principal: str | None = None,
    *,
    create: bool = False,
    create_parents: bool = False,
) -> Settings:
    """The settings a command runs with, after refusing a database path it cannot mean.

    A missing database is refused for commands that only read. A command that writes may
    create the file, but not a missing directory: ``--db /typo/x.db`` would otherwise grow a
    new, empty memory somewhere unexpected. Only ``init`` (``create_parents``) and the default
    location under the user data directory, which is agentmem's own, get their directory made.
    """
    from agentmem.config import load_settings

    settings = load_settings(db=str(db) if db is not None else None, principal=principal)
    path = settings.db_path()
    if path == ":memory:" or path.startswith("file::memory:"):
        return settings
    target = Path(path)
    if target.exists():
        return settings
    if not create:
        raise UsageError(
            f"no agentmem database at {path} (check the path, or create it with: "
            f"{command('init', *db_args(settings))})"
        )
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise UsageError(f"cannot create {path}: {parent} is not a directory")
    if not parent.exists() and not create_parents and settings.db:
        raise UsageError(
            f"directory {parent} does not exist (check the path, or create both with: "
            f"{command('init', '--db', path)})"
        )
    return settings


def open_store(
    db: Path | None,
    principal: str | None = None,
    *,
    create: bool = False,
    create_parents: bool = False,
) -> Store:
    """Open the store for a command; read-only commands do not create a missing file."""
    from agentmem.store import Store

    settings = resolve_settings(db, principal, create=create, create_parents=create_parents)
    return Store.open(settings=settings, create=create)


def read_store(db: Path | None, principal: str | None = None) -> Store:
    """Open the store read-only, for a command that only reads.

    Nothing is created, converted or written, the command never waits for a writer's lock, and
    it works on a read-only file or medium (a backup, say).
    """
    from agentmem.store import Store

    return Store.open(settings=resolve_settings(db, principal), readonly=True)


def db_args(settings_or_store: Any) -> list[str]:
    """``--db PATH`` when the database is not the default one, so a printed command works."""
    settings = getattr(settings_or_store, "settings", settings_or_store)
    return ["--db", settings.db_path()] if settings.db else []


def command(*args: str) -> str:
    """An ``agentmem`` command line, quoted for a POSIX shell, to print as a hint."""
    return shlex.join(["agentmem", *args])


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


def terminal_safe(text: str) -> str:
    """``text`` with every control or format character shown as an escape (``\\x1b``).

    Stored messages and tool results are written by agents and their tools: printed raw, an
    ESC or OSC sequence in one would drive the reader's terminal (retitle it, hide text), and a
    bidi override would reorder what is shown. JSON output is escaped by its encoder already.
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def _cell(value: Any) -> str:
    text = terminal_safe(" ".join(str(value).split()))
    return text if len(text) <= 60 else text[:57] + "..."


def print_fields(pairs: Iterable[tuple[str, Any]]) -> None:
    """``name  value`` lines for one record."""
    pairs = list(pairs)
    width = max(len(k) for k, _ in pairs)
    for key, value in pairs:
        shown = "-" if value is None else terminal_safe(str(value))
        print(f"{key.ljust(width)}  {shown}")


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
