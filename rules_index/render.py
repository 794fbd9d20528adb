"""Markdown from content to safe HTML: rendered with Python-Markdown, then sanitised by nh3."""
from __future__ import annotations

import html
import re
from functools import lru_cache

import markdown
import nh3
from markupsafe import Markup

_BLOCK_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "br", "a", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "h3", "h4"}
_INLINE_TAGS = {"strong", "em", "code", "a", "br"}
_ATTRIBUTES = {"a": {"href", "title"}}


@lru_cache(maxsize=4096)
def markdown_html(text: str) -> Markup:
    rendered = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return Markup(nh3.clean(rendered, tags=_BLOCK_TAGS, attributes=_ATTRIBUTES, link_rel="noopener"))


@lru_cache(maxsize=4096)
def inline_html(text: str) -> Markup:
    """Markdown for a single line (a heading, a list item): inline markup only, no paragraphs."""
    rendered = markdown.markdown(text, output_format="html")
    return Markup(nh3.clean(rendered, tags=_INLINE_TAGS, attributes=_ATTRIBUTES, link_rel="noopener").strip())


def plain_text(text: str) -> str:
    """Markdown reduced to its words (for snippets, meta descriptions and the index)."""
    stripped = nh3.clean(str(markdown_html(text)), tags=set())
    return " ".join(html.unescape(stripped).split())


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def first_sentence(text: str, limit: int = 200) -> str:
    sentence = _SENTENCE_END.split(text, maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"
