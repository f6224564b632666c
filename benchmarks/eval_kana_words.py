"""Questions with kana words asked of a Japanese vault: do the notes listed hold a word of it?

    python benchmarks/eval_kana_words.py [--vault mitsuoka-ja] [--most 30]

Japanese is indexed in pairs of characters, so ``ータ`` of ``コンピュータ`` is also a pair of
``データ``: a note holding a piece of a word of the question is not about it. Each question of
``QUESTIONS`` (katakana words of the vault's notes, and one it does not hold) is asked of
``relevant_passages`` (the Relevant section of a context, ``--most`` passages) and of
``search``; a note counts as holding the question when its name or text holds one of the
question's words whole (labels by reading the text, as a person would check it). Printed per
question and in total: notes listed, how many hold a word, how many notes hold one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from vaultmem.recall.context.answer_passages import relevant_passages  # noqa: E402
from vaultmem.recall.search import search  # noqa: E402
from vaultmem.vault import Vault  # noqa: E402

CORPORA = HERE.parents[1] / "shared" / "corpora"
QUESTIONS = ["量子コンピュータ 勉強会", "プロビジョニングプロファイル 作成",
             "ノーコードツール", "ハッカソン 参加", "データ型", "デーツ", "パスワード",
             "ベクトル化", "コンプライアンス", "スクリプト", "アプリ 配布", "ライセンス",
             "クラウド 証明書", "エンタープライズ 配布", "機械学習モデル", "コンテキスト",
             "インストール", "ディレクトリ", "プラグイン", "ベータ版 テスト"]
DAY = dt.date(2026, 12, 6)


def texts_of(root: Path) -> dict[str, str]:
    """Each note's id and its name and text."""
    return {path.relative_to(root).with_suffix("").as_posix():
            path.stem + "\n" + path.read_text(encoding="utf-8", errors="replace")
            for path in sorted(root.rglob("*.md")) if ".obsidian" not in path.parts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", default="mitsuoka-ja")
    parser.add_argument("--most", type=int, default=30)
    args = parser.parse_args()
    root = CORPORA / args.vault
    vault, texts = Vault(root), texts_of(root)
    totals = {"context": [0, 0], "search": [0, 0]}
    holding_all = 0
    print("| question | holding a word | context: listed / holding | search: listed / holding |")
    print("| --- | ---: | ---: | ---: |")
    for question in QUESTIONS:
        holding = {n for n, text in texts.items() if any(w in text for w in question.split())}
        asked = dict.fromkeys(found.passage.note for found in relevant_passages(
            vault, question, today=DAY, most=args.most))
        found = [hit.id for hit in search(vault, question)]
        cells = []
        for name, listed in (("context", list(asked)), ("search", found)):
            right = sum(note in holding for note in listed)
            totals[name][0] += len(listed)
            totals[name][1] += right
            cells.append(f"{len(listed)} / {right}")
        holding_all += len(holding)
        print(f"| {question} | {len(holding)} | {cells[0]} | {cells[1]} |")
    print(f"| all {len(QUESTIONS)} | {holding_all} | " + " | ".join(
        f"{listed} / {right} ({right / listed:.2f})" for listed, right in totals.values()) + " |")


if __name__ == "__main__":
    main()
