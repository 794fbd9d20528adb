"""Writing accepted changes back into content files as the smallest edit of the file's text.

Changes are computed as new file texts first (``plan_*``), so they can be validated in a copy of
the content before ``materialize`` replaces the real files atomically. A change rewrites only the
text span of each value that differs; every other byte (key order, flow style, comments, blank
lines) stays as it was, so an accepted change reads as a small patch in the history.
"""
from __future__ import annotations

import copy
import datetime as dt
import difflib
import functools
import math
import os
import re
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rules_index import characters as chars

from . import tempnames
from .rules_markdown import split_sections
from .schema import LANGS
from .yaml12 import YAMLError, compose_text, load_text

FAQ_TEXT_FIELDS = ("question", "answer")
STRUCTURED_FIELDS = ("citation", "ruling", "check")


class EntryNotFound(KeyError):
    pass


class WriteCheckFailed(ValueError):
    """The planned text would not read back as the intended data; nothing is written."""


@dataclass
class FilePlan:
    """A file's text before and after a change (paths relative to the content root)."""

    path: str
    before: str
    after: str

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
            fromfile=f"a/content/{self.path}", tofile=f"b/content/{self.path}",
        ))


def clean_text(text: str) -> str:
    """Text as the content files store it: LF line ends only (browsers send CRLF), no outer blanks."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _clean_data(value: Any) -> Any:
    """Structured data with LF line ends in every string."""
    if isinstance(value, str):
        return value.replace("\r\n", "\n").replace("\r", "\n")
    if isinstance(value, dict):
        return {_clean_data(k): _clean_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_data(v) for v in value]
    return value


# --- reading -----------------------------------------------------------------------------------

def read_section(root: Path, slug: str, section_id: str) -> dict:
    """A rules section's text per language as plain data."""
    texts = {lang: (Path(root) / slug / f"rules.{lang}.md").read_text(encoding="utf-8") for lang in LANGS}
    return section_in(texts, section_id)


def section_in(texts: dict[str, str], section_id: str) -> dict:
    """A rules section's text per language as plain data, from each language's rules text."""
    out = {}
    for lang in LANGS:
        sections, _ = split_sections(texts[lang], "")
        match = next((s for s in sections if s.id == section_id), None)
        if match is None:
            raise EntryNotFound(section_id)
        out[lang] = {"title": match.title, "body": match.body}
    return out


# --- writing one YAML scalar -------------------------------------------------------------------

_NOT_PRINTED = chars.characters(chars.YAML_LINE_BREAKS, chars.BOM)


def _printable(char: str) -> bool:
    """YAML's printable set, without the characters YAML also reads as line breaks or a BOM."""
    code = ord(char)
    if char in _NOT_PRINTED:
        return False
    return (code in (0x09, 0x0A) or 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF
            or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF)


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}


def _double_quoted(value: str) -> str:
    out = []
    for char in value:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif _printable(char):
            out.append(char)
        elif ord(char) <= 0xFF:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def _reads_as(snippet: str, value: Any, flow: bool) -> bool:
    """Whether ``snippet`` written as a value (in a block mapping or a flow list) reads as ``value``."""
    try:
        loaded = load_text(f"[{snippet}]") if flow else load_text(f"k: {snippet}")
    except YAMLError:
        return False
    got = loaded[0] if flow else (loaded or {}).get("k")
    return type(got) is type(value) and got == value


def _plain_string(value: str, flow: bool) -> str | None:
    if not value or "\n" in value or value != value.strip() or not all(_printable(c) for c in value):
        return None
    return value if _reads_as(value, value, flow) else None


def _single_quoted(value: str) -> str | None:
    if "\n" in value or not all(_printable(c) for c in value) or value != value.strip(" "):
        return None
    return "'" + value.replace("'", "''") + "'"


def _literal(value: str, indent: int) -> str | None:
    """A literal block (``|``) for ``value``, its lines indented by ``indent``; None if it cannot hold it."""
    if not value or value[0] in " \n" or not all(_printable(c) for c in value):
        return None
    body = value
    if value.endswith("\n"):
        header = "|"
        body = value[:-1]
        if body.endswith("\n") or not body:
            return None  # more than one final line break: the quoted form says it plainly
    else:
        header = "|-"
    pad = " " * indent
    return header + "".join("\n" + (pad + line if line else "") for line in body.split("\n"))


