"""Markdown from content to safe HTML: rendered with Python-Markdown, then sanitised by nh3."""
from __future__ import annotations

from functools import lru_cache

import markdown
import nh3
from markupsafe import Markup

_ALLOWED_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "br", "a", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "h3", "h4"}


@lru_cache(maxsize=4096)
def markdown_html(text: str) -> Markup:
    html = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return Markup(nh3.clean(html, tags=_ALLOWED_TAGS, attributes={"a": {"href", "title"}}, link_rel="noopener"))


def plain_text(text: str) -> str:
    """Markdown reduced to its words (for snippets, meta descriptions and the index)."""
    return nh3.clean(str(markdown_html(text)), tags=set()).replace("\n", " ").strip()
