"""Adel Verpflichtet: game parameters, actions and the game state (a kernel State).

One round has four phases in fixed order (Regelerklärung · Der Rundenaufbau):
1. choose location (secret, simultaneous), 2. choose action card (secret, simultaneous),
3. resolve the auction house, 4. resolve the castle; then the round end.

Simultaneous secret choices ("alle handeln gleichzeitig") are modelled as each player submitting a
choice, in any order, while the choices stay hidden; they are revealed (and logged) only when all
have chosen. Decisions inside the resolution (which stack the buyer takes, which cards an exhibitor
lays out, which card a thief takes) are actions of the deciding player; everything else resolves
automatically.

``legal_actions()`` is the single source of truth: it lists the candidate actions that pass the same
rule checks ``apply`` runs (``check`` returns the first broken rule, changing nothing). Players are
named by their seat: "0", "1", ...
"""
from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from ..base import Rule, RuleViolation, State
from . import rules as R
from .cards import (
    ALLOWED_KINDS, CARD_KINDS, CHEQUE, DETECTIVE, EXHIBITION, LETTERS, NUM_STACKS, THIEF,
    Cheque, CollectionCard, Location, Thief,
)
from .exhibitions import (
    REASON_GAP, REASON_TOO_FEW, can_form_exhibition, completable, exhibition_validity,
    letters_of, rank_exhibitions, run_containing,
)
from .scoring import detective_moves, exhibition_moves, scoring_field, winners

STANDARD = "standard"
SURPRISE = "surprise"            # Spiel zu zweit, Überraschungsvariante
CONFRONTATION = "confrontation"  # Spiel zu zweit, Konfrontationsvariante
VARIANTS = (STANDARD, SURPRISE, CONFRONTATION)

NO_SALE = "no-sale"
FIRST_SEAT = "first-seat"

# Phases of the state machine.
LOCATION = "location"
ACTION = "action"
AUCTION_TAKE = "auction-take"
EXHIBIT = "exhibit"
STEAL = "steal"
OVER = "over"


class ExhibitionViolation(RuleViolation):
    """A refused exhibition, with the machine-readable reason of ``exhibition_validity``."""

    def __init__(self, rule: Rule, message: str, reason: str | None):
        super().__init__(rule, message)
        self.reason = reason


# --------------------------------------------------------------------------------------- game ---

@dataclass(frozen=True)
class AdelGame:
    """The parameters of one game. Every default marked *silent* is NOT given by the source.

    - ``num_players``: at least 2. The source mentions two-player play (with two variants) and that
      there are as many prison cells as players, but gives no player count. Two players may play the
      standard rules or a variant; the source calls the two-player rules "Varianten" and does not
      forbid the base game.
    - ``max_players``: an optional upper bound on ``num_players``. It is a bound of the engine's
      material, not a rule: every material parameter (cheques, thieves, prison cells) is made per
      player, so the material supports any count and the default is no bound (None).
    - ``variant``: ``"standard"``, ``"surprise"`` or ``"confrontation"``. The source describes the
      last two under "Spiel zu zweit" but forbids them for no player count, so any count may use them.
    - ``cards_per_letter``: collection cards per series A-F (*silent*, default 4). Cards are numbered
      1..N letter by letter; a lower number is an older object (*silent*: the source names "das
      älteste Objekt" as tie-break without defining it).
    - ``cheques_per_player`` / ``cheque_values``: cheques per player and their values (*silent*).
      Default: player p holds values k*n + p + 1 for k = 0..cheques_per_player-1, so all values in
      the game differ and no two cheques tie. ``cheque_values`` (one tuple per player) overrides.
    - ``cheque_tie``: what happens if the highest cheques tie (*silent*; impossible with the default
      values): ``"no-sale"`` (nobody buys, all cheques return) or ``"first-seat"`` (lowest seat buys).
    - ``thieves_per_player`` / ``thief_numbers``: thief cards per player and their loot-sack numbers
      (*silent*). Default p holds k*n + p + 1 for k = 0..thieves_per_player-1 (all numbers unique,
      so "the higher number first" and "the lower number enters prison first" are always defined).
    - ``scoring_fields``: the scoring track's fields, ``(from_position, higher, lower)``; the first,
      from 0, is the clubroom field (*silent*, values invented).
    - ``goal`` / ``max_rounds``: how the game ends (*silent*): after the round in which a pawn
      reaches ``goal``, or after ``max_rounds`` rounds. The winner is the furthest pawn, ties share
      the win (*silent*).
    - ``confrontation_start``: the place of round 1 in the confrontation variant (*silent*).
    """

    num_players: int = 4
    variant: str = STANDARD
    max_players: int | None = None
    cards_per_letter: int = 4
    cheques_per_player: int = 4
    cheque_values: tuple[tuple[int, ...], ...] | None = None
    cheque_tie: str = NO_SALE
    thieves_per_player: int = 2
    thief_numbers: tuple[tuple[int, ...], ...] | None = None
    scoring_fields: tuple[tuple[int, int, int], ...] = ((0, 4, 2), (10, 3, 2), (20, 3, 1))
    goal: int = 30
    max_rounds: int = 100
    confrontation_start: Location = Location.AUCTION

    def __post_init__(self) -> None:
        n = self.num_players
        if n < 2:
            raise ValueError(f"num_players must be at least 2, got {n}")
        if self.max_players is not None and n > self.max_players:
            raise ValueError(f"num_players must be 2..{self.max_players}, got {n}")
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}")
        if self.cheque_tie not in (NO_SALE, FIRST_SEAT):
            raise ValueError("cheque_tie must be 'no-sale' or 'first-seat'")
        if self.cards_per_letter < 1:
            raise ValueError("cards_per_letter must be >= 1")
        for name, table in (("cheque_values", self.cheque_values), ("thief_numbers", self.thief_numbers)):
            if table is not None and len(table) != n:
                raise ValueError(f"{name} needs one tuple per player")
        numbers = [t.number for p in range(n) for t in self.thieves_of(p)]
        if len(set(numbers)) != len(numbers):
            raise ValueError("thief loot-sack numbers must be unique")
        cheques = [c for p in range(n) for c in self.cheques_of(p)]
        if len(set(cheques)) != len(cheques):
            raise ValueError("a player may not hold two cheques of the same value")
        if not self.scoring_fields or self.scoring_fields[0][0] != 0:
            raise ValueError("scoring_fields must start with the clubroom field at position 0")
        if any(high < low for _, high, low in self.scoring_fields):
            raise ValueError("each scoring field is (from, higher, lower)")
        Location(self.confrontation_start)  # a location, or ValueError

    @property
    def prison_cells(self) -> int:
        """"Es gibt so viele Zellen wie Mitspielende" (Phase 4 · Gefängnis)."""
        return self.num_players

    def all_cards(self) -> tuple[CollectionCard, ...]:
        """All collection cards, numbered 1..N letter by letter (A1, A2, ... B5 ...)."""
        k = self.cards_per_letter
        return tuple(CollectionCard(li * k + i + 1, letter)
                     for li, letter in enumerate(LETTERS) for i in range(k))

    def _numbers(self, table: tuple[tuple[int, ...], ...] | None, count: int, player: int) -> tuple[int, ...]:
        """The player's row of ``table``, or by default k*n + player + 1 for k < count."""
        return table[player] if table is not None else tuple(k * self.num_players + player + 1 for k in range(count))

    def cheques_of(self, player: int) -> tuple[Cheque, ...]:
        return tuple(Cheque(v, player) for v in self._numbers(self.cheque_values, self.cheques_per_player, player))

    def thieves_of(self, player: int) -> tuple[Thief, ...]:
        return tuple(Thief(v, player) for v in self._numbers(self.thief_numbers, self.thieves_per_player, player))


