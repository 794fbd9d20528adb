"""Reading content YAML with line numbers, so every problem can name its file and line."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .problems import Problem


def round_trip_yaml() -> YAML:
    """The one YAML configuration used to read and write content (comments and order kept)."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 100
    return yaml


@dataclass
class YamlFile:
    """A parsed YAML file and where its nodes stand."""

    path: Path
    display: str
    data: Any

    def line(self, *keys: Any) -> int:
        """1-based line of the deepest node reachable along ``keys`` (best effort)."""
        node = self.data
        line = 1
        for key in keys:
            lc = getattr(node, "lc", None)
            try:
                if isinstance(node, dict) and key in node:
                    if lc is not None:
                        line = lc.key(key)[0] + 1
                    node = node[key]
                elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
                    if lc is not None:
                        line = lc.item(key)[0] + 1
                    node = node[key]
                else:
                    break
            except (KeyError, IndexError, TypeError):
                break
        return line


def fast_yaml() -> YAML:
    """The C-based safe loader: plain data, no line numbers, several times faster."""
    yaml = YAML(typ="safe", pure=False)
    return yaml


def read_yaml(path: Path, display: str, lines: bool = True) -> tuple[YamlFile | None, list[Problem]]:
    """Parse one file; a syntax error becomes a Problem at the line the parser names.

    With ``lines=False`` the fast loader is used and ``YamlFile.line`` answers 1.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [Problem(display, 1, "file is missing")]
    except UnicodeDecodeError as exc:
        return None, [Problem(display, 1, f"not valid UTF-8: {exc.reason}")]
    try:
        data = (round_trip_yaml() if lines else fast_yaml()).load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        return None, [Problem(display, line, f"YAML syntax error: {exc.problem or exc.context}")]
    except YAMLError as exc:
        return None, [Problem(display, 1, f"YAML error: {exc}")]
    return YamlFile(path, display, data), []