def _other_scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value)


def _scalar(value: Any, style: str | None, flow: bool, indent: int) -> str:
    """``value`` written as a YAML scalar, in ``style`` ('', '"', "'", '|', '>') where it can hold it.

    A string that the style cannot hold safely falls back to a literal block (several lines, in
    block context) or double quotes (which hold anything).
    """
    if not isinstance(value, str):
        return _other_scalar(value)
    style = style or ""
    candidates: list[str | None] = []
    if style in ("|", ">") and not flow:
        candidates.append(_literal(value, indent))
    elif style == "'":
        candidates.append(_single_quoted(value))
    elif style == "":
        candidates.append(_plain_string(value, flow))
    if "\n" in value and not flow:
        candidates.append(_literal(value, indent))
    candidates.append(_double_quoted(value))
    return next(c for c in candidates if c is not None)


def _text_scalar(text: str, style: str | None, indent: int) -> tuple[str, str]:
    """A FAQ question or answer (already cleaned) as a scalar; and the string it reads as.

    Text kept in a literal block reads with one final line break, as the files store it.
    """
    if style in ("|", ">") or "\n" in text:
        block = _literal(text + "\n", indent)
        if block is not None:
            return block, text + "\n"
    return _scalar(text, style, False, indent), text


# --- writing a structured value as a block -----------------------------------------------------

def _same(a: Any, b: Any) -> bool:
    """Equal data of equal types all the way down (``1 == True`` in Python, not in YAML); the order
    of a mapping's keys is no data (the editor's form sends them sorted)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _ordered_like(new: Any, old: Any) -> Any:
    """``new`` with its mappings' keys in the order ``old`` has them (new keys last)."""
    if isinstance(new, dict):
        before = old if isinstance(old, dict) else {}
        keys = [k for k in before if k in new] + [k for k in new if k not in before]
        return {k: _ordered_like(new[k], before.get(k)) for k in keys}
    if isinstance(new, list):
        before = old if isinstance(old, list) else []
        return [_ordered_like(v, before[i] if i < len(before) else None) for i, v in enumerate(new)]
    return new


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _written(value: Any, flow: bool, col: int) -> str:
    """A scalar of a rewritten block: plain where the content files write plain, else double-quoted."""
    if isinstance(value, str) and (_QUOTED_IN_FLOW if flow else _QUOTED).search(value):
        return _scalar(value, '"', flow, col)
    return _scalar(value, "", flow, col)


# The content files quote text with commas or brackets (and apostrophes inside braces) even where
# YAML would not need it.
_QUOTED = re.compile(r"[,()\[\]{}]")
_QUOTED_IN_FLOW = re.compile(r"[,'()\[\]{}]")


def _one_line(value: Any) -> bool:
    """Short text on one line: what the content files put into braces (sentences stand alone)."""
    return not (isinstance(value, str) and ("\n" in value or len(value) > SHORT_TEXT))


SHORT_TEXT = 40


def _flow(value: Any, room: int) -> str | None:
    """A collection written on one line (``{target: king, laid_out: [A, B]}``) as the content files
    write them: short scalars only, and a nested one only within ``room`` characters; else None."""
    nested = any(not _is_scalar(v) for v in (value.values() if isinstance(value, dict) else value))
    if isinstance(value, list):
        # A list of collections is a block list with one item a line.
        items = [_written(v, True, 0) if _is_scalar(v) and _one_line(v) else None for v in value]
        if any(i is None for i in items):
            return None
        text = "[" + ", ".join(items) + "]"
    else:
        parts = []
        for k, v in value.items():
            inner = _written(v, True, 0) if _is_scalar(v) and _one_line(v) else None if _is_scalar(v) else _flow(v, room)
            if inner is None or not _is_scalar(k):
                return None
            parts.append(f"{_written(k, True, 0)}: {inner}")
        text = "{" + ", ".join(parts) + "}"
    return text if not nested or len(text) <= room else None


# Nested collections go on one line only while the line stays this short.
FLOW_WIDTH = 120


