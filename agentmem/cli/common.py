"""Options and rendering shared by every command module (imported only when a command runs)."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import textwrap
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import msgspec
from cyclopts import Parameter, Token

from agentmem.errors import NotFound, UsageError

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


def flag(help: str, *, name: str | None = None) -> Parameter:
    """A boolean option that is off unless given: no ``--no-x`` form and no ``[default: False]``
    line in the help (every flag would carry one, saying nothing)."""
    if name is None:
        return Parameter(negative="", show_default=False, help=help)
    return Parameter(name=name, negative="", show_default=False, help=help)


AllPrincipalsOpt = Annotated[
    bool,
    flag("List every principal's records, not only those of --principal.", name="--all-principals"),
]
JsonOpt = Annotated[bool, flag("Machine-readable output (JSON).", name="--json")]

SessionArg = Annotated[str, Parameter(help="The session's id (see 'agentmem session list').")]
RunArg = Annotated[str, Parameter(help="The run's id (see 'agentmem run list').")]
BeliefArg = Annotated[str, Parameter(help="The belief's id (see 'agentmem beliefs list').")]
ArtifactArg = Annotated[str, Parameter(help="The artifact's id (see 'agentmem artifacts list').")]

# Appended by commands when the item exists but belongs to someone else.
OWNER_HINT = " (it belongs to another principal: pass --principal to act for them)"

_Found = TypeVar("_Found")


def owned(lookup: Callable[..., _Found], key: str) -> _Found:
    """``lookup(key)`` for the principal the command acts for. The library reports another
    principal's id as missing; the CLI, run by the file's owner, says what to type instead."""
    try:
        return lookup(key)
    except NotFound as exc:
        try:
            lookup(key, all_principals=True)
        except NotFound:
            raise exc from None
        raise NotFound(exc.message + OWNER_HINT) from None


# SQLite integers are signed 64-bit; a larger number is a typo, never a request.
SQL_INT_MAX = 2**63 - 1


def _whole_number(type_: Any, tokens: Sequence[Token]) -> int:
    """Digits only: cyclopts alone would round ``1.5`` and accept ``0x10`` or ``1e3``."""
    text = tokens[0].value.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ValueError(f"{tokens[0].value!r} is not a whole number")
    return int(text)


def _within(minimum: int, maximum: int) -> Callable[[Any, int | None], None]:
    """The bounds check of ``cyclopts.validators.Number(gte=..., lte=...)``, in its words.

    Importing ``cyclopts.validators`` (attrs classes built at import) cost every command that
    has a number option 4 ms of start-up, a tenth of what agentmem adds to a bare import.
    """

    def check(type_: Any, value: int | None) -> None:
        if value is None:
            return
        if value > maximum:
            raise ValueError(f"Must be <= {maximum}.")
        if value < minimum:
            raise ValueError(f"Must be >= {minimum}.")

    return check


def whole_number(help: str, *, minimum: int = 0, maximum: int = SQL_INT_MAX) -> Parameter:
    """An integer option refused (exit 2) unless it is written as digits within bounds."""
    return Parameter(help=help, converter=_whole_number, validator=_within(minimum, maximum))


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


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal: tables are then fitted to it, otherwise printed plain."""
    return sys.stdout.isatty()


# A pipe has no width: rows are never cut there, so ``grep`` and ``cut`` see every value.
_PIPE_WIDTH = 100_000


def console(stream: Any = None) -> Any:
    """A rich console for ``stream`` (stdout): sized and coloured on a terminal, plain otherwise.

    rich is imported here, not at start-up: read commands must start about as fast as their
    imports (rich alone costs as much as cyclopts). Colour follows ``NO_COLOR`` (rich reads it).
    """
    from rich.console import Console

    stream = sys.stdout if stream is None else stream
    if stream.isatty():
        return Console(file=stream, highlight=False, markup=False, emoji=False)
    return Console(
        file=stream,
        width=_PIPE_WIDTH,
        color_system=None,
        force_terminal=False,
        no_color=True,
        highlight=False,
        markup=False,
        emoji=False,
    )


