"""Secret guard: every kind found and placed, look-alikes left alone, messages never leak."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from vaultmem import secrets
from vaultmem.errors import ConfigError
from vaultmem.recall.search import search
from vaultmem.secrets import (
    DEFAULT_PATTERNS,
    SecretHit,
    SecretRefused,
    check_text,
    compile_patterns,
    find_secrets,
    redact,
)
from vaultmem.vault import Vault

from .conftest import CORPUS, SAMPLE, hash_tree, write_notes
from .test_cli import run

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
    ("high-entropy token", "cookie ", RANDOM, " beside ![[scan.png]]"),  # not a file's name
    ("secret assignment", "see https://x.example/feed?token=", RANDOM, ""),  # not an id
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
    # attachments' generated names and a link's numeric ids (real vaults: pkmer-math,
    # oldwinter-garden), no credential to their owners
    "![[file-1MW7XOlXR0Aol1SfQvMwivRL.webp]]",
    "- ![300](/_assets_/Images/img_v3_02g1_8e919614-6d08-41f3-b875-a1c7e5b1b02g.jpg))",
    "[文章](https://mp.weixin.qq.com/s?__biz=MzA4NDk5OTgzMg==&mid=2650590221&idx=1&"
    "sn=163680dcfc769ed85980bb2770de9a82&chksm=87d6&token=1333198550)",
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


UNTERMINATED_KEY = "-----BEGIN " + "PRIVATE KEY-----\n" + "-----BEGIN " * 2_000
SCAN_SECONDS = 1.0  # a linear scan of these takes milliseconds; a backtracking one, minutes


@pytest.mark.parametrize(("text", "found"), [
    ("a." * 20_000, []),
    ("x" * 40_000 + " see a.png " + "y.png" * 5_000, []),  # a long run beside an attachment
    ("password=" + "x" * 20_000, []),  # a mask, not a credential
    (UNTERMINATED_KEY, [SecretHit("private key block", 1, 1, 0, len(UNTERMINATED_KEY))]),
    ("https://" + "a:b" * 10_000, []),
    (("Ab1" * 5_000 + " ") * 4, []),  # too few distinct characters to be random
    ("A1b2\n" * 10_000, []),  # one token over 10,000 lines, joined
    ("ghp_\n" * 5_000, []),
    ("password:\n" * 10_000, []),  # each line the next one's key, never its value
    ("\u200b" * 20_000, []),
    ("\u0430" + "1\u0430" * 10_000, []),  # one word of look-alikes and digits, read as Latin
    ("\r" * 20_000, []),
    ("\uff21" * 20_000, []),
    ("".join(char for char in secrets._compatible() if len(char) == 1) * 20, []),  # each folded
    ("\U0001f600" * 20_000, []),
])
def test_pathological_input_is_scanned_quickly(text: str, found: list[SecretHit]) -> None:
    started = time.perf_counter()
    assert find_secrets(text) == found
    assert time.perf_counter() - started < SCAN_SECONDS


def _every_kind_scanned(text: str) -> list[tuple[int, int, int, str]]:
    """What the patterns find when every one of them scans ``text`` (no shortcut)."""
    return secrets._merge(sorted(secrets._raw(text, secrets._ranked(()), every=True)))


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


# Disguised credentials: kind, text before the secret, the secret as written, text after it.
# The guard reads them as the plain credential; the hit, the redaction and the refusal name
# the span as written, and never quote it.
UPPER = FILL.upper()
DISGUISED = [
    ("GitHub token", "push with ", "ghp_" + FILL * 2 + "\u200b" + FILL * 3, " now"),
    ("GitHub token", "push with ", "ghp_" + FILL + "\u200c" + FILL * 2 + "\u200d" + FILL * 2, ""),
    ("AWS access key id", "id ", "AKIA\u2060" + UPPER * 2, " for backups"),
    ("AWS access key id", "id ", "AKIA" + UPPER + "\ufeff" + UPPER, ""),
    ("Google API key", "maps ", "AIza" + FILL * 2 + "\u00ad" + FILL * 2 + "xyz", ""),
    ("password assignment", "pass\u00adword: ", "hunter2is\u00adgreat", ""),
    ("GitHub token", "token: ", "ghp_" + FILL * 2 + "\n" + FILL * 3, " for pushes"),
    ("GitHub token", "export GH=", "ghp_" + FILL * 3 + "\\\n    " + FILL * 2, ""),
    ("AWS access key id", "> id ", "AKIA" + UPPER + "\n> " + UPPER, ""),
    ("GitHub token", "", "\n".join(["ghp_" + FILL, *[FILL] * 4]), " and more"),
    ("GitHub token", "see\n", "ghp\n_" + FILL * 5, ""),
    ("password assignment", "password:\n  ", "hunter2isgreat", ""),
    ("password assignment", "db_password: |\n  ", "hunter2isgreat", "\nport: 5432"),
    ("password assignment", "p\u0430ssword: ", "hunt\u0435r2isgreat", ""),  # Cyrillic a, e
    ("password assignment", "\u0440\u0430\u0455\u0455word: ", "Tr0ub4dor&3x", ""),  # all look-alike
    ("AWS access key id", "id ", "\u0410KI\u0410" + UPPER * 2, ""),  # Cyrillic A
    ("secret assignment", "\u0430pi_k\u0435y = '", "k9\u0441\u0440\u043e\u0445" + FILL + "Zq", "'"),
    ("password assignment", "\u03a1\u0391SSWORD: ", "Tr0ub4dor&3x", ""),  # Greek Rho, Alpha
    ("AWS access key id", "id ", "\uff21\uff2b\uff29\uff21" + UPPER * 2, ""),  # fullwidth
    ("GitHub token", "", "\uff47\uff48\uff50\uff3f" + FILL * 5, ""),
    ("password assignment", "password\uff1a", "\uff48unter2isgreat", ""),
    ("AWS access key id", "id ", "\U0001d400KIA" + UPPER * 2, ""),  # mathematical bold A
    ("password assignment", "password: ", "hunter2x", "\r\nnext line"),
]


def _where(text: str, start: int) -> tuple[int, int]:
    """The 1-based line and column of offset ``start`` in ``text``."""
    return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)


def _plain(secret: str) -> str:
    """``secret`` as the guard reads it (what no message may quote either)."""
    return secrets._fold(secret).replace("\n", "").replace("\\", "").replace(" ", "")


@pytest.mark.parametrize(("kind", "before", "secret", "after"), DISGUISED,
                         ids=[f"{case[0]}-{n}" for n, case in enumerate(DISGUISED)])
def test_disguised_secrets_are_found_where_they_are_written(kind: str, before: str, secret: str,
                                                           after: str) -> None:
    prefix = "# Note\n" + before
    text = prefix + secret + after
    start = len(prefix)
    assert find_secrets(text) == [SecretHit(kind, *_where(text, start), start,
                                            start + len(secret))]
    assert redact(text) == f"{prefix}[REDACTED:{kind}]{after}"
    with pytest.raises(SecretRefused) as info:
        check_text(text, where="People/Lucy.md")
    message = str(info.value)
    assert f"{kind} at line {_where(text, start)[0]}, column {_where(text, start)[1]}" in message
    for shown in (secret, _plain(secret)):
        assert not [shown[i:i + 8] for i in range(len(shown) - 7) if shown[i:i + 8] in message]


LOOK_ALIKE_NEGATIVE = [
    "Привет! Это обычный текст о паролях и токенах: сорок два, сто.",  # noqa: RUF001
    "Κείμενο στα ελληνικά χωρίς μυστικά, με αριθμούς 2024 και ΑΒΓ.",
    "Python-скрипт для OCR: запуск в 2024 году, версия v1.2.3, В2В-продажи.",  # noqa: RUF001
    "我们在会议上讨论了密码策略（每九十天更换一次），令牌：无。",  # noqa: RUF001
    "Straße, ﬁle № 5, ½ cup, ™, “quotes” and ‘single’ ones…",  # noqa: RUF001
    "① ② ③ ｆｕｌｌｗｉｄｔｈ ｆｏｒｍｓ ａｎｄ ｄｉｇｉｔｓ １２３",  # noqa: RUF001
    "emoji 📅 2024-05-01 ✅ done 🔁 every week; family 👨\u200d👩\u200d👧 here",
    "line one\r\nline two\r\npassword:\r\n",
    "Wrapped prose with long words like internationalization\nresponsibilities and a pre-\n"
    "existing hyphenation, then\nOpenCASCADE and\nIMT-2000.",
    "- 2024-05-01 standup\n- 2024-05-02 review\n- 2024-05-03 retro",
    "## Drawing\n```compressed-json\n" + RANDOM + "\n" + RANDOM[::-1] + "\n" + RANDOM + "\n```\n",
    "credentials:\n  username: lucy\n  password:\n    file: /run/secrets/db",
    "Reset the password:\nGo to settings and choose a new one.",
    "token:\n\nThe next paragraph.",
    "Doc: https://docs.google.com/document/d/1AbCdEfGhIjKlMn\nOpQrStUvWxYz0123456789/edit",
]


@pytest.mark.parametrize("text", LOOK_ALIKE_NEGATIVE)
def test_text_that_only_looks_disguised_is_no_secret(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == text


def test_a_user_pattern_also_reads_the_text_as_written() -> None:
    extra = {"pin": r"暗証番号\uff1a(?P<secret>\d{4})"}  # fullwidth colon, which NFKC changes
    text = "カード\u200b暗証番号\uff1a4821"
    hits = find_secrets(text, extra)
    assert [(h.kind, text[h.start:h.end]) for h in hits] == [("pin", "4821")]


def test_every_character_nfkc_makes_ascii_is_read_as_it() -> None:
    table = secrets._compatible()
    missing = [hex(code) for code in range(0x80, 0x110000)
               if not 0xD800 <= code < 0xE000 and chr(code) not in table
               and not unicodedata.is_normalized("NFKC", chr(code))
               and unicodedata.normalize("NFKC", chr(code)).translate(secrets._LATIN).isascii()]
    assert missing == []
    assert table["\uff21"] == "A" and table["\U0001d6c2"] == "a" and table["\u200b"] == ""


@pytest.mark.parametrize("text", [
    "plain ASCII with a password: hunter2x on it",
    "Ｈｅｌｌｏ \u0440\u0430ssword\u200b: о́ки \U0001d400 \r\n✅ \u00ad done",  # noqa: RUF001
])
def test_the_text_checked_is_left_as_written(text: str) -> None:
    before = str(text)
    find_secrets(text)
    redact(text)
    assert text == before and redact(text).endswith(text[-6:])


# What output redacts, the index never holds: searching a credential finds nothing.
GITHUB = "ghp_" + FILL * 5
AWS_ID = "AKIA" + UPPER * 2
HELD = {
    "Ops/Staging.md": (f'---\ntype: note\naliases: ["{AWS_ID}"]\ndb_password: hunter2isgreat\n---\n'
                       "# Staging\n\nThe staging cluster runs the nightly invoices.\n"
                       "password: hunter2isgreat\n"
                       f"Deploy with {GITHUB} and its copy ghp_{FILL * 2}\u200b{FILL * 3}.\n"
                       f"## Keys {AWS_ID}\n\nRotated every quarter.\n"),
    "Ops/Other.md": "# Other\n\nNothing secret about the invoices here.\n",
}
HELD_SECRETS = ["hunter2isgreat", GITHUB, AWS_ID, "ticket TCK-123456ABCD"]


@pytest.fixture
def held(tmp_path: Path) -> Path:
    """A vault whose notes already hold credentials (vaultmem refuses to write them)."""
    write_notes(tmp_path, HELD | {"Ops/Tickets.md": "# Tickets\n\nticket TCK-123456ABCD opened.\n"})
    return tmp_path


def _found(vault: Path, query: str) -> list[str]:
    return [hit.id for hit in search(Vault(vault), query)]


@pytest.mark.parametrize("query", HELD_SECRETS[:3])
def test_a_held_credential_is_found_by_no_search(held: Path, query: str) -> None:
    assert _found(held, query) == []


def test_the_rest_of_a_note_holding_a_credential_is_still_found(held: Path) -> None:
    assert _found(held, "staging cluster") == ["Ops/Staging"]
    assert _found(held, "quarter") == ["Ops/Staging"]
    assert set(_found(held, "nightly invoices")) == {"Ops/Staging", "Ops/Other"}
    hit = search(Vault(held), "staging cluster")[0]
    assert "hunter2isgreat" not in hit.snippet and "[REDACTED:password assignment]" in hit.snippet


def test_credentials_of_the_vaults_own_patterns_leave_the_index_when_set(held: Path) -> None:
    assert _found(held, "TCK-123456ABCD") == ["Ops/Tickets"]
    (held / ".vaultmem").mkdir()
    config = '[secrets]\n"ticket key" = "TCK-\\\\d{6}[A-Z]{4}"\n'
    (held / ".vaultmem/config.toml").write_text(config)
    assert _found(held, "TCK-123456ABCD") == []
    assert _found(held, "ticket opened") == ["Ops/Tickets"]


def test_the_cli_search_finds_no_held_credential(held: Path) -> None:
    def searched(query: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(held), "search",
                               query, "--json"], capture_output=True, text=True, timeout=120,
                              check=True)
        return [result["id"] for result in json.loads(done.stdout)["results"]]

    for secret in HELD_SECRETS[:3]:
        assert searched(secret) == [], secret
    assert searched("staging cluster") == ["Ops/Staging"]


def test_a_write_refuses_a_disguised_secret_and_keeps_other_text_as_written(sample: Path) -> None:
    before = hash_tree(sample)
    disguised = "ghp_" + FILL * 2 + "\u200b" + FILL * 3
    at = ("--date", "2026-11-29", "--time", "10:00")
    code, out, err = run(sample, "daily", f"deploy with {disguised}", *at)
    assert code == 1 and out == "" and "GitHub token at line" in err
    assert FILL * 2 not in err and disguised[:12] not in err and hash_tree(sample) == before
    kept = "Ｌｕｃｙ’s ｎｏｔｅ: \u043e\u0431\u0437\u043e\u0440 v2\u200b, soft\u00adhyphen"  # noqa: RUF001
    assert run(sample, "daily", kept, *at)[0] == 0
    assert kept in (sample / "Daily/2026-11-29.md").read_text(encoding="utf-8")