def _emit_pair(key: Any, value: Any, col: int, top: int = -1) -> list[str]:
    """``key: value`` with the key at column ``col`` (the first line without its indentation).

    The value of a key at column ``top`` (an entry's own key) is always a block.
    """
    head = f"{_written(key, False, col)}:"
    if _is_scalar(value):
        return [f"{head} {_written(value, False, col + 2)}"]
    if not value:
        return [f"{head} {'{}' if isinstance(value, dict) else '[]'}"]
    flow = _flow(value, FLOW_WIDTH - col - len(head) - 1) if col > top else None
    if flow is not None:
        return [f"{head} {flow}"]
    return [head] + _children(value, col + 2)


def _emit_item(item: Any, col: int) -> list[str]:
    """``- item`` with the dash at column ``col`` (the first line without its indentation)."""
    if _is_scalar(item):
        return [f"- {_written(item, False, col + 2)}"]
    flow = _flow(item, FLOW_WIDTH - col - 2) if item else ("{}" if isinstance(item, dict) else "[]")
    if flow is not None:
        return [f"- {flow}"]
    lines = _children(item, col + 2)
    return ["- " + lines[0][col + 2:]] + lines[1:]


def _children(value: dict | list, col: int) -> list[str]:
    """The lines of a block collection's pairs or items, each beginning at column ``col``."""
    if isinstance(value, dict):
        subs = [_emit_pair(k, v, col) for k, v in value.items()]
    else:
        subs = [_emit_item(v, col) for v in value]
    return [line for sub in subs for line in [" " * col + sub[0], *sub[1:]]]


# --- edits of a text by node positions ---------------------------------------------------------

@dataclass(frozen=True)
class _Edit:
    start: int  # character offsets into the file's text
    end: int
    text: str


class _Rebuild(Exception):
    """The new value's shape differs from the stored one: the whole key is written anew."""


# The line breaks YAML counts in its marks.
_BREAK = re.compile(f"\r\n|[\r\n{chars.regex_class(chars.YAML_LINE_BREAKS)}]")


class _Positions:
    """Character offsets of YAML marks, and where a value's own text ends."""

    def __init__(self, text: str):
        self.text = text
        self.line_starts = [0]
        self.line_ends = []  # where the line break that ends each line stands (or the text's end)
        for match in _BREAK.finditer(text):
            self.line_ends.append(match.start())
            self.line_starts.append(match.end())
        self.line_ends.append(len(text))

    def offset(self, mark: Any) -> int:
        return self.line_starts[mark.line] + mark.column

    def content_end(self, node: Node) -> int:
        """Where the node's own text ends: before blank lines and comments that follow it."""
        if isinstance(node, ScalarNode):
            if node.style in ("|", ">"):
                # A block scalar's mark ends after its trailing blank lines; its text ends at its
                # last line with text.
                line = node.end_mark.line - (1 if node.end_mark.column == 0 else 0)
                first = node.start_mark.line
                while line > first and not self.text[self.line_starts[line]:self.line_ends[line]].strip():
                    line -= 1
                return self.line_ends[line]
            return self.offset(node.end_mark)
        if node.flow_style:
            return self.offset(node.end_mark)
        children = node.value if isinstance(node, SequenceNode) else [v for _k, v in node.value]
        return max(self.content_end(child) for child in children) if children else self.offset(node.end_mark)


@functools.lru_cache(maxsize=1)
def _parsed(text: str) -> tuple[Node, _Positions]:
    """The file's node tree with the position of every value (only looked at, never changed).
    One text's tree only, let go of by ``materialize``: it is many thousand objects for the
    garbage collector to walk."""
    return compose_text(text), _Positions(text)


def _pairs(node: MappingNode) -> dict[Any, tuple[Node, Node]]:
    return {key.value: (key, value) for key, value in node.value}


def _value_edits(pos: _Positions, node: Node, old: Any, new: Any, flow: bool, indent: int) -> list[_Edit]:
    """Edits that turn ``node`` (read as ``old``) into ``new``, rewriting only the scalars that differ."""
    if _same(old, new):
        return []
    if isinstance(node, ScalarNode) and _is_scalar(new):
        start, end = pos.offset(node.start_mark), pos.content_end(node)
        return [_Edit(start, end, _scalar(new, node.style, flow, indent))]
    inner = flow or bool(node.flow_style)
    if isinstance(node, MappingNode) and isinstance(new, dict) and isinstance(old, dict) and old.keys() == new.keys():
        edits = []
        for (key, value), name in zip(node.value, old):
            edits += _value_edits(pos, value, old[name], new[name], inner, key.start_mark.column + 2)
        return edits
    if isinstance(node, SequenceNode) and isinstance(new, list) and isinstance(old, list) and len(old) == len(new):
        edits = []
        for child, a, b in zip(node.value, old, new):
            edits += _value_edits(pos, child, a, b, inner, node.start_mark.column + 2)
        return edits
    raise _Rebuild


