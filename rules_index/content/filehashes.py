"""sha256 of content files, each read again only once its identity on disk moved, and the
fingerprint of a set of them."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from . import tempnames

# Hashes of files already read, by path and identity (inode, size, change and modification
# times in ns): a file is read and hashed again only once any of them moved. Accepted changes
# are written by rename (a new inode), editors' tools write in place (a new mtime).
_hashed: dict[str, tuple[tuple, str]] = {}


def _file_hash(path: str, st: os.stat_result) -> str:
    identity = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    known = _hashed.get(path)
    if known is not None and known[0] == identity:
        return known[1]
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    _hashed[path] = (identity, digest)
    return digest


def _files(folder: str, relative: str, found: list[tuple[list[str], str, os.DirEntry]]) -> None:
    """(relative path's parts, relative path, entry) of every file under ``folder``, temp files of
    writes under way left out. ``os.scandir``, not ``Path.rglob``: it lists without a stat per file."""
    with os.scandir(folder) as entries:
        for entry in entries:
            name = f"{relative}{entry.name}"
            if entry.is_dir():
                if entry.name.startswith("."):  # a repository made in the content folder (.git)
                    continue
                _files(entry.path, f"{name}/", found)
            elif entry.is_file() and not tempnames.is_temp_name(entry.name):
                found.append((name.split("/"), name, entry))


def file_hashes(content_dir: Path) -> dict[str, str]:
    """sha256 of every file under ``content_dir``, by relative path (sorted), but for the temp
    files of writes under way. A file gone between the listing and its reading (renamed over
    another by an accept) is left out: the files then differ from a second pass, and
    ``snapshot.read_content`` reads again."""
    found: list[tuple[list[str], str, os.DirEntry]] = []
    _files(os.fspath(content_dir), "", found)
    found.sort(key=lambda item: item[0])  # by path parts, as paths sort
    hashes = {}
    for _parts, name, entry in found:
        try:
            hashes[name] = _file_hash(entry.path, entry.stat())
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
