"""Rule coverage: which FAQ entries, mistakes and checks cover each section of the rules summary."""
from __future__ import annotations

from dataclasses import dataclass

from .content import Game, Library, RuleSection
from .content.schema import Faq, Mistake


@dataclass
class SectionCoverage:
    section: RuleSection
    faq: list[Faq]
    mistakes: list[Mistake]
    checks: int


@dataclass
class GameCoverage:
    game: Game
    rows: list[SectionCoverage]


def game_coverage(game: Game) -> GameCoverage:
    rows = []
    for section in game.sections:
        faq = [f for f in game.faq if f.section == section.id]
        faq_ids = {f.id for f in faq}
        mistakes = [m for m in game.mistakes if m.section == section.id or m.faq in faq_ids]
        checks = sum(len(f.checks) for f in faq) + sum(len(m.checks) for m in mistakes)
        rows.append(SectionCoverage(section, faq, mistakes, checks))
    return GameCoverage(game, rows)


def coverage(library: Library) -> list[GameCoverage]:
    return [game_coverage(g) for g in library]
