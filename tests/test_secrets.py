"""Secret guard: every kind found and placed, look-alikes left alone, messages never leak."""

from __future__ import annotations

import base64
import json

import pytest

from vaultmem import secrets
from vaultmem.errors import ConfigError
from vaultmem.secrets import (
    DEFAULT_PATTERNS,
    SecretHit,
    SecretRefused,
    check_text,
    compile_patterns,
    find_secrets,
    redact,
)

from .conftest import CORPUS, SAMPLE

# Obviously fake values, assembled so no real-looking credential is committed.
FILL = "A1b2C3d4"
TRIPLES = zip("qwertyuiop", "ASDFGHJKLZ", "1234567890", strict=True)
RANDOM = "".join(f"{a}{b}{c}" for a, b, c in TRIPLES)  # qA1wS2eD3..., 30 distinct characters
PEM = "-----BEGIN " + "OPENSSH PRIVATE KEY-----\n" + (FILL * 8 + "\n") * 3 + "-----END "
PEM += "OPENSSH PRIVATE KEY-----"


def b64(data: dict[str, str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


JWT = b64({"alg": "HS256", "typ": "JWT"}) + "." + b64({"sub": "lucy"}) + "." + FILL * 4

# kind, text before the secret on line 2, the secret, text after it
POSITIVE = [
    ("private key block", "", PEM, "\nkept"),
    ("AWS access key id", "aws id ", "AKIA" + FILL.upper() * 2, " for backups"),
    ("AWS secret access key", "aws_secret_access_key = ", (FILL + "/") * 4 + "A1b2", ""),
    ("GitHub token", "use ", "ghp_" + FILL * 5, " to push"),
    ("Anthropic API key", "key ", "sk-ant-api03-" + FILL * 6, " here"),
    ("OpenAI API key", "openai ", "sk-proj-" + FILL * 6, ""),
    ("Stripe live key", "stripe ", "sk_live_" + FILL * 3, "."),
    ("Slack token", "bot ", "xoxb-123456789012-1234567890123-" + FILL * 3, ""),
    ("Slack webhook URL", "post to ", "https://hooks.slack.com/services/T0AB1CD2E/B0FG3/" + FILL,
     " daily"),
    ("Discord webhook URL", "", "https://discord.com/api/webhooks/123456789012345678/" + FILL * 8,
     ""),
    ("Telegram bot token", "bot ", "123456789:AA" + FILL * 4 + "x", ""),
    ("Google API key", "maps ", "AIza" + FILL * 4 + "xyz", ""),
    ("JWT", "session ", JWT, " expires"),
    ("connection string password", "db postgres://lucy:", "Pg_s3cret_2024", "@db.internal/app"),
    ("bearer token", "Authorization: Bearer ", FILL * 3, ""),
    ("password assignment", "password: ", "Tr0ub" + "4dor&3x", ""),
    ("secret assignment", "api_key = '", "k9" + FILL + "Zq", "'"),
    ("high-entropy token", "cookie ", RANDOM, " set"),
]

VARIANTS = [
    ("-----BEGIN " + "RSA PRIVATE KEY-----\nMIIE" + FILL + "\n-----END RSA PRIVATE KEY-----",
     "private key block"),
    ("-----BEGIN " + "EC PRIVATE KEY-----\n" + FILL + "\n-----END EC PRIVATE KEY-----",
     "private key block"),
    ("-----BEGIN " + "PGP PRIVATE KEY BLOCK-----\n\n" + FILL
     + "\n-----END PGP PRIVATE KEY BLOCK-----", "private key block"),
    ("pasted half a key:\n-----BEGIN " + "PRIVATE KEY-----\n" + FILL * 8, "private key block"),
    ("ASIA" + FILL.upper() * 2, "AWS access key id"),
    ("AWS_SECRET_ACCESS_KEY=" + FILL * 5, "AWS secret access key"),
    ("gho_" + FILL * 5, "GitHub token"),
    ("github_pat_" + FILL * 3 + "_" + FILL * 6, "GitHub token"),
    ("sk-" + FILL * 6, "OpenAI API key"),
    ("rk_live_" + FILL * 3, "Stripe live key"),
    ("xoxp-" + "1234567890-" + FILL * 2, "Slack token"),
    ("export DB_PASSWORD=" + "s3cr3t" + "Pw9", "password assignment"),
    ("passwd=" + "hunter2x", "password assignment"),
    ("pwd = 'Qz" + "7wx9'", "password assignment"),
    ("**Password:** " + "hunter" + "2x", "password assignment"),
    ("mysql -u root --password=" + "s3cr3t-Pw -h db", "password assignment"),
    ("密码\uff1a" + "Abc" + "12345", "password assignment"),
    ('{"client_secret": "' + "cs_" + FILL + '"}', "secret assignment"),
    ("GITHUB_TOKEN=" + "t0k" + "en-42x", "secret assignment"),
    ("`token: " + "t0k" + "en-42x`", "secret assignment"),
    ("redis://:" + "r3dis" + "Pw@cache:6379", "connection string password"),
    ("see postgres://user:pass@host", "connection string password"),
]

NEGATIVE = [
    "We decided to use PaddleOCR for the invoices because it handles skewed scans.",
    "我们决定用 PaddleOCR 处理发票\uff0c因为它能处理倾斜的扫描件。她昨天重置了密码。",
    "See [[Use PaddleOCR]] and [[Lucy#Contact|Lucy]]; also ![[Pasted image 20240501123045.png]].",
    "Met on 2024-05-01 at 14:30; follow-up 2024-05-08T09:15:00+08:00, 5/8/2024 9:15 PM.",
    "https://docs.python.org/3/library/re.html#re.compile",
    "Doc: https://docs.google.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit",
    "Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b on main.",
    "id 123e4567-e89b-12d3-a456-426614174000 and 123E4567-E89B-12D3-A456-426614174000",
    "/home/lucy/Projects/vaultmem2024/Notes/2024-05-01 Standup.md",
    r"C:\Users\Lucy\Documents\Vault2024\Projects\OCR",
    "tags: #project/ocr #status/active #2024Q2",
    "Lucy reset her password yesterday, and the token expired.",
    "| Name | Token budget | Score |\n|------|--------------|-------|\n| Lucy | 4096 | 0.87 |",
    "pattern_key: ocr.deskew",
    "confidence 0.87, recall 0.912, 1,024 pages",
    "password: ****",
    "token: <your token>",
    "password:",
    'password = ""',
    "password: [[Password manager]]",
    "api_key: {{api_key}}",
    "secret: ${API_SECRET}",
    "token: $GITHUB_TOKEN",
    "Run `export OPENAI_API_KEY=$(pass show openai)` first.",
    "api_key: your-api-key-here",
    "token: expires tomorrow",
    "token: none",
    "max_tokens: 4096",
    "pwd: /home/lucy/projects",
    "password = os.environ['DB_PASSWORD']",
    "password = getpass()",
    "self.password = password",
    "secret: 2024-05-01",
    "getUserAccountSettingsForTenant2024 is the slow call",
    "20240501123045-Meeting-Notes-With-Lucy",
    "ssh://git@github.com/kepano/obsidian-skills.git and git@github.com:kepano/x.git",
    "Bearer tokens expire after an hour.",
    "![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk)",
    "## Drawing\n```compressed-json\n" + RANDOM + "\n\n" + RANDOM[::-1] + "\n```\n",
    'note = "secret: ${API_SECRET}"',
    'pair = ("token: " + value, "JWT")',
    "password: [REDACTED:password assignment]",
]


def place(before: str) -> tuple[str, int, int]:
    """The note text prefix, and the line and column where the secret will start."""
    return "# Note\n" + before, 2, len(before) + 1


@pytest.mark.parametrize(("kind", "before", "secret", "after"), POSITIVE,
                         ids=[case[0] for case in POSITIVE])
def test_each_kind_is_found_where_it_is(kind: str, before: str, secret: str, after: str) -> None:
    prefix, line, column = place(before)
    text = prefix + secret + after
    hits = find_secrets(text)
    assert hits == [SecretHit(kind, line, column, len(prefix), len(prefix) + len(secret))]


def test_every_default_kind_has_a_positive_case() -> None:
    assert {case[0] for case in POSITIVE} == set(DEFAULT_PATTERNS)


@pytest.mark.parametrize(("text", "kind"), VARIANTS, ids=[case[1] for case in VARIANTS])
def test_variants_are_found(text: str, kind: str) -> None:
    assert [hit.kind for hit in find_secrets(text)] == [kind]


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []
    check_text(text)
    assert redact(text) == text


@pytest.mark.parametrize(("kind", "before", "secret", "after"), POSITIVE,
                         ids=[case[0] for case in POSITIVE])
def test_refusal_names_kind_and_place_but_never_the_secret(
        kind: str, before: str, secret: str, after: str) -> None:
    prefix, line, column = place(before)
    with pytest.raises(SecretRefused) as info:
        check_text(prefix + secret + after, where="People/Lucy.md")
    message = str(info.value)
    assert message.startswith("People/Lucy.md: ")
    assert f"{kind} at line {line}, column {column}" in message
    assert "remove the credential; vaultmem never stores secrets" in message
    assert secret not in message
    assert not [secret[i:i + 8] for i in range(len(secret) - 7) if secret[i:i + 8] in message]
    assert info.value.exit_code == 1 and [hit.kind for hit in info.value.hits] == [kind]


@pytest.mark.parametrize(("kind", "before", "secret", "after"), POSITIVE,
                         ids=[case[0] for case in POSITIVE])
def test_redact_replaces_exactly_the_secret(kind: str, before: str, secret: str,
                                            after: str) -> None:
    prefix, _, _ = place(before)
    redacted = redact(prefix + secret + after)
    assert redacted == f"{prefix}[REDACTED:{kind}]{after}"
    assert find_secrets(redacted) == []


def test_several_secrets_are_sorted_listed_and_redacted() -> None:
    github, google = "ghp_" + FILL * 5, "AIza" + FILL * 4 + "xyz"
    text = f"first {google}\nthen {github} and again {google}"
    assert [(h.kind, h.line, h.column) for h in find_secrets(text)] == [
        ("Google API key", 1, 7), ("GitHub token", 2, 6), ("Google API key", 2, 61)]
    assert redact(text) == ("first [REDACTED:Google API key]\nthen [REDACTED:GitHub token]"
                            " and again [REDACTED:Google API key]")
    with pytest.raises(SecretRefused, match=r"GitHub token at line 2, column 6; Google API key"):
        check_text(text)


def test_long_refusals_name_the_first_few() -> None:
    text = "\n".join(f"key {i}: AKIA{FILL.upper()}{i:08d}" for i in range(8))
    with pytest.raises(SecretRefused) as info:
        check_text(text)
    assert "line 5, column" in str(info.value) and "line 6," not in str(info.value)
    assert "and 3 more" in str(info.value) and len(info.value.hits) == 8


@pytest.mark.parametrize(("text", "kind"), [
    ("session " + JWT, "JWT"),
    ("token: " + JWT, "JWT"),
    ("Authorization: Bearer " + JWT, "JWT"),
    ("token: ghp_" + FILL * 5, "GitHub token"),
    ("sk-ant-api03-" + FILL * 6, "Anthropic API key"),
    ("aws_secret_access_key: " + FILL * 5, "AWS secret access key"),
    ("api_key = " + RANDOM, "secret assignment"),
    (PEM, "private key block"),
])
def test_overlaps_are_reported_once_as_the_most_specific_kind(text: str, kind: str) -> None:
    assert [hit.kind for hit in find_secrets(text)] == [kind]


def test_user_patterns_are_found_and_rank_above_generic_kinds() -> None:
    extra = {"ticket key": r"TCK-\d{6}[A-Z]{4}", "vault pin": r"pin (?P<secret>\d{4})\b"}
    text = "password = TCK-123456ABCD\nmy pin 4821 ok"
    hits = find_secrets(text, extra)
    assert [(h.kind, text[h.start:h.end]) for h in hits] == [
        ("ticket key", "TCK-123456ABCD"), ("vault pin", "4821")]
    assert redact(text, extra) == "password = [REDACTED:ticket key]\nmy pin [REDACTED:vault pin] ok"
    assert find_secrets(text) == [SecretHit("password assignment", 1, 12, 11, 25)]


def test_a_user_pattern_can_replace_a_default_kind() -> None:
    extra = {"AWS access key id": r"\bAKIA[A-Z0-9]{8}\b"}
    assert [hit.kind for hit in find_secrets("id AKIA1234ABCD", extra)] == ["AWS access key id"]


def test_compile_patterns_compiles_valid_ones() -> None:
    compiled = compile_patterns({"ticket key": r"TCK-\d{6}"})
    assert compiled["ticket key"].search("see TCK-123456")


@pytest.mark.parametrize(("extra", "reason"), [
    ({"broken one": "(unclosed[a-z"}, "not a valid regex: "),
    ({"everything": "x*"}, "matches empty text"),
    ({"   ": "abc"}, "non-empty name"),
])
def test_bad_user_patterns_raise_config_error(extra: dict[str, str], reason: str) -> None:
    name = next(iter(extra))
    with pytest.raises(ConfigError, match=reason) as info:
        compile_patterns(extra)
    assert repr(name) in str(info.value) and info.value.exit_code == 2
    with pytest.raises(ConfigError):
        check_text("plain text", extra)


def test_bad_regex_error_names_the_regex_error_without_echoing_it() -> None:
    with pytest.raises(ConfigError) as info:
        compile_patterns({"my pass": "hunter2(x"})
    assert "missing )" in str(info.value) and "hunter2" not in str(info.value)


@pytest.mark.parametrize("text", [
    "a." * 20_000,
    "password=" + "x" * 20_000,
    "-----BEGIN " + "PRIVATE KEY-----\n" + "-----BEGIN " * 2_000,
    "https://" + "a:b" * 10_000,
    ("Ab1" * 5_000 + " ") * 4,
])
def test_pathological_input_is_scanned_quickly(text: str) -> None:
    find_secrets(text)


def _every_kind_scanned(text: str) -> list[tuple[int, int, int, str]]:
    """What the patterns find when every one of them scans ``text`` (no shortcut)."""
    return secrets._merge(sorted(secrets._candidates(text, secrets._ranked(()))))


def test_the_one_scan_shortcut_never_misses_what_the_kinds_find() -> None:
    texts = [before + secret + after for _, before, secret, after in POSITIVE]
    texts += [text for text, _ in VARIANTS] + list(NEGATIVE) + ODD_CASES
    texts += [path.read_text(encoding="utf-8", errors="replace")
              for root in (SAMPLE, CORPUS) for path in sorted(root.rglob("*.md"))]
    for text in texts:
        found = [(hit.start, hit.end, hit.kind) for hit in find_secrets(text)]
        assert found == [(s, e, k) for s, e, _, k in _every_kind_scanned(text)], text[:80]


ODD_CASES = ["PA\u017f\u017fWORD: hunter2xyz", "ap\u0131_key = Zq8xWm2pLk9v", "BEARER " + RANDOM]


@pytest.mark.parametrize("text", ODD_CASES)
def test_keywords_are_found_in_any_case_re_matches(text: str) -> None:
    assert find_secrets(text) and redact(text) != text
