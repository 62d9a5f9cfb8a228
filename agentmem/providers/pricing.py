"""The pricing catalog: USD per million tokens for each (provider, model), versioned and hashed.

The formation budget (ADR-0057) caps every call at USD 0.05 *before* it is made, so the cost of
a call must be known offline: the pre-call check turns the price into a cap on requested output
tokens, and a model with no price is never called. Prices are data, not code, because they
change more often than releases: ``pricing.json`` ships inside the package (so it is in the
wheel), and an operator file can override or add entries without a new release.

The catalog carries its own ``version`` and a :meth:`PricingCatalog.sha256` over its canonical
encoding, so an audit or an evidence artifact can say exactly which prices a budget decision
used; merging an operator file changes both. Local servers (Ollama, llama.cpp, vLLM, LM Studio)
and the scripted provider are priced *explicitly* at zero with the wildcard model ``"*"`` —
"free" is a stated fact, never the default for an unknown model.

Operator file format (the same shape as the bundled file)::

    {"version": "acme-2026-12",
     "prices": [{"provider": "openai", "model": "gpt-4o-mini",
                 "input_per_mtok": 0.15, "output_per_mtok": 0.6}]}

Entries replace bundled entries with the same (provider, model); ``as_of``, ``currency``
(``"USD"`` only), ``unit``, ``sources`` and ``notes`` are optional documentation.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from agentmem.canonical import canonical_json
from agentmem.errors import ConfigError
from agentmem.providers.base import sha256_hex

__all__ = ["WILDCARD", "Price", "PricingCatalog", "load_catalog"]

#: The model name that prices every model of a provider not listed by name.
WILDCARD = "*"

_Rate = Annotated[float, msgspec.Meta(ge=0, le=1_000_000)]
_Name = Annotated[str, msgspec.Meta(min_length=1, max_length=256)]


class Price(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """USD per million input and output tokens of one (provider, model)."""

    provider: _Name
    model: _Name
    input_per_mtok: _Rate
    output_per_mtok: _Rate

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """USD cost of a call with these token counts."""
        return (
            input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok
        ) / 1_000_000


class _CatalogFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: _Name
    prices: list[Price]
    as_of: str | None = None
    currency: Literal["USD"] = "USD"
    unit: str | None = None
    sources: list[str] = msgspec.field(default_factory=list)
    notes: str | None = None


class PricingCatalog:
    """An immutable price table keyed by (provider, model), with a version and a content hash."""

    __slots__ = ("_prices", "_sha256", "version")

    def __init__(self, version: str, prices: list[Price]) -> None:
        self.version = version
        table: dict[tuple[str, str], Price] = {}
        for price in prices:
            table[(price.provider, price.model)] = price
        self._prices = table
        self._sha256 = sha256_hex(self.canonical_bytes())

    def __repr__(self) -> str:
        return (
            f"PricingCatalog(version={self.version!r}, entries={len(self._prices)}, "
            f"sha256={self._sha256[:12]}...)"
        )

    def price(self, provider: str, model: str) -> Price | None:
        """The price of (provider, model), else the provider's ``"*"`` price, else ``None``.

        ``None`` means unpriced: the caller must not make the call.
        """
        exact = self._prices.get((provider, model))
        if exact is not None:
            return exact
        return self._prices.get((provider, WILDCARD))

    def entries(self) -> list[Price]:
        """Every price, sorted by (provider, model)."""
        return [self._prices[key] for key in sorted(self._prices)]

    def canonical_bytes(self) -> bytes:
        """The canonical encoding the hash is taken over: version plus sorted entries."""
        return canonical_json(
            {"version": self.version, "prices": msgspec.to_builtins(self.entries())}
        )

    def sha256(self) -> str:
        """SHA-256 hex digest of :meth:`canonical_bytes`."""
        return self._sha256


def _decode(raw: bytes, origin: str) -> _CatalogFile:
    try:
        return msgspec.json.decode(raw, type=_CatalogFile)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"invalid pricing catalog {origin}: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise ConfigError(f"pricing catalog {origin} is not JSON: {exc}") from exc


def bundled_catalog() -> PricingCatalog:
    """The catalog shipped inside the package."""
    raw = importlib.resources.files("agentmem.providers").joinpath("pricing.json").read_bytes()
    data = _decode(raw, "bundled with agentmem")
    return PricingCatalog(data.version, data.prices)


def load_catalog(operator_path: Path | None = None) -> PricingCatalog:
    """The bundled catalog, with the operator file at ``operator_path`` merged over it.

    The merged version is ``"<bundled version>+<operator version>"``; its hash covers the
    merged entries, so any operator override shows up in audits.
    """
    bundled = bundled_catalog()
    if operator_path is None:
        return bundled
    path = Path(operator_path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read pricing catalog {path}: {exc.strerror}") from exc
    operator = _decode(raw, str(path))
    return PricingCatalog(
        f"{bundled.version}+{operator.version}", [*bundled.entries(), *operator.prices]
    )
