"""Locate files shipped beside the code: the schema, the corpora and release evidence.

An installed wheel carries them under ``agentmem/_data/``; a checkout (or an editable install)
has them at the repository root. Both layouts resolve through this one function so no other
module guesses paths.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_path(name: str) -> Path:
    """Return the path of a shipped resource (``schema.sql``, ``corpus``, ``release-evidence``)."""
    installed = _PACKAGE_DIR / "_data" / name
    if installed.exists():
        return installed
    return _PACKAGE_DIR.parent / name
