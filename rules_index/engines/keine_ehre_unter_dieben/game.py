"""Game and state of Keine Ehre unter Dieben (Alcouffe & Maublanc, Game Factory).

``KeineEhreGame`` holds the parameters (every point the source leaves open is one),
``KeineEhreState`` (a kernel :class:`~rules_index.engines.base.State`) one game in progress. The deck
order is fixed at setup from a seeded ``random.Random``, so a game replays exactly. Players "P0",
"P1", ... sit clockwise; the leader's left neighbour is the next one.

A round (Rezension · Der Spielablauf) is the heist (phase ``raid``: the leader reveals cards onto the
first free field, or stops) followed by sharing the loot (phases ``leader_share``, ``others_share``,
``leader_extra``). Taken cards are laid out at once (police raid, secret compartment).
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..base import RuleViolation, State
from . import rules as R
from .cards import (BELL_LIMIT, COMMISSAR_START, DEFAULT_FEATHER_TILES, DEFAULT_REWARD_TILES, MAX_MOVE,
                    MAX_PLAYERS, MIN_PLAYERS, NUM_FIELDS, RESERVE_SIZE, TAKE_COUNTS, CardMaker, LootCard,
                    default_deck)
from .scoring import TIE_RULES, score_holdings


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Reveal:
    """The leader turns the top loot card onto the first free field (Rezension · Der Raubzug)."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} reveals"


@dataclass(frozen=True)
class Stop:
    """The leader ends the heist voluntarily (Rezension · Der Raubzug)."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} stops"


@dataclass(frozen=True)
class Take:
    """A thief takes the loot card lying on ``field`` while the loot is shared."""

    player: str
    field: int

    def __str__(self) -> str:
        return f"{self.player} takes field {self.field}"


@dataclass(frozen=True)
class Pass:
    """The leader takes no (more) cards: ends his master-stroke share or declines the extra card."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} passes"


Action = Reveal | Stop | Take | Pass


class Phase(enum.Enum):
    RAID = "raid"
    LEADER_SHARE = "leader_share"
    OTHERS_SHARE = "others_share"
    LEADER_EXTRA = "leader_extra"
    GAME_OVER = "game_over"


# --------------------------------------------------------------------------- game


