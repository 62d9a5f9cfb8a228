"""Library messages say what is wrong; the CLI says what to type.

An error raised by the library reaches Python callers and HTTP clients as well as the terminal,
so its message must not tell them to pass a command-line flag: the CLI adds its own hints when
it prints one. Checked over the source, so a message added later is checked too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import agentmem

PACKAGE = Path(agentmem.__file__).parent
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# Flags of other programs a message may name, with the reason.
ALLOWED = {
    "--force-reinstall": "pip's flag, in the instruction that installs the encryption extra",
}


def _library_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "cli" not in p.relative_to(PACKAGE).parts)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _exception_names(trees: list[ast.Module]) -> set[str]:
    """Every class the library raises (``raise X(...)``), and every class derived from one."""
    names = {"Exception", "ValueError", "TypeError", "RuntimeError"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = _name(node.exc.func)
                if name is not None and name[:1].isupper():
                    names.add(name)
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ClassDef)
                    and node.name not in names
                    and any(_name(base) in names for base in node.bases)
                ):
                    names.add(node.name)
                    grew = True
    return names


def test_no_library_error_message_names_a_command_line_flag() -> None:
    files = _library_files()
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in files]
    exceptions = _exception_names(trees)
    found = []
    for path, tree in zip(files, trees, strict=True):
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func) in exceptions):
                continue
            for part in ast.walk(node):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    for flag in FLAG.findall(part.value):
                        if flag not in ALLOWED:
                            found.append(f"{path.relative_to(PACKAGE.parent)}:{part.lineno} {flag}")
    assert found == []


def test_the_check_sees_a_flag_in_a_message() -> None:
    tree = ast.parse("raise InvalidInput(f'no database {path}; pass --db')")
    exceptions = _exception_names([tree])
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert _name(call.func) in exceptions
    texts = [p.value for p in ast.walk(call) if isinstance(p, ast.Constant)]
    assert any(FLAG.search(t) for t in texts)
