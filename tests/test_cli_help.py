"""Every command's ``--help`` tells the truth: each parameter is described, flags carry no
``[default: False]``, every option its text names exists, and every exit code it names is a
documented one (README "Exit codes" and the error classes). Uses cyclopts' public App API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cyclopts import App

from agentmem.cli import app, main
from agentmem.errors import AgentmemError

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _leaves(application: App, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name in application:
        if name.startswith("-"):
            continue
        sub = application[name]
        children = [n for n in sub if not n.startswith("-")]
        if children:
            yield from _leaves(sub, (*prefix, name))
        else:
            yield (*prefix, name)


COMMANDS = sorted(_leaves(app))


def _codes(cls: type[AgentmemError]) -> set[int]:
    return {cls.exit_code}.union(*(_codes(sub) for sub in cls.__subclasses__()))


# 0 success, 1 internal error or a failed check, 2 usage (cyclopts), and the error tree's codes
DOCUMENTED_CODES = {0, 1, 2} | _codes(AgentmemError)
README_CODES = {int(n) for n in re.findall(r"^\| (\d+) \|", README, re.M)}


def _help(capsys: pytest.CaptureFixture[str], path: tuple[str, ...]) -> str:
    assert main([*path, "--help"]) == 0
    return capsys.readouterr().out


def test_the_command_list_is_complete() -> None:
    assert ("beliefs", "search") in COMMANDS and ("demo",) in COMMANDS
    assert len(COMMANDS) >= 30


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_help_tells_the_truth(capsys: pytest.CaptureFixture[str], path: tuple[str, ...]) -> None:
    text = _help(capsys, path)
    command = app
    for name in path:
        command = command[name]
    names: set[str] = set()
    for argument in command.assemble_argument_collection():
        if argument.parameter.show is False:
            continue
        names.update(argument.names)
        assert (argument.parameter.help or "").strip(), f"{' '.join(path)}: {argument.name}"
    assert "[default: False]" not in text and "[default: True]" not in text
    # the whole docstring is shown, not only the one line of the command listing
    doc = command.default_command.__doc__ or ""
    first = " ".join(doc.strip().split("\n\n")[0].replace("``", "").split())
    assert first[:40] in " ".join(text.split()), path
    mentioned = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", doc))
    assert mentioned <= names | {"--help", "--version"}, (path, mentioned - names)
    for code in re.findall(r"\b[Ee]xits? (?:with )?(\d+)", " ".join(text.split())):
        assert int(code) in DOCUMENTED_CODES and int(code) in README_CODES, (path, code)


def test_every_documented_exit_code_is_in_the_readme() -> None:
    assert DOCUMENTED_CODES <= README_CODES


def test_usage_errors_name_the_command_to_ask(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["status", "defaults"]) == 2
    err = capsys.readouterr().err
    assert err == "agentmem: usage: unexpected argument 'defaults' (see 'agentmem status --help')\n"
    assert main(["beliefs", "show"]) == 2
    assert "missing BELIEF_ID (see 'agentmem beliefs show --help')" in capsys.readouterr().err
