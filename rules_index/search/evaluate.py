"""Search relevance on a set of rule questions: recall@3 and MRR@10, overall and per language.

``python -m rules_index.search.evaluate eval/search-queries.yaml`` runs each question through the
search API of an app on the real content and prints the figures. A question counts as found at
rank r when the expected FAQ entry is the r-th FAQ hit.
"""
from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML


@dataclass(frozen=True)
class Case:
    lang: str
    query: str
    game: str
    faq: str


@dataclass
class Scores:
    cases: int = 0
    found_at_3: int = 0
    reciprocal: float = 0.0

    @property
    def recall_at_3(self) -> float:
        return self.found_at_3 / self.cases if self.cases else 0.0

    @property
    def mrr(self) -> float:
        return self.reciprocal / self.cases if self.cases else 0.0


def load_cases(path: Path) -> list[Case]:
    rows = YAML(typ="safe").load(Path(path).read_text(encoding="utf-8")) or []
    cases = []
    for row in rows:
        game, faq = row["expect"].split("/", 1)
        cases.append(Case(row["lang"], row["q"], game, faq))
    return cases


def faq_rank(client, case: Case, limit: int = 10) -> int | None:
    """1-based rank of the expected entry among the FAQ hits, or None beyond the first ``limit``."""
    response = client.get("/api/v1/search", query_string={"q": case.query, "lang": case.lang, "limit": 50})
    if response.status_code != 200:
        raise RuntimeError(f"search failed for {case.query!r}: {response.status_code} {response.get_json()}")
    faq_hits = [(h["game"], h["id"]) for h in response.get_json()["hits"] if h["type"] == "faq"][:limit]
    try:
        return faq_hits.index((case.game, case.faq)) + 1
    except ValueError:
        return None


def evaluate(client, cases: list[Case]) -> tuple[dict[str, Scores], list[tuple[Case, int | None]]]:
    scores: dict[str, Scores] = defaultdict(Scores)
    misses = []
    for case in cases:
        rank = faq_rank(client, case)
        for key in ("all", case.lang):
            s = scores[key]
            s.cases += 1
            if rank is not None and rank <= 3:
                s.found_at_3 += 1
            if rank is not None:
                s.reciprocal += 1.0 / rank
        if rank is None or rank > 1:
            misses.append((case, rank))
    return dict(scores), misses


def main(argv: list[str]) -> int:
    from app import create_app

    path = Path(argv[1] if len(argv) > 1 else "eval/search-queries.yaml")
    app = create_app()
    scores, misses = evaluate(app.test_client(), load_cases(path))
    print(f"{'set':<6}{'cases':>6}{'recall@3':>10}{'MRR@10':>9}")
    for key in ["all", *sorted(k for k in scores if k != "all")]:
        s = scores[key]
        print(f"{key:<6}{s.cases:>6}{s.recall_at_3:>10.3f}{s.mrr:>9.3f}")
    for case, rank in misses:
        print(f"  rank {rank or '-':>2}: [{case.lang}] {case.query!r} -> {case.game}/{case.faq}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
