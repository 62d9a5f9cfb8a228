"""``agentmem consent grant|withdraw|status``."""

from __future__ import annotations

from typing import Annotated

import msgspec
from cyclopts import Parameter

from agentmem.cli.common import (
    DbOpt,
    JsonOpt,
    open_store,
    print_fields,
    print_json,
    read_store,
    timestamp,
)
from agentmem.consent import ConsentStatus


def _principal_arg(role: str) -> Parameter:
    return Parameter(
        help=f"Principal {role}. Default: settings (AGENTMEM_PRINCIPAL, config file, 'local')."
    )


ChangedPrincipal = Annotated[str | None, _principal_arg("whose consent changes")]
ShownPrincipal = Annotated[str | None, _principal_arg("whose consent is shown")]


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
            ("since", timestamp(state.changed_at) or None),
        ]
    )


def grant(
    principal: ChangedPrincipal = None, /, *, db: DbOpt = None, json: JsonOpt = False
) -> None:
    """Grant trajectory-export consent. Only runs that start after this are exportable."""
    with open_store(db, principal, create=True) as store:
        _render(store.grant_consent(principal), json, "grant")


def withdraw(
    principal: ChangedPrincipal = None, /, *, db: DbOpt = None, json: JsonOpt = False
) -> None:
    """Withdraw consent: every export of the principal's runs expires now; the sweeper deletes
    them."""
    with open_store(db, principal, create=True) as store:
        state = store.withdraw_consent(principal)
        _render(state, json, "withdraw")
        if state.changed and not json:
            print("existing exports expired; run 'agentmem artifacts sweep' to delete them now")


def status(principal: ShownPrincipal = None, /, *, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Show a principal's consent for trajectory export."""
    with read_store(db, principal) as store:
        _render(store.consent_status(principal), json, "")
