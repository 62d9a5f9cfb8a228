"""Encryption at rest, checked on the raw files.

Without the cipher (the default install) only the refusal is testable: an encrypted file is
refused with a message that names the extra. The rest runs where the loaded apsw is SQLite3
Multiple Ciphers' build (``pip install 'agentmem[encryption]'`` and the forced reinstall the
README describes); set ``AGENTMEM_REQUIRE_CIPHER=1`` to make its absence a failure, not a skip.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import pytest
from _events import user_msg
from _forensics import raw_bytes, readable

import agentmem
from agentmem import backup as backup_mod
from agentmem.encryption import cipher_available, file_state
from agentmem.erasure import erase

MESSAGE = "Our safe word is periwinkle-xylophone-7731."

# This file makes its own keys, wrong keys and plain files, so it runs without the suite's key
# when the whole suite runs encrypted (that job is where the cipher is, and so where it runs).
pytestmark = pytest.mark.own_keys

needs_cipher = pytest.mark.skipif(
    not cipher_available() and os.environ.get("AGENTMEM_REQUIRE_CIPHER") != "1",
    reason="the loaded apsw has no cipher (install agentmem[encryption], see README)",
)


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "key.hex"
    path.write_text(secrets.token_hex(32))  # a fresh fake key per test
    monkeypatch.setenv("AGENTMEM_KEY_FILE", str(path))
    return path


@pytest.mark.skipif(cipher_available(), reason="this apsw has the cipher")
def test_an_encrypted_file_without_the_extra_names_it(db_path: Path, run_cli) -> None:
    # What an SQLite3 Multiple Ciphers file looks like: a random salt, then the page layout.
    db_path.write_bytes(
        secrets.token_bytes(16) + bytes.fromhex("1000020220402020") + secrets.token_bytes(8168)
    )
    before = db_path.read_bytes()
    result = run_cli("status", "--db", str(db_path))
    assert result.returncode == 2
    assert "is encrypted" in result.stderr and "agentmem[encryption]" in result.stderr
    assert "not a database" not in result.stderr
    assert db_path.read_bytes() == before
    garbage = db_path.with_name("garbage.db")
    garbage.write_bytes(b"not a database at all " * 400)
    assert run_cli("status", "--db", str(garbage)).returncode == 4  # still "not SQLite"


@needs_cipher
def test_the_raw_files_hold_none_of_a_message(db_path: Path, key_file: Path) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg(MESSAGE, run=None))
        assert file_state(db_path) == "encrypted"
        assert MESSAGE.encode()[:12] not in raw_bytes(db_path)  # open: the -wal is encrypted too
        assert [e.text for e in store.events(all_principals=True)][-1] == MESSAGE
        # the same bytes, decrypted page by page and frame by frame with the key, hold it
        assert MESSAGE.encode() in readable(db_path, b"periwinkle")
    assert b"periwinkle" not in raw_bytes(db_path)
    assert MESSAGE.encode() in readable(db_path, b"periwinkle")


@needs_cipher
def test_a_wrong_key_is_a_clear_error_and_the_file_is_untouched(
    db_path: Path, key_file: Path, run_cli
) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg(MESSAGE, run=None))
    before = db_path.read_bytes()
    wrong = key_file.with_name("wrong.hex")
    wrong.write_text(secrets.token_hex(32))
    result = run_cli(
        "event",
        "append",
        "--db",
        str(db_path),
        json.dumps(user_msg("more", run=None)),
        env={"AGENTMEM_KEY_FILE": str(wrong)},
    )
    assert result.returncode == 6, result.stderr
    assert "key does not open" in result.stderr
    assert db_path.read_bytes() == before
    missing = run_cli("status", "--db", str(db_path))  # no key at all (no keyring here)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    bad = key_file.with_name("bad.hex")
    bad.write_text("hunter2")
    malformed = run_cli("status", "--db", str(db_path), env={"AGENTMEM_KEY_FILE": str(bad)})
    assert malformed.returncode == 2 and "hunter2" not in malformed.stderr


@needs_cipher
def test_encrypt_and_decrypt_an_existing_file(db_path: Path, tmp_path: Path, run_cli) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg(MESSAGE, run=None))
    key = tmp_path / "k.hex"
    key.write_text(secrets.token_hex(32))
    env = {"AGENTMEM_KEY_FILE": str(key)}
    assert b"periwinkle" in raw_bytes(db_path)
    result = run_cli("db", "encrypt", "--db", str(db_path), "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["cipher"] == "chacha20"
    assert b"periwinkle" not in raw_bytes(db_path) and file_state(db_path) == "encrypted"
    assert run_cli("db", "check", "--db", str(db_path), env=env).returncode == 0
    again = run_cli("db", "encrypt", "--db", str(db_path), env=env)
    assert again.returncode == 4 and "already encrypted" in again.stderr
    assert run_cli("db", "decrypt", "--db", str(db_path), env=env).returncode == 0
    assert file_state(db_path) == "plain"
    listed = run_cli("event", "list", "--json", "--db", str(db_path), "--principal", "alice")
    assert MESSAGE in listed.stdout


@needs_cipher
def test_backups_restores_and_erasure_work_encrypted(
    db_path: Path, tmp_path: Path, key_file: Path
) -> None:
    with agentmem.open(str(db_path)) as store:
        store.append(user_msg(MESSAGE, run=None))
        store.append(user_msg("I live in Lisbon.", session="s2", run=None))
        copy = tmp_path / "copy.db"
        backup_mod.backup(store, copy)
        compact = tmp_path / "compact.db"
        backup_mod.backup(store, compact, vacuum=True)
        erase(store, "session", "s1")
        assert b"periwinkle" not in raw_bytes(db_path)
    for made in (copy, compact):
        assert file_state(made) == "encrypted" and b"periwinkle" not in made.read_bytes()
    _, kept = backup_mod.restore(db_path, copy, replace=True)
    assert kept is not None and file_state(kept) == "encrypted"
    with agentmem.open(str(db_path)) as store:
        assert MESSAGE in [getattr(e, "text", None) for e in store.events(all_principals=True)]
        assert store.check() == []


@needs_cipher
def test_init_encrypt_and_status_say_which_cipher(tmp_path: Path, run_cli) -> None:
    key = tmp_path / "k.hex"
    key.write_text(secrets.token_hex(32))
    env = {"AGENTMEM_KEY_FILE": str(key)}
    target = tmp_path / "new.db"
    created = run_cli("init", "--encrypt", "--db", str(target), env=env)
    assert created.returncode == 0, created.stderr
    assert file_state(target) == "encrypted"
    status = run_cli("status", "--json", "--db", str(target), env=env)
    assert json.loads(status.stdout)["encryption"] == "chacha20"
    plain = tmp_path / "plain.db"
    assert run_cli("init", "--db", str(plain)).returncode == 0
    refused = run_cli("init", "--encrypt", "--db", str(plain), env=env)
    assert refused.returncode == 2 and "agentmem db encrypt" in refused.stderr
    assert file_state(plain) == "plain"
    # No key file and no OS keyring (as on this headless machine): refused before any file.
    nothing = tmp_path / "nothing.db"
    refused = run_cli("init", "--encrypt", "--db", str(nothing))
    assert refused.returncode == 2 and not nothing.exists()


@needs_cipher
def test_a_key_kept_in_the_os_keyring(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    import keyring.backend

    entries: dict[tuple[str, str], str] = {}

    class MemoryKeyring(keyring.backend.KeyringBackend):
        priority = 1  # type: ignore[assignment]
        store = entries

        def get_password(self, service: str, username: str) -> str | None:
            return self.store.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.store[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.store.pop((service, username), None)

    monkeypatch.delenv("AGENTMEM_KEY_FILE", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        with agentmem.open(str(db_path)) as store:
            store.append(user_msg(MESSAGE, run=None))
        from agentmem.encryption import convert

        convert(db_path, encrypt=True)
        assert file_state(db_path) == "encrypted" and b"periwinkle" not in raw_bytes(db_path)
        (entry,) = entries
        assert entry[0] == "agentmem" and str(db_path.resolve()) in entry[1]
        with agentmem.open(str(db_path)) as store:
            assert MESSAGE in [getattr(e, "text", None) for e in store.events(all_principals=True)]
    finally:
        keyring.set_keyring(previous)
