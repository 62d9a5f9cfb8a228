"""One adapter for every server that speaks OpenAI chat completions, tuned by a per-server profile.

OpenAI, Ollama, llama.cpp, vLLM and LM Studio all accept ``POST {base_url}/chat/completions``,
but they disagree on the details that decide whether a structured-output call works at all:

=========  =====================  ============================  ======  ==============  ========
profile    max-token parameter    ``response_format``           strict  schema shown    sampling
=========  =====================  ============================  ======  ==============  ========
openai     max_completion_tokens  json_schema {name, schema}    yes     no              default
ollama     max_tokens             json_schema {name, schema}    no      in system text  temp 0
llamacpp   max_tokens             json_object + schema          no      in system text  temp 0
vllm       max_tokens             json_schema {name, schema}    no      no              temp 0
lmstudio   max_tokens             json_schema {name, schema}    yes     in system text  temp 0
=========  =====================  ============================  ======  ==============  ========

* OpenAI deprecated ``max_tokens`` for ``max_completion_tokens`` (reasoning models reject the old
  name) and its reasoning models reject a non-default ``temperature``, so neither is sent.
* llama-cpp-python's server accepts ``{"type": "json_object", "schema": ...}`` and rejects
  ``"json_schema"``; llama.cpp's own llama-server accepts both, so the llamacpp profile sends the
  form both understand. llama-server may also omit ``usage`` and report ``timings.prompt_n`` /
  ``timings.predicted_n`` (plus ``cache_n``) instead; the llamacpp profile reads those as a
  fallback.
* ``strict`` is sent only where the server documents it; Ollama and vLLM constrain decoding with
  the schema anyway and ignore the flag.
* Small local models follow a schema far better when they also *see* it, so the local profiles
  append the schema to the system prompt (vLLM usually serves larger models with guided decoding
  and OpenAI enforces the schema server-side).

No ``tools`` are ever sent (ADR-0057: no tools advertised). The API key, if any, is read from the
environment variable named by ``api_key_env`` at call time and sent as a bearer token; it is
never stored on the object, shown by ``repr`` or put in an exception message.
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

__all__ = ["PROFILES", "OpenAICompatibleProvider", "Profile"]


class Profile(msgspec.Struct, frozen=True, kw_only=True):
    """What differs between OpenAI-compatible servers (see the module table)."""

    name: str
    max_tokens_param: Literal["max_completion_tokens", "max_tokens"]
    response_format: Literal["json_schema", "json_object_schema"]
    strict: bool
    schema_in_prompt: bool
    temperature: float | None
    usage_from_timings: bool
    default_base_url: str
    default_api_key_env: str | None


PROFILES: Final[dict[str, Profile]] = {
    "openai": Profile(
        name="openai",
        max_tokens_param="max_completion_tokens",
        response_format="json_schema",
        strict=True,
        schema_in_prompt=False,
        temperature=None,
        usage_from_timings=False,
        default_base_url="https://api.openai.com/v1",
        default_api_key_env="OPENAI_API_KEY",
    ),
    "ollama": Profile(
        name="ollama",
        max_tokens_param="max_tokens",
        response_format="json_schema",
        strict=False,
        schema_in_prompt=True,
        temperature=0.0,
        usage_from_timings=False,
        default_base_url="http://127.0.0.1:11434/v1",
        default_api_key_env=None,
    ),
    "llamacpp": Profile(
        name="llamacpp",
        max_tokens_param="max_tokens",
        response_format="json_object_schema",
        strict=False,
        schema_in_prompt=True,
        temperature=0.0,
        usage_from_timings=True,
        default_base_url="http://127.0.0.1:8080/v1",
        default_api_key_env=None,
    ),
    "vllm": Profile(
        name="vllm",
        max_tokens_param="max_tokens",
        response_format="json_schema",
        strict=False,
        schema_in_prompt=False,
        temperature=0.0,
        usage_from_timings=False,
        default_base_url="http://127.0.0.1:8000/v1",
        default_api_key_env=None,
    ),
    "lmstudio": Profile(
        name="lmstudio",
        max_tokens_param="max_tokens",
        response_format="json_schema",
        strict=True,
        schema_in_prompt=True,
        temperature=0.0,
        usage_from_timings=False,
        default_base_url="http://127.0.0.1:1234/v1",
        default_api_key_env=None,
    ),
}


def schema_instruction(schema: dict[str, Any], schema_name: str) -> str:
    """The text appended to the system prompt when a profile shows the model its schema."""
    return (
        f"\n\nRespond with exactly one JSON object and nothing else. It must conform to this "
        f"JSON schema (named {schema_name}):\n{canonical_json(schema).decode()}"
    )


class OpenAICompatibleProvider(Provider):
    """``POST {base_url}/chat/completions`` with JSON-schema constrained output.

    ``base_url`` includes the API prefix (``https://api.openai.com/v1``,
    ``http://127.0.0.1:11434/v1``). ``api_key_env`` names the environment variable holding the
    bearer token; ``None`` sends no ``Authorization`` header (local servers).
    :func:`agentmem.providers.make_provider` fills in the profile's default URL and variable.
    """

    network = True

    def __init__(
        self,
        base_url: str,
        model: str,
        profile: str | Profile = "openai",
        api_key_env: str | None = None,
    ) -> None:
        if isinstance(profile, str):
            if profile not in PROFILES:
                known = ", ".join(sorted(PROFILES))
                raise ConfigError(f"unknown OpenAI-compatible profile {profile!r}; known: {known}")
            profile = PROFILES[profile]
        if not isinstance(model, str) or not model:
            raise ConfigError("provider model must be a non-empty string")
        if api_key_env is not None and (not isinstance(api_key_env, str) or not api_key_env):
            raise ConfigError("api_key_env must name an environment variable")
        require_httpx()
        self.base_url = validate_base_url(base_url)
        self.model = model
        self.profile = profile
        self.provider = profile.name
        self.api_key_env = api_key_env

    def __repr__(self) -> str:
        return (
            f"OpenAICompatibleProvider(provider={self.provider!r}, model={self.model!r}, "
            f"base_url={self.base_url!r}, api_key_env={self.api_key_env!r})"
        )

    @property
    def url(self) -> str:
        """The endpoint every call posts to."""
        return f"{self.base_url}/chat/completions"

    def request_payload(self, request: ProviderRequest) -> dict[str, Any]:
        """The JSON body this profile sends for ``request`` (no tools, never streaming)."""
        profile = self.profile
        system = request.system
        if profile.schema_in_prompt:
            system += schema_instruction(request.schema, request.schema_name)
        if profile.response_format == "json_object_schema":
            response_format: dict[str, Any] = {"type": "json_object", "schema": request.schema}
        else:
            json_schema: dict[str, Any] = {"name": request.schema_name, "schema": request.schema}
            if profile.strict:
                json_schema["strict"] = True
            response_format = {"type": "json_schema", "json_schema": json_schema}
        payload: dict[str, Any] = {
            "model": request.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": request.user},
            ],
            "response_format": response_format,
            profile.max_tokens_param: request.max_output_tokens,
            "stream": False,
        }
        if profile.temperature is not None:
            payload["temperature"] = profile.temperature
        return payload

    async def complete(self, request: ProviderRequest, *, timeout_s: float) -> ProviderResponse:
        """One chat-completions call; see :class:`~agentmem.providers.base.Provider`."""
        if request.model != self.model:
            raise ValueError("ProviderRequest.model differs from the provider's model")
        body = msgspec.json.encode(self.request_payload(request))
        headers = {"content-type": "application/json", "accept": "application/json"}
        key = api_key_from_env(self.api_key_env, self.provider)
        if key is not None:
            headers["authorization"] = f"Bearer {key}"
        status, raw = await post_json(
            provider=self.provider, url=self.url, headers=headers, body=body, timeout_s=timeout_s
        )
        request_sha = sha256_hex(body)
        if not 200 <= status < 300:
            raise status_error(self.provider, status, raw, request_sha256=request_sha)
        return self._parse(raw, status=status, request_sha256=request_sha)

    def _parse(self, raw: bytes, *, status: int, request_sha256: str) -> ProviderResponse:
        name = self.provider
        data = decode_body(name, raw, status=status, request_sha256=request_sha256)
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise malformed(name, "response has no choices", status, request_sha256, raw)
        choice = choices[0]
        finish_reason = choice.get("finish_reason")
        if not isinstance(finish_reason, str):
            finish_reason = None
        body_sha = sha256_hex(raw)
        if finish_reason == "length":
            raise provider_error(
                "truncated",
                f"{name} stopped at the output token limit",
                status=status,
                request_sha256=request_sha256,
                body_sha256=body_sha,
            )
        message = choice.get("message")
        if not isinstance(message, dict):
            raise malformed(name, "response choice has no message", status, request_sha256, raw)
        refusal = message.get("refusal")
        if (refusal is not None and refusal != "") or finish_reason == "content_filter":
            raise provider_error(
                "refusal",
                f"{name} refused the request",
                status=status,
                request_sha256=request_sha256,
                body_sha256=body_sha,
            )
        content = message.get("content")
        if not isinstance(content, str):
            raise malformed(name, "response message has no content", status, request_sha256, raw)
        return ProviderResponse(
            text=content,
            usage=self._usage(data),
            finish_reason=finish_reason,
            body_sha256=body_sha,
            request_sha256=request_sha256,
        )

    def _usage(self, data: dict[str, Any]) -> Usage | None:
        usage = data.get("usage")
        prompt, completion = read_int(usage, "prompt_tokens"), read_int(usage, "completion_tokens")
        if prompt is not None and completion is not None:
            return Usage(input_tokens=prompt, output_tokens=completion)
        if self.profile.usage_from_timings:
            timings = data.get("timings")
            prompt, completion = read_int(timings, "prompt_n"), read_int(timings, "predicted_n")
            if prompt is not None and completion is not None:
                # prompt_n counts only the tokens evaluated now; cache_n the reused prefix.
                cached = read_int(timings, "cache_n") or 0
                return Usage(input_tokens=prompt + cached, output_tokens=completion)
        return None
