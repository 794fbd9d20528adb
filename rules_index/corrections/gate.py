"""The gate every change passes before it is written: what it would break, as structured problems.

The planned files are written into a copy of the game's folder, and the copy must

- validate (schema and cross-file checks): kind ``validation``;
- say in every language what the entry's ruling says (verdict word, numbers): kind ``claim``,
  also when the engine's output contradicts a fact of the ruling;
- restate none of the game's common mistakes: kind ``mistake``, naming the mistake and the
  check that refutes it;
- pass the changed entry's checks through the rule engine: kind ``check``.

Only the changed entry is run through the engine (a change touches one entry, and checks depend
on nothing else), and no search index is built: a dry run costs a copy of one folder and a load.
"""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from rules_index.content import LANGS, Game
from rules_index.content.checks import check_game
from rules_index.content.claims import ruling_shape_problems, text_problems
from rules_index.content.loader import load_catalog, load_game
from rules_index.content.schema import Faq
from rules_index.content.writer import FilePlan, materialize
from rules_index.restatements import comparer
from rules_index.verification import verify_entry

KINDS = ("check", "claim", "mistake", "validation")


@dataclass(frozen=True)
class GateProblem:
    """One reason a change is refused; ``as_json`` leaves out the fields that do not apply."""

    kind: str
    message: str
    lang: str | None = None
    mistake: str | None = None
    check: str | None = None
    scenario: str | None = None

    def as_json(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None}

    def __str__(self) -> str:
        return self.message


class ChangeRefused(Exception):
    """The change would break validation, a ruling, a known mistake or a rule check."""

    def __init__(self, problems: list[GateProblem]):
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


def review(root: Path, slug: str, kind: str, target: str, plans: list[FilePlan]) -> list[GateProblem]:
    """Every problem the planned change would bring, checked in a copy of the game's folder."""
    catalog, _ = load_catalog(root)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "content"
        shutil.copytree(Path(root) / slug, copy / slug)
        materialize(plans, copy)
        game, problems = _load(copy / slug, copy, catalog.get(slug))
    if game is None or problems:
        return [GateProblem("validation", str(p)) for p in problems] or [GateProblem("validation", f"game '{slug}' does not load")]
    if kind != "faq":
        return []
    entry = game.faq_entry(target)
    if entry is None:
        return [GateProblem("validation", f"faq: game '{slug}' has no FAQ entry '{target}'")]
    return claim_problems(entry) + mistake_problems(game, entry) + engine_problems(game, entry)


def _load(folder: Path, root: Path, catalog_ids) -> tuple[Game | None, list]:
    """The game and its validation problems (read again with line numbers only when needed)."""
    game, files, problems = load_game(folder, root, lines=False)
    if game is not None:
        problems += check_game(game, files, catalog_ids, rulings=False)
    if problems:
        game, files, problems = load_game(folder, root, lines=True)
        if game is not None:
            problems += check_game(game, files, catalog_ids, rulings=False)
    return game, sorted(set(problems))


def claim_problems(entry: Faq) -> list[GateProblem]:
    problems = [GateProblem("claim", message) for message in ruling_shape_problems(entry.ruling, len(entry.checks))]
    texts = {lang: entry.text(lang).answer for lang in LANGS}
    for claim in text_problems(entry.ruling, texts, "answer", entry.citation.pages, entry.unchecked):
        problems.append(GateProblem("claim", claim.message, lang=claim.lang))
    return problems


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
            problems.append(GateProblem("mistake", message, lang=lang, mistake=mistake.id, check=check, scenario=scenario))
    return problems


def engine_problems(game: Game, entry: Faq) -> list[GateProblem]:
    report = verify_entry(game, "faq", entry)
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
