"""Game and state of Kardinal & König (Goldsieber 2000) on the engine kernel.

A turn (Regelheft S. 3–5 · Ablauf eines Zuges) is either

* :class:`Play` — up to 3 cards, up to 2 stones, all in one land; then the player refills the
  hand to 3 with :class:`Draw` actions (open card or top of the deck, one card each), after which
  the open cards are topped up to 2 automatically; or
* :class:`Swap` — discard one hand card and take an open card or the top deck card; this ends
  the turn;
* :class:`Pass` — only when neither a Play nor a Swap is possible (see below).

``legal_actions()`` is the single source of truth: it enumerates plays with the same rule
functions that ``check()`` uses to refuse an illegal action (each returns the
:class:`~rules_index.engines.base.RuleViolation` it finds, changing nothing).

Where the source is silent (parameters of :class:`Config`, or documented choices):

* ``joker_for_shown_land`` (default False): the source says a pair is a joker for "any OTHER
  land", so by default a pair may not pay for a stone in a land its cards show (a single card
  would do there anyway). The source does not say so outright: the refusal is a reading, cited
  as such (``R_JOKER_SHOWN_LAND``), and the rules summaries list the point as open.
* ``refill_open_after_swap`` (default True): the source says the open cards are topped up to 2
  after refilling the hand; it does not say so for a swap. By default they are topped up at the
  end of every turn.
* The council limit is checked after all stones of the turn stand (a monastery placed this turn
  raises the limit for a councillor placed with it — the player simply sets the monastery first).
* "Niemand kann mehr einen Stein setzen" is read from the board, not from the hands: the game
  ends when no player has a monastery in supply with a free field left, nor a councillor in
  supply with room in some land. A reading: the source does not say whether the hands count (the
  rules summaries list it as open).
* :class:`Pass` exists only for the otherwise stuck position (empty hand, or no stone placeable
  and nothing to take after the deck ran out for good). Passing by choice is forbidden (S. 5).
* If scores and stones left are both tied, the tied players share the win.
* The start player (black marker) is the first seat ("A") unless ``start_player`` says otherwise;
  turns pass to the left, i.e. to the next seat. Seats are indexes inside; players are "A", "B", ...
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable, Mapping, Union

from ..base import Rule, RuleViolation, State
from .board import Board
from .sample_board import SAMPLE_BOARD
from .cards import (
    COLOURS, COUNCILLOR, COUNCILLORS_PER_PLAYER, HAND_SIZE, MAX_CARDS_PER_TURN, MAX_PLAYERS,
    MAX_STONES_PER_TURN, MIN_PLAYERS, MONASTERIES_PER_PLAYER, MONASTERY, OPEN_CARDS, PLAYER_NAMES,
    TOTAL_CARDS, Colour, card_pool, colour_of,
)
from . import scoring

# --------------------------------------------------------------------------- rules (citations)
_S4 = "Regelheft S. 4 · Spielsteine setzen"
R_ONE_LAND = Rule("Ein Land pro Zug", _S4)
R_CARDS_STONES = Rule("Höchstens 3 Karten und 2 Steine", _S4)
R_CARD_SHOWS_LAND = Rule("Karte nennt das Land", _S4)
R_JOKER = Rule("Joker", _S4)
R_JOKER_SHOWN_LAND = Rule("Joker im eigenen Land",
                          "Quelle schweigt · Lesart von „anderes Land“ (S. 4), Parameter joker_for_shown_land")
R_CARDS_IN_HAND = Rule("Karten auf der Hand", _S4)
R_EMPTY_LAND = Rule("Leeres Land: nur ein Kloster", _S4)
R_MONASTERY_FIELD = Rule("Klosterfeld", _S4)
R_NO_COUNCIL_WITHOUT_MONASTERY = Rule("Kein Rat ohne Kloster", _S4)
R_COUNCIL_LIMIT = Rule("Räte-Obergrenze", _S4)
R_SUPPLY = Rule("Vorrat", _S4)
R_TURN = Rule("Ablauf eines Zuges", "Regelheft S. 3–5 · Ablauf eines Zuges")
R_REFILL = Rule("Hand auffüllen", "Regelheft S. 3–5 · Ablauf eines Zuges")
R_SWAP = Rule("Eine Karte tauschen", "Regelheft S. 5 · Eine Karte tauschen")
R_NO_PASSING = Rule("Kein Passen", "Regelheft S. 5 · Eine Karte tauschen")
R_GAME_OVER = Rule("Spielende", "Regelheft S. 6 · Das Spielende")
R_PLAYERS = Rule("Spieleranzahl", "Regelheft S. 2 · Aufbau")

PLAY, DRAW, OVER = "play", "draw", "over"
OPEN, DECK = "open", "deck"


# --------------------------------------------------------------------------- actions
def _cards_str(cards: Iterable[Colour]) -> str:
    return "+".join(c.label for c in cards)


@dataclass(frozen=True)
class Placement:
    """One stone of a Play: ``kind`` "Kloster" (on ``field``) or "Rat" (on the land's crest,
    ``field`` empty), paid with ``cards``: one card showing ``land`` or a pair (joker)."""

    land: str
    kind: str
    field: str = ""
    cards: tuple[Colour, ...] = ()

    def __str__(self) -> str:
        where = self.field if self.kind == MONASTERY else self.land
        return f"{self.kind} {where} [{_cards_str(self.cards)}]"


@dataclass(frozen=True)
class Play:
    """Play cards and place stones (Regelheft S. 3–5, option A)."""

    placements: tuple[Placement, ...]

    def __str__(self) -> str:
        return "places " + " + ".join(str(p) for p in self.placements)


@dataclass(frozen=True)
class Draw:
    """Refill the hand by one card after a Play: an open card of ``colour`` or the deck's top."""

    source: str
    colour: Colour | None = None

    def __str__(self) -> str:
        return f"draws open {self.colour}" if self.source == OPEN else "draws from the deck"


