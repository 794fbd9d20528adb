"""sha256 of content files, each read again only once its identity on disk moved, and the
fingerprint of a set of them."""
from __future__ import annotations

import hashlib
from pathlib import Path

from . import tempnames

# Hashes of files already read, by path and identity (inode, size, change and modification
# times in ns): a file is read and hashed again only once any of them moved. Accepted changes
# are written by rename (a new inode), editors' tools write in place (a new mtime).
_hashed: dict[str, tuple[tuple, str]] = {}


def _file_hash(path: Path) -> str:
    st = path.stat()
    identity = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    key = str(path)
    known = _hashed.get(key)
    if known is not None and known[0] == identity:
        return known[1]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    _hashed[key] = (identity, digest)
    return digest


def is_write_in_progress(path: Path) -> bool:
    """Whether ``path`` is the temp file of a write under way (``tempnames``)."""
    return tempnames.is_temp(path)


def file_hashes(content_dir: Path) -> dict[str, str]:
    """sha256 of every file under ``content_dir``, by relative path (sorted), but for the temp
    files of writes under way. A file gone between the listing and its reading (renamed over
    another by an accept) is left out: the files then differ from a second pass, and
    ``snapshot.read_content`` reads again."""
    root = Path(content_dir)
    hashes = {}
    for path in sorted(p for p in root.rglob("*") if not is_write_in_progress(p) and p.is_file()):
        try:
            hashes[str(path.relative_to(root))] = _file_hash(path)
        except FileNotFoundError:
            continue
    return hashes


def fingerprint_of(hashes: dict[str, str]) -> str:
    digest = hashlib.sha256(b"content")
    for name, value in sorted(hashes.items()):
        digest.update(f"{name}\0{value}\n".encode())
    return digest.hexdigest()


def content_fingerprint(content_dir: Path) -> str:
    return fingerprint_of(file_hashes(content_dir))
