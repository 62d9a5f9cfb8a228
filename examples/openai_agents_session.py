"""An OpenAI Agents SDK agent whose session is agentmem: memory and governed export for free.

The agent loop is the SDK's own ``Runner.run``; only the session changes, from the SDK's SQLite
session to :class:`~agentmem.integrations.openai_agents.AgentmemSession`. The model is the
SDK's scripted test model, so this runs offline and deterministically; swap in a real model
and nothing else changes. After two turns (one with a tool call) the session is closed, memory
forms from what the user said, and the run is exported under the consent granted up front.

Needs the extra: ``pip install 'agentmem[openai-agents]'``; run ``python
examples/openai_agents_session.py``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

try:
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.testing import ScriptedModel, assistant_message, function_call
except ImportError:
    sys.exit("this example needs the OpenAI Agents SDK: pip install 'agentmem[openai-agents]'")

import agentmem
from agentmem.integrations.openai_agents import AgentmemSession


@function_tool
def weather(city: str) -> str:
    """Today's weather in a city."""
    return f"sunny, 24 °C in {city}"


def scripted_model() -> ScriptedModel:
    """What a real model might answer, scripted: a tool call, then two replies."""
    return ScriptedModel(
        [
            [function_call("weather", {"city": "Lisbon"}, call_id="call-1")],
            [assistant_message("It is sunny and 24 °C in Lisbon.")],
            [assistant_message("Nice to meet you, Ada!")],
        ]
    )


async def main() -> None:
    set_tracing_disabled(True)  # offline: no trace upload
    agent = Agent(
        name="assistant", instructions="Be brief.", model=scripted_model(), tools=[weather]
    )
    with (
        tempfile.TemporaryDirectory() as tmp,
        agentmem.open(str(Path(tmp) / "agentmem.db"), principal="ada") as store,
    ):
        store.grant_consent()
        session = AgentmemSession("chat-1", store=store)

        for text in ("What's the weather in Lisbon?", "My name is Ada and I live in Lisbon."):
            result = await Runner.run(agent, text, session=session)
            print(f"user: {text}\nagent: {result.final_output}")

        items = await session.get_items()
        print(f"session items: {len(items)} ({', '.join(i.get('type', 'message') for i in items)})")

        run_id = session.run_id
        report = await session.close_session()  # completes the run, then forms memory
        print(f"closed chat-1: {report.counts.get('formed', 0)} beliefs formed")
        for belief in store.beliefs(principal="ada"):
            print(f"belief: {belief.statement} (evidence seq {belief.evidence[0][0]})")

        export = store.export_run(run_id)
        _, data = store.read_artifact(export.artifact_id)
        roles = [m["role"] for m in json.loads(data)["messages"]]
        print(f"exported {run_id} as {export.artifact_id}: {' -> '.join(roles)}")


if __name__ == "__main__":
    asyncio.run(main())
