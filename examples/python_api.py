"""agentmem's Python API end to end: record a run, form memory, recall it, export it.

Everything happens offline in a temporary database. The agent's turns go into the append-only
log; closing the session forms beliefs from what the user said (and only from that); recall is a
full-text search over those beliefs; an export is a redacted trajectory document that exists only
because consent was granted before the run started, and stops existing once it is withdrawn.

Run it with ``python examples/python_api.py``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import agentmem

EMAIL_SCHEMA = {
    "type": "object",
    "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
    "required": ["to", "body"],
}


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        agentmem.open(str(Path(tmp) / "agentmem.db"), principal="ada") as store,
    ):
        # Consent is stamped on runs that start after the grant; export reads the stamp.
        store.grant_consent()

        conversation = [
            {
                "type": "run.started",
                "run_id": "run-1",
                "tools": [
                    {"name": "send_email", "schema": EMAIL_SCHEMA},
                ],
            },
            {
                "type": "user.message.created",
                "run_id": "run-1",
                "text": (
                    "My name is Ada and I live in Lisbon. Please tell my landlord at "
                    "landlord@example.com that the heater is broken."
                ),
            },
            {
                "type": "assistant.message.created",
                "run_id": "run-1",
                "tool_calls": [
                    {
                        "id": "call-1",
                        "name": "send_email",
                        "arguments": json.dumps(
                            {"to": "landlord@example.com", "body": "The heater is broken."}
                        ),
                    },
                ],
            },
            {
                "type": "tool.result.created",
                "run_id": "run-1",
                "tool_call_id": "call-1",
                "content": "sent",
            },
            {
                "type": "assistant.message.created",
                "run_id": "run-1",
                "text": "Done, Ada: I emailed your landlord. (I live in Paris, by the way.)",
            },
            {"type": "run.completed", "run_id": "run-1", "outcome": "succeeded"},
        ]
        appended = store.append_many({**event, "session_id": "chat-1"} for event in conversation)
        print(
            f"appended {appended.imported} events (seq {appended.first_seq}..{appended.last_seq})"
        )

        report = store.close_session("chat-1")
        print(
            f"closed chat-1: {report.counts.get('formed', 0)} beliefs formed "
            f"({report.formation_policy})"
        )

        for belief in store.search_beliefs("where does Ada live", principal="ada"):
            quotes = "; ".join(f"seq {seq}: {quote!r}" for seq, quote in belief.evidence)
            print(f"recall: {belief.statement} [{quotes}]")
        print(f"recall 'Paris': {len(store.search_beliefs('Paris', principal='ada'))} beliefs")

        export = store.export_run("run-1")
        _, data = store.read_artifact(export.artifact_id)
        document = json.loads(data)
        print(f"exported run-1 as {export.artifact_id} ({export.replacements} redactions)")
        for message in document["messages"]:
            calls = [c["function"]["arguments"] for c in message.get("tool_calls", [])]
            print(f"  {message['role']:<9} {message['content'] or ''}{' '.join(calls)}")

        store.withdraw_consent()
        try:
            store.read_artifact(export.artifact_id)
        except agentmem.ArtifactUnavailable as exc:
            print(f"after withdrawal: {exc.message}")


if __name__ == "__main__":
    main()
