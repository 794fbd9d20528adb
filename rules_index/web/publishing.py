"""Publishing the content as it is now: an index generation of it, which every process follows.

The content is read under the content lock, so that what is read and the version it is named by
(the commit) are of one moment; an unchanged game folder is taken from the snapshot instead of
parsed again. ``changed`` names the entries an accepted change wrote ((game slug, "faq" |
"section", entry id)): only their documents and checks are done again; without it, everything.
"""
from __future__ import annotations

import dataclasses
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Iterable

from flask import current_app

from rules_index.content import ContentError, Library, load_library
from rules_index.content.loader import library_of_checked_games, load_checked_game
from rules_index.content.repo import content_version
from rules_index.content.snapshot import content_fingerprint, read_content
from rules_index.corrections.content_lock import content_lock, lock_file_in
from rules_index.search import build, stored_game
from rules_index.search.build import same_ids

from .state import Snapshot, repin, served


def _load(root: Path, link: Path, served: Snapshot | None = None) -> Library:
    """The content under ``root``; a game whose folder holds the same files as when ``served``
    (this process's snapshot) or the current generation was built is taken from there instead of
    parsed. Raises ContentError (every problem, with its line) when it is invalid."""
    def checked_game(folder: Path, root: Path, ids):
        fingerprint = content_fingerprint(folder)
        if (served is not None and served.fingerprints.get(folder.name) == fingerprint
                and same_ids(served.library.catalog.get(folder.name), ids)):
            return served.library.game(folder.name), []
        found = stored_game(link, folder.name, fingerprint, ids)
        if found is not None:
            return dataclasses.replace(found, folder=folder), []
        return load_checked_game(folder, root, ids)

    library = library_of_checked_games(root, checked_game)
    return library if library is not None else load_library(root)


def publish(changed: Iterable[tuple[str, str, str]] | None = None, holding_lock: bool = False) -> None:
    """Publish the content; ``holding_lock``: the caller holds the content lock already."""
    owner = served()
    root, link = owner.content_dir, owner.link.path
    lock = nullcontext() if holding_lock else content_lock(lock_file_in(current_app.instance_path))
    held = owner.held
    with lock:
        try:
            library, snapshot = read_content(root, partial(_load, link=link, served=held))
        except ContentError as exc:
            # A commit that does not pass the checks (pushed past the gate) stops publication
            # here until a commit mends it: readers keep the snapshot served, and health says why.
            owner.unpublishable = [str(problem) for problem in exc.problems]
            raise
        version = content_version(root, snapshot.fingerprint)
    build(library, link, root, changed=None if changed is None else list(changed), version=version,
          held_checks=None if held is None else (held.path, held.checks))
    owner.unpublishable = None
    repin()
