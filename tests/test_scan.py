"""Scanning: the parse cache, bad input, hidden files, and the real kepano vault."""

from __future__ import annotations

import marshal
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from vaultmem.config import find_vault
from vaultmem.errors import ConfigError, VaultNotFound
from vaultmem.index.doc import Meta, meta_of
from vaultmem.index.lookup import facts
from vaultmem.locations import cache_root
from vaultmem.read.extract import RawFact
from vaultmem.vault import Vault

from .conftest import CORPUS, NO_CORPORA, hash_tree


def write(root: Path, name: str, data: str | bytes) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)
    return path


def test_cache_reuses_unchanged_and_notices_changes(sample: Path) -> None:
    first = Vault(sample).index.stats
    assert (first.parsed, first.reused) == (30, 0)
    second = Vault(sample).index.stats
    assert (second.parsed, second.reused) == (0, 30)
    home = sample / "Home.md"
    home.write_text(home.read_text() + "\nsee [[Rafael]]\n")
    (sample / "NOW.md").unlink()
    os.rename(sample / "Home.md", sample / "Start.md")
    after = Vault(sample)
    assert (after.index.stats.parsed, after.index.stats.reused) == (1, 28)
    assert after.index.stats.removed == 2
    assert "Start" in after.notes and "Home" not in after.notes and "NOW" not in after.notes
    assert after.graph.has_edge("Start", "Agents/Rafael")


def test_cache_lives_outside_the_vault_and_is_private(sample: Path) -> None:
    vault = Vault(sample)
    _ = vault.index
    assert vault.store is not None
    folder = vault.store.folder
    files = sorted(folder.iterdir())
    assert vault.store.path in files and cache_root() in folder.parents
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o600}
    assert not any("sqlite" in p.name for p in sample.rglob("*"))


@pytest.mark.parametrize("damage", [b"not a database at all", b"SQLite format 3\x00" + b"x" * 200])
def test_damaged_index_is_rebuilt(sample: Path, damage: bytes) -> None:
    vault = Vault(sample)
    _ = vault.index
    assert vault.store is not None
    vault.store.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{vault.store.path}{suffix}").unlink(missing_ok=True)
    vault.store.path.write_bytes(damage)
    again = Vault(sample)
    assert again.index.stats.parsed == 30 and len(again.notes) == 30
    assert Vault(sample).index.stats.reused == 30


def test_an_index_of_another_schema_or_code_is_rebuilt(sample: Path) -> None:
    vault = Vault(sample)
    _ = vault.index
    assert vault.store is not None
    vault.store.close()
    with sqlite3.connect(vault.store.path) as db:
        db.execute("PRAGMA user_version = 999")
    assert Vault(sample).index.stats.parsed == 30
    with sqlite3.connect(vault.store.path) as db:
        db.execute("UPDATE meta SET value = 'an older vaultmem' WHERE key = 'stamp'")
    assert Vault(sample).index.stats.parsed == 30
    assert Vault(sample).index.stats.reused == 30


def test_deleting_the_index_is_always_safe(sample: Path) -> None:
    vault = Vault(sample)
    shown = [vault.note("Lucy Tan").title, len(vault.backlinks("People/Lucy Tan"))]
    assert vault.store is not None
    for path in vault.store.folder.iterdir():
        path.unlink()
    again = Vault(sample)
    assert [again.note("Lucy Tan").title, len(again.backlinks("People/Lucy Tan"))] == shown


