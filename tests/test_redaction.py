"""The redaction engine: every rule in every encoding, benign look-alikes, verification, scanner.

No secret is written in this file: every credential is generated at run time by
``agentmem.redaction.fakes``. Assertion messages name the rule and encoding, never the value,
so a failing run cannot print a secret into CI logs either.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentmem.errors import ConfigError, RedactionFailed
from agentmem.redaction import Finding, PolicyProfile, RuleRegistry, default_registry, fakes
from agentmem.redaction.evaluation import POSITIONS, _leaked, evaluate, materialize
from agentmem.redaction.files import FileFinding, scan_files

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus" / "redaction"
FAMILIES = {
    "private_key",
    "cloud_credential",
    "platform_token",
    "bearer_credential",
    "connection_string",
    "key_name",
    "pii",
}
TEMPLATES = (
    "Here is what the tool printed: {} -- does that look right to you?",
    "{}",
    'config = {{"value": "{}"}}',
    "(see {}).",
    "k={}\nnext line",
    "\t[{}], then more text",
)


@pytest.fixture(scope="module")
def reg() -> RuleRegistry:
    return default_registry()


def _case(rule: str, encoding: str, seed: int) -> tuple[str, str]:
    rng = random.Random(f"test/{rule}/{encoding}/{seed}")
    secret, core = fakes.generate_case(rule, rng)
    return TEMPLATES[seed % len(TEMPLATES)].format(fakes.encode(secret, encoding, rng)), core


def _words(*parts: str) -> str:
    """Join fragments at run time so no secret-shaped literal sits in this file."""
    return "".join(parts)


# ---------------------------------------------------------------------------------------------
# Registry shape


def test_registry_covers_all_families_and_fakes(reg: RuleRegistry) -> None:
    names = {name for name, _ in reg.rules}
    assert {family for _, family in reg.rules} == FAMILIES
    assert names == set(fakes.RULES_WITH_FAKES)
    assert len(names) == len(reg.rules)


def test_registry_is_cached_and_versioned(reg: RuleRegistry) -> None:
    assert default_registry() is reg
    assert len(reg.version) == 64
    no_email = PolicyProfile(name="no-email", pii=frozenset({"payment_card", "us_ssn"}))
    other = default_registry(no_email)
    assert other is default_registry(no_email)
    assert other.version != reg.version
    assert RuleRegistry().version == reg.version
    bumped = PolicyProfile(name="default", version="2")
    assert default_registry(bumped).version != reg.version


def test_profile_rejects_unknown_pii_rule() -> None:
    with pytest.raises(ConfigError):
        PolicyProfile(name="bad", pii=frozenset({"email", "shoe_size"}))


def test_profile_decides_which_pii_is_redacted(reg: RuleRegistry) -> None:
    rng = random.Random(7)
    email = fakes.generate("email", rng)
    phone = fakes.generate("phone_number", rng)
    text = f"mail {email} or call {phone} today"
    only_phone = default_registry(PolicyProfile(name="phones", pii=frozenset({"phone_number"})))
    assert [f.rule for f in reg.scan_text(text)] == ["email", "phone_number"]
    assert [f.rule for f in only_phone.scan_text(text)] == ["phone_number"]
    nothing = default_registry(PolicyProfile(name="none", pii=frozenset()))
    assert nothing.scan_text(text) == []


# ---------------------------------------------------------------------------------------------
# Every rule x every encoding


@pytest.mark.parametrize("encoding", fakes.ENCODINGS)
@pytest.mark.parametrize("rule", fakes.RULES_WITH_FAKES)
def test_every_rule_every_encoding_is_redacted(reg: RuleRegistry, rule: str, encoding: str) -> None:
    for seed in range(6):
        text, core = _case(rule, encoding, seed)
        redacted, found = reg.redact_text(text)
        detected = bool(found)
        assert detected, f"{rule}/{encoding}/{seed} not detected"
        labelled = rule in {f.rule for f in found}
        # in a form-encoded query (``q=a+<secret>+b``) a key-named value has no end of its
        # own: ``+`` belongs to an AWS secret's alphabet, so it is redacted as a plain key_name
        relabelled = encoding == "url_path" and {f.rule for f in found} == {"key_name"}
        assert labelled or relabelled, f"{rule}/{encoding}/{seed} labelled as another rule"
        leaked = _leaked(core, redacted)
        assert not leaked, f"{rule}/{encoding}/{seed} leaked"
        residual = bool(reg.scan_text(redacted))
        assert not residual, f"{rule}/{encoding}/{seed} still matches after redaction"
        stable = reg.redact_text(redacted)[0] == redacted
        assert stable, f"{rule}/{encoding}/{seed} redacted twice"


@pytest.mark.parametrize("position", POSITIONS)
def test_every_rule_in_every_position_of_a_document(reg: RuleRegistry, position: str) -> None:
    for rule in fakes.RULES_WITH_FAKES:
        text, core = _case(rule, "raw", 11)
        redacted, count = reg.redact_json(materialize(text, position))
        assert count >= 1, f"{rule}@{position} not replaced"
        leaked = _leaked(core, redacted)
        assert not leaked, f"{rule}@{position} leaked"
        reg.verify_document(redacted)


def test_findings_point_into_the_original_text(reg: RuleRegistry) -> None:
    rng = random.Random(3)
    token = fakes.generate("github_token", rng)
    hidden = fakes.encode(token, "zero_width_split", rng)
    text = f"before {hidden} after"
    [finding] = reg.scan_text(text)
    assert isinstance(finding, Finding)
    assert text[finding.start : finding.end] == hidden
    assert finding.family == "platform_token"
    assert set(msgspec.structs.asdict(finding)) == {"rule", "family", "start", "end"}


def test_encoded_runs_are_replaced_whole(reg: RuleRegistry) -> None:
    rng = random.Random(5)
    token = fakes.generate("aws_access_key_id", rng)
    blob = fakes.encode(token, "base64", rng)
    redacted, [f] = reg.redact_text(f"blob {blob} end")
    assert redacted == "blob [REDACTED:aws_access_key_id] end"
    assert f.end - f.start == len(blob)
    pct = fakes.encode(token, "percent", rng)
    assert reg.redact_text(f"q={pct}&x=1")[0] == "q=[REDACTED:aws_access_key_id]&x=1"


def test_bearer_token_made_of_short_dotted_pieces(reg: RuleRegistry) -> None:
    rng = random.Random(12)
    pieces = [fakes.generate("npm_token", rng)[4:14] for _ in range(4)]
    token = ".".join(pieces) + "7"
    for head in ("Bearer ", "Authorization: Bearer ", "authorization: bearer "):
        redacted, found = reg.redact_text(f"use {head}{token} now")
        assert token not in redacted, head
        assert [f.rule for f in found] == ["bearer_token"], head


def test_private_key_with_escaped_newlines(reg: RuleRegistry) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        block = fakes.generate("pem_private_key", rng).replace("\n", "\\n")
        text = json.dumps({"private_key": block})
        redacted, found = reg.redact_text(text)
        assert [f.rule for f in found] in (["pem_private_key"], ["key_name"]), seed
        assert "BEGIN" not in redacted, seed


def test_key_names_are_split_into_words(reg: RuleRegistry) -> None:
    value = _words("hunter", "2xyz", "Q7")
    for key in ("DB_PASSWORD", "openaiApiKey", "x-api-key", "client_secret", "refresh_token"):
        for form in ("{k}={v}", '"{k}": "{v}"', "{k}: {v}", "export {k}='{v}'"):
            text = form.format(k=key, v=value)
            redacted, found = reg.redact_text(text)
            assert value not in redacted, f"{key} / {form}"
            assert found and found[0].rule == "key_name", f"{key} / {form}"
    plain = _words("password=", "hunter", "2xyz")
    assert reg.redact_text(plain)[0] == "password=[REDACTED:key_name]"
    for key in ("max_tokens", "token_count", "password_policy", "monkey", "key"):
        text = f'{{"{key}": "{value}"}}'
        assert reg.redact_text(text)[0] == text, key


# ---------------------------------------------------------------------------------------------
# Benign look-alikes


def _benign_texts() -> list[tuple[str, str]]:
    out = []
    for line in (CORPUS / "benign.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        out.append((item["id"], item["text"]))
    for kind in fakes.BENIGN_KINDS:
        for seed in range(25):
            out.append((f"{kind}/{seed}", fakes.benign(kind, random.Random(f"{kind}/{seed}"))))
    return out


def test_benign_look_alikes_survive_byte_identical(reg: RuleRegistry) -> None:
    texts = _benign_texts()
    assert len(texts) >= 40 + len(fakes.BENIGN_KINDS) * 25
    for name, text in texts:
        assert reg.redact_text(text) == (text, []), name
        doc = {"messages": [{"role": "user", "content": text}], "args": json.dumps({"t": text})}
        assert reg.redact_json(doc) == (doc, 0), name
        reg.verify_document(doc)


def test_english_password_sentences_are_not_secrets(reg: RuleRegistry) -> None:
    for text in (
        "I forgot my password yesterday",
        "what is a good password policy?",
        "Password: must contain a digit.",
        "The token: a short-lived thing.",
    ):
        assert reg.scan_text(text) == [], text
        assert reg.first_secret(text) is None, text


# ---------------------------------------------------------------------------------------------
# Properties


_FILLER = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), max_codepoint=0x2FFF), max_size=40
)
_RULES = st.sampled_from(fakes.RULES_WITH_FAKES)
_ENCODINGS = st.sampled_from(fakes.ENCODINGS)
_SEP = st.sampled_from([" ", "\n", "\t", " -- ", ": ", " (", ") ", ", "])


_WHERE = st.sampled_from(["content", "escaped", "arguments", "url", "pair", "split"])


def _document(plan: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Build the document inside the test, so Hypothesis only ever prints the plan."""
    rng = random.Random(plan["seed"])
    secret, core = fakes.generate_case(plan["rule"], rng)
    shown = fakes.encode(secret, plan["encoding"], rng)
    text = plan["pre"] + plan["sep"] + shown + plan["sep"] + plan["post"]
    doc: dict[str, Any] = {"messages": [{"role": "user", "content": plan["pre"]}]}
    where = plan["where"]
    if where == "content":
        doc["messages"].append({"role": "assistant", "content": text})
    elif where == "escaped":
        doc["messages"].append({"role": "tool", "content": json.dumps({"out": text})})
    elif where == "arguments":
        call = {"function": {"name": "run", "arguments": json.dumps({"cmd": text, "n": 1})}}
        doc["messages"].append({"role": "assistant", "tool_calls": [call]})
    elif where == "url":
        doc["messages"].append({"role": "tool", "content": f"fetch https://x.example/?v={text}"})
    elif where == "pair":
        doc["env"] = [{"name": "SERVICE_API_KEY", "value": shown}, {"name": "MODE", "value": "x"}]
    else:
        cut = int(plan["cut"] * len(text))
        doc["meta"] = {"a": text[:cut], "b": text[cut:]}
    return doc, core


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {
            "rule": _RULES,
            "encoding": _ENCODINGS,
            "seed": st.integers(0, 2**32),
            "where": _WHERE,
            "pre": _FILLER,
            "post": _FILLER,
            "sep": _SEP,
            "cut": st.floats(0, 1),
        }
    )
)
def test_redaction_leaves_a_document_that_verifies(plan: dict[str, Any]) -> None:
    rule, encoding, where = plan["rule"], plan["encoding"], plan["where"]
    reg = default_registry()
    doc, core = _document(plan)
    redacted, count = reg.redact_json(doc)
    try:
        reg.verify_document(redacted)
    except RedactionFailed as exc:
        pytest.fail(f"{rule}/{encoding}/{where}: verification found {exc.rule} at {exc.path}")
    again, more = reg.redact_json(redacted)
    stable = (again, more) == (redacted, 0)
    assert stable, f"{rule}/{encoding}/{where} not idempotent"
    if where != "split":
        assert count >= 1, f"{rule}/{encoding}/{where} not replaced"
        leaked = _leaked(core, redacted)
        assert not leaked, f"{rule}/{encoding}/{where} leaked"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_redacting_arbitrary_text_is_idempotent_and_verifies(text: str) -> None:
    reg = default_registry()
    once, _ = reg.redact_text(text)
    assert reg.redact_text(once) == (once, [])
    reg.verify_document({"content": once})


