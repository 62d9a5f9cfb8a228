"""Builders for interchange-format events used across tests."""

from __future__ import annotations


def user_msg(
    text: str,
    *,
    session: str = "s1",
    run: str | None = "r1",
    principal: str = "alice",
    event_id: str | None = None,
) -> dict:
    ev = {
        "type": "user.message.created",
        "session_id": session,
        "principal": principal,
        "text": text,
    }
    if run is not None:
        ev["run_id"] = run
    if event_id is not None:
        ev["event_id"] = event_id
    return ev


def run_started(
    run: str = "r1",
    *,
    session: str = "s1",
    principal: str = "alice",
    parent: str | None = None,
    tools: list | None = None,
) -> dict:
    ev = {
        "type": "run.started",
        "session_id": session,
        "principal": principal,
        "run_id": run,
        "tools": tools or [],
    }
    if parent is not None:
        ev["parent_run_id"] = parent
    return ev