@dataclass(frozen=True)
class Swap:
    """Swap a card (Regelheft S. 5, option B): discard ``discard``, take an open card or the top
    deck card. Ends the turn."""

    discard: Colour
    source: str
    colour: Colour | None = None

    def __str__(self) -> str:
        took = f"open {self.colour}" if self.source == OPEN else "the deck's top card"
        return f"swaps {self.discard} for {took}"


@dataclass(frozen=True)
class Pass:
    """Only legal when no Play and no Swap is possible (source silent on that position)."""

    def __str__(self) -> str:
        return "can do nothing"


Action = Union[Play, Draw, Swap, Pass]


# --------------------------------------------------------------------------- configuration
@dataclass(frozen=True)
class Config:
    """Parameters of a game. Defaults follow the source; see the module docstring for the
    parameters where the source is silent."""

    num_players: int = 4
    board: Board = SAMPLE_BOARD
    start_player: int = 0
    joker_for_shown_land: bool = False
    refill_open_after_swap: bool = True
    monasteries_per_player: int = MONASTERIES_PER_PLAYER
    councillors_per_player: int = COUNCILLORS_PER_PLAYER

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise RuleViolation(R_PLAYERS, f"{self.num_players} players; the game is for 3 to 5")
        if not 0 <= self.start_player < self.num_players:
            raise ValueError("start_player out of range")


def player_name(p: int) -> str:
    return PLAYER_NAMES[p]


def seat(player: int | str) -> int:
    """A seat index from a player's letter ("B") or the index itself."""
    return player if isinstance(player, int) else PLAYER_NAMES.index(str(player).strip().upper())


