"""Where the index link points is read in one place: it follows every switch, names the real
generation directory, and is None while there is no index."""
from __future__ import annotations

import os

from rules_index.search import IndexLink
from rules_index.search.build import switch_link


def test_the_generation_follows_each_switch(tmp_path):
    gens = tmp_path / "index.generations"
    first, second = gens / "g1", gens / "g2"
    first.mkdir(parents=True)
    second.mkdir()
    link = IndexLink(tmp_path / "index")
    assert link.generation() is None
    switch_link(link.path, first)
    assert link.generation() == os.path.realpath(first)
    assert link.generation() == os.path.realpath(first)  # asked again: the same answer
    switch_link(link.path, second)
    assert link.generation() == os.path.realpath(second)
    switch_link(link.path, first)
    assert link.generation() == os.path.realpath(first)
    os.unlink(link.path)
    assert link.generation() is None


def test_a_directory_in_place_of_the_link_is_its_own_generation(tmp_path):
    (tmp_path / "index").mkdir()
    assert IndexLink(tmp_path / "index").generation() == os.path.realpath(tmp_path / "index")
    assert os.fspath(IndexLink(tmp_path / "index")) == str(tmp_path / "index")
