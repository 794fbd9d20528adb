"""Rendering a citation for readers: ``Regelheft: S. 2 · Dieb`` / ``Rulebook: p. 2 · Thief``."""
from __future__ import annotations

from .schema import Citation, Source

PAGE_PREFIX = {"de": "S.", "en": "p.", "it": "p."}
PAGES_PREFIX = {"de": "S.", "en": "pp.", "it": "pp."}


def page_text(pages: tuple[int, int] | None, lang: str) -> str | None:
    if pages is None:
        return None
    first, last = pages
    if first == last:
        return f"{PAGE_PREFIX[lang]} {first}"
    return f"{PAGES_PREFIX[lang]} {first}–{last}"


def citation_label(citation: Citation, source: Source, lang: str) -> str:
    parts = [source.label.get(lang) + ":"]
    pages = page_text(citation.pages, lang)
    if pages:
        parts.append(pages)
        parts.append("·")
    parts.append(citation.section.get(lang))
    return " ".join(parts)


def pages_value(pages: tuple[int, int] | None) -> str | None:
    """The page or range as data for the API: "2" or "5-6"."""
    if pages is None:
        return None
    first, last = pages
    return str(first) if first == last else f"{first}-{last}"