def print_table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    wrap: Sequence[str] = (),
    right: Sequence[str] = (),
    keep: Sequence[str] | None = None,
    omit: Sequence[str] = (),
    fit: int | None = None,
) -> None:
    """A table that fits the terminal: columns named in ``wrap`` wrap, the others stay on one
    line and end in an ellipsis when there is no room; columns in ``keep`` (default: the first,
    an id to type into the next command) are never cut; columns in ``omit`` are left out (a
    principal column when only one principal can appear). Widths count East Asian wide
    characters as two columns. Without a terminal: no box drawing, no colour and nothing cut,
    unless ``fit`` gives a width to fit (at most the terminal's, on a terminal).
    """
    if fit is None and not sys.stdout.isatty():
        # a pipe: plain columns, nothing cut, and no rich import (a read command into a pipe
        # starts as fast as its imports allow)
        _plain_table(headers, rows, right=right, omit=omit)
        return
    from rich import box
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    out = console()
    terminal = out.is_terminal
    shown = [i for i, h in enumerate(headers) if h not in omit]
    headers = [headers[i] for i in shown]
    cells = [[cell_text(row[i]) for i in shown] for row in rows]
    titles = [h.upper() for h in headers]
    natural = [
        max([cell_len(title), *(cell_len(row[i]) for row in cells)])
        for i, title in enumerate(titles)
    ]
    keep = headers[:1] if keep is None else keep
    width = min(out.width, fit or out.width) if terminal else fit
    widths = (
        fit_widths(
            natural,
            available=width - 2 * (len(headers) - 1),
            wrap=[h in wrap for h in headers],
            keep=[h in keep for h in headers],
        )
        if width
        else natural
    )
    table = Table(
        box=box.SIMPLE_HEAD if terminal else None,
        header_style="bold" if terminal else "",
        # two spaces between columns either way (the SIMPLE_HEAD box adds a one-space divider)
        padding=(0, 1, 0, 0) if terminal else (0, 2, 0, 0),
        pad_edge=False,
        show_edge=False,
    )
    for header, title, width in zip(headers, titles, widths, strict=True):
        wraps = header in wrap
        table.add_column(
            title,
            width=width,
            no_wrap=not wraps,
            overflow="fold" if wraps else "ellipsis",
            justify="right" if header in right else "left",
        )
    for row in cells:
        table.add_row(*(Text(cell) for cell in row))
    _print_rendered(out, table)
    if not cells:
        print("(none)")


