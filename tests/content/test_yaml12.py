"""Content YAML as it is read and written: YAML 1.2 scalars, unique keys, lines from the node tree."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_index.content.yaml12 import dump_text, load_text
from rules_index.content.yamlfile import read_yaml


@pytest.mark.parametrize(("plain", "value"), [
    ("no", "no"), ("yes", "yes"), ("on", "on"), ("Off", "Off"), ("y", "y"),  # 1.1 would say bool
    ("1:30", "1:30"),  # 1.1 would say 90
    ("017", 17), ("0o17", 15), ("0x1f", 31), ("0b101", 5), ("-12", -12), ("1_000", 1000),
    ("1e3", 1000.0), ("1.5", 1.5), (".inf", float("inf")),
    ("true", True), ("False", False), ("~", None), ("null", None), ("", None),
    ("2024-01-02", dt.date(2024, 1, 2)), ("12 coins", "12 coins"),
])
def test_plain_scalars_read_as_yaml_1_2(plain, value):
    got = load_text(f"k: {plain}\n")["k"]
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("value", ["no", "yes", "1:30", "ja", "Münzen: 12", 12, True, None, 1.5])
def test_words_stay_plain_in_dumped_yaml_and_read_back(value):
    text = dump_text({"verdict": value})
    assert load_text(text) == {"verdict": value}
    if value in ("no", "yes", "1:30", "ja"):
        assert text == f"verdict: {value}\n"


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
))
def test_dumped_data_reads_back_as_itself(data):
    assert load_text(dump_text(data)) == data


def test_a_key_given_twice_is_refused_at_its_second_line(tmp_path):
    path = tmp_path / "faq.yaml"
    path.write_text("- id: a\n  en: x\n  de: y\n  en: z\n", encoding="utf-8")
    file, problems = read_yaml(path, "faq.yaml")
    assert file is None
    assert [(p.line, p.message) for p in problems] == [(4, "YAML syntax error: found duplicate key 'en'")]


def test_a_number_without_digits_is_a_problem_not_a_crash(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("a: 1\nplayers: 0x_\n", encoding="utf-8")
    file, problems = read_yaml(path, "game.yaml")
    assert file is None and [p.line for p in problems] == [2]


TEXT = """\
# a comment
- id: first
  en:
    question: Q?
    answer: A.
- id: second
  check:
    - probe: p
      given: {cards: 3}
"""


def test_lines_come_from_the_node_tree(tmp_path):
    path = tmp_path / "faq.yaml"
    path.write_text(TEXT, encoding="utf-8")
    file, problems = read_yaml(path, "faq.yaml")
    assert problems == []
    assert file.line(0) == 2
    assert file.line(0, "en", "answer") == 5
    assert file.line(1, "check", 0, "given", "cards") == 9
    assert file.line(1, "check", 0, "expect") == 8    # a missing key: the nearest line above it
    assert file.line(1, "citation", "section") == 6
    assert file.line(7) == 1


def test_without_lines_every_path_answers_one(tmp_path):
    path = tmp_path / "faq.yaml"
    path.write_text(TEXT, encoding="utf-8")
    file, _ = read_yaml(path, "faq.yaml", lines=False)
    assert file.data == load_text(TEXT)
    assert file.line(0, "en", "answer") == 1
