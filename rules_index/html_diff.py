"""Word diffs of safe HTML: the new text as it reads, with removed words in ``<del>`` and added
words in ``<ins>`` (for the history of an answer, rendered from Markdown), and two texts compared
block by block (for the editors' review of a report)."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from markupsafe import Markup

# Whitespace, then a tag, a character reference, a word or one punctuation mark ("coins." and
# "coins" share the word). Safe HTML has no raw "<" in text, so a tag is always whole.
_TOKEN = re.compile(r"(\s*)(<[^>]*>|&#?\w+;|\w+|[^\w\s<])")


def _tokens(html: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in _TOKEN.finditer(html)]


def _is_tag(token: str) -> bool:
    return token.startswith("<")


def _marked(tag: str, tokens: list[tuple[str, str]], keep_tags: bool) -> str:
    """The words of ``tokens`` in ``<tag>`` runs; tags between them kept (or dropped) as they are."""
    out: list[str] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            out.append(f"<{tag}>{''.join(run)}</{tag}>")
            run.clear()

    pending = ""  # the space before a dropped tag: it still parts the words around the tag
    for space, token in tokens:
        if _is_tag(token):
            close_run()
            if keep_tags:
                out.append(space + token)
            else:
                pending += space
            continue
        space, pending = pending + space, ""
        if run:
            run.append(space + token)
        else:
            out.append(space)
            run.append(token)
    close_run()
    out.append(pending)
    return "".join(out)


def _word_follows(tokens: list[tuple[str, str]], start: int) -> bool:
    """Whether the text from ``start`` opens with a word, with no space before it (tags aside)."""
    for space, token in tokens[start:]:
        if space:
            return False
        if not _is_tag(token):
            return token[:1].isalnum()
    return False


def word_diff(before: Markup, after: Markup) -> Markup:
    """``after`` with the words changed since ``before`` marked; both must be safe HTML.

    The result keeps every tag of ``after`` in order (its structure stays valid: marks never cross
    a tag) and shows removed words where they stood; tags that only ``before`` had are dropped.
    """
    old, new = _tokens(str(before)), _tokens(str(after))
    matcher = difflib.SequenceMatcher(a=[t for _, t in old], b=[t for _, t in new], autojunk=False)
    out: list[str] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out += [space + token for space, token in new[j1:j2]]
            continue
        removed = _marked("del", old[i1:i2], keep_tags=False) if op in ("delete", "replace") else ""
        added = _marked("ins", new[j1:j2], keep_tags=True) if op in ("insert", "replace") else ""
        if removed.strip() and added and not added[0].isspace():
            removed += " "  # "<del>old</del> <ins>new</ins>", not two words run together
        elif removed.strip() and not added and _word_follows(new, j2):
            removed += " "  # a removed word before a kept one that had no space (the start of a paragraph)
        out += [removed, added]
    return Markup("".join(out))


# A tag of safe HTML: its name, whether it closes, whether it closes itself.
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>")
_VOID = {"br", "hr", "img"}
_BLOCK_START = re.compile(r"<(?:p|ul|ol|table|blockquote|h[1-6]|pre)\b")


def _blocks(html: str) -> list[str]:
    """The top-level parts of safe HTML, in order: each element whole, and each run of text
    between them that is not only whitespace."""
    parts: list[str] = []
    depth = start = 0
    for match in _TAG.finditer(html):
        closing, name, closes_itself = match.group(1), match.group(2).lower(), match.group(3)
        if name in _VOID or closes_itself:
            continue
        if not closing:
            if depth == 0:
                if html[start:match.start()].strip():
                    parts.append(html[start:match.start()])
                start = match.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                parts.append(html[start:match.end()])
                start = match.end()
    if html[start:].strip():
        parts.append(html[start:])
    return parts


@dataclass(frozen=True)
class BlockChange:
    """A run of blocks of two texts: the blocks both share (``same``), or the blocks of each
    version where they differ (either may be empty) and the word diff between them."""

    same: Markup | None = None
    now: Markup | None = None
    proposed: Markup | None = None
    diff: Markup | None = None


def compare_blocks(before: Markup, after: Markup) -> list[BlockChange]:
    """Two safe HTML texts block by block (paragraphs, lists, tables, quotes): the blocks both
    share once, and each run that differs in both versions with its word diff (``word_diff``),
    so that a text shows whole without its unchanged blocks twice."""
    old, new = _blocks(str(before)), _blocks(str(after))
    matcher = difflib.SequenceMatcher(a=[b.strip() for b in old], b=[b.strip() for b in new], autojunk=False)
    runs: list[BlockChange] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            runs.append(BlockChange(same=_joined(new[j1:j2])))
            continue
        now, proposed = _joined(old[i1:i2]), _joined(new[j1:j2])
        runs.append(BlockChange(now=now or None, proposed=proposed or None, diff=_joined(_blocks(str(word_diff(now, proposed))))))
    return runs


def _joined(blocks: list[str]) -> Markup:
    """Blocks as one piece of HTML; text that stands between blocks (removed words) in a paragraph."""
    return Markup("\n".join(b.strip() if _BLOCK_START.match(b.strip()) else f"<p>{b.strip()}</p>" for b in blocks))