# ---------------------------------------------------------------------------------------------
# Verification and the JSON walk


def test_verify_document_names_rule_and_path_never_the_secret(reg: RuleRegistry) -> None:
    token = fakes.generate("stripe_key", random.Random(1))
    doc = {"messages": [{"content": "hi"}, {"content": "ok"}, {"content": "x"}, {"content": token}]}
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document(doc)
    assert info.value.rule == "stripe_key"
    assert info.value.path == "$.messages[3].content"
    assert token not in str(info.value)
    assert token not in info.value.message


def test_verify_document_checks_keys_json_strings_and_serialized_text(reg: RuleRegistry) -> None:
    value = _words("s3cr3t", "-value-", "99")
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document({"env": {"DB_PASSWORD": value}})
    assert (info.value.rule, info.value.path) == ("key_name", "$.env.DB_PASSWORD")
    args = json.dumps({"api_key": value})
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document({"arguments": args})
    assert info.value.path == "$.arguments"
    with pytest.raises(RedactionFailed):
        reg.verify_document([{"name": "OPENAI_API_KEY", "value": value}])
    assert value not in str(info.value)


def test_redact_json_walks_keys_pairs_and_json_strings(reg: RuleRegistry) -> None:
    value = _words("s3cr3t", "-value-", "99")
    token = fakes.generate("npm_token", random.Random(2))
    doc = {
        "env": {"DB_PASSWORD": value, "PORT": 5432, "max_tokens": 99},
        "vars": [{"name": "OPENAI_API_KEY", "value": value}, {"name": "REGION", "value": "eu"}],
        "tool_calls": [{"function": {"arguments": json.dumps({"api_key": value, "q": token})}}],
        "note": f"use {token} for publishing",
    }
    before = json.dumps(doc)
    redacted, count = reg.redact_json(doc)
    assert json.dumps(doc) == before
    assert count == 5
    assert redacted["env"] == {"DB_PASSWORD": "[REDACTED:key_name]", "PORT": 5432, "max_tokens": 99}
    assert redacted["vars"][0]["value"] == "[REDACTED:key_name]"
    assert redacted["vars"][1]["value"] == "eu"
    args = json.loads(redacted["tool_calls"][0]["function"]["arguments"])
    assert args == {"api_key": "[REDACTED:key_name]", "q": "[REDACTED:npm_token]"}
    assert redacted["note"] == "use [REDACTED:npm_token] for publishing"
    reg.verify_document(redacted)
    assert reg.redact_json(redacted) == (redacted, 0)


