"""Running every FAQ entry's and common mistake's checks through the game's rule engine.

A check names a probe of the engine, the scenario (``given``) and what the answer implies
(``expect``); it passes when the probe's output holds every expected key with an equal value.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .content import Game, Library
from .content.schema import Check
from .engines import probes_for


@dataclass(frozen=True)
class Mismatch:
    key: str
    expected: Any
    actual: Any


@dataclass
class CheckResult:
    game: str
    kind: str  # faq | mistake
    entry: str
    probe: str
    check: Check
    ok: bool
    error: str | None = None
    mismatches: list[Mismatch] = field(default_factory=list)
    output: dict = field(default_factory=dict)


@dataclass
class Report:
    results: list[CheckResult]
    missing: list[tuple[str, str, str]]  # (game, kind, entry) without any check

    @property
    def ok(self) -> bool:
        return not self.missing and all(r.ok for r in self.results)

    def for_entry(self, game: str, kind: str, entry: str) -> list[CheckResult]:
        return [r for r in self.results if (r.game, r.kind, r.entry) == (game, kind, entry)]


def _plain(value: Any) -> Any:
    """Tuples as lists and keys as strings, so engine output compares with YAML data."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def compare(expect: dict, output: dict) -> list[Mismatch]:
    plain = _plain(output)
    mismatches = []
    for key, expected in expect.items():
        actual = plain.get(key, "<missing>") if isinstance(plain, dict) else "<missing>"
        if _plain(expected) != actual:
            mismatches.append(Mismatch(key, expected, actual))
    return mismatches


def run_check(game: Game, kind: str, entry: str, check: Check) -> CheckResult:
    result = CheckResult(game.slug, kind, entry, check.probe, check, ok=False)
    registry = probes_for(game.slug)
    if registry is None:
        result.error = f"game '{game.slug}' has no rule engine"
        return result
    if registry.get(check.probe) is None:
        result.error = f"unknown probe '{check.probe}'"
        return result
    try:
        output = registry.run(check.probe, check.given)
    except Exception as exc:  # a probe that crashes is a failed check, reported with its cause
        result.error = f"probe raised {type(exc).__name__}: {exc}"
        return result
    result.output = output if isinstance(output, dict) else {"value": output}
    result.mismatches = compare(check.expect, result.output)
    result.ok = not result.mismatches
    return result


def verify_game(game: Game) -> Report:
    results, missing = [], []
    # An editorial FAQ entry claims no rule, so it has nothing to check; every other entry must have a check.
    entries = [("faq", f.id, f.checks, f.basis != "editorial") for f in game.faq]
    entries += [("mistake", m.id, m.checks, True) for m in game.mistakes]
    for kind, entry, checks, needs_check in entries:
        if not checks and needs_check:
            missing.append((game.slug, kind, entry))
        for check in checks:
            results.append(run_check(game, kind, entry, check))
    return Report(results, missing)


def verify(library: Library) -> Report:
    results, missing = [], []
    for game in library:
        report = verify_game(game)
        results += report.results
        missing += report.missing
    return Report(results, missing)
