"""Checks across a game's files: references resolve, citations stay within their sources,
catalog ids are present, every answer says what its ruling says. One function per kind of check,
each yielding problems with file and line.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any, Iterable, Iterator

from pydantic import BaseModel

from rules_index.caches import MiB, ByteCache, text_key
from rules_index.characters import describe, hidden_character, lookalike_character
from rules_index.folding import name_words
from rules_index.render import markup_problem

from .model import ANCHOR_PREFIX, Game
from .bindings import answer_problems
from .claims import ruling_shape_problems, text_problems
from .problems import Problem
from .schema import LANGS, Citation
from .yamlfile import YamlFile


class Where:
    """Finds the line of an entry (by id) or one of its fields in a game's YAML files."""

    def __init__(self, files: dict[str, YamlFile], folder_display: str):
        self.files = files
        self.folder = folder_display

    def raw_ids(self, name: str) -> set[str]:
        """Ids written in a list file, including entries that failed their schema."""
        file = self.files.get(name)
        data = file.data if file is not None and isinstance(file.data, list) else []
        return {raw["id"] for raw in data if isinstance(raw, dict) and isinstance(raw.get("id"), str)}

    def __call__(self, name: str, entry_id: str | None = None, *keys: Any) -> tuple[str, int]:
        file = self.files.get(name)
        if file is None:
            return f"{self.folder}/{name}", 1
        if entry_id is None:
            return file.display, file.line(*keys)
        data = file.data if isinstance(file.data, list) else []
        for index, raw in enumerate(data):
            if isinstance(raw, dict) and raw.get("id") == entry_id:
                return file.display, file.line(index, *keys)
        return file.display, 1


def _problem(where: tuple[str, int], message: str, schema: tuple = ()) -> Problem:
    return Problem(where[0], where[1], message, schema)


def _citations(game: Game) -> Iterator[tuple[str, str | None, tuple, Citation]]:
    """Every citation of a game: (file, entry id, key path, citation)."""
    for section in game.sections:
        yield "sections.yaml", section.id, ("citation",), section.meta.citation
    for faq in game.faq:
        yield "faq.yaml", faq.id, ("citation",), faq.citation
    for mistake in game.mistakes:
        yield "mistakes.yaml", mistake.id, ("citation",), mistake.citation
    for note in game.notes:
        yield "notes.yaml", note.id, ("citation",), note.citation


def check_identity(game: Game, where: Where) -> Iterator[Problem]:
    if game.slug != game.folder.name:
        yield _problem(where("game.yaml", None, "slug"), f"slug '{game.slug}' differs from the folder name '{game.folder.name}'")


def check_unique_ids(game: Game, where: Where) -> Iterator[Problem]:
    groups = {
        "game.yaml editions": ("game.yaml", [e.id for e in game.info.editions], "editions"),
        "game.yaml sources": ("game.yaml", [s.id for s in game.info.sources], "sources"),
    }
    for name, file in where.files.items():
        if name != "game.yaml" and isinstance(file.data, list):
            ids = [raw.get("id") for raw in file.data if isinstance(raw, dict) and raw.get("id")]
            groups[name] = (name, ids, None)
    for file_name, ids, key in groups.values():
        for dup, count in Counter(ids).items():
            if count > 1:
                loc = where(file_name, dup) if key is None else where(file_name, None, key)
                yield _problem(loc, f"id '{dup}' is used {count} times")


def check_editions_and_sources(game: Game, where: Where) -> Iterator[Problem]:
    editions = {e.id for e in game.info.editions}
    for index, source in enumerate(game.info.sources):
        if source.edition not in editions:
            yield _problem(where("game.yaml", None, "sources", index, "edition"), f"source '{source.id}' names unknown edition '{source.edition}'")
    for name, items in (("faq.yaml", game.faq), ("sections.yaml", [s.meta for s in game.sections])):
        for item in items:
            for edition in item.editions:
                if edition not in editions:
                    yield _problem(where(name, item.id, "editions"), f"unknown edition '{edition}'")


def check_citations(game: Game, where: Where) -> Iterator[Problem]:
    for file_name, entry_id, keys, citation in _citations(game):
        source = game.source(citation.source)
        if source is None:
            yield _problem(where(file_name, entry_id, *keys, "source"), f"citation names unknown source '{citation.source}'")
            continue
        if source.pages is None and citation.pages is not None:
            yield _problem(where(file_name, entry_id, *keys, "pages"), f"source '{source.id}' has no page numbers: cite its section only")
        elif source.pages is not None and citation.pages is None:
            yield _problem(where(file_name, entry_id, *keys), f"source '{source.id}' has page numbers: the citation needs pages")
        elif source.pages is not None and citation.pages is not None and citation.pages[1] > source.pages:
            yield _problem(where(file_name, entry_id, *keys, "pages"), f"page {citation.pages[1]} is beyond the {source.pages} pages of source '{source.id}'",
                           (("type", "page_beyond"), ("where", ".".join((*keys, "pages"))), ("page", citation.pages[1]), ("pages", source.pages)))


