"""Building our Whoosh index from any iterable of search Documents (synthetic games included).

Same schema, analyzers and field mapping as ``rules_index.search.build.write_generation``; the
result is a generation directory that ``SearchIndex`` opens directly.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Sequence

from whoosh import index as whoosh_index

from rules_index.content import LANGS
from rules_index.search import schema as f
from rules_index.search.analysis import german_vocabulary
from rules_index.search.build import MARKER
from rules_index.search.build import document_fields
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
    target.mkdir(parents=True)
    schema = f.build_schema(german_vocabulary(german_texts(docs)))
    ix = whoosh_index.create_in(str(target), schema)
    options = {"limitmb": limitmb}
    if procs > 1:
        options.update(procs=procs, multisegment=False)
    writer = ix.writer(**options)
    count = 0
    try:
        for doc in docs:
            writer.add_document(**document_fields(doc))
            count += 1
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    ix.close()
    marker = {"fingerprint": "bench", "documents": count, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "langs": list(LANGS)}
    (target / MARKER).write_text(json.dumps(marker))
    return count


def directory_mb(path: Path) -> float:
    total = 0
    for root, _dirs, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in files)
    return total / 1e6