def test_numbers_that_are_card_numbers_are_redacted(reg: RuleRegistry) -> None:
    shown = fakes.generate("payment_card", random.Random(8))
    card = int(shown.replace(" ", "").replace("-", "").replace(".", ""))
    doc = {"order": 1234567, "card": card, "ratio": 0.25, "ok": True}
    with pytest.raises(RedactionFailed) as info:
        reg.verify_document(doc)
    assert (info.value.rule, info.value.path) == ("payment_card", "$.card")
    redacted, count = reg.redact_json(doc)
    assert count == 1
    assert redacted == {**doc, "card": "[REDACTED:payment_card]"}
    reg.verify_document(redacted)


#: Tokens ending in digits glued to letters (a cell, a hex id, a float, a version): what
#: precedes a number must not decide whether the number is looked at.
_DIGIT_ENDED_TOKENS = ("A00", "B01", "e10", "1e100", "ff00", "abc123", "v2", "x1")


def _pii_numbers() -> list[tuple[str, str]]:
    """One fake card per grouping (spaces, dashes, dots, none), an SSN and phone numbers."""
    rng = random.Random("pii-numbers")
    cards: dict[str, str] = {}
    while len(cards) < 4:
        card = fakes.generate("payment_card", rng)
        cards.setdefault(next((c for c in " -." if c in card), ""), card)
    numbers = [("payment_card", card) for _, card in sorted(cards.items())]
    numbers.append(("us_ssn", fakes.generate("us_ssn", rng)))
    numbers += [("phone_number", fakes.generate("phone_number", rng)) for _ in range(4)]
    return numbers


