"""Settings: one validated struct built from file < environment < explicit arguments.

The precedence is the usual one for local tools: a TOML file (``AGENTMEM_CONFIG`` or
``<user config dir>/agentmem/config.toml``) sets defaults for a machine, ``AGENTMEM_*``
variables override it for one shell, and explicit arguments (``--db``, ``--principal``) win.
Everything is validated by msgspec in one place, so a bad value fails with the setting's name
and its source instead of surfacing later as a strange SQLite error.
"""

from __future__ import annotations

import os
import typing
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from agentmem.errors import ConfigError
from agentmem.ids import ID_PATTERN

__all__ = ["Settings", "default_config_path", "default_db_path", "load_settings"]

Principal = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=ID_PATTERN)]


class StorageSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How the database file is opened.

    ``synchronous`` is the power-loss trade-off (README, "Durability"): ``FULL`` (default)
    fsyncs the WAL at every commit, so an acknowledged append survives power loss; ``NORMAL``
    survives any process crash but may lose the last commits on power loss.
    """

    synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "FULL"
    busy_timeout_ms: Annotated[int, msgspec.Meta(ge=0, le=600_000)] = 10_000


class ArtifactSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Artifact retention: exports are perishable (ADR-0032 decision 8)."""

    retention_days: Annotated[int, msgspec.Meta(ge=1, le=3650)] = 30


class ProviderSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The model a provider-assisted extractor would call (nothing is called without evidence).

    ``provider`` is one of openai, ollama, llamacpp, vllm, lmstudio, anthropic, scripted.
    ``api_key_env`` names the environment variable holding the key: keys are never stored in
    settings, logs or audits.
    """

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    mode: str | None = None
    script: str | None = None


class MemorySettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Memory formation settings (ADR-0057).

    ``provider_enabled`` is the legacy enable flag: true maps to ``required`` so an operator's
    demand is never silently weakened.
    """

    provider_assistance: Literal["auto", "off", "required"] = "auto"
    provider_enabled: bool | None = None
    idle_minutes: Annotated[int, msgspec.Meta(ge=0)] = 30
    evidence_path: str | None = None
    pricing_path: str | None = None
    provider: ProviderSettings = msgspec.field(default_factory=ProviderSettings)

    def rollout_mode(self) -> str:
        """The effective mode: the legacy flag, when set true, means ``required``."""
        return "required" if self.provider_enabled else self.provider_assistance


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every setting agentmem reads. ``db`` of ``None`` means the platformdirs default."""

    db: str | None = None
    principal: Principal = "local"
    environment: Literal["development", "production"] = "development"
    storage: StorageSettings = msgspec.field(default_factory=StorageSettings)
    artifacts: ArtifactSettings = msgspec.field(default_factory=ArtifactSettings)
    memory: MemorySettings = msgspec.field(default_factory=MemorySettings)

    def db_path(self) -> str:
        """The database path these settings select (``:memory:`` passes through)."""
        return self.db if self.db else str(default_db_path())


# (environment variable, path in the settings tree)
_ENV: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("AGENTMEM_DB", ("db",)),
    ("AGENTMEM_PRINCIPAL", ("principal",)),
    ("AGENTMEM_SYNCHRONOUS", ("storage", "synchronous")),
    ("AGENTMEM_BUSY_TIMEOUT_MS", ("storage", "busy_timeout_ms")),
    ("AGENTMEM_RETENTION_DAYS", ("artifacts", "retention_days")),
    ("AGENTMEM_PROVIDER_ASSISTANCE", ("memory", "provider_assistance")),
    ("AGENTMEM_IDLE_MINUTES", ("memory", "idle_minutes")),
    ("AGENTMEM_PROVIDER_ENABLED", ("memory", "provider_enabled")),
    ("AGENTMEM_EVIDENCE_PATH", ("memory", "evidence_path")),
    ("AGENTMEM_PRICING_PATH", ("memory", "pricing_path")),
    ("AGENTMEM_PROVIDER", ("memory", "provider", "provider")),
    ("AGENTMEM_PROVIDER_MODEL", ("memory", "provider", "model")),
    ("AGENTMEM_PROVIDER_BASE_URL", ("memory", "provider", "base_url")),
    ("AGENTMEM_PROVIDER_API_KEY_ENV", ("memory", "provider", "api_key_env")),
    ("AGENTMEM_PROVIDER_MODE", ("memory", "provider", "mode")),
    ("AGENTMEM_PROVIDER_SCRIPT", ("memory", "provider", "script")),
    ("AGENTMEM_ENV", ("environment",)),
)


def default_db_path() -> Path:
    """``<user data dir>/agentmem/agentmem.db`` as platformdirs defines it for this OS."""
    import platformdirs

    return platformdirs.user_data_path("agentmem") / "agentmem.db"


def default_config_path() -> Path:
    """``AGENTMEM_CONFIG`` or ``<user config dir>/agentmem/config.toml``."""
    explicit = os.environ.get("AGENTMEM_CONFIG")
    if explicit:
        return Path(explicit)
    import platformdirs

    return platformdirs.user_config_path("agentmem") / "config.toml"


def _set(tree: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        node = tree.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"setting {'.'.join(path)}: {part!r} must be a table")
        tree = node
    tree[path[-1]] = value


def _choices(cls: type[msgspec.Struct], prefix: str = "$") -> dict[str, tuple[str, ...]]:
    """Each word-valued setting's ``$.path`` and its words, read from the ``Literal`` types."""
    found: dict[str, tuple[str, ...]] = {}
    for name, hint in typing.get_type_hints(cls).items():
        path = f"{prefix}.{name}"
        if typing.get_origin(hint) is Literal:
            found[path] = typing.get_args(hint)
        elif isinstance(hint, type) and issubclass(hint, msgspec.Struct):
            found.update(_choices(hint, path))
    return found


_CHOICES = _choices(Settings)


def _spell_words(tree: dict[str, Any]) -> None:
    """Spell each word-valued setting as its type does, so ``normal`` means ``NORMAL``."""
    for path, words in _CHOICES.items():
        *parents, leaf = path.split(".")[1:]
        node: Any = tree
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and isinstance(node.get(leaf), str):
            spelled = {word.casefold(): word for word in words}
            node[leaf] = spelled.get(node[leaf].casefold(), node[leaf])


def load_settings(**explicit: Any) -> Settings:
    """Build the settings from the config file, the environment and ``explicit`` overrides.

    ``explicit`` takes dotted-free top-level names (``db``, ``principal``) or nested paths as
    ``storage__synchronous``; ``None`` values are ignored so CLI defaults do not mask the file.
    """
    tree: dict[str, Any] = {}
    source = "defaults"
    path = default_config_path()
    if path.is_file():
        try:
            tree = msgspec.toml.decode(path.read_bytes())
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}") from exc
        source = f"config file {path}"
    for name, setting_path in _ENV:
        raw = os.environ.get(name)
        if raw is not None and raw != "":
            _set(tree, setting_path, raw)
            source = f"{source} and environment"
    for key, value in explicit.items():
        if value is not None:
            _set(tree, tuple(key.split("__")), value)
    _spell_words(tree)
    try:
        # strict=False: environment values are strings, and "30" or "true" must still convert.
        return msgspec.convert(tree, Settings, strict=False)
    except msgspec.ValidationError as exc:
        message = str(exc)
        for setting, words in _CHOICES.items():
            if message.endswith(f"`{setting}`"):
                message += f" (allowed: {', '.join(words)})"
        raise ConfigError(f"invalid setting ({source}): {message}") from exc
