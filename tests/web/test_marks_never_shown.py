"""Readers never see the marks that bind an answer's words to the engine: not on the answer page,
the game page, in the API, the search snippets, the link previews or the structured data."""
from __future__ import annotations

import re

import pytest

from apptools import real_library
from rules_index.content import LANGS

# "[words]{fact=…}", "{.unchecked}", "{.editorial}": any of it, escaped or not.
MARK = re.compile(r"\]\{|\{fact=|\{\.(?:unchecked|editorial)\}|fact=&#34;|fact=&quot;")
LIBRARY = real_library()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", [game.slug for game in LIBRARY])
def test_no_page_or_answer_shows_a_mark(client, slug, lang):
    game = LIBRARY.game(slug)
    assert any("]{fact=" in faq.text(lang).answer for faq in game.faq)  # the content is marked
    urls = [f"/{lang}/{slug}/", f"/api/v1/games/{slug}?lang={lang}"]
    for faq in game.faq:
        urls += [f"/{lang}/{slug}/faq/{faq.id}", f"/api/v1/games/{slug}/faq/{faq.id}?lang={lang}",
                 f"/oembed?url=http://localhost/{lang}/{slug}/faq/{faq.id}&format=json"]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert not MARK.search(response.get_data(as_text=True)), url


@pytest.mark.parametrize("lang,query", [("de", "Dieb Meuchler bestehlen"), ("en", "warlord complete city"),
                                        ("it", "ladro derubare"), ("de", "Gleichstand Sieger")])
def test_search_snippets_show_no_mark(client, lang, query):
    for url in (f"/{lang}/search?q={query}", f"/api/v1/search?q={query}&lang={lang}"):
        body = client.get(url).get_data(as_text=True)
        assert not MARK.search(body), url
