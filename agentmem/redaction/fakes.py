"""Fake secrets, generated at run time from each rule's format, and benign look-alikes.

No credential-shaped string is ever committed to this repository, not even in tests: a
committed fake is indistinguishable from a leaked real one to every scanner downstream, and
the CI scan over ``corpus/`` must stay clean. Tests, the evaluation corpus, the benchmark and
the ``gate.event.export_redacted`` gate therefore build their secrets here, deterministically
from a ``random.Random``. The module ships in the wheel because the gate and
``agentmem eval redaction`` run from an installed package.

Every generator returns the text as it would appear in a conversation; :func:`generate_case`
also returns the *core*, the part that must not survive redaction (a key-name case keeps its
key, a connection string keeps its host).
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from collections.abc import Callable
from typing import Final
from urllib.parse import quote

from agentmem.redaction.views import CONFUSABLES

__all__ = [
    "BENIGN_KINDS",
    "ENCODINGS",
    "RULES_WITH_FAKES",
    "benign",
    "encode",
    "generate",
    "generate_case",
]

_UPPER = string.ascii_uppercase
_LOWER = string.ascii_lowercase
_DIGITS = string.digits
_ALNUM = _UPPER + _LOWER + _DIGITS
_URLSAFE = _ALNUM + "_-"
_HEX = "0123456789abcdef"
_B32 = _UPPER + "234567"
_DASHES = "-" * 5


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _with_digit(rng: random.Random, alphabet: str, n: int) -> str:
    body = list(_pick(rng, alphabet, n))
    body[rng.randrange(1, n)] = rng.choice(_DIGITS)
    return "".join(body)


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _lines(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)]


def _block(rng: random.Random, label: str, body: str, width: int) -> tuple[str, str]:
    lines = _lines(body, width)
    nl = "\\n" if rng.random() < 0.3 else "\n"
    begin = f"{_DASHES}BEGIN {label}{_DASHES}"
    end = f"{_DASHES}END {label}{_DASHES}"
    return nl.join([begin, *lines, end]), lines[len(lines) // 2]


def _pem(rng: random.Random) -> tuple[str, str]:
    kind = rng.choice(["RSA ", "EC ", "", "DSA ", "ENCRYPTED "])
    body = _b64(rng.randbytes(rng.randrange(300, 600)))
    return _block(rng, kind + "PRIVATE KEY", body, 64)


def _openssh(rng: random.Random) -> tuple[str, str]:
    body = "b3BlbnNzaC1rZXktdjE" + _b64(rng.randbytes(rng.randrange(300, 500)))
    return _block(rng, "OPENSSH PRIVATE KEY", body, 70)


def _simple(make: Callable[[random.Random], str]) -> Callable[[random.Random], tuple[str, str]]:
    def gen(rng: random.Random) -> tuple[str, str]:
        token = make(rng)
        return token, token

    return gen


def _azure_conn(rng: random.Random) -> tuple[str, str]:
    if rng.random() < 0.5:
        key = _b64(rng.randbytes(64))
        acct = _pick(rng, _LOWER + _DIGITS, 12)
        text = (
            f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};"
            "EndpointSuffix=core.windows.net"
        )
    else:
        key = _b64(rng.randbytes(32))
        ns = _pick(rng, _LOWER, 10)
        text = (
            f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=RootManage;"
            f"SharedAccessKey={key}"
        )
    return text, key.rstrip("=")


def _jwt(rng: random.Random) -> tuple[str, str]:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"sub": str(rng.randrange(10**6, 10**9)), "iat": rng.randrange(10**9, 2 * 10**9)}
    payload = _b64url(json.dumps(claims).encode())
    sig = _b64url(rng.randbytes(32))
    return f"{header}.{payload}.{sig}", sig


def _bearer(rng: random.Random) -> tuple[str, str]:
    token = _with_digit(rng, _ALNUM + "._-", rng.randrange(32, 48))
    head = rng.choice(["Authorization: Bearer ", "authorization: bearer ", "Bearer "])
    return head + token, token


def _basic(rng: random.Random) -> tuple[str, str]:
    user = _pick(rng, _LOWER, rng.randrange(5, 10))
    cred = _b64(f"{user}:{_with_digit(rng, _ALNUM, 14)}".encode())
    return rng.choice(["Authorization: Basic ", "Basic "]) + cred, cred.rstrip("=")


def _password(rng: random.Random, n: int) -> str:
    return rng.choice(_ALNUM) + _with_digit(rng, _ALNUM + "!#*_-+", n - 1)


def _url_creds(rng: random.Random) -> tuple[str, str]:
    scheme = rng.choice(
        ["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp", "https"]
    )
    user = _pick(rng, _LOWER, rng.randrange(3, 9))
    pw = _password(rng, rng.randrange(12, 20))
    host = rng.choice(["db.internal", "10.0.3.7", "cache.example.net", "mq.corp.example"])
    port = rng.choice(["", ":5432", ":6379", ":3306"])
    return scheme + "://" + user + ":" + pw + "@" + host + port + "/app", pw


def _aws_secret(rng: random.Random) -> tuple[str, str]:
    secret = _with_digit(rng, _ALNUM + "/+", 40)
    form = rng.choice(
        [
            "aws_secret_access_key = {v}",
            "AWS_SECRET_ACCESS_KEY={v}",
            '"SecretAccessKey": "{v}"',
            "aws_secret_key: {v}",
        ]
    )
    return form.format(v=secret), secret


def _cookie(rng: random.Random) -> tuple[str, str]:
    value = _pick(rng, _ALNUM, 32)
    if rng.random() < 0.5:
        text = f"Cookie: sessionid={value}; csrftoken={_pick(rng, _ALNUM, 32)}"
    else:
        text = f"Set-Cookie: session={value}; Path=/; HttpOnly; Secure"
    return text, value


def _session(rng: random.Random) -> tuple[str, str]:
    value = _with_digit(rng, _ALNUM, rng.randrange(24, 40))
    key = rng.choice(["session_id", "sessionId", "PHPSESSID", "JSESSIONID", "SESSION_ID"])
    form = rng.choice(["{k}={v}", '"{k}": "{v}"', "{k}: {v}"])
    return form.format(k=key, v=value), value


def _dsn(rng: random.Random) -> tuple[str, str]:
    pw = _with_digit(rng, _ALNUM, rng.randrange(12, 20))
    user = _pick(rng, _LOWER, 6)
    if rng.random() < 0.5:
        text = f"host=db.internal port=5432 dbname=app user={user} password={pw} sslmode=require"
    else:
        text = f"Server=tcp:sql.internal,1433;Database=app;User Id={user};Password={pw};"
    return text, pw


_KEY_NAMES: Final = (
    "password",
    "db_password",
    "DB_PASSWORD",
    "openaiApiKey",
    "x-api-key",
    "client_secret",
    "api_key",
    "refresh_token",
    "access_token",
    "id_token",
    "passwd",
    "pwd",
    "secret",
    "apiKey",
    "auth_token",
    "credentials",
    "private_key",
)


def _key_name(rng: random.Random) -> tuple[str, str]:
    key = rng.choice(_KEY_NAMES)
    value = _password(rng, rng.randrange(12, 24))
    form = rng.choice(
        [
            "{k}={v}",
            '"{k}": "{v}"',
            "{k}: {v}",
            'export {K}="{v}"',
            "{k} = '{v}'",
            "--{k}={v}",
            '[["{K}", "{v}"], ["REGION", "eu-west-1"]]',
        ]
    )
    return form.format(k=key, K=key.upper().replace("-", "_"), v=value), value


def _email(rng: random.Random) -> tuple[str, str]:
    first = rng.choice(["alice", "bob", "carol", "dmitri", "eve", "farah", "gus", "hana"])
    last = rng.choice(["smith", "jones", "nguyen", "garcia", "kim", "okafor", "rossi"])
    sep = rng.choice([".", "_", ""])
    domain = rng.choice(["example.com", "mail.example.org", "corp.example.net", "example.co.uk"])
    text = f"{first}{sep}{last}{rng.randrange(1, 99)}@{domain}"
    return text, text


def _luhn_digit(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def _card_digits(rng: random.Random) -> tuple[str, list[int]]:
    prefix, length, groups = rng.choice(
        [
            ("4", 16, [4, 4, 4, 4]),
            (str(rng.randrange(51, 56)), 16, [4, 4, 4, 4]),
            (rng.choice(["34", "37"]), 15, [4, 6, 5]),
            ("6011", 16, [4, 4, 4, 4]),
        ]
    )
    partial = prefix + _pick(rng, _DIGITS, length - len(prefix) - 1)
    return partial + _luhn_digit(partial), groups


def _grouped(digits: str, groups: list[int], sep: str) -> str:
    out, pos = [], 0
    for g in groups:
        out.append(digits[pos : pos + g])
        pos += g
    return sep.join(out)


def _card(rng: random.Random) -> tuple[str, str]:
    digits, groups = _card_digits(rng)
    text = _grouped(digits, groups, rng.choice([" ", "-", "", "."]))
    return text, text


def _ssn(rng: random.Random) -> tuple[str, str]:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    text = f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"
    return text, text


def _phone(rng: random.Random) -> tuple[str, str]:
    a, b, c = rng.randrange(200, 1000), rng.randrange(200, 1000), rng.randrange(0, 10000)
    text = rng.choice(
        [
            f"({a}) {b}-{c:04d}",
            f"{a}-{b}-{c:04d}",
            f"{a}.{b}.{c:04d}",
            f"+1 {a} {b} {c:04d}",
            f"+44 20 {rng.randrange(1000, 10000)} {c:04d}",
            f"+49 30 {rng.randrange(100, 1000)} {c:04d}",
        ]
    )
    return text, text


_GENERATORS: Final[dict[str, Callable[[random.Random], tuple[str, str]]]] = {
    "openssh_private_key": _openssh,
    "pem_private_key": _pem,
    "aws_access_key_id": _simple(lambda r: r.choice(["AKIA", "ASIA"]) + _pick(r, _B32, 16)),
    "aws_secret_access_key": _aws_secret,
    "gcp_api_key": _simple(lambda r: "AIza" + _pick(r, _URLSAFE, 35)),
    "azure_connection_string": _azure_conn,
    "azure_client_secret": _simple(
        lambda r: _pick(r, _ALNUM, 3) + r.choice(_DIGITS) + "Q~" + _pick(r, _ALNUM + "_.-", 34)
    ),
    "github_token": _simple(lambda r: "gh" + r.choice("pousr") + "_" + _pick(r, _ALNUM, 36)),
    "github_fine_grained_token": _simple(
        lambda r: "github_pat_" + _pick(r, _ALNUM, 22) + "_" + _pick(r, _ALNUM, 59)
    ),
    "gitlab_token": _simple(lambda r: "glpat-" + _pick(r, _ALNUM, 2) + _pick(r, _URLSAFE, 18)),
    "slack_token": _simple(
        lambda r: (
            f"xox{r.choice('bpa')}-{_pick(r, _DIGITS, 12)}-{_pick(r, _DIGITS, 12)}-"
            + _pick(r, _ALNUM, 24)
        )
    ),
    "slack_webhook": lambda r: _split_last(
        "https://hooks.slack.com/services/T"
        + _pick(r, _UPPER + _DIGITS, 10)
        + "/B"
        + _pick(r, _UPPER + _DIGITS, 10)
        + "/"
        + _pick(r, _ALNUM, 24)
    ),
    "stripe_key": _simple(
        lambda r: (
            r.choice(["sk_live_", "rk_live_", "sk_test_"]) + _pick(r, _ALNUM, 32)
            if r.random() < 0.75
            else "whsec_" + _pick(r, _ALNUM, 32)
        )
    ),
    "anthropic_api_key": _simple(lambda r: "sk-ant-api03-" + _pick(r, _URLSAFE, 93) + "AA"),
    "openai_api_key": _simple(
        lambda r: (
            "sk-proj-" + _with_digit(r, _URLSAFE, 64)
            if r.random() < 0.6
            else "sk-" + _with_digit(r, _ALNUM, 48)
        )
    ),
    "huggingface_token": _simple(lambda r: "hf_" + _pick(r, _UPPER + _LOWER, 34)),
    "npm_token": _simple(lambda r: "npm_" + _pick(r, _ALNUM, 36)),
    "pypi_token": _simple(lambda r: "pypi-AgEIcHlwaS5vcmc" + _pick(r, _URLSAFE, 70)),
    "sendgrid_api_key": _simple(
        lambda r: "SG." + _pick(r, _URLSAFE, 22) + "." + _pick(r, _URLSAFE, 43)
    ),
    "twilio_api_key": _simple(lambda r: "SK" + _pick(r, _HEX, 32)),
    "digitalocean_token": _simple(lambda r: r.choice(["dop_v1_", "doo_v1_"]) + _pick(r, _HEX, 64)),
    "shopify_token": _simple(
        lambda r: r.choice(["shpat_", "shpss_", "shpca_"]) + _pick(r, _HEX, 32)
    ),
    "telegram_bot_token": _simple(
        lambda r: (
            str(r.randrange(10**8, 10**10)) + ":AA" + _pick(r, _URLSAFE, 32) + r.choice(_ALNUM)
        )
    ),
    "mailchimp_api_key": _simple(lambda r: _pick(r, _HEX, 32) + f"-us{r.randrange(1, 22)}"),
    "square_token": _simple(
        lambda r: r.choice(
            [
                "EAAA" + _pick(r, _URLSAFE, 59) + r.choice(_ALNUM),
                "sq0atp-" + _pick(r, _URLSAFE, 21) + r.choice(_ALNUM),
                "sq0csp-" + _pick(r, _URLSAFE, 42) + r.choice(_ALNUM),
            ]
        )
    ),
    "jwt": _jwt,
    "bearer_token": _bearer,
    "basic_auth": _basic,
    "url_credentials": _url_creds,
    "cookie": _cookie,
    "session_id": _session,
    "dsn_password": _dsn,
    "key_name": _key_name,
    "email": _email,
    "payment_card": _card,
    "us_ssn": _ssn,
    "phone_number": _phone,
}


def _split_last(url: str) -> tuple[str, str]:
    return url, url.rsplit("/", 1)[1]


#: Every rule name a fake can be generated for: all secret, key-name and PII rules.
RULES_WITH_FAKES: Final = tuple(_GENERATORS)


def generate_case(rule: str, rng: random.Random) -> tuple[str, str]:
    """``(text, core)`` for ``rule``: the text to embed and the part that must disappear."""
    return _GENERATORS[rule](rng)


def generate(rule: str, rng: random.Random) -> str:
    """A fresh fake for ``rule``, deterministic for a given ``rng`` state."""
    return generate_case(rule, rng)[0]


# ---------------------------------------------------------------------------------------------
# Encodings a secret can hide behind

#: ``fullwidth`` goes beyond the brief's list: NFKC folds it back, so the scanner must too.
#: The last five are leaks found by hand (issue 13): a token in a URL path or after a ``+``,
#: invisible or attaching characters that are not format characters, Cyrillic and Greek
#: look-alike letters, a right-to-left override in front of the reversed secret, and base64
#: wrapped at 76 columns with the secret across a line break.
ENCODINGS: Final = (
    "raw",
    "json_escaped",
    "in_url",
    "zero_width_split",
    "fullwidth",
    "base64",
    "percent",
    "url_path",
    "ignorable_split",
    "confusable",
    "rtl_reversed",
    "base64_wrapped",
)

_INVISIBLE: Final = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202a", "\u202c", "\u2066")


def _json_escaped(secret: str, rng: random.Random) -> str:
    out: list[str] = []
    forced = False
    for ch in secret:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "/":
            out.append("\\/")
        elif ord(ch) < 0x20 or not ch.isascii():
            out.append(f"\\u{ord(ch):04x}")
        elif ch.isalnum() and (rng.random() < 0.25 or not forced):
            out.append(f"\\u{ord(ch):04x}")
            forced = True
        else:
            out.append(ch)
    return "".join(out)


def _zero_width(secret: str, rng: random.Random) -> str:
    chars = list(secret)
    for _ in range(rng.randrange(1, 4)):
        chars.insert(rng.randrange(1, len(chars)), rng.choice(_INVISIBLE))
    return "".join(chars)


def _fullwidth(secret: str, rng: random.Random) -> str:
    return "".join(
        chr(ord(c) + 0xFEE0) if "!" <= c <= "~" and rng.random() < 0.5 else c for c in secret
    )


#: Not format characters, yet invisible or attached to the letter before: a combining acute,
#: the grapheme joiner, variation selectors, Hangul fillers, a Mongolian variation selector.
_IGNORABLE: Final = ("\u0301", "\u034f", "\ufe0f", "\ufe00", "\u3164", "\uffa0", "\u180b")
_LOOK_ALIKES: Final = {
    ascii_: "".join(k for k, v in CONFUSABLES.items() if v == ascii_ and "\u0370" <= k < "\u0530")
    for ascii_ in set(CONFUSABLES.values())
}
_URL_PATHS: Final = (
    "https://api.example.com/v1/keys/{s}",
    "https://hooks.example.net/webhook/{s}/notify",
    "s3://backups-eu/{s}",
    "https://example.org/search?q=deploy+with+{s}+now",
    "gs://assets/{s}/index.json",
)
_WRAP_FILLER: Final = (
    "# settings exported by the deploy tool on friday, kept for the migration notes and the "
    "review of the staging cluster before the release\n"
)


def _ignorable(secret: str, rng: random.Random) -> str:
    chars = list(secret)
    for _ in range(rng.randrange(1, 4)):
        chars.insert(rng.randrange(1, len(chars)), rng.choice(_IGNORABLE))
    return "".join(chars)


def _confusable(secret: str, rng: random.Random) -> str:
    spots = [i for i, c in enumerate(secret) if _LOOK_ALIKES.get(c)]
    if not spots:
        return secret
    chosen = {i for i in spots if rng.random() < 0.4} or {rng.choice(spots)}
    return "".join(rng.choice(_LOOK_ALIKES[c]) if i in chosen else c for i, c in enumerate(secret))


def _rtl_reversed(secret: str) -> str:
    # an override's scope ends at a line break, so each line gets its own
    return "\n".join(f"\u202e{line[::-1]}\u202c" for line in secret.split("\n"))


def _base64_wrapped(secret: str) -> str:
    # ``base64`` wraps at 76 columns (57 bytes a line): centre the secret on the first break
    lead = max(0, 57 - len(secret.encode()) // 2)
    head = _WRAP_FILLER[: max(0, lead - 1)] + "\n" if lead else ""
    raw = (head + secret + "\n# end of settings\n").encode()
    return base64.encodebytes(raw).decode().rstrip("\n")


def encode(secret: str, encoding: str, rng: random.Random) -> str:
    """``secret`` the way ``encoding`` would hide it in a message."""
    if encoding == "raw":
        return secret
    if encoding == "json_escaped":
        return _json_escaped(secret, rng)
    if encoding == "in_url":
        param = rng.choice(["code", "value", "state", "q"])
        return f"https://app.example.com/callback?{param}={quote(secret, safe='')}&lang=en"
    if encoding == "zero_width_split":
        return _zero_width(secret, rng)
    if encoding == "fullwidth":
        return _fullwidth(secret, rng)
    if encoding == "base64":
        raw = secret.encode()
        return _b64url(raw) if rng.random() < 0.3 else _b64(raw)
    if encoding == "percent":
        return "".join(f"%{b:02X}" for b in secret.encode())
    if encoding == "url_path":
        return rng.choice(_URL_PATHS).format(s=secret)
    if encoding == "ignorable_split":
        return _ignorable(secret, rng)
    if encoding == "confusable":
        return _confusable(secret, rng)
    if encoding == "rtl_reversed":
        return _rtl_reversed(secret)
    if encoding == "base64_wrapped":
        return _base64_wrapped(secret)
    raise ValueError(f"unknown encoding {encoding!r}; known: {', '.join(ENCODINGS)}")


# ---------------------------------------------------------------------------------------------
# Benign look-alikes: must survive redaction byte for byte


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_WORDS: Final = _words(
    "the quick brown fox jumps over a lazy dog while we review the build logs and the release "
    "notes for version three of the parser before lunch on friday because the tests passed"
)

_PASSWORD_SENTENCES: Final = (
    "I forgot my password yesterday and had to reset it.",
    "What is a good password policy for a small team?",
    "The password reset email never arrived, can you check the spam folder?",
    "Please never share your password with anyone, including support staff.",
    "A token bucket limits the request rate; each request spends one token.",
    "The session ended early because the laptop went to sleep.",
    "Our secret sauce is mostly good documentation.",
    "Use a password manager and turn on two-factor authentication.",
    "The API key rotation policy is documented in the security handbook.",
    "Set max_tokens to 4096 and keep the temperature low.",
)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randrange(8, 16))]
    return " ".join(words).capitalize() + "."


def _non_luhn(rng: random.Random) -> str:
    digits, groups = _card_digits(rng)
    bad = str((int(digits[-1]) + rng.randrange(1, 10)) % 10)
    return _grouped(digits[:-1] + bad, groups, rng.choice([" ", "-", ""]))


_ID_LABELS: Final = (
    "order {}",
    "order #{}",
    "Order ID: {}",
    "id={}",
    '{{"order_id": {}}}',
    "ticket no. {}",
    "https://shop.example.com/orders/{}",
    "tracking number {}",
)


def _luhn_id(rng: random.Random) -> str:
    """A 16-digit id that passes the card checks by chance, labelled as the id it is."""
    digits, _ = _card_digits(rng)
    while len(digits) != 16:
        digits, _ = _card_digits(rng)
    return rng.choice(_ID_LABELS).format(digits)


def _base64_wrapped_text(rng: random.Random) -> str:
    text = " ".join(_sentence(rng) for _ in range(rng.randrange(3, 6)))
    return base64.encodebytes(text.encode()).decode().rstrip("\n")


_PNG_HEAD: Final = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

_BENIGN: Final[dict[str, Callable[[random.Random], str]]] = {
    "uuid": lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "git_sha": lambda r: _pick(r, _HEX, 40),
    "sha256": lambda r: _pick(r, _HEX, 64),
    "base64_text": lambda r: _b64(_sentence(r).encode()),
    "base64_image": lambda r: "data:image/png;base64," + _b64(_PNG_HEAD + r.randbytes(600)),
    "password_sentence": lambda r: r.choice(_PASSWORD_SENTENCES),
    "non_luhn_number": _non_luhn,
    "version_string": lambda r: f"v{r.randrange(0, 20)}.{r.randrange(0, 40)}.{r.randrange(0, 99)}",
    "date": lambda r: (
        f"{r.randrange(1990, 2031)}-{r.randrange(1, 13):02d}-{r.randrange(1, 29):02d}"
    ),
    "order_number": lambda r: f"order #{r.randrange(10**6, 10**10)}",
    "luhn_id": _luhn_id,
    "base64_wrapped_text": _base64_wrapped_text,
}

#: Every benign look-alike kind :func:`benign` can produce.
BENIGN_KINDS: Final = tuple(_BENIGN)


def benign(kind: str, rng: random.Random) -> str:
    """A benign look-alike of ``kind`` that no rule may redact."""
    return _BENIGN[kind](rng)