def _cell_width(text: str) -> int:
    """Columns ``text`` takes: East Asian wide characters two, combining marks none."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _plain_table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    right: Sequence[str] = (),
    omit: Sequence[str] = (),
) -> None:
    """The table without a terminal: upper-case titles, columns two spaces apart, padded to
    their widest cell (right-aligned where asked), no trailing spaces, nothing cut."""
    shown = [i for i, h in enumerate(headers) if h not in omit]
    names = [headers[i] for i in shown]
    cells = [[cell_text(row[i]) for i in shown] for row in rows]
    lines_in = [[h.upper() for h in names], *cells]
    widths = [max(_cell_width(line[i]) for line in lines_in) for i in range(len(names))]
    out = []
    for line in lines_in:
        parts = []
        for i, cell in enumerate(line):
            pad = " " * (widths[i] - _cell_width(cell))
            parts.append(pad + cell if names[i] in right else cell + pad)
        out.append("  ".join(parts).rstrip())
    sys.stdout.write("\n".join(out) + "\n")
    if not cells:
        sys.stdout.write("(none)\n")
    sys.stdout.flush()


def fit_widths(
    natural: Sequence[int], *, available: int, wrap: Sequence[bool], keep: Sequence[bool]
) -> list[int]:
    """Column widths that add up to at most ``available`` where possible.

    Width is taken first from wrapping columns (down to 20: their text moves to more lines),
    then from the other columns that may be cut (down to 6, ending in an ellipsis), then from
    wrapping columns again (down to 8). Kept columns are never narrowed.
    """
    widths = list(natural)
    for shrinkable, floor in (
        ([w and not k for w, k in zip(wrap, keep, strict=True)], 20),
        ([not w and not k for w, k in zip(wrap, keep, strict=True)], 6),
        ([w and not k for w, k in zip(wrap, keep, strict=True)], 8),
    ):
        excess = sum(widths) - available
        while excess > 0:
            # narrow the widest shrinkable column by one, so the cut is shared evenly
            candidates = [i for i, ok in enumerate(shrinkable) if ok and widths[i] > floor]
            if not candidates:
                break
            widest = max(candidates, key=lambda i: widths[i])
            widths[widest] -= 1
            excess -= 1
    return widths


def _print_rendered(out: Any, renderable: Any) -> None:
    """Print through rich; in plain mode without the padding rich adds to the last column."""
    if out.is_terminal:
        out.print(renderable)
        return
    with out.capture() as captured:
        out.print(renderable)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    sys.stdout.write("\n".join(line for line in lines if line) + "\n")
    sys.stdout.flush()


def cell_text(value: Any) -> str:
    """One table cell: ``None`` blank, times in the one format, whitespace folded, escaped."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return timestamp(value)
    return terminal_safe(" ".join(str(value).split()))


def timestamp(value: datetime | str | None) -> str:
    """The one way every table and record shows a time: ``2026-12-01 17:01:55Z`` (UTC)."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return terminal_safe(str(value))
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%d %H:%M:%SZ")


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``1 event``, ``2 events``, ``1,000 blobs``."""
    word = noun if count == 1 else (plural_form or noun + "s")
    return f"{count:,} {word}"


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


def print_fields(pairs: Iterable[tuple[str, Any]]) -> None:
    """``name  value`` lines for one record; on a terminal a long value wraps at spaces, under
    itself (a path or an id longer than the room is kept whole, for copying)."""
    pairs = list(pairs)
    width = max(len(k) for k, _ in pairs)
    room = shutil.get_terminal_size().columns - width - 2 if stdout_is_terminal() else 0
    for key, value in pairs:
        if isinstance(value, datetime):
            value = timestamp(value)
        shown = "-" if value is None else terminal_safe(str(value))
        if room >= 20 and len(shown) > room:
            shown = "\n".join(
                textwrap.wrap(shown, room, break_long_words=False, break_on_hyphens=False)
            ).replace("\n", "\n" + " " * (width + 2))
        print(f"{key.ljust(width)}  {shown}")


@contextmanager
def progress(
    label: str, *, total: int | None = None, enabled: bool = True, unit: str | None = None
) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr for long work, yielding ``update(done, total=None)``.

    Shown only when stderr is a terminal and ``enabled`` (commands pass ``not json``): a pipe
    or a log file never receives bar redraws. Without a known total the bar pulses and the
    elapsed time still moves, because rich redraws from its own thread while the work runs.
    With a ``unit`` the bar shows the counts themselves ("37/120 sessions"), not a percentage.
    """
    if not (enabled and sys.stderr.isatty()):
        yield lambda done, total=None: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        *([MofNCompleteColumn(), TextColumn(unit)] if unit else [TaskProgressColumn()]),
        TimeElapsedColumn(),
        console=Console(file=sys.stderr, highlight=False, markup=False),
        transient=True,
    )
    task = bar.add_task(label, total=total)
    last = [0.0]

    def update(done: int, total: int | None = None) -> None:
        # called per event by bulk imports: redraw data at most ten times a second
        now = time.monotonic()
        final = total is not None and done >= total  # always drawn: the bar ends on the count
        if now - last[0] < 0.1 and not final:
            return
        last[0] = now
        if total is None:
            bar.update(task, completed=done)
        else:
            bar.update(task, completed=done, total=total)

    with bar:
        yield update
