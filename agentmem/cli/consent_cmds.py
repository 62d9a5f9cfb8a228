"""``agentmem consent grant|withdraw|status``."""

from __future__ import annotations

from typing import Annotated

import msgspec
from cyclopts import Parameter

from agentmem.cli._common import DbOpt, JsonOpt, open_store, print_fields, print_json, read_store
from agentmem.consent import ConsentStatus

PrincipalArg = Annotated[
    str | None,
    Parameter(
        help="Principal whose consent changes. Default: settings (AGENTMEM_PRINCIPAL, config "
        "file, 'local')."
    ),
]


def _render(state: ConsentStatus, json: bool, verb: str) -> None:
    if json:
        print_json(msgspec.to_builtins(state))
        return
    if verb and not state.changed:
        print(f"no change: consent of {state.principal!r} is already {state.state}")
    print_fields(
        [
            ("principal", state.principal),
            ("purpose", state.purpose),
            ("consent", state.state),
            ("since", state.changed_at),
        ]
    )


def grant(principal: PrincipalArg = None, /, *, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Grant trajectory-export consent. Only runs that start after this are exportable."""
    with open_store(db, principal, create=True) as store:
        _render(store.grant_consent(principal), json, "grant")


def withdraw(principal: PrincipalArg = None, /, *, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Withdraw consent: every export of the principal's runs expires now; the sweeper deletes
    them."""
    with open_store(db, principal, create=True) as store:
        state = store.withdraw_consent(principal)
        _render(state, json, "withdraw")
        if state.changed and not json:
            print("existing exports expired; run 'agentmem artifacts sweep' to delete them now")


def status(principal: PrincipalArg = None, /, *, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Show a principal's consent for trajectory export."""
    with read_store(db, principal) as store:
        _render(store.consent_status(principal), json, "")
