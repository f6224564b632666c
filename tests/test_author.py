"""What an agent's token writes says which agent wrote it, and makes no conflicting memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem.check.conflicts import find_conflicts
from vaultmem.curate.learn import learn
from vaultmem.errors import NoteNotFound, UsageError
from vaultmem.recall.relevant import relevant_passages
from vaultmem.vault import Vault
from vaultmem.write.author import written_by
from vaultmem.write.entries import decide, lesson
from vaultmem.write.facts import record_fact
from vaultmem.write.journal import append_daily

from .conftest import NOW


def test_every_write_of_an_agent_says_so(sample: Path) -> None:
    vault = Vault(sample)
    before = [f.id for f in find_conflicts(vault, today=NOW.date())]
    with written_by("Rafael"):
        append_daily(vault, "Checked the OCR queue.", title="OCR queue", when=NOW)
        record_fact(vault, "Lucy Tan", "timezone", "Europe/Lisbon", source="2026-11-29",
                    when=NOW)
        made = decide(vault, "Serve memory over HTTP", topic="remote-agents", when=NOW)
        learn(vault, "correction", "Send the token first", pattern_key="http.token", when=NOW)
        taught = lesson(vault, "Rafael - Ask for a token", pattern_key="http.ask", when=NOW)
    daily = (sample / "Daily" / "2026-11-29.md").read_text()
    assert "### 10:00 — OCR queue\nby [[Rafael]]\nChecked the OCR queue.\n" in daily
    lucy = (sample / "People" / "Lucy Tan.md").read_text()
    assert "timezone = Europe/Lisbon (by [[Rafael]], source [[2026-11-29]])" in lucy
    assert 'recorded_by: "[[Rafael]]"' in (sample / made[0].path).read_text()
    assert "**Logged-By**: [[Rafael]]" in (sample / "Learnings" / "LEARNINGS.md").read_text()
    assert 'agent: "[[Rafael]]"' in (sample / taught.path).read_text()
    after = Vault(sample)
    assert "Daily/2026-11-29" in [s for s, _ in after.backlinks("Agents/Rafael")]
    new = [f for f in find_conflicts(after, today=NOW.date()) if f.id not in before]
    assert new == []  # the stamps are no facts: no conflict between agents' entries


def test_without_an_agent_nothing_is_stamped(sample: Path) -> None:
    append_daily(Vault(sample), "Checked the OCR queue.", title="OCR queue", when=NOW)
    assert "### 10:00 — OCR queue\nChecked" in (sample / "Daily" / "2026-11-29.md").read_text()


def test_an_agent_token_writes_no_other_agents_lesson(sample: Path) -> None:
    vault = Vault(sample)
    with written_by("Rafael"), pytest.raises(UsageError, match="writes as Rafael, not "
                                             "Strategist"):
        lesson(vault, "Strategist - Plan first", agent="Strategist", when=NOW)
    with written_by("Rafael"):
        assert lesson(vault, "Rafael - Plan first", agent="rafael", when=NOW).action == "created"


def test_an_agent_without_a_note_is_refused_with_the_command_that_makes_it(
        sample: Path) -> None:
    with written_by("Nadia"), pytest.raises(NoteNotFound, match="vaultmem new agent Nadia"):
        append_daily(Vault(sample), "Checked.", when=NOW)
    assert not (sample / "Daily" / "2026-11-29.md").exists()


def test_an_entry_s_stamp_leads_no_context_to_the_agent_s_note(tmp_path: Path) -> None:
    (tmp_path / "Agents").mkdir()
    (tmp_path / "Agents" / "Rafael.md").write_text("---\ntype: agent\n---\n# Rafael\n\n"
                                                   "Rafael reads the invoices.\n")
    (tmp_path / "Other.md").write_text("Nothing to see here.\n")
    with written_by("Rafael"):
        append_daily(Vault(tmp_path), "Moved the quantum computing meetup to Tuesday.",
                     title="Meetup", when=NOW)
    asked = relevant_passages(Vault(tmp_path), "quantum computing meetup", today=NOW.date())
    assert [found.passage.note for found in asked] == [f"{NOW:%Y-%m-%d}"]
