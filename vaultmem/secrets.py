"""Credential detection: find, refuse and redact secrets before vaultmem writes any text."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from .errors import ConfigError, VaultmemError

ENTROPY_KIND = "high-entropy token"
MIN_ENTROPY = 4.0  # bits per character
MIN_SWITCH_RATIO = 0.4  # random text changes case/digit class often; words and paths do not
MAX_LISTED = 5  # hits named in a refusal message

_OPERATOR = r"[\"'*`_]*[ \t]*(?:::|:=|=>|[:=\uff1a])[*_]*[ \t]*[\"'`]?"
_VALUE = (
    r"(?P<secret>(?<=[\"'`])[^\s\"'`](?:[^\"'`\n]*[^\s\"'`])?(?=[\"'`])"  # quoted
    r"|(?<==)[^\s\"'`,;&]+"  # key=value with no space, as in shell options and URLs
    r"|(?<![\"'`])[^\s\"'`,;]*[^\s\"'`,;)\]}](?=[ \t]*(?:[,;&)\]}#`]|$)))"  # a lone word ending
)

DEFAULT_PATTERNS: dict[str, str] = {
    "private key block": (
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)"
    ),
    "AWS access key id": r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
    "AWS secret access key": (
        r"(?i:aws[_-]?secret[_-]?(?:access[_-]?)?key)" + _OPERATOR
        + r"(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
    ),
    "GitHub token": (
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})(?![A-Za-z0-9_])"
    ),
    "Anthropic API key": r"\bsk-ant-[A-Za-z0-9_-]{20,}",
    "OpenAI API key": (
        r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])"
        r"[A-Za-z0-9_-]{20,}"
    ),
    "Stripe live key": r"\b[rs]k_live_[A-Za-z0-9]{20,}",
    "Slack token": r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
    "Slack webhook URL": r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[\w/-]+",
    "Discord webhook URL": r"https://(?:\w+\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]+",
    "Telegram bot token": r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])",
    "Google API key": r"\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])",
    "JWT": r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    "connection string password": (
        r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:(?P<secret>[^\s/@]+)@"
    ),
    "bearer token": r"\b(?i:bearer)[ \t]+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)",
    "password assignment": r"(?i:password|passwd|pwd|passphrase|密码)" + _OPERATOR + _VALUE,
    "secret assignment": (
        r"(?i:secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key"
        r"|credentials?)" + _OPERATOR + _VALUE
    ),
    ENTROPY_KIND: r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/=_-]{24,}(?![A-Za-z0-9+/=_-])",
}
# Words every match of a built-in kind holds (case-folded): a text without them is not scanned
# for that kind. tests/test_secrets.py checks that this never misses a match.
_WORDS: dict[str, tuple[str, ...]] = {
    "private key block": ("-----begin",), "AWS access key id": ("akia", "asia"),
    "AWS secret access key": ("aws",), "GitHub token": ("gh", "github_pat_"),
    "Anthropic API key": ("sk-ant-",), "OpenAI API key": ("sk-",),
    "Stripe live key": ("k_live_",), "Slack token": ("xox",),
    "Slack webhook URL": ("hooks.slack.com",), "Discord webhook URL": ("discord",),
    "Telegram bot token": (":aa",), "Google API key": ("aiza",), "JWT": ("eyj",),
    "connection string password": ("://",), "bearer token": ("bearer",),
    "password assignment": ("password", "passwd", "pwd", "passphrase", "密码"),
    "secret assignment": ("secret", "token", "key", "credential"),
}
# Broad kinds rank below user patterns; the rest, in the order above, rank above them.
_GENERIC_KINDS = frozenset({
    "connection string password", "bearer token", "password assignment", "secret assignment",
    ENTROPY_KIND,
})
_VALUE_KINDS = frozenset({"bearer token", "password assignment", "secret assignment"})

_EXEMPT = re.compile(  # where a high-entropy run is an id or data, not a credential
    r"(?:https?|ftp)://\S+"  # ids in URL paths (credentials in URLs have their own kinds)
    r"|data:[\w/+.-]+;base64,\S+"  # inline images
    r"|^```compressed-json\n[\s\S]*?(?:^```|\Z)",  # Excalidraw drawings
    re.MULTILINE,
)
_PLACEHOLDER = re.compile(
    r"(.)\1*"  # masks: ****, xxxxxx
    r"|[<{\[].*|.*[>}\]]|\$[({A-Za-z_].*|%\(.*"  # <your key>, {{x}}, [[link]], ${VAR}, $VAR
    r"|.*\*{3,}.*",  # partly masked: sk-***abcd
    re.DOTALL,
)
_PLACEHOLDER_WORDS = ("your", "example", "placeholder", "redacted", "changeme", "xxx", "dummy",
                      "none", "null", "undefined", "todo", "tbd")
_NOT_CREDENTIAL = re.compile(
    r"[A-Za-z]+(?:[ _-][A-Za-z]+)*"  # words
    r"|[\d .:/+-]*[.:/+-][\d .:/+-]*"  # dates, times, versions, decimals
    r"|[~.]{0,2}[/\\].*|[A-Za-z]:\\.*|\w+://.*"  # paths and URLs
    r"|[A-Za-z_][\w.]*[(\[].*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"  # code: calls, attributes
)

_Raw = tuple[int, int, int, str]  # start, end, rank, kind


class SecretRefused(VaultmemError):
    """A write was refused because its text holds a credential."""

    exit_code = 1

    def __init__(self, message: str, hits: Sequence[SecretHit] = ()) -> None:
        super().__init__(message)
        self.hits = tuple(hits)


@dataclass(frozen=True, slots=True)
class SecretHit:
    """One credential found in a text; positions only, never the secret itself."""

    kind: str
    line: int
    column: int
    start: int
    end: int


def compile_patterns(extra: Mapping[str, str]) -> dict[str, re.Pattern[str]]:
    """User patterns (``[secrets]`` in .vaultmem/config.toml); a ``secret`` group marks the span."""
    return {name: _compile_user(name, source) for name, source in extra.items()}


def _compile_user(name: str, source: object) -> re.Pattern[str]:
    """One user pattern; ConfigError names it without echoing the regex (it may be a secret)."""
    where = f".vaultmem/config.toml [secrets] pattern {name!r}"
    if not isinstance(source, str) or not name.strip():
        raise ConfigError(f'{where}: expected a non-empty name = "regex"')
    try:
        pattern = re.compile(source, re.MULTILINE)
    except re.error as err:
        raise ConfigError(f"{where} is not a valid regex: {err}") from err
    if pattern.fullmatch(""):
        raise ConfigError(f"{where} matches empty text; it would refuse every write")
    return pattern


def find_secrets(text: str, extra: Mapping[str, str] | None = None) -> list[SecretHit]:
    """Every credential in ``text``, sorted by start, overlapping hits merged into one."""
    ranked = _ranked(tuple(sorted((extra or {}).items())))
    raw = sorted(_candidates(text, _possible(text, ranked)))
    return [_hit(text, start, end, kind) for start, end, _, kind in _merge(raw)]


def check_text(text: str, extra: Mapping[str, str] | None = None, *, where: str = "text") -> None:
    """Raise SecretRefused when ``text`` holds a credential; the message never quotes it."""
    hits = find_secrets(text, extra)
    if hits:
        fix = "remove the credential; vaultmem never stores secrets"
        raise SecretRefused(f"{where}: {_describe(hits)}; {fix}", hits)


def redact(text: str, extra: Mapping[str, str] | None = None) -> str:
    """``text`` with each credential replaced by ``[REDACTED:<kind>]``."""
    return _redacted(text, tuple(sorted((extra or {}).items())))


@functools.lru_cache(maxsize=8192)
def _redacted(text: str, extra: tuple[tuple[str, str], ...]) -> str:
    """:func:`redact`, remembered: a long-running process shows the same passages again and
    again, and a context build checks a passage as a candidate, then as chosen."""
    parts: list[str] = []
    cursor = 0
    for hit in find_secrets(text, dict(extra)):
        parts += [text[cursor:hit.start], f"[REDACTED:{hit.kind}]"]
        cursor = hit.end
    return "".join(parts) + text[cursor:]



def redact_data(value: Any, extra: Mapping[str, str] | None = None) -> Any:
    """A JSON-like ``value`` with every string redacted; a string under a key is checked with
    its key, so ``{"password": "hunter2x"}`` is caught as the line ``password: hunter2x`` is
    (in a record ``{"key"|"attribute"|"name": k, "value": v}``, ``v`` is read with ``k``).

    >>> redact_data({"password": "hunter2x", "n": [1, "ok"]})
    {'password': '[REDACTED:password assignment]', 'n': [1, 'ok']}
    """
    if isinstance(value, str):
        return redact(value, extra)
    if isinstance(value, list | tuple):
        return [redact_data(item, extra) for item in value]
    if isinstance(value, dict):
        named = next((value[k] for k in ("key", "attribute", "name")
                      if isinstance(value.get(k), str)), None)
        return {key: _keyed(named if key == "value" and named else str(key), item, extra)
                for key, item in value.items()}
    return value


def _keyed(key: str, value: Any, extra: Mapping[str, str] | None) -> Any:
    """``value`` redacted, a string read as the value of ``key: value``."""
    if isinstance(value, str):
        return redact_value(key, value, extra)
    return redact_data(value, extra)


def redact_value(key: str, value: str, extra: Mapping[str, str] | None = None) -> str:
    """``value`` redacted as the value of the line ``key: value`` (a property or a fact).

    >>> redact_value("password", "hunter2x")
    '[REDACTED:password assignment]'
    """
    line = f"{key}: {value}"
    hidden = redact(line, extra)
    prefix = f"{key}: "
    return hidden[len(prefix):] if hidden.startswith(prefix) else hidden

@functools.lru_cache(maxsize=16)
def _ranked(extra: tuple[tuple[str, str], ...]) -> list[tuple[str, re.Pattern[str]]]:
    """Patterns, most specific first; a user pattern (``extra``: name, regex pairs) named like
    a default replaces it. Kept: every string of a command's output is checked with them."""
    user = compile_patterns(dict(extra))
    merged = {kind: user.pop(kind, pattern) for kind, pattern in _defaults().items()}
    specific = [(kind, p) for kind, p in merged.items() if kind not in _GENERIC_KINDS]
    generic = [(kind, p) for kind, p in merged.items() if kind in _GENERIC_KINDS]
    return specific + list(user.items()) + generic