@dataclass
class KeineEhreGame:
    """Parameters of one game. Every parameter except ``reserve_size`` (15), ``num_fields`` (7),
    ``bell_limit`` (3) and ``take_counts[0:6]`` (1,1,1,2,2,4) covers a point where the source is silent.

    * ``num_players`` (default 4; 2-8 is a bound of the engine, not a rule): source silent on the player count.
    * ``deck``: source silent on the composition (colours, movement 1-3, bells, compartments,
      feathers, points); default ``cards.default_deck()`` (70 cards, 5 colours x 14).
    * ``commissar_start`` (default 8 = the notch next to field 7): source silent on the distance.
    * ``reset_commissar`` (default True): source silent; the commissar returns to his start before every
      heist. If False he stays where the last heist left him (but at least on position 2, so that
      field 1 is free).
    * ``full_board_outcome`` (default ``voluntary_stop``, or ``master_stroke``): source silent on the
      7th field filled with the commissar still further away (impossible with start 8: a card on field 7
      then is always a master stroke or a capture).
    * ``take_counts``: cards a leader who stops must take per field; fields 1-6 from the source, field 7
      invented (4).
    * ``reward_tiles`` {colour: (high, low)}, ``feather_tiles`` (high, low): values silent; invented.
    * ``tie_rule`` (``split``/``all``/``none``): source silent on ties in majorities.
    * ``leader_rotation`` (``clockwise``/``counterclockwise``), ``first_leader`` (0): source only says the
      leader changes from round to round.
    * ``compartment_after_razzia`` (True): see ``rules.lay_out``.
    """

    num_players: int = 4
    deck: Sequence[LootCard] | None = None
    reserve_size: int = RESERVE_SIZE
    num_fields: int = NUM_FIELDS
    commissar_start: int = COMMISSAR_START
    reset_commissar: bool = True
    full_board_outcome: str = R.VOLUNTARY_STOP
    take_counts: Sequence[int] = TAKE_COUNTS
    reward_tiles: Mapping[str, tuple[int, int]] | None = None
    feather_tiles: tuple[int, int] = DEFAULT_FEATHER_TILES
    tie_rule: str = "split"
    bell_limit: int = BELL_LIMIT
    leader_rotation: str = "clockwise"
    first_leader: int = 0
    compartment_after_razzia: bool = True

    def __post_init__(self) -> None:
        self.deck = default_deck() if self.deck is None else tuple(self.deck)
        if self.reward_tiles is None:
            self.reward_tiles = {c: (high, low) for c, high, low in DEFAULT_REWARD_TILES}
        self.take_counts = tuple(self.take_counts)
        self.feather_tiles = tuple(self.feather_tiles)
        missing = sorted({c.colour for c in self.deck} - set(self.reward_tiles))
        for valid, problem in (
            (MIN_PLAYERS <= self.num_players <= MAX_PLAYERS,
             f"num_players must be {MIN_PLAYERS}..{MAX_PLAYERS} "
             "(a bound of the engine; the source gives no player count)"),
            (len({c.id for c in self.deck}) == len(self.deck), "card ids must be unique"),
            (all(0 <= c.move <= MAX_MOVE for c in self.deck), "commissar movement is 0..3"),
            (0 <= self.reserve_size < len(self.deck), "reserve_size must leave a loot deck"),
            (self.commissar_start >= 2, "commissar_start must leave field 1 free"),
            (self.full_board_outcome in (R.VOLUNTARY_STOP, R.MASTER_STROKE),
             "full_board_outcome must be voluntary_stop or master_stroke"),
            (len(self.take_counts) == self.num_fields, "take_counts needs one value per field"),
            (not missing, f"no reward tiles for colours {missing}"),
            (self.tie_rule in TIE_RULES, f"tie_rule must be one of {TIE_RULES}"),
            (self.leader_rotation in ("clockwise", "counterclockwise"),
             "leader_rotation must be clockwise or counterclockwise"),
            (0 <= self.first_leader < self.num_players, "first_leader out of range"),
        ):
            if not valid:
                raise ValueError(problem)


# --------------------------------------------------------------------------- state


