"""Synthetic games for the scale benchmark: rule text in de/en/it assembled from the content's own words.

Each language gets two word-level Markov chains (order 2) trained on the real content: one on the
questions (FAQ questions, mistakes, section headings) and one on the prose (answers, corrections,
rule sections, glossary definitions). A synthetic FAQ entry is a question and an answer walked
from those chains, keywords sampled from the real keywords of that language, and the synthetic
game's name. Word frequencies, sentence lengths and the mix of rare and common words therefore
follow the real content; only the combinations are new. Everything is seeded.
"""
from __future__ import annotations

import random
import re
from collections import defaultdict
from typing import Iterator

from rules_index.content import LANGS, Library
from rules_index.search.documents import Document, library_documents

START = ("", "")
END = None
ENTRIES_PER_GAME = 50
# Sentences per synthetic answer (real answers average 48 words; this gives about 50).
ANSWER_SENTENCES = (2, 5)
_SENTENCE = re.compile(r"(?<=[.!?:])\s+")


class Chain:
    """An order-2 word Markov chain over sentences."""

    def __init__(self, sentences: list[str]):
        table: dict[tuple, list] = defaultdict(list)
        for sentence in sentences:
            words = sentence.split()
            if len(words) < 3:
                continue
            state = START
            for word in words:
                table[state].append(word)
                state = (state[1], word)
            table[state].append(END)
        self.table = dict(table)
        if START not in self.table:
            raise ValueError("no sentences to learn from")

    def sentence(self, rng: random.Random, max_words: int = 40) -> str:
        words: list[str] = []
        state = START
        for _ in range(max_words):
            word = rng.choice(self.table[state])
            if word is END:
                break
            words.append(word)
            state = (state[1], word)
        if words and words[-1][-1] not in ".?!:":
            words[-1] += "."
        return " ".join(words)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(" ".join(text.split())) if s]


class Generator:
    """Synthetic FAQ documents in the same form as ``library_documents`` yields them."""

    def __init__(self, library: Library):
        questions: dict[str, list[str]] = defaultdict(list)
        prose: dict[str, list[str]] = defaultdict(list)
        keywords: dict[str, list[str]] = defaultdict(list)
        for doc in library_documents(library):
            if doc.kind in ("faq", "mistake") or doc.kind == "section":
                questions[doc.lang].append(doc.title)
            prose[doc.lang].extend(_sentences(doc.body))
            if doc.kind == "faq":
                keywords[doc.lang].extend(doc.keywords)
        self.questions = {lang: Chain(questions[lang]) for lang in LANGS}
        self.prose = {lang: Chain(prose[lang]) for lang in LANGS}
        self.keywords = {lang: sorted(set(keywords[lang])) for lang in LANGS}
        self.title_words = sorted({w for t in questions["de"] + questions["en"] + questions["it"]
                                   for w in re.findall(r"[^\W\d_]{5,}", t)})

    def game_name(self, rng: random.Random) -> str:
        return " ".join(w.capitalize() for w in rng.sample(self.title_words, 2))

    def entry(self, rng: random.Random, game: str, name: str, entry: str) -> Iterator[Document]:
        for lang in LANGS:
            question = self.questions[lang].sentence(rng, 24)
            answer = " ".join(self.prose[lang].sentence(rng) for _ in range(rng.randint(*ANSWER_SENTENCES)))
            words = rng.sample(self.keywords[lang], k=min(len(self.keywords[lang]), rng.randint(4, 12)))
            yield Document("faq", game, entry, lang, question, answer, [*words, name])

    def documents(self, entries: int, seed: int = 1) -> Iterator[Document]:
        """``entries`` FAQ entries x 3 languages, in games of ``ENTRIES_PER_GAME`` entries."""
        rng = random.Random(seed)
        name = ""
        game = ""
        for i in range(entries):
            if i % ENTRIES_PER_GAME == 0:
                game = f"synth-{i // ENTRIES_PER_GAME:05d}"
                name = self.game_name(rng)
            yield from self.entry(rng, game, name, f"entry-{i:06d}")
