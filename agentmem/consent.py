"""Consent for trajectory export (ADR-0032 decision 5): stamped forward, withdrawn backward.

A grant or a withdrawal is an ordinary process event in the log; the ``consent`` projection
and the run stamp are maintained by SQL triggers (schema.sql), so they hold even when another
client writes the file. This module only decides whether a change is needed and reads state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

import msgspec

from agentmem.events import ConsentGranted, ConsentWithdrawn

if TYPE_CHECKING:
    from agentmem.log import EventLog

__all__ = ["PURPOSE", "ConsentStatus", "grant", "status", "withdraw"]

PURPOSE: Final = "trajectory_export"


class ConsentStatus(msgspec.Struct, frozen=True):
    """A principal's consent for one purpose. ``changed`` is false when the call was a no-op."""

    principal: str
    purpose: str
    state: str  # granted | withdrawn | never
    granted_seq: int | None
    last_withdrawn_seq: int | None
    changed_at: str | None
    changed: bool = False


def status(store: EventLog, principal: str | None = None, purpose: str = PURPOSE) -> ConsentStatus:
    """Current consent of ``principal`` (the store's principal when ``None``)."""
    principal = store.acting_for(principal)
    rows = store.conn.execute(
        "SELECT status, granted_seq, last_withdrawn_seq, changed_at FROM consent "
        "WHERE principal = ? AND purpose = ?",
        (principal, purpose),
    ).fetchall()
    if not rows:
        return ConsentStatus(principal, purpose, "never", None, None, None)
    # consent is a STRICT table: these are its column types.
    state, granted, withdrawn, changed_at = cast(
        "tuple[str, int | None, int | None, str | None]", rows[0]
    )
    return ConsentStatus(principal, purpose, state, granted, withdrawn, changed_at)


def grant(store: EventLog, principal: str | None = None) -> ConsentStatus:
    """Grant consent from now on. Runs that already started stay unstamped; repeat is a no-op."""
    principal = store.acting_for(principal)
    with store.transaction():
        if status(store, principal).state == "granted":
            return status(store, principal)
        store.append_process(ConsentGranted(principal=principal, purpose=PURPOSE))
        return msgspec.structs.replace(status(store, principal), changed=True)


def withdraw(store: EventLog, principal: str | None = None) -> ConsentStatus:
    """Withdraw consent: every export of the principal's runs expires now (same transaction)."""
    principal = store.acting_for(principal)
    with store.transaction():
        if status(store, principal).state != "granted":
            return status(store, principal)
        store.append_process(ConsentWithdrawn(principal=principal, purpose=PURPOSE))
        return msgspec.structs.replace(status(store, principal), changed=True)
