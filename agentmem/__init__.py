"""agentmem: a local, single-file SQLite store for desktop AI agents.

An append-only conversation log with projections, long-term memory formed only from what the
user said, and consent-gated, redacted exports of agent runs. ``agentmem.open()`` is the front
door; everything else hangs off the returned :class:`Store`.

The public names are listed once, as the imports in ``__init__.pyi`` (the pattern of
scientific Python's ``lazy_loader.attach_stub``): type checkers read them there, and this module
resolves each one on first use (PEP 562), so ``import agentmem.cli`` stays cheap: the CLI's
start-up cost is cyclopts plus whatever one command needs, never the whole library.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

__version__ = "0.1.0"


def _public_names() -> dict[str, str]:
    """Map each public name to its module, read from the ``from ... import`` lines of the stub."""
    stub = ast.parse(Path(__file__).with_suffix(".pyi").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module
        for node in stub.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


_LAZY = _public_names()
__all__ = sorted([*_LAZY, "__version__"])


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
