"""Regression tests for the leaks of issue 13: shapes a user expects redaction to catch.

A token after ``/`` or ``+`` (URL paths, webhooks, ``s3://``), invisible and attaching
characters inside a token, Cyrillic and Greek look-alikes, a right-to-left override in front of
a reversed token, base64 wrapped at 76 columns, key/value pairs as arrays, card numbers with
dots, and tool arguments nested hundreds of levels deep. Each leak is checked in the export
path (``redact_json`` + ``verify_document``) and in ``agentmem scan``; benign look-alikes that
used to be flagged must survive byte for byte.

No secret is written in this file: fakes come from ``agentmem.redaction.fakes`` at run time,
and assertion messages name the case, never the value.
"""

from __future__ import annotations

import base64
import json
import random
import secrets
import string
from pathlib import Path

import pytest
from _events import run_started, user_msg

import agentmem
from agentmem.errors import InvalidInput, RedactionFailed
from agentmem.json_depth import MAX_JSON_DEPTH as APPEND_DEPTH
from agentmem.redaction import default_registry, fakes
from agentmem.redaction.engine import MAX_JSON_DEPTH, RuleRegistry
from agentmem.redaction.evaluation import _leaked, materialize
from agentmem.redaction.files import scan_files

TOKEN_RULES = ("github_token", "aws_access_key_id", "gcp_api_key", "stripe_key", "npm_token")


@pytest.fixture(scope="module")
def reg() -> RuleRegistry:
    return default_registry()


def _fake(rule: str, seed: int = 1) -> str:
    return fakes.generate(rule, random.Random(f"leaks/{rule}/{seed}"))


def _assert_caught(reg: RuleRegistry, text: str, core: str, case: str) -> None:
    """Redacted in every position of an export document, and verification passes."""
    for position in ("user", "tool_arguments", "tool_result_json"):
        redacted, count = reg.redact_json(materialize(text, position))
        assert count >= 1, f"{case}@{position} not replaced"
        leaked = _leaked(core, redacted)
        assert not leaked, f"{case}@{position} leaked"
        reg.verify_document(redacted)


# ---------------------------------------------------------------------------------------------
# The left boundary: whatever precedes a token


@pytest.mark.parametrize("rule", TOKEN_RULES)
@pytest.mark.parametrize(
    "shape",
    [
        "https://api.example.com/v1/keys/{}",
        "https://hooks.example.net/webhook/{}/notify",
        "s3://backups-eu/{}",
        "q=deploy+with+{}+now",
        "path/{}",
    ],
)
def test_token_after_slash_or_plus(reg: RuleRegistry, rule: str, shape: str) -> None:
    token = _fake(rule)
    text = shape.format(token)
    assert [f.rule for f in reg.scan_text(text)] == [rule], f"{rule} in {shape}"
    _assert_caught(reg, text, token, f"{rule} in {shape}")


def test_bot_url_is_redacted(reg: RuleRegistry) -> None:
    token = _fake("telegram_bot_token")
    text = f"curl https://api.telegram.org/bot{token}/getMe"
    _assert_caught(reg, text, token, "telegram bot url")


def test_scan_reports_a_token_in_a_url_path(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text(f"restore from s3://bucket/{_fake('aws_access_key_id')}\n")
    found = [(f.line, f.rule) for f in scan_files([tmp_path])]
    assert found == [(1, "aws_access_key_id")]


# ---------------------------------------------------------------------------------------------
# Unicode: invisible and attaching characters, look-alikes, bidi override

_INTERLEAVED = {
    "combining acute": "\u0301",
    "grapheme joiner": "\u034f",
    "variation selector 16": "\ufe0f",
    "variation selector 17": "\U000e0100",
    "hangul filler": "\u3164",
    "halfwidth hangul filler": "\uffa0",
    "mongolian selector": "\u180b",
}


@pytest.mark.parametrize("name", sorted(_INTERLEAVED))
def test_characters_interleaved_in_a_token(reg: RuleRegistry, name: str) -> None:
    token = _fake("github_token")
    mark = _INTERLEAVED[name]
    text = token[:6] + mark + token[6:20] + mark + mark + token[20:]
    redacted, found = reg.redact_text(f"use {text} now")
    assert [f.rule for f in found] == ["github_token"], name
    assert redacted == "use [REDACTED:github_token] now", name
    _assert_caught(reg, text, token, name)


def test_confusable_letters_in_a_token(reg: RuleRegistry) -> None:
    cyrillic = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}
    greek = {"A": "\u0391", "K": "\u039a", "I": "\u0399", "o": "\u03bf"}
    for rule, table in (("github_token", cyrillic), ("aws_access_key_id", greek)):
        for seed in range(8):
            token = _fake(rule, seed)
            text = "".join(table.get(c, c) for c in token)
            if text == token:
                continue
            found = [f.rule for f in reg.scan_text(text)]
            assert found == [rule], f"{rule}/{seed}"
            _assert_caught(reg, text, token, f"{rule}/{seed}")