# ------------------------------------------------------------------------------------ actions ---

@dataclass(frozen=True)
class ChooseLocation:
    """Phase 1: lay a location card face down."""
    player: str
    location: Location


@dataclass(frozen=True)
class PlayCard:
    """Phase 2: lay an action card face down. ``value`` is the cheque value or thief number."""
    player: str
    kind: str
    value: int | None = None


@dataclass(frozen=True)
class ChooseBoth:
    """Surprise variant: location and action card laid face down together."""
    player: str
    location: Location
    kind: str
    value: int | None = None


@dataclass(frozen=True)
class Pass:
    """Confrontation variant only: a player with no card allowed at the announced place lays none
    (the source is silent on this case; the engine lets the player sit the round out)."""
    player: str

    def __str__(self) -> str:
        return f"{self.player} passes"


@dataclass(frozen=True)
class TakeCard:
    """Phase 3: the highest cheque takes the top card of one of the two stacks."""
    player: str
    stack: int

    def __str__(self) -> str:
        return f"{self.player} takes from stack {self.stack}"


@dataclass(frozen=True)
class ExhibitCard:
    """Phase 4: add one card of one's collection to the exhibition being put together (hidden)."""
    player: str
    card: CollectionCard


@dataclass(frozen=True)
class FinishExhibition:
    """Phase 4: the exhibition is complete and laid face down."""
    player: str

    def __str__(self) -> str:
        return f"{self.player} finishes exhibition"


@dataclass(frozen=True)
class Steal:
    """Phase 4: a castle thief takes 1 card of their choice from the exhibition of ``victim``."""
    player: str
    victim: str
    card: CollectionCard

    def __str__(self) -> str:
        return f"{self.player} steals {self.card} from {self.victim}"


Action = ChooseLocation | PlayCard | ChooseBoth | Pass | TakeCard | ExhibitCard | FinishExhibition | Steal


@dataclass(frozen=True)
class Played:
    """An action card lying face down / revealed in front of a player this round."""
    kind: str                      # one of CARD_KINDS, or "pass"
    card: Cheque | Thief | None = None

    def __str__(self) -> str:
        return self.kind if self.card is None else f"{self.kind} {self.card}"


# -------------------------------------------------------------------------------------- state ---