def test_bad_files_are_problems_not_crashes(tmp_path: Path) -> None:
    write(tmp_path, "Bad yaml.md", "---\ntitle: [unclosed\n---\nsee [[Good]]\n")
    write(tmp_path, "Binary.md", b"\x00\x01\x02[[Nope]]")
    write(tmp_path, "Latin1.md", "caf\xe9 [[Good]]\n".encode("latin-1"))
    write(tmp_path, "Empty.md", b"")
    write(tmp_path, "Huge line.md", "word " * 200_000 + "[[Good]]\n")
    write(tmp_path, "Placeholder.md", "---\ncreated: <% tp.date.now() %>\n---\n")
    write(tmp_path, "Good.md", "fine\n")
    (tmp_path / "Loop").mkdir()
    os.symlink(tmp_path / "Loop", tmp_path / "Loop" / "again")
    vault = Vault(tmp_path, use_cache=False)
    problems = {(p.path, p.kind, p.line) for p in vault.index.problems}
    assert problems == {
        ("Bad yaml.md", "frontmatter", 2), ("Binary.md", "binary", None),
        ("Latin1.md", "encoding", 1), ("Placeholder.md", "placeholder", 2),
        ("Loop/again", "unreadable", None),
    }
    assert [link.resolved for link in vault.notes["Bad yaml"].links] == ["Good"]
    assert [link.resolved for link in vault.notes["Huge line"].links] == ["Good"]
    assert vault.notes["Binary"].links == [] and vault.notes["Empty"].links == []
    assert "caf\ufffd" not in vault.notes["Latin1"].title


def test_hidden_folders_and_generated_notes_are_not_sources(tmp_path: Path) -> None:
    write(tmp_path, ".obsidian/app.json", "{}")
    write(tmp_path, ".trash/Old.md", "[[A]]")
    write(tmp_path, ".git/x.md", "[[A]]")
    write(tmp_path, "_vaultmem/context/Rafael.md", "---\ngenerated_by: vaultmem\n---\n[[A]]\n")
    write(tmp_path, "A.md", "[[Rafael]]\n")
    vault = Vault(tmp_path, use_cache=False)
    assert list(vault.notes) == ["A"]
    assert vault.index.other == {"_vaultmem/context/Rafael": "generated"}
    assert vault.notes["A"].links[0].resolved == "_vaultmem/context/Rafael"


def test_config_toml_folders_and_errors(tmp_path: Path) -> None:
    write(tmp_path, ".vaultmem/config.toml", '[folders]\nperson = "Team"\n')
    write(tmp_path, "Team/Ana.md", "hi\n")
    assert Vault(tmp_path, use_cache=False).notes["Team/Ana"].type == "person"
    write(tmp_path, ".vaultmem/config.toml", 'folder = "x"\n')
    with pytest.raises(ConfigError, match="did you mean 'folders'"):
        Vault(tmp_path)


def test_broken_settings_json_is_a_clear_error(tmp_path: Path) -> None:
    write(tmp_path, ".obsidian/app.json", "{not json")
    with pytest.raises(ConfigError, match=r"app\.json: cannot read settings"):
        Vault(tmp_path)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPORA)
def test_kepano_vault_reads_cleanly_and_stays_unchanged(tmp_path: Path) -> None:
    before = hash_tree(CORPUS)
    vault = Vault(CORPUS)
    assert len(vault.notes) > 50
    assert "Templates" not in {note_id.split("/")[0] for note_id in vault.notes}
    kinds = {kind for note in vault.notes.values() for link in note.links for kind in [link.kind]}
    assert "property" in kinds
    assert not [p for p in vault.index.problems if p.kind != "placeholder"]
    _ = vault.graph
    assert hash_tree(CORPUS) == before


def test_parallel_scan_reports_progress_and_matches_serial(tmp_path: Path) -> None:
    for i in range(260):
        write(tmp_path, f"Notes/n{i:03d}.md", f"#t{i % 7} see [[n{(i + 1) % 260:03d}]]\n")
    calls: list[tuple[int, int]] = []
    parallel = Vault(tmp_path, progress=lambda done, total: calls.append((done, total)))
    assert parallel.index.stats.parsed == 260
    assert sum(done for done, _ in calls) == 260 and {total for _, total in calls} == {260}
    serial = Vault(tmp_path, use_cache=False)
    assert [n.to_dict() for n in parallel.notes.values()] == \
        [n.to_dict() for n in serial.notes.values()]
    assert parallel.graph.number_of_edges() == 260


