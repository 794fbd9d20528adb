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


@pytest.mark.parametrize("value,line", [
    ("2001-13-45", 2), ("2001-02-30", 2), ("2001-01-01 25:00:00", 2), ("!!float abc", 2), ("!!bool maybe", 2),
    ("!!timestamp x", 2),
])
def test_a_scalar_that_looks_like_its_type_but_is_none_is_a_problem_not_a_crash(tmp_path, value, line):
    """PyYAML's constructors raise a bare ValueError, KeyError or AttributeError on these; an
    editor's citation field with one answered 500."""
    path = tmp_path / "game.yaml"
    path.write_text(f"a: 1\npublished: {value}\n", encoding="utf-8")
    file, problems = read_yaml(path, "game.yaml")
    assert file is None and [p.line for p in problems] == [line], problems


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


# -- a list of entries read entry by entry ------------------------------------------------------
from pathlib import Path  # noqa: E402

from rules_index.content import yaml12  # noqa: E402
from rules_index.content.yaml12 import entry_texts, load_entries  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENTRY_FILES = sorted(p for name in ("faq.yaml", "mistakes.yaml", "glossary.yaml") for p in (ROOT / "content").glob(f"*/{name}"))


@pytest.mark.parametrize("path", ENTRY_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_content_reads_the_same_entry_by_entry(path):
    text = path.read_text(encoding="utf-8")
    data = load_text(text)
    pieces = entry_texts(text)
    if data:  # one piece per entry, however many a game has
        assert pieces is not None and len(pieces) == len(data)
    assert load_entries(text) == data


@pytest.mark.parametrize("text", [
    "- a: 1\n  b: |\n    two\n    lines\n\n# between\n- a: 2\n  b: >-\n    folded\n    text\n",
    "# head\n\n- id: x\n  list:\n  - 1\n  - 2\n-   id: y\n-\n  id: z\n- plain\n  continued\n",
    "- {a: 1}\n- [1, 2]\n- 'quoted: -1'\n- \"- not an entry\"\n",
    "---\n- a: 1\n- a: 2\n",          # a document marker: read whole
    "a: 1\nb:\n- 1\n- 2\n",           # a mapping: read whole
    "[1, 2, 3]\n",                    # a flow sequence: read whole
    "  - a: 1\n  - a: 2\n",           # an indented sequence: read whole
    "-1\n",                           # a number, not an entry
    "",
])
def test_entry_by_entry_reads_as_whole(text):
    assert load_entries(text) == load_text(text)


@given(st.lists(st.dictionaries(st.sampled_from(["id", "de", "en", "n"]),
                                st.one_of(st.text(max_size=30), st.integers(), st.booleans(), st.lists(st.text(max_size=8), max_size=3)),
                                min_size=1), max_size=6))
def test_any_dumped_list_reads_the_same_entry_by_entry(entries):
    text = dump_text(entries)
    assert load_entries(text) == load_text(text) == entries


def test_only_the_changed_entry_is_parsed_again(monkeypatch):
    text = (ROOT / "content" / "ohne-furcht-und-adel" / "faq.yaml").read_text(encoding="utf-8")
    load_entries(text)
    parsed = []
    real = yaml12.load_text
    monkeypatch.setattr(yaml12, "load_text", lambda piece: parsed.append(piece) or real(piece))
    pieces = entry_texts(text)
    changed = text.replace(pieces[3], pieces[3].replace("\n", "\n  # a new comment\n", 1))
    data = load_entries(changed)
    assert len(parsed) == 1 and parsed[0].startswith(pieces[3].splitlines()[0])
    assert data == real(changed)


def test_what_a_caller_changes_is_its_own():
    text = "- id: a\n  tags: [x]\n- id: b\n"
    first = load_entries(text)
    first[0]["tags"].append("y")
    assert load_entries(text) == [{"id": "a", "tags": ["x"]}, {"id": "b"}]


def test_an_error_in_one_entry_names_its_line_in_the_file(tmp_path):
    path = tmp_path / "faq.yaml"
    path.write_text("- id: a\n  de: fine\n- id: b\n  de: [unclosed\n", encoding="utf-8")
    file, problems = read_yaml(path, "faq.yaml", lines=False)
    assert file is None and problems and problems[0].line >= 4


@pytest.mark.parametrize("text", ["- 1\n---\n- 2\n", "- a: 1\nb: 2\n", "- a: 1\n  a: 2\n- b: 1\n"])
def test_what_is_no_list_of_entries_fails_as_it_does_whole(text):
    with pytest.raises(yaml12.YAMLError):
        load_text(text)
    with pytest.raises(yaml12.YAMLError):
        load_entries(text)


@pytest.mark.parametrize("text", [
    '- a: "one\u2028- two"\n- b: 1\n',  # a line separator inside a scalar starts no entry
    "- a: 1\r\n- b: 2\r\n",
    "- a: 1\n-\n  b: 2",
])
def test_line_ends_are_yamls(text):
    assert load_entries(text) == load_text(text)


def test_a_document_that_is_no_list_is_parsed_once_per_text(monkeypatch):
    parsed = []
    real = yaml12.load_text
    monkeypatch.setattr(yaml12, "load_text", lambda text: parsed.append(text) or real(text))
    text = "ohne-furcht-und-adel:\n  faq: [tie-break, zzz-once]\nkardinal:\n  faq: []\n"
    first = load_entries(text)
    first["kardinal"]["faq"].append("changed by its caller")
    assert load_entries(text) == {"ohne-furcht-und-adel": {"faq": ["tie-break", "zzz-once"]}, "kardinal": {"faq": []}}
    assert parsed == [text]
    assert load_entries(text + "# another text\n") == load_entries(text) and len(parsed) == 2