def check_references(game: Game, where: Where) -> Iterator[Problem]:
    # Sections and entries that failed to load are reported elsewhere; do not also flag references to them.
    declared = {s.id for s in game.sections} | where.raw_ids("sections.yaml")
    faq_ids = {f.id for f in game.faq} | where.raw_ids("faq.yaml")
    for faq in game.faq:
        if faq.section not in declared:
            yield _problem(where("faq.yaml", faq.id, "section"), f"unknown section '{faq.section}'")
        for related in faq.related:
            if related == faq.id:
                yield _problem(where("faq.yaml", faq.id, "related"), "an entry cannot be related to itself")
            elif related not in faq_ids:
                yield _problem(where("faq.yaml", faq.id, "related"), f"unknown FAQ entry '{related}'")
    for mistake in game.mistakes:
        if mistake.faq is not None and mistake.faq not in faq_ids:
            yield _problem(where("mistakes.yaml", mistake.id, "faq"), f"unknown FAQ entry '{mistake.faq}'")
        if mistake.section is not None and mistake.section not in declared:
            yield _problem(where("mistakes.yaml", mistake.id, "section"), f"unknown section '{mistake.section}'")
    for term in game.glossary:
        if term.section not in declared:
            yield _problem(where("glossary.yaml", term.id, "section"), f"unknown section '{term.section}'")
    terms = {t.id for t in game.glossary} | where.raw_ids("glossary.yaml")
    for index, role in enumerate(game.info.roles):
        if role not in terms:
            yield _problem(where("game.yaml", None, "roles", index), f"unknown glossary entry '{role}'")
    for note in game.notes:
        if game.source(note.source) is None:
            yield _problem(where("notes.yaml", note.id, "source"), f"unknown source '{note.source}'")


# A link to a place on the game's page: "](#rule-scoring)".
_PAGE_LINK = re.compile(r"\]\(#([^)\s]*)\)")


def check_page_links(game: Game, where: Where) -> Iterator[Problem]:
    """Links from a rules text to a place on the game's page lead somewhere: a rules section is
    "#rule-" and its id (``model.ANCHOR_PREFIX``)."""
    anchors = game.page_anchors()
    sections = {s.id for s in game.sections}
    for section in game.sections:
        for lang in LANGS:
            text = section.texts[lang]
            for match in _PAGE_LINK.finditer(text.body):
                anchor = match.group(1)
                if anchor in anchors:
                    continue
                hint = f"; a rules section is '#{ANCHOR_PREFIX['section']}{anchor}'" if anchor in sections else ""
                yield Problem(f"{where.folder}/rules.{lang}.md", text.line_of(match.start()), f"link to '#{anchor}': the game's page has no such place{hint}")


def check_catalog(game: Game, where: Where, catalog_ids: Iterable[str] | None) -> Iterator[Problem]:
    if catalog_ids is None:
        return
    present = {f.id for f in game.faq} | where.raw_ids("faq.yaml")
    for faq_id in catalog_ids:
        if faq_id not in present:
            yield _problem(where("faq.yaml"), f"catalog entry '{faq_id}' is missing")


def check_rulings(game: Game, where: Where) -> Iterator[Problem]:
    """Each answer says, statement by statement, what its bound facts say (bindings.py); each
    correction says what its ruling says (claims.py)."""
    for faq in game.faq:
        for message in ruling_shape_problems(faq.ruling, len(faq.checks)):
            yield _problem(where("faq.yaml", faq.id, "ruling"), message)
        source = game.source(faq.citation.source)
        for found in answer_problems(faq, game.glossary, source.pages if source else None, game.info.roles):
            yield _problem(where("faq.yaml", faq.id, found.lang, "answer"), found.message)
    for mistake in game.mistakes:
        for message in ruling_shape_problems(mistake.ruling, len(mistake.checks)):
            yield _problem(where("mistakes.yaml", mistake.id, "ruling"), message)
        texts = {lang: mistake.text(lang).correction for lang in LANGS}
        for claim in text_problems(mistake.ruling, texts, "correction", mistake.citation.pages):
            yield _problem(where("mistakes.yaml", mistake.id, claim.lang, "correction"), claim.message)


