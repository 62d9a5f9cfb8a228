"""The ``agentmem`` command line: a thin, lazily loaded layer over the library.

Only cyclopts is imported at start-up. Every command is registered by import path with its
help text, so ``agentmem --help`` and any one command import just what they use. Commands
parse, call the Store, render; they hold no logic of their own. Errors from the library's
exception tree become one line on stderr and the documented exit code (README, "Exit codes").
"""

from __future__ import annotations

import os
import sys

from cyclopts import App

__all__ = ["app", "main"]

app = App(
    name="agentmem",
    help="Local single-file memory, consent-gated exports and evaluated memory formation "
    "for desktop AI agents.",
    version_flags=["--version"],
)


def _group(name: str, help: str, commands: list[tuple[str, str, str]]) -> None:
    sub = App(name=name, help=help)
    for cmd, target, text in commands:
        sub.command(f"agentmem.cli.{target}", name=cmd, help=text)
    app.command(sub)


app.command("agentmem.cli.basic:init", name="init", help="Create the database (idempotent).")
app.command(
    "agentmem.cli.basic:status", name="status", help="Show the database path, schema and counts."
)
app.command(
    "agentmem.cli.demo:demo",
    name="demo",
    help="Import a sample conversation into a fresh database and show what agentmem keeps.",
)
_group(
    "event",
    "Append, import and list events of the append-only log.",
    [
        (
            "append",
            "event_cmds:append",
            "Append one event (JSON argument or stdin); prints its seq.",
        ),
        (
            "import",
            "event_cmds:import_",
            "Import a JSONL file (or - for stdin) in one transaction.",
        ),
        ("list", "event_cmds:list_", "List events in seq order."),
    ],
)
_group(
    "session",
    "List, show and close sessions.",
    [
        ("list", "session_cmds:list_", "List sessions, most recently active first."),
        ("show", "session_cmds:show", "Show one session and its runs."),
        ("close", "memory_cmds:close", "Close a session and consolidate it into beliefs."),
    ],
)
app.command(
    "agentmem.cli.memory_cmds:consolidate",
    name="consolidate",
    help="Consolidate idle and closed sessions into beliefs.",
)
_group(
    "beliefs",
    "Long-term memory formed from what users said.",
    [
        ("list", "memory_cmds:list_", "List beliefs."),
        ("show", "memory_cmds:show", "Show a belief with its evidence quotes and seqs."),
        ("search", "memory_cmds:search", "Full-text search over beliefs (BM25)."),
        (
            "forget",
            "memory_cmds:forget",
            "Erase a belief's text, keeping a content-free tombstone.",
        ),
    ],
)
_group(
    "run",
    "List, show and export agent runs.",
    [
        ("list", "run_cmds:list_", "List runs in start order."),
        ("show", "run_cmds:show", "Show one run: status, outcome, tools, consent stamp."),
        ("export", "run_cmds:export", "Export a run as a redacted, consent-gated trajectory."),
    ],
)
_group(
    "consent",
    "Grant, withdraw and show trajectory-export consent.",
    [
        ("grant", "consent_cmds:grant", "Grant consent for runs that start from now on."),
        ("withdraw", "consent_cmds:withdraw", "Withdraw consent; existing exports expire now."),
        ("status", "consent_cmds:status", "Show a principal's consent."),
    ],
)
_group(
    "artifacts",
    "List, read and sweep stored artifacts.",
    [
        ("list", "artifacts_cmds:list_", "List artifacts, newest first."),
        ("get", "artifacts_cmds:get", "Print an artifact (owner only, never once expired)."),
        ("sweep", "artifacts_cmds:sweep", "Delete expired artifacts and unreferenced blobs."),
    ],
)
app.command(
    "agentmem.cli.scan_cmds:scan",
    name="scan",
    help="Scan files for committed secrets; prints path:line:rule, never the match.",
)
_group(
    "gates",
    "Executable conformance gates.",
    [
        ("list", "gates_cmds:list_", "List the registered gates."),
        ("run", "gates_cmds:run", "Run gates against temporary databases."),
    ],
)
app.command(
    "agentmem.cli.serve_cmds:serve",
    name="serve",
    help="Serve the loopback HTTP API (bearer token, loopback only by default).",
)
app.command(
    "agentmem.cli.mcp_cmds:mcp",
    name="mcp",
    help="Run the MCP server over stdio (recall, record_message, close_session).",
)
_group(
    "eval",
    "Evaluate redaction and memory formation; turn an export into a corpus case.",
    [
        ("redaction", "eval_cmds:redaction", "Score the redaction rules on the redaction corpus."),
        (
            "memory-formation",
            "eval_cmds:memory_formation",
            "Evaluate provider-assisted formation; write evidence only when it passes.",
        ),
        ("promote", "eval_cmds:promote", "Turn a trajectory export into a corpus case to review."),
    ],
)
_group(
    "db",
    "Check and repair the database.",
    [
        ("check", "db_cmds:check", "Integrity check plus projection consistency."),
        (
            "rebuild-projections",
            "db_cmds:rebuild_projections",
            "Rebuild sessions, runs, tools and consent from the log.",
        ),
        ("backup", "privacy_cmds:backup", "Copy the database online to a checked backup file."),
        ("restore", "privacy_cmds:restore", "Replace the database with a checked backup."),
        ("encrypt", "privacy_cmds:encrypt", "Encrypt the database file in place (extra)."),
        ("decrypt", "privacy_cmds:decrypt", "Turn an encrypted database into a plain file."),
    ],
)
_group(
    "erase",
    "Erase a session or a principal for good (one content-free erasure event stays).",
    [
        ("session", "privacy_cmds:session", "Erase a session and everything formed from it."),
        ("principal", "privacy_cmds:principal", "Erase every trace of a principal."),
    ],
)


