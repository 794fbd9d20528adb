"""Running every FAQ entry's and common mistake's checks through the game's rule engine.

A check names a probe of the engine, the scenario (``given``) and what the answer implies
(``expect``); it passes when the probe's output holds every expected key with an equal value.
Each fact of an entry's ruling names a check and an output of it; the fact holds when the
probe's real output there equals the fact's value.
"""
from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .content import Game, Library
from .content.schema import Check, Fact
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
class FactResult:
    game: str
    kind: str  # faq | mistake
    entry: str
    fact: Fact
    ok: bool
    actual: Any = None

    @property
    def message(self) -> str:
        where = self.fact.place
        if self.ok:
            return f"{where} = {self.fact.value!r}"
        return f"ruling fact {where}: the answer says {self.fact.value!r}, the engine says {self.actual!r}"


@dataclass
class Report:
    results: list[CheckResult]
    missing: list[tuple[str, str, str]]  # (game, kind, entry) without any check
    facts: list[FactResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.missing and all(r.ok for r in self.results) and all(f.ok for f in self.facts)

    def for_entry(self, game: str, kind: str, entry: str) -> list[CheckResult]:
        return [r for r in self.results if (r.game, r.kind, r.entry) == (game, kind, entry)]

    def extend(self, other: "Report") -> None:
        self.results += other.results
        self.missing += other.missing
        self.facts += other.facts

    def facts_for(self, game: str, kind: str, entry: str) -> list[FactResult]:
        return [f for f in self.facts if (f.game, f.kind, f.entry) == (game, kind, entry)]


def _plain(value: Any) -> Any:
    """Tuples as lists and keys as strings, so engine output compares with YAML data."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


MISSING = "<missing>"


def compare(expect: dict, output: dict) -> list[Mismatch]:
    plain = _plain(output)
    mismatches = []
    for key, expected in expect.items():
        actual = plain.get(key, MISSING) if isinstance(plain, dict) else MISSING
        if not same_value(expected, actual):
            mismatches.append(Mismatch(key, expected, actual))
    return mismatches


def output_at(output: Any, path: str) -> Any:
    """The value at a dotted path of a probe's output (``scores.A.total``, ``legal.2``)."""
    node = _plain(output)
    for key in path.split("."):
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return MISSING
    return node


def same_value(expected: Any, actual: Any) -> bool:
    """Equal at every depth, where a boolean only equals a boolean (True is not 1, [True] is not
    [1]): an answer that says "yes" must not pass on an engine that counts one."""
    return _strictly_equal(_plain(expected), _plain(actual))


def _strictly_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
                and all(_strictly_equal(a[k], b[k]) for k in a))
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(_strictly_equal(x, y) for x, y in zip(a, b)))
    return a == b


def check_facts(game: str, kind: str, entry: str, facts: list[Fact], results: list[CheckResult]) -> list[FactResult]:
    checked = []
    for fact in facts:
        if fact.check > len(results):
            checked.append(FactResult(game, kind, entry, fact, ok=False, actual=MISSING))
            continue
        result = results[fact.check - 1]
        if fact.given is not None:
            actual = output_at(result.check.given, fact.given)
        else:
            actual = output_at(result.output, fact.output) if result.error is None else MISSING
        checked.append(FactResult(game, kind, entry, fact, ok=same_value(fact.value, actual), actual=actual))
    return checked


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


def verify_entry(game: Game, kind: str, entry) -> Report:
    """One FAQ entry's or mistake's checks, and its ruling's facts against their output."""
    results = [run_check(game, kind, entry.id, check) for check in entry.checks]
    # An editorial FAQ entry claims no rule, so it has nothing to check; every other entry must have a check.
    needs_check = getattr(entry, "basis", "rule") != "editorial"
    missing = [(game.slug, kind, entry.id)] if needs_check and not entry.checks else []
    return Report(results, missing, check_facts(game.slug, kind, entry.id, entry.ruling.facts, results))


def _entries(library: Library):
    """(game, kind, entry) for every FAQ entry and common mistake, in the order reports list them."""
    for game in library:
        for kind, entries in (("faq", game.faq), ("mistake", game.mistakes)):
            for entry in entries:
                yield game, kind, entry


def verify(library: Library) -> Report:
    report = Report([], [])
    for game, kind, entry in _entries(library):
        report.extend(verify_entry(game, kind, entry))
    return report


# -- results kept with an index generation ---------------------------------------------------
# A generation's check results hold for its content and for the engines' code they ran with:
# ``code_version`` is a hash of that code, so a deploy that changes an engine runs them again.


@lru_cache(maxsize=1)
def code_version() -> str:
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted([Path(__file__).resolve(), *(package / "engines").rglob("*.py")]):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def save_report(report: Report, path: Path) -> None:
    """Write ``report`` with the code version it ran with (pickle: the results hold the content's
    own check and fact models; only files this service wrote are ever read back)."""
    Path(path).write_bytes(pickle.dumps({"code": code_version(), "report": report}, protocol=pickle.HIGHEST_PROTOCOL))


def load_report(path: Path) -> Report | None:
    """The report saved at ``path``, or None if missing, unreadable or from other engine code."""
    try:
        saved = pickle.loads(Path(path).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("code") != code_version() or not isinstance(saved.get("report"), Report):
        return None
    return saved["report"]


def reverify_entries(previous: Report, library: Library, entries: set[tuple[str, str, str]]) -> Report:
    """``previous`` with the checks of ``entries`` ((game, kind, entry)) run again on ``library``,
    in the order ``verify`` gives; every other entry keeps its results. Entries gone from the
    library lose theirs."""
    kept: dict[tuple[str, str, str], Report] = {}
    for result in previous.results:
        kept.setdefault((result.game, result.kind, result.entry), Report([], [])).results.append(result)
    for missing in previous.missing:
        kept.setdefault(missing, Report([], [])).missing.append(missing)
    for fact in previous.facts:
        kept.setdefault((fact.game, fact.kind, fact.entry), Report([], [])).facts.append(fact)
    report = Report([], [])
    for game, kind, entry in _entries(library):
        key = (game.slug, kind, entry.id)
        if key in entries or key not in kept:  # changed, or with no result kept (new, or nothing to check)
            report.extend(verify_entry(game, kind, entry))
        else:
            report.extend(kept[key])
    return report
