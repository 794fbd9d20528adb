"""Where the index link points: the one place that reads it.

``<index>`` is a symlink to a complete generation under ``<index>.generations/``; a rebuild
switches it to a new directory name (``build.switch_link``). The generation the link points at
is the content generation of the site: the search index, content reloads, the page cache and
ETags all learn it from here (``IndexLink.generation``), never by reading the link themselves.
"""
from __future__ import annotations

import os
from pathlib import Path


class IndexLink(os.PathLike):
    """The index link of one place, read at most once per call: ``generation()`` costs one
    ``readlink`` while the link's text is unchanged (every generation has its own directory name).

    Usable wherever a path is (``os.fspath``), so that the functions taking the link's path
    accept it too.
    """

    def __init__(self, path: os.PathLike | str):
        self.path = Path(path)
        self._known: tuple[str, str] | None = None  # (the link's text, the real path it names)

    def __fspath__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        return f"IndexLink({str(self.path)!r})"

    def generation(self) -> str | None:
        """The real path of the generation the link points at, or None without an index there.
        A directory in place of a link is its own generation."""
        try:
            text = os.readlink(self.path)
        except FileNotFoundError:
            return None
        except OSError:  # not a link: a directory given as the index
            return os.path.realpath(self.path) if self.path.is_dir() else None
        known = self._known
        if known is not None and known[0] == text:
            return known[1]
        # Resolved from the text read, not from the link again: a switch in between cannot pair
        # one generation's text with another's path.
        real = os.path.realpath(self.path.parent / text)
        self._known = (text, real)
        return real