def _apply(text: str, edits: list[_Edit]) -> str:
    out, last = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        if edit.start < last:
            raise WriteCheckFailed("internal: overlapping edits")
        out += [text[last:edit.start], edit.text]
        last = edit.end
    return "".join(out + [text[last:]])


def _key_block_edits(pos: _Positions, entry: MappingNode, stored: dict, key: str, new: Any) -> list[_Edit]:
    """Edits that give the entry's ``key`` the value ``new`` (None: no such key)."""
    pairs = _pairs(entry)
    col = entry.start_mark.column
    if key not in pairs:
        if new is None:
            return []
        # A key the entry lacks goes after the entry's last line.
        end = pos.content_end(entry)
        lines = _emit_pair(key, new, col, top=col)
        return [_Edit(end, end, "\n" + " " * col + "\n".join(lines))]
    key_node, value_node = pairs[key]
    start, end = pos.offset(key_node.start_mark), pos.content_end(value_node)
    if new is None:
        # The key's lines go, with the line break before them.
        line_start = pos.line_starts[key_node.start_mark.line]
        return [_Edit(line_start - 1, end, "")]
    try:
        return _value_edits(pos, value_node, stored.get(key), new, False, col + 2)
    except _Rebuild:
        lines = _emit_pair(key, _ordered_like(new, stored.get(key)), col, top=col)
        return [_Edit(start, end, "\n".join(lines))]


# --- FAQ entries ------------------------------------------------------------------------------

def _node_index(tree: SequenceNode, entry_id: str) -> int:
    for index, item in enumerate(tree.value):
        if isinstance(item, MappingNode):
            node = _pairs(item).get("id", (None, None))[1]
            if isinstance(node, ScalarNode) and node.value == entry_id:
                return index
    raise EntryNotFound(entry_id)


@functools.lru_cache(maxsize=64)
def _entry_read(text: str) -> Any:
    return load_text(text)[0]


def _entry_data(text: str) -> Any:
    """An entry's lines read as data (a fresh copy: callers change it)."""
    return copy.deepcopy(_entry_read(text))


# A faq.yaml item begins at column 0 with its id ("- id: thief-forbidden-targets", as every
# file does); nothing else in a block sequence of mappings can begin at column 0 with a dash.
_ITEM_START = re.compile(r"^-(?=[ \n]|$)", re.M)
_ITEM_ID = re.compile(r"""^- id: *(['"]?)([A-Za-z0-9_-]+)\1 *$""", re.M)


def item_span(text: str, entry_id: str) -> tuple[int, int] | None:
    """Where the entry ``entry_id`` of a faq.yaml text begins and ends (its dash's line up to the
    next item's), found from the lines alone, so that only those lines are parsed. None unless
    every item begins with its id line and ``entry_id`` is on exactly one of them."""
    starts = [m.start() for m in _ITEM_START.finditer(text)]
    ids = list(_ITEM_ID.finditer(text))
    if len(ids) != len(starts) or [m.start() for m in ids] != starts:
        return None
    found = [i for i, m in enumerate(ids) if m.group(2) == entry_id]
    if len(found) != 1:
        return None
    i = found[0]
    return starts[i], starts[i + 1] if i + 1 < len(starts) else len(text)


def _entry_span(pos: _Positions, root: SequenceNode, index: int) -> tuple[int, int]:
    """The lines of list item ``index``: from its dash to the next item's line (or the end)."""
    start = pos.line_starts[root.value[index].start_mark.line]
    if index + 1 < len(root.value):
        return start, pos.line_starts[root.value[index + 1].start_mark.line]
    return start, len(pos.text)


