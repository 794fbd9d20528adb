"""A common mistake is a wrong rule: wherever the site lists one (game page, answers, search
results, the 404 page's suggestions) it is struck through and marked wrong, never shown as a plain
statement a reader skimming at the table would take for the rule."""
from __future__ import annotations

import html
import re

import pytest

from rules_index.content import LANGS
from rules_index.render import plain_text


def _words(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def unrefuted(page: str) -> str:
    """The page's main part as a reader sees it, less what is struck through and marked wrong."""
    main = page[page.index("<main"):page.index("</main>")]
    return _words(re.sub(r'<span class="wrong">.*?</s>', " ", main, flags=re.S))


def mistakes_of(app):
    with app.app_context():
        from rules_index.web.state import library

        return [(game, mistake) for game in library() for mistake in game.mistakes]


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_states_a_common_mistake(client, app, lang):
    shown = 0
    for game, mistake in mistakes_of(app):
        statement = _words(plain_text(mistake.text(lang).mistake))
        pages = [f"/{lang}/{game.slug}/", f"/{lang}/search?q={statement}"]
        if mistake.faq:
            pages.append(f"/{lang}/{game.slug}/faq/{mistake.faq}")
        for url in pages:
            page = client.get(url).get_data(as_text=True)
            shown += statement in _words(page[page.index("<main"):])
            assert statement not in unrefuted(page), (url, statement)
    assert shown > 0  # the mistakes are on the pages at all, refuted


def test_the_404_pages_suggestions_refute_a_mistake(client, app):
    game, mistake = mistakes_of(app)[0]
    words = "-".join(plain_text(mistake.text("en").mistake).split()[:6])
    page = client.get(f"/en/{game.slug}/{words}").get_data(as_text=True)
    statement = _words(plain_text(mistake.text("en").mistake))
    assert statement in _words(page)
    assert statement not in unrefuted(page)
