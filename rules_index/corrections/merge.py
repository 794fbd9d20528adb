"""Three texts of one field -- base (what the editor started from), theirs (stored now), yours (sent) --
and the merge an editor is offered after a stale save.

Fields are merged whole: where only one side changed a field, that side's text is taken; where
both changed it differently, the editor's own text is kept and the field is marked as a conflict
for them to decide (the marker is shown beside the field, never written into the text, so an
unresolved conflict cannot end up in the content).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldMerge:
    name: str
    base: str | None  # None: the base text is not known
    theirs: str
    yours: str
    merged: str
    conflict: bool

    @property
    def changed(self) -> bool:
        """Whether this field needs the editor's eye: either side changed it."""
        return self.theirs != self.yours or (self.base is not None and self.base != self.theirs)


def _same(a: str | None, b: str | None) -> bool:
    # The writer stores texts stripped and browsers send textareas with CRLF line ends.
    norm = lambda text: None if text is None else text.replace("\r\n", "\n").strip()  # noqa: E731
    return norm(a) == norm(b)


def merge_field(name: str, base: str | None, theirs: str, yours: str) -> FieldMerge:
    if _same(theirs, yours):
        return FieldMerge(name, base, theirs, yours, theirs, False)
    if base is not None and _same(theirs, base):
        return FieldMerge(name, base, theirs, yours, yours, False)
    if base is not None and _same(yours, base):
        return FieldMerge(name, base, theirs, yours, theirs, False)
    return FieldMerge(name, base, theirs, yours, yours, True)


def merge_fields(base: dict[str, str] | None, theirs: dict[str, str], yours: dict[str, str]) -> list[FieldMerge]:
    """One FieldMerge per field of ``theirs`` (in its order); ``base`` None when it is not known."""
    return [
        merge_field(name, None if base is None else base.get(name), theirs[name], yours.get(name, theirs[name]))
        for name in theirs
    ]