def _strings(value: Any, keys: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every string inside a content model, with its path of YAML keys and list indexes."""
    if isinstance(value, str):
        yield keys, value
    elif isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            yield from _strings(getattr(value, name), (*keys, info.alias or name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*keys, key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _strings(item, (*keys, index))


def _field_label(keys: tuple) -> str:
    """Where in an entry a text stands, as the other problems name it: "answer (de)"."""
    lang = next((key for key in keys if key in LANGS), None)
    named = [str(key) for key in keys if key != lang]
    return f"{'.'.join(named)} ({lang})" if lang and named else ".".join(map(str, keys))


# A game holds a few thousand texts and an accept changes a handful: the verdict on each text is
# kept (it depends on the text alone), so that checking a changed game looks again only at what
# changed. About 25,000 verdicts: every text of the real content, about 14,000, fits.
_verdicts = ByteCache(8 * MiB)


@_verdicts.memoize(key=text_key)
def _text_problem(text: str) -> str | None:
    """Why a text cannot be shown as it reads: nested or long beyond what the site shows as
    Markdown, or holding a character that hides or turns what it says (a right-to-left override
    shows "30" as "03"; the forms and the API remove them, content must not hold them either)."""
    hidden = hidden_character(text)
    if hidden is not None:
        return f"holds the invisible character {describe(hidden)}: remove it"
    lookalike = lookalike_character(text)
    if lookalike is not None:
        return (f"holds {describe(lookalike)} ({unicodedata.name(lookalike, 'unnamed')}), which only looks like a letter or "
                "digit of German, English or Italian: type it again")
    return markup_problem(text)


def check_markup(game: Game, where: Where) -> Iterator[Problem]:
    """Every text can be shown as written: as Markdown within the site's limits, with no
    invisible or control character."""
    lists = {"faq.yaml": game.faq, "mistakes.yaml": game.mistakes, "glossary.yaml": game.glossary, "notes.yaml": game.notes}
    for file_name, entries in lists.items():
        for entry in entries:
            for keys, text in _strings(entry):
                if problem := _text_problem(text):
                    yield _problem(where(file_name, entry.id, *keys), f"{_field_label(keys)}: {problem}")
    for keys, text in _strings(game.info):
        if problem := _text_problem(text):
            yield _problem(where("game.yaml", None, *keys), f"{_field_label(keys)}: {problem}")
    for section in game.sections:
        for lang, text in section.texts.items():
            if problem := _text_problem(text.body):
                yield Problem(f"{where.folder}/rules.{lang}.md", text.line, f"section '{section.id}': {problem}")


def check_asked(game: Game, where: Where) -> Iterator[Problem]:
    """A question as players put it (the ``asked`` of a FAQ entry or a rules section) is the one
    entry's that answers it: the same question under two entries, or twice under one, would make
    search guess."""
    seen: dict[tuple[str, str], str] = {}
    entries = [("faq.yaml", faq.id, faq.asked) for faq in game.faq]
    entries += [("sections.yaml", section.id, section.meta.asked) for section in game.sections]
    for name, entry_id, asked in entries:
        for lang in LANGS:
            for number, text in enumerate(asked.get(lang)):
                key = (lang, " ".join(text.casefold().split()))
                if key in seen:
                    yield _problem(where(name, entry_id, "asked", lang, number),
                                   f"asked ({lang}): {text!r} stands under entry '{seen[key]}' already")
                else:
                    seen[key] = entry_id


CHECKS = (
    check_identity,
    check_unique_ids,
    check_editions_and_sources,
    check_citations,
    check_references,
    check_page_links,
    check_rulings,
    check_markup,
    check_asked,
)


def check_short_titles(games: list[tuple[Game, Where]]) -> Iterator[Problem]:
    """A short title names one game only: a question that uses it picks that game (search), so a
    name another game also goes by, or words of one ("Adel" of "Ohne Furcht und Adel"), would send
    that game's players to the wrong rules. Names are compared as search compares them
    (``folding.name_words``: case, umlauts, accents and joining words aside)."""
    def names(game: Game) -> set[tuple[str, ...]]:
        return {name_words(name) for name in (*game.all_titles(), *game.info.short_titles.all())}

    def within(short: tuple[str, ...], name: tuple[str, ...]) -> bool:
        return any(name[i:i + len(short)] == short for i in range(len(name) - len(short) + 1))

    for game, where in games:
        others = [(name, other) for other, _ in games if other is not game for name in names(other)]
        for lang in LANGS:
            for index, short in enumerate(game.info.short_titles.get(lang)):
                other = next((other for name, other in others if within(name_words(short), name)), None)
                if other is not None:
                    yield _problem(where("game.yaml", None, "short_titles", lang, index),
                                   f"short title '{short}' is also a name of '{other.slug}', or part of one")


def game_where(game: Game, files: dict[str, YamlFile]) -> Where:
    return Where(files, f"{game.folder.parent.name}/{game.folder.name}")


def check_game(game: Game, files: dict[str, YamlFile], catalog_ids: Iterable[str] | None, rulings: bool = True) -> list[Problem]:
    """Every cross-file problem of a game; ``rulings=False`` leaves the text-against-ruling
    comparison to the caller (the change gate reports it per language)."""
    where = game_where(game, files)
    problems: list[Problem] = []
    for check in CHECKS:
        if rulings or check is not check_rulings:
            problems += check(game, where)
    problems += check_catalog(game, where, catalog_ids)
    return problems