def _possible(text: str, ranked: list[tuple[str, re.Pattern[str]]]
              ) -> list[tuple[str, re.Pattern[str]]]:
    """The patterns that can match ``text``: a built-in kind whose every match holds one of
    its words (``_WORDS``) is left out when the text holds none (most text holds none)."""
    folded = text.casefold().replace("\u0131", "i")  # as re's ignore-case: dotless i is i
    built_in = _defaults()
    return [(kind, pattern) for kind, pattern in ranked
            if built_in.get(kind) is not pattern or kind not in _WORDS
            or any(word in folded for word in _WORDS[kind])]


@functools.cache
def _defaults() -> dict[str, re.Pattern[str]]:
    """The built-in kinds, compiled by the first check rather than on import."""
    return {kind: re.compile(source, re.MULTILINE) for kind, source in DEFAULT_PATTERNS.items()}


def _candidates(text: str, ranked: list[tuple[str, re.Pattern[str]]]) -> Iterator[_Raw]:
    """Every accepted match of every pattern, unmerged."""
    exempt = [match.span() for match in _EXEMPT.finditer(text)]
    for rank, (kind, pattern) in enumerate(ranked):
        for match in pattern.finditer(text):
            start, end = _span(match)
            if end > start and _accept(kind, text[start:end], start, exempt):
                yield start, end, rank, kind