def test_right_to_left_override_of_a_reversed_token(reg: RuleRegistry) -> None:
    token = _fake("stripe_key")
    for tail in ("\u202c", "\u2069", "", "\n"):
        text = f"see \u202e{token[::-1]}{tail} for details"
        redacted, found = reg.redact_text(text)
        assert [f.rule for f in found] == ["stripe_key"], repr(tail)
        assert token[::-1] not in redacted, repr(tail)
        _assert_caught(reg, text, token, f"rlo {tail!r}")


def test_override_scope_ends_at_the_line(reg: RuleRegistry) -> None:
    token = _fake("npm_token")
    # the override ends at the line break: the token on the next line reads as written
    text = f"\u202eabc\n{token}"
    assert [f.rule for f in reg.scan_text(text)] == ["npm_token"]


# ---------------------------------------------------------------------------------------------
# Wrapped base64


@pytest.mark.parametrize("rule", ["github_token", "aws_access_key_id", "key_name", "jwt"])
def test_base64_wrapped_at_76_columns(reg: RuleRegistry, rule: str) -> None:
    rng = random.Random(f"wrapped/{rule}")
    secret, core = fakes.generate_case(rule, rng)
    block = fakes.encode(secret, "base64_wrapped", rng)
    assert "\n" in block
    lines = block.split("\n")
    assert all(len(line) == 76 for line in lines[:-1])
    for text in (block, f"payload:\n{block}\nend", f"value: {block} -- ok?", "  " + block):
        redacted, found = reg.redact_text(text)
        assert found, f"{rule} wrapped not found"
        assert not _leaked(core, redacted), f"{rule} wrapped leaked"
    _assert_caught(reg, block, core, f"{rule} wrapped")


def test_wrapped_base64_of_text_is_left_alone(reg: RuleRegistry) -> None:
    prose = " ".join(["the build passed and the release notes are ready for review"] * 8)
    block = base64.encodebytes(prose.encode()).decode()
    assert reg.redact_text(block) == (block, [])


# ---------------------------------------------------------------------------------------------
# Key/value pairs as arrays, cards with dots


def test_key_value_pairs_as_arrays(reg: RuleRegistry) -> None:
    value = "".join(["hunter", "2xyz", "Q7abc"])
    args = json.dumps({"env": [["DB_PASSWORD", value], ["REGION", "eu-west-1"]]})
    doc = materialize("ok", "user")
    doc["messages"][1]["tool_calls"][0]["function"]["arguments"] = args
    redacted, count = reg.redact_json(doc)
    assert count >= 1
    assert not _leaked(value, redacted)
    reg.verify_document(redacted)
    inner = json.loads(redacted["messages"][1]["tool_calls"][0]["function"]["arguments"])
    assert inner["env"] == [["DB_PASSWORD", "[REDACTED:key_name]"], ["REGION", "eu-west-1"]]
    # as parsed JSON too, and verification refuses an unredacted list of pairs
    parsed, _ = reg.redact_json({"env": [("API_TOKEN", value)]})
    assert parsed == {"env": [["API_TOKEN", "[REDACTED:key_name]"]]}
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document({"env": [["API_TOKEN", value]]})
    assert (info.value.rule, info.value.path) == ("key_name", "$.env[0][1]")
    assert value not in str(info.value)
    for text in (f'[("SECRET_KEY", "{value}")]', f"x = [['db_password', '{value}']]"):
        assert value not in reg.redact_text(text)[0], text


def test_lists_of_words_are_not_pairs(reg: RuleRegistry) -> None:
    for doc in (
        {"tags": [["auth", "login"], ["token", "refresh"]]},
        {"pair": ["password", "hunter"]},
        {"args": 'os.getenv("API_TOKEN", "dev-fallback-123")'},
    ):
        assert reg.redact_json(doc) == (doc, 0), doc


def test_card_numbers_with_dots(reg: RuleRegistry) -> None:
    for seed in range(20):
        rng = random.Random(f"dots/{seed}")
        digits = fakes.generate("payment_card", rng).replace(" ", "").replace("-", "")
        digits = digits.replace(".", "")
        if len(digits) != 16:
            continue
        dotted = ".".join(digits[i : i + 4] for i in range(0, 16, 4))
        assert [f.rule for f in reg.scan_text(f"card {dotted}.")] == ["payment_card"], seed
        _assert_caught(reg, dotted, dotted, f"dotted card {seed}")


# ---------------------------------------------------------------------------------------------
# Benign look-alikes that used to be flagged


def test_ids_that_pass_luhn_next_to_an_id_label(reg: RuleRegistry) -> None:
    for seed in range(40):
        text = fakes.benign("luhn_id", random.Random(f"ids/{seed}"))
        assert reg.redact_text(text) == (text, []), seed
    card = fakes.generate("payment_card", random.Random(3)).replace(" ", "").replace("-", "")
    card = card.replace(".", "")
    # the label must name an id: a card number is still a card number
    assert reg.scan_text(f"card number {card}")
    assert reg.redact_json({"order_id": int(card), "id": card}) == (
        {"order_id": int(card), "id": card},
        0,
    )
    assert reg.redact_json({"card": int(card)})[1] == 1


