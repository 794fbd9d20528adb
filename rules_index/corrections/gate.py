"""The gate every change passes before it is written: what it would break, as structured problems.

A changed FAQ entry must

- validate (schema and cross-file checks): kind ``validation``;
- say in every language what the entry's ruling says (the verdict word, and each bound span the
  value of its fact; every statement of a checked answer bound or an aside), and no bound
  statement the opposite of how the stored, checked text said it (reversals.py): kind ``claim``,
  also when the engine's output contradicts a fact of the ruling;
- restate none of the game's common mistakes: kind ``mistake``, naming the mistake and the
  check that refutes it;
- pass its checks through the rule engine: kind ``check``.

``review`` checks the planned files in a copy of the game's folder; a dry run (``review_faq``)
checks the changed entry in memory. Only the changed entry is run through the engine, and one
whose checks and ruling are unchanged reuses the engine's earlier answer (probes are deterministic).
"""
from __future__ import annotations

import dataclasses
import json
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from cachetools import LRUCache, cached
from pydantic import ValidationError

from rules_index.content import LANGS, Game
from rules_index.content.checks import check_game
from rules_index.content.bindings import answer_problems
from rules_index.content.claims import ruling_shape_problems
from rules_index.content.reversals import reversal_problems
from rules_index.content.loader import load_catalog, load_checked_game, load_game, schema_words
from rules_index.content.schema import Faq
from rules_index.content.writer import FAQ_TEXT_FIELDS, FilePlan, clean_text, planned_copy
from rules_index.restatements import comparer
from rules_index.verification import Report, verify_entry

KINDS = ("check", "claim", "mistake", "validation")  # of GateProblem
UNCHANGED = "the change does not alter the entry"


@dataclass(frozen=True)
class GateProblem:
    """One reason a change is refused; ``as_json`` leaves out the fields that do not apply."""

    kind: str
    message: str
    lang: str | None = None
    mistake: str | None = None
    check: str | None = None
    scenario: str | None = None
    # For the editors' pages, to say it in the editor's language (bindings.BindingProblem).
    code: str | None = None
    params: tuple = ()

    def as_json(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None and key not in ("code", "params")}

    def __str__(self) -> str:
        return self.message


class ChangeRefused(Exception):
    """The change would break validation, a ruling, a known mistake or a rule check."""

    def __init__(self, problems: list[GateProblem]):
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


def review(root: Path, slug: str, kind: str, target: str, plans: list[FilePlan]) -> list[GateProblem]:
    """Every problem the planned change would bring, checked in a copy of the game's folder."""
    catalog, _ = load_catalog(root, lines=False)
    with planned_copy(root, slug, plans) as copy:
        game, problems = _load(copy / slug, copy, catalog.get(slug))
    if game is None or problems:
        return [_loaded_problem(p) for p in problems] or [GateProblem("validation", f"game '{slug}' does not load")]
    if kind != "faq":
        return []
    entry = game.faq_entry(target)
    if entry is None:
        return [GateProblem("validation", f"faq: game '{slug}' has no FAQ entry '{target}'")]
    problems = claim_problems(game, entry)
    problems += mistake_problems(game, entry)
    return problems + engine_problems(game, entry)


def updated_faq(stored: Faq, updates: dict) -> Faq:
    """The stored entry with ``updates`` merged in as the writer would store them (LF line ends, stripped);
    raises ValidationError."""
    raw = stored.model_dump(mode="json", exclude_unset=True)
    for lang in LANGS:
        for field in FAQ_TEXT_FIELDS:
            value = (updates.get(lang) or {}).get(field)
            if value is not None:
                raw[lang][field] = clean_text(value)
    for key in ("citation", "ruling", "check"):
        if key in updates:
            raw[key] = updates[key]
    return Faq.model_validate(raw)


def review_faq(game: Game, stored: Faq, updates: dict) -> tuple[list[GateProblem], Faq | None]:
    """A dry run of a FAQ change in memory: the problems, and the entry as it would be stored."""
    try:
        entry = updated_faq(stored, updates)
    except ValidationError as exc:
        return [_schema_problem(stored.id, e) for e in exc.errors()], None
    if entry == stored:
        return [GateProblem("validation", UNCHANGED, code="unchanged")], entry
    changed = dataclasses.replace(game, faq=[entry if f.id == entry.id else f for f in game.faq])
    # The stored game is valid: whatever the cross-file checks find now, the change brought.
    # Checked in memory: no file line to give, only what is wrong.
    problems = [_loaded_problem(p, in_memory=True) for p in check_game(changed, {}, None, rulings=False)]
    problems += claim_problems(changed, entry) + reversed_problems(game, stored, entry)
    return problems + mistake_problems(game, entry) + engine_problems(changed, entry), entry


