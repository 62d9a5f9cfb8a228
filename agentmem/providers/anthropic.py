"""The Anthropic Messages adapter: structured output through the JSON output format or one tool.

Two request shapes constrain a Claude response to a JSON schema, and a deployment may need
either, so both are offered:

``mode="output_format"`` (default)
    ``output_config: {"format": {"type": "json_schema", "schema": ...}}``, the generally
    available structured-outputs shape. It needs no beta header (the earlier beta shape, a
    top-level ``output_format`` with ``anthropic-beta: structured-outputs-2025-11-13``, is
    superseded). The response text is the concatenation of the ``text`` content blocks.

``mode="tool"``
    One strict tool named after the schema, forced with
    ``tool_choice: {"type": "tool", "name": schema_name}``. The tool is never executed: its
    ``input`` *is* the answer and becomes the response text as canonical JSON (sorted keys,
    compact). This works with models or gateways that predate the output format. It is the only
    tool in the request and exists only to carry the schema, which is what ADR-0057's "no tools
    advertised" protects: the model is given nothing it can invoke.

``stop_reason`` is read before any content: ``refusal`` is a ``refusal``; ``max_tokens`` and
``model_context_window_exceeded`` are ``truncated``. Usage is ``usage.input_tokens`` (plus any
prompt-cache read and write tokens, which are billed input too) and ``usage.output_tokens``.
No sampling parameters are sent (newer models reject non-default ones). The key comes from
``api_key_env`` at call time, sent as ``x-api-key``, and is never stored, shown or put in an
error.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

from agentmem.canonical import canonical_json
from agentmem.errors import ConfigError
from agentmem.providers.base import (
    Provider,
    ProviderRequest,
    ProviderResponse,
    Usage,
    api_key_from_env,
    decode_body,
    malformed,
    post_json,
    provider_error,
    read_int,
    require_httpx,
    sha256_hex,
    status_error,
    validate_base_url,
)

__all__ = ["ANTHROPIC_VERSION", "AnthropicProvider"]

#: The ``anthropic-version`` header value: the one stable Messages API version.
ANTHROPIC_VERSION: Final = "2023-06-01"

_TRUNCATED: Final = ("max_tokens", "model_context_window_exceeded")


class AnthropicProvider(Provider):
    """``POST {base_url}/v1/messages`` with one system prompt and one user message."""

    provider = "anthropic"
    network = True

    def __init__(
        self,
        base_url: str = "https://api.anthropic.com",
        model: str = "",
        api_key_env: str | None = "ANTHROPIC_API_KEY",
        mode: Literal["output_format", "tool"] = "output_format",
    ) -> None:
        if not isinstance(model, str) or not model:
            raise ConfigError("provider model must be a non-empty string")
        if mode not in ("output_format", "tool"):
            raise ConfigError(f"unknown anthropic mode {mode!r}; known: output_format, tool")
        if api_key_env is not None and (not isinstance(api_key_env, str) or not api_key_env):
            raise ConfigError("api_key_env must name an environment variable")
        require_httpx()
        self.base_url = validate_base_url(base_url)
        self.model = model
        self.api_key_env = api_key_env
        self.mode = mode

    def __repr__(self) -> str:
        return (
            f"AnthropicProvider(model={self.model!r}, base_url={self.base_url!r}, "
            f"api_key_env={self.api_key_env!r}, mode={self.mode!r})"
        )

    @property
    def url(self) -> str:
        """The endpoint every call posts to."""
        return f"{self.base_url}/v1/messages"

    def request_payload(self, request: ProviderRequest) -> dict[str, Any]:
        """The JSON body this mode sends for ``request``."""
        payload: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.max_output_tokens,
            "system": request.system,
            "messages": [{"role": "user", "content": request.user}],
        }
        if self.mode == "tool":
            payload["tools"] = [
                {
                    "name": request.schema_name,
                    "description": "Record the answer. The input is the complete result.",
                    "input_schema": request.schema,
                    "strict": True,
                }
            ]
            payload["tool_choice"] = {"type": "tool", "name": request.schema_name}
        else:
            payload["output_config"] = {"format": {"type": "json_schema", "schema": request.schema}}
        return payload

    async def complete(self, request: ProviderRequest, *, timeout_s: float) -> ProviderResponse:
        """One Messages call; see :class:`~agentmem.providers.base.Provider`."""
        if request.model != self.model:
            raise ValueError("ProviderRequest.model differs from the provider's model")
        body = msgspec.json.encode(self.request_payload(request))
        headers = {
            "content-type": "application/json",
            "accept": "application/json",
            "anthropic-version": ANTHROPIC_VERSION,
        }
        key = api_key_from_env(self.api_key_env, self.provider)
        if key is not None:
            headers["x-api-key"] = key
        status, raw = await post_json(
            provider=self.provider, url=self.url, headers=headers, body=body, timeout_s=timeout_s
        )
        request_sha = sha256_hex(body)
        if not 200 <= status < 300:
            raise status_error(self.provider, status, raw, request_sha256=request_sha)
        return self._parse(raw, request.schema_name, status=status, request_sha256=request_sha)

    def _parse(
        self, raw: bytes, schema_name: str, *, status: int, request_sha256: str
    ) -> ProviderResponse:
        name = self.provider
        data = decode_body(name, raw, status=status, request_sha256=request_sha256)
        stop_reason = data.get("stop_reason")
        if not isinstance(stop_reason, str):
            stop_reason = None
        body_sha = sha256_hex(raw)
        if stop_reason == "refusal":
            raise provider_error(
                "refusal",
                f"{name} refused the request",
                status=status,
                request_sha256=request_sha256,
                body_sha256=body_sha,
            )
        if stop_reason in _TRUNCATED:
            raise provider_error(
                "truncated",
                f"{name} stopped early ({stop_reason})",
                status=status,
                request_sha256=request_sha256,
                body_sha256=body_sha,
            )
        content = data.get("content")
        if not isinstance(content, list):
            raise malformed(name, "response has no content", status, request_sha256, raw)
        blocks = [block for block in content if isinstance(block, dict)]
        if self.mode == "tool":
            calls = [
                block
                for block in blocks
                if block.get("type") == "tool_use" and block.get("name") == schema_name
            ]
            if not calls or "input" not in calls[0]:
                raise malformed(
                    name, "response has no forced tool call", status, request_sha256, raw
                )
            text = canonical_json(calls[0]["input"]).decode()
        else:
            found = [block.get("text") for block in blocks if block.get("type") == "text"]
            texts = [part for part in found if isinstance(part, str)]
            if not texts or len(texts) != len(found):
                raise malformed(name, "response has no text content", status, request_sha256, raw)
            text = "".join(texts)
        usage = data.get("usage")
        input_tokens, output_tokens = (
            read_int(usage, "input_tokens"),
            read_int(usage, "output_tokens"),
        )
        if input_tokens is not None:
            # Prompt-cache reads and writes are billed input that ``input_tokens`` leaves out.
            input_tokens += read_int(usage, "cache_creation_input_tokens") or 0
            input_tokens += read_int(usage, "cache_read_input_tokens") or 0
        return ProviderResponse(
            text=text,
            usage=(
                Usage(input_tokens=input_tokens, output_tokens=output_tokens)
                if input_tokens is not None and output_tokens is not None
                else None
            ),
            finish_reason=stop_reason,
            body_sha256=body_sha,
            request_sha256=request_sha256,
        )
