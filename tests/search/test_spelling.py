"""The in-memory corrections give Whoosh's own suggester's answers, word for word."""
from __future__ import annotations

import random

import pytest

from rules_index.search import schema as f
from rules_index.search.analysis import LANGS
from rules_index.search.spelling import Spelling, within


def typos(words: list[str], rng: random.Random, count: int) -> list[str]:
    """Words with one or two letters dropped, doubled, swapped or replaced (the first one kept)."""
    out = []
    for word in rng.sample(words, min(count, len(words))):
        chars = list(word)
        for _ in range(rng.choice((1, 2))):
            at = rng.randrange(1, len(chars)) if len(chars) > 1 else 0
            edit = rng.choice(("drop", "double", "swap", "replace"))
            if edit == "drop" and len(chars) > 2:
                del chars[at]
            elif edit == "double":
                chars.insert(at, chars[at])
            elif edit == "swap" and at + 1 < len(chars):
                chars[at], chars[at + 1] = chars[at + 1], chars[at]
            else:
                chars[at] = rng.choice("aeioulnrst")
        out.append("".join(chars))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_corrections_are_whooshs(index, lang):
    gen = index.generation()
    searcher = gen.searcher()
    reader = searcher.reader()
    field = f.words_field(lang)
    words = sorted(w for w in (reader.schema[field].from_bytes(raw) for raw in reader.lexicon(field)) if len(w) >= 4)
    spelling = Spelling.read(reader, field)
    rng = random.Random(f"spelling-{lang}")
    compared = 0
    for word in typos(words, rng, 60) + ["xqzvbnm", "zz"]:
        for maxdist in (1, 2):
            assert spelling.suggestions(reader, word, maxdist) == searcher.suggest(field, word, limit=8, maxdist=maxdist, prefix=1), (word, maxdist)
            compared += 1
    assert compared >= 100


def test_edit_distance():
    assert within("ausstelung", "ausstellung", 1)
    assert not within("ausstelung", "ausstellungen", 1)
    assert within("kommisar", "kommissar", 1)
    assert not within("abc", "xyz", 2)
