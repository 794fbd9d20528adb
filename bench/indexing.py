"""Building our Whoosh index from any iterable of search Documents (synthetic games included),
with the service's own ``build.write_documents``; the result is a generation directory that
``SearchIndex`` opens directly.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Sequence

from rules_index.content import LANGS
from rules_index.search.build import MARKER, write_documents
from rules_index.search.documents import Document


def german_texts(docs: Sequence[Document]):
    for doc in docs:
        if doc.lang == "de":
            yield doc.title
            yield doc.body
            yield " ".join(doc.keywords)


def write_index(docs: Sequence[Document], target: Path, procs: int = 1, limitmb: int = 256) -> int:
    """Index ``docs`` into the new directory ``target``; returns the document count.

    ``procs`` > 1 uses Whoosh's multiprocessing writer (sub-segments merged at commit).
    """
    target = Path(target)
    options = {"limitmb": limitmb}
    if procs > 1:
        options.update(procs=procs, multisegment=False)
    count = write_documents(docs, german_texts(docs), target, verbs=german_texts(docs), **options)
    marker = {"fingerprint": "bench", "documents": count, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "langs": list(LANGS)}
    (target / MARKER).write_text(json.dumps(marker))
    return count


def directory_mb(path: Path) -> float:
    total = 0
    for root, _dirs, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in files)
    return total / 1e6