def _text_edits(pos: _Positions, entry: MappingNode, stored: dict, updates: dict, expected: dict) -> list[_Edit]:
    edits = []
    pairs = _pairs(entry)
    for lang in LANGS:
        for field in FAQ_TEXT_FIELDS:
            value = (updates.get(lang) or {}).get(field)
            if value is None:
                continue
            text = clean_text(value)
            if text == str((stored.get(lang) or {}).get(field, "")).strip():
                continue
            if lang not in pairs or not isinstance(pairs[lang][1], MappingNode) or field not in _pairs(pairs[lang][1]):
                raise WriteCheckFailed(f"faq entry '{stored.get('id')}' has no {lang}.{field} to replace")
            key_node, node = _pairs(pairs[lang][1])[field]
            snippet, reads_as = _text_scalar(text, node.style, key_node.start_mark.column + 2)
            edits.append(_Edit(pos.offset(node.start_mark), pos.content_end(node), snippet))
            expected[lang][field] = reads_as
    return edits


def plan_faq_change(root: Path, slug: str, faq_id: str, updates: dict, today: dt.date) -> list[FilePlan]:
    """New texts of faq.yaml (and game.yaml's ``stand``) with ``updates`` merged into the entry.

    ``updates`` may hold ``{lang: {question?, answer?}}``, ``citation``, ``ruling`` and ``check``
    (None: the entry has no such key). Only values that differ from the stored ones are written.
    Raises WriteCheckFailed when the new text would not read back as the intended entry.
    """
    path = Path(root) / slug / "faq.yaml"
    before = path.read_text(encoding="utf-8")
    span = item_span(before, faq_id)
    if span is None:
        tree, pos = _parsed(before)
        if not isinstance(tree, SequenceNode):
            raise WriteCheckFailed(f"{slug}/faq.yaml is not a list of entries")
        span = _entry_span(pos, tree, _node_index(tree, faq_id))
    # The entry's lines alone: an item of the top-level list begins at column 0 and ends where
    # the next one begins, so they read (and compose) alone exactly as they do in the file.
    # Edits are planned within them, then put in place of them.
    lines = before[span[0]:span[1]]
    tree, pos = _parsed(lines)
    if not isinstance(tree, SequenceNode) or len(tree.value) != 1:
        raise WriteCheckFailed(f"{slug}/faq.yaml {faq_id}: the entry's lines do not read as one entry")
    entry = tree.value[0]
    if _node_index(tree, faq_id) != 0:
        raise EntryNotFound(faq_id)
    stored = _entry_data(lines)
    expected = _entry_data(lines)
    edits = _text_edits(pos, entry, stored, updates, expected)
    for key in STRUCTURED_FIELDS:
        if key not in updates:
            continue
        new = _clean_data(updates[key])
        if _same(new, stored.get(key)):  # None and an absent key are the same: no such value
            continue
        edits += _key_block_edits(pos, entry, stored, key, new)
        if new is None:
            expected.pop(key, None)
        else:
            expected[key] = new
    if any(not (0 <= e.start <= e.end <= len(lines)) for e in edits):
        raise WriteCheckFailed(f"{slug}/faq.yaml {faq_id}: an edit falls outside the entry")
    new_lines = _apply(lines, edits)
    after = before[:span[0]] + new_lines + before[span[1]:]
    if edits:
        _check_entry(after, span[0], span[0] + len(new_lines), expected, f"{slug}/faq.yaml {faq_id}")
    plans = [FilePlan(f"{slug}/faq.yaml", before, after)]
    if after != before:
        plans.append(_plan_stand(root, slug, today))
    return plans


def _check_entry(after: str, start: int, end: int, expected: dict, where: str) -> None:
    try:
        got = load_text(after[start:end])
    except YAMLError as exc:
        raise WriteCheckFailed(f"{where}: the new text is not valid YAML ({exc})") from exc
    if not isinstance(got, list) or len(got) != 1 or not _same(got[0], expected):
        raise WriteCheckFailed(f"{where}: the new text does not read back as the intended entry")


# --- game.yaml and rules sections --------------------------------------------------------------

_STAND = re.compile(r"^stand:[^\n#]*", re.M)


def _plan_stand(root: Path, slug: str, today: dt.date) -> FilePlan:
    path = Path(root) / slug / "game.yaml"
    before = path.read_text(encoding="utf-8")
    after, count = _STAND.subn(f"stand: {today.isoformat()}", before, count=1)
    if not count:
        raise ValueError(f"{slug}/game.yaml has no 'stand:' line")
    return FilePlan(f"{slug}/game.yaml", before, after)


