"""Markdown from content to safe HTML: parsed by markdown-it-py (CommonMark with tables), then
sanitised by nh3.

Rendering never raises. A text the site cannot show as Markdown (longer than ``MAX_CHARS``,
lists or quotes nested deeper than ``MAX_DEPTH``) is shown as escaped plain text, with a warning
logged; ``markup_problem`` says why, so that validation and the editors' gate refuse it before it
is stored. markdown-it-py because its parser has a nesting limit and stays about linear in the
text (Python-Markdown overflows the stack on deep lists). Rendered HTML is kept per process, at
most ``CACHE_BYTES`` of it.
"""
from __future__ import annotations

import html
import logging
import re
from typing import NamedTuple

import nh3
from markdown_it import MarkdownIt
from mdit_py_plugins.attrs import attrs_plugin
from markupsafe import Markup, escape

from .caches import ENTRY_BYTES, MiB, ByteCache, payload_bytes

log = logging.getLogger(__name__)

# Real answers nest lists two deep at most; ten leaves room for any honest use.
MAX_DEPTH = 10
# The longest text of the content (a rules section) is about 3,000 characters.
MAX_CHARS = 20_000
# markdown-it counts every open token (list, item, paragraph…); this bounds its own work on deep
# text, and whatever it leaves unparsed is far deeper than MAX_DEPTH, so it is never shown.
_PARSER_NESTING = 4 * MAX_DEPTH

_BLOCK_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "br", "a", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "h3", "h4"}
_INLINE_TAGS = {"strong", "em", "code", "a", "br"}
_ATTRIBUTES = {"a": {"href", "title"}}
_CONTAINERS = {"bullet_list_open", "ordered_list_open", "blockquote_open"}
CACHE_BYTES = 8 * MiB
# The key holds the Markdown source, about as large as its HTML: each entry counts the HTML twice.
_rendered = ByteCache(CACHE_BYTES, sizeof=lambda html: 2 * payload_bytes(html) + ENTRY_BYTES)

# attrs: an answer's bound spans ("[König]{fact=yellow}", content/marks.py) parse as spans; the
# sanitiser keeps their words and drops the span, except where bound_answer_html marks them.
_block = MarkdownIt("commonmark", {"maxNesting": _PARSER_NESTING, "html": False}).enable("table").use(attrs_plugin, spans=True)
_inline = MarkdownIt("commonmark", {"maxNesting": _PARSER_NESTING, "html": False}).use(attrs_plugin, spans=True)
# The block structure alone (lists, quotes, paragraphs), for judging a text without rendering it.
_structure = MarkdownIt("commonmark", {"maxNesting": _PARSER_NESTING, "html": False}).enable("table").disable("inline")
# A list or quote begins with its marker at the start of a line (after any indentation).
_CONTAINER_START = re.compile(r"^[ \t]*(?:[-*+>]|\d{1,9}[.)])", re.M)


def _problem(text: str, tokens=None) -> str | None:
    """Why ``text`` cannot be shown as Markdown (``tokens``: its parse, when made already), or None."""
    if len(text) > MAX_CHARS:
        return f"text is {len(text):,} characters long; at most {MAX_CHARS:,} can be shown"
    if not _CONTAINER_START.search(text):
        return None
    depth = deepest = 0
    for token in tokens if tokens is not None else _structure.parse(text):
        if token.type in _CONTAINERS:
            depth += 1
            deepest = max(deepest, depth)
        elif token.nesting < 0 and token.type.replace("_close", "_open") in _CONTAINERS:
            depth -= 1
    if deepest > MAX_DEPTH:
        # Past the parser's own limit the rest is left unparsed: the real depth is larger.
        more = " or more" if 2 * deepest >= _PARSER_NESTING else ""
        return f"lists or quotes nested {deepest}{more} levels deep; at most {MAX_DEPTH} can be shown"
    return None


def markup_problem(text: str) -> str | None:
    """Why ``text`` is shown as plain text instead of Markdown, or None when it renders."""
    return _problem(text)


class _Parsed(NamedTuple):
    html: str | None
    problem: str | None


def _parse(parser: MarkdownIt, text: str, adjust=None) -> _Parsed:
    """The text's HTML, or why it cannot be shown; ``adjust`` may change the tokens first."""
    if len(text) > MAX_CHARS:
        return _Parsed(None, _problem(text))
    tokens = parser.parse(text)
    problem = _problem(text, tokens)
    if problem:
        return _Parsed(None, problem)
    if adjust is not None:
        adjust(tokens)
    return _Parsed(parser.renderer.render(tokens, parser.options, {}), None)