# What to type next, for the errors that are about the database file rather than the request.
_HINTS = {
    "database_busy": "another process is writing to it; try again "
    "(AGENTMEM_BUSY_TIMEOUT_MS sets how long to wait)",
    "disk_full": "free some space ('agentmem artifacts sweep' returns expired exports' pages "
    "once there is room to start)",
    "database_corrupt": "see what is damaged with 'agentmem db check' and restore a backup",
    # The library says what is wrong; what to type is the CLI's to say.
    "consent_required": "grant it with 'agentmem consent grant PRINCIPAL'",
    "evidence_mismatch": "'agentmem status' shows the model tuple the evidence must match",
}


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: run the app, map errors to exit codes, never a traceback.

    Set ``AGENTMEM_DEBUG=1`` to let unexpected exceptions propagate with their traceback.
    """
    from cyclopts.exceptions import CycloptsError

    from agentmem.errors import AgentmemError

    tokens = sys.argv[1:] if argv is None else argv
    debug = os.environ.get("AGENTMEM_DEBUG") == "1"
    try:
        if "--help" in tokens or "-h" in tokens:
            _full_help(tokens)
        result = app(tokens, exit_on_error=False, print_error=False, result_action="return_value")
    except CycloptsError as exc:
        where = " ".join(["agentmem", *(exc.command_chain or ()), "--help"])
        print(f"agentmem: usage: {_usage(exc)} (see '{where}')", file=sys.stderr)
        return 2
    except AgentmemError as exc:
        if debug:
            raise
        hint = _HINTS.get(exc.code)
        print(f"agentmem: {exc.message}" + (f"; {hint}" if hint else ""), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("agentmem: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `agentmem event list | head`); that is not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0
    except Exception as exc:
        if debug:
            raise
        where = _log_internal_error(exc)
        print(
            f"agentmem: internal error ({exc.__class__.__name__}); details in {where}",
            file=sys.stderr,
        )
        return 1
    if isinstance(result, int) and not isinstance(result, bool):
        return result
    return 0


def _full_help(tokens: list[str]) -> None:
    """Let a command's own ``--help`` show its whole docstring (exit codes, defaults, why).

    The one line registered with each command is for its parent's listing, which must not
    import the command's module; once the command is being asked about, it is imported anyway.
    """
    import inspect

    current = app
    for token in tokens:
        if token.startswith("-") or token not in current:
            break
        current = current[token]
    if current is not app and current.default_command is not None:
        doc = inspect.getdoc(current.default_command)
        if doc:
            current.help = doc


def _usage(exc: Exception) -> str:
    """cyclopts' message in the words a user typed ("unexpected argument 'x'")."""
    from cyclopts.exceptions import MissingArgumentError, UnusedCliTokensError

    if isinstance(exc, UnusedCliTokensError) and exc.unused_tokens:
        extra = ", ".join(repr(t) for t in exc.unused_tokens)
        return f"unexpected argument{'s' if len(exc.unused_tokens) > 1 else ''} {extra}"
    if isinstance(exc, MissingArgumentError) and exc.argument is not None:
        return f"missing {exc.argument.name}"
    first = str(exc).strip().splitlines()
    return first[0] if first else exc.__class__.__name__


def _log_internal_error(exc: BaseException) -> str:
    import traceback

    import platformdirs

    log_dir = platformdirs.user_log_path("agentmem")
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        path = log_dir / "agentmem.log"
        with path.open("a", encoding="utf-8") as handle:
            handle.write("".join(traceback.format_exception(exc)))
        return str(path)
    except OSError:
        return "(log unavailable; rerun with AGENTMEM_DEBUG=1)"
