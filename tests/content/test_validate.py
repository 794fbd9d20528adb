"""The content validator: valid content passes; each kind of broken file is caught with file and line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules_index.content.bindings import tally

from app import ROOT
from rules_index.content import load

GAME = "tiny-game"


def edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / GAME / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_fixture_is_valid(tiny_content):
    library, problems = load(tiny_content)
    assert problems == []
    assert [f.id for f in library.game(GAME).faq] == ["coin-count", "coin-value"]


def test_real_content_is_valid():
    library, problems = load(ROOT / "content")
    assert [str(p) for p in problems] == []
    # Every folder of the content is a game of the library: none is left out unread.
    folders = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())
    assert folders and sorted(library.games) == folders


def test_basis_and_asides_are_read(tiny_content):
    edit(tiny_content, "faq.yaml", "  section: scoring\n", "  section: scoring\n  basis: assumption\n")
    edit(tiny_content, "faq.yaml", '"[Tre monete valgono 3 punti.]{.unchecked}"', '"[Tre monete valgono 3 punti.]{.unchecked} [Segreto.]{.editorial}"')
    library, problems = load(tiny_content)
    assert problems == []
    count, value = library.game(GAME).faq
    assert (count.basis, tally(count.it.answer).unchecked) == ("rule", 1)
    assert value.basis == "assumption" and (tally(value.it.answer).unchecked, tally(value.it.answer).editorial) == (1, 1)


# (case id, file, old text, new text, expected file, expected line, part of the message)
BROKEN = [
    ("yaml-syntax", "faq.yaml", '    answer: "[Es gibt 12 Münzen.]{.unchecked}"', "    answer: [Es gibt 12", "faq.yaml", 14, "YAML syntax error"),
    ("missing-language", "faq.yaml", '  it:\n    question: Quante monete ci sono?\n    answer: "[Ci sono 12 monete.]{.unchecked}"\n', "", "faq.yaml", 2, "0.it: required field is missing"),
    ("missing-field", "glossary.yaml", "  section: material\n", "", "glossary.yaml", 1, "0.section: required field is missing"),
    ("unknown-field", "faq.yaml", "  section: material\n", "  section: material\n  secton: material\n", "faq.yaml", 5, "unknown field"),
    ("empty-answer", "faq.yaml", 'answer: "[There are 12 coins.]{.unchecked}"', "answer: '  '", "faq.yaml", 16, "0.en.answer"),
    ("bad-id", "faq.yaml", "- id: coin-value", "- id: Coin_Value", "faq.yaml", 22, "1.id: String should match pattern"),
    ("duplicate-id", "faq.yaml", "- id: coin-value", "- id: coin-count", "faq.yaml", 2, "id 'coin-count' is used 2 times"),
    ("catalog-id-missing", "faq.yaml", "- id: coin-count", "- id: coin-number", "faq.yaml", 1, "catalog entry 'coin-count' is missing"),
    ("unknown-source", "faq.yaml", "citation: {source: review,", "citation: {source: reveiw,", "faq.yaml", 25, "unknown source 'reveiw'"),
    ("page-beyond-source", "sections.yaml", "pages: 3-4", "pages: 3-5", "sections.yaml", 8, "page 5 is beyond the 4 pages"),
    ("page-on-unpaged-source", "faq.yaml", "{source: review, section", "{source: review, pages: 2, section", "faq.yaml", 25, "has no page numbers"),
    ("page-missing", "mistakes.yaml", "pages: 3, ", "", "mistakes.yaml", 3, "the citation needs pages"),
    ("page-range-backwards", "sections.yaml", "pages: 3-4", "pages: 4-3", "sections.yaml", 8, "range must go upwards"),
    ("mistake-target-unknown", "mistakes.yaml", "faq: coin-value", "faq: coin-worth", "mistakes.yaml", 2, "unknown FAQ entry 'coin-worth'"),
    ("mistake-two-targets", "mistakes.yaml", "faq: coin-value", "faq: coin-value\n  section: scoring", "mistakes.yaml", 1, "exactly one of faq or section"),
    ("faq-section-unknown", "faq.yaml", "  section: scoring", "  section: scores", "faq.yaml", 24, "unknown section 'scores'"),
    ("related-unknown", "faq.yaml", "related: [coin-value]", "related: [coin-worth]", "faq.yaml", 5, "unknown FAQ entry 'coin-worth'"),
    ("glossary-section-unknown", "glossary.yaml", "section: material", "section: materials", "glossary.yaml", 2, "unknown section 'materials'"),
    ("role-unknown", "game.yaml", "publishers: [Testverlag]\n", "publishers: [Testverlag]\nroles: [coin, thief]\n", "game.yaml", 18, "unknown glossary entry 'thief'"),
    ("note-source-unknown", "notes.yaml", "source: review", "source: blog", "notes.yaml", 2, "unknown source 'blog'"),
    ("edition-unknown", "faq.yaml", "editions: [test-2020]\n  section: scoring", "editions: [test-2021]\n  section: scoring", "faq.yaml", 23, "unknown edition 'test-2021'"),
    ("source-edition-unknown", "game.yaml", "edition: test-2020\n    kind: review", "edition: test-1999\n    kind: review", "game.yaml", 36, "unknown edition 'test-1999'"),
    ("unreadable-mark", "faq.yaml", "[Ci sono 12 monete.]{.unchecked}", "[Ci sono 12 monete.]{.uncheked}", "faq.yaml", 19, "answer (it): \"[Ci sono 12 monete.]{.uncheked}\": write {fact=name}"),
    ("bound-to-no-fact", "faq.yaml", "[Three coins score 3 points.]{.unchecked}", "Three coins score [3 points]{fact=coin-value}.", "faq.yaml", 31, "answer (en): \"3 points\" is bound to 'coin-value', which is no fact of the ruling"),
    ("verdict-phrase-changed", "faq.yaml", "verdict: {de: 3 Punkte,", "verdict: {de: 3 Kronen,", "faq.yaml", 28, "answer (de): its first paragraph does not name \"3 Kronen\""),
    ("ruling-missing", "faq.yaml", "  ruling: {verdict: {de: 3 Punkte, en: 3 points, it: 3 punti}}\n", "", "faq.yaml", 22, "1.ruling: required field is missing"),
    ("slug-differs", "game.yaml", "slug: tiny-game", "slug: tiny-games", "game.yaml", 1, "differs from the folder name"),
    ("bad-date", "game.yaml", "stand: 2026-11-29", "stand: yesterday", "game.yaml", 2, "stand:"),
    ("bad-source-kind", "game.yaml", "kind: review", "kind: blog", "game.yaml", 37, "sources.1.kind"),
    ("markdown-section-missing", "rules.en.md", "## Scoring {#scoring}\n\nEach coin scores 1 point.\n", "", "rules.en.md", 1, "section 'scoring' of sections.yaml has no heading"),
    ("markdown-section-unknown", "rules.it.md", "{#scoring}", "{#points}", "rules.it.md", 5, "section 'points' is not in sections.yaml"),
    ("markdown-heading-without-id", "rules.de.md", "## Wertung {#scoring}", "## Wertung", "rules.de.md", 5, "must end in {#section-id}"),
    ("markdown-empty-section", "rules.de.md", "12 Münzen und ein Würfel.\n", "", "rules.de.md", 1, "section 'material' has no text"),
    ("markdown-order", "rules.de.md", "## Material {#material}\n\n12 Münzen und ein Würfel.\n\n## Wertung {#scoring}\n\nJede Münze zählt 1 Punkt.\n",
     "## Wertung {#scoring}\n\nJede Münze zählt 1 Punkt.\n\n## Material {#material}\n\n12 Münzen und ein Würfel.\n", "rules.de.md", 1, "not in the order"),
    ("page-link-to-a-section-id", "rules.de.md", "Jede Münze zählt 1 Punkt.", "Jede Münze zählt 1 Punkt.\n\nSiehe [Material](#material).",
     "rules.de.md", 9, "link to '#material': the game's page has no such place; a rules section is '#rule-material'"),
    ("page-link-nowhere", "rules.en.md", "Each coin scores 1 point.", "Each coin scores 1 point ([see](#rule-coins)).",
     "rules.en.md", 7, "link to '#rule-coins': the game's page has no such place"),
    ("basis-unknown", "faq.yaml", "  section: scoring\n", "  section: scoring\n  basis: guess\n", "faq.yaml", 25, "1.basis: Input should be"),
    ("editorial-with-check", "faq.yaml", "  section: scoring\n",
     "  section: scoring\n  basis: editorial\n  check: {probe: coin_value, given: {coins: 3}, expect: {points: 3}}\n",
     "faq.yaml", 22, "an editorial entry (basis: editorial) makes no rule claim and carries no check"),
    ("invisible-character", "faq.yaml", "[Ci sono 12 monete.]", "[Ci sono 1\u202e2 monete.]", "faq.yaml", 19, "holds the invisible character U+202E"),
    ("unchecked-list-gone", "faq.yaml", "  # No check tests the value: the answers mark it {.unchecked}.", "  unchecked: [{de: a, en: b, it: c}]", "faq.yaml", 36, "1.unchecked: unknown field"),
    ("check-without-expect", "faq.yaml", "  de:\n    question: Was zählt", "  check: {probe: coin_value, given: {coins: 3}, expect: {}}\n  de:\n    question: Was zählt", "faq.yaml", 26, "check"),
]


@pytest.mark.parametrize("case,name,old,new,file,line,message", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_content_is_reported(tiny_content, case, name, old, new, file, line, message):
    edit(tiny_content, name, old, new)
    _, problems = load(tiny_content)
    rendered = [str(p) for p in problems]
    expected_prefix = f"content/{GAME}/{file}:{line}: "
    matching = [r for r in rendered if r.startswith(expected_prefix) and message in r]
    assert matching, f"expected {expected_prefix}…{message}… in {rendered}"


def test_an_entry_that_fails_its_schema_is_reported_once(tiny_content):
    """coin-count names coin-value as related: when coin-value itself is broken, that is the one
    problem, not also an 'unknown FAQ entry' where it is named."""
    edit(tiny_content, "faq.yaml", "  section: scoring\n", "  section: scoring\n  basis: guess\n")
    _, problems = load(tiny_content)
    assert [p.message for p in problems] == ["1.basis: Input should be 'rule', 'assumption' or 'editorial'"]


def test_a_players_question_belongs_to_one_entry(tiny_content):
    """A question under ``asked`` stands under the one entry that answers it (case and spacing
    aside): under two entries, or twice under one, search would have to guess."""
    edit(tiny_content, "faq.yaml", "    it: [soldi]\n", '    it: [soldi]\n  asked:\n    en: ["How much money is in the box?"]\n')
    edit(tiny_content, "faq.yaml", "  section: scoring\n  citation",
         '  section: scoring\n  asked:\n    en: ["What does a coin score?", "how much  Money is in the box?"]\n  citation')
    _, problems = load(tiny_content)
    assert [str(p) for p in problems] == [
        f"content/{GAME}/faq.yaml:28: asked (en): 'how much  Money is in the box?' stands under entry 'coin-count' already"]
    edit(tiny_content, "faq.yaml", '"how much  Money is in the box?"', '"What does a coin  score?"')
    _, problems = load(tiny_content)
    assert [p.message for p in problems] == ["asked (en): 'What does a coin  score?' stands under entry 'coin-value' already"]


def test_a_way_of_asking_for_a_rules_section_belongs_to_it_alone(tiny_content):
    """A section is asked for as a whole ("How does scoring work?"); the same words under a FAQ
    entry would make search guess between the two."""
    edit(tiny_content, "sections.yaml", "section: {de: Wertung, en: Scoring, it: Punteggio}}\n",
         'section: {de: Wertung, en: Scoring, it: Punteggio}}\n  asked:\n    en: ["How does scoring work?", "what is a coin  Worth?"]\n')
    _, problems = load(tiny_content)
    assert [p.message for p in problems] == []  # an entry's question is not one of its ways of asking
    edit(tiny_content, "faq.yaml", "  section: scoring\n  citation", '  section: scoring\n  asked:\n    en: ["What is a coin worth?"]\n  citation')
    _, problems = load(tiny_content)
    assert [str(p) for p in problems] == [
        f"content/{GAME}/sections.yaml:10: asked (en): 'what is a coin  Worth?' stands under entry 'coin-value' already"]
    edit(tiny_content, "sections.yaml", '    en: ["How does scoring work?"', '    fr: ["Comment on compte ?"]\n    en: ["How does scoring work?"')
    _, problems = load(tiny_content)
    assert [p.message for p in problems if "fr" in p.message] == ["1.asked.fr: unknown field"]


def test_missing_file_is_reported(tiny_content):
    (tiny_content / GAME / "glossary.yaml").unlink()
    _, problems = load(tiny_content)
    assert f"content/{GAME}/glossary.yaml:1: file is missing" in [str(p) for p in problems]


def test_all_problems_reported_at_once(tiny_content):
    edit(tiny_content, "faq.yaml", "[Ci sono 12 monete.]{.unchecked}", "[Ci sono 12 monete.]{.uncheked}")
    edit(tiny_content, "glossary.yaml", "section: material", "section: materials")
    edit(tiny_content, "sections.yaml", "pages: 3-4", "pages: 3-9")
    _, problems = load(tiny_content)
    assert {p.file.split("/")[-1] for p in problems} == {"faq.yaml", "glossary.yaml", "sections.yaml"}


def test_cli_reports_file_and_line_and_fails(runner, tiny_content):
    edit(tiny_content, "faq.yaml", "[Ci sono 12 monete.]{.unchecked}", "[Ci sono 12 monete.]{.uncheked}")
    result = runner.invoke(args=["content", "validate", "--root", str(tiny_content)])
    assert result.exit_code == 1
    assert f"content/{GAME}/faq.yaml:19: answer (it): \"[Ci sono 12 monete.]{{.uncheked}}\": write {{fact=name}}" in result.output


def test_cli_passes_on_valid_content(runner, tiny_content):
    result = runner.invoke(args=["content", "validate", "--root", str(tiny_content)])
    assert result.exit_code == 0, result.output
    assert "ok: 1 games, 2 FAQ entries" in result.output


def test_a_short_title_names_one_game(tiny_content):
    """A short title picks its game in a question: one that another game also goes by is refused,
    at its line; a short title of its own passes."""
    shutil.copytree(tiny_content / GAME, tiny_content / "other-game")
    other = tiny_content / "other-game" / "game.yaml"
    other.write_text(other.read_text(encoding="utf-8")
                     .replace("slug: tiny-game", "slug: other-game")
                     .replace("{de: Kleines Spiel, en: Tiny Game, it: Piccolo gioco}", "{de: Anderes Spiel, en: Other Game, it: Altro gioco}")
                     .replace("  de: [Tiny Game]\n  en: [Kleines Spiel]\n", "  de: []\n  en: []\n"), encoding="utf-8")
    edit(tiny_content, "game.yaml", "  it: []\n", "  it: []\nshort_titles: {de: [Kleines], en: [Tiny], it: []}\n")
    assert [str(p) for p in load(tiny_content)[1]] == []
    edit(tiny_content, "game.yaml", "en: [Tiny]", "en: [tiny game, Other  game]")
    assert [str(p) for p in load(tiny_content)[1]] == [
        f"content/{GAME}/game.yaml:8: short title 'Other  game' is also a name of 'other-game', or part of one"]
    edit(tiny_content, "game.yaml", "en: [tiny game, Other  game]", "en: [altro]")
    assert [str(p) for p in load(tiny_content)[1]] == [
        f"content/{GAME}/game.yaml:8: short title 'altro' is also a name of 'other-game', or part of one"]
    # Compared as search compares names: umlauts typed out or not, accents and joining words aside.
    other.write_text(other.read_text(encoding="utf-8").replace(
        "Anderes Spiel, en: Other Game, it: Altro gioco", "Änderes Spiel, en: Other Game, it: Altro giòco"), encoding="utf-8")
    shown = "altro"
    for short in ("Aenderes Spiel", "the other game", "altro gioco"):
        edit(tiny_content, "game.yaml", f"en: [{shown}]", f"en: [{short}]")
        shown = short
        assert [str(p) for p in load(tiny_content)[1]] == [
            f"content/{GAME}/game.yaml:8: short title '{short}' is also a name of 'other-game', or part of one"]
