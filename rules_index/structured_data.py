"""schema.org JSON-LD for search engines: FAQPage for a game, QAPage for one answer (pure functions)."""
from __future__ import annotations

from .content import Game
from .content.schema import Faq
from .present import permalink
from .render import plain_text


def faq_page(game: Game, lang: str, base: str) -> dict:
    return {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "name": game.title(lang),
        "inLanguage": lang,
        "url": f"{base}/{lang}/{game.slug}/",
        "mainEntity": [
            {
                "@type": "Question",
                "name": faq.text(lang).question,
                "url": base + permalink(lang, game.slug, faq.id),
                "acceptedAnswer": {"@type": "Answer", "text": plain_text(faq.text(lang).answer)},
            }
            for faq in game.faq
        ],
    }


def qa_page(game: Game, faq: Faq, lang: str, base: str, date_modified: str) -> dict:
    url = base + permalink(lang, game.slug, faq.id)
    text = faq.text(lang)
    return {
        "@context": "https://schema.org",
        "@type": "QAPage",
        "inLanguage": lang,
        "url": url,
        "mainEntity": {
            "@type": "Question",
            "name": text.question,
            "text": text.question,
            "answerCount": 1,
            "dateModified": date_modified,
            "about": {"@type": "Game", "name": game.title(lang)},
            "acceptedAnswer": {
                "@type": "Answer",
                "text": plain_text(text.answer),
                "url": url,
                "dateModified": date_modified,
                "citation": _citation(game, faq, lang),
            },
        },
    }


def _citation(game: Game, faq: Faq, lang: str) -> str:
    """As the page cites it, with the edition whose page numbers these are where the reader's
    language has another."""
    edition = game.pages_edition(faq.citation, lang)
    cited = game.cite(faq.citation, lang)
    return f"{cited} · {edition.name.get(lang)}" if edition is not None else cited
