"""Two rendered texts block by block, as the editors' review shows them: the blocks both share
once, and where they differ each version and the word diff. Read without the other version's
runs, each text stands whole and in order."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from rules_index.html_diff import compare_blocks
from rules_index.render import markdown_html

BLOCKS = ["The Thief takes the gold.", "- one\n- two **King**", "The *crown* goes on.", "> A quote.",
          "| a | b |\n|---|---|\n| 1 | 2 |", "Gold does not count."]


def squeezed(html) -> str:
    return re.sub(r"\s+", " ", str(html)).strip()


def test_shared_blocks_show_once_and_a_changed_one_with_its_diff():
    before = markdown_html("Intro.\n\n- one\n- two **x**\n\nLast para here.\n\nRemoved para.")
    after = markdown_html("Intro.\n\n- one\n- two **x**\n\nLast para there.")
    same, change = compare_blocks(before, after)
    assert squeezed(same.same) == "<p>Intro.</p> <ul> <li>one</li> <li>two <strong>x</strong></li> </ul>"
    assert (change.now, change.proposed) == (markdown_html("Last para here.\n\nRemoved para."), markdown_html("Last para there."))
    # Removed words between blocks stand in a paragraph of their own.
    assert squeezed(change.diff) == "<p>Last para <del>here</del> <ins>there</ins>.</p> <p><del>Removed para.</del></p>"


def test_a_new_block_has_no_text_now():
    (same, change) = compare_blocks(markdown_html("One."), markdown_html("One.\n\nTwo."))
    assert same.same == markdown_html("One.") and change.now is None
    assert change.proposed == markdown_html("Two.") and squeezed(change.diff) == "<p><ins>Two.</ins></p>"


@given(st.lists(st.sampled_from(BLOCKS), max_size=6), st.lists(st.sampled_from(BLOCKS), max_size=6))
def test_each_text_reads_whole_from_its_runs(before, after):
    old, new = markdown_html("\n\n".join(before)), markdown_html("\n\n".join(after))
    runs = compare_blocks(old, new)
    assert squeezed(" ".join(str(r.same if r.same is not None else r.now or "") for r in runs)) == squeezed(old)
    assert squeezed(" ".join(str(r.same if r.same is not None else r.proposed or "") for r in runs)) == squeezed(new)
    assert all((r.same is None) == (r.diff is not None) for r in runs)