# --------------------------------------------------------------------------- state
class KardinalState(State):
    """A position of Kardinal & König."""

    constant = ("config", "board")

    def __init__(self, config: Config = Config(), seed: int | None = 0):
        self.config = config
        self.board = config.board
        self.rng = random.Random(seed)
        n = config.num_players
        in_play = card_pool(n)
        self.removed: list[Colour] = [c for c in COLOURS for _ in range(c.count - in_play[c])]
        deck = [c for c in COLOURS for _ in range(in_play[c])]
        self.rng.shuffle(deck)
        self.deck: list[Colour] = deck  # top card = last element
        self.hands: list[list[Colour]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for p in range(n):
                self.hands[p].append(self.deck.pop())
        self.open: list[Colour] = [self.deck.pop() for _ in range(OPEN_CARDS)]
        self.discard: list[Colour] = []
        self.monasteries: dict[str, int] = {}
        self.councillors: dict[str, list[int]] = {land: [0] * n for land in self.board.lands}
        self.supply_monasteries = [config.monasteries_per_player] * n
        self.supply_councillors = [config.councillors_per_player] * n
        self.scores = [0] * n
        self.current = config.start_player
        self.phase = PLAY
        self.exhaustions = 0          # how often the deck has run out
        self.final_round = False      # deck ran out the second time: finish the round
        self.turn = 1
        self.interim: dict[int, int] | None = None  # points of the interim scoring
        self.final: dict | None = None
        self.end_reason: str | None = None
        self.end_code: str | None = None  # "round_finished" | "blocked"
        self.history: list[str] = []
        self.stones_placed = 0  # by everyone since this state began (a scenario starts at 0)
        self.cards_played = 0
        self.focus: str | None = None  # the land a scenario asks about (see observe)
        self.last_player: str | None = None  # who made the last move

    @classmethod
    def new_game(cls, seed: int = 0, **params: Any) -> "KardinalState":
        """Setup (Regelheft S. 2 · Aufbau); ``params`` are :class:`Config` fields."""
        return cls(Config(**params), seed=seed)

    # ---------------------------------------------------------------- basic queries
    @property
    def num_players(self) -> int:
        return self.config.num_players

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def current_player(self) -> str | None:
        """Who must act (also during the refill after a Play); None when the game is over."""
        return None if self.is_terminal() else player_name(self.current)

    def returns(self) -> dict[str, int]:
        """Points by player (final once the game is over)."""
        return {player_name(p): v for p, v in enumerate(self.scores)}

    def winners(self) -> list[str]:
        """Winner(s) by points, then by stones left (Regelheft S. 6–7)."""
        seats = scoring.winners(dict(enumerate(self.scores)), {p: self.stones_left(p) for p in range(self.num_players)})
        return [player_name(p) for p in seats]

    def stones_left(self, p: int) -> int:
        return self.supply_monasteries[p] + self.supply_councillors[p]

    def monastery_counts(self, land: str) -> list[int]:
        return [sum(1 for f in self.board.lands[land] if self.monasteries.get(f) == p) for p in range(self.num_players)]

    def has_monastery(self, land: str) -> bool:
        return any(f in self.monasteries for f in self.board.lands[land])

    def council_limit(self, land: str, extra_monasteries: int = 0, player: int | None = None) -> int:
        """Most councillors (all colours) a land may hold: as many as the player with the most
        monasteries there has monasteries (Regelheft S. 4 · Spielsteine setzen).
        ``extra_monasteries`` of ``player`` count as already placed."""
        counts = self.monastery_counts(land)
        if player is not None:
            counts[player] += extra_monasteries
        return max(counts)

    def councillors_in(self, land: str) -> int:
        return sum(self.councillors[land])

    def card_count(self) -> int:
        return len(self.deck) + sum(map(len, self.hands)) + len(self.open) + len(self.discard) + len(self.removed)

    # ---------------------------------------------------------------- rule checks (one per rule)
    def _check_phase(self, wanted: str, action: Action) -> RuleViolation | None:
        """Regelheft S. 3–5 · Ablauf eines Zuges: a Play or Swap starts a turn; after a Play the
        player refills the hand before anything else."""
        if self.phase == OVER:
            return RuleViolation(R_GAME_OVER, "the game is over")
        if self.phase != wanted:
            what = "refill the hand to 3 first" if self.phase == DRAW else "a turn starts with playing cards or a swap"
            return RuleViolation(R_TURN, f"{action} not possible now: {what}")
        return None

    def check_one_land(self, play: Play) -> RuleViolation | None:
        """Regelheft S. 4: all stones of a turn go into ONE land, even with a two-land card."""
        lands = {pl.land for pl in play.placements}
        for land in lands:
            if land not in self.board.lands:
                return RuleViolation(R_ONE_LAND, f"unknown land {land!r}")
        if len(lands) != 1:
            return RuleViolation(R_ONE_LAND, f"stones in {len(lands)} lands ({', '.join(sorted(lands))}); "
                                             "only one land per turn")
        return None

    def check_cards_and_stones(self, play: Play) -> RuleViolation | None:
        """Regelheft S. 4: up to 3 cards and up to 2 stones; every card (or pair) brings one stone."""
        n = len(play.placements)
        if not 1 <= n <= MAX_STONES_PER_TURN:
            return RuleViolation(R_CARDS_STONES, f"{n} stones; a turn places 1 or 2")
        cards = sum(len(pl.cards) for pl in play.placements)
        if cards > MAX_CARDS_PER_TURN:
            return RuleViolation(R_CARDS_STONES, f"{cards} cards; at most {MAX_CARDS_PER_TURN} per turn")
        for pl in play.placements:
            if pl.kind not in (MONASTERY, COUNCILLOR):
                return RuleViolation(R_CARDS_STONES, f"unknown stone {pl.kind!r}")
            if len(pl.cards) not in (1, 2):
                return RuleViolation(R_CARDS_STONES, f"{len(pl.cards)} cards for one stone; "
                                                     "one card or one pair brings one stone")

    def check_payment(self, pl: Placement) -> RuleViolation | None:
        """Regelheft S. 4: a single card must show the land; a pair of cards of the same colour is
        a joker for any other land. Whether a pair may pay in a land its cards show the source does
        not say: refused as a reading (``R_JOKER_SHOWN_LAND``), ``joker_for_shown_land`` allows it."""
        if len(pl.cards) == 1:
            card = pl.cards[0]
            if not card.shows(pl.land):
                return RuleViolation(R_CARD_SHOWS_LAND, f"a {card} card does not allow a stone in {pl.land}")
            return None
        a, b = pl.cards
        if a != b:
            return RuleViolation(R_JOKER, f"{a} and {b} are not a pair: a joker needs two cards of the same colour")
        if a.shows(pl.land) and not self.config.joker_for_shown_land:
            return RuleViolation(R_JOKER_SHOWN_LAND, f"a {a} pair is a joker for another land, not for {pl.land} "
                                                     "(a reading: the source does not say)")
        return None

    def check_cards_in_hand(self, player: int, play: Play) -> RuleViolation | None:
        """The cards played must be in the player's hand (Regelheft S. 4)."""
        need = Counter(c for pl in play.placements for c in pl.cards)
        have = Counter(self.hands[player])
        for c, k in need.items():
            if have[c] < k:
                return RuleViolation(R_CARDS_IN_HAND, f"{player_name(player)} has {have[c]} {c} card(s), needs {k}")
        return None

    def check_empty_land(self, land: str, play: Play) -> RuleViolation | None:
        """Regelheft S. 4: into a land with no stone only ONE monastery may go this turn; once a
        monastery stands there (any colour), up to two stones."""
        if not self.has_monastery(land) and len(play.placements) > 1:
            return RuleViolation(R_EMPTY_LAND, f"{land} has no stone yet: only one monastery this turn")
        return None

    def check_monasteries(self, player: int, land: str, play: Play) -> RuleViolation | None:
        """Regelheft S. 4: a monastery goes on a free monastery field of the land, one per field;
        the supply is limited."""
        fields = [pl.field for pl in play.placements if pl.kind == MONASTERY]
        if len(set(fields)) != len(fields):
            return RuleViolation(R_MONASTERY_FIELD, "one monastery per field")
        for f in fields:
            if f not in self.board.lands[land]:
                return RuleViolation(R_MONASTERY_FIELD, f"{f!r} is not a monastery field of {land}")
            if f in self.monasteries:
                return RuleViolation(R_MONASTERY_FIELD, f"{f} is taken by {player_name(self.monasteries[f])}")
        if len(fields) > self.supply_monasteries[player]:
            left = self.supply_monasteries[player]
            return RuleViolation(R_SUPPLY, f"{player_name(player)} has {left} monasteries left")
        return None

    def check_councillors(self, player: int, land: str, play: Play) -> RuleViolation | None:
        """Regelheft S. 4: councillors go on the land's crest; never into a land without a
        monastery; at most as many councillors in the land (all colours) as the player with the
        most monasteries there has; allowed without an own monastery; supply limited."""
        new = sum(1 for pl in play.placements if pl.kind == COUNCILLOR)
        if not new:
            return None
        if any(pl.field for pl in play.placements if pl.kind == COUNCILLOR):
            return RuleViolation(R_COUNCIL_LIMIT, "a councillor stands on the land's crest, not on a field")
        if not self.has_monastery(land):
            return RuleViolation(R_NO_COUNCIL_WITHOUT_MONASTERY, f"no monastery in {land}: no councillor there")
        extra = sum(1 for pl in play.placements if pl.kind == MONASTERY)
        limit = self.council_limit(land, extra, player)
        if self.councillors_in(land) + new > limit:
            return RuleViolation(R_COUNCIL_LIMIT, f"{land} may hold {limit} councillor(s); "
                                 f"{self.councillors_in(land)} stand there, {new} more is too many")
        if new > self.supply_councillors[player]:
            left = self.supply_councillors[player]
            return RuleViolation(R_SUPPLY, f"{player_name(player)} has {left} councillors left")
        return None

    def check_play(self, play: Play) -> RuleViolation | None:
        """All rules of option A, in order; the first broken one."""
        if violation := self._check_phase(PLAY, play):
            return violation
        if not isinstance(play.placements, tuple) or not play.placements:
            return RuleViolation(R_CARDS_STONES, "a play places 1 or 2 stones")
        land, p = play.placements[0].land, self.current
        return (self.check_one_land(play) or self.check_cards_and_stones(play)
                or next(filter(None, map(self.check_payment, play.placements)), None)
                or self.check_cards_in_hand(p, play) or self.check_empty_land(land, play)
                or self.check_monasteries(p, land, play) or self.check_councillors(p, land, play))

    def check_draw(self, draw: Draw) -> RuleViolation | None:
        """Regelheft S. 3–5: refill the hand to 3 from the open cards and/or the deck."""
        return self._check_phase(DRAW, draw) or self._check_source(R_REFILL, draw.source, draw.colour)

    def check_swap(self, swap: Swap) -> RuleViolation | None:
        """Regelheft S. 5 · Eine Karte tauschen: discard a hand card, take an open card or the top
        deck card."""
        if violation := self._check_phase(PLAY, swap):
            return violation
        if swap.discard not in self.hands[self.current]:
            return RuleViolation(R_SWAP, f"{player_name(self.current)} has no {swap.discard} card to discard")
        return self._check_source(R_SWAP, swap.source, swap.colour)

    def _check_source(self, rule: Rule, source: str, colour: Colour | None) -> RuleViolation | None:
        if source == OPEN:
            if colour not in self.open:
                return RuleViolation(rule, f"no open {colour} card")
        elif source == DECK:
            if colour is not None:
                return RuleViolation(rule, "the deck's top card is taken unseen")
            if not self.deck:
                return RuleViolation(rule, "the deck is empty")
        else:
            return RuleViolation(rule, f"unknown source {source!r}")
        return None

    def check_pass(self, action: Pass) -> RuleViolation | None:
        """Regelheft S. 5: passing is not allowed — who plays no card must swap. Only when
        neither is possible (source silent) the turn goes by."""
        if violation := self._check_phase(PLAY, action):
            return violation
        if self._plays() or self._swaps():
            return RuleViolation(R_NO_PASSING, "no passing: play cards or swap a card")
        return None

    def check(self, action: Action) -> RuleViolation | None:
        checks = {Play: self.check_play, Draw: self.check_draw, Swap: self.check_swap, Pass: self.check_pass}
        rule = checks.get(type(action))
        return rule(action) if rule else RuleViolation(R_TURN, f"unknown action {action!r}")

    # ---------------------------------------------------------------- legal actions
    def _payments(self, land: str) -> list[tuple[Colour, ...]]:
        """Every way to pay for ONE stone in ``land`` from the hand (check_payment's cases)."""
        have = Counter(self.hands[self.current])
        options: list[tuple[Colour, ...]] = []
        for c in COLOURS:
            if have[c] >= 1 and c.shows(land):
                options.append((c,))
            if have[c] >= 2 and (not c.shows(land) or self.config.joker_for_shown_land):
                options.append((c, c))
        return options

    def _payment_pairs(self, land: str) -> list[tuple[tuple[Colour, ...], tuple[Colour, ...]]]:
        """Every way to pay for TWO stones: two payments, at most 3 cards, all in hand."""
        have = Counter(self.hands[self.current])
        singles = self._payments(land)
        return [(a, b) for i, a in enumerate(singles) for b in singles[i:]
                if len(a) + len(b) <= MAX_CARDS_PER_TURN and not Counter(a) + Counter(b) - have]

    def _stone_sets(self, land: str) -> tuple[list[tuple[tuple[str, str], ...]], list[tuple[tuple[str, str], ...]]]:
        """Stones (kind, field) placeable in ``land``: (one-stone sets, two-stone sets), built from
        the same rules as check_empty_land / check_monasteries / check_councillors."""
        p = self.current
        free = [f for f in self.board.lands[land] if f not in self.monasteries]
        mon_left, rat_left = self.supply_monasteries[p], self.supply_councillors[p]
        ones: list[tuple[tuple[str, str], ...]] = [((MONASTERY, f),) for f in free] if mon_left >= 1 else []
        twos: list[tuple[tuple[str, str], ...]] = []
        if not self.has_monastery(land):
            return ones, twos  # empty land: one monastery only
        here = self.councillors_in(land)
        if rat_left >= 1 and here + 1 <= self.council_limit(land):
            ones.append(((COUNCILLOR, ""),))
        if mon_left >= 2:
            twos += [((MONASTERY, a), (MONASTERY, b)) for a, b in combinations(free, 2)]
        if rat_left >= 1 and mon_left >= 1 and free and here + 1 <= self.council_limit(land, 1, p):
            twos += [((COUNCILLOR, ""), (MONASTERY, f)) for f in free]
        if rat_left >= 2 and here + 2 <= self.council_limit(land):
            twos.append(((COUNCILLOR, ""), (COUNCILLOR, "")))
        return ones, twos

    def _plays(self) -> list[Play]:
        if not self.hands[self.current]:
            return []
        plays: list[Play] = []
        for land in self.board.lands:
            pays = self._payments(land)
            if not pays:
                continue
            ones, twos = self._stone_sets(land)
            for stones in ones:
                (kind, f), = stones
                for pay in pays:
                    plays.append(Play((Placement(land, kind, f, pay),)))
            if twos:
                for pa, pb in self._payment_pairs(land):
                    for (ka, fa), (kb, fb) in twos:
                        # which card pays for which stone changes nothing: one canonical order
                        plays.append(Play((Placement(land, ka, fa, pa), Placement(land, kb, fb, pb))))
        return plays

    def _sources(self) -> list[tuple[str, Colour | None]]:
        """Where a card can be taken from: each colour lying open, then the deck."""
        return [(OPEN, c) for c in COLOURS if c in self.open] + [(DECK, None)] * bool(self.deck)

    def _swaps(self) -> list[Swap]:
        hand = self.hands[self.current]
        return [Swap(c, s, col) for c in COLOURS if c in hand for s, col in self._sources()]

    def legal_actions(self) -> list[Action]:
        """All legal actions now, in a fixed order (the single source of truth)."""
        if self.phase == OVER:
            return []
        if self.phase == DRAW:
            return [Draw(s, c) for s, c in self._sources()]
        actions: list[Action] = [*self._plays(), *self._swaps()]
        return actions or [Pass()]

    # ---------------------------------------------------------------- apply
    def describe(self, action: Action) -> str:
        return f"R{self.turn} {player_name(self.current)}: {action}"

    def perform(self, action: Action) -> None:
        p = self.current
        self.last_player = player_name(p)
        if isinstance(action, Play):
            self._place(p, action)
        if isinstance(action, Swap):
            self.hands[p].remove(action.discard)
            self.discard.append(action.discard)
        if isinstance(action, (Draw, Swap)):
            self.hands[p].append(self._take(action))
        if isinstance(action, (Play, Draw)) and len(self.hands[p]) < HAND_SIZE and (self.open or self.deck):
            self.phase = DRAW  # the hand is refilled before anything else
        else:
            self._end_turn(refill_open=not isinstance(action, Swap) or self.config.refill_open_after_swap)

    def _place(self, p: int, play: Play) -> None:
        for pl in play.placements:
            for c in pl.cards:
                self.hands[p].remove(c)
                self.discard.append(c)
            if pl.kind == MONASTERY:
                self.monasteries[pl.field] = p
                self.supply_monasteries[p] -= 1
            else:
                self.councillors[pl.land][p] += 1
                self.supply_councillors[p] -= 1
            self.stones_placed += 1
            self.cards_played += len(pl.cards)

    def _take(self, action: Draw | Swap) -> Colour:
        if action.source == OPEN:
            self.open.remove(action.colour)
            return action.colour
        card = self.deck.pop()
        if not self.deck:
            self._deck_ran_out()
        self.history.append(f"  {'took' if isinstance(action, Swap) else 'drew'} {card}")
        return card

    def _deck_ran_out(self) -> None:
        """The last deck card was taken. First time: interim scoring of monasteries only, then the
        discard pile becomes the new deck, open cards stay (Regelheft S. 5–6 · Zwischenwertung).
        Second time: the round is finished (S. 6 · Das Spielende)."""
        self.exhaustions += 1
        if self.exhaustions == 1:
            self.interim_scoring()
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.history.append(f"Discard pile shuffled: {len(self.deck)} cards")
            if not self.deck:
                self.exhaustions = 2
        if self.exhaustions >= 2 and not self.final_round:
            self.final_round = True
            self.history.append("The deck ran out a second time: the round is played to its end")

    def interim_scoring(self) -> dict[int, int]:
        """Regelheft S. 5–6 · Zwischenwertung: monasteries in all nine lands, councillors not."""
        totals = scoring.monastery_scoring(self.board, self.monasteries, range(self.num_players))
        for p, v in totals.items():
            self.scores[p] += v
        self.interim = totals
        self.history.append("Interim scoring: " + self._fmt(totals))
        return totals

    def final_scoring(self) -> dict:
        """Regelheft S. 6–7: monasteries as in the interim scoring, then the alliances in order,
        then the monastery chains."""
        players = range(self.num_players)
        mon = scoring.monastery_scoring(self.board, self.monasteries, players)
        councils = {land: dict(enumerate(v)) for land, v in self.councillors.items()}
        ally, per_alliance = scoring.alliance_scoring(self.board, councils, players)
        own = {p: [f for f, o in self.monasteries.items() if o == p] for p in players}
        chain_list = {p: scoring.chains(own[p], self.board) for p in players}
        chain = {p: sum(len(c) for c in chain_list[p]) for p in players}
        for p in players:
            self.scores[p] += mon[p] + ally[p] + chain[p]
        self.final = {"monasteries": mon, "alliances": ally, "per_alliance": per_alliance, "chains": chain,
                      "chain_list": chain_list}
        self.history.append(f"Final scoring: monasteries {self._fmt(mon)}; councillors {self._fmt(ally)}; "
                            f"chains {self._fmt(chain)}")
        return self.final

    def someone_can_place(self) -> bool:
        """False when no player can place any stone on the board any more (S. 6 · Das Spielende;
        read from the board and supplies, not from the hands: a reading, see the module docstring)."""
        any_free = any(f not in self.monasteries for f in self.board.fields)
        room = any(self.has_monastery(land) and self.councillors_in(land) < self.council_limit(land)
                   for land in self.board.lands)
        return any((self.supply_monasteries[p] > 0 and any_free) or (self.supply_councillors[p] > 0 and room)
                   for p in range(self.num_players))

    def _end_turn(self, refill_open: bool) -> None:
        """Top up the open cards to 2, then check the end of the game (S. 6), else pass the turn
        to the left."""
        if refill_open:
            while len(self.open) < OPEN_CARDS and self.deck:
                self.open.append(self.deck.pop())
                if not self.deck:
                    self._deck_ran_out()
        p = self.current
        # the start player's right-hand neighbour moves last in a round (S. 6)
        if self.final_round and p == (self.config.start_player - 1) % self.num_players:
            self._game_over("round_finished", "the round after the deck ran out a second time is over")
        elif not self.someone_can_place():
            self._game_over("blocked", "nobody can place a stone any more")
        else:
            self.current = (p + 1) % self.num_players
            self.phase = PLAY
            if self.current == self.config.start_player:
                self.turn += 1

    def _game_over(self, code: str, reason: str) -> None:
        self.phase = OVER
        self.end_code = code
        self.end_reason = reason
        self.history.append(f"Game over: {reason}")
        self.final_scoring()
        self.history.append(f"Result: {self._fmt(dict(enumerate(self.scores)))}; winner: {', '.join(self.winners())}")

    @staticmethod
    def _fmt(points: Mapping[int, int]) -> str:
        return " ".join(f"{player_name(p)}{v}" for p, v in sorted(points.items()))

    # ---------------------------------------------------------------- scenarios
    @classmethod
    def from_scenario(cls, data: Mapping[str, Any]) -> "KardinalState":
        """A real state in a given position, described as data, with all 55 cards accounted for.

        ``players`` (3–5, default 4), ``start_player``, ``joker_for_shown_land``,
        ``refill_open_after_swap`` (or a whole ``config``); ``player``: who is to act (default the
        start player). Cards are colour labels ("Bayern/Burgund", or a land the card shows):
        ``hand`` (the acting player's), ``hands`` {player: cards}, ``open``, ``deck`` (bottom to
        top), ``discard``. Players without a given hand get 3 random cards; the remaining cards form
        the deck (shuffled by ``seed``) or, if ``deck`` is given, go to the discard pile.
        ``monasteries`` {field: player} and ``councillors`` {land: {player: n}} are taken from the
        supplies; ``supplies`` {player: {"Kloster": n, "Rat": m}} then overrides what is left;
        ``scores`` {player: points}; ``exhaustions``: how often the deck already ran out (2 = the
        final round); ``land``: the land whose plays ``observe`` reports. Players are letters ("A")
        or seat indexes.
        """
        config = data.get("config") or Config(
            num_players=int(data.get("players", 4)), start_player=seat(data.get("start_player", 0)),
            joker_for_shown_land=bool(data.get("joker_for_shown_land")),
            refill_open_after_swap=bool(data.get("refill_open_after_swap", True)),
        )
        state = cls(config, seed=int(data.get("seed", 0)))
        n = config.num_players
        current = config.start_player if data.get("player") is None else seat(data["player"])
        pool = Counter(card_pool(n))

        def take(cards: Iterable[Any] | None) -> list[Colour]:
            out = [colour_of(c) for c in cards or ()]
            if Counter(out) - pool:
                raise ValueError(f"not enough cards for this scenario: {out}")
            pool.subtract(out)
            return out

        hands = {seat(p): cards for p, cards in (data.get("hands") or {}).items()}
        if data.get("hand") is not None:
            hands[current] = data["hand"]
        state.hands = [take(hands[p]) if p in hands else [] for p in range(n)]
        state.open = take(data.get("open"))
        state.deck = take(data.get("deck"))
        state.discard = take(data.get("discard"))
        rest = [c for c in COLOURS for _ in range(pool[c])]
        state.rng.shuffle(rest)
        for p in range(n):
            if p not in hands:
                state.hands[p] = [rest.pop() for _ in range(min(HAND_SIZE, len(rest)))]
        if data.get("open") is None:
            state.open = [rest.pop() for _ in range(min(OPEN_CARDS, len(rest)))]
        if data.get("deck") is None:
            state.deck = rest
        else:
            state.discard += rest
        for f, p in (data.get("monasteries") or {}).items():
            state.board.land_of(f)
            state.monasteries[f] = seat(p)
            state.supply_monasteries[seat(p)] -= 1
        for land, per in (data.get("councillors") or {}).items():
            for p, k in per.items():
                state.councillors[land][seat(p)] += int(k)
                state.supply_councillors[seat(p)] -= int(k)
        for p, sup in (data.get("supplies") or {}).items():
            state.supply_monasteries[seat(p)] = int(sup.get(MONASTERY, state.supply_monasteries[seat(p)]))
            state.supply_councillors[seat(p)] = int(sup.get(COUNCILLOR, state.supply_councillors[seat(p)]))
        if min(state.supply_monasteries + state.supply_councillors) < 0:
            raise ValueError("more stones on the board than in the supply")
        for land in state.board.lands:
            if state.councillors_in(land) > state.council_limit(land):
                raise ValueError(f"scenario breaks the council limit in {land}")
        for p, v in (data.get("scores") or {}).items():
            state.scores[seat(p)] = int(v)
        state.current = current
        state.exhaustions = int(data.get("exhaustions", 0))
        state.final_round = state.exhaustions >= 2
        state.focus = data.get("land")
        if state.card_count() != TOTAL_CARDS:
            raise ValueError("scenario lost cards")  # internal consistency, not a rule
        return state

    # ---------------------------------------------------------------- the generic probe
    def parse_action(self, step: Any) -> Action:
        """A scenario's step: ``{stones: [{land, kind ("Kloster"/"Rat"), field, cards}]}`` (a Play;
        ``play`` is another name for ``stones``), "draw:deck" | "draw:<colour>",
        "swap:<colour>:deck" | "swap:<colour>:<open colour>", or "pass"."""
        if isinstance(step, Mapping):
            return play_from(step.get("stones", step.get("play")))
        kind, *rest = str(step).split(":")
        if kind == "pass":
            return Pass()
        source = rest[-1] if rest else DECK
        taken = (DECK, None) if source == DECK else (OPEN, colour_of(source))
        if kind == "draw":
            return Draw(*taken)
        if kind == "swap":
            return Swap(colour_of(rest[0]), *taken)
        raise ValueError(f"unknown step {step!r}")

    def observe(self) -> dict[str, Any]:
        """``phase``, ``player`` (to act), ``choices`` (the kinds of action they have),
        ``stones_placed`` / ``cards_played`` (by the steps), per land with a stone:
        ``monasteries_in_land`` {land: {player: n}}, ``councillors_in_land`` and ``council_limit``
        {land: n}; ``hands`` / ``open`` / ``deck`` / ``discard`` (numbers of cards), ``open_cards``,
        ``scores``, ``interim`` (points of the interim scoring once it happened), ``exhaustions``,
        ``end`` (why the game ended), ``last_player`` (who moved last); ``cards_in_play``,
        ``removed`` and ``removed_per_colour`` (the cards out of the game). With the scenario's
        ``land``, what the legal plays there offer: ``max_stones``, ``max_councillors``,
        ``can_place_monastery``, ``can_place_councillor``, and ``has_monastery``."""
        lands = [land for land in self.board.lands if self.has_monastery(land) or self.councillors_in(land)]
        actions = self.legal_actions()
        seen = {
            "phase": self.phase,
            "player": self.current_player(),
            "choices": sorted({type(a).__name__.lower() for a in actions}),
            "stones_placed": self.stones_placed,
            "cards_played": self.cards_played,
            "monasteries_in_land": {
                land: {player_name(p): k for p, k in enumerate(self.monastery_counts(land)) if k} for land in lands},
            "councillors_in_land": {land: self.councillors_in(land) for land in lands},
            "council_limit": {land: self.council_limit(land) for land in lands},
            "hands": {player_name(p): len(h) for p, h in enumerate(self.hands)},
            "open": len(self.open),
            "deck": len(self.deck),
            "discard": len(self.discard),
            "open_cards": [c.label for c in self.open],
            "scores": self.returns(),
            "interim": None if self.interim is None else {player_name(p): v for p, v in self.interim.items() if v},
            "exhaustions": self.exhaustions,
            "end": self.end_code,
            "last_player": self.last_player,
            "cards_in_play": self.card_count() - len(self.removed),
            "removed": len(self.removed),
            "removed_per_colour": dict(Counter(c.label for c in self.removed)),
        }
        if self.focus is not None:
            kinds = [[pl.kind for pl in a.placements] for a in actions
                     if isinstance(a, Play) and a.placements[0].land == self.focus]
            seen.update({
                "max_stones": max(map(len, kinds), default=0),
                "max_councillors": max((k.count(COUNCILLOR) for k in kinds), default=0),
                "can_place_monastery": any(MONASTERY in k for k in kinds),
                "can_place_councillor": any(COUNCILLOR in k for k in kinds),
                "has_monastery": self.has_monastery(self.focus),
            })
        return seen


def play_from(stones: Iterable[Mapping[str, Any]]) -> Play:
    """A Play from stones as data: {land, kind ("Kloster"/"monastery", "Rat"/"councillor"),
    field (a monastery's), cards: [colour, ...]}."""
    kinds = {"monastery": MONASTERY, "kloster": MONASTERY, "councillor": COUNCILLOR, "rat": COUNCILLOR}
    return Play(tuple(
        Placement(str(st["land"]), kinds[str(st.get("kind", MONASTERY)).lower()], str(st.get("field", "")),
                  tuple(map(colour_of, st.get("cards") or ())))
        for st in stones
    ))