class KeineEhreState(State):
    """One game in progress: the loot deck and reserve (top first), the board (field f is
    ``board[f-1]``), each seat's laid-out loot, the commissar, and where the round stands."""

    def __init__(self, game: KeineEhreGame, deck: list[LootCard], reserve: list[LootCard], leader: int,
                 holdings: Mapping[int, list[LootCard]] | None = None, discard: list[LootCard] | None = None,
                 commissar: int | None = None):
        self.game = game
        self.players = [f"P{i}" for i in range(game.num_players)]
        self.deck = deck  # top card first
        self.reserve = reserve  # top card first
        self.board: list[LootCard | None] = [None] * game.num_fields  # field f is board[f-1]
        self.holdings: list[list[LootCard]] = [list((holdings or {}).get(p, ())) for p in
                                                range(game.num_players)]
        self.discard: list[LootCard] = list(discard or ())
        self.leader = leader
        self.commissar = game.commissar_start if commissar is None else commissar
        self.round_no = 1
        self.phase = Phase.RAID
        self.outcome: str | None = None
        self.last_field: int | None = None
        self.quota: tuple[int, int] = (0, 0)
        self.leader_taken = 0
        self.queue: list[int] = []
        self.history: list[str] = []
        self.raids: list[dict[str, Any]] = []  # per police raid: player, colour, bells and cards lost
        self.total = len(game.deck)

    # ----------------------------------------------------------------- bookkeeping

    @classmethod
    def new_game(cls, seed: int = 0, **params: Any) -> "KeineEhreState":
        """Setup (Rezension · Spielaufbau): shuffle the loot cards, set 15 aside as the reserve, the rest
        is the loot deck; commissar in his notch; the first leader begins."""
        game = KeineEhreGame(**params)
        cards = list(game.deck)
        random.Random(seed).shuffle(cards)
        return cls(game, deck=cards[game.reserve_size:], reserve=cards[:game.reserve_size], leader=game.first_leader)

    @classmethod
    def from_scenario(cls, data: Mapping[str, Any]) -> "KeineEhreState":
        """A state at the start of a heist, described as data. Cards are specs (an int: a plain card
        with that commissar movement; or a dict of ``colour`` (default red), ``move``, ``bell``,
        ``compartment``, ``feathers``, ``points``) or LootCards. ``moves``: the loot deck, top first,
        above ``filler`` plain blue cards (default 10); ``reserve`` (top first), ``holdings``
        {player: cards}, ``discard``; ``leader`` (default the first leader), ``commissar``;
        ``reward_tiles`` {colour: [high, low]} (default 5/2 each), ``feather_tiles`` and the other
        parameters of :class:`KeineEhreGame`. These cards are the game's whole material; nothing is
        shuffled, so a ``seed`` changes nothing."""
        data = dict(data)
        data.pop("seed", None)
        make = CardMaker()
        deck = make.many(data.pop("moves", None) or []) + make.many(int(data.pop("filler", 10)), "blue")
        reserve = make.many(data.pop("reserve", None) or [], "green")
        discard = make.many(data.pop("discard", None) or [])
        holdings = {_seat(p): make.many(c) for p, c in (data.pop("holdings", None) or {}).items()}
        leader, commissar = data.pop("leader", None), data.pop("commissar", None)
        if not deck:
            raise ValueError("a heist needs a loot deck")
        material = deck + reserve + discard + [c for h in holdings.values() for c in h]
        tiles = {c.colour: (5, 2) for c in material} | {
            c: tuple(v) for c, v in (data.pop("reward_tiles", None) or {}).items()}
        game = KeineEhreGame(deck=material, reserve_size=0, reward_tiles=tiles, **data)  # checks the card ids
        for p, cards in holdings.items():
            for colour in {c.colour for c in cards}:
                if R.bells_in_row(cards, colour) >= game.bell_limit:
                    raise ValueError(f"P{p}'s {colour} row would already have been raided")
        return cls(game, deck=deck, reserve=reserve, holdings=holdings, discard=discard, commissar=commissar,
                   leader=game.first_leader if leader is None else _seat(leader))

    # ----------------------------------------------------------------- the generic probe

    def parse_action(self, step: str) -> Action:
        """A scenario's step, by the player to act unless it starts with a player ("P1:take:3"):
        "reveal" | "stop" | "pass" | "take" (the lowest field holding a card) | "take:<field>"."""
        kind, *rest = str(step).split(":")
        player = self.current_player()
        if kind.startswith("P") and kind[1:].isdigit():
            player, (kind, *rest) = kind, rest
        if kind == "take":
            return Take(player, int(rest[0]) if rest else min(self.board_cards(), default=1))
        actions = {"reveal": Reveal, "stop": Stop, "pass": Pass}
        if kind not in actions:
            raise ValueError(f"unknown step {step!r}")
        return actions[kind](player)

    def observe(self) -> dict[str, Any]:
        """``outcome`` of the heist ("open" while it runs, then kept until the next heist starts),
        ``phase``, ``round``, ``player`` (to act), ``terminal``, ``commissar``, ``last_field``,
        ``cards_on_board`` (fields), ``deck``, ``reserve``, ``discarded`` (cards), ``leader_quota``
        ([min, max] once the heist ended), ``can_reveal``, ``can_stop``, ``can_pass``, ``can_take``
        (fields), ``cards`` {player: cards laid out}, ``rows`` and ``bells`` {player: {colour: cards,
        bell cards}} of the players with loot, ``raids`` (player, colour, bells, cards lost per raid)."""
        legal = self.legal_actions()
        kinds = {type(a) for a in legal}
        rows = {p: self.rows(i) for i, p in enumerate(self.players) if self.holdings[i]}
        return {
            "outcome": self.outcome or R.OPEN,
            "phase": self.phase.value,
            "round": self.round_no,
            "player": self.current_player(),
            "terminal": self.is_terminal(),
            "commissar": self.commissar,
            "last_field": self.last_field,
            "cards_on_board": sorted(self.board_cards()),
            "deck": len(self.deck),
            "reserve": len(self.reserve),
            "discarded": len(self.discard),
            "leader_quota": list(self.quota) if self.outcome else None,
            "can_reveal": Reveal in kinds,
            "can_stop": Stop in kinds,
            "can_pass": Pass in kinds,
            "can_take": sorted(a.field for a in legal if isinstance(a, Take)),
            "cards": {p: len(h) for p, h in zip(self.players, self.holdings)},
            "rows": {p: {c: len(r) for c, r in sorted(row.items())} for p, row in rows.items()},
            "bells": {p: {c: R.bells_in_row(r, c) for c, r in sorted(row.items())} for p, row in rows.items()},
            "raids": list(self.raids),
        }

    def all_cards(self) -> list[LootCard]:
        """Every loot card: deck + reserve + board + players' rows + discard pile."""
        board = [c for c in self.board if c is not None]
        return [*self.deck, *self.reserve, *board, *(c for h in self.holdings for c in h), *self.discard]

    def board_cards(self) -> dict[int, LootCard]:
        return {f: c for f, c in enumerate(self.board, start=1) if c is not None}

    def rows(self, player: int) -> dict[str, list[LootCard]]:
        """The player's loot, laid out by colour (Rezension · Beutekarten auslegen)."""
        out: dict[str, list[LootCard]] = {}
        for c in self.holdings[player]:
            out.setdefault(c.colour, []).append(c)
        return out

    def current_player(self) -> str | None:
        if self.phase is Phase.GAME_OVER:
            return None
        return self.players[self.queue[0] if self.phase is Phase.OTHERS_SHARE else self.leader]

    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def returns(self) -> dict[str, int]:
        """Scores by player of the loot laid out (final at the end)."""
        sheet = score_holdings(self.holdings, self.game.reward_tiles, self.game.feather_tiles, self.game.tie_rule)
        return dict(zip(self.players, sheet.totals))

    def _log(self, text: str) -> None:
        self.history.append(f"R{self.round_no} {text}")

    # ----------------------------------------------------------------- rule checks

    def describe(self, action: Action) -> str:
        """The history's line: the round, and the card revealed or taken."""
        text = str(action)
        if isinstance(action, Reveal):
            card = f"{self.deck[0]}" if self.deck else f"{self.reserve[0]} (reserve)"
            text = f"{action.player} reveals {card} -> field {len(self.board_cards()) + 1}"
        elif isinstance(action, Take):
            text = f"{action.player} takes {self.board[action.field - 1]} (field {action.field})"
        elif isinstance(action, Stop):
            text = f"{action.player} stops voluntarily after field {self.last_field}"
        return f"R{self.round_no} {text}"

    def check(self, action: object) -> RuleViolation | None:
        """The rule ``action`` breaks in this state, or None if it is legal."""
        if self.phase is Phase.GAME_OVER:
            return RuleViolation(R.R_GAME_END, "the game is over: the loot deck is used up")
        rule = {Reveal: self._check_heist, Stop: self._check_heist, Take: self._check_take,
                Pass: self._check_pass}.get(type(action))
        return rule(action) if rule else RuleViolation(R.R_RAID, f"unknown action {action!r}")

    def _check_heist(self, a: Reveal | Stop) -> RuleViolation | None:
        """Only the leader acts in the heist, and only while it runs: he reveals a card from the deck
        (from the reserve once the deck is used up) or, after each revealed card, stops.
        Rezension · Der Raubzug; Das Spielende und die Wertung."""
        if self.phase is not Phase.RAID:
            return RuleViolation(R.R_RAID, f"the heist has ended ({self.outcome}): no more revealing or stopping")
        if a.player != self.players[self.leader]:
            return RuleViolation(R.R_LEADER, f"only the leader P{self.leader} reveals loot cards and stops")
        if isinstance(a, Stop) and not self.board_cards():
            return RuleViolation(R.R_RAID, "the leader decides only after a revealed card")
        if isinstance(a, Reveal) and not self.deck and not self.reserve:
            return RuleViolation(R.R_GAME_END, "no loot card left in the deck or the reserve")
        return None

    def _check_take(self, a: Take) -> RuleViolation | None:
        """Taking loot while it is shared, in the order of Rezension · Das Verteilen der Beute."""
        if self.phase is Phase.RAID:
            return RuleViolation(R.R_RAID, "the loot is shared only after the heist")
        leader = self.players[self.leader]
        if self.phase is Phase.LEADER_SHARE and a.player != leader:
            return RuleViolation(R.R_SHARE, f"the leader P{self.leader} takes his share first")
        if self.phase is Phase.OTHERS_SHARE and a.player != self.current_player():
            if a.player == leader and self.outcome == R.CAUGHT:
                return RuleViolation(R.R_CAUGHT, "a leader caught in the act gets nothing of the loot")
            if a.player == leader and self.outcome == R.VOLUNTARY_STOP:
                return RuleViolation(R.R_VOLUNTARY, f"the leader has taken the {self.quota[0]} card(s) "
                                     "printed under the last card; the others choose now")
            return RuleViolation(R.R_SHARE, f"clockwise from the leader's left it is P{self.queue[0]}'s turn")
        if self.phase is Phase.LEADER_EXTRA and a.player != leader:
            return RuleViolation(R.R_SHARE, "every other thief had a card; only the leader may take one more")
        if not 1 <= a.field <= self.game.num_fields or self.board[a.field - 1] is None:
            return RuleViolation(R.R_SHARE, f"no loot card on field {a.field}")
        return None

    def _check_pass(self, a: Pass) -> RuleViolation | None:
        """Passing: a master stroke lets the leader take as many as he wants, the extra card is optional;
        a leader who stopped must take his printed share, the others must each take a card.
        Rezension · Das Verteilen der Beute."""
        if self.phase is Phase.RAID:
            return RuleViolation(R.R_RAID, "during the heist the leader reveals a card or stops")
        if a.player != self.current_player():
            return RuleViolation(R.R_SHARE, f"it is {self.current_player()}'s turn")
        if self.phase is Phase.LEADER_SHARE and self.outcome == R.VOLUNTARY_STOP:
            left = self.quota[0] - self.leader_taken
            return RuleViolation(R.R_VOLUNTARY, f"after a voluntary stop the leader must take "
                                 f"{self.quota[0]} card(s); {left} still to take")
        if self.phase is Phase.OTHERS_SHARE:
            return RuleViolation(R.R_SHARE, "each thief must take one card of his choice")
        return None

    # ----------------------------------------------------------------- actions

    def legal_actions(self) -> list[Action]:
        """All legal actions, sorted by repr: the candidates of the acting player filtered by the rule
        checks (the single source of truth)."""
        p = self.current_player()
        if p is None:
            return []
        candidates: list[Action] = [Reveal(p), Stop(p), Pass(p)]
        candidates += [Take(p, f) for f in range(1, self.game.num_fields + 1)]
        return sorted((a for a in candidates if self.check(a) is None), key=repr)

    def perform(self, action: Action) -> None:
        if isinstance(action, Reveal):
            self._reveal()
            return
        if isinstance(action, Stop):
            self._start_share(R.VOLUNTARY_STOP)
            return
        if isinstance(action, Take):
            card = self.board[action.field - 1]
            self.board[action.field - 1] = None
            self._lay_out(self.players.index(action.player), card)
        if self.phase is Phase.LEADER_EXTRA:  # the extra card, taken or declined, ends the share
            self._end_round()
        elif self.phase is Phase.OTHERS_SHARE:
            self.queue.pop(0)
            self._advance()
        elif isinstance(action, Take):
            self.leader_taken += 1
            self._advance()
        else:  # the leader ends his master-stroke share
            self._advance(leader_done=True)

    def _reveal(self) -> None:
        """Turn the top card onto the first free field, move the commissar, judge the situation.
        Rezension · Der Raubzug; cards from the reserve once the deck is used up (Das Spielende)."""
        card = self.deck.pop(0) if self.deck else self.reserve.pop(0)
        self.outcome = None
        field = len(self.board_cards()) + 1
        self.board[field - 1] = card
        self.last_field = field
        before = self.commissar
        self.commissar = R.move_commissar(self.commissar, card.move)
        status = R.heist_status(self.commissar, field, self.game.num_fields, self.game.full_board_outcome)
        self._log(f"commissar {before}->{self.commissar}"
                  f"{'' if status == R.OPEN else '; ' + status}")
        if status == R.CAUGHT:  # the card under the commissar and all cards to its right are discarded
            lost = self.board[self.commissar - 1:field]
            self.board[self.commissar - 1:field] = [None] * len(lost)
            self.discard.extend(lost)
            self._log("caught: discard " + ", ".join(str(c) for c in lost))
        if status != R.OPEN:
            self._start_share(status)

    def _start_share(self, outcome: str) -> None:
        self.outcome = outcome
        self.quota = R.leader_quota(outcome, self.last_field, len(self.board_cards()), self.game.take_counts)
        self.leader_taken = 0
        self.phase = Phase.LEADER_SHARE
        self._advance()

    def _advance(self, leader_done: bool = False) -> None:
        """Move through the share: the leader's share first (none if caught), then clockwise one card
        each while cards last, then the leader's extra card (not if caught), the rest is discarded.
        Rezension · Das Verteilen der Beute."""
        cards = len(self.board_cards())
        if self.phase is Phase.LEADER_SHARE and (leader_done or not cards or self.leader_taken >= self.quota[1]):
            self.phase = Phase.OTHERS_SHARE
            self.queue = list(R.others_order(self.leader, self.game.num_players))
        if self.phase is Phase.OTHERS_SHARE and not (cards and self.queue):
            if R.leader_may_take_extra(self.outcome, cards):
                self.phase = Phase.LEADER_EXTRA
            else:
                self._end_round()

    def _lay_out(self, player: int, card: LootCard) -> None:
        """Lay the card out by colour: police raid on the third bell, secret compartment draws from the
        reserve. Rezension · Beutekarten auslegen."""
        res = R.lay_out(self.holdings[player], card, self.reserve, self.game.bell_limit,
                        self.game.compartment_after_razzia)
        self.holdings[player] = list(res.holding)
        self.reserve = list(res.reserve)
        self.discard.extend(res.lost)
        for ev in res.events:
            if ev[0] == "razzia":
                self.raids.append({"player": self.players[player], "colour": ev[1],
                                   "bells": R.bells_in_row(ev[2], ev[1]), "cards": len(ev[2])})
                self._log(f"P{player} police raid in {ev[1]}: loses {len(ev[2])} card(s)")
            elif ev[0] == "compartment":
                self._log(f"P{player} secret compartment: draws {ev[1]} from the reserve")

    def _end_round(self) -> None:
        """Discard what is left; game end when the loot deck is used up, else the next leader.
        Rezension · Das Verteilen der Beute; Der Spielablauf; Das Spielende und die Wertung."""
        rest = [c for c in self.board if c is not None]
        self.board = [None] * self.game.num_fields
        self.discard.extend(rest)
        if rest:
            self._log("discard rest " + ", ".join(str(c) for c in rest))
        self.queue = []
        if not self.deck:
            self.phase = Phase.GAME_OVER
            self._log("game over; scores " + " ".join(f"{p}={s}" for p, s in self.returns().items()))
            return
        self.leader = R.next_leader(self.leader, self.game.num_players, self.game.leader_rotation)
        self.round_no += 1
        self.phase = Phase.RAID
        if self.game.reset_commissar:
            self.commissar = self.game.commissar_start
        else:
            self.commissar = max(2, self.commissar)


def _seat(player: int | str) -> int:
    """A seat index from "P2", "2" or 2."""
    return int(str(player).removeprefix("P"))
