"""The history's word diff keeps the spaces between words: read with its struck-through words
or without them, no two words run together (they did where a removed word met a tag)."""
from __future__ import annotations

import html
import re

from hypothesis import given, strategies as st

from rules_index.html_diff import word_diff
from rules_index.render import markdown_html

WORDS = ["The", "Assassin", "took", "out", "**King**", "and", ",", ".", "the", "*crown*", "gold", "Thief"]
PLAIN = {"The", "Assassin", "took", "out", "King", "and", "the", "crown", "gold", "Thief"}


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def words(fragment: str) -> list[str]:
    return re.sub(r"[,.]", " ", text(fragment)).split()


def sentence(parts: list[str]) -> str:
    return " ".join(parts).replace(" ,", ",").replace(" .", ".")


def test_removed_words_beside_tags_keep_their_spaces():
    diff = str(word_diff(markdown_html("The Assassin *and* the victim"), markdown_html("The Assassin took the victim")))
    assert words(diff) == ["The", "Assassin", "and", "took", "the", "victim"]
    diff = str(word_diff(markdown_html("gold *crown* **King**"), markdown_html("Assassin.")))
    assert words(diff) == ["gold", "crown", "King", "Assassin"]
    diff = str(word_diff(markdown_html("took out The."), markdown_html("The Thief.")))
    assert words(diff) == ["took", "out", "The", "Thief"]


@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), st.lists(st.sampled_from(WORDS), min_size=1, max_size=8))
def test_no_two_words_run_together(before, after):
    old, new = markdown_html(sentence(before)), markdown_html(sentence(after))
    diff = str(word_diff(old, new))
    assert set(words(diff)) <= PLAIN, diff
    assert words(re.sub(r"<del>.*?</del>", "", diff)) == words(str(new)), diff
    assert words(re.sub(r"<ins>.*?</ins>", "", diff)) == words(str(old)), diff
