"""Dependencies point one way: core, then memory and export, then the facade, then evaluation
and integrations, then the CLI and HTTP.

Two kinds of check. Statically, every ``import`` in ``agentmem/`` (inside functions and under
``TYPE_CHECKING`` too: a lazy import hides a dependency from Python, not from the design) goes
to the same layer or a lower one, and no module imports another module's private name. At run
time, a fresh interpreter imports one layer and reports which agentmem modules got loaded:
what a user pays for at start-up (``agentmem event list`` must not load the extractor, a
provider or an integration).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _events import user_msg

import agentmem

PACKAGE = Path(agentmem.__file__).parent

# Each module's layer, by the longest matching name prefix. A new module must be placed here.
LAYERS: dict[str, int] = {
    # leaves: no agentmem dependencies beyond other leaves
    "agentmem.ids": 0,
    "agentmem.json_depth": 0,
    "agentmem.net": 0,
    "agentmem.resources": 0,
    "agentmem.canonical": 0,
    "agentmem.config": 0,
    "agentmem.corpus": 0,
    "agentmem.encryption": 0,
    "agentmem.errors": 0,
    "agentmem.providers": 0,
    "agentmem.redaction": 0,
    # core: the database, the event codec, the log
    "agentmem.api_tokens": 1,
    "agentmem.bulk": 1,
    "agentmem.db": 1,
    "agentmem.events": 1,
    "agentmem.log": 1,
    # memory and export: built on the log, never on the facade
    "agentmem.artifacts": 2,
    "agentmem.backup": 2,
    "agentmem.consent": 2,
    "agentmem.erasure": 2,
    "agentmem.memory": 2,
    "agentmem.trajectory": 2,
    # the facade agentmem.open() returns
    "agentmem.store": 3,
    # evaluation and integrations
    "agentmem.evaluation": 4,
    "agentmem.gates": 4,
    "agentmem.integrations": 4,
    # the front ends
    "agentmem": 5,  # the package itself resolves public names lazily from every layer
    "agentmem.__main__": 5,
    "agentmem.cli": 5,
    "agentmem.http": 5,
    "agentmem.openapi": 5,
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _layer(module: str) -> int:
    prefix = module
    while prefix not in LAYERS or (prefix == "agentmem" != module):
        if "." not in prefix:
            raise AssertionError(f"{module} has no layer: add it to LAYERS in {__file__}")
        prefix = prefix.rpartition(".")[0]
    return LAYERS[prefix]


def _imports(path: Path, modules: dict[str, Path]) -> list[tuple[str, str | None, int]]:
    """(module imported, name imported from it or None, line) for every agentmem import."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in modules:
                    out.append((full, None, node.lineno))
                elif alias.name.startswith("__"):
                    continue  # __version__ and the like: not a dependency on a layer
                elif node.module == "agentmem":  # a public name, resolved from its module
                    out.append((agentmem._LAZY[alias.name], alias.name, node.lineno))
                else:
                    out.append((node.module, alias.name, node.lineno))
    return [(m, name, line) for m, name, line in out if m.split(".")[0] == "agentmem"]


def test_every_import_goes_to_the_same_layer_or_a_lower_one() -> None:
    modules = _modules()
    upward = []
    for module, path in sorted(modules.items()):
        for target, _, line in _imports(path, modules):
            if target != module and _layer(target) > _layer(module):
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} {module} -> {target}")
    assert upward == []


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_uses_another_modules_private_name_or_a_private_module() -> None:
    # A private module or name is free to change under its own module; once another module
    # imports it, it is an interface nobody documents. Attribute access through an imported
    # module (``rules._SECRET_WORDS``) counts as well.
    modules = _modules()
    private = []
    for module, path in sorted(modules.items()):
        where = f"{path.relative_to(PACKAGE.parent)}"
        for target, name, line in _imports(path, modules):
            if target == module:
                continue
            if any(_private(part) for part in target.split(".")):
                private.append(f"{where}:{line} imports the private module {target}")
            if name is not None and _private(name):
                private.append(f"{where}:{line} {target}.{name}")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = set()  # local names bound to another agentmem module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in modules and full != module:
                        bound.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                bound |= {a.asname for a in node.names if a.asname and a.name in modules}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and _private(node.attr)
            ):
                private.append(f"{where}:{node.lineno} {node.value.id}.{node.attr}")
    assert private == []


# A CLI flag (``--principal``) or a quoted command (``'agentmem serve'``) in a message.
_CLI_WORDS = re.compile(r"(?<![\w-])--[a-z][a-z-]+|['`\"]agentmem [a-z]")


