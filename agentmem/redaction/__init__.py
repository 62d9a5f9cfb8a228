"""Redaction: one rule registry shared by trajectory export, memory formation and the scanner.

This package exports the runtime engine, :mod:`agentmem.redaction.engine`, which scans and
replaces (and explains the decoded views). Tooling lives in submodules that a runtime import
never loads; import them by name: :mod:`agentmem.redaction.fakes` generates the fake secrets
every test, benchmark and evaluation uses at run time (no credential-shaped literal is ever
committed), :mod:`agentmem.redaction.files` is the committed-secret scanner and
:mod:`agentmem.redaction.evaluation` backs ``agentmem eval redaction``.
"""

from __future__ import annotations

from agentmem.redaction.engine import (
    Finding,
    PolicyProfile,
    RuleRegistry,
    ScanMemo,
    default_profile,
    default_registry,
    marker,
)

__all__ = [
    "Finding",
    "PolicyProfile",
    "RuleRegistry",
    "ScanMemo",
    "default_profile",
    "default_registry",
    "marker",
]
