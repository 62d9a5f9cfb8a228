"""The committed-secret scanner: the shared rules run over files, reported as path:line:rule.

It backs ``agentmem scan`` and the CI check over ``corpus/``. It reads whole files so a
multi-line private key is one finding, scans JSON and JSONL through the same decoded views as
every other text (so a JSON-escaped secret is found), skips binary files and follows no
symbolic link, so a scan never leaves the tree it was pointed at. It reports rule names and
line numbers only: printing the match would copy the secret into CI logs.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

import msgspec

from agentmem.redaction.engine import PolicyProfile, RuleRegistry, default_registry

__all__ = ["FileFinding", "scan_files"]

#: Directories that hold tool state rather than project content.
_SKIP_DIRS: Final = frozenset({".git", ".hg", ".svn", "__pycache__"})
_SNIFF: Final = 8192


class FileFinding(msgspec.Struct, frozen=True, order=True):
    """One hit in a file: its path, the 1-based line the hit starts on, and the rule."""

    path: str
    line: int
    rule: str


def _walk(path: Path) -> Iterator[Path]:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISLNK(mode):
        return
    if stat.S_ISREG(mode):
        yield path
        return
    if not stat.S_ISDIR(mode):
        return
    for root, dirs, files in os.walk(path, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in sorted(files):
            child = Path(root, name)
            if not child.is_symlink() and child.is_file():
                yield child


def _read_text(path: Path) -> str | None:
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    if b"\0" in raw[:_SNIFF]:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def scan_files(
    paths: Iterable[Path],
    *,
    registry: RuleRegistry | None = None,
    pii: bool = False,
) -> list[FileFinding]:
    """Findings for every text file under ``paths`` (directories are walked), sorted.

    Committed files are scanned for secrets and key-name rules; policy PII (an example e-mail
    address in a README) is only reported with ``pii=True``. A ``registry`` overrides both.
    """
    if registry is None:
        profile = None if pii else PolicyProfile(name="secrets-only", pii=frozenset())
        registry = default_registry(profile)
    findings: set[FileFinding] = set()
    seen: set[Path] = set()
    for top in paths:
        for path in _walk(Path(top)):
            if path in seen:
                continue
            seen.add(path)
            text = _read_text(path)
            if not text:
                continue
            found = registry.scan_text(text)
            if not found:
                continue
            for f in found:
                findings.add(FileFinding(str(path), text.count("\n", 0, f.start) + 1, f.rule))
    return sorted(findings)