def test_placeholders_and_names_are_not_secrets(reg: RuleRegistry) -> None:
    for text in (
        "api_key=YOUR_API_KEY_HERE",
        "OPENAI_API_KEY=your-openai-api-key-here",
        'password: "ChangeMe"',
        'token = "ghp_" + suffix',
        "pip install sk-learn-gradient-boosting-classifier-v2",
        "postgresql://app:app@localhost:5432/test",
        # a template in the user information (the corpus writes secrets this way)
        "my remote is https://{{secret:github_token}}@github.com/yusuf/shop.git",
    ):
        assert reg.redact_text(text) == (text, []), text
    # ... while a password after a real user name is still one
    password = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(14))
    found = [h.rule for h in reg.redact_text(f"https://bob:{password}@github.com/x.git")[1]]
    assert found, "a password after a user name was not found"


# ---------------------------------------------------------------------------------------------
# Deep JSON


def _deep(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


@pytest.mark.parametrize("depth", [500, 900, 5000])
def test_deep_arguments_are_refused_never_a_recursion_error(reg: RuleRegistry, depth: int) -> None:
    doc = materialize("ok", "user")
    doc["messages"][1]["tool_calls"][0]["function"]["arguments"] = _deep(depth)
    redacted, _ = reg.redact_json(doc)
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document(redacted)
    assert info.value.rule == "nesting_depth"
    assert len(info.value.path) < 130


def test_nesting_within_the_limit_is_walked(reg: RuleRegistry) -> None:
    value = "".join(["s3cr3t", "-value-", "99"])
    inner: object = {"api_key": value}
    for _ in range(APPEND_DEPTH - 1):
        inner = [inner]
    doc = materialize("ok", "user")
    doc["messages"][1]["tool_calls"][0]["function"]["arguments"] = json.dumps(inner)
    redacted, count = reg.redact_json(doc)
    assert count == 1
    reg.verify_document(redacted)
    assert APPEND_DEPTH < MAX_JSON_DEPTH


@pytest.mark.parametrize("depth", [500, 900])
def test_append_refuses_deep_json(store: agentmem.Store, depth: int) -> None:
    store.append(run_started())
    call = {
        "type": "assistant.message.created",
        "session_id": "s1",
        "principal": "alice",
        "run_id": "r1",
        "tool_calls": [{"id": "c1", "name": "search", "arguments": _deep(depth)}],
    }
    with pytest.raises(InvalidInput) as info:
        store.append(call)
    assert "tool_calls[0].arguments" in str(info.value)
    assert str(APPEND_DEPTH) in str(info.value)
    result = {"type": "tool.result.created", "session_id": "s1", "principal": "alice"}
    with pytest.raises(InvalidInput):
        store.append({**result, "run_id": "r1", "tool_call_id": "c1", "content": _deep(depth)})
    with pytest.raises(InvalidInput):
        store.append(run_started("r2", tools=[{"name": "t", "schema": json.loads(_deep(depth))}]))
    store.append(user_msg(_deep(APPEND_DEPTH)))


def test_cli_append_of_deep_arguments_exits_4_and_export_works(run_cli, db_path: Path) -> None:
    db = ("--db", str(db_path), "--principal", "alice")
    assert run_cli("consent", "grant", "alice", *db[:2]).returncode == 0
    assert run_cli("event", "append", json.dumps(run_started()), *db).returncode == 0
    call = {
        "type": "assistant.message.created",
        "session_id": "s1",
        "principal": "alice",
        "run_id": "r1",
        "tool_calls": [{"id": "c1", "name": "search", "arguments": _deep(900)}],
    }
    refused = run_cli("event", "append", json.dumps(call), *db)
    assert refused.returncode == 4, refused.stderr
    assert "nested" in refused.stderr and "Traceback" not in refused.stderr
    exported = run_cli("run", "export", "r1", *db)
    assert exported.returncode == 0, exported.stderr


def test_export_of_deep_history_fails_closed(reg: RuleRegistry) -> None:
    """History stored before the limit existed is refused with exit 7, not a crash."""
    doc = materialize("ok", "user")
    doc["messages"][2]["content"] = json.dumps({"rows": json.loads(_deep(700))})
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document(reg.redact_json(doc)[0])
    assert info.value.exit_code == 7
    assert info.value.path.startswith("$.messages[2].content")


def test_override_over_escaped_newlines(reg: RuleRegistry) -> None:
    """A reversed key with ``\\n`` escapes: undo the override before decoding the escapes."""
    for seed in range(40):
        rng = random.Random(f"rlo-pem/{seed}")
        block = fakes.generate("pem_private_key", rng).replace("\n", "\\n")
        text = "\u202e" + block[::-1] + "\u202c"
        redacted, found = reg.redact_text(f"key: {text}")
        assert [f.rule for f in found] == ["pem_private_key"], seed
        assert redacted == "key: [REDACTED:pem_private_key]", seed
