"""Content entries as the JSON API shows them (pure functions: no Flask, no request)."""
from __future__ import annotations

from .content import Game
from .content.citations import pages_value
from .content.schema import Citation, Faq
from .render import markdown_html


def permalink(lang: str, slug: str, faq_id: str) -> str:
    return f"/{lang}/{slug}/faq/{faq_id}"


def citation_json(game: Game, citation: Citation, lang: str) -> dict:
    return {
        "source": citation.source,
        "pages": pages_value(citation.pages),
        "section": citation.section.get(lang),
        "label": game.cite(citation, lang),
    }


def faq_json(game: Game, faq: Faq, lang: str) -> dict:
    text = faq.text(lang)
    return {
        "game": game.slug,
        "id": faq.id,
        "lang": lang,
        "question": text.question,
        "answer_html": str(markdown_html(text.answer)),
        "citation": citation_json(game, faq.citation, lang),
        "editions": list(faq.editions),
        "section": faq.section,
        "url": permalink(lang, game.slug, faq.id),
    }


def game_summary_json(game: Game, lang: str) -> dict:
    return {"slug": game.slug, "title": game.title(lang), "url": f"/{lang}/{game.slug}/"}
