"""The temp file of a content file being replaced (``writer.materialize``): ``.<name>.<random>.tmp``
beside ``<name>``, renamed over it once written. One definition for the writer, which makes and
sweeps these files, and for the content snapshots, which leave them out."""
from __future__ import annotations

import glob

SUFFIX = ".tmp"


def prefix(name: str) -> str:
    """What the temp file of ``name`` begins with (``tempfile.mkstemp`` adds the random part)."""
    return f".{name}."


def pattern(name: str) -> str:
    """A glob for the temp files of ``name`` in its folder."""
    return f"{glob.escape(prefix(name))}*{SUFFIX}"


def is_temp_name(name: str) -> bool:
    """Whether a file's name is that of the temp file of some content file."""
    return name.startswith(".") and name.endswith(SUFFIX) and "." in name[1:-len(SUFFIX)]
