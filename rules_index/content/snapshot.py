"""The bytes a library was loaded from: its content fingerprint, per-file hashes, when it was read.

An index generation must be marked with the fingerprint of exactly the content it indexes. The
files are hashed before and after loading; when the two passes differ (a change was written
meanwhile) the content is read again, so the fingerprint is that of the loaded bytes.

``read_ns`` is the wall-clock time the successful read began: every change whose files were
written before it is in the library. A build never switches the index to content read earlier
than the current generation's (``build.build``), so a slow build cannot take the link back.

Libraries read here are remembered (weakly) with their snapshot, so that ``build`` knows the
bytes of the library it is given.
"""
from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .filehashes import content_fingerprint, file_hashes, fingerprint_of  # noqa: F401 (the snapshot's API)
from .loader import load_library
from .model import Library

READ_ATTEMPTS = 5


@dataclass(frozen=True)
class Snapshot:
    fingerprint: str
    read_ns: int
    files: dict[str, str] = field(default_factory=dict, compare=False, repr=False)  # relative path -> sha256


_lock = threading.Lock()
_snapshots: dict[int, tuple[weakref.ref, Snapshot]] = {}


def _remember(library: Library, snapshot: Snapshot) -> None:
    key = id(library)

    def forget(_ref, key=key):
        with _lock:
            _snapshots.pop(key, None)

    with _lock:
        _snapshots[key] = (weakref.ref(library, forget), snapshot)


def snapshot_of(library: Library) -> Snapshot | None:
    """The snapshot ``library`` was read with (``read_content``), or None."""
    with _lock:
        found = _snapshots.get(id(library))
    if found is None or found[0]() is not library:
        return None
    return found[1]


def read_content(content_dir: Path, load: Callable[[Path], Library] = load_library) -> tuple[Library, Snapshot]:
    """Load the content with ``load`` and the snapshot of exactly the bytes it loaded.

    Raises ContentError as ``load`` does; RuntimeError if the files keep changing.
    """
    root = Path(content_dir)
    for _ in range(READ_ATTEMPTS):
        started = time.time_ns()
        before = file_hashes(root)
        library = load(root)
        after = file_hashes(root)
        if before == after:
            snapshot = Snapshot(fingerprint_of(before), started, before)
            _remember(library, snapshot)
            return library, snapshot
    raise RuntimeError(f"{root} kept changing while it was read")
