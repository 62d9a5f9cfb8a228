"""``agentmem serve``: run the loopback HTTP API in the foreground until Ctrl-C."""

from __future__ import annotations

import logging
import signal
import sys
import threading
from typing import Annotated

from cyclopts import Parameter

from agentmem.cli._common import DbOpt, PrincipalOpt, resolve_settings, whole_number


def serve(
    *,
    host: Annotated[
        str, Parameter(help="Address to listen on; non-loopback needs --allow-remote.")
    ] = "127.0.0.1",
    port: Annotated[int, whole_number("TCP port (0: any free port).", maximum=65535)] = 8765,
    allow_remote: Annotated[
        bool,
        Parameter(
            negative="",
            help="Allow a non-loopback --host. Anyone who can reach the port and holds the "
            "token can read and write the database.",
        ),
    ] = False,
    rotate_token: Annotated[
        bool,
        Parameter(
            negative="",
            help="Replace the API token, print the token file's path and exit; running servers "
            "accept only the new token from their next request.",
        ),
    ] = False,
    print_token: Annotated[
        bool, Parameter(negative="", help="Also print the token itself (it is a secret).")
    ] = False,
    db: DbOpt = None,
    principal: PrincipalOpt = None,
) -> int:
    """Serve the HTTP API on 127.0.0.1 with a bearer token from a 0600 file.

    The token lives in ``api-token`` under the user config directory (``AGENTMEM_CONFIG_DIR``
    overrides the directory); it is created on first start and never printed unless
    ``--print-token`` is given.
    """
    from agentmem.http import AgentmemServer, default_token_path, read_token

    if rotate_token:
        from agentmem.http import rotate_token as rotate

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
            f"agentmem: serving {server.url} for {server.db_path} "
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