# A scan started while another thread of the process is inside an import (as in ``watch``,
# whose keeper and observer run beside it) of a module the parse workers import too.
MID_IMPORT = r"""
import importlib.machinery, sys, threading
from pathlib import Path
from vaultmem.vault import Vault

NAME = "vaultmem.read.note_passages"
entered, release = threading.Event(), threading.Event()

class Slow:
    def find_spec(self, name, path, target=None):
        return importlib.machinery.ModuleSpec(name, self) if name == NAME else None
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        entered.set()
        release.wait()
        real = importlib.machinery.PathFinder.find_spec(NAME, sys.modules["vaultmem.read"].__path__)
        real.loader.exec_module(module)

assert NAME not in sys.modules
sys.meta_path.insert(0, Slow())
importing = threading.Thread(target=__import__, args=(NAME,))
importing.start()
entered.wait()
print(Vault(Path(sys.argv[1])).index.stats.parsed)
release.set()
importing.join()
"""


def test_parse_workers_start_while_another_thread_is_importing(tmp_path: Path) -> None:
    for i in range(260):
        write(tmp_path, f"Notes/n{i:03d}.md", f"see [[n{(i + 1) % 260:03d}]]\n")
    done = subprocess.run([sys.executable, "-c", MID_IMPORT, str(tmp_path)], capture_output=True,
                          text=True, timeout=300)  # a forked worker waited forever here
    assert done.returncode == 0 and done.stdout == "260\n", done.stderr


def test_vault_discovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "v/.obsidian/app.json", "{}")
    write(tmp_path, "v/sub/deep/Note.md", "x\n")
    assert find_vault(start=tmp_path / "v" / "sub" / "deep") == (tmp_path / "v").resolve()
    monkeypatch.setenv("VAULTMEM_VAULT", str(tmp_path / "v" / "sub"))
    assert find_vault() == (tmp_path / "v" / "sub").resolve()
    assert find_vault(tmp_path / "v") == (tmp_path / "v").resolve()
    monkeypatch.delenv("VAULTMEM_VAULT")
    with pytest.raises(VaultNotFound, match="pass --vault PATH or set VAULTMEM_VAULT"):
        find_vault(start=tmp_path)


@pytest.mark.parametrize("corpus", ["sample", "kepano", "pkmer-math"])
def test_backlinks_from_the_index_equal_a_full_scan(sample: Path, tmp_path: Path,
                                                    corpus: str) -> None:
    root = {"sample": sample, "kepano": CORPUS, "pkmer-math": CORPUS.parent / "pkmer-math"}[corpus]
    if not root.is_dir():
        pytest.skip(f"{root} is not here (../shared/corpora comes with the project's workspace)")
    indexed, full = Vault(root), Vault(root, use_cache=False)
    for note_id in full.notes:
        assert indexed.backlinks(note_id) == full.backlinks(note_id), note_id


def test_the_index_stores_plain_tuples_and_hands_out_named_ones(sample: Path) -> None:
    vault = Vault(sample)
    lucy = "People/Lucy Tan"
    stored = meta_of(vault.notes[lucy], "", vault.note_text(lucy))
    assert type(stored) is tuple and {type(fact) for fact in stored[5]} == {tuple}
    assert marshal.loads(marshal.dumps(stored)) == stored  # marshal refuses tuple subclasses
    meta = Meta.load(stored)
    assert meta.stored() == stored and {type(fact) for fact in meta.facts} == {RawFact}
    full = dict(vault.facts)[lucy]
    assert type(full) is Meta and full.facts == meta.facts
    assert ("timezone", "UTC+8", "property") in [(f.attribute, f.value, f.kind) for f in full.facts]
    stated = facts(vault.store, [lucy])[lucy]
    assert stated == meta.facts and {type(fact) for fact in stated} == {RawFact}
    with pytest.raises(ValueError, match="unmarshallable"):
        marshal.dumps(meta)


