"""The rule table: every secret, key-name and PII rule, and the cheap ways to find them.

Speed comes from never running a rule's full pattern over ordinary text. A token rule has
*anchors*: a rare character (``_`` of ``ghp_``, ``J`` of ``eyJ``) plus fixed-width look-behinds
for its literal prefix. The engine only searches anchors in short windows around runs of 15 or
more token characters, which prose does not contain, so a chat turn without such a run costs
one byte translation and one ``bytes.find``. Rules whose shape breaks runs (a PEM block, a
connection URL, ``AccountKey=``) carry a *gate* instead: a rare character checked with
``memchr`` speed, then a literal, and the full pattern is matched only where the literal sits.
Key-name rules are found from the secret words in ``KEY_ENDINGS`` by the engine's reversed,
case-folded scan. The full patterns are what define a rule; anchors and gates may only
over-approximate them. ``Bearer <token>`` has both a gate (the capitalised scheme; a token
with dots need not leave a long run) and a ``scheme`` check on runs (any other casing).

Nothing here holds a credential-shaped literal: prefixes alone never match a full pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = [
    "FAMILIES",
    "KEY_QUALIFIERS",
    "KEY_RULES",
    "PII_RULES",
    "SECRET_WORDS",
    "TOKEN_RULES",
    "TokenRule",
    "classify_key",
    "key_words",
    "luhn_ok",
    "value_is_secret",
]

FAMILIES: Final = (
    "private_key",
    "cloud_credential",
    "platform_token",
    "bearer_credential",
    "connection_string",
    "key_name",
    "pii",
)

#: Left boundary for tokens: not glued to a longer alphanumeric run, and nothing else assumed
#: about what precedes. ``/`` and ``+`` must stay allowed: URL paths (``/keys/<token>``,
#: ``s3://bucket/<key id>``, webhook URLs) and form encoding (``a+<token>``) are where real
#: credentials leak most. A random base64 blob cannot yield a token by chance in practice:
#: the prefix, the exact body length and the right boundary all have to line up.
_B = r"(?<![A-Za-z0-9])"
_E = r"(?![A-Za-z0-9])"
_EW = r"(?![A-Za-z0-9_-])"


@dataclass(frozen=True, slots=True)
class TokenRule:
    """A rule found cheaply, then confirmed by its ``full`` pattern.

    ``anchors`` holds (anchor character, fragment after it, back offsets): anchors are searched
    only in windows around runs of token characters, and ``full`` is matched at
    ``anchor - back``. A rule with a ``gate`` (a rare character, a literal, back offsets) is
    instead matched at ``literal - back`` wherever the literal occurs, once the character shows
    the literal can occur at all. A ``scheme`` rule
    (``Bearer <token>``) is tried where a token run follows its scheme word. When ``full`` has a
    group named ``v`` only that group is redacted (the key or scheme around it stays).
    """

    name: str
    family: str
    priority: int
    full: str
    anchors: tuple[tuple[str, str, tuple[int, ...]], ...]
    check: Callable[[str], bool] | None = None
    gate: tuple[str, str, tuple[int, ...]] | None = None
    scheme: bool = False


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _openai_ok(value: str) -> bool:
    """Keys are random base62 (mixed case and a digit); ``sk-learn-...`` names are words."""
    body = value[3:]
    return _has_digit(body) and any(c.isupper() for c in body) and any(c.islower() for c in body)


def _basic_ok(value: str) -> bool:
    import base64
    import binascii

    raw = value.rstrip("=")
    if len(raw) % 4 == 1:
        return False
    try:
        decoded = base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    user, sep, password = decoded.partition(":")
    return bool(sep and user and password and decoded.isprintable())


def _url_password_ok(value: str) -> bool:
    """A documentation placeholder (``user:password@``, ``:<password>@``,
    ``:YOUR_PASSWORD@``) is not a password; the pattern itself skips ``app:app@``."""
    low = value.lower()
    if low in ("password", "passwd", "pass", "pwd", "secret", "pw", "x") or len(set(value)) == 1:
        return False
    if _is_placeholder(value):
        return False
    return _PLACEHOLDER_RX.match(value) is None and "[REDACTED:" not in value


_PEM_BODY = r"(?:[A-Za-z0-9+/=:,.\s-]|\\[nrt])*"
#: A header alone (in documentation) is not a key: require some key material after it. No part
#: of a block may cross a double quote, so a block never spans two JSON string values.
_PEM_HAS_BODY = r'(?=[^"]{0,400}?(?:(?<=\\[nrt])|(?<![\\A-Za-z0-9+/]))[A-Za-z0-9+/]{20})'
_PEM_ANY = r'[^"]'

TOKEN_RULES: Final[tuple[TokenRule, ...]] = (
    TokenRule(
        "openssh_private_key",
        "private_key",
        95,
        r"-{5}BEGIN OPENSSH PRIVATE KEY-{5}" + _PEM_HAS_BODY + "(?:" + _PEM_ANY + "{0,16384}?"
        r"-{5}END OPENSSH PRIVATE KEY-{5}|" + _PEM_BODY + ")",
        (),
        gate=("G", "-----BEGIN", (0,)),
    ),
    TokenRule(
        "pem_private_key",
        "private_key",
        94,
        r"-{5}BEGIN (?!OPENSSH )((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-{5}"
        + _PEM_HAS_BODY
        + "(?:"
        + _PEM_ANY
        + r"{0,16384}?-{5}END \1PRIVATE KEY(?: BLOCK)?-{5}|"
        + _PEM_BODY
        + ")",
        (),
        gate=("G", "-----BEGIN", (0,)),
    ),
    TokenRule(
        "aws_access_key_id",
        "cloud_credential",
        85,
        _B + r"(?:AKIA|ASIA)[A-Z0-9]{16}" + _E,
        (("K", r"(?<=AK)IA[A-Z0-9]{16}", (1,)), ("S", r"(?<=AS)IA[A-Z0-9]{16}", (1,))),
    ),
    TokenRule(
        "gcp_api_key",
        "cloud_credential",
        85,
        _B + r"AIza[0-9A-Za-z_-]{35}" + _EW,
        (("z", r"(?<=AIz)a[0-9A-Za-z_-]{35}", (2,)),),
    ),
    TokenRule(
        "azure_connection_string",
        "cloud_credential",
        85,
        r"(?:AccountKey|SharedAccessKey)=(?P<v>[A-Za-z0-9+/]{20,}={0,2})",
        (),
        gate=("K", "Key=", (7, 12)),
    ),
    TokenRule(
        "azure_client_secret",
        "cloud_credential",
        85,
        r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])",
        (),
        gate=("~", "Q~", (4,)),
    ),
    TokenRule(
        "github_token",
        "platform_token",
        80,
        _B + r"gh[pousr]_[A-Za-z0-9]{36,255}" + _E,
        (("_", r"(?<=gh[pousr]_)[A-Za-z0-9]{36}", (3,)),),
    ),
    TokenRule(
        "github_fine_grained_token",
        "platform_token",
        80,
        _B + r"github_pat_[A-Za-z0-9_]{60,255}" + _E,
        (("_", r"(?<=github_pat_)", (10,)),),
    ),
    TokenRule(
        "gitlab_token",
        "platform_token",
        80,
        _B + r"gl(?:pat|dt|rt|ptt|cbt)-[0-9A-Za-z_-]{20,64}" + _EW,
        (
            ("-", r"(?<=glpat-)", (5,)),
            ("-", r"(?<=glptt-|glcbt-)", (5,)),
            ("-", r"(?<=gldt-|glrt-)", (4,)),
        ),
    ),
    TokenRule(
        "slack_token",
        "platform_token",
        80,
        _B + r"(?:xox[abeoprs]-[0-9A-Za-z-]{10,250}|xapp-[0-9]-[0-9A-Za-z-]{10,250})",
        (("-", r"(?<=xox[abeoprs]-)", (4,)), ("-", r"(?<=xapp-)", (4,))),
    ),
    TokenRule(
        "slack_webhook",
        "platform_token",
        80,
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,}",
        (),
        gate=("/", "hooks.slack.com", (0,)),
    ),
    TokenRule(
        "stripe_key",
        "platform_token",
        80,
        _B + r"(?:[rs]k_(?:live|test)_[0-9A-Za-z]{16,247}|whsec_[0-9A-Za-z]{24,})" + _E,
        (
            ("_", r"(?<=[rs]k_live_)", (7,)),
            ("_", r"(?<=[rs]k_test_)", (7,)),
            ("_", r"(?<=whsec_)", (5,)),
        ),
    ),
    TokenRule(
        "anthropic_api_key",
        "platform_token",
        82,
        _B + r"sk-ant-[A-Za-z0-9_-]{32,}",
        (("-", r"(?<=sk-ant-)", (6,)),),
    ),
    TokenRule(
        "openai_api_key",
        "platform_token",
        80,
        _B + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}",
        (("-", r"(?<=sk-)(?!ant-)", (2,)),),
        _openai_ok,
    ),
    TokenRule(
        "huggingface_token",
        "platform_token",
        80,
        _B + r"hf_[A-Za-z0-9]{30,40}" + _E,
        (("_", r"(?<=hf_)[A-Za-z0-9]{30}", (2,)),),
    ),
    TokenRule(
        "npm_token",
        "platform_token",
        80,
        _B + r"npm_[A-Za-z0-9]{36}" + _E,
        (("_", r"(?<=npm_)[A-Za-z0-9]{36}", (3,)),),
    ),
    TokenRule(
        "pypi_token",
        "platform_token",
        80,
        _B + r"pypi-AgE[A-Za-z0-9_-]{50,}",
        (("-", r"(?<=pypi-)AgE", (4,)),),
    ),
    TokenRule(
        "sendgrid_api_key",
        "platform_token",
        80,
        _B + r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}" + _EW,
        ((".", r"(?<=SG\.)[A-Za-z0-9_-]{22}\.", (2,)),),
    ),
    TokenRule(
        "twilio_api_key",
        "platform_token",
        80,
        _B + r"SK[0-9a-fA-F]{32}" + _E,
        (("K", r"(?<=SK)[0-9a-fA-F]{32}", (1,)),),
    ),
    TokenRule(
        "digitalocean_token",
        "platform_token",
        80,
        _B + r"do[opr]_v1_[a-f0-9]{64}" + _E,
        (("_", r"(?<=do[opr]_v1_)", (6,)),),
    ),
    TokenRule(
        "shopify_token",
        "platform_token",
        80,
        _B + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _E,
        (("_", r"(?<=shp(?:at|ca|pa|ss)_)", (5,)),),
    ),
    TokenRule(
        "telegram_bot_token",
        "platform_token",
        80,
        r"(?<![0-9])[0-9]{8,10}:AA[0-9A-Za-z_-]{33}" + _EW,
        ((":", r"(?<=[0-9]{8}:)AA", (10, 9, 8)),),
    ),
    TokenRule(
        "mailchimp_api_key",
        "platform_token",
        80,
        r"(?<![0-9A-Za-z])[0-9a-f]{32}-us[0-9]{1,2}(?![0-9])",
        (("-", r"(?<=[0-9a-f]{32}-)us[0-9]", (32,)),),
    ),
    TokenRule(
        "square_token",
        "platform_token",
        80,
        _B + r"(?:EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43})" + _EW,
        (("E", r"(?=AAA[A-Za-z0-9_-]{60})", (0,)), ("-", r"(?<=sq0[ac][st]p-)", (6,))),
    ),
    TokenRule(
        "jwt",
        "bearer_credential",
        70,
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*",
        (("J", r"(?<=eyJ)[A-Za-z0-9_-]{5}", (2,)),),
    ),
    TokenRule(
        "bearer_token",
        "bearer_credential",
        65,
        r"(?i:bearer)[^\S\r\n]+(?P<v>[A-Za-z0-9._~+/-]{16,}=*)",
        (),
        _has_digit,
        gate=("B", "Bearer", (0,)),
        scheme=True,
    ),
    TokenRule(
        "basic_auth",
        "bearer_credential",
        65,
        r"(?i:basic)[^\S\r\n]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})" + _E,
        (),
        _basic_ok,
        gate=("B", "Basic", (0,)),
        scheme=True,
    ),
    TokenRule(
        "url_credentials",
        "connection_string",
        50,
        # a password that repeats the user name (``postgres://app:app@localhost``) is the
        # documentation default of every database image, not a secret; nor is user information
        # that opens a template (``https://{{secret:github_token}}@github.com``)
        r"://(?!\{\{)(?P<u>[^\s:/@\"'<>\\]{1,128}):(?!(?P=u)@)(?P<v>[^\s/@\"'<>\\]{1,256})@",
        (),
        _url_password_ok,
        gate=("@", "://", (0,)),
    ),
)

#: Rules found through a key that names a secret (``key=value``, ``"key": "value"``, dict keys).
KEY_RULES: Final[dict[str, tuple[str, int]]] = {
    "aws_secret_access_key": ("cloud_credential", 86),
    "cookie": ("bearer_credential", 60),
    "session_id": ("bearer_credential", 55),
    "dsn_password": ("connection_string", 50),
    "key_name": ("key_name", 40),
}

#: Policy PII rules; a :class:`PolicyProfile` picks which of them apply.
PII_RULES: Final[dict[str, int]] = {
    "payment_card": 30,
    "us_ssn": 30,
    "email": 25,
    "phone_number": 20,
}

# ---------------------------------------------------------------------------------------------
# Key names

#: Words that, as the last word of a key, name a secret.
SECRET_WORDS: Final = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "secret",
        "secrets",
        "token",
        "apikey",
        "privatekey",
        "secretkey",
        "accesskey",
        "cookie",
        "cookies",
        "session",
        "sessionid",
        "sessid",
        "sid",
        "credential",
        "credentials",
        "creds",
        "auth",
        "authorization",
        "jwt",
        "bearer",
    }
)
#: Glued lower-case compounds ending in these (``dbpassword``, ``csrftoken``) name secrets too.
_SECRET_SUFFIXES: Final = (
    "password",
    "passwd",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "secretkey",
    "accesskey",
    "sessionid",
    "sessid",
)
#: ``<word> key`` pairs that name a secret; a bare ``key`` does not.
KEY_QUALIFIERS: Final = frozenset(
    {
        "api",
        "private",
        "secret",
        "access",
        "account",
        "master",
        "signing",
        "encryption",
        "auth",
        "app",
        "shared",
        "client",
        "service",
        "webhook",
        "subscription",
        "session",
    }
)
#: Trailing words that do not change what a key names (``password_value``, ``token_str``).
_TRAILERS: Final = frozenset({"value", "val", "str", "string", "raw", "plain", "plaintext", "b64"})
_SESSION_WORDS: Final = frozenset({"session", "sessionid", "sessid", "sid"})

_WORD_RX = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def key_words(key: str) -> list[str]:
    """Split a key into lower-case words: ``openaiApiKey`` -> ``["openai", "api", "key"]``."""
    return [w.lower() for w in _WORD_RX.findall(key)]


def classify_key(key: str) -> str | None:
    """The rule a key names (``key_name``, ``cookie``, ``session_id``, ...), or ``None``."""
    words = key_words(key)
    while words and (words[-1] in _TRAILERS or words[-1].isdigit()):
        words.pop()
    if not words:
        return None
    last = words[-1]
    prev = words[-2] if len(words) > 1 else ""
    if last == "id" and prev in _SESSION_WORDS:
        return "session_id"
    if last == "key":
        if prev not in KEY_QUALIFIERS:
            return None
        if prev == "access" and len(words) > 2 and words[-3] == "secret":
            return "aws_secret_access_key"
        if prev == "secret" and "aws" in words:
            return "aws_secret_access_key"
        return "session_id" if prev == "session" else "key_name"
    if last in SECRET_WORDS:
        if last in ("cookie", "cookies"):
            return "cookie"
        if last in _SESSION_WORDS:
            return "session_id"
        return "key_name"
    if last.endswith(_SECRET_SUFFIXES):
        return "session_id" if last.endswith(("sessionid", "sessid")) else "key_name"
    return None


#: Every lower-cased key ending the key-name anchor must recognise (look-behinds are literal).
KEY_ENDINGS: Final = (
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "secret",
    "secrets",
    "token",
    "key",
    "cookie",
    "cookies",
    "session",
    "sessionid",
    "session_id",
    "session-id",
    "sessid",
    "sid",
    "credential",
    "credentials",
    "creds",
    "auth",
    "authorization",
    "jwt",
    "bearer",
)

_STOP_VALUES: Final = frozenset(
    {
        "none",
        "null",
        "nil",
        "true",
        "false",
        "undefined",
        "str",
        "string",
        "int",
        "bool",
        "boolean",
        "bytes",
        "optional",
        "required",
        "secretstr",
        "any",
        "object",
        "number",
        "text",
        "empty",
        "redacted",
        "hidden",
        "masked",
        "omitted",
        "unset",
        "missing",
        "default",
        "example",
        "placeholder",
        "your",
        "must",
        "should",
        "will",
        "use",
        "can",
        "cannot",
        "needs",
        "is",
        "the",
        "please",
        "type",
        "field",
        "input",
        "bearer",
        "basic",
        "digest",
        "negotiate",
    }
)
_PLACEHOLDER_RX = re.compile(
    r"^(?:\$\{|\{\{|\$\(|<|%\(|%s|\$[A-Za-z_]|env\(|os\.|process\.env|\{[A-Za-z_][\w.]*\}$)"
)
#: Words that make a value made only of letters a placeholder (``YOUR_API_KEY_HERE``).
_PLACEHOLDER_WORDS: Final = frozenset(
    {
        "your",
        "here",
        "changeme",
        "change",
        "replace",
        "placeholder",
        "example",
        "insert",
        "todo",
        "dummy",
        "fake",
        "sample",
        "xxx",
        "xxxx",
    }
)
_LETTERS_RX = re.compile(r"^[A-Za-z_.-]+$")


def _is_placeholder(value: str) -> bool:
    """``YOUR_API_KEY_HERE``, ``replace-me``, ``ChangeMe``: letters only, a placeholder word."""
    if _LETTERS_RX.match(value) is None:
        return False
    return any(w in _PLACEHOLDER_WORDS for w in key_words(value))


_DOTTED_RX = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
_IDENT_RX = re.compile(r"^[A-Za-z_]+$")
MARKER_RX: Final = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


_PASSWORD_WORDS: Final = frozenset({"password", "passwd", "pwd", "pass", "passphrase"})
_PHRASE_RX = re.compile(r"^[a-z]{3,}(?:-[a-z]{3,})+$")
_SLUG_PART_RX = re.compile(r"[-_.]")


def _is_slug(value: str) -> bool:
    """Short parts, at least two of them words of three letters or more: a chosen name."""
    parts = [p for p in _SLUG_PART_RX.split(value) if p]
    words = [p for p in parts if p.isalpha() and len(p) >= 3]
    return len(words) >= 2 and all(len(p) <= 12 for p in parts)


def value_is_secret(
    value: str, *, quoted: bool, spaced: bool = False, strict: bool = False, key: str = ""
) -> bool:
    """Whether a value under a secret-naming key is a real secret, not a type or placeholder.

    ``quoted`` values are taken at face value; bare values must not look like code
    (``token = request.token``, ``password: str``). ``spaced`` marks a bare value where a bare
    identifier is a variable (``f(token=token)``, ``password = hunter``) rather than a
    credential. ``strict`` is for session ids, which name non-secret things too (agentmem's own
    conversation sessions): only a long value mixing letters and digits counts. Under a
    ``key`` that names a key or token rather than a password, a lower-case word
    (``api_key="synthetic"``) is a stand-in: issued keys and tokens are never one.
    """
    v = value.strip()
    if len(v) < 4 or "[REDACTED:" in v:
        return False
    if strict and not (
        len(v) >= 16 and any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
    ):
        return False
    # a slug of words ("s-not-a-runner-charity-10k"): a name someone chose, never issued
    if strict and _is_slug(v):
        return False
    low = v.lower()
    if low in _STOP_VALUES or len(set(v)) == 1 or _PLACEHOLDER_RX.match(v):
        return False
    if _is_placeholder(v) or (len(v) < 8 and v[-1] in "_-"):
        # a placeholder, or a token prefix being concatenated (``token = "ghp_" + ...``)
        return False
    if len(v) < 6 and not any(c.isalpha() for c in v):
        return False
    if key and v.isascii() and ((v.isalpha() and v.islower()) or _PHRASE_RX.match(v) is not None):
        # "auth: dependency-injected sessions" (a commit title): lower-case words joined by
        # hyphens are a phrase, not an issued key or token; a password may still be one
        words = key_words(key)
        if not any(w in _PASSWORD_WORDS or w.endswith(("password", "passwd")) for w in words):
            return False
    if not quoted:
        if any(c in v for c in "([{"):
            return False
        if _DOTTED_RX.match(v):
            return False
        if spaced and _IDENT_RX.match(v):
            return False
    return True


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0
