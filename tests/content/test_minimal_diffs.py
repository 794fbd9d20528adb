"""An accepted change is written as the smallest edit of the content files.

Every FAQ question and answer and every rules section of every game is changed by one sentence in
a copy of ``content/``; the planned files may differ from the stored ones only in the lines of
that text (and game.yaml in its ``stand:`` line), and must read back as the same data with only
that value changed.
"""
from __future__ import annotations

import copy
import datetime as dt
import functools
import gc
import os
import re
import shutil
import stat
import weakref
from pathlib import Path

import pytest

from rules_index.content import writer
from rules_index.content.rules_markdown import split_sections
from rules_index.content.writer import (
    FilePlan,
    WriteCheckFailed,
    materialize,
    plan_faq_change,
    plan_section_change,
)
from rules_index.content.yaml12 import compose_text, load_text

CONTENT = Path(__file__).resolve().parents[2] / "content"
GAMES = sorted(p.parent.name for p in CONTENT.glob("*/faq.yaml"))
LANGS = ("de", "en", "it")
TODAY = dt.date(2031, 2, 3)


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("content") / "content"
    shutil.copytree(CONTENT, copy)
    return copy


def changed_region(before: str, after: str) -> tuple[int, list[str], list[str]]:
    """The first changed line (0-based) and the lines removed and added between the texts.

    Lines outside one contiguous region are equal, so a unified diff shows exactly these lines.
    """
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    first = 0
    while first < min(len(a), len(b)) and a[first] == b[first]:
        first += 1
    last = 0
    while last < min(len(a), len(b)) - first and a[-1 - last] == b[-1 - last]:
        last += 1
    return first, a[first:len(a) - last], b[first:len(b) - last]


