"""Splitting ``rules.<lang>.md`` into the rules summary's sections (``## Title {#id}`` headings)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .problems import Problem

HEADING = re.compile(r"^##\s+(?P<title>.+?)\s*\{#(?P<id>[^}]*)\}\s*$")


@dataclass(frozen=True)
class MarkdownSection:
    id: str
    title: str
    body: str
    line: int  # the heading's
    body_line: int = 0  # the line of the body's first line

    def line_of(self, offset: int) -> int:
        """The file's line of the character at ``offset`` in the body."""
        return self.body_line + self.body.count("\n", 0, offset)


def split_sections(text: str, display: str) -> tuple[list[MarkdownSection], list[Problem]]:
    problems: list[Problem] = []
    sections: list[MarkdownSection] = []
    current: dict | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            content = "\n".join(body).strip()
            if not content:
                problems.append(Problem(display, current["line"], f"section '{current['id']}' has no text"))
            blank = next((i for i, line in enumerate(body) if line.strip()), 0)
            sections.append(MarkdownSection(current["id"], current["title"], content, current["line"], current["line"] + 1 + blank))

    in_fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        match = None if in_fence else HEADING.match(line)
        if match:
            close()
            current, body = {"id": match["id"], "title": match["title"], "line": number}, []
        elif not in_fence and line.startswith("## "):
            problems.append(Problem(display, number, "a section heading must end in {#section-id}"))
        elif current is None:
            if line.strip():
                problems.append(Problem(display, number, "text before the first section heading"))
        else:
            body.append(line)
    close()
    return sections, problems
