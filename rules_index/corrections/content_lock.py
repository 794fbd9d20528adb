"""One writer of the content at a time, across the threads and processes of one deployment.

Accepts, rejections and the recovery of unfinished accepts all take this lock: the file
``content.lock`` in the app's instance folder (flock), and a lock for the threads of a process.
"""
from __future__ import annotations

import fcntl
import threading
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = "content.lock"

_thread_lock = threading.Lock()


def lock_file_in(instance_path: str | Path) -> Path:
    """The lock file of the app whose instance folder is ``instance_path``."""
    return Path(instance_path) / LOCK_NAME


@contextmanager
def content_lock(lock_file: Path):
    """One writer at a time, across threads and processes (a dead process's flock is released)."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with _thread_lock, open(lock_file, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