def _section_text(before: str, section_id: str, body: str) -> str:
    """``before`` with the section's body lines replaced; its heading and the blank lines around stay."""
    sections, _ = split_sections(before, "")
    target = next((s for s in sections if s.id == section_id), None)
    if target is None:
        raise EntryNotFound(section_id)
    if body == target.body:
        return before
    lines = before.splitlines(keepends=True)
    following = [s.line for s in sections if s.line > target.line]
    stop = (min(following) - 1) if following else len(lines)
    filled = [i for i in range(target.line, stop) if lines[i].strip()]
    new = [line + "\n" for line in body.split("\n")]
    if filled:
        first, last = filled[0], filled[-1]
        if not lines[last].endswith("\n"):
            new[-1] = new[-1][:-1]
        after = "".join(lines[:first] + new + lines[last + 1:])
    else:
        after = "".join(lines[:target.line] + ["\n"] + new + (["\n"] if following else []) + lines[stop:])
    # Read back: the same sections, only this body changed. A body that is no plain section text
    # (a heading, an open code fence) changes the sections on purpose: validation refuses it.
    alone, problems = split_sections(f"## Section {{#{section_id}}}\n\n{body}\n", "")
    if not problems and [s.body for s in alone] == [body]:
        want = [(s.id, s.title, body if s.id == section_id else s.body) for s in sections]
        got = [(s.id, s.title, s.body) for s in split_sections(after, "")[0]]
        if got != want:
            raise WriteCheckFailed(f"section '{section_id}': the new text does not read back as the intended sections")
    return after


def plan_section_change(root: Path, slug: str, section_id: str, bodies: dict[str, str], today: dt.date) -> list[FilePlan]:
    """New texts of rules.<lang>.md with the section's body replaced in the given languages."""
    plans = []
    for lang, body in bodies.items():
        path = Path(root) / slug / f"rules.{lang}.md"
        before = path.read_text(encoding="utf-8")
        after = _section_text(before, section_id, clean_text(body))
        if after != before:
            plans.append(FilePlan(f"{slug}/rules.{lang}.md", before, after))
    if plans:
        plans.append(_plan_stand(root, slug, today))
    return plans


# --- replacing files ---------------------------------------------------------------------------

def _keep_owner_and_mode(tmp: str, target: Path) -> None:
    """The new file gets the replaced file's mode (mkstemp makes it 0600) and, where allowed, owner."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        os.chmod(tmp, 0o644)  # a new content file: readable like the others
        return
    os.chmod(tmp, stat.S_IMODE(st.st_mode))
    try:
        os.chown(tmp, st.st_uid, st.st_gid)
    except (OSError, AttributeError):
        pass  # only root may give a file away; the content then belongs to the server's user


def materialize(plans: list[FilePlan], root: Path) -> None:
    """Write the planned texts into the content tree at ``root`` (a copy, or the real one)."""
    _parsed.cache_clear()  # the texts planned from are being replaced
    for plan in plans:
        target = Path(root) / plan.path
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=tempnames.prefix(target.name), suffix=tempnames.SUFFIX)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(plan.after)
                fh.flush()
                os.fsync(fh.fileno())
            _keep_owner_and_mode(tmp, target)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


@contextmanager
def planned_copy(root: Path, slug: str, plans: list[FilePlan]) -> Iterator[Path]:
    """A temporary content root holding a copy of the game's folder with ``plans`` written into
    it (removed on exit), so a change can be validated before the real files are touched."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "content"
        shutil.copytree(Path(root) / slug, copy / slug)
        materialize(plans, copy)
        yield copy


def plan_state(root: Path, plan: FilePlan) -> str:
    """Which text of ``plan`` the file under ``root`` holds: "before", "after" or "other"."""
    try:
        text = (Path(root) / plan.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return "other"
    if text == plan.after:
        return "after"
    return "before" if text == plan.before else "other"


def leftover_tmp(root: Path) -> list[Path]:
    """``materialize``'s temp files (``tempnames``) in the content folder and its game folders."""
    root = Path(root)
    found = []
    for folder in [root, *(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))]:
        for target in folder.iterdir():
            if not target.name.startswith(".") and target.is_file():
                found.extend(folder.glob(tempnames.pattern(target.name)))
    return found


def remove_leftover_tmp(root: Path) -> list[Path]:
    """Remove the temp files of cut-off writes; returns them. Only safe while no write is under
    way (the caller holds the content lock)."""
    removed = leftover_tmp(root)
    for leftover in removed:
        leftover.unlink(missing_ok=True)
    return removed
