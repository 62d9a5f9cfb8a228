"""Adapters that plug agentmem into agent frameworks and protocols.

Each adapter is a thin layer over :class:`agentmem.Store` and lives in its own module, so
importing this package imports no third-party SDK:

- :mod:`agentmem.integrations.openai_agents`: ``AgentmemSession``, the OpenAI Agents SDK
  ``Session`` protocol on the event log (extra ``openai-agents`` to run agents with it);
- :mod:`agentmem.integrations.mcp_server`: the MCP server behind ``agentmem mcp`` (extra
  ``mcp``; importing it needs the MCP Python SDK).
"""

from __future__ import annotations

__all__: list[str] = []
