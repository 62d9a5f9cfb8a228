"""Every CLI command has help text and is documented in the README (sqlite-utils' habit)."""

from __future__ import annotations

from pathlib import Path

from agentmem.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _commands(application, prefix=()):
    for name, sub in application._commands.items():
        if name.startswith("-"):
            continue
        path = (*prefix, name)
        nested = getattr(sub, "_commands", None)
        if nested and any(not n.startswith("-") for n in nested):
            yield from _commands(sub, path)
        else:
            yield path, sub


def test_every_command_has_help_and_is_in_readme() -> None:
    commands = list(_commands(app))
    assert len(commands) >= 10
    for path, spec in commands:
        text = getattr(spec, "help", None)
        assert text, f"{' '.join(path)} has no help text"
        assert f"agentmem {' '.join(path)}" in README, f"README lacks 'agentmem {' '.join(path)}'"
