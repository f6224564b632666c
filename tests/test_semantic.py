"""Semantic recall with the shared model (all-MiniLM-L6-v2, int8 ONNX): what keywords cannot find
is found, every command still works without it, and the settings are checked."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultmem.cli import cli
from vaultmem.config import load_config
from vaultmem.errors import ConfigError
from vaultmem.index import embedder
from vaultmem.index.vector_sync import Embedded
from vaultmem.recall.context.build import build_context
from vaultmem.recall.meaning import embed_vault, near_text
from vaultmem.recall.related.notes import related_notes
from vaultmem.recall.search import search
from vaultmem.vault import Vault

from .conftest import ROOT

MODEL = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx-int8"
needs_model = pytest.mark.skipif(
    not (MODEL / "model.onnx").is_file() or embedder.fastembed_missing(),
    reason=f"the shared model ({MODEL}) or fastembed is not here")
NOTES = {
    "People/Priya.md": "# Priya\n\nPriya starts every morning with a cup of green tea.\n\n"
                       "She works from Bengaluru.\n",
    "Projects/Pipeline.md": "# Pipeline\n\nThe deploy pipeline broke on Friday after the "
                            "upgrade.\n",
    "People/Marco.md": "# Marco\n\nMarco adopted a puppy called Biscuit last spring.\n",
    "Notes/Budget.md": "# Budget\n\nWe spend too much on cloud servers each quarter.\n",
}
QUESTION = "hot beverage"  # no word of it is in any note


def make(root: Path, settings: str = f'model = "{MODEL}"') -> Path:
    (root / ".obsidian").mkdir(parents=True)
    (root / ".vaultmem").mkdir()
    (root / ".vaultmem" / "config.toml").write_text(f"[semantic]\n{settings}\n",
                                                    encoding="utf-8")
    for name, text in NOTES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def embedded(tmp_path: Path) -> tuple[Path, Path, Embedded]:
    """A test vault with every passage embedded: its root, its vector file, what was done."""
    root = make(tmp_path / "v")
    vault = Vault(root)
    done = embed_vault(vault)
    return root, vault.store.folder / "vectors.sqlite3", done


@needs_model
def test_search_finds_a_note_that_shares_no_word_with_the_question(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    embed_vault(Vault(root))
    hits = search(Vault(root), QUESTION)
    assert hits[0].id == "People/Priya" and "close in meaning" in hits[0].reasons[-1]
    assert hits[0].snippet.startswith("Priya starts every morning with a cup of green tea.")
    (root / ".vaultmem" / "config.toml").unlink()
    assert search(Vault(root), QUESTION) == []  # keywords alone find nothing


@needs_model
def test_a_question_about_nothing_in_the_vault_finds_nothing_by_meaning(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    embed_vault(Vault(root))
    assert search(Vault(root), "quantum chromodynamics on a lattice") == []


@needs_model
def test_a_model_is_used_only_on_the_languages_it_reads(tmp_path: Path) -> None:
    """An English model finds nothing for a question in Spanish, nor a passage in Spanish;
    ``languages = ["any"]`` (a multilingual model) lets it read every text."""
    root = make(tmp_path / "v")
    (root / "People" / "Lucia.md").write_text(
        "# Lucia\n\nLucia toma una taza de té verde cada mañana.\n", encoding="utf-8")
    embed_vault(Vault(root))
    assert [n.passage.note for n in near_text(Vault(root), QUESTION)][:1] == ["People/Priya"]
    assert "People/Lucia" not in {n.passage.note for n in near_text(Vault(root), QUESTION)}
    assert near_text(Vault(root), "¿Qué bebida caliente toma por la mañana?") == []
    config = root / ".vaultmem" / "config.toml"
    config.write_text(config.read_text(encoding="utf-8") + 'languages = ["any"]\n',
                      encoding="utf-8")
    assert "People/Lucia" in {n.passage.note for n in near_text(Vault(root), QUESTION)}
    assert near_text(Vault(root), "¿Qué bebida caliente toma por la mañana?") != []


@needs_model
def test_context_holds_the_passage_a_question_means(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    embed_vault(Vault(root))
    built = build_context(Vault(root), query="what does she drink in the morning", budget=200)
    assert "cup of green tea" in built.text


@needs_model
def test_related_says_how_close_in_meaning(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    (root / "Notes" / "Coffee.md").write_text("# Coffee\n\nA cup of black coffee every "
                                              "morning keeps me going.\n", encoding="utf-8")
    embed_vault(Vault(root))
    _, items = related_notes(Vault(root), "Coffee")
    assert items[0].id == "People/Priya"
    assert any("meaning" in reason for reason in items[0].reasons)


@needs_model
def test_a_query_embeds_what_changed_since_index_embed(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    embed_vault(Vault(root))
    (root / "Notes" / "Lunch.md").write_text("# Lunch\n\nA bowl of ramen at noon.\n",
                                             encoding="utf-8")
    hits = search(Vault(root), "noodle soup")
    assert hits[0].id == "Notes/Lunch"
    assert embed_vault(Vault(root)).embedded == 0


@needs_model
def test_switching_the_model_embeds_every_passage_again(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    first = embed_vault(Vault(root))
    assert embed_vault(Vault(root)).embedded == 0
    (root / ".vaultmem" / "config.toml").write_text(
        f'[semantic]\nmodel = "{MODEL}"\npooling = "cls"\n', encoding="utf-8")
    again = embed_vault(Vault(root))
    assert again.embedded == again.texts == first.texts and again.model != first.model


@needs_model
def test_a_damaged_vector_store_is_embedded_again(tmp_path: Path) -> None:
    root, path, done = embedded(tmp_path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"\x00garbage" * 4096)
    assert embed_vault(Vault(root)).embedded == done.texts
    assert search(Vault(root), QUESTION)[0].id == "People/Priya"


@needs_model
def test_a_store_damaged_inside_is_started_over_with_a_notice(tmp_path: Path) -> None:
    root, path, done = embedded(tmp_path)
    with sqlite3.connect(path) as db:  # the page of the packed vectors, which queries read
        (page,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'packed'"
                             ).fetchone()
        size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size : page * size] = b"\xff" * size
    path.write_bytes(bytes(data))
    damaged = Vault(root)
    assert [hit.id for hit in search(damaged, "green tea")] == ["People/Priya"]
    assert any("was damaged and is started over" in n for n in damaged.notices)
    assert embed_vault(Vault(root)).embedded == done.texts


@needs_model
def test_index_embed_reports_and_explain_shows_both_parts(tmp_path: Path) -> None:
    root = make(tmp_path / "v")
    runner = CliRunner()
    first = runner.invoke(cli, ["--vault", str(root), "index", "--embed", "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["embedded"] == data["texts"] > 0 and data["waiting"] == 0
    shown = runner.invoke(cli, ["--vault", str(root), "search", "cup of tea", "--explain"])
    assert "matches cup, tea" in shown.stdout and "close in meaning (cosine" in shown.stdout


def test_index_embed_without_a_model_says_how_to_set_one(tmp_path: Path) -> None:
    (tmp_path / ".obsidian").mkdir()
    result = CliRunner().invoke(cli, ["--vault", str(tmp_path), "index", "--embed"])
    assert result.exit_code == 2
    assert "[semantic] model =" in result.stderr and "vaultmem[semantic]" in result.stderr


def test_without_fastembed_recall_uses_keywords_and_says_how_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make(tmp_path / "v")
    monkeypatch.setitem(sys.modules, "fastembed", None)  # import fastembed fails
    for cached in (embedder._folder_model, embedder._named_model):
        cached.cache_clear()
    result = CliRunner().invoke(cli, ["--vault", str(root), "search", "green tea"])
    assert result.exit_code == 0 and "[[People/Priya]]" in result.stdout
    assert "pip install 'vaultmem[semantic]'" in result.stderr
    assert "keywords alone" in result.stderr
    embedding = CliRunner().invoke(cli, ["--vault", str(root), "index", "--embed"])
    assert embedding.exit_code == 2 and "fastembed, which is not installed" in embedding.stderr


def test_a_model_folder_without_its_files_is_refused_clearly(tmp_path: Path) -> None:
    pytest.importorskip("fastembed")
    (tmp_path / "model").mkdir()
    root = make(tmp_path / "v", f'model = "{tmp_path / "model"}"')
    result = CliRunner().invoke(cli, ["--vault", str(root), "index", "--embed"])
    assert result.exit_code == 2
    assert f"the model folder {tmp_path / 'model'} has no model.onnx" in result.stderr


def test_an_unknown_model_name_is_refused_clearly(tmp_path: Path) -> None:
    pytest.importorskip("fastembed")
    root = make(tmp_path / "v", 'model = "no-such/model"')
    result = CliRunner().invoke(cli, ["--vault", str(root), "index", "--embed"])
    assert result.exit_code == 2 and "neither a folder nor a model fastembed knows" in \
        result.stderr


@pytest.mark.parametrize(("settings", "message"), [
    ("weight = 0", "weight must be a number above 0"),
    ("search_weight = 5", "search_weight must be a number above 0, at most 4"),
    ('weight = "half"', "weight must be a number above 0"),
    ("threads = -1", "threads must be a whole number"),
    ('pooling = "max"', "pooling must be one of mean, cls"),
    ('modle = "x"', "unknown [semantic] setting 'modle'"),
    ("model = 3", "model must be a string"),
    ("min_cosine = 1", "min_cosine must be a number from -1 to below 1"),
    ('languages = ["klingon"]', "languages must be a list of what the model reads"),
    ('languages = "english"', "languages must be a list of what the model reads"),
])
def test_bad_semantic_settings_are_refused(tmp_path: Path, settings: str, message: str) -> None:
    root = make(tmp_path / "v", settings)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        load_config(root)


def test_a_relative_model_folder_is_read_from_the_vault(tmp_path: Path) -> None:
    root = make(tmp_path / "v", 'model = "models/mine"\nweight = 0.8')
    (root / "models" / "mine").mkdir(parents=True)
    semantic = load_config(root).semantic
    assert semantic.folder == (root / "models" / "mine").resolve() and semantic.weight == 0.8
