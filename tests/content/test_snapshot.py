"""The snapshot of the content a library was read from: the temp file of an accept being written
beside the files is no content, and a file that vanishes while the content is read is read again."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from rules_index.content import filehashes
from rules_index.content.snapshot import read_content, snapshot_of
from rules_index.content.writer import materialize, plan_faq_change

ROOT = Path(__file__).resolve().parents[2]
GAME = "keine-ehre-unter-dieben"


def copy_of_content(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "content", tmp_path / "content")
    return tmp_path / "content"


def test_a_write_under_way_is_not_part_of_the_content(tmp_path):
    content = copy_of_content(tmp_path)
    before = filehashes.file_hashes(content)
    (content / GAME / ".faq.yaml.k2x9q1.tmp").write_text("- id: half-writ", encoding="utf-8")
    assert filehashes.file_hashes(content) == before
    library, snapshot = read_content(content)
    assert snapshot.fingerprint == filehashes.fingerprint_of(before) and snapshot_of(library) is snapshot


def test_a_file_that_vanishes_while_the_content_is_read_is_read_again(tmp_path, monkeypatch):
    """An accept renames its temp file over the file it replaces while another process lists the
    folder: the listed name is gone by the time it is read."""
    content = copy_of_content(tmp_path)
    hash_file, vanishing = filehashes._file_hash, content / GAME / "faq.yaml"
    calls = {"n": 0}

    def racing(path: str, st) -> str:
        if path == str(vanishing) and calls["n"] == 0:
            calls["n"] += 1
            plans = plan_faq_change(content, GAME, "not-enough-cards", {"en": {"question": "Too few cards?"}}, dt.date(2026, 12, 1))
            materialize(plans, content)
            raise FileNotFoundError(path)
        return hash_file(path, st)

    monkeypatch.setattr(filehashes, "_file_hash", racing)
    library, snapshot = read_content(content)
    assert calls["n"] == 1
    assert library.game(GAME).faq_entry("not-enough-cards").en.question == "Too few cards?"
    assert snapshot.files[f"{GAME}/faq.yaml"] == hash_file(str(vanishing), vanishing.stat())


def test_the_writers_own_temp_files_are_left_out_and_swept(tmp_path, monkeypatch):
    """The temp files ``materialize`` really makes, seen just before each is renamed over its
    file: the snapshot leaves them out and the writer's sweep finds them (one naming for both,
    ``tempnames``)."""
    import os

    from rules_index.content import writer

    content = copy_of_content(tmp_path)
    entry = read_content(content)[0].game(GAME).faq[0]
    plans = plan_faq_change(content, GAME, entry.id, {"en": {"answer": entry.en.answer + " More."}}, dt.date(2026, 12, 1))
    real_replace, seen = os.replace, []

    def replace(src, dst):
        seen.append((Path(src), set(filehashes.file_hashes(content)), writer.leftover_tmp(content)))
        return real_replace(src, dst)

    monkeypatch.setattr(writer.os, "replace", replace)
    materialize(plans, content)
    assert len(seen) == 2
    for temp, hashed, leftovers in seen:
        assert temp.parent == content / GAME and temp.name.endswith(".tmp")
        assert str(temp.relative_to(content)) not in hashed and f"{GAME}/faq.yaml" in hashed
        assert leftovers == [temp]