def _span(match: re.Match[str]) -> tuple[int, int]:
    """The ``secret`` group's span when the pattern has one and it took part, else the match's."""
    if "secret" in match.re.groupindex and match.start("secret") >= 0:
        return match.span("secret")
    return match.span()


def _accept(kind: str, value: str, start: int, exempt: list[tuple[int, int]]) -> bool:
    """Whether a match of ``kind`` is a credential and not a look-alike."""
    if kind == ENTROPY_KIND:
        return _looks_random(value) and not any(a <= start < b for a, b in exempt)
    if kind in _VALUE_KINDS:
        return _looks_like_credential(value)
    return kind != "connection string password" or not _is_placeholder(value)


def _is_placeholder(value: str) -> bool:
    """Masks, template fields, variables, wikilinks and words like "your" or "example"."""
    lowered = value.lower()
    return bool(_PLACEHOLDER.fullmatch(value)) or any(w in lowered for w in _PLACEHOLDER_WORDS)


def _looks_like_credential(value: str) -> bool:
    """An assigned value that is not a placeholder, a plain word, a date, a path or code."""
    if len(value) < 6 or not value.isascii() or _is_placeholder(value):
        return False
    return _NOT_CREDENTIAL.fullmatch(value) is None


def _looks_random(token: str) -> bool:
    """Mixed upper, lower and digits, high entropy, and classes that switch often."""
    classes = [_char_class(ch) for ch in token if ch.isalnum()]
    if set(classes) != {"u", "l", "d"} or _entropy(token) < MIN_ENTROPY:
        return False
    switches = sum(a != b for a, b in pairwise(classes))
    return switches >= MIN_SWITCH_RATIO * (len(classes) - 1)


def _char_class(ch: str) -> str:
    """``u``, ``l`` or ``d`` for an upper-case letter, a lower-case letter or a digit."""
    return "u" if ch.isupper() else "l" if ch.islower() else "d"


def _entropy(token: str) -> float:
    """Shannon entropy of ``token`` in bits per character."""
    size = len(token)
    return -sum(n / size * math.log2(n / size) for n in Counter(token).values())


def _merge(raw: list[_Raw]) -> list[_Raw]:
    """Overlapping spans joined; the joined span keeps the best-ranked (most specific) kind."""
    merged: list[_Raw] = []
    for item in raw:
        if merged and item[0] < merged[-1][1]:
            last = merged[-1]
            best = min(last, item, key=lambda r: r[2])
            merged[-1] = (last[0], max(last[1], item[1]), best[2], best[3])
        else:
            merged.append(item)
    return merged


def _hit(text: str, start: int, end: int, kind: str) -> SecretHit:
    """A SecretHit with its 1-based line and column."""
    line = text.count("\n", 0, start) + 1
    column = start - text.rfind("\n", 0, start)
    return SecretHit(kind, line, column, start, end)


def _describe(hits: list[SecretHit]) -> str:
    """Kinds and positions of the hits (at most MAX_LISTED), never their text."""
    shown = [f"{hit.kind} at line {hit.line}, column {hit.column}" for hit in hits[:MAX_LISTED]]
    more = f" and {len(hits) - MAX_LISTED} more" if len(hits) > MAX_LISTED else ""
    return f"refused to store a credential ({'; '.join(shown)}{more})"