class AdelState(State):
    """The full (omniscient) state of one game.

    Zones (every card is in exactly one): collection cards in ``stacks`` (top = last), player
    ``collections`` (bought or stolen, face down between rounds) or ``exhibitions`` (on display this
    round); cheques in ``hands``, ``cash_box`` or ``played``; thieves in ``thieves`` (hands),
    ``played`` or ``prison`` (index 0 = cell 1).
    """

    def __init__(self, game: AdelGame, rng: random.Random):
        """Setup: the collection cards shuffled (with ``rng``) into the two auction stacks; every
        player holds both location cards, their cheques, thieves, detective and exhibition card; all
        pawns in the clubroom (position 0). The source gives no setup details beyond "Zu Beginn
        zählt das Wertungsfeld im Clubraum"; starting without collection cards is the engine's
        assumption."""
        n = game.num_players
        self.game = game
        self.rng = rng
        deck = list(game.all_cards())
        rng.shuffle(deck)
        half = (len(deck) + 1) // 2
        self.stacks: list[list[CollectionCard]] = [deck[:half], deck[half:]]
        self.auction_closed = False
        self.cash_box: list[Cheque] = []
        self.hands: list[list[Cheque]] = [sorted(game.cheques_of(p)) for p in range(n)]
        self.thieves: list[list[Thief]] = [sorted(game.thieves_of(p)) for p in range(n)]
        self.prison: list[Thief] = []
        self.collections: list[list[CollectionCard]] = [[] for _ in range(n)]
        self.positions: list[int] = [0] * n
        self.round = 1
        self.phase = LOCATION
        self.history: list[str] = []
        self.log: list[tuple[int, str, dict[str, Any]]] = []
        self._reset_round()
        self._start_round()

    # ----------------------------------------------------------------------------- basics ---

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @classmethod
    def new_game(cls, seed: int = 0, **params: Any) -> "AdelState":
        """``params`` are :class:`AdelGame` parameters."""
        return cls(AdelGame(**params), random.Random(seed))

    @classmethod
    def from_scenario(cls, data: Mapping[str, Any]) -> "AdelState":
        """A fresh game (round 1) with material placed as given; every card stays accounted for.

        ``game`` (an AdelGame) or its parameters (``players`` for ``num_players``, ``variant``, ...;
        ``cards_per_letter`` defaults to what the letters below need, at least 4); ``seed``.
        ``collections``: player -> letters (each letter takes the oldest free card of that series);
        ``stacks``: two letter strings, top card FIRST; ``leftovers``: where the other collection
        cards go ("stacks": shuffled under the given stacks, or a player: into that collection);
        ``positions``: pawn positions; ``prison``: thief numbers, cell 1 first; ``cash_box``: cheque
        values paid in earlier rounds; ``give``: player -> cheque values moved into that hand.
        """
        data = dict(data)
        collections = {int(p): str(v) for p, v in (data.pop("collections", None) or {}).items()}
        stacks = data.pop("stacks", None)
        game = data.pop("game", None)
        if game is None:
            letters = Counter(c.upper() for s in [*collections.values(), *(stacks or [])] for c in s if c.isalpha())
            params = {k: data[k] for k in AdelGame.__dataclass_fields__ if k in data}
            params.setdefault("cards_per_letter", max([4, *letters.values()]))
            game = AdelGame(num_players=int(data.get("players", 2)), **params)
        state = cls(game, random.Random(int(data.get("seed", 0))))
        pool = sorted(game.all_cards())

        def take(letter: str) -> CollectionCard:
            card = next((c for c in pool if c.letter == letter.upper()), None)
            if card is None:
                raise ValueError(f"no collection card {letter} left (cards_per_letter={game.cards_per_letter})")
            pool.remove(card)
            return card

        state.collections = [[take(c) for c in collections.get(p, "") if c.isalpha()] for p in range(game.num_players)]
        state.stacks = [list(reversed([take(c) for c in s if c.isalpha()])) for s in (stacks or [])] + [[], []]
        leftovers = data.get("leftovers", "stacks")
        if leftovers == "stacks":
            state.rng.shuffle(pool)
            for i, card in enumerate(pool):
                state.stacks[i % 2].insert(0, card)
        else:
            state.collections[int(leftovers)].extend(pool)
        state.stacks = state.stacks[:2]
        state.auction_closed = not any(state.stacks)
        if data.get("positions") is not None:
            state.positions = [int(x) for x in data["positions"]]
        for number in data.get("prison") or []:
            thief = next(t for hand in state.thieves for t in hand if t.number == int(number))
            state.thieves[thief.owner].remove(thief)
            state.prison.append(thief)
        for value in data.get("cash_box") or []:
            state._move_cheque(int(value), None)
        for p, values in (data.get("give") or {}).items():
            for value in values:
                state._move_cheque(int(value), int(p))
        problems = check_invariants(state)
        if problems:
            raise ValueError("; ".join(problems))
        return state

    def _move_cheque(self, value: int, to: int | None) -> None:
        hand = next((h for h in self.hands if any(c.value == value for c in h)), None)
        if hand is None:
            raise ValueError(f"no cheque of value {value} in any hand")
        cheque = next(c for c in hand if c.value == value)
        hand.remove(cheque)
        insort(self.cash_box if to is None else self.hands[to], cheque)

    # ------------------------------------------------------------------------- the generic probe ---

    def parse_action(self, step: str) -> Action:
        """A scenario's step, by the player to act unless it starts with one ("1:castle"):
        "auction" | "castle" (a place), "cheque [value]" (default the highest) | "thief [number]"
        (default the lowest in hand) | "detective" | "exhibition", "auction cheque 13" (place and
        card together: the surprise variant), "pass", "take <stack>", "exhibit <letter>" (the
        oldest such card of one's collection), "finish", "steal <victim> <letter>"."""
        text = str(step)
        player = self.current_player()
        if ":" in text:
            player, text = text.split(":", 1)
        seat, words = int(player), text.lower().split()
        place = Location(words.pop(0)) if words and words[0] in ("auction", "castle") else None
        if not words:
            return ChooseLocation(player, place)
        kind, value = words[0], int(words[1]) if len(words) > 1 and words[1].isdigit() else None
        if kind in (CHEQUE, THIEF) and value is None:
            values = [c.value for c in self.hands[seat]] if kind == CHEQUE else [t.number for t in self.thieves[seat]]
            value = (max if kind == CHEQUE else min)(values, default=None)
        if kind in CARD_KINDS:
            return PlayCard(player, kind, value) if place is None else ChooseBoth(player, place, kind, value)
        if kind == "pass":
            return Pass(player)
        if kind == "take":
            return TakeCard(player, value or 0)
        if kind == "finish":
            return FinishExhibition(player)
        letter = words[-1].upper()
        if kind == "exhibit":
            chosen = self.selection.get(seat, [])
            cards = [c for c in sorted(self.collections[seat]) if c.letter == letter and c not in chosen]
            return ExhibitCard(player, cards[0] if cards else CollectionCard(0, letter))
        if kind == "steal":
            cards = [c for c in sorted(self.exhibitions.get(int(words[1]), [])) if c.letter == letter]
            return Steal(player, words[1], cards[0] if cards else CollectionCard(0, letter))
        raise ValueError(f"unknown step {step!r}")

    def observe(self) -> dict[str, Any]:
        """By player: ``positions``, ``collections`` (letters), ``cheques_in_hand`` (values),
        ``thieves_in_hand`` (numbers), ``places`` (laid this round, face down or up; None before),
        ``face_up_places`` (the places as the table sees them: None until they are revealed, then
        face up until the round ends), ``on_display``
        (exhibitions lying out). Then ``round``, ``phase``, ``player`` (to act), ``cash_box``,
        ``prison`` (cell 1 first), ``prison_cells``, ``auction_closed``, ``stacks`` (how many),
        ``stack_tops`` (top letters), ``events`` (the kinds of everything revealed so far, in order),
        ``table`` (the history: what the table has seen, hidden choices as "lays ... face down"), and
        what the player to act may choose now: ``allowed_places``, ``allowed_cards``."""
        names = [str(p) for p in range(self.num_players)]
        legal = [a for a in self.legal_actions() if a.player == self.current_player()]
        return {
            "round": self.round,
            "phase": self.phase,
            "player": self.current_player(),
            "positions": dict(zip(names, self.positions)),
            "collections": {p: letters_of(c) for p, c in zip(names, self.collections)},
            "cheques_in_hand": {p: [c.value for c in h] for p, h in zip(names, self.hands)},
            "thieves_in_hand": {p: [t.number for t in h] for p, h in zip(names, self.thieves)},
            "places": {p: None if loc is None else Location(loc).value for p, loc in zip(names, self.locations)},
            "face_up_places": {p: Location(loc).value if self.places_face_up and loc is not None else None
                               for p, loc in zip(names, self.locations)},
            "on_display": {str(p): letters_of(c) for p, c in self.exhibitions.items() if c},
            "cash_box": sorted(c.value for c in self.cash_box),
            "prison": [t.number for t in self.prison],
            "prison_cells": self.game.prison_cells,
            "auction_closed": self.auction_closed,
            "stacks": len(self.stacks),
            "stack_tops": [s[-1].letter if s else None for s in self.stacks],
            "events": [kind for _, kind, _ in self.log],
            "table": list(self.history),
            "allowed_places": sorted({Location(a.location).value for a in legal
                                      if isinstance(a, (ChooseLocation, ChooseBoth))}),
            "allowed_cards": sorted({a.kind for a in legal if isinstance(a, (PlayCard, ChooseBoth))}),
        }

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def current_player(self) -> str | None:
        """Who must act now (None at the end). In the secret phases everyone still to choose may act
        (see ``legal_actions``); this names the lowest such seat, the default actor of a step."""
        seat = self.seat_to_act()
        return None if seat is None else str(seat)

    def seat_to_act(self) -> int | None:
        if self.phase == LOCATION:
            return next(p for p in range(self.num_players) if self.locations[p] is None)
        if self.phase == ACTION:
            return next(p for p in range(self.num_players) if self.played[p] is None)
        if self.phase == AUCTION_TAKE:
            return self.auction_winner
        if self.phase == EXHIBIT:
            return self.exhibit_queue[0]
        if self.phase == STEAL:
            return self.steal_queue[0].owner
        return None

    def winners(self) -> list[int]:
        return winners(self.positions) if self.is_terminal() else []

    def returns(self) -> dict[str, int]:
        """Pawn positions on the scoring track by player (final once the game is over)."""
        return {str(p): v for p, v in enumerate(self.positions)}

    def __str__(self) -> str:
        return (f"round {self.round} phase {self.phase} positions {self.positions} "
                f"stacks {[len(s) for s in self.stacks]} cash {[c.value for c in self.cash_box]} "
                f"prison {[str(t) for t in self.prison]}")

    def _event(self, kind: str, text: str, **data: Any) -> None:
        self.log.append((self.round, kind, data))
        self.history.append(f"R{self.round} {text}")

    # ---------------------------------------------------------------------- legal actions ---

    def legal_actions(self) -> list[Action]:
        """All actions that may be taken now: in the secret phases (places, action cards, putting
        exhibitions together) those of every player still to choose, otherwise those of the current
        player (empty only at the end of the game)."""
        return [a for a in self._candidates() if self.check(a) is None]

    def _candidates(self) -> list[Action]:
        if self.phase in (LOCATION, ACTION, EXHIBIT):
            return [a for p in self._choosing() for a in self._candidates_of(p)]
        return self._candidates_of(self.current_player())

    def _candidates_of(self, p: str | None) -> list[Action]:
        seat = None if p is None else int(p)
        if self.phase == LOCATION and self.game.variant == SURPRISE:
            return [ChooseBoth(p, loc, kind, value)
                    for loc in Location for kind, value in self._card_candidates(seat)]
        if self.phase == LOCATION:
            return [ChooseLocation(p, loc) for loc in Location]
        if self.phase == ACTION:
            return [PlayCard(p, kind, value) for kind, value in self._card_candidates(seat)] + [Pass(p)]
        if self.phase == AUCTION_TAKE:
            return [TakeCard(p, s) for s in range(NUM_STACKS)]
        if self.phase == EXHIBIT:
            return [ExhibitCard(p, c) for c in sorted(self.collections[seat])] + [FinishExhibition(p)]
        if self.phase == STEAL:
            return [Steal(p, str(v), c) for v in sorted(self.exhibitions) for c in sorted(self.exhibitions[v])]
        return []

    def _card_candidates(self, p: int) -> list[tuple[str, int | None]]:
        values = sorted({c.value for c in self.hands[p]})
        return ([(CHEQUE, v) for v in values] + [(THIEF, t.number) for t in sorted(self.thieves[p])]
                + [(DETECTIVE, None), (EXHIBITION, None)])

    # ------------------------------------------------------------------------- validation ---

    def check(self, a: Action) -> RuleViolation | None:
        if self.phase == OVER:
            return RuleViolation(R.GAME_OVER, "the game is over")
        if isinstance(a, (ExhibitCard, FinishExhibition)) and a.player in map(str, self.finished_exhibitors):
            return ExhibitionViolation(R.ONE_EXHIBITION, f"P{a.player} has already laid out "
                                       "this round's exhibition; one exhibition per player and round", None)
        if violation := self._check_action_type(a):
            return violation
        if self.phase in (LOCATION, ACTION, EXHIBIT):
            # Everyone chooses at the same time: whoever has still to lay a card (or an exhibition)
            # face down may do so, in any order.
            if a.player not in self._choosing():
                return self._not_choosing(a.player)
        elif a.player != (p := self.current_player()):
            return RuleViolation(R.ROUND_STRUCTURE, f"it is P{p}'s turn to act, not P{a.player}'s")
        seat = int(a.player)
        if isinstance(a, ChooseLocation):
            return self.check_location(seat, a.location)
        if isinstance(a, ChooseBoth):
            return (self.check_location(seat, a.location)
                    or self.check_action_card(seat, Location(a.location), a.kind, a.value))
        if isinstance(a, PlayCard):
            return self.check_action_card(seat, self.locations[seat], a.kind, a.value)
        if isinstance(a, Pass):
            return self.check_pass(seat)
        if isinstance(a, TakeCard):
            return self.check_take(seat, a.stack)
        if isinstance(a, ExhibitCard):
            return self.check_exhibit_card(seat, a.card)
        if isinstance(a, FinishExhibition):
            return self.check_finish_exhibition(seat)
        return self.check_steal(seat, a.victim, a.card)

    def _choosing(self) -> list[str]:
        """The players who still have to lay a card (or their exhibition) face down in this phase,
        in seat order."""
        if self.phase == EXHIBIT:
            return [str(p) for p in self.exhibit_queue]
        laid = self.locations if self.phase == LOCATION else self.played
        return [str(p) for p in range(self.num_players) if laid[p] is None]

    def _not_choosing(self, player: str) -> RuleViolation:
        if player not in map(str, range(self.num_players)):
            return RuleViolation(R.ROUND_STRUCTURE, f"there is no player {player!r}")
        if self.phase == EXHIBIT:
            return RuleViolation(R.ROUND_STRUCTURE, f"P{player} has not shown the exhibition card")
        card = "a place" if self.phase == LOCATION else "an action card"
        return RuleViolation(R.SIMULTANEOUS_CHOICE, f"P{player} has already laid {card} face down this round")

    def _check_action_type(self, a: Action) -> RuleViolation | None:
        """Regelerklärung · Der Rundenaufbau: the four phases in fixed order; variants (Spiel zu
        zweit) replace how places and cards are chosen."""
        variant = self.game.variant
        if variant == CONFRONTATION and isinstance(a, (ChooseLocation, ChooseBoth)):
            return RuleViolation(R.CONFRONTATION, "confrontation variant: no free choice of place; "
                                "both play at the announced place, only the action card is chosen")
        if variant == SURPRISE and isinstance(a, (ChooseLocation, PlayCard)):
            return RuleViolation(R.SURPRISE, "surprise variant: location and action card are laid "
                                "together and revealed together")
        if variant != SURPRISE and isinstance(a, ChooseBoth):
            return RuleViolation(R.CHOOSE_LOCATION, "location and action card are chosen in separate "
                                "phases (only the two-player surprise variant lays them together)")
        allowed = {
            LOCATION: (ChooseLocation, ChooseBoth),
            ACTION: (PlayCard, Pass),
            AUCTION_TAKE: (TakeCard,),
            EXHIBIT: (ExhibitCard, FinishExhibition),
            STEAL: (Steal,),
        }[self.phase]
        if not isinstance(a, allowed):
            return RuleViolation(R.ROUND_STRUCTURE, f"{type(a).__name__} is not possible in phase {self.phase}")
        return None

    def check_location(self, p: int, location: Location | str) -> RuleViolation | None:
        """Phase 1 (Ort wählen): auction house or castle.

        Rundenende: once no collection cards remain in the auction house it is closed and only the
        castle is played. A reading (the source is silent, so the refusal cites ``NO_CARD_FOR_PLACE``):
        the auction house may only be chosen by a player who holds a card allowed there (a cheque or
        a thief), since every player at a place lays an action card in Phase 2.
        """
        try:
            loc = Location(location)
        except ValueError:
            return RuleViolation(R.CHOOSE_LOCATION, f"unknown location {location!r}")
        if loc == Location.AUCTION and self.auction_closed:
            return RuleViolation(R.AUCTION_CLOSED, "the auction house is closed (no collection cards "
                                "left); only the castle is played")
        if loc == Location.AUCTION and not self.hands[p] and not self.thieves[p]:
            return RuleViolation(R.NO_CARD_FOR_PLACE, f"P{p} holds no cheque and no thief, so no card "
                                 "allowed in the auction house")
        return None

    def check_action_card(self, p: int, loc: Location | None, kind: str, value: int | None) -> RuleViolation | None:
        """Phase 2 (Handlung wählen): auction house: a cheque or a thief, the detective is forbidden;
        castle: the exhibition card, a thief or the detective. The exhibition card only if the player
        can really form a valid exhibition. Only cards in hand can be laid (a thief in prison is not)."""
        if loc is None:
            return RuleViolation(R.CHOOSE_ACTION, f"P{p} has no location this round")
        loc = Location(loc)
        if kind not in CARD_KINDS:
            return RuleViolation(R.CHOOSE_ACTION, f"unknown action card {kind!r}")
        if kind == DETECTIVE and loc == Location.AUCTION:
            return RuleViolation(R.DETECTIVE_CASTLE_ONLY, "the detective may never be played in the "
                                "auction house, only in the castle")
        if kind not in ALLOWED_KINDS[loc]:
            allowed = "a cheque or a thief" if loc == Location.AUCTION else \
                "the exhibition card, a thief or the detective"
            return RuleViolation(R.CHOOSE_ACTION, f"{kind} is not allowed in the {loc.value}; "
                                f"allowed there: {allowed}")
        if kind in (DETECTIVE, EXHIBITION) and value is not None:
            return RuleViolation(R.CHOOSE_ACTION, f"the {kind} card has no value")
        if kind == CHEQUE and self._cheque_in_hand(p, value) is None:
            return RuleViolation(R.CHOOSE_ACTION, f"P{p} holds no cheque of value {value}")
        if kind == THIEF and self._thief_in_hand(p, value) is None:
            if any(t.number == value for t in self.prison):
                return RuleViolation(R.PRISON, f"thief {value} sits in prison and cannot be played")
            return RuleViolation(R.CHOOSE_ACTION, f"P{p} holds no thief {value}")
        if kind == EXHIBITION and not can_form_exhibition(self.collections[p]):
            return RuleViolation(R.EXHIBITION_CARD, f"P{p} cannot form a valid exhibition "
                                 f"(collection {letters_of(self.collections[p]) or '-'})")
        return None

    def check_pass(self, p: int) -> RuleViolation | None:
        """Passing is possible only when no action card is allowed (confrontation variant only; the
        source is silent: see ``Pass``)."""
        loc = self.locations[p]
        for kind, value in self._card_candidates(p):
            if self.check_action_card(p, loc, kind, value) is None:
                card = kind if value is None else f"{kind} {value}"
                return RuleViolation(R.CHOOSE_ACTION, f"P{p} can lay {card}; an action card must be laid")
        return None

    def check_take(self, p: int, stack: int) -> RuleViolation | None:
        """Phase 3 · Schecks: the highest cheque takes the TOP card of one of the two stacks."""
        if not 0 <= stack < NUM_STACKS:
            return RuleViolation(R.AUCTION_CHEQUES, f"there are {NUM_STACKS} stacks, not {stack}")
        if not self.stacks[stack]:
            return RuleViolation(R.AUCTION_CHEQUES, f"stack {stack} is empty")
        return None

    def check_exhibit_card(self, p: int, card: CollectionCard) -> RuleViolation | None:
        """Phase 4 · Ausstellungen / Was eine Ausstellung ist: an exhibition is >= 3 of the player's
        collection cards with letters following without a gap. A card may be added only if the
        exhibition can still be completed; a card from a separate run is a second exhibition, which
        is refused: one exhibition per player and round."""
        selection = self.selection[p]
        collection = self.collections[p]
        if card not in collection:
            return ExhibitionViolation(R.EXHIBITION, f"{card} is not in P{p}'s collection", None)
        if card in selection:
            return ExhibitionViolation(R.EXHIBITION, f"{card} is already in the exhibition", None)
        if completable(selection + [card], collection):
            return None
        other = run_containing(card.letter, collection)
        if selection and other is not None and len(other[1]) >= 3:
            return ExhibitionViolation(R.ONE_EXHIBITION, f"{card} belongs to a separate exhibition "
                                      f"({other[0]}); one exhibition per player and round", REASON_GAP)
        reason = REASON_GAP if selection else REASON_TOO_FEW
        return ExhibitionViolation(R.EXHIBITION, f"{card} cannot be part of a valid exhibition with "
                                  f"{letters_of(selection) or 'nothing'} ({reason})", reason)

    def check_finish_exhibition(self, p: int) -> RuleViolation | None:
        """Was eine Ausstellung ist: the laid-out cards must form a valid exhibition."""
        valid, reason = exhibition_validity(letters_of(self.selection[p]))
        if not valid:
            return ExhibitionViolation(R.EXHIBITION, f"{letters_of(self.selection[p]) or 'nothing'} "
                                       f"is no valid exhibition ({reason})", reason)
        return None

    def check_steal(self, p: int, victim: str, card: CollectionCard) -> RuleViolation | None:
        """Phase 4 · Diebe im Schloss: each castle thief takes 1 card of their choice from EVERY
        exhibition on display, no more than 1 from each."""
        victim = int(victim) if str(victim).isdigit() else -1
        if victim not in self.exhibitions or not self.exhibitions[victim]:
            return RuleViolation(R.CASTLE_THIEVES, f"P{victim} has no exhibition on display")
        if victim in self.robbed:
            return RuleViolation(R.CASTLE_THIEVES, f"this thief already took 1 card from P{victim}'s "
                                "exhibition; only 1 card from each exhibition")
        if card not in self.exhibitions[victim]:
            return RuleViolation(R.CASTLE_THIEVES, f"{card} is not in P{victim}'s exhibition")
        return None

    def _cheque_in_hand(self, p: int, value: int | None) -> Cheque | None:
        return next((c for c in sorted(self.hands[p]) if c.value == value), None)

    def _thief_in_hand(self, p: int, number: int | None) -> Thief | None:
        return next((t for t in self.thieves[p] if t.number == number), None)

    # ------------------------------------------------------------------------------ apply ---

    def describe(self, action: Action) -> str:
        """The table's view: places, action cards and exhibited cards are laid face down."""
        hidden = {ChooseLocation: "a place", ChooseBoth: "a place and an action card", PlayCard: "an action card",
                  ExhibitCard: "a card of the exhibition"}.get(type(action))
        return f"R{self.round} {action.player} lays {hidden} face down" if hidden else f"R{self.round} {action}"

    def perform(self, action: Action) -> None:
        """Carry out the action and resolve everything that follows automatically."""
        p = int(action.player)
        if isinstance(action, ChooseLocation):
            self._do_location(p, Location(action.location))
        elif isinstance(action, ChooseBoth):
            self._do_location(p, Location(action.location), reveal=False)
            self._do_card(p, action.kind, action.value)
        elif isinstance(action, PlayCard):
            self._do_card(p, action.kind, action.value)
        elif isinstance(action, Pass):
            self.played[p] = Played("pass")
            self._after_card()
        elif isinstance(action, TakeCard):
            self._do_take(p, action.stack)
        elif isinstance(action, ExhibitCard):
            self.selection[p].append(action.card)
        elif isinstance(action, FinishExhibition):
            self._do_finish_exhibition(p)
        elif isinstance(action, Steal):
            self._do_steal(p, int(action.victim), action.card)

    # -------------------------------------------------------------------------- round flow ---

    def _reset_round(self) -> None:
        n = self.num_players
        self.locations: list[Location | None] = [None] * n
        self.places_face_up = False  # Ortskarten: revealed together, then face up until the round ends
        self.played: list[Played | None] = [None] * n
        self.exhibitions: dict[int, list[CollectionCard]] = {}
        self.selection: dict[int, list[CollectionCard]] = {}
        self.exhibit_queue: list[int] = []
        self.finished_exhibitors: set[int] = set()
        self.steal_queue: list[Thief] = []
        self.robbed: set[int] = set()
        self.auction_winner: int | None = None
        self.paid_this_round: Cheque | None = None

    def confrontation_place(self) -> Location:
        """Konfrontationsvariante: both always at the same place, alternating auction house and
        castle, announced beforehand. Round 1 is ``confrontation_start`` (*silent*). Once the
        auction house is closed only the castle is played (Rundenende)."""
        if self.auction_closed:
            return Location.CASTLE
        start = Location(self.game.confrontation_start)
        other = Location.CASTLE if start == Location.AUCTION else Location.AUCTION
        return start if self.round % 2 == 1 else other

    def _start_round(self) -> None:
        self._reset_round()
        if self.game.variant == CONFRONTATION:
            place = self.confrontation_place()
            self.locations = [place] * self.num_players
            self.places_face_up = True  # announced aloud: nothing about the place is hidden
            self._event("announce", f"place announced: {place.value}", place=place.value)
            self.phase = ACTION
        else:
            self.phase = LOCATION

    def _do_location(self, p: int, loc: Location, reveal: bool = True) -> None:
        self.locations[p] = loc
        if reveal and all(l is not None for l in self.locations):
            self._reveal_locations()
            self.phase = ACTION

    def _reveal_locations(self) -> None:
        self.places_face_up = True
        self._event("locations", "locations " + " ".join(f"P{q}:{l.value}" for q, l in enumerate(self.locations)),
                    locations=[l.value for l in self.locations])

    def _do_card(self, p: int, kind: str, value: int | None) -> None:
        if kind == CHEQUE:
            card: Cheque | Thief | None = self._cheque_in_hand(p, value)
            self.hands[p].remove(card)
        elif kind == THIEF:
            card = self._thief_in_hand(p, value)
            self.thieves[p].remove(card)
        else:
            card = None
        self.played[p] = Played(kind, card)
        self._after_card()

    def _after_card(self) -> None:
        if any(c is None for c in self.played):
            return
        if self.game.variant == SURPRISE:
            self._reveal_locations()
        self._event("cards", "cards " + " ".join(
            f"P{q}:{c}" for q, c in enumerate(self.played)), cards=[str(c) for c in self.played])
        self.resolve_auction()

    def _at(self, loc: Location, kind: str) -> list[int]:
        return [p for p in range(self.num_players)
                if self.locations[p] == loc and self.played[p] is not None and self.played[p].kind == kind]

    # ------------------------------------------------------------------ phase 3: auction ---

    def resolve_auction(self) -> None:
        """Phase 3 · Schecks: the highest cheque in the auction house buys (its player then chooses a
        stack, see ``TakeCard``); equal highest cheques follow ``cheque_tie`` (*silent*)."""
        bidders = self._at(Location.AUCTION, CHEQUE)
        if bidders:
            top = max(self.played[p].card.value for p in bidders)
            best = [p for p in bidders if self.played[p].card.value == top]
            if len(best) == 1 or self.game.cheque_tie == FIRST_SEAT:
                self.auction_winner = best[0]
                self.phase = AUCTION_TAKE
                return
            self._event("tie", f"cheques tie at {top}: no sale", players=best)
        self.finish_auction()

    def _do_take(self, p: int, stack: int) -> None:
        card = self.stacks[stack].pop()
        self.collections[p].append(card)
        cheque = self.played[p].card
        self.cash_box.append(cheque)
        self.paid_this_round = cheque
        self._event("buy", f"P{p} pays {cheque} and takes {card} from stack {stack}",
                    player=p, card=str(card), letter=card.letter, cheque=cheque.value, stack=stack)
        self.finish_auction()

    def finish_auction(self) -> None:
        """Phase 3: lower cheques return to hand; then the auction thieves (Diebe)."""
        for p in self._at(Location.AUCTION, CHEQUE):
            if p != self.auction_winner:
                cheque = self.played[p].card
                insort(self.hands[p], cheque)
                self._event("return", f"P{p} takes back {cheque}", player=p, cheque=cheque.value)
            self.played[p] = Played(CHEQUE, None)  # revealed; the card is now in hand or cash box
        self.resolve_auction_thieves()
        self.resolve_castle()

    def resolve_auction_thieves(self) -> None:
        """Phase 3 · Diebe: a thief takes the cheque paid THIS round from the cash box (usable later
        like one's own); nothing if nothing was paid this round, never older cheques; several thieves
        block each other and nobody gets it. Thief cards then return to hand."""
        thieves = self._at(Location.AUCTION, THIEF)
        paid = self.paid_this_round
        if len(thieves) == 1 and paid is not None:
            p = thieves[0]
            self.cash_box.remove(paid)
            insort(self.hands[p], paid)
            self._event("thief-cheque", f"P{p}'s {self.played[p].card} takes {paid}",
                        player=p, cheque=paid.value)
        elif len(thieves) > 1 and paid is not None:
            self._event("thieves-block", "auction thieves block each other", players=thieves)
        elif thieves:
            self._event("auction-thief-empty", "nothing paid this round: auction thief gets nothing",
                        players=thieves)
        for p in thieves:
            thief = self.played[p].card
            insort(self.thieves[p], thief)
            self.played[p] = Played(THIEF, None)  # revealed, card already back in hand

    # ------------------------------------------------------------------- phase 4: castle ---

    def resolve_castle(self) -> None:
        """Phase 4 · Ausstellungen: exhibitors put their exhibitions together (hidden, in any order)."""
        exhibitors = self._at(Location.CASTLE, EXHIBITION)
        if exhibitors:
            self.exhibit_queue = list(exhibitors)
            self.selection = {p: [] for p in exhibitors}
            self.phase = EXHIBIT
        else:
            self.score_exhibitions()

    def _do_finish_exhibition(self, p: int) -> None:
        self.exhibit_queue.remove(p)
        self.finished_exhibitors.add(p)
        if self.exhibit_queue:
            return
        for q, cards in sorted(self.selection.items()):
            for card in cards:
                self.collections[q].remove(card)
            self.exhibitions[q] = sorted(cards)
        self.selection = {}
        self._event("exhibit", "exhibitions " + " ".join(
            f"P{q}:{letters_of(c)}" for q, c in sorted(self.exhibitions.items())),
            exhibitions={q: letters_of(c) for q, c in self.exhibitions.items()})
        self.score_exhibitions()

    def score_exhibitions(self) -> None:
        """Phase 4 · Figuren vorrücken: most cards first, ties by the oldest object; the best moves
        by the higher, the second by the lower number of the field beside the leading pawn."""
        if self.exhibitions:
            ranking = rank_exhibitions(self.exhibitions)
            field_ = scoring_field(self.game.scoring_fields, max(self.positions))
            moves = exhibition_moves(ranking, field_)
            for p, steps in moves.items():
                self.positions[p] += steps
            self._event("score", f"ranking {ranking} field {field_} moves {moves}",
                        ranking=ranking, field=list(field_), moves=moves)
        # A Thief orders by its loot-sack number first (numbers are unique).
        self.steal_queue = sorted((self.played[p].card for p in self._at(Location.CASTLE, THIEF)), reverse=True)
        self._advance_thieves()

    def _advance_thieves(self) -> None:
        """Phase 4 · Diebe im Schloss: thieves act after scoring, higher loot-sack number first."""
        while self.steal_queue:
            if any(v not in self.robbed and cards for v, cards in self.exhibitions.items()):
                self.phase = STEAL
                return
            thief = self.steal_queue.pop(0)
            if not self.robbed:
                self._event("thief-empty", f"{thief} finds no exhibition", thief=thief.number)
            self.robbed = set()
        self.resolve_detectives()

    def _do_steal(self, p: int, victim: int, card: CollectionCard) -> None:
        thief = self.steal_queue[0]
        self.exhibitions[victim].remove(card)
        self.collections[p].append(card)
        self.robbed.add(victim)
        self._event("steal", f"P{p}'s {thief} steals {card} from P{victim}",
                    player=p, thief=thief.number, victim=victim, card=str(card), letter=card.letter)
        remaining = [v for v, cards in self.exhibitions.items() if v not in self.robbed and cards]
        if not remaining:
            self.steal_queue.pop(0)
            self.robbed = set()
        self._advance_thieves()

    def resolve_detectives(self) -> None:
        """Phase 4 · Detektive: if a detective lies in the castle, all castle thieves go to prison,
        keeping their loot. If at least one thief was caught, each detective's owner moves by the
        place of their pawn (leader 1, second 2, ...); without a thief the detective does nothing."""
        detectives = self._at(Location.CASTLE, DETECTIVE)
        thieves = sorted(self.played[p].card for p in self._at(Location.CASTLE, THIEF))
        if detectives and thieves:
            moves = detective_moves(self.positions, detectives)
            for p, steps in moves.items():
                self.positions[p] += steps
            self._event("detectives", f"detectives catch {[str(t) for t in thieves]}, move {moves}",
                        caught=[t.number for t in thieves], moves=moves)
            for thief in thieves:
                self.imprison(thief)
        else:
            if detectives:
                self._event("detective-idle", "no thief in the castle: detectives do nothing",
                            players=detectives)
            for thief in thieves:
                insort(self.thieves[thief.owner], thief)
        for p in self._at(Location.CASTLE, THIEF):
            self.played[p] = Played(THIEF, None)
        self.end_round()

    def imprison(self, thief: Thief) -> None:
        """Phase 4 · Gefängnis: a caught thief enters cell 1, everyone inside moves one cell on; as
        many cells as players; a thief pushed out of the last cell is free and goes back to its owner."""
        self.prison.insert(0, thief)
        self._event("prison", f"{thief} enters cell 1", thief=thief.number)
        if len(self.prison) > self.game.prison_cells:
            freed = self.prison.pop()
            insort(self.thieves[freed.owner], freed)
            self._event("freed", f"{freed} leaves the last cell, back to P{freed.owner}",
                        thief=freed.number, owner=freed.owner)

    # -------------------------------------------------------------------------- round end ---

    def end_round(self) -> None:
        """Rundenende: everyone takes back location and remaining action cards; exhibited cards go
        back to their owners; with no collection card left the auction house closes. Then the end of
        the game is checked (*silent*: a pawn at ``goal`` or ``max_rounds`` rounds played)."""
        for p, cards in self.exhibitions.items():
            self.collections[p].extend(cards)
        self.exhibitions = {}
        if not self.auction_closed and not any(self.stacks):
            self.auction_closed = True
            self._event("closed", "auction house closes")
        self._event("end", f"positions {self.positions}", positions=list(self.positions))
        if max(self.positions) >= self.game.goal or self.round >= self.game.max_rounds:
            self._reset_round()
            self.phase = OVER
            self._event("over", f"game over, winners {winners(self.positions)}",
                        winners=winners(self.positions))
            return
        self.round += 1
        self._start_round()