def test_pii_number_after_a_token_ending_in_digits_is_redacted(reg: RuleRegistry) -> None:
    """``A00 <card>``: the card is replaced whole and the token before it is kept as it was."""
    for rule, value in _pii_numbers():
        for token in _DIGIT_ENDED_TOKENS:
            for sep in (" ", "\t"):
                where = f"{rule} after {token!r}+{sep!r}"
                text = f"{token}{sep}{value}{sep}end"
                redacted, found = reg.redact_text(text)
                replaced = redacted == f"{token}{sep}[REDACTED:{rule}]{sep}end"
                assert replaced, f"{where} not replaced"
                assert [f.rule for f in found] == [rule], where
                with pytest.raises(RedactionFailed) as info:
                    reg.verify_document({"content": text})
                assert info.value.rule == rule, where
                doc, count = reg.redact_json({"content": text})
                assert (doc, count) == ({"content": redacted}, 1), where


def test_first_secret_ignores_pii(reg: RuleRegistry) -> None:
    rng = random.Random(4)
    email, key = fakes.generate("email", rng), fakes.generate("gcp_api_key", rng)
    assert reg.first_secret(f"write to {email}") is None
    assert reg.first_secret(f"write to {email} with {key}") == "gcp_api_key"
    assert reg.first_secret("[REDACTED:gcp_api_key] was here") is None


# ---------------------------------------------------------------------------------------------
# Scanner and evaluation


