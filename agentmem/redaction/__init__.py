"""Redaction: one rule registry shared by trajectory export, memory formation and the scanner.

:mod:`agentmem.redaction.engine` scans and replaces (and explains the decoded views),
:mod:`agentmem.redaction.fakes` generates the fake secrets every test, benchmark and evaluation
uses at run time (no credential-shaped literal is ever committed),
:mod:`agentmem.redaction.files` is the committed-secret scanner and
:mod:`agentmem.redaction.evaluation` backs ``agentmem eval redaction``.
"""

from __future__ import annotations

from agentmem.redaction import fakes
from agentmem.redaction.engine import (
    Finding,
    PolicyProfile,
    RuleRegistry,
    default_profile,
    default_registry,
    marker,
)
from agentmem.redaction.evaluation import FamilyRow, RedactionReport, evaluate
from agentmem.redaction.files import FileFinding, scan_files

__all__ = [
    "FamilyRow",
    "FileFinding",
    "Finding",
    "PolicyProfile",
    "RedactionReport",
    "RuleRegistry",
    "default_profile",
    "default_registry",
    "evaluate",
    "fakes",
    "marker",
    "scan_files",
]
