"""Every game of the content is searchable: each FAQ question, as a reader would type it, finds
its entry, with the game filter and without."""
from __future__ import annotations

import pytest

from apptools import real_library

LANGS = ("de", "en", "it")


@pytest.mark.parametrize("slug", [game.slug for game in real_library()])
def test_every_question_finds_its_entry(index, slug):
    for entry in real_library().game(slug).faq:
        for lang in LANGS:
            question = entry.text(lang).question
            filtered = [(h.game, h.entry) for h in index.search(question, lang, game=slug, limit=10).hits]
            assert (slug, entry.id) in filtered, (lang, question, filtered)
            anywhere = [(h.game, h.entry) for h in index.search(question, lang, limit=10).hits]
            assert any(game == slug for game, _ in anywhere), (lang, question, anywhere)
