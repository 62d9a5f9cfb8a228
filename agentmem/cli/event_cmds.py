"""``agentmem event append|import|list``."""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, BinaryIO

from cyclopts import Parameter

from agentmem.bulk import CHUNK
from agentmem.cli.common import (
    AllPrincipalsOpt,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    check_scope,
    console,
    flag,
    open_store,
    plural,
    print_json,
    progress,
    read_store,
    stdout_is_terminal,
    terminal_safe,
    timestamp,
    whole_number,
)
from agentmem.errors import InvalidInput, UsageError
from agentmem.events import MAX_EVENT_BYTES, Event, decode_client_event


def append(
    event: Annotated[
        str | None, Parameter(help="The event as JSON; read from stdin if omitted.")
    ] = None,
    /,
    *,
    db: DbOpt = None,
    principal: PrincipalOpt = None,
    json: JsonOpt = False,
) -> None:
    """Append one event in the interchange format and print its seq.

    Appending the same event_id with the same content again prints the original seq.
    """
    if event is None:
        if sys.stdin.isatty():
            raise UsageError("no event given: pass it as an argument or pipe it on stdin")
        data = sys.stdin.buffer.read(MAX_EVENT_BYTES + 1)
        where = "on standard input"
    else:
        data = event.encode("utf-8", "surrogateescape")
        where = "given"
    if not data.strip():
        raise InvalidInput(f"no event {where}: expected one JSON object")
    if len(data) > MAX_EVENT_BYTES:
        raise InvalidInput(
            f"the event {where} is too large: an event may be at most {_size(MAX_EVENT_BYTES)}"
        )
    parsed = decode_client_event(data.strip())
    with open_store(db, principal, create=True) as store:
        result = store.append_event(parsed)
    if json:
        print_json({"seq": result.seq, "event_id": result.event_id, "duplicate": result.duplicate})
    else:
        print(result.seq)


def _size(limit: int) -> str:
    """``4 MiB`` rather than ``4,194,304 bytes``."""
    return f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit:,} bytes"


class _RecentLines:
    """The line numbers of the events read last, so an error can name the line.

    Blank lines make an event's position differ from its line number. A batch append reports
    an error at most one chunk behind the event it is reading (:data:`agentmem.bulk.CHUNK`),
    so only a few chunks' worth is kept: memory stays flat whatever the file's size (a list
    of every line number held 69 MB at a million events).
    """

    def __init__(self, keep: int) -> None:
        self._recent: deque[int] = deque(maxlen=keep)
        self._count = 0

    def append(self, line: int) -> None:
        self._recent.append(line)
        self._count += 1

    def label(self, index: int) -> str:
        """``line N`` for the ``index``-th event (1-based) read."""
        back = self._count - index
        if 0 <= back < len(self._recent):
            return f"line {self._recent[-1 - back]}"
        return f"event {index}"  # out of reach: never the case for the batch append's errors


def _read_events(stream: BinaryIO, lines: _RecentLines) -> Iterator[Event]:
    """Yield events from JSONL, refusing over-long lines before reading them whole."""
    number = 0
    while True:
        raw = stream.readline(MAX_EVENT_BYTES + 2)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_EVENT_BYTES and not raw.endswith(b"\n"):
            raise InvalidInput(
                f"line {number}: too large: an event may be at most {_size(MAX_EVENT_BYTES)}; "
                "nothing was imported"
            )
        raw = raw.strip()
        if not raw:
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                f"line {number}: not valid UTF-8 (byte {exc.start}); nothing was imported"
            ) from exc
        try:
            event = decode_client_event(text)
        except InvalidInput as exc:
            raise InvalidInput(f"line {number}: {exc.message}; nothing was imported") from exc
        lines.append(number)
        yield event


def import_(
    file: Annotated[
        Path, Parameter(help="JSONL file of events, or - for stdin.", allow_leading_hyphen=True)
    ],
    /,
    *,
    db: DbOpt = None,
    principal: PrincipalOpt = None,
    json: JsonOpt = False,
) -> None:
    """Import events from JSONL in one transaction: a bad line anywhere imports nothing."""
    if str(file) == "-":
        stream: BinaryIO = sys.stdin.buffer
        total = None
    else:
        try:
            stream = file.open("rb")
        except OSError as exc:
            raise UsageError(f"cannot read {file}: {exc.strerror}") from exc
        total = os.fstat(stream.fileno()).st_size
    lines = _RecentLines(4 * CHUNK)
    try:
        # Progress by bytes read, which is known for a file without counting its lines first.
        with (
            progress("importing events", total=total, enabled=not json) as update,
            open_store(db, principal, create=True) as store,
        ):
            result = store.append_many(
                _read_events(stream, lines),
                progress=(lambda done: update(stream.tell())) if total else update,
                where=lines.label,
            )
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if json:
        print_json({"imported": result.imported, "duplicates": result.duplicates})
    else:
        skipped = plural(result.duplicates, "duplicate")
        print(f"imported {plural(result.imported, 'event')} ({skipped} skipped)")


