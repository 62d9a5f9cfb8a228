"""A provider that replays recorded responses, so formation and evaluation run without a network.

Tests, the evaluation command's offline mode and bug reports need provider behaviour that is
exact and repeatable: the same episode gets the same answer, a recorded failure fails the same
way, and nothing leaves the process (``network`` is ``False``).

Script format
-------------
A JSON file holding a list of objects (or the same list passed in directly)::

    [
      {"match": "seq 3: I have a daughter",
       "text": "{\\"claims\\": []}",
       "usage": {"input_tokens": 812, "output_tokens": 40},
       "finish_reason": "stop"},
      {"error": "timeout"},
      {"text": "{\\"claims\\": []}", "usage": null, "delay_s": 0.2}
    ]

``match`` (optional)
    A substring that must occur in ``request.user`` for the item to apply.
``text``
    The raw model text returned as :attr:`ProviderResponse.text` (default ``""``).
``usage`` (optional)
    ``{"input_tokens": int, "output_tokens": int}`` or ``null`` (server reported none).
``finish_reason`` (default ``"stop"``)
    Read like the HTTP adapters read it: ``"length"`` / ``"max_tokens"`` raise ``truncated``,
    ``"refusal"`` / ``"content_filter"`` raise ``refusal``.
``error`` (optional)
    A failure class from :data:`~agentmem.providers.base.FAILURE_CLASSES` to raise instead of
    answering; ``status`` (optional) is the HTTP status attached to it.
``delay_s`` (optional, default 0)
    Seconds to wait first, inside the call's deadline, so a long delay surfaces as ``timeout``.

Each call takes the first unused item whose ``match`` occurs in ``request.user``; when none
does, the first unused item without ``match`` (items without ``match`` are used in order). Every
item is used at most once. A request that no unused item answers raises ``ConfigError``: the
script, not the model, is wrong, and a silent fallback would hide it.

``request_sha256`` is the SHA-256 of the request's canonical JSON and ``body_sha256`` that of
the item's canonical JSON, so audits of scripted runs are as deterministic as the answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec

from agentmem.canonical import canonical_json
from agentmem.errors import ConfigError
from agentmem.providers.base import (
    FAILURE_CLASSES,
    Provider,
    ProviderRequest,
    ProviderResponse,
    Usage,
    provider_error,
    sha256_hex,
)

__all__ = ["ScriptItem", "ScriptedProvider", "load_script"]

_TRUNCATED = ("length", "max_tokens", "model_context_window_exceeded")
_REFUSED = ("refusal", "content_filter")


class ScriptItem(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One recorded response (see the module docstring for the file format)."""

    match: str | None = None
    text: str = ""
    usage: Usage | None = None
    finish_reason: str | None = "stop"
    error: str | None = None
    status: int | None = None
    delay_s: Annotated[float, msgspec.Meta(ge=0)] = 0.0


def load_script(source: str | Path | Sequence[ScriptItem | dict[str, Any]]) -> list[ScriptItem]:
    """Read and validate a script from a JSON file path or a list of items."""
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read provider script {path}: {exc.strerror}") from exc
        try:
            items = msgspec.json.decode(raw, type=list[ScriptItem])
        except msgspec.ValidationError as exc:
            raise ConfigError(f"invalid provider script {path}: {exc}") from exc
        except msgspec.DecodeError as exc:
            raise ConfigError(f"provider script {path} is not JSON: {exc}") from exc
    else:
        try:
            items = [
                item if isinstance(item, ScriptItem) else msgspec.convert(item, ScriptItem)
                for item in source
            ]
        except msgspec.ValidationError as exc:
            raise ConfigError(f"invalid provider script item: {exc}") from exc
    for index, item in enumerate(items):
        if item.error is not None and item.error not in FAILURE_CLASSES:
            known = ", ".join(FAILURE_CLASSES)
            raise ConfigError(
                f"provider script item {index}: unknown error {item.error!r}; known: {known}"
            )
    return items


class ScriptedProvider(Provider):
    """Replays a script; ``provider`` and ``model`` can be set to stand in for a real tuple."""

    network = False

    def __init__(
        self,
        path_or_responses: str | Path | Sequence[ScriptItem | dict[str, Any]],
        provider: str = "scripted",
        model: str = "scripted",
    ) -> None:
        if not isinstance(provider, str) or not provider:
            raise ConfigError("scripted provider name must be a non-empty string")
        if not isinstance(model, str) or not model:
            raise ConfigError("provider model must be a non-empty string")
        self.provider = provider
        self.model = model
        self._items = load_script(path_or_responses)
        self._used = [False] * len(self._items)

    def __repr__(self) -> str:
        return (
            f"ScriptedProvider(provider={self.provider!r}, model={self.model!r}, "
            f"items={len(self._items)}, remaining={self.remaining})"
        )

    @property
    def remaining(self) -> int:
        """How many items have not been used yet."""
        return self._used.count(False)

    def _pick(self, user: str) -> int:
        for index, item in enumerate(self._items):
            if not self._used[index] and item.match is not None and item.match in user:
                return index
        for index, item in enumerate(self._items):
            if not self._used[index] and item.match is None:
                return index
        raise ConfigError(
            f"scripted provider has no unused response for this request "
            f"({len(self._items)} items, {self.remaining} unused)"
        )

    async def complete(self, request: ProviderRequest, *, timeout_s: float) -> ProviderResponse:
        """Answer with the next matching item; see :class:`~agentmem.providers.base.Provider`."""
        request_sha = sha256_hex(canonical_json(msgspec.to_builtins(request)))
        index = self._pick(request.user)
        self._used[index] = True  # claimed before any await: concurrent calls never share one
        item = self._items[index]
        body_sha = sha256_hex(canonical_json(msgspec.to_builtins(item)))
        try:
            async with asyncio.timeout(timeout_s):
                await asyncio.sleep(item.delay_s)
        except TimeoutError as exc:
            raise provider_error(
                "timeout",
                f"{self.provider} call exceeded its {timeout_s:g} s deadline",
                request_sha256=request_sha,
            ) from exc
        if item.error is not None:
            raise provider_error(
                item.error,
                f"{self.provider} scripted failure ({item.error})",
                status=item.status,
                request_sha256=request_sha,
                body_sha256=body_sha,
            )
        if item.finish_reason in _TRUNCATED:
            raise provider_error(
                "truncated",
                f"{self.provider} stopped early ({item.finish_reason})",
                request_sha256=request_sha,
                body_sha256=body_sha,
            )
        if item.finish_reason in _REFUSED:
            raise provider_error(
                "refusal",
                f"{self.provider} refused the request",
                request_sha256=request_sha,
                body_sha256=body_sha,
            )
        return ProviderResponse(
            text=item.text,
            usage=item.usage,
            finish_reason=item.finish_reason,
            body_sha256=body_sha,
            request_sha256=request_sha,
        )