def diff_lines(plan: FilePlan) -> tuple[list[str], list[str]]:
    lines = plan.diff().splitlines()
    removed = [line[1:] for line in lines if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")]
    return removed, added


def one_sentence_more(text: str) -> str:
    return text.strip() + " Extra sentence."


def first_sentence_replaced(text: str) -> str:
    """The text with its first sentence (in its first line) replaced."""
    first, _, others = text.strip().partition("\n")
    match = re.search(r"[.?!:](?: |$)", first)
    rest = first[match.end():].strip() if match else ""
    return "A new first sentence." + (" " + rest if rest else "") + ("\n" + others if others else "")


def sorted_keys(value):
    if isinstance(value, dict):
        return {k: sorted_keys(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [sorted_keys(v) for v in value]
    return value


@functools.lru_cache(maxsize=8)
def _entries(text: str):
    tree = compose_text(text)
    return list(zip(load_text(text), tree.value))


def entries(text: str):
    """(entry data, its node) for every entry of a faq.yaml text (fresh data: tests change it)."""
    return [(copy.deepcopy(d), n) for d, n in _entries(text)]


def value_node(entry_node, *keys):
    node = entry_node
    for key in keys:
        node = next(v for k, v in node.value if k.value == key)
    return node


def entry_text(text: str, nodes, index: int, line_shift: int = 0) -> str:
    """The lines of entry ``index`` (an item of the top-level list reads alone as it reads in the file)."""
    lines = text.splitlines(keepends=True)
    start = nodes[index].start_mark.line
    stop = nodes[index + 1].start_mark.line + line_shift if index + 1 < len(nodes) else len(lines)
    return "".join(lines[start:stop])


def assert_stand_only(plan: FilePlan) -> None:
    assert plan.path.endswith("/game.yaml")
    removed, added = diff_lines(plan)
    assert len(removed) == 1 and removed[0].startswith("stand: ")
    assert added == [f"stand: {TODAY.isoformat()}"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_faq_text_change_touches_only_its_lines(root, slug):
    before = (root / slug / "faq.yaml").read_text(encoding="utf-8")
    pairs = entries(before)
    nodes = [node for _data, node in pairs]
    full_checks = 0
    for index, (data, node) in enumerate(pairs):
        for lang in LANGS:
            for field, change in (("question", one_sentence_more), ("answer", first_sentence_replaced)):
                new = change(data[lang][field])
                plans = plan_faq_change(root, slug, data["id"], {lang: {field: new}}, TODAY)
                where = f"{slug} {data['id']} {lang}.{field}"
                assert [p.path for p in plans] == [f"{slug}/faq.yaml", f"{slug}/game.yaml"], where
                assert_stand_only(plans[1])
                after = plans[0].after
                scalar = value_node(node, lang, field)
                first, removed, added = changed_region(before, after)
                assert removed and added, where
                if scalar.style in ("|", ">"):
                    # Only lines inside the block: its header line and the lines around stay.
                    body_first = scalar.start_mark.line + 1
                    body_last = body_first + len(data[lang][field].rstrip("\n").split("\n")) - 1
                    assert body_first <= first and first + len(removed) - 1 <= body_last, where
                    assert after.count("\n") - before.count("\n") == len(added) - len(removed)
                else:
                    assert first == scalar.start_mark.line, where
                    assert len(removed) == 1 and len(added) == 1, where
                if index == 0:
                    # The history's patch shows these lines and no others.
                    assert diff_lines(plans[0]) == ([r.rstrip("\n") for r in removed], [a.rstrip("\n") for a in added]), where
                # Read back: the entry is the same but for the changed value.
                expected = {**data, lang: {**data[lang], field: new + ("\n" if scalar.style in ("|", ">") else "")}}
                shift = len(added) - len(removed)
                got = load_text(entry_text(after, nodes, index, shift))
                assert got == [expected], where
                if index in (0, len(pairs) - 1) and lang == "de" and full_checks < 2:
                    full_checks += 1
                    whole = load_text(before)
                    whole[index] = expected
                    assert load_text(after) == whole, where


def sections(text: str) -> list[tuple[str, str, str]]:
    return [(s.id, s.title, s.body) for s in split_sections(text, "")[0]]


@pytest.mark.parametrize("slug", GAMES)
def test_every_rules_section_change_touches_only_its_body_lines(root, slug):
    for lang in LANGS:
        before = (root / slug / f"rules.{lang}.md").read_text(encoding="utf-8")
        parsed = split_sections(before, "")[0]
        for number, section in enumerate(parsed):
            new = one_sentence_more(section.body) if number % 2 else first_sentence_replaced(section.body)
            plans = plan_section_change(root, slug, section.id, {lang: new}, TODAY)
            where = f"{slug} rules.{lang}.md {section.id}"
            assert [p.path for p in plans] == [f"{slug}/rules.{lang}.md", f"{slug}/game.yaml"], where
            assert_stand_only(plans[1])
            after = plans[0].after
            first, removed, added = changed_region(before, after)
            body_lines = section.body.split("\n")
            # The body begins after the heading and its blank lines; only its lines change.
            assert first >= section.line and all(line.strip() for line in removed[:1] + added[:1]), where
            assert len(removed) <= len(body_lines) and len(added) == len(removed), where
            if number % 2:
                assert len(removed) == 1 and removed[0].rstrip("\n") == body_lines[-1], where
            else:
                assert removed[0].rstrip("\n") == body_lines[0], where
            want = [(s.id, s.title, new if s.id == section.id else s.body) for s in parsed]
            assert sections(after) == want, where


def test_unchanged_text_and_structure_leave_the_file_byte_identical(root):
    for slug in GAMES:
        text = (root / slug / "faq.yaml").read_text(encoding="utf-8")
        for data, _node in entries(text):
            # As the editor's form sends it: the structured keys read back from YAML with sorted keys,
            # every text, with a browser's line ends.
            updates = {key: sorted_keys(data.get(key)) for key in ("citation", "ruling", "check")}
            for lang in LANGS:
                updates[lang] = {f: data[lang][f].replace("\n", "\r\n") for f in ("question", "answer")}
            plans = plan_faq_change(root, slug, data["id"], updates, TODAY)
            assert [p.before == p.after for p in plans] == [True], (slug, data["id"])


def test_one_value_of_check_rewrites_one_line(root):
    slug, text = GAMES[0], (root / GAMES[0] / "faq.yaml").read_text(encoding="utf-8")
    data, node = next((d, n) for d, n in entries(text) if len(d.get("check", [])) >= 2)
    check = [dict(item) for item in data["check"]]
    check[1] = {**check[1], "scenario": {**check[1]["scenario"], "en": "Changed: a scenario with a colon, and # a hash."}}
    plans = plan_faq_change(root, slug, data["id"], {"check": check, "citation": data["citation"]}, TODAY)
    first, removed, added = changed_region(text, plans[0].after)
    line = value_node(node, "check").value[1]
    scenario = value_node(line, "scenario")
    assert (len(removed), len(added)) == (1, 1)
    assert first == value_node(scenario, "en").start_mark.line
    assert load_text(added[0].replace("en:", "x:", 1).strip()) == {"x": check[1]["scenario"]["en"]}


def test_a_new_shape_of_check_rewrites_only_that_keys_block(root):
    slug, text = GAMES[1], (root / GAMES[1] / "faq.yaml").read_text(encoding="utf-8")
    pairs = entries(text)
    index, (data, node) = next((i, p) for i, p in enumerate(pairs) if p[0].get("check"))
    check = data["check"] + [dict(data["check"][0], given={**data["check"][0].get("given", {}), "extra": [1, 2]})]
    plans = plan_faq_change(root, slug, data["id"], {"check": check}, TODAY)
    after = plans[0].after
    first, removed, added = changed_region(text, after)
    block = value_node(node, "check")
    key_line = next(k for k, _v in node.value if k.value == "check").start_mark.line
    last_line = max(n.end_mark.line for n in block.value)
    assert key_line <= first and first + len(removed) - 1 <= last_line
    got = load_text(entry_text(after, [n for _d, n in pairs], index, len(added) - len(removed)))
    assert got == [{**data, "check": check}]


def test_a_key_given_as_none_goes_and_an_absent_one_stays_absent(root):
    slug, text = GAMES[0], (root / GAMES[0] / "faq.yaml").read_text(encoding="utf-8")
    data = next(d for d, _n in entries(text) if d.get("check"))
    after = plan_faq_change(root, slug, data["id"], {"check": None}, TODAY)[0].after
    first, removed, added = changed_region(text, after)
    assert added == [] and removed[0].strip() == "check:"
    assert "check" not in next(d for d in load_text(after) if d["id"] == data["id"])
    lacking = next((s, d) for s in GAMES for d, _n in entries((root / s / "faq.yaml").read_text(encoding="utf-8")) if "check" not in d)
    plans = plan_faq_change(root, lacking[0], lacking[1]["id"], {"check": None}, TODAY)
    assert [p.before == p.after for p in plans] == [True]


@pytest.mark.parametrize("text", [
    "Line one.\r\nLine two.\r\n\r\nLine three.",
    "Line one.\rLine two.\r\rLine three.",
])
def test_browser_line_ends_are_written_as_lf(root, text):
    slug = GAMES[0]
    data = load_text((root / slug / "faq.yaml").read_text(encoding="utf-8"))[0]
    plans = plan_faq_change(root, slug, data["id"], {"en": {"answer": text, "question": "Q?\r\nReally?"}}, TODAY)
    assert "\r" not in plans[0].after
    entry = next(d for d in load_text(plans[0].after) if d["id"] == data["id"])
    assert entry["en"]["answer"] == "Line one.\nLine two.\n\nLine three.\n"
    assert entry["en"]["question"] == "Q?\nReally?\n"
    section = split_sections((root / slug / "rules.en.md").read_text(encoding="utf-8"), "")[0][0]
    plans = plan_section_change(root, slug, section.id, {"en": text}, TODAY)
    assert "\r" not in plans[0].after
    assert split_sections(plans[0].after, "")[0][0].body == "Line one.\nLine two.\n\nLine three."


def plain_question(root: Path, lang: str):
    """A game, its faq.yaml text, and an entry whose question in ``lang`` is a plain scalar."""
    for slug in GAMES:
        text = (root / slug / "faq.yaml").read_text(encoding="utf-8")
        for data, node in entries(text):
            if value_node(node, lang, "question").style in ("", None):
                return slug, text, data, node
    raise AssertionError("no plain question in content/")


@pytest.mark.parametrize("question", [
    "Is it: yes or no?",
    "#1 question?",
    "* starred? & anchored",
    "- a dash",
    "yes",
    "123",
    'He said "no" \\ twice',
    "Tab\there",
])
def test_text_that_plain_yaml_cannot_hold_is_quoted(root, question):
    slug, text, data, node = plain_question(root, "en")
    plans = plan_faq_change(root, slug, data["id"], {"en": {"question": question}}, TODAY)
    first, removed, added = changed_region(text, plans[0].after)
    assert (len(removed), len(added)) == (1, 1)
    assert next(d for d in load_text(plans[0].after) if d["id"] == data["id"])["en"]["question"] == question


def test_several_lines_into_a_one_line_question_become_a_literal_block(root):
    slug, text, data, node = plain_question(root, "de")
    plans = plan_faq_change(root, slug, data["id"], {"de": {"question": "Erste Zeile: ja.\n\n# Zweite"}}, TODAY)
    first, removed, added = changed_region(text, plans[0].after)
    indent = value_node(node, "de", "question").start_mark.column - len("question: ")
    assert first == value_node(node, "de", "question").start_mark.line and len(removed) == 1
    assert added == [" " * indent + "question: |\n", " " * (indent + 2) + "Erste Zeile: ja.\n", "\n", " " * (indent + 2) + "# Zweite\n"]


def test_a_wrong_text_is_refused_not_planned(root, monkeypatch):
    slug = GAMES[0]
    data = load_text((root / slug / "faq.yaml").read_text(encoding="utf-8"))[0]
    monkeypatch.setattr(writer, "_text_scalar", lambda text, style, indent: (text, text))
    with pytest.raises(WriteCheckFailed):
        plan_faq_change(root, slug, data["id"], {"en": {"question": "Broken: on purpose"}}, TODAY)
    monkeypatch.setattr(writer, "_text_scalar", lambda text, style, indent: ('"unclosed', text))
    with pytest.raises(WriteCheckFailed):
        plan_faq_change(root, slug, data["id"], {"en": {"question": "Broken"}}, TODAY)


def test_planning_composes_only_the_entrys_lines_and_writing_lets_them_go(tmp_path, monkeypatch):
    """Planning a change composes the node tree of the entry's own lines, not of the file (a FAQ
    file's tree is some 17,000 objects and tens of milliseconds); writing the plans lets it go,
    freed at once (a serving process must not keep it)."""
    game = tmp_path / "content" / GAMES[0]
    shutil.copytree(CONTENT / GAMES[0], game)
    before = (game / "faq.yaml").read_text(encoding="utf-8")
    entries = load_text(before)
    composed = []
    monkeypatch.setattr(writer, "compose_text", lambda text: composed.append(text) or compose_text(text))
    writer._parsed.cache_clear()
    plans = plan_faq_change(tmp_path / "content", GAMES[0], entries[1]["id"], {"en": {"question": "A new question?"}}, TODAY)
    assert len(composed) == 1 and composed[0] in before and load_text(composed[0]) == [entries[1]]
    tree = weakref.ref(writer._parsed(composed[0])[0])
    assert writer._parsed.cache_info().hits == 1
    gc.disable()
    try:
        materialize(plans, tmp_path / "content")
        assert tree() is None
    finally:
        gc.enable()


def test_an_entry_not_begun_by_its_id_line_is_found_in_the_whole_file(tmp_path):
    """The entry's lines are found from the "- id: ..." lines when every item begins with one;
    an item written otherwise (valid YAML all the same) makes the writer read the whole file,
    and the change is as small."""
    game = tmp_path / "content" / GAMES[0]
    shutil.copytree(CONTENT / GAMES[0], game)
    text = (game / "faq.yaml").read_text(encoding="utf-8")
    entries = load_text(text)
    first = f"- id: {entries[0]['id']}\n"
    odd = text.replace(first, f"-\n  id: {entries[0]['id']}\n", 1)
    assert odd != text and load_text(odd) == entries
    (game / "faq.yaml").write_text(odd, encoding="utf-8")
    assert writer.item_span(odd, entries[1]["id"]) is None
    assert writer.item_span(text, entries[1]["id"]) is not None
    question = "A new question for the second entry?"
    plans = plan_faq_change(tmp_path / "content", GAMES[0], entries[1]["id"], {"en": {"question": question}}, TODAY)
    after = load_text(plans[0].after)
    assert after[1]["en"]["question"] == question and after[0] == entries[0] and after[2:] == entries[2:]
    changed = [line for line in plans[0].diff().splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert len(changed) == 2 and question in changed[1]


def test_an_id_on_two_items_is_not_taken_from_the_lines():
    text = "- id: a\n  x: 1\n- id: b\n  x: 2\n- id: a\n  x: 3\n"
    assert writer.item_span(text, "b") == (text.index("- id: b"), text.index("- id: a", 1))
    assert writer.item_span(text, "a") is None
    assert writer.item_span(text, "c") is None


@pytest.mark.parametrize("mode", [0o644, 0o664, 0o600])
def test_materialize_keeps_the_files_mode(tmp_path, mode):
    game = tmp_path / "content" / GAMES[0]
    shutil.copytree(CONTENT / GAMES[0], game)
    for name in ("faq.yaml", "game.yaml"):
        os.chmod(game / name, mode)
    data = load_text((game / "faq.yaml").read_text(encoding="utf-8"))[0]
    plans = plan_faq_change(tmp_path / "content", GAMES[0], data["id"], {"en": {"question": "A new question?"}}, TODAY)
    materialize(plans, tmp_path / "content")
    for name in ("faq.yaml", "game.yaml"):
        assert stat.S_IMODE(os.stat(game / name).st_mode) == mode
    assert (game / "faq.yaml").read_text(encoding="utf-8") == plans[0].after
    assert not [p for p in game.iterdir() if p.name.endswith(".tmp")]


def test_a_body_that_is_no_plain_section_text_is_left_to_validation(root):
    slug = GAMES[0]
    section = split_sections((root / slug / "rules.en.md").read_text(encoding="utf-8"), "")[0][0]
    plans = plan_section_change(root, slug, section.id, {"en": "## Not a section\n\nText"}, TODAY)
    assert "## Not a section\n" in plans[0].after  # the gate's validation refuses it, with its message


def test_a_section_keeps_the_blank_lines_around_its_body(tmp_path):
    game = tmp_path / "content" / GAMES[0]
    shutil.copytree(CONTENT / GAMES[0], game)
    text = "## First {#first}\nFirst body.\n\n\n## Second {#second}\n\n\nSecond body,\nsecond line.\n\n"
    (game / "rules.en.md").write_text(text, encoding="utf-8")
    for section_id, body, removed_lines, added_lines in (
        ("first", "First body, changed.", ["First body.\n"], ["First body, changed.\n"]),
        ("second", "Second body,\nchanged line.", ["second line.\n"], ["changed line.\n"]),
    ):
        after = plan_section_change(tmp_path / "content", GAMES[0], section_id, {"en": body}, TODAY)[0].after
        first, removed, added = changed_region(text, after)
        assert (removed, added) == (removed_lines, added_lines)


def test_a_key_the_entry_lacks_is_added_after_its_last_line(root):
    slug, data = next((s, d) for s in GAMES for d, _n in entries((root / s / "faq.yaml").read_text(encoding="utf-8")) if "check" not in d)
    text = (root / slug / "faq.yaml").read_text(encoding="utf-8")
    check = [{"probe": "p", "given": {"a": 1}, "expect": {"legal": True}, "scenario": {"en": "Line one,\r\nline two."}}]
    after = plan_faq_change(root, slug, data["id"], {"check": check}, TODAY)[0].after
    first, removed, added = changed_region(text, after)
    assert removed == [] and added[0] == "  check:\n"
    entry = next(d for d in load_text(after) if d["id"] == data["id"])
    assert entry == {**data, "check": [{**check[0], "scenario": {"en": "Line one,\nline two."}}]}
