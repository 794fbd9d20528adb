"""Content problems as the validator reports them: ``file:line: message``."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    message: str
    # A value the schema refuses: pydantic's kind of refusal and where in the entry, so that the
    # editors' pages can say it in their language (web.gate_words).
    schema: tuple = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class ContentError(Exception):
    """Raised when content does not load or validate; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
