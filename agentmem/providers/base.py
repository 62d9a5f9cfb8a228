"""The provider port: one structured-output call, a closed set of failure classes, no retries.

Provider-assisted memory formation (ADR-0057) makes exactly one model call per consolidation and
falls back to the deterministic extractor on *any* failure, so this port is deliberately small:
:class:`Provider.complete` takes a :class:`ProviderRequest` and either returns the raw JSON text
the model produced (plus usage and content-free hashes for the audit) or raises
:class:`~agentmem.errors.ProviderError` whose ``failure_class`` is one of
:data:`FAILURE_CLASSES`. Parsing and validating the text is the extractor's job, not the
adapter's.

The HTTP plumbing shared by the adapters lives here too, because every rule that makes the call
auditable and bounded must hold for all of them: the whole call runs under one hard deadline
(``asyncio.timeout``), the transport never retries, the request body is hashed exactly as sent
and the response body exactly as received, error messages never carry prompt text, response
text or API keys, and ``asyncio.CancelledError`` is never converted into anything else.

``httpx`` is an optional dependency (the ``providers`` extra); it is imported only when a call is
made or an HTTP adapter is constructed, so ``import agentmem.providers`` works without it.
"""

from __future__ import annotations

import abc
import asyncio
import functools
import hashlib
import os
import urllib.request
from types import ModuleType
from typing import Any, Final
from urllib.parse import urlsplit

import msgspec

from agentmem.errors import ConfigError, ProviderError
from agentmem.net import is_loopback

__all__ = [
    "FAILURE_CLASSES",
    "MAX_RESPONSE_BYTES",
    "Provider",
    "ProviderRequest",
    "ProviderResponse",
    "Usage",
    "provider_error",
    "require_httpx",
    "sha256_hex",
]

#: Every ``ProviderError.failure_class`` an adapter may raise.
FAILURE_CLASSES: Final = (
    "transport",
    "timeout",
    "http_status",
    "schema_rejected",
    "refusal",
    "truncated",
    "malformed_json",
)

#: A response body larger than this is refused as ``malformed_json``. The budget caps output at
#: 4,096 tokens, so a legitimate body is a few tens of KiB; the cap only stops a runaway server.
MAX_RESPONSE_BYTES: Final = 8 * 1024 * 1024

# Connecting to a healthy server takes milliseconds; a connect that takes longer than this is a
# dead host, and the rest of the deadline is better spent failing over to deterministic formation.
_CONNECT_TIMEOUT_S: Final = 10.0

# Markers in an HTTP 400/422 body that mean "this server does not do structured output the way
# it was asked", as opposed to any other bad request.
_SCHEMA_MARKERS: Final = (
    "response_format",
    "json_schema",
    "json schema",
    "output_format",
    "output_config",
    "strict",
    "structured output",
    "structured-output",
)


class ProviderRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One structured-output request.

    ``schema`` is already restricted to the subset every supported server honours (object,
    properties, all-required, ``additionalProperties: false``, enum, items, ``type`` lists with
    ``"null"``); adapters pass it through unchanged.
    """

    model: str
    system: str
    user: str
    schema: dict[str, Any]
    schema_name: str
    max_output_tokens: int


class Usage(msgspec.Struct, frozen=True, kw_only=True):
    """Token usage as the server reported it."""

    input_tokens: int
    output_tokens: int


class ProviderResponse(msgspec.Struct, frozen=True, kw_only=True):
    """A successful call: the raw model text plus what a content-free audit needs.

    ``text`` is the JSON text the model produced (for a forced tool call, the canonical JSON of
    the tool input); ``usage`` is ``None`` when the server reported none; the two hashes are
    SHA-256 hex digests of the exact request body sent and the response body received.
    """

    text: str
    usage: Usage | None
    finish_reason: str | None
    body_sha256: str
    request_sha256: str


class Provider(abc.ABC):
    """The port every adapter implements.

    ``provider`` names the protocol family ("openai", "ollama", "llamacpp", "vllm", "lmstudio",
    "anthropic", "scripted") and, with ``model``, forms the tuple that evidence and pricing are
    keyed by. ``network`` is ``True`` when calls leave the process (the evaluation command
    requires ``--live`` for those).
    """

    provider: str
    model: str
    network: bool

    @abc.abstractmethod
    async def complete(self, request: ProviderRequest, *, timeout_s: float) -> ProviderResponse:
        """Make one call bounded by ``timeout_s`` seconds; raise ``ProviderError`` on failure."""


def sha256_hex(data: bytes) -> str:
    """SHA-256 hex digest of ``data``."""
    return hashlib.sha256(data).hexdigest()


def provider_error(
    failure_class: str,
    message: str,
    *,
    status: int | None = None,
    request_sha256: str | None = None,
    body_sha256: str | None = None,
) -> ProviderError:
    """An adapter's :class:`ProviderError`, its ``failure_class`` checked against the known ones."""
    if failure_class not in FAILURE_CLASSES:
        raise ValueError(f"unknown provider failure class {failure_class!r}")
    return ProviderError(
        failure_class,
        message,
        status=status,
        request_sha256=request_sha256,
        body_sha256=body_sha256,
    )


def require_httpx() -> ModuleType:
    """Import httpx, or explain which extra installs it."""
    try:
        import httpx
    except ImportError as exc:
        raise ConfigError(
            "provider calls need httpx, which the optional 'providers' extra installs: "
            "pip install 'agentmem[providers]'"
        ) from exc
    return httpx


def validate_base_url(base_url: str) -> str:
    """Return ``base_url`` without a trailing slash, or raise ``ConfigError``."""
    if not isinstance(base_url, str):
        raise ConfigError("provider base_url must be a string")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"provider base_url must be an http:// or https:// URL, not {base_url!r}")
    if parts.username or parts.password:
        raise ConfigError("provider base_url must not embed credentials; use api_key_env")
    return base_url.rstrip("/")


