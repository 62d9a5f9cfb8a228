"""``agentmem mcp``: the MCP server over stdio, for desktop MCP clients.

The MCP SDK is an optional extra; it is imported only when this command runs (never by
``agentmem --help``), and its absence, or a 1.x SDK without ``MCPServer``, is one clear line
naming the extra. Stdout carries the protocol, so the command itself prints nothing there.

Desktop clients start the server without a shell and in a working directory of their choosing:
``--db`` gets its ``~`` expanded here, and a relative database path is refused, since it would
land wherever the client happened to start the process.
"""

from __future__ import annotations

from pathlib import Path

from agentmem.cli.common import DbOpt, PrincipalOpt, open_store, resolve_settings
from agentmem.errors import UsageError


def mcp(*, db: DbOpt = None, principal: PrincipalOpt = None) -> None:
    """Run the MCP server over stdio (tools recall, record_message, close_session).

    A desktop MCP client launches this command and talks JSON-RPC on its stdin/stdout; the
    database is created if it does not exist. Every tool acts for one principal.
    """
    from agentmem.config import load_settings
    from agentmem.memory.composition import resolve_settings as resolve_formation

    chosen = load_settings(db=str(db) if db is not None else None, principal=principal).db_path()
    if not (chosen == ":memory:" or chosen.startswith("file:")):
        expanded = Path(chosen).expanduser()
        if not expanded.is_absolute():
            raise UsageError(
                f"agentmem mcp needs an absolute database path, got {chosen!r}: an MCP client "
                "starts the server in a directory of its own choosing (use --db "
                "/full/path/agentmem.db or --db ~/agentmem.db)"
            )
        db = expanded
    # close_session consolidates: required without evidence exits 8 before anything is written.
    resolve_formation(resolve_settings(db, principal, create=True))
    try:
        from agentmem.integrations.mcp_server import serve_stdio
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "mcp":
            raise
        raise UsageError(_sdk_missing(exc)) from exc
    with open_store(db, principal, create=True) as store:
        serve_stdio(store, principal=principal)


def _sdk_missing(exc: ModuleNotFoundError) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = f"mcp {version('mcp')} is installed but lacks {exc.name!r}"
    except PackageNotFoundError:
        found = "the MCP Python SDK is not installed"
    return f"{found}; 'agentmem mcp' needs mcp>=2.3,<3: pip install 'agentmem[mcp]'"
