"""Credential detection: find, refuse and redact secrets before vaultmem writes any text."""

from __future__ import annotations

import bisect
import functools
import hashlib
import math
import re
import unicodedata
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

_OPERATOR = (  # the value may start on the next line: "password:\n  x", "password: |\n  x"
    r"[\"'*`_]*[ \t]*(?:::|:=|=>|[:=\uff1a])[*_]*[ \t]*(?:(?:[|>][-+]?[ \t]*)?\n[ \t]*)?[\"'`]?"
)
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
    "AWS secret access key": ("awssecret", "aws_secret", "aws-secret"),
    "GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "Anthropic API key": ("sk-ant-",), "OpenAI API key": ("sk-",),
    "Stripe live key": ("k_live_",), "Slack token": ("xox",),
    "Slack webhook URL": ("hooks.slack.com",), "Discord webhook URL": ("discord",),
    "Telegram bot token": (":aa",), "Google API key": ("aiza",), "JWT": ("eyj",),
    "connection string password": ("://",), "bearer token": ("bearer",),
    "password assignment": ("password", "passwd", "pwd", "passphrase", "密码"),
    "secret assignment": ("secret", "token", "credential",
                          *(f"{what}{join}key" for what in ("api", "access", "private", "auth")
                            for join in ("", "_", "-"))),
}
_OTHER_WORDS = {kind: other for kind, words in _WORDS.items()
                if (other := tuple(word for word in words if not word.isascii()))}
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
_EXTENSIONS = ("png|jpe?g|gif|webp|svg|bmp|tiff?|avif|heic|pdf|mp3|mp4|m4a|wav|ogg|webm|mov"
               "|excalidraw|canvas")  # attachments, whose generated names look random
_ATTACHMENT_END = re.compile(rf"\.(?:{_EXTENSIONS})\b", re.IGNORECASE)
_NAME_STOPS = frozenset(" \t\n\r[]()|!<>\"'")  # what ends an attachment's name on its left
NAME_CHARS = 255  # the longest file name a file system takes
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
    r"|[A-Za-z_][A-Za-z_.-]*:"  # the next key of a mapping ("credentials:\n  username:")
)