def _settings(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        write(root, f".obsidian/{name}", text)


@pytest.mark.parametrize(("files", "folders", "found"), [
    ({"templates.json": '{"folder": "Meta/T"}'}, ["Meta/T", "Templates"],
     ("Meta/T", ".obsidian/templates.json")),
    ({"plugins/templater-obsidian/data.json": '{"templates_folder": "Tpl"}'},
     ["Tpl", "Templates"], ("Tpl", "Templater's settings")),
    ({"community-plugins.json": '["dataview", "templater-obsidian"]'}, ["_data_/templates"],
     ("_data_/templates", "the folder named 'templates', with a templates plugin on")),
    ({"core-plugins.json": '{"templates": true}'}, ["Templates"],
     ("Templates", "the folder named 'Templates', with a templates plugin on")),
    ({"core-plugins.json": '["templates"]'}, ["Templates"],
     ("Templates", "the folder named 'Templates', with a templates plugin on")),
    ({"core-plugins.json": '{"templates": false}'}, ["Templates"], (None, "")),  # plugins
    # known, none for templates: a folder of that name is notes
    ({}, ["_template"], ("_template", "the folder named '_template' (no settings say which "
                         "plugins are on)")),  # a copy without its settings: the name decides
    ({"community-plugins.json": '["quickadd"]'}, ["z_Templates", "Notes"],
     ("z_Templates", "the folder named 'z_Templates', with a templates plugin on")),
    ({"community-plugins.json": '["quickadd"]'}, ["99 - Templates"],
     ("99 - Templates", "the folder named '99 - Templates', with a templates plugin on")),
    ({"community-plugins.json": '["quickadd"]'}, ["Meta/_template"],
     ("Meta/_template", "the folder named '_template', with a templates plugin on")),
    ({"community-plugins.json": '["quickadd"]'}, ["Templates", "Work/templates"], (None, "")),
    ({"community-plugins.json": '["quickadd"]'}, ["Templates Archive"], (None, "")),
])
def test_the_templates_folder_is_read_or_detected(tmp_path: Path, files: dict[str, str],
                                                  folders: list[str],
                                                  found: tuple[str | None, str]) -> None:
    _settings(tmp_path, files)
    for folder in folders:
        write(tmp_path, f"{folder}/T.md", "A plain note.\n")
    config = Vault(tmp_path, use_cache=False).config
    assert (config.templates_folder, config.templates_from) == found
    templates = {note: role for note, role in Vault(tmp_path, use_cache=False).index.other.items()
                 if role == "template"}
    assert templates == ({f"{found[0]}/T": "template"} if found[0] else {})


def test_the_templates_folder_set_in_config_wins(tmp_path: Path) -> None:
    _settings(tmp_path, {"community-plugins.json": '["templater-obsidian"]'})
    write(tmp_path, "Templates/T.md", "x\n")
    write(tmp_path, ".vaultmem/config.toml", 'templates_folder = "Other"\n')
    config = Vault(tmp_path, use_cache=False).config
    assert (config.templates_folder, config.templates_from) == ("Other", ".vaultmem/config.toml")


@pytest.mark.parametrize(("texts", "found"), [
    (["---\ncreated: {{date}}\n---\n# {{title}}\n", "<% tp.file.title %>\n", "plain\n"],
     "Templates"),
    (["plain\n", "also plain, with a {single} brace\n", "{{x}}\n"], None),
])
def test_a_templates_folder_without_settings_is_known_by_its_placeholders(
        tmp_path: Path, texts: list[str], found: str | None) -> None:
    _settings(tmp_path, {"core-plugins.json": '{"templates": false}'})  # nothing else says
    for number, text in enumerate(texts):
        write(tmp_path, f"Templates/T{number}.md", text)
    config = Vault(tmp_path, use_cache=False).config
    assert config.templates_folder == found
    assert config.templates_from == ("the folder named 'Templates', its notes full of "
                                     "placeholders" if found else "")


@pytest.mark.parametrize(("path", "text", "found"), [
    ("Notes/Ana.md", "---\ntype: person\n---\n", ("person", "type")),
    ("Notes/Ana.md", "---\nType: Person\n---\n", ("person", "Type")),
    ("References/Kim.md", '---\ntype: "[[Authors]]"\n---\n', ("person", "type")),
    ("References/Kim.md", '---\ncategories:\n  - "[[People]]"\n---\n', ("person", "categories")),
    ("References/Kyoto.md", '---\ncategories: ["[[Places]]"]\n---\n', ("note", "default")),
    ("Spaces/Contacts/Bo.md", "# Bo\n", ("person", "folder Contacts")),
    ("Lists/Bo.md", "#people/friends\n", ("person", "tag #people/friends")),
    ("Stack/Hubspot.md", "A CRM we tried. #crm\n", ("note", "default")),  # a synonym alone
    ("Lists/Cy.md", "---\nemail: cy@example.com\n---\n#crm\n", ("person", "tag #crm")),
    ("Learn/Measure.md", "Count what matters. #metrics\n", ("note", "default")),
    ("Ops/Uptime.md", "---\ntarget: 99.9\n---\n#metrics\n", ("kpi", "tag #metrics")),
    ("Watch/Heat.md", "---\ntype: movie\n---\n", ("movie", "type")),
    ("_PARA/Projects/Atlas/Kanban.md", "board\n", ("note", "default")),  # only its own folder
    ("Daily/2026-11-29.md", "log\n", ("daily", "daily folder")),
    ("Daily/Notes.md", "a page in the daily folder\n", ("note", "default")),
])
def test_a_note_is_typed_by_the_vaults_own_conventions(tmp_path: Path, path: str, text: str,
                                                       found: tuple[str, str]) -> None:
    write(tmp_path, ".obsidian/daily-notes.json", '{"folder": "Daily"}')
    write(tmp_path, path, text)
    note = Vault(tmp_path, use_cache=False).notes[path[:-3]]
    assert (note.type, note.typed_by) == found


def test_conventions_say_what_was_detected(tmp_path: Path) -> None:
    write(tmp_path, ".obsidian/community-plugins.json", '["templater-obsidian"]')
    write(tmp_path, "Templates/Person.md", "---\ntype: person\n---\n")
    write(tmp_path, "People/Ana.md", "x\n")
    write(tmp_path, "Refs/Kim.md", '---\ncategories: ["[[People]]"]\n---\n')
    write(tmp_path, "Home.md", "x\n")
    vault = Vault(tmp_path, use_cache=False)
    from vaultmem.check.conventions import conventions, conventions_text

    assert conventions_text(conventions(vault)) == (
        "Templates  Templates (the folder named 'Templates', with a templates plugin on)\n"
        "Daily      vault root, named YYYY-MM-DD (Obsidian's default)\n"
        "Types\n"
        "  person           2  by categories 1, folder People 1\n"
        "  note             1  by default 1")


def test_the_vaults_own_type_names_are_set_in_config(tmp_path: Path) -> None:
    write(tmp_path, ".vaultmem/config.toml", '[types]\nClients = "person"\nnote = "note"\n')
    write(tmp_path, "Crm/Ana.md", '---\ncategories: ["[[Clients]]"]\n---\n')
    write(tmp_path, "Clients/Bo.md", "x\n")
    notes = Vault(tmp_path, use_cache=False).notes
    assert [(n.type, n.typed_by) for n in notes.values()] == [
        ("person", "folder Clients"), ("person", "categories")]
    write(tmp_path, ".vaultmem/config.toml", '[types]\nClients = 3\n')
    with pytest.raises(ConfigError, match=r"\[types\] must be a table of name = \"type\""):
        Vault(tmp_path, use_cache=False).config  # noqa: B018


@pytest.mark.parametrize(("files", "found"), [
    ({}, ("", "YYYY-MM-DD", "Obsidian's default")),
    ({".obsidian/daily-notes.json": '{"folder": "Log", "format": "DD.MM.YYYY"}',
      "Daily/2025-01-14.md": "", "Daily/2025-01-15.md": "", "Daily/2025-01-16.md": ""},
     ("Log", "DD.MM.YYYY", ".obsidian/daily-notes.json")),  # the setting, where new ones go
    ({".obsidian/plugins/periodic-notes/data.json":
      '{"daily": {"folder": "Journal", "format": "YYYYMMDD", "enabled": true}}'},
     ("Journal", "YYYYMMDD", ".obsidian/plugins/periodic-notes/data.json")),
    ({"Daily/2025-01-14.md": "#daily\n", "Daily/2025-01-15.md": "", "Daily/2025-01-16.md": "",
      "Daily/2025-01-16 Standup.md": "", "Notes/2024-02-02.md": ""},
     ("Daily", "YYYY-MM-DD", "detected: 3 notes named by date")),
    ({"Log/2023/2022-12-31.md": "", "Log/2023/01/2023-01-01.md": "", "Log/2023/2023-01-02.md": ""},
     ("Log", "YYYY-MM-DD", "detected: 3 notes named by date")),  # in year and month folders
    ({"Posts/2024-07-26 Push and pull.md": "", "Posts/2024-07-27 Pull.md": "",
      "Posts/2024-07-28 Push.md": ""}, ("", "YYYY-MM-DD", "Obsidian's default")),  # titled
])
def test_daily_notes_are_found_by_settings_else_by_their_names(
        tmp_path: Path, files: dict[str, str], found: tuple[str, str, str]) -> None:
    for path, text in files.items():
        write(tmp_path, path, text)
    config = Vault(tmp_path, use_cache=False).config
    assert (config.daily_folder, config.daily_format, config.daily_from) == found


def test_notes_named_by_date_in_a_journal_are_daily_wherever_settings_point(
        tmp_path: Path) -> None:
    write(tmp_path, ".obsidian/daily-notes.json", '{"folder": "Work/Daily"}')
    for day in ("2025-01-14", "2025-01-15", "2025-01-16"):
        write(tmp_path, f"Archive/Daily/2025/{day}.md", "- met [[Ana]]\n")
    write(tmp_path, "Archive/Daily/2025/Review.md", "a page among them\n")
    write(tmp_path, "Work/Daily/2025-02-01.md", "today\n")
    notes = Vault(tmp_path, use_cache=False).notes
    assert {i: (n.type, n.date) for i, n in notes.items() if n.type == "daily"} == {
        "Archive/Daily/2025/2025-01-14": ("daily", "2025-01-14"),
        "Archive/Daily/2025/2025-01-15": ("daily", "2025-01-15"),
        "Archive/Daily/2025/2025-01-16": ("daily", "2025-01-16"),
        "Work/Daily/2025-02-01": ("daily", "2025-02-01")}


@pytest.mark.parametrize(("settings", "toml", "vaults"), [
    (True, None, ["en", "zh"]),  # each language folder holds its own .obsidian
    (False, None, ["en", "zh"]),  # language folders sharing their notes' paths
    (True, "vaults = []\n", []),  # the owner says it is one vault
])
def test_vaults_side_by_side_each_resolve_their_own_links(
        tmp_path: Path, settings: bool, toml: str | None, vaults: list[str]) -> None:
    for language in ("en", "zh"):
        if settings:
            write(tmp_path, f"{language}/.obsidian/app.json", "{}")
        for page in ("Links", "Embeds", "Aliases", "Tags", "Search"):
            write(tmp_path, f"{language}/Guide/{page}.md",
                  f"---\naliases: [{page} page]\n---\nOne page of the guide.\n")
        write(tmp_path, f"{language}/Home.md", "See [[Links]] and [[Guide/Tags]].\n")
    if toml is not None:
        write(tmp_path, ".vaultmem/config.toml", toml)
    vault = Vault(tmp_path, use_cache=False)
    assert list(vault.config.vaults) == vaults
    links = vault.notes["zh/Home"].links
    assert [(link.resolved, link.ambiguous) for link in links] == (
        [("zh/Guide/Links", False), ("zh/Guide/Tags", False)] if vaults else
        [("en/Guide/Links", True), ("zh/Guide/Tags", False)])
    from vaultmem.check.conflicts import find_conflicts
    from vaultmem.check.conventions import conventions, conventions_text
    from vaultmem.check.linting import lint

    assert [f.kind for f in lint(vault)] == ([] if vaults else ["ambiguous-link"] * 2)
    clashes = find_conflicts(vault, kinds=("alias-clash", "duplicate"), least=0.0)
    assert (clashes == []) == bool(vaults)
    assert ("Vaults     2 side by side, each resolving its own links"
            in conventions_text(conventions(vault))) == bool(vaults)
