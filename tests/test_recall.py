"""Search, related and index on the sample vault."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from vaultmem.recall.context.answer_passages import relevant_passages
from vaultmem.recall.related.notes import related
from vaultmem.recall.search import SNIPPET, Filters, search, snippet
from vaultmem.recall.token_budget import trim
from vaultmem.vault import Vault

from .conftest import SAMPLE, hash_tree
from .test_cli import run


@pytest.fixture(scope="module")
def vault() -> Vault:
    return Vault(SAMPLE, use_cache=False)


def ids(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [hit.id for hit in hits]


def test_keyword_query_finds_the_decision(vault: Vault) -> None:
    hits = search(vault, "which OCR engine did we choose", limit=5)
    decision = next(hit for hit in hits[:3] if hit.id == "Decisions/Use PaddleOCR")
    assert (decision.line, decision.snippet) == (
        17, "Switch the OCR engine of [[DataFlow]] from Tesseract to PaddleOCR (PP-OCRv4).")
    assert "Decisions/Use Tesseract for OCR" in ids(search(vault, "which OCR engine did we choose"))
    rafael = next(hit for hit in hits if hit.id == "Agents/Rafael")
    assert (rafael.line, rafael.snippet[:25]) == (10, "Runs the OCR pipeline of ")


def test_word_forms_meet(vault: Vault) -> None:
    # "prices" meets "Price", "deciding" meets "decide" (a heading's words are its passages')
    assert "Decisions/Charge per document" in ids(search(vault, "prices", limit=3))
    assert ids(search(vault, "deciding", limit=1)) == ["Decisions/Add handwriting support"]
    assert "People/Priya Nair" in ids(search(vault, "bookkeepers", limit=5))


def test_typo_in_a_name(vault: Vault) -> None:
    hits = search(vault, "Priya Niar", limit=1)
    assert ids(hits) == ["People/Priya Nair"]
    assert hits[0].reasons[0] == "name 'Priya Nair' is close to the query"


def test_filters(vault: Vault) -> None:
    decisions = search(vault, "ocr", filters=Filters(type="decision"))
    assert {hit.type for hit in decisions} == {"decision"}
    assert set(ids(decisions[:3])) == {"Decisions/Use PaddleOCR", "Decisions/Use Tesseract for OCR",
                                       "Decisions/Add handwriting support"}
    tagged = ids(search(vault, "pilot", filters=Filters(tag="customer")))
    assert "Meetings/2026-11-20 Pilot review" in tagged  # tagged customer/priya
    assert all(any(t.split("/")[0] == "customer" for t in vault.notes[i].tag_names())
               for i in tagged)
    assert ids(search(vault, "ocr", filters=Filters(status="superseded"))) == [
        "Decisions/Use Tesseract for OCR"]
    assert ids(search(vault, "pilot", filters=Filters(since="2026-11-28", type="daily"))) == [
        "Daily/2026-11-28"]
    assert all(h.startswith("People/") for h in ids(search(vault, "ocr",
                                                           filters=Filters(folder="People"))))


def test_chinese_query(vault: Vault) -> None:
    chinese = [note for note in vault.notes.values()
               if any("\u4e00" <= c <= "\u9fff" for c in (SAMPLE / note.path).read_text())]
    assert chinese
    text = (SAMPLE / chinese[0].path).read_text()
    run_ = next(word for word in text.split() if any("\u4e00" <= c <= "\u9fff" for c in word))
    phrase = "".join(c for c in run_ if "\u4e00" <= c <= "\u9fff")[:3]
    assert chinese[0].id in ids(search(vault, phrase, limit=3))


def test_graph_evidence_brings_linked_notes(vault: Vault) -> None:
    hits = search(vault, "deskew", limit=10)
    rafael = next(h for h in hits if h.id == "Agents/Rafael")
    assert any("a strong hit" in reason for reason in rafael.reasons)


def test_results_are_deterministic(vault: Vault) -> None:
    first = [h.to_dict() for h in search(vault, "pilot pricing decision")]
    second = [h.to_dict() for h in search(Vault(SAMPLE, use_cache=False),
                                          "pilot pricing decision")]
    assert first == second


def test_search_cli_json_and_cache(sample: Path) -> None:
    code, out, _ = run(sample, "search", "deskew", "--json", "--limit", "2")
    data = json.loads(out)
    assert code == 0 and data["query"] == "deskew"
    assert list(data["results"][0]) == ["id", "path", "title", "type", "score", "line",
                                        "snippet", "reasons", "passages"]
    assert data["results"][0]["passages"] == []
    shown = json.loads(run(sample, "search", "deskew", "--json", "--passages", "2")[1])
    best = shown["results"][0]
    assert len(best["passages"]) == 2 and best["passages"][0]["line"] == best["line"]
    assert [p["score"] for p in best["passages"]] == sorted(
        (p["score"] for p in best["passages"]), reverse=True)
    assert all("deskew" in " ".join([p["text"], *p["headings"], best["title"]]).casefold()
               for p in best["passages"])
    run(sample, "daily", "Tried the new zebrafish scanner", "--date", "2026-11-29")
    found = json.loads(run(sample, "search", "zebrafish", "--json")[1])["results"]
    assert found[0]["id"] == "Daily/2026-11-29"
    assert all("a strong hit" in " ".join(r["reasons"]) for r in found[1:])


def test_no_results(sample: Path) -> None:
    assert run(sample, "search", "qwertyuiop") == (0, "No results.\n", "")


def test_related_reasons(vault: Vault) -> None:
    items = related(vault.graph, "Decisions/Use Tesseract for OCR", limit=5,
                    today=dt.date(2026, 11, 29))
    paddle = next(i for i in items if i.id == "Decisions/Use PaddleOCR")
    assert "[[Use Tesseract for OCR]] links to it" in paddle.reasons
    assert "links to [[Use Tesseract for OCR]]" not in paddle.reasons  # its weight is 0
    lesson = related(vault.graph, "Lessons/Rafael - Deskew before OCR", limit=10,
                     today=dt.date(2026, 11, 29))
    reasons = {i.id: i.reasons for i in lesson}
    assert "same agent [[Rafael]]" in reasons["Lessons/Rafael - Check currency symbol"]


def test_related_cli(sample: Path) -> None:
    code, out, _ = run(sample, "related", "Priya Nair", "--json", "--limit", "3")
    data = json.loads(out)
    assert (code, data["note"]) == (0, "People/Priya Nair")
    assert "Projects/DataFlow" in [r["id"] for r in data["results"]]
    assert run(sample, "related", "Nobody Here")[0] == 1


def test_index_write_is_idempotent_and_not_memory(sample: Path) -> None:
    code, out, _ = run(sample, "index", "--write")
    assert code == 0 and out.splitlines()[0] == "updated _vaultmem/index/Memory index.md"
    before = hash_tree(sample)
    again = run(sample, "index", "--write")[1]
    assert set(line.split()[0] for line in again.splitlines()) == {"unchanged"}
    assert hash_tree(sample) == before
    vault = Vault(sample)
    assert "_vaultmem/index/Index - People" not in vault.notes
    assert vault.index.other["_vaultmem/index/Index - People"] == "generated"
    people = (sample / "_vaultmem/index/Index - People.md").read_text()
    assert "- [[People/Lucy Tan|Lucy Tan]]" in people


def test_index_refuses_to_overwrite_a_users_note(sample: Path) -> None:
    folder = sample / "_vaultmem" / "index"
    folder.mkdir(parents=True)
    (folder / "Memory index.md").write_text("my own notes\n")
    code, _, err = run(sample, "index", "--write")
    assert code == 1 and "was not generated by vaultmem" in err
    assert (folder / "Memory index.md").read_text() == "my own notes\n"


def test_japanese_text_needs_no_spaces(tmp_path: Path) -> None:
    (tmp_path / "会議メモ.md").write_text("来週の会議で請求書の読み取り精度を確認する。\n")
    (tmp_path / "Other.md").write_text("nothing to see\n")
    hits = search(Vault(tmp_path, use_cache=False), "請求書の精度", limit=2)
    assert [h.id for h in hits] == ["会議メモ"]
    assert hits[0].line == 1


def test_a_piece_of_a_kana_word_is_not_a_match(tmp_path: Path) -> None:
    (tmp_path / "勉強会.md").write_text("来週の量子コンピュータ勉強会は火曜日に開催します。\n")
    (tmp_path / "Document.md").write_text("データをキーバリューで保持する。\n")  # ータ, ュー
    (tmp_path / "node_modules.md").write_text("モジュールがインストールされる。\n")  # ュー
    (tmp_path / "データ型.md").write_text("設定できるデータ型の一覧。\n")
    vault = Vault(tmp_path, use_cache=False)
    asked = relevant_passages(vault, "量子コンピュータ 勉強会", today=dt.date(2026, 12, 6))
    assert [found.passage.note for found in asked] == ["勉強会"]
    assert [h.id for h in search(vault, "コンピュータ")] == ["勉強会"]
    assert sorted(h.id for h in search(vault, "データ")) == ["Document", "データ型"]


def test_a_note_found_by_its_links_shows_its_opening(tmp_path: Path) -> None:
    (tmp_path / "Ideas.md").write_text("Evergreen notes grow over time: see [[Gardens]].\n")
    (tmp_path / "Gardens.md").write_text("---\ntags: [place]\n---\n# Gardens\n\n"
                                         "Where plants are kept.\n\nMore about soil.\n")
    (tmp_path / "Tagged.md").write_text("---\ntags: [place]\n---\nSee [[Ideas]]\n")
    (tmp_path / "Bare.md").write_text('---\nkind: plain\nup: "[[Ideas]]"\n---\n')
    hits = {h.id: h for h in search(Vault(tmp_path, use_cache=False), "evergreen")}
    assert (hits["Gardens"].line, hits["Gardens"].snippet) == (
        6, "Where plants are kept. More about soil.")
    assert hits["Gardens"].reasons == ["linked from [[Ideas]], a strong hit"]
    assert (hits["Tagged"].line, hits["Tagged"].snippet) == (4, "See [[Ideas]]")
    assert (hits["Bare"].line, hits["Bare"].snippet) == (2, "kind: plain; up: Ideas")


def test_the_reasons_name_the_query_s_words_as_typed(tmp_path: Path) -> None:
    (tmp_path / "Garden.md").write_text("An evergreen note grows; we decided to keep it.\n")
    (tmp_path / "会議.md").write_text("来週の会議で請求書を確認する。\n")
    vault = Vault(tmp_path, use_cache=False)
    assert search(vault, "Evergreen NOTES decides")[0].reasons == [
        "matches decides, evergreen, notes"]  # not "decid, evergreen, not"
    assert search(vault, "請求書 会議室")[0].reasons[-1] == "matches 会議, 請求書"


def test_snippets_and_trims_never_cut_a_link_or_code() -> None:
    link = "[How to take Smart Notes](How to take Smart Notes - Sönke Ahrens.md)"
    text = "x" * (SNIPPET - 30) + " see " + link + " for more"
    assert snippet(text) == "x" * (SNIPPET - 30) + " see…"
    long = f"[{'Smart Notes ' * 14}](Smart Notes.md)"
    assert snippet(long + " " + "word " * 40) == long + "…"
    code = "`" + "$= dv.pages().length " * 10 + "`"
    assert snippet(code + " and more words " * 3) == code + "…"
    assert snippet("[[" + "Long name " * 20 + "]] tail") == "[[" + "Long name " * 20 + "]]…"
    assert trim("Read " + link + " today.", 12) == "Read…"
