"""Capture a user's message: a correction, a request, a preference or a plain note."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import clock
from ..caller import LOCAL, Caller
from ..errors import UsageError
from ..vault import Vault
from ..write.apply import WriteResult, apply, guard
from ..write.journal import append_daily
from ..write.props import set_property
from ..write.sections import append_to_section, section_lines
from .learn import log_learning

MEMORY = "MEMORY.md"
TRIGGERS: dict[str, tuple[str, ...]] = {
    "correction": ("that's wrong", "that is wrong", "i told you", "not what i", "不对", "错了",
                   "你又"),
    "request": ("can you", "could you", "i want", "i'd like", "能不能", "我想要"),
    "preference": ("i like", "i hate", "i prefer", "next time", "我喜欢", "下次请"),
}
STOP = {"the", "a", "an", "is", "are", "was", "it", "to", "of", "and", "or", "in", "on", "for",
        "you", "me", "my", "your", "this", "that", "please", "again", "i", "s", "not", "what"}


@dataclass
class Captured:
    """What ``capture`` did with a user message (kind: correction, request, preference, note)."""

    kind: str
    results: list[WriteResult]
    summary: str


def classify(message: str, triggers: Mapping[str, Sequence[str]] | None = None) -> str | None:
    """The first category (correction, request, preference) whose trigger the message holds.

    >>> classify("That's wrong, the total is 12"), classify("下次请用中文"), classify("Hi")
    ('correction', 'preference', None)
    """
    unknown = set(triggers or {}) - set(TRIGGERS)
    if unknown:
        raise UsageError(f"unknown trigger categories {sorted(unknown)}; use {', '.join(TRIGGERS)}")
    phrases, wanted = {**TRIGGERS, **(triggers or {})}, message.casefold()
    return next((kind for kind in TRIGGERS
                 if any(p.casefold() in wanted for p in phrases[kind] if p)), None)


def message_key(message: str, phrases: Sequence[str]) -> str:
    """A pattern key from the message's first two words that are not trigger or filler words.

    Unrelated messages must not count as one recurring pattern, so a message only groups with
    another that says the same thing; ``--pattern-key`` groups on purpose.

    >>> message_key("That's wrong, the total is 1249.50", ["that's wrong"])
    'user.total-1249'
    """
    text = message.casefold()
    for phrase in phrases:
        text = text.replace(phrase.casefold(), " ")
    words = [w for w in re.findall(r"\w+", text) if w not in STOP]
    return "user." + ("-".join(words[:2]) or "message")


def _prefer(vault: Vault, message: str, when: dt.datetime, dry_run: bool,
            caller: Caller) -> WriteResult:
    """Add the message under ``## Preferences`` in MEMORY.md (once)."""
    item = "- " + " ".join(message.split())

    def change(old: str | None) -> str:
        text = old if old is not None else "---\ntype: core\n---\n# Memory\n"
        if item in section_lines(text, "Preferences"):
            return text
        text = append_to_section(text, "Preferences", [item])
        return set_property(text, "updated", when.date().isoformat())

    return apply(vault, MEMORY, change, action="updated", dry_run=dry_run, caller=caller)


def capture(vault: Vault, message: str, *, pattern_key: str | None = None,
            when: dt.datetime | None = None, dry_run: bool = False,
            triggers: Mapping[str, Sequence[str]] | None = None,
            caller: Caller = LOCAL) -> Captured:
    """Classify a user message by its trigger phrases and record it where it belongs."""
    if not message.strip():
        raise UsageError("nothing to capture: the message is empty")
    guard(vault, message, where="captured message")
    triggers = vault.config.triggers if triggers is None else triggers
    when, kind = when or clock.now(), classify(message, triggers) or "note"
    done = "would record" if dry_run else "recorded"
    if kind in ("correction", "request"):
        key = pattern_key or message_key(message, {**TRIGGERS, **triggers}[kind])
        results, logged = log_learning(vault, kind, message, pattern_key=key, when=when,
                                       dry_run=dry_run, caller=caller)
        promoted = f"; promoted to {logged.link}" if logged.link else ""
        return Captured(kind, results, f"{done} a {kind} in {logged.rel} ({logged.id}, "
                                       f"{key}){promoted}")
    if kind == "preference":
        result = _prefer(vault, message, when, dry_run, caller)
        return Captured(kind, [result], f"{done} a preference under ## Preferences in {MEMORY}")
    result = append_daily(vault, message, title="Note from the user", when=when, dry_run=dry_run,
                          caller=caller)
    return Captured(kind, [result], f"{done} the message in {result.path}")