def list_(
    *,
    session: Annotated[str | None, Parameter(help="Only this session.")] = None,
    run: Annotated[str | None, Parameter(help="Only this run.")] = None,
    after: Annotated[int | None, whole_number("Only events with seq greater than this.")] = None,
    limit: Annotated[int | None, whole_number("At most this many events.", minimum=1)] = None,
    conversation: Annotated[
        bool,
        flag(
            "Only conversation events (no consent or memory audits): output that "
            "'agentmem event import' accepts as it is.",
        ),
    ] = False,
    principal: PrincipalOpt = None,
    all_principals: AllPrincipalsOpt = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List one principal's events in seq order; ``--json`` prints one JSON object per line."""
    from agentmem.events import CLIENT_EVENT_TYPES

    check_scope(principal, all_principals)
    with read_store(db, principal) as store:
        filters = {
            "all_principals": all_principals,
            "session_id": session,
            "run_id": run,
            "after": after,
            "limit": limit,
            "types": CLIENT_EVENT_TYPES if conversation else None,
        }
        if json:
            out = sys.stdout.buffer
            for line in store.events_json(**filters):
                out.write(line + b"\n")
            out.flush()
            return
        if stdout_is_terminal():
            _print_terminal(store.events(**filters))
            return
        for ev in store.events(**filters):
            seq, when, kind, where, text = _summary(ev)
            print(f"{seq:>6}  {when}  {kind:<26} {where:<20} {text}".rstrip())


# Rows per table drawn on a terminal: the listing streams, and a chunk keeps memory flat.
_CHUNK = 200


def _print_terminal(events: Iterator[Event]) -> None:
    """Events as a table fitted to the terminal, one line each (the text ends in an ellipsis).

    Drawn in chunks with the same column widths, so a long log starts printing at once.
    """
    from itertools import islice

    from rich import box
    from rich.table import Table
    from rich.text import Text

    out = console()
    first = True
    while chunk := [_terminal_row(ev) for ev in islice(events, _CHUNK)]:
        if first:
            widths = _event_widths(out.width, chunk)
        table = Table(
            box=box.SIMPLE_HEAD if first else None,
            show_header=first,
            header_style="bold",
            padding=(0, 1, 0, 0),
            pad_edge=False,
            show_edge=False,
        )
        headers = ("SEQ", "TIME", "TYPE", "SESSION/RUN", "TEXT")
        for header, width in zip(headers, widths, strict=True):
            if not width:
                continue
            table.add_column(
                header,
                width=width,
                no_wrap=True,
                overflow="ellipsis",
                justify="right" if header == "SEQ" else "left",
            )
        for row in chunk:
            table.add_row(*(Text(cell) for cell, width in zip(row, widths, strict=True) if width))
        out.print(table)
        first = False
    if first:
        print("(none)")


def _terminal_row(ev: Event) -> tuple[str, ...]:
    seq, when, kind, where, text = _summary(ev)
    return seq, when, _short_type(kind), where, text


def _event_widths(total: int, rows: list[tuple[str, ...]]) -> list[int]:
    """Column widths for a ``total``-column terminal: the text gets what the others leave.

    Below 100 columns the time column is left out (width 0): at 80 it would leave the text a
    dozen columns. The type and session/run columns give up width (ending in an ellipsis)
    before the text goes below 24 columns; the seq is never cut.
    """
    from rich.cells import cell_len

    seq = max(3, len(rows[-1][0]) + (1 if len(rows) == _CHUNK else 0))
    fixed = [
        seq,
        20 if total >= 100 else 0,
        min(22, max(cell_len(r[2]) for r in rows)),
        min(22, max(11, *(cell_len(r[3]) for r in rows))),
    ]
    shown = sum(1 for width in fixed if width)
    text = total - sum(fixed) - 2 * shown - 1
    for column, floor in ((3, 11), (2, 12)):
        give = max(0, min(24 - text, fixed[column] - floor))
        fixed[column] -= give
        text += give
    return [*fixed, max(text, 4)]


def _summary(ev: Event) -> tuple[str, str, str, str, str]:
    """``(seq, time, type, session/run, text)`` of one event, escaped, on one line."""
    from agentmem.events import event_type

    kind = event_type(ev)
    text = getattr(ev, "text", None) or getattr(ev, "content", None) or ""
    if kind == "run.completed":
        text = f"{ev.outcome}" + (f" ({ev.failure_class})" if ev.failure_class else "")  # type: ignore[attr-defined]
    elif kind == "run.started":
        names = ", ".join(t.name for t in ev.tools)  # type: ignore[attr-defined]
        text = f"tools: {names}" if names else ""
    elif kind == "assistant.message.created" and ev.tool_calls:  # type: ignore[attr-defined]
        calls = ", ".join(c.name for c in ev.tool_calls)  # type: ignore[attr-defined]
        text = (text + " " if text else "") + f"[calls {calls}]"
    text = terminal_safe(" ".join(str(text).split()))
    where = ev.session_id or "-"
    if ev.run_id:
        where += f"/{ev.run_id}"
    return str(ev.seq), timestamp(ev.created_at), kind, terminal_safe(where), text


def _short_type(kind: str) -> str:
    """``user.message`` for ``user.message.created``: on a terminal the suffix costs the text
    eight columns and tells nothing (pipes and ``--json`` keep the full name)."""
    return kind.removesuffix(".created")
