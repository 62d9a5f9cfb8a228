"""``agentmem serve``: run the loopback HTTP API in the foreground until Ctrl-C."""

from __future__ import annotations

import logging
import signal
import sys
import threading
from typing import Annotated

from cyclopts import Parameter

from agentmem.cli.common import DbOpt, PrincipalOpt, flag, resolve_settings, whole_number
from agentmem.errors import UsageError


def serve(
    *,
    host: Annotated[
        str, Parameter(help="Address to listen on; non-loopback needs --allow-remote.")
    ] = "127.0.0.1",
    port: Annotated[int, whole_number("TCP port (0: any free port).", maximum=65535)] = 8765,
    allow_remote: Annotated[
        bool,
        flag(
            "Allow a non-loopback --host. Anyone who can reach the port and holds the "
            "token can read and write the database.",
        ),
    ] = False,
    rotate_token: Annotated[
        bool,
        flag(
            "Replace the API token, print the token file's path and exit; running servers "
            "accept only the new token from their next request.",
        ),
    ] = False,
    print_token: Annotated[bool, flag("Also print the token itself (it is a secret).")] = False,
    token_for: Annotated[
        str | None,
        Parameter(
            help="Issue a token that acts only for this principal, print it once and exit "
            "(only its SHA-256 is kept).",
        ),
    ] = None,
    list_tokens: Annotated[
        bool, flag("List principal tokens (id, principal, date) and exit.")
    ] = False,
    revoke_token: Annotated[
        str | None, Parameter(help="Revoke the principal token with this id and exit.")
    ] = None,
    db: DbOpt = None,
    principal: PrincipalOpt = None,
) -> int:
    """Serve the HTTP API (and MCP at /mcp) on 127.0.0.1 with bearer tokens.

    The operator token lives in ``api-token`` under the user config directory
    (``AGENTMEM_CONFIG_DIR`` overrides the directory); it is created on first start and never
    printed unless ``--print-token`` is given. Principal tokens (``--token-for``) act for one
    principal only. Needs the ``server`` extra (exit 2 without it).
    """
    from agentmem import api_tokens
    from agentmem.api_tokens import default_token_path, read_token

    if token_for is not None or list_tokens or revoke_token is not None:
        listing = api_tokens.principal_tokens_path(default_token_path())
        if token_for is not None:
            record, token = api_tokens.issue_principal_token(listing, token_for)
            print(
                f"agentmem: token {record.token_id} for principal {record.principal!r} "
                f"(shown once; only its hash is kept in {listing}):",
                file=sys.stderr,
                flush=True,
            )
            print(token, flush=True)
        elif revoke_token is not None:
            record = api_tokens.revoke_principal_token(listing, revoke_token)
            print(f"agentmem: revoked {record.token_id} ({record.principal!r})", flush=True)
        else:
            for record in api_tokens.list_principal_tokens(listing):
                print(f"{record.token_id}\t{record.principal}\t{record.created_at}", flush=True)
        return 0
    if rotate_token:
        from agentmem.api_tokens import rotate_token as rotate

        path = default_token_path()
        rotate(path)
        print(f"agentmem: new API token written to {path}", flush=True)
        if print_token:
            print(read_token(path), flush=True)
        return 0
    # Refused requests and internal errors (with their traceback) go to stderr: the server's log.
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    from agentmem.net import is_loopback

    if not allow_remote and not is_loopback(host):
        raise UsageError(
            f"refusing to listen on {host!r}: it is not a loopback address; use 127.0.0.1, "
            "or pass --allow-remote if other machines should reach the API"
        )
    try:
        from agentmem.http import AgentmemServer
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in ("starlette", "uvicorn", "anyio", "h11"):
            raise
        raise UsageError(
            f"'agentmem serve' needs the server extra ({exc.name} is missing): "
            "pip install 'agentmem[server]'"
        ) from exc
    settings = resolve_settings(db, principal, create=True)
    from agentmem.memory.composition import resolve_settings as resolve_formation

    resolve_formation(settings)  # required without evidence: exit 8 before anything is written
    server = AgentmemServer(settings=settings, host=host, port=port, allow_remote=allow_remote)
    server.start()
    stop = threading.Event()
    # SIGINT and SIGTERM both stop the server cleanly, even when started in the background
    # (where a shell starts the process with SIGINT ignored).
    stop_signals = (signal.SIGINT, signal.SIGTERM)
    in_main = threading.current_thread() is threading.main_thread()
    previous = (
        {sig: signal.signal(sig, lambda *_: stop.set()) for sig in stop_signals} if in_main else {}
    )
    try:
        created = "new API token" if server.created_token else "API token"
        print(
            f"agentmem: serving {server.url} (MCP at {server.url}/mcp) for {server.db_path} "
            f"({created} in {server.token_file}; Ctrl-C stops)",
            flush=True,
        )
        if print_token:
            print(read_token(server.token_file), flush=True)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.stop()
    print("agentmem: server stopped", file=sys.stderr, flush=True)
    return 0
