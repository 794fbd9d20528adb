"""Reading content YAML with line numbers, so every problem can name its file and line.

A file is parsed once into its node tree and the data is built from that tree; the line of a
value comes from its node's start mark.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from .problems import Problem
from .yaml12 import MarkedYAMLError, YAMLError, load_entries, load_with_nodes


@dataclass
class YamlFile:
    """A parsed YAML file and where its nodes stand."""

    path: Path
    display: str
    data: Any
    node: Node | None = None  # None: read without line numbers (``line`` answers 1)
    _lines: dict[tuple, int] | None = field(default=None, init=False, repr=False, compare=False)

    def line(self, *keys: Any) -> int:
        """1-based line of the deepest node reachable along ``keys`` (best effort)."""
        if self._lines is None:
            self._lines = path_lines(self.data, self.node)
        for end in range(len(keys), 0, -1):
            found = self._lines.get(tuple(keys[:end]))
            if found is not None:
                return found
        return 1


def path_lines(data: Any, node: Node | None) -> dict[tuple, int]:
    """1-based line of every path into ``data``: a key's path maps to the key's line, a list
    item's to the item's. ``data`` must be what ``node`` was constructed into."""
    lines: dict[tuple, int] = {}
    stack: list[tuple[tuple, Any, Node | None]] = [((), data, node)]
    while stack:
        path, value, at = stack.pop()
        if isinstance(at, MappingNode) and isinstance(value, dict):
            # A constructed dict has the nodes' keys in their order; only a merge (``<<``) that
            # an explicit key overrides leaves fewer keys than pairs: those are matched by text.
            if len(at.value) == len(value):
                pairs = zip(value, at.value)
            else:
                by_text = {str(key): key for key in value}
                pairs = ((by_text.get(str(key_node.value)), (key_node, value_node)) for key_node, value_node in at.value)
            for key, (key_node, value_node) in pairs:
                if key is None or key not in value:
                    continue
                lines[(*path, key)] = key_node.start_mark.line + 1
                stack.append(((*path, key), value[key], value_node))
        elif isinstance(at, SequenceNode) and isinstance(value, list):
            for index, (item, item_node) in enumerate(zip(value, at.value)):
                lines[(*path, index)] = item_node.start_mark.line + 1
                stack.append(((*path, index), item, item_node))
    return lines


def read_yaml(path: Path, display: str, lines: bool = True) -> tuple[YamlFile | None, list[Problem]]:
    """Parse one file; a syntax error becomes a Problem at the line the parser names.

    With ``lines=False`` the node tree is not kept and ``YamlFile.line`` answers 1, and a list
    of entries is read entry by entry (``yaml12.load_entries``).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [Problem(display, 1, "file is missing")]
    except UnicodeDecodeError as exc:
        return None, [Problem(display, 1, f"not valid UTF-8: {exc.reason}")]
    try:
        data, node = load_with_nodes(text) if lines else (load_entries(text), None)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        return None, [Problem(display, line, f"YAML syntax error: {exc.problem or exc.context}")]
    except YAMLError as exc:
        return None, [Problem(display, 1, f"YAML error: {exc}")]
    return YamlFile(path, display, data, node), []
