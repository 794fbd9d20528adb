"""Search queries for the benchmarks: players' questions cut from the documents' own titles.

A query is 2 to 4 words (4 letters or more) of a random title in its language, in random order;
about a quarter carry a typo (two neighbouring letters swapped), as a hurried player types.
All queries of a set are distinct, so no response or query cache can answer one from another.
"""
from __future__ import annotations

import random
import re
from typing import Iterable

from rules_index.search.documents import Document

WORD = re.compile(r"[^\W\d_]{4,}")
TYPO_RATE = 0.25


def typo(word: str, rng: random.Random) -> str:
    if len(word) < 5:
        return word
    i = rng.randrange(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def make_queries(docs: Iterable[Document], count: int, seed: int = 7, typo_rate: float = TYPO_RATE) -> list[tuple[str, str]]:
    """``count`` distinct (lang, query) pairs from the titles of ``docs`` (FAQ entries first)."""
    rng = random.Random(seed)
    titles = [(d.lang, d.title) for d in docs if d.kind == "faq"]
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    attempts = 0
    while len(out) < count and attempts < count * 50:
        attempts += 1
        lang, title = rng.choice(titles)
        words = list(dict.fromkeys(WORD.findall(title)))
        if len(words) < 2:
            continue
        picked = rng.sample(words, k=min(len(words), rng.randint(2, 4)))
        if rng.random() < typo_rate:
            j = rng.randrange(len(picked))
            picked[j] = typo(picked[j], rng)
        text = " ".join(picked)
        if (lang, text.lower()) in seen:
            continue
        seen.add((lang, text.lower()))
        out.append((lang, text))
    return out
