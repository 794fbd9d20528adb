"""YAML as the content speaks it: YAML 1.2's plain scalars, read and written with PyYAML's C parser.

PyYAML implements YAML 1.1, where ``no``, ``yes``, ``on`` and ``off`` are booleans and ``1:30`` is
a number. The content is YAML 1.2 (``verdict: no`` is the word "no"), so the loader and the dumper
here resolve plain scalars as YAML 1.2 does. A key given twice in one mapping is an error (YAML
says keys are unique; PyYAML alone would keep the last value without a word).

Every module that reads or writes content YAML goes through this one. ``load_entries`` reads a
list of entries one entry at a time, each kept by its text: a reload after an accept parses only
the changed entry (and the C parser, which lets no other thread run, never parses a whole file).
"""
from __future__ import annotations

import hashlib
import pickle
import re
from typing import Any, Iterator

import yaml
from yaml.constructor import ConstructorError
from yaml.events import Event
from yaml.nodes import MappingNode, Node, ScalarNode

from rules_index.caches import MiB, ByteCache

YAMLError = yaml.YAMLError
MarkedYAMLError = yaml.MarkedYAMLError

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"

# YAML 1.2's booleans and numbers; underscores between digits are read as 1.1 reads them (``1_000``).
_CORE_1_2 = [
    (_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")),
    (_FLOAT, re.compile(r"""^(?:
         [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""", re.X), list("-+0123456789.")),
    (_INT, re.compile(r"""^(?:[-+]?0b[0-1_]+
        |[-+]?0o[0-7_]+
        |[-+]?[0-9_]+
        |[-+]?0x[0-9a-fA-F_]+)$""", re.X), list("-+0123456789")),
]


def _resolvers_1_2(base: dict) -> dict:
    """PyYAML's implicit resolvers with the 1.1 booleans and numbers replaced by 1.2's (null,
    timestamps and the merge key read the same in both)."""
    table = {first: [(tag, rx) for tag, rx in entries if tag not in (_BOOL, _INT, _FLOAT)]
             for first, entries in base.items()}
    for tag, regexp, firsts in _CORE_1_2:
        for first in firsts:
            table.setdefault(first, []).append((tag, regexp))
    return table


class ContentLoader(yaml.CSafeLoader):
    """PyYAML's C safe loader reading YAML 1.2 scalars, refusing duplicate keys."""

    yaml_implicit_resolvers = _resolvers_1_2(yaml.CSafeLoader.yaml_implicit_resolvers)

    def construct_yaml_int(self, node: ScalarNode) -> int:
        # 1.2: a leading zero is no octal sign (``017`` is 17); octal is written ``0o17``.
        text = str(self.construct_scalar(node)).replace("_", "")
        sign = -1 if text.startswith("-") else 1
        digits = text.lstrip("+-")
        base = {"0b": 2, "0o": 8, "0x": 16}.get(digits[:2], 10)
        try:
            return sign * int(digits[2:] if base != 10 else digits, base)
        except ValueError:  # "0x_": the pattern's underscores alone are no digits
            raise ConstructorError(None, None, f"not a number: {node.value!r}", node.start_mark) from None

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        # PyYAML's own constructors fail with a bare ValueError, KeyError or AttributeError on a
        # scalar that looks like its type but is none ("2001-13-45", "!!bool maybe", "!!float
        # abc"): a YAML error at the scalar, as for any other text that does not read.
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, KeyError, AttributeError, TypeError):
            raise ConstructorError(None, None, f"{node.value!r} is no valid {node.tag.rsplit(':', 1)[-1]}",
                                   node.start_mark) from None

    def construct_mapping(self, node: Node, deep: bool = False) -> dict:
        if isinstance(node, MappingNode):
            seen: dict[Any, Node] = {}
            for key_node, _value in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, ScalarNode):
                    continue
                key = self.construct_object(key_node)
                if key in seen:
                    raise ConstructorError("while constructing a mapping", node.start_mark,
                                           f"found duplicate key {key!r}", key_node.start_mark)
                seen[key] = key_node
        return super().construct_mapping(node, deep=deep)


ContentLoader.add_constructor(_INT, ContentLoader.construct_yaml_int)


class ContentDumper(yaml.CSafeDumper):
    """PyYAML's C safe dumper quoting exactly the strings that YAML 1.2 would read as another type."""

    yaml_implicit_resolvers = _resolvers_1_2(yaml.CSafeDumper.yaml_implicit_resolvers)


def load_text(text: str) -> Any:
    """The plain data of one YAML document."""
    return yaml.load(text, Loader=ContentLoader)


# An entry of a top-level block sequence starts with "- " in the first column; its content is
# indented. Any other line in the first column (a mapping key, a document marker) leaves a piece
# that does not read as one entry, and the text is read whole.
_ENTRY_START = re.compile(r"^-(?:[ \t\r\n]|$)")
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
# Each entry's data (or a whole document's that is no list of entries) by the digest of its text,
# pickled so that every caller gets its own copy to keep (the weight is the data's, the key small).
_entries = ByteCache(64 * MiB)


def entry_texts(text: str) -> list[str] | None:
    """The texts of the entries of a document that is a block sequence at the first column (each
    from its "-" line to the line before the next), or None if the document is anything else."""
    pieces: list[list[str]] = []
    for line in _LINE.findall(text):  # at "\n" only: a "\u2028" in a scalar is no new line here
        if _ENTRY_START.match(line):
            pieces.append([line])
        elif pieces:
            pieces[-1].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            return None  # indented content before the first entry
    return ["".join(piece) for piece in pieces] or None


def _kept(text: str, load) -> Any:
    """``load()``, kept by ``text`` (pickled: each caller gets its own copy)."""
    key = hashlib.sha256(text.encode()).digest()
    return pickle.loads(_entries.remembered(key, lambda: pickle.dumps(load(), protocol=pickle.HIGHEST_PROTOCOL)))


def load_entries(text: str) -> Any:
    """What ``load_text`` returns, reading a list of entries one entry at a time (each entry's
    data kept by its text, so unchanged entries are not parsed again). Anything other than a
    block sequence of entries is read whole (and kept by its text); an entry that does not read
    as exactly one means the whole text is read again as one (so an error names its line in the
    file)."""
    pieces = entry_texts(text)
    if pieces is None:
        return _kept(text, lambda: load_text(text))
    items = []
    try:
        for piece in pieces:
            data = _kept(piece, lambda: load_text(piece))
            if not isinstance(data, list) or len(data) != 1:
                return load_text(text)
            items.append(data[0])
    except YAMLError:
        return load_text(text)
    return items


def compose_text(text: str) -> Node | None:
    """The node tree of one YAML document (every node knows its start and end mark)."""
    return yaml.compose(text, Loader=ContentLoader)


def load_with_nodes(text: str) -> tuple[Any, Node | None]:
    """The plain data and the node tree it was built from, parsing the text once."""
    loader = ContentLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
        return data, node
    finally:
        loader.dispose()


def parse_events(text: str) -> Iterator[Event]:
    """The parser's events, streamed without building anything."""
    return yaml.parse(text, Loader=ContentLoader)


def dump_text(data: Any) -> str:
    """``data`` as block-style YAML, keys sorted, non-ASCII letters as they are."""
    return yaml.dump(data, Dumper=ContentDumper, default_flow_style=False, allow_unicode=True, sort_keys=True)