def _loaded_problem(problem, in_memory: bool = False) -> GateProblem:
    """A problem of the planned content; a value the schema refuses keeps what says it in words.
    ``in_memory``: found without files, so no file line is given."""
    message = problem.message if in_memory else str(problem)
    if problem.schema:
        return GateProblem("validation", message, code="schema", params=problem.schema)
    return GateProblem("validation", message)


def _schema_problem(faq_id: str, error: dict) -> GateProblem:
    """A value the schema refuses, with what the editor's page needs to say it in its language."""
    where = _where(error["loc"])
    return GateProblem("validation", f"faq.yaml {faq_id}: {where}: {error['msg']}", code="schema",
                       params=schema_words(error, where))


def _where(loc) -> str:
    # pydantic names union branches in loc ("Check", "list[Check]"): keep only real keys.
    keys = [str(k) for k in loc if isinstance(k, int) or not (isinstance(k, str) and ("[" in k or k[:1].isupper()))]
    return ".".join(keys) or "entry"


def _load(folder: Path, root: Path, catalog_ids) -> tuple[Game | None, list]:
    """The game and its validation problems (read again with line numbers only when needed)."""
    game, problems = load_checked_game(folder, root, catalog_ids, rulings=False)
    if problems:
        game, files, problems = load_game(folder, root, lines=True)
        if game is not None:
            problems += check_game(game, files, catalog_ids, rulings=False)
    return game, sorted(set(problems))


def claim_problems(game: Game, entry: Faq) -> list[GateProblem]:
    """The text against the ruling: the verdict word, and each bound span against its fact
    (bindings.py), each statement bound or an aside, no loose number, no page beyond the citation."""
    problems = [GateProblem("claim", message) for message in ruling_shape_problems(entry.ruling, len(entry.checks))]
    source = game.source(entry.citation.source)
    found = answer_problems(entry, game.glossary, source.pages if source else None, game.info.roles)
    return problems + [_claim(p) for p in found]


def reversed_problems(game: Game, stored: Faq, entry: Faq) -> list[GateProblem]:
    """Each statement of ``entry`` that says the opposite of how the checked ``stored`` said the
    same fact (reversals.py)."""
    return [_claim(p) for field in FAQ_TEXT_FIELDS for p in reversal_problems(stored, entry, game.glossary, field)]


def _claim(problem) -> GateProblem:
    """A problem of the text (bindings.BindingProblem, reversals.py) as the gate's ``claim``."""
    return GateProblem("claim", problem.message, lang=problem.lang, code=problem.code, params=problem.params)


def mistake_problems(game: Game, entry: Faq) -> list[GateProblem]:
    problems = []
    for lang in LANGS:
        for found in comparer(game).restatements(entry.text(lang).answer, lang):
            mistake = found.mistake
            refuting = mistake.checks[0] if mistake.checks else None
            check = f"mistakes.yaml {mistake.id}, check 1 ({refuting.probe})" if refuting else None
            scenario = refuting.scenario.get(lang) if refuting is not None and refuting.scenario else None
            message = (
                f"answer ({lang}) restates the common mistake '{mistake.id}': \"{mistake.text(lang).mistake}\""
                + (f"; the engine refutes it in {check}" if check else "")
                + (f": {scenario}" if scenario else "")
            )
            problems.append(GateProblem("mistake", message, lang=lang, mistake=mistake.id, check=check, scenario=scenario,
                                        code="mistake", params=(("mistake", mistake.text(lang).mistake), ("check", check or mistake.id),
                                                                ("scenario", scenario or ""))))
    return problems


ENGINE_RUNS_KEPT = 512


def _engine_key(game: Game, entry: Faq) -> str:
    return json.dumps([game.slug, entry.id, entry.basis, entry.model_dump(mode="json", include={"check", "ruling"})], sort_keys=True)


@cached(LRUCache(maxsize=ENGINE_RUNS_KEPT), key=_engine_key, lock=threading.Lock())
def _engine_report(game: Game, entry: Faq) -> Report:
    """The engine's answer for an entry's checks and ruling, kept for entries that only change text."""
    return verify_entry(game, "faq", entry)


def engine_problems(game: Game, entry: Faq) -> list[GateProblem]:
    report = _engine_report(game, entry)
    problems = []
    for result in report.results:
        if not result.ok:
            detail = result.error or ", ".join(f"{m.key}: expected {m.expected!r}, got {m.actual!r}" for m in result.mismatches)
            problems.append(GateProblem("check", f"check faq:{entry.id} ({result.probe}) FAILED: {detail}", check=result.probe))
    if report.missing:
        problems.append(GateProblem("check", f"faq:{entry.id} has no check"))
    for fact in report.facts:
        if not fact.ok:
            problems.append(GateProblem("claim", fact.message, check=f"check {fact.fact.check}"))
    return problems
