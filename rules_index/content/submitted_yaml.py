"""YAML that an editor types into a form (a FAQ entry's citation and check): plain data only.

Anchors and aliases are refused before anything is built: a few lines of aliases to aliases
expand into gigabytes ("billion laughs"), and nothing in the content needs them. Nesting is
bounded too, so a pasted ``[[[[…]]]]`` cannot exhaust the stack. Both are checked on the parser's
events, which stream through the text without building it.
"""
from __future__ import annotations

from typing import Any

from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, NodeEvent

from .yaml12 import YAMLError, load_text, parse_events

MAX_DEPTH = 20  # a check's "given" is a few levels deep; 20 leaves room and stops pathological input


class SubmittedYamlError(ValueError):
    """Why a submitted text is refused: ``reason`` is "alias", "depth" or "syntax"; for a syntax
    error, the parser's ``problem`` and where it found it (``line``, ``column``, from 1)."""

    def __init__(self, reason: str, detail: str = "", problem: str = "", line: int | None = None,
                 column: int | None = None):
        self.reason = reason
        self.detail = detail
        self.problem = problem
        self.line = line
        self.column = column
        super().__init__(f"{reason}: {detail}" if detail else reason)


def parse_submitted_yaml(text: str) -> Any:
    """The plain data of ``text``, or SubmittedYamlError (anchors, aliases, deep nesting, syntax)."""
    depth = 0
    try:
        for event in parse_events(text):
            if isinstance(event, AliasEvent) or (isinstance(event, NodeEvent) and event.anchor is not None):
                raise SubmittedYamlError("alias")
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise SubmittedYamlError("depth")
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
        return load_text(text)
    except YAMLError as exc:
        # libyaml scans a run of "[" or "{" ahead of its events and stops at its own limit (1000)
        # before the count above sees depth MAX_DEPTH: that refusal is the same one.
        if "maximum nesting depth" in str(getattr(exc, "problem", "")):
            raise SubmittedYamlError("depth") from None
        mark = getattr(exc, "problem_mark", None)
        raise SubmittedYamlError("syntax", str(exc), str(getattr(exc, "problem", "") or ""),
                                 None if mark is None else mark.line + 1,
                                 None if mark is None else mark.column + 1) from None
