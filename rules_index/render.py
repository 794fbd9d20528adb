"""Markdown from content to safe HTML: rendered with Python-Markdown, then sanitised by nh3.

Each text's HTML is kept per process, at most ``CACHE_BYTES`` of it (``rules_index.caches``);
the texts are the content's, so after a publication the old ones age out.
"""
from __future__ import annotations

import html
import re

import markdown
import nh3
from markupsafe import Markup

from .caches import ENTRY_BYTES, MiB, ByteCache, payload_bytes

_BLOCK_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "br", "a", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "h3", "h4"}
_INLINE_TAGS = {"strong", "em", "code", "a", "br"}
_ATTRIBUTES = {"a": {"href", "title"}}
CACHE_BYTES = 8 * MiB
# The key holds the Markdown source, about as large as its HTML: each entry counts the HTML twice.
_rendered = ByteCache(CACHE_BYTES, sizeof=lambda html: 2 * payload_bytes(html) + ENTRY_BYTES)


@_rendered.memoize(key=lambda text: ("block", text))
def markdown_html(text: str) -> Markup:
    rendered = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return Markup(nh3.clean(rendered, tags=_BLOCK_TAGS, attributes=_ATTRIBUTES, link_rel="noopener"))


def reader_markdown(text: str) -> Markup:
    """A reader's text (a report) as Markdown: emphasis, lists, links and quotes render, while any
    HTML in it shows as typed (it is escaped before Markdown sees it), then sanitised as answers are."""
    return markdown_html(text.replace("&", "&amp;").replace("<", "&lt;"))


@_rendered.memoize(key=lambda text: ("inline", text))
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
