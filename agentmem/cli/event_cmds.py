"""``agentmem event append|import|list``."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, BinaryIO

from cyclopts import Parameter

from agentmem.cli._common import (
    AllPrincipalsOpt,
    DbOpt,
    JsonOpt,
    PrincipalOpt,
    Progress,
    check_scope,
    open_store,
    print_json,
    read_store,
    terminal_safe,
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
    else:
        data = event.encode("utf-8", "surrogateescape")
    parsed = decode_client_event(data.strip())
    with open_store(db, principal, create=True) as store:
        result = store.append_event(parsed)
    if json:
        print_json({"seq": result.seq, "event_id": result.event_id, "duplicate": result.duplicate})
    else:
        print(result.seq)


def _read_events(stream: BinaryIO, lines: list[int]) -> Iterator[Event]:
    """Yield events from JSONL, refusing over-long lines before reading them whole."""
    number = 0
    while True:
        raw = stream.readline(MAX_EVENT_BYTES + 2)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_EVENT_BYTES and not raw.endswith(b"\n"):
            raise InvalidInput(
                f"line {number}: longer than the {MAX_EVENT_BYTES:,}-byte limit per event; "
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
    lines: list[int] = []
    progress = Progress("importing", None)
    tick: Callable[[int], None]
    if total:
        # Progress by bytes read, which is known for files without counting lines first.
        progress.total = total

        def tick(_: int) -> None:
            progress(stream.tell())

    else:
        tick = progress
    try:
        with open_store(db, principal, create=True) as store:
            result = store.append_many(
                _read_events(stream, lines),
                progress=tick,
                where=lambda index: f"line {lines[index - 1]}",
            )
    finally:
        progress.finish()
        if stream is not sys.stdin.buffer:
            stream.close()
    if json:
        print_json({"imported": result.imported, "duplicates": result.duplicates})
    else:
        print(f"imported {result.imported} events ({result.duplicates} duplicates skipped)")


def list_(
    *,
    session: Annotated[str | None, Parameter(help="Only this session.")] = None,
    run: Annotated[str | None, Parameter(help="Only this run.")] = None,
    after: Annotated[int | None, whole_number("Only events with seq greater than this.")] = None,
    limit: Annotated[int | None, whole_number("At most this many events.", minimum=1)] = None,
    conversation: Annotated[
        bool,
        Parameter(
            negative="",
            help="Only conversation events (no consent or memory audits): output that "
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
            "principal": None if all_principals else store.principal,
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
        for ev in store.events(**filters):
            print(_summary(ev))


def _summary(ev: Event) -> str:
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
    if len(text) > 70:
        text = text[:67] + "..."
    where = ev.session_id or "-"
    if ev.run_id:
        where += f"/{ev.run_id}"
    return f"{ev.seq:>6}  {ev.created_at:%Y-%m-%d %H:%M:%S}  {kind:<26} {where:<20} {text}".rstrip()