# How the guard reads a text (:func:`_fold`): invisible characters as nothing, Cyrillic and
# Greek letters that look Latin as Latin, and what NFKC makes ASCII (fullwidth and mathematical
# letters, ligatures, superscripts, no-break spaces) as that ASCII; CR LF and CR as LF.
_INVISIBLE = ((0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064),
              (0x2066, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
              (0xFFA0, 0xFFA0), (0xE0000, 0xE007F), (0xE0100, 0xE01EF))
_LOOK_ALIKES = dict(zip(  # Cyrillic and Greek letters read as the Latin ones they look like
    "\u0410\u0412\u0415\u0405\u0406\u0408\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423"
    "\u0425\u04ae\u051a\u051c\u04c0"  # Cyrillic capitals
    "\u0430\u0435\u04bb\u0456\u0458\u043e\u0440\u0441\u0455\u0443\u0445\u04af\u0501\u051b"
    "\u051d\u04cf"  # Cyrillic small letters
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u03f9"  # Greek capitals
    "\u03b1\u03b3\u03b9\u03bd\u03bf\u03c1\u03c5\u03f2\u03f3",  # Greek small letters
    "ABESIJKMHOPCTYXYQWI" "aehijopcsyxydqwl" "ABEZHIKMNOPTYXC" "ayivopucj", strict=True))
_LATIN = str.maketrans(_LOOK_ALIKES)
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")
_WORD = re.compile(r"\w*")
_WORD_END = re.compile(r"\w*\Z")
# The only blocks (of 256 code points) holding characters NFKC makes ASCII, some through a
# look-alike letter (tests/test_secrets.py checks that no other block does).
_COMPATIBLE_BLOCKS = (0x00, 0x01, 0x02, 0x03, 0x1D, 0x1F, 0x20, 0x21, 0x24, 0x2A, 0x2C, 0x30, 0x32,
                      0x33, 0xA7, 0xFB, 0xFE, 0xFF, 0x107, 0x1D4, 0x1D5, 0x1D6, 0x1D7, 0x1F1,
                      0x1FB)
# A line break inside a token (a key wrapped or split over lines): at most two spaces or a
# backslash before it, indentation or quote marks after it.
_IN_TOKEN = "[A-Za-z0-9+/=_.:-]"
_STARTS_TOKEN = "[A-Za-z0-9+/=_-]"
_BREAK = r"(?:[ \t]{0,2}|\\)\n[ \t>]*"
_JOIN = re.compile(rf"(?<={_IN_TOKEN}){_BREAK}(?={_STARTS_TOKEN})")
LONG_PART = 10  # characters of a token on one side of a break that make it worth joining
MANY_REPLACED = 32  # different characters _fold replaces one by one before it takes one pass
_WORD_LIKE = re.compile(r"[A-Za-z]?[a-z]*(?:-[A-Za-z]?[a-z]*)*[.,:;!?]*")  # no part of a key


def _after_token(least: int, word: str = "") -> str:
    """A regex for the line break just read when ``least`` token characters end the line
    (and ``word``, a regex of as many, does not)."""
    gaps = ("", r"[ \t\\]", r"[ \t]{2}")
    return "|".join(rf"(?<={_IN_TOKEN}{{{least}}}{gap}\n)" + (rf"(?<!{word}{gap}\n)" * bool(word))
                    for gap in gaps)


# The line breaks that may be inside a key: a part of the token they break is long
# (LONG_PART) or a whole line, before the break (then read by _TAIL) or after it (``after``,
# ``whole``). Parts that are plain words are mostly left out here already (wrapped prose
# breaks beside them).
_SPLIT = re.compile(
    rf"\n(?:(?:{_after_token(1)})[ \t>]*"
    rf"(?=(?![A-Za-z][a-z]{{{LONG_PART - 1}}}|[A-Za-z][a-z]*[.,:;]?[ \t]*$)"
    rf"(?:(?P<whole>{_STARTS_TOKEN}{_IN_TOKEN}*)(?=[ \t]*\\?$)"
    rf"|(?P<after>{_STARTS_TOKEN}{_IN_TOKEN}{{{LONG_PART - 1}}})))"
    rf"|(?:{_after_token(LONG_PART, f'[a-z]{{{LONG_PART - 1}}}[a-z.,:;]')})[ \t>]*"
    rf"(?={_STARTS_TOKEN}))",
    re.MULTILINE)
_TAIL = re.compile(rf"{_IN_TOKEN}+(?=[ \t\\]{{0,2}}\Z)")
_PART = re.compile(rf"{_IN_TOKEN}+")

_Raw = tuple[int, int, int, str]  # start, end, rank, kind
_Ranked = list[tuple[int, str, re.Pattern[str]]]  # rank (lower: more specific), kind, regex


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


def patterns_stamp(extra: Mapping[str, str]) -> str:
    """A hash of the vault's own patterns (what its index was redacted with: a change in
    them makes a new index), never the patterns themselves.

    >>> patterns_stamp({}), len(patterns_stamp({"pin": r"pin \\d{4}"}))
    ('', 16)
    """
    if not extra:
        return ""
    return hashlib.sha256(repr(sorted(extra.items())).encode()).hexdigest()[:16]


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
    """Every credential in ``text``, sorted by start, overlapping hits merged into one; found
    also when disguised (invisible characters, look-alike letters, wrapped over lines), and
    always placed where it is written in ``text``."""
    ranked = _ranked(tuple(sorted((extra or {}).items())))
    raw = sorted(_raw(text, ranked))
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


def placeholder(kind: str) -> str:
    """What :func:`redact` writes instead of a credential of ``kind``."""
    return f"[REDACTED:{kind}]"


def redact_each(texts: Sequence[str], extra: Mapping[str, str] | None = None) -> list[str]:
    """Each of ``texts`` redacted as by :func:`redact`, read in one scan of them all with a
    blank line between two (much quicker than a scan each for many short texts): a hit that
    runs over several, as a private key block without its end does, is cut at their ends."""
    hits = find_secrets("\n\n".join(texts), extra)
    if not hits:
        return list(texts)
    shown: list[str] = []
    start = 0
    for text in texts:
        spans = [(max(hit.start, start) - start, min(hit.end, start + len(text)) - start, hit.kind)
                 for hit in hits if hit.start < start + len(text) and hit.end > start]
        shown.append(_replaced(text, spans))
        start += len(text) + 2
    return shown


@functools.lru_cache(maxsize=8192)
def _redacted(text: str, extra: tuple[tuple[str, str], ...]) -> str:
    """:func:`redact`, remembered: a long-running process shows the same passages again and
    again, and a context build checks a passage as a candidate, then as chosen."""
    hits = find_secrets(text, dict(extra))
    return _replaced(text, [(hit.start, hit.end, hit.kind) for hit in hits])


def _replaced(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, kind)`` span (sorted, apart) replaced by its
    :func:`placeholder`."""
    parts: list[str] = []
    cursor = 0
    for start, end, kind in spans:
        parts += [text[cursor:start], placeholder(kind)]
        cursor = end
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
def _ranked(extra: tuple[tuple[str, str], ...]) -> _Ranked:
    """Patterns, most specific first; a user pattern (``extra``: name, regex pairs) named like
    a default replaces it. Kept: every string of a command's output is checked with them."""
    user = compile_patterns(dict(extra))
    merged = {kind: user.pop(kind, pattern) for kind, pattern in _defaults().items()}
    specific = [(kind, p) for kind, p in merged.items() if kind not in _GENERIC_KINDS]
    generic = [(kind, p) for kind, p in merged.items() if kind in _GENERIC_KINDS]
    return [(rank, kind, p) for rank, (kind, p) in enumerate([*specific, *user.items(), *generic])]


def _possible(text: str, ranked: _Ranked) -> _Ranked:
    """The patterns that can match ``text``: a built-in kind whose every match holds one of
    its words (``_WORDS``) is left out when the text holds none (most text holds none)."""
    folded = text.casefold().replace("\u0131", "i")  # as re's ignore-case: dotless i is i
    # An ASCII word is looked for among the ASCII characters alone: quicker, never fewer found.
    plain = folded if folded.isascii() else folded.encode("ascii", "ignore").decode("ascii")
    built_in = _defaults()
    return [(rank, kind, pattern) for rank, kind, pattern in ranked
            if built_in.get(kind) is not pattern or kind not in _WORDS
            or any(map(plain.__contains__, _WORDS[kind]))
            or any(map(folded.__contains__, _OTHER_WORDS.get(kind, ())))]


@functools.cache
def _defaults() -> dict[str, re.Pattern[str]]:
    """The built-in kinds, compiled by the first check rather than on import."""
    return {kind: re.compile(source, re.MULTILINE) for kind, source in DEFAULT_PATTERNS.items()}


def _raw(text: str, ranked: _Ranked, *, every: bool = False) -> list[_Raw]:
    """Every accepted match in ``text`` as the guard reads it (:func:`_fold`), including those
    across a line break inside a token, placed in ``text`` (``every``: each pattern scans, none
    is left out by its words). User patterns also read ``text`` as written: theirs may hold
    the letters folding changes."""
    seen = _fold(text)
    found = _scanned(seen, ranked, every)
    if seen == text:
        return found
    if found:
        edits = _Edits(_fold_edits(text))
        found = [(*edits.span(start, end), rank, kind) for start, end, rank, kind in found]
    user = [(rank, kind, p) for rank, kind, p in ranked if _defaults().get(kind) is not p]
    if user:
        found += _candidates(text, user, _exempt(text))
    return found


def _scanned(text: str, ranked: _Ranked, every: bool) -> list[_Raw]:
    """Every accepted match in ``text``, and those across line breaks inside its tokens: of
    every kind where both parts look like parts of a key, of the kinds of a known form (not
    generic) across every such break of the lines around them. A URL wrapped over lines is
    exempt (see ``_EXEMPT``) on all of them."""
    exempt = _exempt(text)
    views: list[tuple[_Joined, _Ranked]] = []
    windows = _windows(text)
    specific = [(rank, kind, p) for rank, kind, p in ranked if kind not in _GENERIC_KINDS
                ] if windows else []
    for start, end in windows:
        breaks = list(_JOIN.finditer(text, start, end))
        key_parts = [match for match in breaks if _joins_key_parts(text, match)]
        if key_parts:
            views.append((_Joined(text, start, end, key_parts), ranked))
            exempt += views[-1][0].exempt_across()
        if len(key_parts) < len(breaks):
            views.append((_Joined(text, start, end, breaks), specific))
    found = list(_candidates(text, ranked if every else _possible(text, ranked), exempt))
    for view, kinds in views:
        found += view.matches(kinds, every, exempt)
    return found


class _Joined:
    """The lines ``[start, end)`` of a text with the line breaks ``joins`` taken out."""

    def __init__(self, text: str, start: int, end: int, joins: list[re.Match[str]]) -> None:
        self.start = start
        self.edits = _Edits([(m.start() - start, m.end() - start, "") for m in joins])
        cuts = [start, *(m.end() for m in joins)], [*(m.start() for m in joins), end]
        self.text = "".join(text[a:b] for a, b in zip(*cuts, strict=True))
        self.exempt = _exempt(self.text)

    def exempt_across(self) -> list[tuple[int, int]]:
        """Its exempt spans that run over a line break, placed in the text."""
        return [self._placed(a, b) for a, b in self.exempt if self._across(a, b)]

    def matches(self, ranked: _Ranked, every: bool, exempt: list[tuple[int, int]]) -> list[_Raw]:
        """The accepted matches that run over a line break, placed in the text (high-entropy
        runs that start in ``exempt`` left out)."""
        found = []
        possible = ranked if every else _possible(self.text, ranked)
        for first, last, rank, kind in _candidates(self.text, possible, self.exempt):
            if self._across(first, last):
                first, last = self._placed(first, last)
                if kind != ENTROPY_KIND or not _exempted(first, exempt):
                    found.append((first, last, rank, kind))
        return found

    def _across(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` runs over one of the line breaks taken out."""
        return any(start < at < end for at in self.edits.at)

    def _placed(self, start: int, end: int) -> tuple[int, int]:
        """Where ``[start, end)`` of the joined lines is in the text."""
        first, last = self.edits.span(start, end)
        return self.start + first, self.start + last


def _joins_key_parts(text: str, join: re.Match[str]) -> bool:
    """Whether the parts of the token that the line break ``join`` splits both look like
    parts of a key (a word before a key, glued to it, would hide its start)."""
    before = _TAIL.search(text, max(0, join.start() - 64), join.start())
    after = _PART.match(text, join.end())
    return _key_like(before.group() if before else "") and _key_like(after.group() if after else "")


def _windows(text: str) -> list[tuple[int, int]]:
    """The lines around each line break that may be inside a key (:func:`_key_break`): the
    two it ends and starts, and the next one when the second is the token alone (the token
    may go on there); lines next to each other in one window."""
    windows: list[tuple[int, int]] = []
    for match in _SPLIT.finditer(text):
        if not _key_break(text, match):
            continue
        start = text.rfind("\n", 0, match.start()) + 1
        end = _line_end(text, match.start() + 1)
        if match.group("whole"):
            end = _line_end(text, end + 1)
        if windows and start <= windows[-1][1] + 1:
            windows[-1] = (windows[-1][0], max(end, windows[-1][1]))
        else:
            windows.append((start, end))
    return windows


def _line_end(text: str, start: int) -> int:
    """Where the line holding ``start`` ends (its line break, or the end of ``text``)."""
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _key_break(text: str, match: re.Match[str]) -> bool:
    """Whether a long or whole-line part of the token that the line break ``match``
    (:data:`_SPLIT`) breaks is not a word, as no part of a key is."""
    before = _TAIL.search(text, max(0, match.start() - LONG_PART - 2), match.start())
    tail = before.group()[-LONG_PART:] if before else ""
    after = match.group("after") or match.group("whole") or ""
    return _key_like(tail if len(tail) >= LONG_PART else "") or _key_like(after)


def _key_like(part: str) -> bool:
    """Whether ``part`` of a token is something but a word."""
    return bool(part) and not _WORD_LIKE.fullmatch(part)


def _exempt(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` where a high-entropy run is no credential (``_EXEMPT``, and
    attachments' file names; none without the marks each kind of span holds, which most text
    lacks)."""
    spans = []
    if "://" in text or "data:" in text or "```" in text:
        spans += [match.span() for match in _EXEMPT.finditer(text)]
    spans += [(_name_start(text, end.start()), end.end())
              for end in _ATTACHMENT_END.finditer(text)]
    return spans


def _name_start(text: str, dot: int) -> int:
    """Where the file name ending at the extension's ``dot`` starts (at most
    ``NAME_CHARS`` back: a regex would try every start of a long run without spaces)."""
    start = dot
    while start > max(0, dot - NAME_CHARS) and text[start - 1] not in _NAME_STOPS:
        start -= 1
    return start


def _exempted(start: int, exempt: list[tuple[int, int]]) -> bool:
    """Whether ``start`` is inside one of the ``exempt`` spans."""
    return any(a <= start < b for a, b in exempt)


def _candidates(text: str, ranked: _Ranked, exempt: list[tuple[int, int]]) -> Iterator[_Raw]:
    """Every accepted match of every pattern, unmerged (high-entropy runs that start in
    ``exempt`` spans left out)."""
    for rank, kind, pattern in ranked:
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
        return _looks_random(value) and not _exempted(start, exempt)
    if kind in _VALUE_KINDS:  # a number in a link's query (token=270560288) is an article's id
        numeric = value.rstrip(")].,;").isdigit() and _exempted(start, exempt)
        return not numeric and _looks_like_credential(value)
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


def _fold(text: str) -> str:
    """``text`` as the guard reads it: CR LF and CR as LF, invisible characters left out,
    compatibility forms as the ASCII that NFKC makes of them, then the Cyrillic and Greek
    letters of a word that mixes them with Latin letters or digits as the Latin letters they
    look like. Each character is replaced everywhere at once (a CJK text holds many of a few)."""
    if text.isascii() and "\r" not in text:
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    pattern, table = _folded_chars(False, _BEYOND_BMP.search(text) is not None), _compatible()
    at = replaced = 0
    while found := pattern.search(text, at):
        if replaced == MANY_REPLACED:  # one pass, each where it is, ends the worst case
            text = pattern.sub(lambda match: table[match[0]], text)
            break
        if table[found[0]] == found[0]:  # beyond the BMP, read as itself
            at = found.end()
            continue
        text, at = text.replace(found[0], table[found[0]]), found.start()
        replaced += 1
    return _latin_words(text)


def _fold_edits(text: str) -> list[tuple[int, int, str]]:
    """The spans :func:`_fold` replaces in ``text`` by text of another length, with what it
    reads instead (look-alike letters are read one for one, in place)."""
    table = _compatible()
    return [(*match.span(), table[match[0]]) for match in _folding(text).finditer(text)
            if table[match[0]] != match[0]]


def _folding(text: str) -> re.Pattern[str]:
    """The characters :func:`_fold` may read otherwise besides look-alike letters: a regex of
    one class of BMP characters where it can (several times quicker), else one that also
    finds CR LF, or any character beyond the BMP."""
    return _folded_chars("\r" in text, _BEYOND_BMP.search(text) is not None)


@functools.cache
def _folded_chars(returns: bool, beyond_bmp: bool) -> re.Pattern[str]:
    """A regex of the characters :data:`_compatible` reads otherwise (or may: any beyond the
    BMP with ``beyond_bmp``), and of CR LF and CR with ``returns``."""
    plane = "".join(sorted(char for char in _compatible()
                           if len(char) == 1 and ord(char) < 0x10000 and char != "\r"))
    extra = "|\r\n?" * returns + f"|{_BEYOND_BMP.pattern}" * beyond_bmp
    return re.compile(f"[{re.escape(plane)}]{extra}")


class _ReadAs(dict[str, str]):
    """What :func:`_fold` reads characters as; one not listed as itself."""

    def __missing__(self, char: str) -> str:
        """``char`` itself."""
        return char


@functools.cache
def _compatible() -> _ReadAs:
    """What :func:`_fold` reads otherwise besides look-alike letters: the invisible characters
    as "", those NFKC makes ASCII (some through a look-alike letter) as that ASCII, CR LF and
    CR as LF; any other character beyond the BMP as itself. Made by the first text that needs
    it."""
    table = {"\r\n": "\n", "\r": "\n"}
    table |= {chr(code): "" for first, last in _INVISIBLE for code in range(first, last + 1)}
    codes = (code for block in _COMPATIBLE_BLOCKS for code in range(block << 8, block + 1 << 8))
    for code in codes:
        char = chr(code)
        if code >= 0x80 and not unicodedata.is_normalized("NFKC", char):
            read = unicodedata.normalize("NFKC", char).translate(_LATIN)
            if read.isascii():
                table[char] = read
    return _ReadAs(table)


def _latin_words(text: str) -> str:
    """``text`` with each word that mixes look-alike letters with Latin letters or digits
    written in Latin letters (same length)."""
    pieces: list[str] = []
    cursor = 0
    sample = text[:1000]  # Cyrillic or Greek (one character in 20 an o of theirs): Latin is rarer
    cyrillic_or_greek = (sample.count("\u043e") + sample.count("\u03bf")) * 20 > len(sample)
    for match in _beside_latin(cyrillic_or_greek).finditer(text):
        if match.start() < cursor:
            continue
        start = _WORD_END.search(text, max(cursor, match.start() - 64), match.start())
        end = _WORD.match(text, match.start())
        assert start is not None and end is not None  # both match empty text
        pieces += [text[cursor:start.start()], text[start.start():end.end()].translate(_LATIN)]
        cursor = end.end()
    return "".join(pieces) + text[cursor:] if pieces else text


@functools.cache
def _beside_latin(latin_first: bool) -> re.Pattern[str]:
    """A look-alike letter beside a Latin letter or digit, found from the side that is rarer
    in the text: Latin letters (``latin_first``) or look-alikes."""
    look = f"[{''.join(_LOOK_ALIKES)}]"
    if latin_first:
        return re.compile(f"[A-Za-z0-9](?:(?<={look}[A-Za-z0-9])|(?={look}))")
    return re.compile(f"{look}(?:(?<=[A-Za-z0-9]{look})|(?=[A-Za-z0-9]))")


class _Edits:
    """Where the characters of an edited text come from: ``edits`` are the ``(start, end,
    replacement)`` spans of the source replaced, in order."""

    def __init__(self, edits: list[tuple[int, int, str]]) -> None:
        self.edits = edits
        self.at: list[int] = []  # where each replacement starts in the edited text
        shift = 0
        for start, end, new in edits:
            self.at.append(start + shift)
            shift += len(new) - (end - start)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the source that the edited text's ``[start, end)`` comes from."""
        return self._source(start)[0], self._source(end - 1)[1]

    def _source(self, offset: int) -> tuple[int, int]:
        """The span of the source that the edited text's character at ``offset`` comes from."""
        index = bisect.bisect_right(self.at, offset) - 1
        if index < 0:
            return offset, offset + 1
        start, end, new = self.edits[index]
        if offset < self.at[index] + len(new):
            return start, end
        source = end + offset - self.at[index] - len(new)
        return source, source + 1


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