def _as_plain(text: str, problem: str, block: bool) -> Markup:
    log.warning("text shown unformatted (%s): %.60r", problem, text)
    if not block:
        return escape(text)
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    return Markup("").join(Markup("<p>%s</p>") % p.strip() for p in paragraphs)


@_rendered.memoize(key=lambda text: ("block", text))
def markdown_html(text: str) -> Markup:
    parsed = _parse(_block, text)
    if parsed.problem:
        return _as_plain(text, parsed.problem, block=True)
    return Markup(nh3.clean(parsed.html, tags=_BLOCK_TAGS, attributes=_ATTRIBUTES, link_rel="noopener").strip())


_IMAGE_START = re.compile(r"(?<!\\)!\[")


def reader_markdown(text: str) -> Markup:
    """A reader's text (a report) as Markdown, with any HTML in it shown as typed. An image is
    shown as a link to it: the sanitiser would drop it with the reader's words ("![my table](…)"),
    and the site loads nothing from elsewhere."""
    return markdown_html(_IMAGE_START.sub("[", text.replace("&", "&amp;").replace("<", "&lt;")))


@_rendered.memoize(key=lambda text: ("inline", text))
def inline_html(text: str) -> Markup:
    """Markdown for a single line (a heading, a list item): inline markup only, no paragraphs."""
    parsed = _parse(_inline, text)
    if parsed.problem:
        return _as_plain(text, parsed.problem, block=False)
    return Markup(nh3.clean(parsed.html, tags=_INLINE_TAGS, attributes=_ATTRIBUTES, link_rel="noopener").strip())


_ITEM_END = "\u2063"  # INVISIBLE SEPARATOR: where a list item ended, until it is written out
_ITEM_ENDED = re.compile(f"(?<=[.;:!?,])\\s*{_ITEM_END}")
_ITEMS_ENDED = re.compile(f"{_ITEM_END}(?:\\s*{_ITEM_END})+")  # a nested list's last item ends its item too
# An item that ends in "or"/"and" runs on into the next: "take 2 gold, or draw 2 cards", not "or; draw".
_ITEM_RUNS_ON = re.compile(f"\\b(or|and|oder|und|sowie|o|oppure|e|ed)\\s*{_ITEM_END}", re.IGNORECASE)


def plain_text(text: str, item_end: str = "") -> str:
    """Markdown reduced to its words (for snippets, meta descriptions and the index). With
    ``item_end`` (e.g. ";"), each list item that does not end in a sign of its own ends in it:
    "4 players: 2 face up; 5 players: 1 face up", not "2 face up 5 players"."""
    rendered = str(markdown_html(text))
    if item_end:
        rendered = rendered.replace("</li>", f"{_ITEM_END}</li>")
    words = " ".join(html.unescape(nh3.clean(rendered, tags=set())).split())
    if item_end:
        words = _ITEM_RUNS_ON.sub(r"\1", _ITEM_ENDED.sub("", _ITEMS_ENDED.sub(_ITEM_END, words)))
        words = words.replace(f" {_ITEM_END}", item_end).replace(_ITEM_END, item_end)
        words = words.removesuffix(item_end)  # the last item ends the text, not a list
    return words


def layout(text: str, says=lambda words: True) -> tuple:
    """Where the blocks of ``text`` stand as readers see them: every block token (lists, items,
    steps with their start number, quotes, headings, code, tables, paragraphs) with its depth, in
    order. Paragraphs whose words ``says`` nothing (a page reference on its own line) are left
    out; inline markup and the looseness of a list (blank lines between items) are not part of it."""
    tokens = _block.parse(text)
    found = []
    skip = False
    for number, token in enumerate(tokens):
        if token.type == "inline":
            continue
        if token.type == "paragraph_open":
            following = tokens[number + 1] if number + 1 < len(tokens) else None
            skip = following is None or not says(following.content)
        if skip and token.type in ("paragraph_open", "paragraph_close"):
            continue
        start = token.attrs.get("start") if token.type == "ordered_list_open" else None
        found.append((token.type, token.tag, token.level, start))
    return tuple(found)


