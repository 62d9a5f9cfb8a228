"""Model providers for provider-assisted memory formation: the port, its adapters, and pricing.

Formation (ADR-0057) needs exactly one bounded structured-output call and must fall back to the
deterministic extractor on any failure, so this package offers one small port
(:class:`Provider`), adapters for the protocols a desktop user is likely to have (OpenAI and the
OpenAI-compatible local servers Ollama, llama.cpp, vLLM and LM Studio; Anthropic Messages), a
scripted provider for tests and offline evaluation, and the pricing catalog the pre-call budget
reads. :func:`make_provider` builds a provider from a settings-like dict.

Importing this package never needs httpx; constructing an HTTP adapter does, and says to install
the optional ``providers`` extra when it is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from agentmem.errors import ConfigError
from agentmem.providers.anthropic import AnthropicProvider
from agentmem.providers.base import (
    FAILURE_CLASSES,
    Provider,
    ProviderRequest,
    ProviderResponse,
    Usage,
)
from agentmem.providers.openai_compat import PROFILES, OpenAICompatibleProvider, Profile
from agentmem.providers.pricing import Price, PricingCatalog, load_catalog
from agentmem.providers.scripted import ScriptedProvider, ScriptItem

__all__ = [
    "FAILURE_CLASSES",
    "KNOWN_PROVIDERS",
    "PROFILES",
    "AnthropicProvider",
    "OpenAICompatibleProvider",
    "Price",
    "PricingCatalog",
    "Profile",
    "Provider",
    "ProviderRequest",
    "ProviderResponse",
    "ScriptItem",
    "ScriptedProvider",
    "Usage",
    "load_catalog",
    "make_provider",
]

#: Every value ``make_provider`` accepts for ``"provider"``.
KNOWN_PROVIDERS: Final = tuple(sorted({*PROFILES, "anthropic", "scripted"}))

_KEYS: Final = frozenset({"provider", "model", "base_url", "api_key_env", "mode", "script"})
_ANTHROPIC_BASE_URL: Final = "https://api.anthropic.com"
_ANTHROPIC_KEY_ENV: Final = "ANTHROPIC_API_KEY"


def _string(spec: Mapping[str, Any], key: str) -> str | None:
    value = spec.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ConfigError(f"provider setting {key!r} must be a non-empty string")
    return value


def make_provider(spec: Mapping[str, Any]) -> Provider:
    """Build a provider from ``{"provider", "model", "base_url", "api_key_env", "mode", "script"}``.

    Keys whose value is ``None`` are treated as absent, so a settings struct can be passed as a
    dict. ``base_url`` and ``api_key_env`` default per provider (OpenAI reads
    ``OPENAI_API_KEY``, Anthropic ``ANTHROPIC_API_KEY``, local servers send no key and listen on
    their usual loopback ports). ``mode`` applies only to ``anthropic`` and ``script`` (a JSON
    file path or a list of items) only to ``scripted``. Anything else is a ``ConfigError``.
    """
    if not isinstance(spec, Mapping):
        raise ConfigError("provider settings must be a mapping")
    unknown = sorted(
        str(key) for key, value in spec.items() if key not in _KEYS and value is not None
    )
    if unknown:
        raise ConfigError(
            f"unknown provider setting(s) {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}"
        )
    name = spec.get("provider")
    if name not in KNOWN_PROVIDERS:
        raise ConfigError(
            f"unknown provider {name!r}; known providers: {', '.join(KNOWN_PROVIDERS)}"
        )
    model = _string(spec, "model")
    base_url = _string(spec, "base_url")
    api_key_env = _string(spec, "api_key_env")
    mode = _string(spec, "mode")
    script = spec.get("script")
    if mode is not None and name != "anthropic":
        raise ConfigError("provider setting 'mode' applies only to provider 'anthropic'")
    if script is not None and name != "scripted":
        raise ConfigError("provider setting 'script' applies only to provider 'scripted'")
    if name == "scripted":
        if base_url is not None or api_key_env is not None:
            raise ConfigError("the scripted provider takes no base_url or api_key_env")
        if script is None:
            raise ConfigError("the scripted provider needs a 'script' (file path or list)")
        if not isinstance(script, str | Path | list | tuple):
            raise ConfigError("provider setting 'script' must be a file path or a list")
        return ScriptedProvider(script, model=model or "scripted")
    if model is None:
        raise ConfigError(f"provider {name!r} needs a 'model'")
    if name == "anthropic":
        return AnthropicProvider(
            base_url=base_url or _ANTHROPIC_BASE_URL,
            model=model,
            api_key_env=api_key_env or _ANTHROPIC_KEY_ENV,
            mode=mode or "output_format",  # type: ignore[arg-type]  # validated by the adapter
        )
    profile = PROFILES[name]
    return OpenAICompatibleProvider(
        base_url=base_url or profile.default_base_url,
        model=model,
        profile=profile,
        api_key_env=api_key_env or profile.default_api_key_env,
    )
