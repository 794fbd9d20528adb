"""The C baseline: the same documents in SQLite FTS5 (bm25, ``unicode61 remove_diacritics 2``).

One row per document with the columns our index weighs (title, keywords, body); a query is the
OR of its words (as our search is), ranked by bm25 with our field weights (title 4, keywords 2.5,
body 1), the top hits returned with their title and a highlighted snippet of the body, as ours are.
"""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Iterable

from rules_index.search.documents import Document

_WORD = re.compile(r"[^\W_]+")


class Fts5Index:
    def __init__(self, path: Path | str = ":memory:", create: bool = True):
        self.db = sqlite3.connect(str(path))
        if create:
            self.db.execute(
                "CREATE VIRTUAL TABLE docs USING fts5("
                "key UNINDEXED, title, keywords, body, tokenize = 'unicode61 remove_diacritics 2')"
            )

    @classmethod
    def open(cls, path: Path | str) -> "Fts5Index":
        """An index written before (by another process)."""
        return cls(path, create=False)

    def add(self, docs: Iterable[Document]) -> int:
        rows = ((d.key, d.title, " ".join(d.keywords), d.body) for d in docs)
        with self.db:
            count = self.db.executemany("INSERT INTO docs (key, title, keywords, body) VALUES (?, ?, ?, ?)", rows).rowcount
        self.db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
        self.db.commit()
        return count

    @staticmethod
    def match_expression(text: str, drop: frozenset[str] = frozenset()) -> str | None:
        words = [w for w in dict.fromkeys(w.lower() for w in _WORD.findall(text)) if w not in drop]
        return " OR ".join(f'"{w}"' for w in words) if words else None

    def search(self, text: str, limit: int = 10, drop: frozenset[str] = frozenset()) -> list[tuple[str, str, str]]:
        """The top ``limit`` (key, title, snippet); ``drop``: words left out of the query (a
        variant without stop words: unicode61 has no stop-word list, our analyzers do)."""
        expression = self.match_expression(text, drop)
        if expression is None:
            return []
        return self.db.execute(
            "SELECT key, title, snippet(docs, 3, '<mark>', '</mark>', ' … ', 24) FROM docs "
            "WHERE docs MATCH ? ORDER BY bm25(docs, 0.0, 4.0, 2.5, 1.0) LIMIT ?",
            (expression, limit),
        ).fetchall()

    def close(self) -> None:
        self.db.close()
