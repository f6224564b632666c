"""The learning loop on a copy of the sample vault: entries, counts, promotion, capture."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from vaultmem.curate.capture import capture, classify, message_key
from vaultmem.curate.learn import Entry, entries_of, learn
from vaultmem.errors import UsageError, VaultmemError
from vaultmem.secrets import SecretRefused
from vaultmem.vault import Vault
from vaultmem.write.apply import WriteResult
from vaultmem.write.sections import section_lines

from .conftest import hash_tree
from .test_cli import run

WHEN = dt.datetime(2026, 11, 29, 10, 0)
FAKE_GITHUB = "ghp_" + "A1b2C3d4" * 5
LEARNINGS = "Learnings/LEARNINGS.md"
CURRENCY = "Lessons/Rafael - Check currency symbol.md"
ROTATED = "Lessons/Rafael - Ocr Rotated Receipt.md"


def read(vault: Path, rel: str) -> str:
    return (vault / rel).read_text(encoding="utf-8")


def of_key(vault: Path, rel: str, key: str) -> list[Entry]:
    return [e for e in entries_of(read(vault, rel)) if e.value("Pattern-Key") == key]


def parses(vault: Path, *rels: str) -> None:
    """Every note reads back from a fresh vault without problems."""
    fresh = Vault(vault, use_cache=False)
    for rel in rels:
        assert not fresh.note(rel).problems, rel


def rotate(vault: Path, times: int, *, dry_run: bool = False) -> list[list[WriteResult]]:
    """Log the same new correction ``times`` times for Rafael."""
    return [learn(Vault(vault), "correction", "Rotate receipts upright before OCR.",
                  pattern_key="ocr.rotated-receipt", agent="Rafael", when=WHEN, dry_run=dry_run)
            for _ in range(times)]


def test_new_entry_is_appended_exactly(sample: Path) -> None:
    before = read(sample, LEARNINGS)
    results = learn(Vault(sample), "correction", "Rotate receipts upright before OCR.",
                    pattern_key="ocr.rotated-receipt", context="Sideways photo from Priya.",
                    action="Add an orientation check.", when=WHEN)
    assert [(r.action, r.path) for r in results] == [("appended", LEARNINGS)]
    assert results[0].messages == ["LRN-20261129-001: ocr.rotated-receipt, count 1"]
    assert read(sample, LEARNINGS) == before + (
        "\n## [LRN-20261129-001] Rotate receipts upright before OCR.\n"
        "**Pattern-Key**: ocr.rotated-receipt\n**Count**: 1\n**Status**: pending\n"
        "**Logged**: 2026-11-29\n\n### Context\nSideways photo from Priya.\n\n"
        "### Learning\nRotate receipts upright before OCR.\n\n"
        "### Action\nAdd an orientation check.\n")
    parses(sample, LEARNINGS)


def test_error_entry_keeps_a_long_text_in_its_context(sample: Path) -> None:
    before = read(sample, "Learnings/ERRORS.md")
    text = ("Upload of a 12 MB TIFF scan failed with a memory error in the image decoder "
            "before OCR started")
    learn(Vault(sample), "error", text, pattern_key="ocr.tiff-memory", action="Downscale first.",
          when=WHEN)
    assert read(sample, "Learnings/ERRORS.md") == before + (
        "\n## [ERR-20261129-001] Upload of a 12 MB TIFF scan failed with a memory error in…\n"
        "**Pattern-Key**: ocr.tiff-memory\n**Count**: 1\n**Status**: pending\n"
        f"**Logged**: 2026-11-29\n\n### Context\n{text}\n\n### Action\nDownscale first.\n")
    parses(sample, "Learnings/ERRORS.md")


def test_ids_increment_per_day_and_per_file(sample: Path) -> None:
    def log(kind: str, key: str, when: dt.datetime) -> str:
        message = learn(Vault(sample), kind, f"Seen {key}", pattern_key=key, when=when)
        return message[0].messages[0].split(":")[0]

    next_day = WHEN + dt.timedelta(days=1)
    ids = [log("correction", "a.one", WHEN), log("correction", "a.two", WHEN),
           log("error", "a.one", WHEN), log("request", "a.one", WHEN),
           log("correction", "a.one", next_day), log("correction", "a.three", WHEN)]
    assert ids == ["LRN-20261129-001", "LRN-20261129-002", "ERR-20261129-001",
                   "FEAT-20261129-001", "LRN-20261130-001", "LRN-20261129-003"]
    parses(sample, LEARNINGS, "Learnings/ERRORS.md", "Learnings/FEATURE_REQUESTS.md")


def test_count_is_updated_on_every_entry_of_the_key(sample: Path) -> None:
    rotate(sample, 2)
    learn(Vault(sample), "correction", "Other", pattern_key="ocr.other", when=WHEN)
    entries = of_key(sample, LEARNINGS, "ocr.rotated-receipt")
    assert [(e.id, e.value("Count"), e.value("Status")) for e in entries] == [
        ("LRN-20261129-001", "2", "pending"), ("LRN-20261129-002", "2", "pending")]
    assert of_key(sample, LEARNINGS, "ocr.other")[0].value("Count") == "1"
    assert of_key(sample, LEARNINGS, "ocr.currency-symbol")[0].value("Count") == "2"


def test_third_strike_promotes_to_the_agents_existing_lesson(sample: Path) -> None:
    lessons = sorted(p.name for p in (sample / "Lessons").iterdir())
    results = learn(Vault(sample), "correction", "Check the currency sign against the vendor.",
                    pattern_key="ocr.currency-symbol", agent="Rafael", when=WHEN)
    assert [(r.action, r.path) for r in results] == [("appended", LEARNINGS),
                                                     ("updated", CURRENCY)]
    assert results[0].messages[-1] == \
        "ocr.currency-symbol promoted to [[Rafael - Check currency symbol]]"
    assert sorted(p.name for p in (sample / "Lessons").iterdir()) == lessons  # no duplicate
    entries = of_key(sample, LEARNINGS, "ocr.currency-symbol")
    assert [(e.id, e.value("Count"), e.value("Status"), e.value("Promoted-To"))
            for e in entries] == [
        (i, "3", "promoted", "[[Rafael - Check currency symbol]]")
        for i in ("LRN-20261121-001", "LRN-20261129-001")]
    lesson = Vault(sample).note(CURRENCY)
    assert lesson.frontmatter["status"] == "confirmed" and lesson.frontmatter["count"] == 3
    text = read(sample, CURRENCY)
    assert section_lines(text, "Rule") == ["- Check the currency sign against the vendor."]
    assert section_lines(text, "Sources") == ["- LRN-20261121-001 ([[LEARNINGS]])",
                                              "- LRN-20261129-001 ([[LEARNINGS]])"]
    assert "applies_to: \"[[DataFlow]]\"\n" in text  # the rest of the note is as it was
    parses(sample, LEARNINGS, CURRENCY)


def test_third_strike_creates_the_agents_lesson_then_its_sources_grow(sample: Path) -> None:
    first = rotate(sample, 3)
    assert [len(r) for r in first] == [1, 1, 2]
    assert first[2][1].action == "created" and first[2][1].path == ROTATED
    lesson = Vault(sample).note(ROTATED)
    assert lesson.type == "lesson"
    assert {k: lesson.frontmatter[k] for k in ("pattern_key", "count", "status", "first_seen")} \
        == {"pattern_key": "ocr.rotated-receipt", "count": 3, "status": "confirmed",
            "first_seen": "2026-11-29"}
    assert [link.resolved for link in lesson.links if link.key == "agent"] == ["Agents/Rafael"]
    assert section_lines(read(sample, ROTATED), "Rule") == ["- Rotate receipts upright before OCR."]
    rotate(sample, 1)  # a fourth entry is promoted at once; the lesson grows, no second note
    text = read(sample, ROTATED)
    assert section_lines(text, "Rule") == ["- Rotate receipts upright before OCR."]
    assert section_lines(text, "Sources") == [f"- LRN-20261129-00{n} ([[LEARNINGS]])"
                                              for n in range(1, 5)]
    assert Vault(sample).note(ROTATED).frontmatter["count"] == 4
    assert len(list((sample / "Lessons").glob("Rafael - Ocr*"))) == 1
    entries = of_key(sample, LEARNINGS, "ocr.rotated-receipt")
    assert {(e.value("Count"), e.value("Status"), e.value("Promoted-To")) for e in entries} == \
        {("4", "promoted", "[[Rafael - Ocr Rotated Receipt]]")}
    parses(sample, LEARNINGS, ROTATED)


def test_already_promoted_key_grows_the_lesson_it_was_promoted_to(sample: Path) -> None:
    deskew = "Lessons/Rafael - Deskew before OCR.md"
    before = read(sample, deskew)
    results = learn(Vault(sample), "correction", "Deskewed too late again.",
                    pattern_key="ocr.deskew", when=WHEN)
    assert [r.path for r in results] == [LEARNINGS, deskew]
    assert read(sample, deskew) == before.replace("count: 3", "count: 4") + (
        "\n## Sources\n- LRN-20261112-001 ([[LEARNINGS]])\n- LRN-20261129-001 ([[LEARNINGS]])\n")
    assert [e.value("Count") for e in of_key(sample, LEARNINGS, "ocr.deskew")] == ["4", "4"]
    learn(Vault(sample), "correction", "Deskew the slides too.", pattern_key="ocr.deskew",
          agent="Strategist", when=WHEN)  # another agent's first lesson of the key has its rule
    other = "Lessons/Strategist - Ocr Deskew.md"
    assert section_lines(read(sample, other), "Rule") == ["- Deskew the slides too."]
    assert len(section_lines(read(sample, other), "Sources")) == 3
    parses(sample, deskew, other)


def test_errors_without_agent_are_promoted_to_the_area_lesson(sample: Path) -> None:
    results = learn(Vault(sample), "error", "Encrypted PDF again", pattern_key=
                    "pdf.password-protected", action="Skip encrypted files.", when=WHEN)
    assert [(r.action, r.path) for r in results] == [("appended", "Learnings/ERRORS.md"),
                                                     ("created", "Lessons/pdf.md")]
    lesson = Vault(sample).note("Lessons/pdf")
    assert lesson.frontmatter["count"] == 4 and lesson.frontmatter["first_seen"] == "2026-11-18"
    assert section_lines(read(sample, "Lessons/pdf.md"), "Rule") == ["- Skip encrypted files."]
    assert {e.value("Promoted-To") for e in of_key(sample, "Learnings/ERRORS.md",
                                                   "pdf.password-protected")} == {"[[pdf]]"}
    learn(Vault(sample), "request", "Xero export", pattern_key="export.xero", area="Exports",
          when=WHEN)
    assert Vault(sample).note("Lessons/Exports").frontmatter["pattern_key"] == "export.xero"
    parses(sample, "Learnings/ERRORS.md", "Lessons/pdf.md", "Lessons/Exports.md")


def test_missing_learnings_file_is_created(sample: Path) -> None:
    (sample / "Learnings" / "ERRORS.md").unlink()
    learn(Vault(sample), "error", "Crash", pattern_key="app.crash", when=WHEN)
    assert read(sample, "Learnings/ERRORS.md") == (
        "---\ntype: learning\n---\n# ERRORS\n\n## [ERR-20261129-001] Crash\n"
        "**Pattern-Key**: app.crash\n**Count**: 1\n**Status**: pending\n**Logged**: 2026-11-29\n")
    assert Vault(sample).note("Learnings/ERRORS").type == "learning"


def test_learning_folder_comes_from_the_config(sample: Path) -> None:
    (sample / ".vaultmem").mkdir()
    (sample / ".vaultmem" / "config.toml").write_text('[folders]\nlearning = "Raw"\n')
    learn(Vault(sample), "request", "Dark mode", pattern_key="ui.dark", when=WHEN)
    assert (sample / "Raw" / "FEATURE_REQUESTS.md").is_file()
    parses(sample, "Raw/FEATURE_REQUESTS.md")


def test_dry_run_writes_nothing(sample: Path) -> None:
    rotate(sample, 2)
    before = hash_tree(sample)
    results = learn(Vault(sample), "correction", "Check the currency sign.",
                    pattern_key="ocr.currency-symbol", agent="Rafael", when=WHEN, dry_run=True)
    assert [r.action for r in results] == ["would append", "would update"]
    assert "+**Status**: promoted" in (results[0].diff or "")
    created = rotate(sample, 1, dry_run=True)[0]
    assert [r.action for r in created] == ["would append", "would create"]
    for message in ("That's wrong", "Could you export", "I prefer tables", "Just saying hi"):
        capture(Vault(sample), message, when=WHEN, dry_run=True)
    assert hash_tree(sample) == before


@pytest.mark.parametrize("call", [
    lambda v: learn(v, "correction", f"use {FAKE_GITHUB}", pattern_key="a.b", when=WHEN),
    lambda v: learn(v, "error", "x", pattern_key="a.b", context=f"token {FAKE_GITHUB}", when=WHEN),
    lambda v: capture(v, f"That's wrong, the key is {FAKE_GITHUB}", when=WHEN),
    lambda v: capture(v, f"I prefer {FAKE_GITHUB}", when=WHEN),
])
def test_secrets_are_refused(sample: Path, call: object) -> None:
    before = hash_tree(sample)
    with pytest.raises(SecretRefused):
        call(Vault(sample))  # type: ignore[operator]
    assert hash_tree(sample) == before


@pytest.mark.parametrize(("kind", "text", "key", "context"), [
    ("lesson", "x", "a.b", None), ("correction", " ", "a.b", None),
    ("correction", "x", "a b", None), ("correction", "x", "", None),
    ("correction", "## [LRN-20261129-009] fake", "a.b", None), ("error", "x", "a.b", "# Heading"),
])
def test_bad_input_is_a_usage_error(sample: Path, kind: str, text: str, key: str,
                                    context: str | None) -> None:
    before = hash_tree(sample)
    with pytest.raises(UsageError):
        learn(Vault(sample), kind, text, pattern_key=key, context=context, when=WHEN)
    assert hash_tree(sample) == before


@pytest.mark.parametrize(("message", "kind"), [
    ("That's wrong, the total is 1249.50", "correction"), ("I told you to deskew", "correction"),
    ("This is NOT WHAT I asked for", "correction"), ("不对\uff0c总额是1249.50", "correction"),
    ("你又忘了检查货币符号", "correction"), ("Can you export to Xero?", "request"),
    ("I'd like a weekly summary", "request"), ("能不能导出到Xero", "request"),
    ("我想要每周总结", "request"), ("I prefer short answers", "preference"),
    ("Next time, send the failing image", "preference"), ("我喜欢简短的回答", "preference"),
    ("下次请用中文", "preference"), ("Met Priya today", None),
    ("That is wrong, can you fix it? I prefer tables", "correction"),
    ("Could you do it like I like it", "request"),
])
def test_classify(message: str, kind: str | None) -> None:
    assert classify(message) == kind


def test_classify_with_own_triggers() -> None:
    assert classify("nope, wrong", {"correction": ["nope"]}) == "correction"
    assert classify("that's wrong", {"correction": ["nope"]}) is None
    with pytest.raises(UsageError):
        classify("x", {"praise": ["great"]})


def test_capture_correction_and_request(sample: Path) -> None:
    got = capture(Vault(sample), "不对\uff0c总额是1249.50", when=WHEN)
    assert (got.kind, got.summary) == ("correction", "recorded a correction in Learnings/"
                                       "LEARNINGS.md (LRN-20261129-001, user.总额是1249-50)")
    assert of_key(sample, LEARNINGS, "user.总额是1249-50")[0].id == "LRN-20261129-001"
    got = capture(Vault(sample), "Can you export to Xero?", when=WHEN)
    assert (got.kind, got.summary) == ("request", "recorded a request in Learnings/"
                                       "FEATURE_REQUESTS.md (FEAT-20261129-001, user.export-xero)")
    text = read(sample, "Learnings/FEATURE_REQUESTS.md")
    assert text.endswith("\n\n## [FEAT-20261129-001] Can you export to Xero?\n**Pattern-Key**: "
                         "user.export-xero\n**Count**: 1\n**Status**: pending\n"
                         "**Logged**: 2026-11-29\n")
    parses(sample, LEARNINGS, "Learnings/FEATURE_REQUESTS.md")


def test_capture_groups_only_what_recurs(sample: Path) -> None:
    for message in ("That's wrong", "你又错了", "I told you twice"):
        assert "promoted" not in capture(Vault(sample), message, when=WHEN).summary
    for message in ("That's wrong: deskew first", "I told you: deskew first!"):
        capture(Vault(sample), message, when=WHEN)
    got = capture(Vault(sample), "That is wrong. Deskew first.", when=WHEN)
    assert got.summary == ("recorded a correction in Learnings/LEARNINGS.md (LRN-20261129-006, "
                           "user.deskew-first); promoted to [[user]]")
    assert [r.path for r in got.results] == [LEARNINGS, "Lessons/user.md"]
    parses(sample, "Lessons/user.md")
    got = capture(Vault(sample), "That's wrong", pattern_key="ocr.currency-symbol", when=WHEN)
    assert got.summary.endswith("(LRN-20261129-007, ocr.currency-symbol); promoted to "
                                "[[Rafael - Check currency symbol]]")


def test_message_key() -> None:
    assert message_key("I told you: deskew first!", ["i told you"]) == "user.deskew-first"
    assert message_key("That's wrong", ["that's wrong"]) == "user.message"


def test_capture_triggers_from_the_vault_config(sample: Path) -> None:
    (sample / ".vaultmem").mkdir(exist_ok=True)
    (sample / ".vaultmem" / "config.toml").write_text('[triggers]\ncorrection = ["nope"]\n')
    assert capture(Vault(sample), "nope, 12 not 13", when=WHEN).kind == "correction"
    assert capture(Vault(sample), "that's wrong", when=WHEN).kind == "note"


def test_capture_preference_goes_to_memory(sample: Path) -> None:
    before = read(sample, "MEMORY.md")
    got = capture(Vault(sample), "I prefer  short answers\nwith tables", when=WHEN)
    assert (got.kind, got.summary) == ("preference",
                                       "recorded a preference under ## Preferences in MEMORY.md")
    capture(Vault(sample), "下次请用中文", when=WHEN)
    updated = before.replace("updated: 2026-11-28", "updated: 2026-11-29")
    assert read(sample, "MEMORY.md") == updated + (
        "\n## Preferences\n- I prefer short answers with tables\n- 下次请用中文\n")
    again = capture(Vault(sample), "下次请用中文", when=WHEN)
    assert again.results[0].action == "unchanged"
    parses(sample, "MEMORY.md")


def test_capture_without_trigger_goes_to_the_daily_note(sample: Path) -> None:
    got = capture(Vault(sample), "Met Priya; she signs next week.", when=WHEN)
    assert (got.kind, got.summary) == ("note", "recorded the message in Daily/2026-11-29.md")
    assert read(sample, "Daily/2026-11-29.md").endswith(
        "### 10:00 — Note from the user\nMet Priya; she signs next week.\n")
    with pytest.raises(UsageError):
        capture(Vault(sample), "  ", when=WHEN)
    parses(sample, "Daily/2026-11-29")


def test_a_lesson_that_cannot_be_written_stops_the_promotion_before_any_write(
        sample: Path) -> None:
    rotate(sample, 2)
    outside = sample.parent / "elsewhere.md"
    outside.write_text("---\ntype: lesson\n---\n# Not in the vault\n")
    (sample / "Lessons" / "Rafael - Ocr Rotated Receipt.md").symlink_to(outside)
    before = hash_tree(sample), outside.read_text()
    with pytest.raises(VaultmemError, match="symbolic link"):
        rotate(sample, 1)
    assert (hash_tree(sample), outside.read_text()) == before


def test_cli_learn_promotes_and_capture_reports(sample: Path) -> None:
    code, out, _ = run(sample, "learn", "correction", "Check the currency symbol",
                       "--pattern-key", "ocr.currency-symbol", "--agent", "Rafael",
                       "--date", "2026-11-29", "--time", "10:00")
    assert (code, out) == (0, "appended Learnings/LEARNINGS.md\n"
                              "  LRN-20261129-001: ocr.currency-symbol, count 3\n"
                              "  ocr.currency-symbol promoted to "
                              "[[Rafael - Check currency symbol]]\n"
                              f"updated {CURRENCY}\n")
    code, out, _ = run(sample, "capture", "Can you export to Xero?", "--json")
    got = json.loads(out)
    assert (code, got["kind"], [r["path"] for r in got["results"]]) == (
        0, "request", ["Learnings/FEATURE_REQUESTS.md"])
    code, _, err = run(sample, "learn", "correction", "x", "--pattern-key", "a b")
    assert code == 2 and "must be one word" in err


def test_bad_triggers_setting_is_a_clear_error(sample: Path) -> None:
    (sample / ".vaultmem").mkdir(exist_ok=True)
    (sample / ".vaultmem" / "config.toml").write_text('[triggers]\ncorrection = "nope"\n')
    code, _, err = run(sample, "capture", "nope")
    assert code != 0 and 'must be a table of category = ["phrase", ...]' in err