@functools.cache
def _ssl_context() -> Any:
    """One verifying TLS context per process: building it (loading the CA bundle) costs ~30 ms,
    and a shared, never-mutated context is safe to reuse across clients."""
    return require_httpx().create_ssl_context()


def _environment_proxy(url: str) -> str | None:
    """The HTTP(S) proxy the environment selects for ``url``, if any.

    Passing an explicit transport (needed to pin ``retries=0``) makes httpx ignore the proxy
    environment, so it is applied here instead: ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY``
    with ``NO_PROXY`` honoured, never for loopback servers, and only for http(s) proxies.
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if is_loopback(host):
        return None
    proxies = urllib.request.getproxies_environment()
    # typeshed omits this stdlib function (undocumented, present since Python 3.4).
    if urllib.request.proxy_bypass_environment(host, proxies):  # type: ignore[attr-defined]
        return None
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if proxy and urlsplit(proxy).scheme in ("http", "https"):
        return proxy
    return None


def api_key_from_env(env_name: str | None, provider: str) -> str | None:
    """Read the API key named by ``env_name`` at call time; never store or echo it."""
    if env_name is None:
        return None
    key = os.environ.get(env_name, "")
    if not key:
        raise ConfigError(
            f"the {provider} provider reads its API key from the environment variable "
            f"{env_name}, which is not set"
        )
    return key


async def post_json(
    *,
    provider: str,
    url: str,
    headers: dict[str, str],
    body: bytes,
    timeout_s: float,
) -> tuple[int, bytes]:
    """POST ``body`` once and return ``(status, response body)``; all failures are ProviderError.

    The whole exchange, including connecting and reading the body, runs under
    ``asyncio.timeout(timeout_s)``; httpx's own phase timeouts are bounded by the same value so
    whichever fires first is reported as ``timeout``. Cancellation propagates untouched.
    """
    httpx = require_httpx()
    request_sha = sha256_hex(body)
    timeout = httpx.Timeout(
        connect=min(timeout_s, _CONNECT_TIMEOUT_S), read=timeout_s, write=timeout_s, pool=timeout_s
    )
    transport = httpx.AsyncHTTPTransport(
        verify=_ssl_context(), retries=0, proxy=_environment_proxy(url)
    )
    try:
        async with asyncio.timeout(timeout_s):
            async with httpx.AsyncClient(
                transport=transport, timeout=timeout, follow_redirects=False, trust_env=False
            ) as client:
                try:
                    async with client.stream("POST", url, content=body, headers=headers) as resp:
                        chunks: list[bytes] = []
                        size = 0
                        async for chunk in resp.aiter_bytes():
                            size += len(chunk)
                            if size > MAX_RESPONSE_BYTES:
                                raise provider_error(
                                    "malformed_json",
                                    f"{provider} response body exceeds {MAX_RESPONSE_BYTES} bytes",
                                    status=resp.status_code,
                                    request_sha256=request_sha,
                                )
                            chunks.append(chunk)
                        return resp.status_code, b"".join(chunks)
                except httpx.TimeoutException as exc:
                    raise provider_error(
                        "timeout",
                        f"{provider} call timed out ({type(exc).__name__})",
                        request_sha256=request_sha,
                    ) from exc
                except httpx.DecodingError:
                    raise provider_error(
                        "malformed_json",
                        f"{provider} response body could not be decoded",
                        request_sha256=request_sha,
                    ) from None
                except httpx.TransportError as exc:
                    raise provider_error(
                        "transport",
                        f"{provider} call failed in transport ({type(exc).__name__})",
                        request_sha256=request_sha,
                    ) from exc
    except TimeoutError as exc:
        raise provider_error(
            "timeout",
            f"{provider} call exceeded its {timeout_s:g} s deadline",
            request_sha256=request_sha,
        ) from exc


def status_error(provider: str, status: int, body: bytes, *, request_sha256: str) -> ProviderError:
    """Classify a non-2xx answer: ``schema_rejected`` for a structured-output refusal, else
    ``http_status``. FastAPI-based servers (llama-cpp-python) report request validation as 422,
    so 422 is read like 400."""
    body_sha = sha256_hex(body)
    if status in (400, 422):
        lowered = body[:65536].decode("utf-8", errors="replace").lower()
        if any(marker in lowered for marker in _SCHEMA_MARKERS):
            return provider_error(
                "schema_rejected",
                f"{provider} rejected the structured-output request (HTTP {status})",
                status=status,
                request_sha256=request_sha256,
                body_sha256=body_sha,
            )
    return provider_error(
        "http_status",
        f"{provider} answered HTTP {status}",
        status=status,
        request_sha256=request_sha256,
        body_sha256=body_sha,
    )


def decode_body(provider: str, body: bytes, *, status: int, request_sha256: str) -> dict[str, Any]:
    """Decode a 2xx response body that must be a JSON object, else ``malformed_json``."""
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        data = None
    if not isinstance(data, dict):
        raise malformed(
            provider, "response body is not a JSON object", status, request_sha256, body
        )
    return data


def malformed(
    provider: str, what: str, status: int, request_sha256: str, body: bytes
) -> ProviderError:
    """A ``malformed_json`` error naming which expected part of the response was missing."""
    return provider_error(
        "malformed_json",
        f"{provider} {what}",
        status=status,
        request_sha256=request_sha256,
        body_sha256=sha256_hex(body),
    )


def read_int(mapping: Any, key: str) -> int | None:
    """``mapping[key]`` when it is a non-negative int (bools excluded), else ``None``."""
    if not isinstance(mapping, dict):
        return None
    value = mapping.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None