def test_library_errors_name_no_cli_flag_or_command() -> None:
    # HTTP and Python callers read these messages too; the CLI adds its own hints where it
    # catches them (sqlite-utils keeps "Try using --alter" in cli.py, not in db.py).
    modules = _modules()
    naming = []
    for module, path in sorted(modules.items()):
        if _layer(module) == LAYERS["agentmem.cli"]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            text = " ".join(
                part.value
                for arg in node.exc.args
                for part in ast.walk(arg)
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            if _CLI_WORDS.search(text):
                naming.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {text!r}")
    assert naming == []


def _loaded_after(code: str) -> set[str]:
    """The agentmem modules a fresh interpreter has loaded after running ``code``."""
    script = (
        code
        + "\nimport json, sys\n"
        + "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'agentmem')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


UPPER = ("agentmem.memory", "agentmem.providers", "agentmem.integrations", "agentmem.evaluation")


@pytest.fixture
def populated(db_path: Path) -> Path:
    """A database whose log also holds memory audits (process types of the memory layer)."""
    with agentmem.open(str(db_path), principal="alice") as store:
        store.append(user_msg("I live in Lisbon.", run=None))
        store.close_session("s1")
    return db_path


def test_reading_the_log_loads_no_memory_provider_or_integration(populated: Path) -> None:
    loaded = _loaded_after(
        "import agentmem\n"
        f"store = agentmem.open({str(populated)!r}, principal='alice', readonly=True)\n"
        "assert [e.seq for e in store.events()]\n"
        "store.sessions(); store.runs(); store.status()\n"
    )
    assert "agentmem.store" in loaded
    assert not [m for m in loaded if m.startswith(UPPER)]
    assert not {"agentmem.cli", "agentmem.http", "agentmem.redaction"} & loaded


def test_the_core_loads_only_the_core() -> None:
    loaded = _loaded_after("import agentmem.log")
    assert {m for m in loaded if _layer(m) > 1} == {"agentmem"}


def test_reading_beliefs_loads_no_extractor_provider_or_facade() -> None:
    loaded = _loaded_after("import agentmem.memory.beliefs")
    assert (
        not {
            "agentmem.memory.extractor",
            "agentmem.memory.provider",
            "agentmem.memory.service",
            "agentmem.store",
        }
        & loaded
    )
    assert not [m for m in loaded if m.startswith(("agentmem.providers", "agentmem.evaluation"))]


def test_the_formation_service_loads_neither_the_facade_nor_the_evaluation() -> None:
    loaded = _loaded_after("import agentmem.memory.service, agentmem.memory.composition")
    assert "agentmem.store" not in loaded
    assert not [m for m in loaded if m.startswith(("agentmem.evaluation", "agentmem.integrations"))]


def test_a_process_event_whose_module_is_not_loaded_reads_generically(populated: Path) -> None:
    code = (
        "import agentmem, json\n"
        f"store = agentmem.open({str(populated)!r}, principal='alice', readonly=True)\n"
        "from agentmem.events import UnloadedEvent, event_type, payload_of\n"
        "audit = [e for e in store.events() if event_type(e) == 'memory.consolidated'][0]\n"
        "assert isinstance(audit, UnloadedEvent), type(audit)\n"
        "first = (audit.seq, audit.session_id, payload_of(audit))\n"
        "import agentmem.memory.events as memory_events\n"
        "again = [e for e in store.events() if event_type(e) == 'memory.consolidated'][0]\n"
        "assert isinstance(again, memory_events.MemoryConsolidated), type(again)\n"
        "assert (again.seq, again.session_id, payload_of(again)) == first\n"
        "print(json.dumps(first[2]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    payload = json.loads(done.stdout)
    assert payload["formation_policy"] == "formation@7"
    assert payload["outcomes"] == {"formed": 1}


@pytest.mark.parametrize("command", [["event", "list", "--limit", "10"], ["beliefs", "list"]])
def test_listing_commands_load_no_extractor_provider_or_service(
    populated: Path, command: list[str]
) -> None:
    # What 'agentmem event list' and 'agentmem beliefs list' pay for at start-up.
    argv = [*command, "--db", str(populated), "--principal", "alice"]
    loaded = _loaded_after(
        "import contextlib, io\n"
        "from agentmem.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({argv!r}) == 0\n"
    )
    assert "agentmem.cli" in loaded
    assert (
        not {
            "agentmem.memory.extractor",
            "agentmem.memory.service",
            "agentmem.memory.provider",
            "agentmem.memory.composition",
        }
        & loaded
    )
    assert not [m for m in loaded if m.startswith(("agentmem.providers", "agentmem.integrations"))]


def test_a_row_of_a_type_no_module_registered_keeps_its_envelope_and_payload() -> None:
    # A process type registered by no module here (written by a later agentmem, say), with an
    # id the current patterns would refuse: the history was validated when it was appended.
    from agentmem.events import UnloadedEvent, event_type, payload_of, stored_decoder

    row = json.dumps(
        {
            "seq": 7,
            "event_id": "memory.future:" + "a" * 300,
            "type": "memory.future",
            "session_id": "s1",
            "run_id": None,
            "principal": "alice",
            "created_at": "2026-01-01T00:00:00.000Z",
            "count": 3,
            "names": ["a", "b"],
        }
    )
    event = stored_decoder().decode(row)
    assert isinstance(event, UnloadedEvent)
    assert (event_type(event), event.seq, event.session_id, event.principal) == (
        "memory.future",
        7,
        "s1",
        "alice",
    )
    assert payload_of(event) == {"count": 3, "names": ["a", "b"]}
