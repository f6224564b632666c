"""The vector store and its embedding runs, with a stand-in model (no fastembed needed): what is
embedded, what is kept, what is started over."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from vaultmem.index.embedder import Embedder  # noqa: E402
from vaultmem.index.vector_sync import embed_passages  # noqa: E402
from vaultmem.index.vectors import VectorStore, nearest, quantize  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

DIM = 8


class Words:
    """A stand-in model: a text's vector counts its words' hashes in ``DIM`` buckets."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.seen: list[str] = []
        self.fail_after = fail_after

    def passage_embed(self, texts: list[str], batch_size: int) -> Iterator[np.ndarray]:
        for text in texts:
            if self.fail_after is not None and len(self.seen) >= self.fail_after:
                raise RuntimeError("killed")
            self.seen.append(text)
            yield vector(text)

    def query_embed(self, texts: list[str]) -> Iterator[np.ndarray]:
        return (vector(text) for text in texts)


def vector(text: str) -> np.ndarray:
    """A unit vector of ``text``'s words."""
    out = np.zeros(DIM, dtype=np.float32)
    for word in text.lower().split():
        out[hashlib.sha256(word.encode()).digest()[0] % DIM] += 1
    out[0] += 0.01
    return out / np.linalg.norm(out)


def write(root: Path, name: str, text: str) -> None:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text, encoding="utf-8")


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "v"
    (root / ".obsidian").mkdir(parents=True)
    for number in range(6):
        write(root, f"Note {number}.md", f"# Note {number}\n\nFirst words of note {number}.\n\n"
                                         f"- item one {number}\n- item two {number}\n")
    write(root, "Other/Note 0.md", "# Note 0\n\nFirst words of note 0.\n")  # as in Note 0
    return Vault(root)


def run(vault: Vault, model: Words, identity: str = "words", **options: object) -> object:
    _ = vault.notes  # the index is current first
    store = VectorStore(vault.store.folder, identity, DIM)
    try:
        return embed_passages(vault.store, store, Embedder(identity, DIM, model),
                              **options)  # type: ignore[arg-type]
    finally:
        store.close()


def texts(vault: Vault) -> int:
    _ = vault.notes
    return len({row[0] for row in vault.store.query("SELECT digest FROM passages")})


def test_every_text_is_embedded_once_and_an_unchanged_vault_embeds_nothing(vault: Vault) -> None:
    model = Words()
    done = run(vault, model)
    assert done.embedded == done.texts == texts(vault) == len(set(model.seen))
    assert len(model.seen) == len(set(model.seen))  # two notes' same passage: embedded once
    assert sum(text.endswith(": First words of note 0.") for text in model.seen) == 1
    assert run(Vault(vault.root), model).embedded == 0


def test_an_edit_embeds_only_the_passages_it_changed(vault: Vault) -> None:
    run(vault, Words())
    write(vault.root, "Note 3.md", "# Note 3\n\nFirst words of note 3.\n\n- item one 3\n"
                                   "- a new item\n")
    model = Words()
    done = run(Vault(vault.root), model)
    assert len(model.seen) == done.embedded == 1 and model.seen[0].endswith(": a new item")


def test_a_run_that_dies_keeps_the_batches_it_finished(vault: Vault,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vaultmem.index.vector_sync.BATCH", 4)
    with pytest.raises(RuntimeError):
        run(vault, Words(fail_after=9))
    model = Words()
    done = run(Vault(vault.root), model)
    assert done.embedded == texts(vault) - 8 == len(model.seen)


def test_a_query_embeds_a_few_but_leaves_many_for_index_embed(vault: Vault) -> None:
    done = run(vault, Words(), most=3)
    assert (done.embedded, done.waiting) == (0, texts(vault))
    done = run(Vault(vault.root), Words())
    assert (done.embedded, done.waiting) == (texts(vault), 0)


def test_another_model_starts_the_store_over(vault: Vault) -> None:
    run(vault, Words())
    assert run(Vault(vault.root), Words(), identity="other").embedded == texts(vault)


def test_a_damaged_store_is_started_over(vault: Vault) -> None:
    run(vault, Words())
    store = VectorStore(vault.store.folder, "words", DIM)
    for suffix in ("-wal", "-shm"):
        Path(f"{store.path}{suffix}").unlink(missing_ok=True)
    store.path.write_bytes(b"not a database" * 1000)
    assert run(Vault(vault.root), Words()).embedded == texts(vault)


def test_a_rebuilt_index_keeps_every_vector(vault: Vault) -> None:
    run(vault, Words())
    vault.store.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{vault.store.path}{suffix}").unlink(missing_ok=True)
    fresh = Vault(vault.root)
    done = run(fresh, Words())
    assert done.embedded == 0 and done.texts == texts(fresh)


def test_packed_vectors_find_the_nearest_text(vault: Vault) -> None:
    run(vault, Words())
    store = VectorStore(vault.store.folder, "words", DIM)
    matrix = store.matrix()
    store.close()
    assert len(matrix.digests) == texts(vault)
    best = nearest(matrix, vector("Note 4: item two 4"), limit=3)
    (text,) = vault.store.query("SELECT text FROM passages WHERE digest = ?", (best[0][0],))[0]
    assert text == "item two 4" and best[0][1] == pytest.approx(1.0, abs=0.01)
    assert [c for _, c in best] == sorted((c for _, c in best), reverse=True)


def test_int8_vectors_keep_cosines_within_a_hundredth() -> None:
    rng = np.random.default_rng(7)
    floats = rng.normal(size=(200, 384)).astype(np.float32)
    floats /= np.linalg.norm(floats, axis=1, keepdims=True)
    rows, scales = quantize(floats)
    approx = rows.astype(np.float32) * scales[:, None]
    assert np.abs(approx @ floats[0] - floats @ floats[0]).max() < 0.01


def test_after_edits_the_packed_rows_are_every_current_text_in_order(vault: Vault) -> None:
    run(vault, Words())
    write(vault.root, "Note 2.md", "# Note 2\n\nOther words now.\n")
    (vault.root / "Note 5.md").unlink()
    write(vault.root, "Note 9.md", "# Note 9\n\n- a list item\n")
    fresh = Vault(vault.root)
    run(fresh, Words())
    store = VectorStore(fresh.store.folder, "words", DIM)
    matrix = store.matrix()
    stored = {row[0]: row[1:] for row in store.db.execute("SELECT * FROM vectors")}
    store.close()
    current = {row[0] for row in fresh.store.query("SELECT digest FROM passages")}
    assert matrix.digests == sorted(current) == sorted(stored)
    for at, digest in enumerate(matrix.digests):
        assert matrix.vectors[at].tobytes() == stored[digest][0]
        assert matrix.scales[at] == pytest.approx(stored[digest][1])