def test_scan_files_reports_path_line_rule(tmp_path: Path, reg: RuleRegistry) -> None:
    rng = random.Random(9)
    token = fakes.generate("github_token", rng)
    key = fakes.generate("openssh_private_key", rng).replace("\\n", "\n")
    (tmp_path / "notes.txt").write_text(f"line one\nline two\nthe token is {token}\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "events.jsonl").write_text(
        json.dumps({"ok": 1}) + "\n" + json.dumps({"content": f"key:\n{key}"}) + "\n"
    )
    (tmp_path / "sub" / "blob.bin").write_bytes(b"\0\1\2" + token.encode())
    (tmp_path / "sub" / "email.md").write_text(fakes.generate("email", rng))
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text(token)
    (tmp_path / "link.txt").symlink_to(outside)
    found = scan_files([tmp_path])
    assert found == [
        FileFinding(str(tmp_path / "notes.txt"), 3, "github_token"),
        FileFinding(str(tmp_path / "sub" / "events.jsonl"), 2, "openssh_private_key"),
    ]
    assert [f.rule for f in scan_files([tmp_path / "sub" / "email.md"], pii=True)] == ["email"]
    assert all(token not in repr(f) for f in found)


def test_committed_files_scan_clean() -> None:
    paths = [
        REPO / "agentmem" / "redaction",
        REPO / "corpus",
        REPO / "benchmarks" / "redaction.py",
        *sorted((REPO / "tests").glob("test_redaction*.py")),
    ]
    assert scan_files(paths) == []


def test_evaluate_on_the_corpus_has_full_recall_and_no_false_positive() -> None:
    report = evaluate(CORPUS)
    assert report.positives >= len(fakes.RULES_WITH_FAKES) * len(fakes.ENCODINGS) * 3
    assert report.benign >= 40
    assert report.missed_total == 0, report.missed_cases
    assert report.false_positives_total == 0, report.false_positive_cases
    assert report.passed
    data = report.to_dict()
    assert {row["family"] for row in data["per_family"]} == FAMILIES
    assert all(row["recall"] == 1.0 for row in data["per_family"])
    assert all(row["false_positives"] == 0 for row in data["per_family"])
    assert sum(row["planted"] for row in data["per_family"]) == report.positives
    json.dumps(data)


def test_evaluate_counts_misses_of_a_registry_that_redacts_nothing() -> None:
    class Blind(RuleRegistry):
        def redact_json(self, obj: Any) -> tuple[Any, int]:
            return obj, 0

    report = evaluate(CORPUS, Blind())
    assert report.missed_total == report.positives
    assert not report.passed
    assert all(len(case.split("/")) == 4 for case in report.missed_cases)


def test_runtime_import_loads_no_test_tooling() -> None:
    code = (
        "import sys, agentmem.redaction; "
        "print(sorted(m for m in sys.modules if m.startswith('agentmem.redaction.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    for tooling in ("fakes", "evaluation", "files"):
        assert f"agentmem.redaction.{tooling}'" not in out.stdout


def test_a_base64_blob_that_only_looks_wrapped_is_read_alone_too() -> None:
    # found by the property test above: a short word on the line after a base64 blob made the
    # two look like one wrapped block, whose joined decoding buried the card number
    rng = random.Random(14689807)
    secret, _ = fakes.generate_case("payment_card", rng)
    shown = fakes.encode(secret, "base64", rng)
    for text in (f"{shown}\nQ0", f"x\n{shown}\nQ0", f"{shown}\nQ0\n"):
        redacted, count = default_registry().redact_json({"c": text})
        # booleans only: a failing assertion must not print the fake card's encoding
        leaked = shown in redacted["c"]
        assert count >= 1 and not leaked, "the blob was not replaced"


@pytest.mark.parametrize("rule", ["basic_auth", "bearer_token"])
def test_a_base64_value_inside_a_url_path_or_query_is_redacted(rule: str) -> None:
    # A base64 alphabet has "/" and "+": in ".../webhook/Basic <b64>/notify" and
    # "?q=deploy+with+Basic <b64>+now" the value runs on into what follows, which fails the
    # credential's own check unless the value may end at those characters. Found by the
    # property test above in CI (about one basic_auth url_path seed in twenty leaked, and that
    # pair is one of 444 the property samples); here every path shape is tried.
    reg = default_registry()
    for seed in range(300):
        rng = random.Random(seed)
        secret, core = fakes.generate_case(rule, rng)
        shown = fakes.encode(secret, "url_path", rng)
        doc = {"messages": [{"role": "assistant", "content": f"see {shown} ok"}]}
        redacted, count = reg.redact_json(doc)
        assert count >= 1 and core not in json.dumps(redacted), f"{rule}: seed {seed} leaked"