def typed_text(text: str) -> str:
    """``text`` as a reader would type it into a plain text box: its words without Markdown's
    signs (emphasis, code marks, link targets, marks' braces), paragraphs apart, each list item
    on a line of its own ("- …", "1. …"), nested items indented. A text the site cannot show as
    Markdown stays as it is."""
    if markup_problem(text):
        return text
    lines: list[str] = []
    lists: list[int | None] = []  # each open list's next number (None: bullets)
    prefix = ""
    for token in _block.parse(text):
        if token.type == "bullet_list_open":
            lists.append(None)
        elif token.type == "ordered_list_open":
            lists.append(int(token.attrs.get("start", 1)))
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            prefix = "  " * len(lists)
            if not lists:
                lines.append("")
        elif token.type == "list_item_open":
            number = lists[-1]
            prefix = "  " * (len(lists) - 1) + ("- " if number is None else f"{number}. ")
            if number is not None:
                lists[-1] = number + 1
        elif token.type == "inline":
            words = "".join(child.content if child.type in ("text", "code_inline") else
                            " " if child.type == "softbreak" else "\n" if child.type == "hardbreak" else ""
                            for child in token.children or ())
            lines.append(prefix + words)
            prefix = "  " * len(lists)
        elif token.type == "paragraph_close" and not lists:
            lines.append("")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def shown_text(text: str) -> str:
    """What a reader sees of ``text``: its rendered words and every sign shown as typed (a stray
    "*", a mark's "[…]{fact=…}" inside code), each code span between backticks, a link's title
    between "‹ ›" where the link stands, each paragraph, item or cell ended by "¶"."""
    # Each block ends in "¶": "…danach 3" ending an item is a count, not "3." before a word.
    blocks = re.sub(r"</(?:p|li|td|th|h[1-6])>", " ¶ ", str(markdown_html(text)))
    kept = nh3.clean(blocks, tags={"code", "br", "a"}, attributes={"a": {"title"}}, link_rel=None)
    kept = kept.replace("<code>", " ` ").replace("</code>", " ` ").replace("<br>", " ⏎ ")
    # A link's title shows (as a tooltip) where the link stands; the link's own words follow it.
    kept = re.sub(r'<a title="([^"]*)">', r" ‹ \1 › ", kept)
    kept = re.sub(r"</?a\b[^>]*>", "", kept)
    # Only the spaces a browser collapses are collapsed: a run of no-break or wide spaces shows.
    return re.sub(r"[ \t\n\r\f]+", " ", html.unescape(kept)).strip()


_EMPHASIS_TAG = re.compile(r"<(/?)(?:strong|em)>")


def emphasis_runs(text: str) -> list[tuple[str, bool]]:
    """The text a reader sees, in order, as runs each shown in bold or italics (True) or not."""
    kept = nh3.clean(str(markdown_html(text)), tags={"strong", "em"}, attributes={})
    runs, depth, start = [], 0, 0
    for tag in _EMPHASIS_TAG.finditer(kept):
        runs.append((html.unescape(kept[start:tag.start()]), depth > 0))
        depth = max(0, depth + (-1 if tag.group(1) else 1))
        start = tag.end()
    runs.append((html.unescape(kept[start:]), depth > 0))
    return [(run, flag) for run, flag in runs if run.strip()]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def first_sentence(text: str, limit: int = 200) -> str:
    sentence = _SENTENCE_END.split(text, maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


_BOUND_ATTRIBUTES = {"a": {"href", "title", "class"}}


def _bind_spans(tokens, targets: dict[str, tuple[str, str]]) -> None:
    """Each span bound to a fact becomes a link to the situation that checks it (its title the
    scenario); other spans stay spans, which the sanitiser drops."""
    for block in tokens:
        stack = []
        for child in block.children or ():
            if child.type == "span_open":
                names = str(child.attrs.get("fact", "")).split()
                target = next((targets[name] for name in names if name in targets), None)
                stack.append(target is not None)
                if target is not None:
                    child.type, child.tag = "link_open", "a"
                    child.attrs = {"class": "bound", "href": target[0], "title": target[1]}
            elif child.type == "span_close" and stack and stack.pop():
                child.type, child.tag = "link_close", "a"


def marked_answer_html(text: str, targets: dict[str, tuple[str, str]]) -> Markup:
    """An answer with its bound statements marked: each span bound to a fact named in
    ``targets`` ({fact: (href, title)}) links to the check that tests it."""
    key = ("marked", text, tuple(sorted(targets.items())))
    found = _rendered.get(key)
    if found is None:
        parsed = _parse(_block, text, lambda tokens: _bind_spans(tokens, targets))
        if parsed.problem:
            return markdown_html(text)  # shown as plain text, logged there
        found = Markup(nh3.clean(parsed.html, tags=_BLOCK_TAGS, attributes=_BOUND_ATTRIBUTES, link_rel="noopener").strip())
        _rendered.put(key, found)
    return found
