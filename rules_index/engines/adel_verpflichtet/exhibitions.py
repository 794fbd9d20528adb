"""Pure functions on exhibitions (Ausstellungen): validity, what a collection can form, ranking.

Source: "Was eine Ausstellung ist" and "Phase 4 · Ausstellungen" of the German rules explanation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Sequence, TypeVar

from .cards import LETTERS, MIN_EXHIBITION, CollectionCard

#: Machine-readable reasons why a string of letters is no exhibition (used by the calculator API).
REASON_EMPTY = "empty"                  # no card at all
REASON_UNKNOWN_LETTER = "unknown-letter"  # a letter outside A-F
REASON_TOO_FEW = "too-few-cards"        # fewer than 3 cards ("AB (zu wenig Karten)")
REASON_GAP = "gap"                      # letters do not follow without a gap ("BCF", "AACE")

_SEPARATORS = frozenset(" \t\r\n,;-/")
P = TypeVar("P", bound=Hashable)


def exhibition_validity(cards: str) -> tuple[bool, str | None]:
    """Whether a string of collection letters is a valid exhibition, and if not, why.

    "Was eine Ausstellung ist": at least 3 collection cards (no upper limit), letters A-F that
    follow each other in the alphabet without a gap; the same letter may repeat. Valid: AAA, AABBC,
    CCD, DEF. Invalid: AB (too few), BCF and AACE (gap).

    Letters are read case-insensitively; spaces, commas, semicolons, hyphens and slashes separate
    and are ignored. Checks run in this order, the first failing one is the reason: ``"empty"``,
    ``"unknown-letter"``, ``"too-few-cards"``, ``"gap"``. Returns ``(True, None)`` when valid.
    """
    if not isinstance(cards, str):
        raise TypeError("cards must be a string of letters A-F")
    letters = [c.upper() for c in cards if c not in _SEPARATORS]
    if not letters:
        return False, REASON_EMPTY
    if any(c not in LETTERS for c in letters):
        return False, REASON_UNKNOWN_LETTER
    if len(letters) < MIN_EXHIBITION:
        return False, REASON_TOO_FEW
    indices = sorted({LETTERS.index(c) for c in letters})
    if indices[-1] - indices[0] + 1 != len(indices):
        return False, REASON_GAP
    return True, None


def letters_of(cards: Iterable[CollectionCard]) -> str:
    """The letters of some cards, sorted (e.g. "AABC")."""
    return "".join(sorted(c.letter for c in cards))


def maximal_runs(cards: Iterable[CollectionCard]) -> list[tuple[str, list[CollectionCard]]]:
    """The collection split into maximal gap-free letter runs: [("ABC", cards...), ("EF", ...)]."""
    by_letter: dict[str, list[CollectionCard]] = {}
    for card in cards:
        by_letter.setdefault(card.letter, []).append(card)
    runs: list[tuple[str, list[CollectionCard]]] = []
    current_letters = ""
    current_cards: list[CollectionCard] = []
    for letter in LETTERS:
        if letter in by_letter:
            current_letters += letter
            current_cards += sorted(by_letter[letter])
        elif current_letters:
            runs.append((current_letters, current_cards))
            current_letters, current_cards = "", []
    if current_letters:
        runs.append((current_letters, current_cards))
    return runs


def can_form_exhibition(collection: Iterable[CollectionCard]) -> bool:
    """Whether a collection holds at least one valid exhibition (Phase 2: "Die Ausstellungskarte darf
    nur legen, wer tatsächlich eine Ausstellung bilden kann").

    A valid exhibition exists iff some maximal gap-free letter run holds at least 3 cards.
    """
    return any(len(cards) >= MIN_EXHIBITION for _, cards in maximal_runs(collection))


def run_containing(letter: str, collection: Iterable[CollectionCard]) -> tuple[str, list[CollectionCard]] | None:
    """The maximal gap-free run of the collection that contains ``letter``, or None."""
    for letters, cards in maximal_runs(collection):
        if letter in letters:
            return letters, cards
    return None


def completable(selection: Sequence[CollectionCard], collection: Iterable[CollectionCard]) -> bool:
    """Whether a partly chosen exhibition can still be completed to a valid one from the collection.

    True iff all selected letters lie in ONE maximal gap-free run of the collection and that run
    holds at least 3 cards (then adding the rest of the run gives a valid exhibition).
    """
    if not selection:
        return can_form_exhibition(collection)
    run = run_containing(selection[0].letter, collection)
    if run is None:
        return False
    letters, cards = run
    return all(c.letter in letters for c in selection) and len(cards) >= MIN_EXHIBITION


def exhibition_key(cards: Sequence[CollectionCard]) -> tuple[int, int]:
    """Sort key of an exhibition, most valuable first (Phase 4 · Ausstellungen).

    "Die wertvollste Ausstellung ist die mit den meisten Karten. Bei gleicher Anzahl gewinnt die
    Ausstellung mit dem ältesten Objekt." The source does not define "oldest": the engine takes the
    card with the LOWEST number as the oldest (numbers are unique, so no full tie is possible).
    """
    return (-len(cards), min(c.number for c in cards))


def rank_exhibitions(exhibitions: Mapping[int, Sequence[CollectionCard]]) -> list[int]:
    """The exhibitors, most valuable exhibition first (see ``exhibition_key``)."""
    return sorted((p for p, cards in exhibitions.items() if cards),
                  key=lambda p: exhibition_key(exhibitions[p]))


#: How an exhibition stands against the one ranked directly above it (``compare_exhibitions``).
DECIDED_ONLY_ONE = "only-one"          # the only valid exhibition: automatically the most valuable
DECIDED_FIRST = "first"                # ranked first against others
DECIDED_MORE_CARDS = "more-cards"      # the one above has more cards
DECIDED_OLDER_OBJECT = "older-object"  # same number of cards; the one above has the older object
TIED_AGE_UNKNOWN = "age-unknown"       # same number of cards, the ages were not all given: undecided
TIED_SAME_AGE = "same-age"             # same number of cards and equally old objects: the source is silent


@dataclass(frozen=True)
class RankedExhibition:
    """One valid exhibition in the comparison of Phase 4 · Ausstellungen – Vergleichen.

    ``place`` is 1 for the most valuable; exhibitions the rules cannot tell apart share a place and
    the next one takes the place after all of them (1, 1, 3). ``decided_by`` says how it stands
    against the exhibition ranked directly above it (one of the ``DECIDED_*``/``TIED_*`` values).
    """

    player: Hashable
    cards: str
    count: int
    oldest_age: int | None
    place: int
    decided_by: str


def compare_exhibitions(
    shown: Mapping[P, tuple[str, int | None]],
) -> tuple[list[RankedExhibition], dict[P, str]]:
    """Rank the exhibitions shown in one round. Phase 4 · Ausstellungen – Vergleichen.

    ``shown`` maps each exhibitor to (their collection card letters, the age of the exhibition's
    oldest object or None). Returns (the valid exhibitions, most valuable first; each invalid
    exhibitor with its reason from ``exhibition_validity``).

    The source: "Am wertvollsten ist die Ausstellung mit den meisten Karten. Haben mehrere gleich
    viele Karten, gewinnt die Ausstellung mit dem ältesten Objekt. Stellt nur eine Person aus, ist
    ihre Ausstellung automatisch die wertvollste." An object's age is a number here (greater =
    older), as the cards show it; the letters alone never decide a tie (the source does not tie age
    to the series). Where the rules cannot decide, the exhibitions share a place:

    * equal card counts and an age missing for one of them: undecided until the ages are known;
    * equal card counts and equal ages: the source is silent ("gleich alte Objekte" are an open
      question of the rules explanation); no order is invented.
    """
    invalid: dict[P, str] = {}
    valid: list[tuple[P, str, int | None]] = []
    for player, (cards, age) in shown.items():
        ok, reason = exhibition_validity(cards)
        if ok:
            letters = "".join(sorted(c.upper() for c in cards if c not in _SEPARATORS))
            valid.append((player, letters, age))
        else:
            invalid[player] = reason
    by_count: dict[int, list[tuple[P, str, int | None]]] = {}
    for entry in valid:
        by_count.setdefault(len(entry[1]), []).append(entry)
    ranked: list[RankedExhibition] = []
    place = 1
    for count in sorted(by_count, reverse=True):
        group = by_count[count]
        ages_known = all(age is not None for _, _, age in group)
        if len(group) > 1 and not ages_known:
            tiers = [group]  # the oldest object decides, but not every age is known
        else:
            tiers = []
            for age in sorted({age for _, _, age in group}, key=lambda a: -(a or 0)):
                tiers.append([e for e in group if e[2] == age])
        for t, tier in enumerate(tiers):
            for i, (player, letters, age) in enumerate(tier):
                if i > 0:
                    decided = TIED_SAME_AGE if ages_known else TIED_AGE_UNKNOWN
                elif not ranked:
                    decided = DECIDED_ONLY_ONE if len(valid) == 1 else DECIDED_FIRST
                elif t == 0:
                    decided = DECIDED_MORE_CARDS
                else:
                    decided = DECIDED_OLDER_OBJECT
                ranked.append(RankedExhibition(player, letters, count, age, place, decided))
            place += len(tier)
    return ranked, invalid