# ------------------------------------------------------------------------------- helpers ---

def check_invariants(state: AdelState) -> list[str]:
    """Conservation problems of a state (empty list when all is well): every cheque in a hand, the
    cash box or played; every collection card in a stack, a collection or an exhibition; every thief
    in a hand, played or in prison; the prison never holds more thieves than cells."""
    problems: list[str] = []
    game = state.game
    cheques = [c for h in state.hands for c in h] + list(state.cash_box) + \
        [pl.card for pl in state.played if pl is not None and isinstance(pl.card, Cheque)]
    if sorted(cheques) != sorted(c for p in range(game.num_players) for c in game.cheques_of(p)):
        problems.append(f"cheques not conserved: {sorted(map(str, cheques))}")
    cards = [c for s in state.stacks for c in s] + [c for col in state.collections for c in col] + \
        [c for ex in state.exhibitions.values() for c in ex]
    if sorted(cards) != sorted(game.all_cards()):
        problems.append("collection cards not conserved")
    thieves = [t for h in state.thieves for t in h] + list(state.prison) + \
        [pl.card for pl in state.played if pl is not None and isinstance(pl.card, Thief)]
    if sorted(thieves) != sorted(t for p in range(game.num_players) for t in game.thieves_of(p)):
        problems.append(f"thieves not conserved: {sorted(map(str, thieves))}")
    if len(state.prison) > game.prison_cells:
        problems.append("prison over capacity")
    for p, hand in enumerate(state.thieves):
        if any(t.owner != p for t in hand):
            problems.append(f"P{p} holds another player's thief")
    if state.auction_closed and any(state.stacks):
        problems.append("auction house closed with cards left")
    return problems
