"""Ohne Furcht und Adel (Hans im Glück 2000) for 2–7 players: game, state, actions, random play.

Source: the German rules summary ``ohne-furcht-und-adel.de.txt`` with the rulebook's page numbers
(Regelheft S. 1 / S. 2). Citations in the code name the page and the section of that summary.

A round: the crown holder shuffles the characters, lays some face up (never the king), sets one
aside face down, and the characters are drafted; then the characters are called in order 1..8 and
each one's holder takes a turn. A turn: take 2 gold or draw 2 cards and keep 1 (mandatory, first),
then build up to 1 district (the architect up to 3), and end the turn. The character's ability may be
used once, at any moment of the turn (before or after the resource step, between builds): it is an
action that stays legal until used. The game ends after the round in which someone builds an 8th
district.

Modelling decisions where the source is silent (all documented, most of them parameters of
:class:`GameConfig`):

- ``district_table``: costs per district card are not in the source (only counts per colour); the
  default table is documented in :mod:`.cards`.
- The bank runs out of gold: every payment from the bank (taking gold, income, the merchant's extra
  gold) pays what the bank still has; the rest is simply not paid. Gold is never created.
- The draw pile runs out: the discard pile is shuffled into a new draw pile. (Drawing only what is
  left was tried and dropped: cards then pile up on the discard pile for good, and a game can
  reach a point where nobody can ever build again, so it would never end.) Drawing cards is legal
  while at least one card can be drawn; with one card only, that card is kept; with none, only the
  gold is left. The magician's discards go to the discard pile before he draws, so after a
  reshuffle he may draw them again.
- The merchant's extra gold and the architect's 2 extra cards come with the resource step (the
  source gives no moment; the worked example of S. 2 has the extra gold in hand before building in
  both of its variants). A reading: the rules summaries list it as open, and the Italian text's
  "when called" is a note of the content. The merchant's 1 gold per green district is his ability, used once at a
  moment of his choice (S. 1 · Ablauf eines Charakterzuges; S. 2 · Beispiel).
- The warlord has two once-per-turn abilities: income (1 gold per red district) and destroying.
- While the 2 drawn cards wait for the keep/discard choice, and while the magician discards cards
  one at a time before drawing as many, nothing else can happen (these are parts of one step).
- ``unique_districts``: the source says nothing about building the same district twice; default
  False (allowed).
- Naming a character that nobody holds (face up, set aside, discarded) is legal for the assassin
  and the thief and simply has no effect (S. 2 · Dieb says so for the thief).
- The assassin naming the assassin, the thief naming the thief: the source does not address it.
  Both are refused as a reading, under ``R_SELF``, whose citation says the source is silent.
- Players still level after the tie-break share the victory (:mod:`.scoring`).
- Seat order is the order of ``players``; "left" is the next name in that list.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Mapping, Union

from ..base import Rule, RuleViolation, State
from . import scoring
from .cards import (
    ARCHITECT_BUILD_LIMIT,
    ARCHITECT_EXTRA_CARDS,
    BUILD_LIMIT,
    COMPLETE_CITY,
    DEFAULT_DISTRICT_TABLE,
    DRAW_CARDS,
    FACE_UP_BY_PLAYERS,
    GOLD_PIECES,
    INCOME_COLOR,
    MERCHANT_BONUS,
    START_CARDS,
    START_GOLD,
    TAKE_GOLD,
    Character,
    District,
    as_district,
    build_deck,
    parse_character,
    parse_color,
)

# --------------------------------------------------------------------------- rules (citations)

R_DRAFT = Rule("Charaktere verteilen", "Regelheft S. 1 · Ablauf einer Runde")
R_DRAFT_SMALL = Rule("Zu zweit und zu dritt", "Regelheft S. 2 · Zu zweit und zu dritt")
R_TURN = Rule("Ein Zug", "Regelheft S. 1 · Ein Zug")
R_BUILD = Rule("Bauen", "Regelheft S. 1 · Ein Zug")
R_ONCE = Rule("Fähigkeit einmal je Zug", "Regelheft S. 1 · Ablauf eines Charakterzuges")
R_INCOME = Rule("Einnahmen", "Regelheft S. 1 · Die Bauwerke")
R_ASSASSIN = Rule("Meuchler", "Regelheft S. 1–2 · Meuchler")
R_THIEF = Rule("Dieb", "Regelheft S. 2 · Dieb")
R_MAGICIAN = Rule("Magier", "Regelheft S. 1–2 · Magier")
R_BISHOP = Rule("Prediger", "Regelheft S. 2 · Prediger")
R_ARCHITECT = Rule("Baumeister", "Regelheft S. 2 · Baumeister")
R_WARLORD = Rule("Söldner", "Regelheft S. 2 · Söldner")
R_END = Rule("Spielende & Sieger", "Regelheft S. 2 · Spielende & Sieger")
R_DECK = Rule("Leerer Stapel oder Vorrat", "Quelle schweigt · Ablagestapel wird neu gemischt")
R_UNIQUE = Rule("Gleiche Bauwerke", "Quelle schweigt · Parameter unique_districts")
R_SELF = Rule("Sich selbst nennen", "Quelle schweigt · Meuchler und Dieb nennen nicht sich selbst")

# --------------------------------------------------------------------------- actions


class Act:
    """An action of the game; ``text`` words it for the history, naming its fields in braces."""

    text: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.text.format(**vars(self))


@dataclass(frozen=True)
class ChooseCharacter(Act):
    """Draft: keep this character (S. 1 · Ablauf einer Runde; S. 2 · Zu zweit und zu dritt)."""

    character: Character
    text = "chooses {character}"


@dataclass(frozen=True)
class DiscardCharacter(Act):
    """Draft with 2 players: lay this character face down on the discard pile (S. 2)."""

    character: Character
    text = "discards {character}"


@dataclass(frozen=True)
class TakeGold(Act):
    """Resource step: take 2 gold from the bank (S. 1 · Ein Zug)."""

    text = "takes 2 gold"


@dataclass(frozen=True)
class DrawCards(Act):
    """Resource step: draw 2 district cards (then KeepCard) (S. 1 · Ein Zug)."""

    text = "draws 2 cards"


@dataclass(frozen=True)
class KeepCard(Act):
    """Resource step: keep this one of the 2 drawn cards; the other goes to the discard pile."""

    district: District
    text = "keeps {district}"


@dataclass(frozen=True)
class Build(Act):
    """Build this district from hand, paying its cost to the bank (S. 1 · Ein Zug)."""

    district: District
    text = "builds {district}"


@dataclass(frozen=True)
class CollectIncome(Act):
    """Ability of king/bishop/merchant/warlord: 1 gold per district of their colour (S. 1–2)."""

    text = "collects income"


@dataclass(frozen=True)
class Assassinate(Act):
    """Assassin's ability: name a character; it skips this round (S. 1–2 · Meuchler)."""

    target: Character
    text = "assassinates {target}"


@dataclass(frozen=True)
class Rob(Act):
    """Thief's ability: name a character; its holder gives him all gold when called (S. 2 · Dieb)."""

    target: Character
    text = "robs {target}"


@dataclass(frozen=True)
class SwapHands(Act):
    """Magician's ability: swap the whole hand with this player's whole hand (S. 1–2 · Magier)."""

    player: str
    text = "swaps hands with {player}"


@dataclass(frozen=True)
class MagicianDiscard(Act):
    """Magician's ability, other form: discard this card (repeatable), then MagicianDraw."""

    district: District
    text = "discards {district}"


@dataclass(frozen=True)
class MagicianDraw(Act):
    """Magician: draw as many cards as were discarded with MagicianDiscard (S. 1–2 · Magier)."""

    text = "draws as many"


@dataclass(frozen=True)
class Destroy(Act):
    """Warlord's ability: destroy this district of this player (S. 2 · Söldner)."""

    player: str
    district: District
    text = "destroys {player}'s {district}"


@dataclass(frozen=True)
class EndTurn(Act):
    """End the character's turn (after the resource step)."""

    text = "ends the turn"


Action = Union[
    ChooseCharacter, DiscardCharacter, TakeGold, DrawCards, KeepCard, Build, CollectIncome,
    Assassinate, Rob, SwapHands, MagicianDiscard, MagicianDraw, Destroy, EndTurn,
]

# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class GameConfig:
    """Parameters of a game. Defaults follow the source; where it is silent, see the module docstring.

    ``players``: names in seat order (2..7); ``ages``: {player: age}, from which the oldest player
    takes the crown for round 1 (Regelheft S. 1 · Spielvorbereitung); ``crown``: who holds it, where a
    scenario sets it directly (default: the oldest by ``ages``, else the first name).
    """

    players: tuple[str, ...] = ("A", "B", "C", "D")
    crown: str | None = None
    ages: tuple[tuple[str, int], ...] = ()
    district_table: tuple = DEFAULT_DISTRICT_TABLE
    bank_gold: int = GOLD_PIECES
    start_gold: int = START_GOLD
    start_cards: int = START_CARDS
    complete_size: int = COMPLETE_CITY
    unique_districts: bool = False

    def __post_init__(self) -> None:
        players = tuple(str(p) for p in self.players)
        object.__setattr__(self, "players", players)
        if not 2 <= len(players) <= 7:
            raise ValueError("Ohne Furcht und Adel is for 2 to 7 players")
        if len(set(players)) != len(players):
            raise ValueError("player names must be unique")
        if self.crown is not None and self.crown not in players:
            raise ValueError(f"crown holder {self.crown!r} is not a player")
        ages = tuple((str(p), int(age)) for p, age in (self.ages.items() if isinstance(self.ages, Mapping) else self.ages))
        object.__setattr__(self, "ages", ages)
        if ages and sorted(p for p, _ in ages) != sorted(players):
            raise ValueError("ages name every player once")
        oldest = max((age for _, age in ages), default=None)
        if self.crown is None and oldest is not None and [age for _, age in ages].count(oldest) > 1:
            raise ValueError("two players are the oldest: the rules name no one to take the crown")
        if self.start_gold * len(players) > self.bank_gold:
            raise ValueError("not enough gold in the bank for the start")

    def first_king(self) -> str:
        """Who holds the crown in round 1: the oldest player (S. 1), unless a scenario sets it."""
        if self.crown is not None:
            return self.crown
        if self.ages:
            return max(self.ages, key=lambda item: item[1])[0]
        return self.players[0]


def player_names(n: int) -> tuple[str, ...]:
    return tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n])


def lay_out_face_up(stack: list[Character], count: int, shuffle: Callable[[list], None]) -> tuple[list[Character], int]:
    """Turn ``count`` characters face up from the top of ``stack`` (its last element), S. 1 · Ablauf
    einer Runde: a king turned up is put back into the stack, the stack is shuffled with ``shuffle``
    and the next top card is turned up instead, so the king never lies face up.

    Takes the turned-up cards off ``stack``; returns them and how many times a king was put back.
    """
    face_up: list[Character] = []
    kings_put_back = 0
    while len(face_up) < count:
        card = stack.pop()
        if card == Character.KING:
            stack.append(card)
            shuffle(stack)
            kings_put_back += 1
            continue
        face_up.append(card)
    return face_up, kings_put_back


# --------------------------------------------------------------------------- state


class GameState(State):
    """The whole state of one game: the table, the round's draft and calling, the turn under way."""

    def __init__(self, config: GameConfig | None = None, seed: int = 0, *, deal: bool = True):
        self.config = config or GameConfig()
        self.rng = random.Random(seed)
        self.players: list[str] = list(self.config.players)
        self.gold = {p: 0 for p in self.players}
        self.bank = self.config.bank_gold
        self.hands: dict[str, list[District]] = {p: [] for p in self.players}
        self.cities: dict[str, list[District]] = {p: [] for p in self.players}
        self.deck: list[District] = build_deck(self.config.district_table)
        self.discard: list[District] = []
        self.crown: str = self.config.first_king()
        self.round = 0
        self.first_complete: str | None = None
        self.history: list[str] = []
        self.events: list[tuple] = []
        # round
        self.face_up: list[Character] = []
        self.set_aside: Character | None = None
        self.stack: list[Character] = []
        self.removed: list[Character] = []
        self.draft_steps: list[tuple[str, str]] = []
        self.draft_pos = 0
        self.holders: dict[Character, str] = {}
        self.murdered: Character | None = None
        self.robbed: Character | None = None
        self.call_next = 1
        # turn
        self.active: Character | None = None
        self.step: str | None = None
        self.drawn: list[District] = []
        self.builds = 0
        self.used: set[str] = set()
        self.magician_discards = 0
        self.return_step: str | None = None
        self.phase = "setup"
        if deal:
            self._setup()

    # ------------------------------------------------------------------ setup

    def _setup(self) -> None:
        """Aufbau (S. 1): shuffle the districts; each player 2 gold and 4 cards; oldest has the crown."""
        self.rng.shuffle(self.deck)
        for p in self.players:
            self._pay_from_bank(p, self.config.start_gold)
            self.hands[p] += self._draw(self.config.start_cards)
        cfg = self.config
        self.history.append(f"Setup: {cfg.start_gold} gold and {cfg.start_cards} cards each; crown {self.crown}")
        self._start_round()

    @classmethod
    def new_game(cls, seed: int = 0, players: int | Iterable[str] = 4, **config_kw) -> "GameState":
        names = player_names(players) if isinstance(players, int) else tuple(players)
        return cls(GameConfig(players=names, **config_kw), seed=seed)

    @classmethod
    def from_scenario(cls, data: Mapping[str, Any]) -> "GameState":
        """A state in the calling phase of a round, described as data.

        ``players``: a count (seats "A", "B", ...) or names, default 4. ``holders``: {character:
        player}; characters not listed were not chosen. ``character``: the first seat holds it and
        the calling starts at it (else at ``start_at``, default 1; earlier characters count as
        called). ``gold``, ``hands``, ``cities``: {player: n or districts}; ``gold``/``hand``/``city``
        as a number or one list are the first seat's. Districts are ``[colour, cost]`` or District;
        they are taken out of the deck and the gold out of the bank, so nothing is created. Also
        ``crown``, ``murdered``, ``robbed``, ``first_complete``, ``seed`` and GameConfig fields.
        With ``new_game: true`` it is a game just set up and dealt, its first draft beginning.
        """
        data = dict(data)
        players = data.pop("players", 4)
        names = player_names(int(players)) if str(players).isdigit() else tuple(players)
        seed = int(data.pop("seed", 0))
        if data.pop("new_game", False):
            return cls(GameConfig(players=names, **data), seed=seed)
        me = names[0]
        holders = {parse_character(c): p for c, p in (data.pop("holders", None) or {}).items()}
        start_at = data.pop("start_at", 1)
        if data.get("character") is not None:
            character = parse_character(data.pop("character"))
            holders[character] = me
            start_at = int(character)
        gold = data.pop("gold", None) or {}
        gold = gold if isinstance(gold, Mapping) else {me: gold}
        hands = {me: data.pop("hand", None) or [], **(data.pop("hands", None) or {})}
        cities = {me: data.pop("city", None) or [], **(data.pop("cities", None) or {})}
        murdered, robbed = data.pop("murdered", None), data.pop("robbed", None)
        first_complete = data.pop("first_complete", None)
        st = cls(GameConfig(players=names, **data), seed=seed, deal=False)
        unknown = (set(hands) | set(cities) | set(gold) | set(holders.values())) - set(names)
        if unknown:
            raise ValueError(f"unknown player {sorted(unknown)[0]!r}")
        st.hands = {p: [as_district(d) for d in hands.get(p, [])] for p in names}
        st.cities = {p: [as_district(d) for d in cities.get(p, [])] for p in names}
        placed = sum((Counter(st.hands[p]) + Counter(st.cities[p]) for p in names), Counter())
        if placed - Counter(st.deck):
            raise ValueError(f"no card {min(placed - Counter(st.deck))} left in the deck")
        st.deck = sorted((Counter(st.deck) - placed).elements())
        st.rng.shuffle(st.deck)
        st.gold = {p: int(gold.get(p, 0)) for p in names}
        st.bank = st.config.bank_gold - sum(st.gold.values())
        if st.bank < 0 or min(st.gold.values()) < 0:
            raise ValueError("more gold than the 30 pieces")
        st.round = 1
        st.holders = holders
        st.removed = [c for c in Character if c not in st.holders]
        st.murdered = parse_character(murdered) if murdered is not None else None
        st.robbed = parse_character(robbed) if robbed is not None else None
        st.first_complete = first_complete
        st.phase = "call"
        st.call_next = int(start_at)
        st.history.append("Scenario: " + ", ".join(f"{c}={p}" for c, p in sorted(st.holders.items())))
        st._advance()
        return st

    # ------------------------------------------------------------------ the generic probe

    def parse_action(self, step: str) -> Action:
        """A step of a scenario: "gold" | "cards" (the lower card is kept) | "income" | "build" (the
        first card in hand) | "build:<colour>:<cost>" | "assassinate:<character>" | "rob:<character>"
        | "swap:<player>" | "discard:<colour>:<cost>" | "redraw" | "destroy:<player>:<colour>:<cost>"
        | "end"."""
        kind, *parts = str(step).split(":")
        me = self.current_player()
        plain = {"gold": TakeGold, "cards": DrawCards, "income": CollectIncome, "end": EndTurn, "redraw": MagicianDraw}
        if kind in plain:
            return plain[kind]()
        if kind == "build":
            hand = self.hands.get(me) or [District(parse_color("green"), 1)]
            return Build(as_district(parts) if parts else hand[0])
        if kind in ("assassinate", "rob"):
            return (Assassinate if kind == "assassinate" else Rob)(parse_character(parts[0]))
        if kind == "swap":
            return SwapHands(parts[0])
        if kind == "discard":
            return MagicianDiscard(as_district(parts))
        if kind == "destroy":
            return Destroy(parts[0], as_district(parts[1:]))
        raise ValueError(f"unknown step {step!r}")

    def follow_up(self) -> Action | None:
        return KeepCard(min(self.drawn)) if self.step == "keep" else None

    def observe(self) -> dict[str, Any]:
        """The first seat's turn: ``gold``, ``built``, ``city_size``, ``hand_size``, ``income`` (paid
        by the income ability), ``income_colour`` (the colour of districts it was paid for), ``extra_cards`` (architect), ``extra_gold`` (merchant),
        ``paid_to_destroy`` (warlord), ``other_hand_sizes`` ({player: n}).

        The table now: ``gold_by_player``, ``city_sizes``, ``bank``, ``draw_pile``, ``crown``,
        ``round``, ``drafting`` (a draft is under way), ``terminal``, ``first_complete``, ``player``
        (who acts), ``on_turn`` (whose character's turn it is). Since the scenario began: ``turns`` and ``turn_players``
        (characters that took a turn, in order, and their players), ``played`` ({character: took a
        turn}), ``nobody`` (characters called that nobody holds), ``crown_at_turn`` ({character: crown
        holder when its turn began}), ``turns_after_complete`` (turns after the first city of 8 was
        completed), ``stolen`` (gold handed to the thief), ``in_discard`` (a district the warlord
        destroyed lies on the discard pile). Characters are lower-case English names."""
        me = self.players[0]
        mine = [e for e in self.events if len(e) > 1 and e[1] == me]
        turns = [e for e in self.events if e[0] == "turn"]
        complete = next((i for i, e in enumerate(self.events) if e[0] == "complete"), len(self.events))
        destroyed = [e[3] for e in self.events if e[0] == "destroy"]
        return {
            "gold": self.gold[me],
            "built": sum(1 for e in mine if e[0] == "build"),
            "city_size": len(self.cities[me]),
            "hand_size": len(self.hands[me]),
            "income": sum(e[4] for e in mine if e[0] == "income"),
            "income_colour": next((e[5] for e in reversed(mine) if e[0] == "income"), None),
            "extra_cards": sum(e[2] for e in mine if e[0] == "architect_cards"),
            "extra_gold": sum(e[2] for e in mine if e[0] == "merchant_bonus"),
            "paid_to_destroy": sum(e[4] for e in mine if e[0] == "destroy"),
            "other_hand_sizes": {p: len(self.hands[p]) for p in self.players if p != me},
            "gold_by_player": dict(self.gold),
            "city_sizes": {p: len(city) for p, city in self.cities.items()},
            "bank": self.bank,
            "draw_pile": len(self.deck),
            "crown": self.crown,
            "round": self.round,
            "drafting": self.phase == "draft",
            "terminal": self.is_terminal(),
            "first_complete": self.first_complete,
            "player": self.current_player(),
            "on_turn": str(self.active) if self.active else None,
            "turns": [str(e[1]) for e in turns],
            "turn_players": [e[2] for e in turns],
            "played": {str(c): any(e[1] == c for e in turns) for c in Character},
            "nobody": [str(e[1]) for e in self.events if e[0] == "nobody"],
            "crown_at_turn": {str(e[1]): e[3] for e in turns},
            "turns_after_complete": [str(e[1]) for e in self.events[complete:] if e[0] == "turn"],
            "stolen": sum(e[3] for e in self.events if e[0] == "rob"),
            "in_discard": any(d in self.discard for d in destroyed),
        }

    # ------------------------------------------------------------------ queries

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_player(self) -> str | None:
        """Who must act: the drafting player, or the holder of the character whose turn it is."""
        if self.phase == "draft":
            return self.draft_steps[self.draft_pos][1]
        if self.phase == "turn" and self.active is not None:
            return self.holders[self.active]
        return None

    def characters_of(self, player: str) -> list[Character]:
        return sorted(c for c, p in self.holders.items() if p == player)

    def total_gold(self) -> int:
        return self.bank + sum(self.gold.values())

    def all_cards(self) -> Counter:
        """Every district card wherever it is: draw pile, discard pile, hands, cities, cards being kept."""
        c = Counter(self.deck) + Counter(self.discard) + Counter(self.drawn)
        for p in self.players:
            c += Counter(self.hands[p]) + Counter(self.cities[p])
        return c

    def final_scores(self) -> dict:
        """Scores by :func:`scoring.score` from the cities (gold is not passed: it scores nothing)."""
        return scoring.score(
            [(p, self.cities[p]) for p in self.players], self.first_complete, self.config.complete_size
        )

    def returns(self) -> dict[str, int]:
        """Total points per player (final once ``is_terminal()``)."""
        return {p: s["total"] for p, s in self.final_scores()["scores"].items()}

    def __repr__(self) -> str:
        return f"<Ohne Furcht und Adel R{self.round} {self.phase} {self.current_player()}>"

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """All actions ``apply`` accepts now, sorted by repr."""
        if self.phase == "draft":
            kind = self.draft_steps[self.draft_pos][0]
            make = ChooseCharacter if kind == "choose" else DiscardCharacter
            return sorted({make(c) for c in self.stack}, key=repr)
        if self.phase != "turn":
            return []
        return sorted({a for a in self._candidates() if self.check(a) is None}, key=repr)

    def _candidates(self) -> list[Action]:
        me = self.current_player()
        if self.step == "keep":
            return [KeepCard(d) for d in self.drawn]
        hand = set(self.hands[me])
        if self.step == "magician":
            return [MagicianDiscard(d) for d in hand] + [MagicianDraw()]
        out: list[Action] = [TakeGold(), DrawCards(), EndTurn(), CollectIncome()]
        out += [Build(d) for d in hand]
        c = self.active
        if c == Character.ASSASSIN:
            out += [Assassinate(t) for t in Character]
        elif c == Character.THIEF:
            out += [Rob(t) for t in Character]
        elif c == Character.MAGICIAN:
            out += [SwapHands(p) for p in self.players] + [MagicianDiscard(d) for d in hand]
        elif c == Character.WARLORD:
            out += [Destroy(p, d) for p in self.players for d in set(self.cities[p])]
        return out

    # ------------------------------------------------------------------ apply

    def describe(self, action: Action) -> str:
        who = self.current_player()
        return f"R{self.round} {who}" + (f" {self.active}" if self.phase == "turn" else "") + f": {action}"

    def check(self, a: Action) -> RuleViolation | None:
        if self.phase == "over":
            return RuleViolation(R_END, "The game is over.")
        if isinstance(a, (ChooseCharacter, DiscardCharacter)):
            return self._rule_draft(a)
        if self.phase != "turn":
            return RuleViolation(R_DRAFT, "The characters are being drafted; nobody has a turn.")
        if self.step == "keep" and not isinstance(a, KeepCard):
            return RuleViolation(R_TURN, "First keep one of the 2 cards drawn and discard the other.")
        if self.step == "magician" and not isinstance(a, (MagicianDiscard, MagicianDraw)):
            return RuleViolation(R_MAGICIAN, "The magician discards, then draws as many.")
        if isinstance(a, (Build, EndTurn)) and self.step != "main":
            return RuleViolation(R_TURN, "Take 2 gold or draw 2 cards first.")
        rule = {
            TakeGold: self._rule_resources, DrawCards: self._rule_resources, KeepCard: self._rule_keep,
            Build: self._rule_build, EndTurn: lambda _: None, CollectIncome: self._rule_income,
            Assassinate: self._rule_assassin, Rob: self._rule_thief, SwapHands: self._rule_magician,
            MagicianDiscard: self._rule_magician, MagicianDraw: self._rule_magician, Destroy: self._rule_warlord,
        }.get(type(a))
        if rule is not None:
            return rule(a)
        return RuleViolation(R_TURN, f"Unknown action {a!r}.")

    def perform(self, a: Action) -> None:
        {
            ChooseCharacter: self._do_choose, DiscardCharacter: self._do_discard_character,
            TakeGold: self._do_take_gold, DrawCards: self._do_draw_cards, KeepCard: self._do_keep,
            Build: self._do_build, EndTurn: self._do_end_turn, CollectIncome: self._do_income,
            Assassinate: self._do_assassinate, Rob: self._do_rob, SwapHands: self._do_swap,
            MagicianDiscard: self._do_magician_discard, MagicianDraw: self._do_magician_draw,
            Destroy: self._do_destroy,
        }[type(a)](a)

    def _do_assassinate(self, a: Assassinate) -> None:
        self.used.add("special")
        self.murdered = a.target
        self.events.append(("assassinate", a.target))

    def _do_rob(self, a: Rob) -> None:
        self.used.add("special")
        self.robbed = a.target
        self.events.append(("rob_named", a.target))

    # ------------------------------------------------------------------ round: draft

    def _start_round(self) -> None:
        """Charaktere verteilen (S. 1 · Ablauf einer Runde; S. 2 · Zu zweit und zu dritt).

        4–7 players: lay face up 2 (4 players), 1 (5), none (6, 7); a king turned face up is shuffled
        back and replaced. Set one more card aside face down. The crown holder chooses first and
        passes left; the last player gets 2 cards, keeps one and discards the other face down; with 7
        the last gets 1 card plus the card set aside. 2 players: one card set aside; A keeps one,
        B keeps one and discards one, A the same, B the same: 2 characters each. 3 players: one set
        aside; choose in turn until each has 2; the last one gets 2 cards, keeps one, discards one.
        """
        self.round += 1
        n = len(self.players)
        chars = list(Character)
        self.rng.shuffle(chars)
        self.removed, self.holders = [], {}
        self.murdered = self.robbed = None
        self.call_next, self.active, self.step = 1, None, None
        self.face_up, kings_put_back = lay_out_face_up(chars, FACE_UP_BY_PLAYERS[n], self.rng.shuffle)
        self.events += [("king_face_up_replaced", self.round)] * kings_put_back
        self.set_aside = chars.pop()
        self.stack = chars
        i = self.players.index(self.crown)
        seats = self.players[i:] + self.players[:i]
        if n == 2:
            a, b = seats
            self.draft_steps = [("choose", a), ("choose", b), ("discard", b),
                                ("choose", a), ("discard", a), ("choose", b)]
        elif n == 3:
            self.draft_steps = [("choose", p) for p in seats + seats]
        else:
            self.draft_steps = [("choose", p) for p in seats]
        self.draft_pos = 0
        self.phase = "draft"
        shown = ", ".join(str(c) for c in self.face_up) or "none"
        self.history.append(f"R{self.round} crown {self.crown}; face up: {shown}; "
                            f"set aside face down: {self.set_aside}")
        self._prepare_draft_step()

    def _prepare_draft_step(self) -> None:
        """With 7 players the last player takes the card set aside face down (S. 1)."""
        last = self.draft_pos == len(self.draft_steps) - 1
        if len(self.players) == 7 and last and self.set_aside is not None:
            self.stack.append(self.set_aside)
            self.events.append(("set_aside_to_last", self.draft_steps[self.draft_pos][1], self.set_aside))
            self.set_aside = None

    def _rule_draft(self, a: Action) -> RuleViolation | None:
        """The draft: choose one of the cards passed on; with 2 players also discard one (S. 1; S. 2)."""
        rule = R_DRAFT_SMALL if len(self.players) <= 3 else R_DRAFT
        if self.phase != "draft":
            return RuleViolation(rule, "The characters are already drafted.")
        kind = self.draft_steps[self.draft_pos][0]
        if isinstance(a, ChooseCharacter) != (kind == "choose"):
            what = "choose a character" if kind == "choose" else "discard a character face down"
            return RuleViolation(rule, f"{self.current_player()} must {what} now.")
        if a.character not in self.stack:
            return RuleViolation(rule, f"{a.character} is not among the cards passed on.")
        return None

    def _do_choose(self, a: ChooseCharacter) -> None:
        self.stack.remove(a.character)
        self.holders[a.character] = self.current_player()
        self._next_draft_step()

    def _do_discard_character(self, a: DiscardCharacter) -> None:
        self.stack.remove(a.character)
        self.removed.append(a.character)
        self._next_draft_step()

    def _next_draft_step(self) -> None:
        self.draft_pos += 1
        if self.draft_pos < len(self.draft_steps):
            self._prepare_draft_step()
            return
        # the last player keeps one of his 2 cards and discards the other face down
        self.removed.extend(self.stack)
        self.stack = []
        if self.set_aside is not None:
            self.removed.append(self.set_aside)
        self.phase = "call"
        self._advance()

    # ------------------------------------------------------------------ round: calling

    def _advance(self) -> None:
        """Charaktere aufrufen (S. 1): call 1..8; nobody answers for an unchosen or murdered character."""
        while self.phase == "call":
            if self.call_next > len(Character):
                self._end_round()
                return
            c = Character(self.call_next)
            self.call_next += 1
            p = self.holders.get(c)
            if p is None:
                self.events.append(("nobody", c))
                if c == self.robbed:
                    self.events.append(("rob", Character.THIEF, None, 0))
                continue
            if c == self.murdered:
                self.history.append(f"R{self.round} {c} ({p}) is assassinated and skips the turn")
                self.events.append(("skipped", c, p))
                continue
            self._begin_turn(c, p)

    def _begin_turn(self, c: Character, p: str) -> None:
        self.phase, self.active, self.step = "turn", c, "resources"
        self.drawn, self.builds, self.used, self.magician_discards = [], 0, set(), 0
        self.events.append(("turn", c, p, self.crown))
        self.history.append(f"R{self.round} call {c}: {p}")
        if c == self.robbed:  # Dieb (S. 2): called, the robbed character's holder gives the thief all gold
            thief, amount = self.holders[Character.THIEF], self.gold[p]
            self.gold[p] -= amount
            self.gold[thief] += amount
            self.events.append(("rob", Character.THIEF, p, amount))
            self.history.append(f"R{self.round} thief {thief} receives {amount} gold from {p}")
        if c == Character.KING:  # König (S. 2): the king takes the crown when called
            self.events.append(("crown", self.crown, p, "called"))
            self.history.append(f"R{self.round} {p} takes the crown")
            self.crown = p

    def _end_round(self) -> None:
        """Round end: the crown for a murdered king (S. 2 · König, Sonderfall a); game end (S. 2)."""
        king = self.holders.get(Character.KING)
        if king is not None and self.murdered == Character.KING:
            self.events.append(("crown", self.crown, king, "murdered_king"))
            self.history.append(f"R{self.round} end: the murdered king {king} takes the crown")
            self.crown = king
        elif king is None:
            self.events.append(("crown", self.crown, self.crown, "king_not_chosen"))
            self.history.append(f"R{self.round} end: nobody chose the king, the crown stays with {self.crown}")
        self.active, self.step = None, None
        if self._rule_game_end():
            self.phase = "over"
            res = self.final_scores()
            totals = ", ".join(f"{p} {s['total']}" for p, s in res["scores"].items())
            self.history.append(f"Game over after round {self.round}: {totals}; winner {', '.join(res['winners'])}")
        else:
            self._start_round()

    def _rule_game_end(self) -> bool:
        """Spielende (S. 2): once someone has built his 8th district, the round is played to its end."""
        return self.first_complete is not None

    # ------------------------------------------------------------------ turn: resources, building

    def _rule_resources(self, a: Action) -> RuleViolation | None:
        """Ein Zug (S. 1): first either take 2 gold or draw 2 cards, keep 1, discard 1 — once."""
        if self.step != "resources":
            return RuleViolation(R_TURN, "Gold or cards only once per turn, at its start.")
        if isinstance(a, DrawCards) and not self._cards_available():
            return RuleViolation(R_DECK, "No district cards are left to draw.")
        return None

    def _rule_keep(self, a: KeepCard) -> RuleViolation | None:
        if self.step != "keep" or a.district not in self.drawn:
            return RuleViolation(R_TURN, f"{a.district} is not one of the cards just drawn.")
        return None

    def _rule_build(self, a: Build) -> RuleViolation | None:
        """Bauen (S. 1 · Ein Zug; S. 2 · Baumeister): after the resource step, from hand, paying the
        cost; 1 district per turn, the architect up to 3."""
        me = self.current_player()
        if a.district not in self.hands[me]:
            return RuleViolation(R_BUILD, f"{a.district} is not in hand.")
        if self.active == Character.ARCHITECT and self.builds >= ARCHITECT_BUILD_LIMIT:
            return RuleViolation(R_ARCHITECT, "The architect builds at most 3 districts per turn.")
        if self.active != Character.ARCHITECT and self.builds >= BUILD_LIMIT:
            return RuleViolation(R_BUILD, "Only 1 district per turn (only the architect up to 3).")
        if self.gold[me] < a.district.cost:
            return RuleViolation(R_BUILD, f"{a.district} costs {a.district.cost} gold, there are {self.gold[me]}.")
        if self.config.unique_districts and a.district in self.cities[me]:
            return RuleViolation(R_UNIQUE, f"{a.district} is already in the city.")
        return None

    def _cards_available(self) -> int:
        return len(self.deck) + len(self.discard)

    def _draw(self, n: int) -> list[District]:
        """Draw up to n cards from the top; an empty pile takes the shuffled discard pile (source
        silent), and with both empty fewer cards are drawn."""
        cards = []
        for _ in range(n):
            if not self.deck and self.discard:
                self.deck, self.discard = self.discard, []
                self.rng.shuffle(self.deck)
                self.events.append(("reshuffle", len(self.deck)))
                self.history.append(f"Discard pile reshuffled ({len(self.deck)} cards)")
            if self.deck:
                cards.append(self.deck.pop())
        return cards

    def _pay_from_bank(self, p: str, n: int) -> int:
        """Pay up to n gold from the bank; an empty bank pays what it has (source silent)."""
        paid = max(0, min(n, self.bank))
        self.bank -= paid
        self.gold[p] += paid
        return paid

    def _do_take_gold(self, _: TakeGold) -> None:
        me = self.current_player()
        paid = self._pay_from_bank(me, TAKE_GOLD)
        self.events.append(("take_gold", me, paid))
        self._finish_resources()

    def _do_draw_cards(self, _: DrawCards) -> None:
        me = self.current_player()
        cards = self._draw(DRAW_CARDS)
        self.events.append(("draw", me, tuple(cards)))
        if len(cards) >= 2:
            self.drawn = cards
            self.step = "keep"
        else:
            self.hands[me].extend(cards)
            self._finish_resources()

    def _do_keep(self, a: KeepCard) -> None:
        me = self.current_player()
        self.drawn.remove(a.district)
        self.hands[me].append(a.district)
        self.discard.extend(self.drawn)
        self.drawn = []
        self._finish_resources()

    def _finish_resources(self) -> None:
        """After the resource step: the merchant's extra gold, the architect's 2 extra cards."""
        me = self.current_player()
        if self.active == Character.MERCHANT:
            paid = self._pay_from_bank(me, MERCHANT_BONUS)
            self.events.append(("merchant_bonus", me, paid))
        if self.active == Character.ARCHITECT:
            got = self._draw(ARCHITECT_EXTRA_CARDS)
            self.hands[me].extend(got)
            self.events.append(("architect_cards", me, len(got)))
        self.step = "main"

    def _do_build(self, a: Build) -> None:
        me, d = self.current_player(), a.district
        self.hands[me].remove(d)
        self.gold[me] -= d.cost
        self.bank += d.cost
        self.cities[me].append(d)
        self.builds += 1
        self.events.append(("build", me, d))
        if self.first_complete is None and len(self.cities[me]) >= self.config.complete_size:
            self.first_complete = me
            self.events.append(("complete", me, self.round))
            self.history.append(f"R{self.round} {me} is the first with {self.config.complete_size} districts: "
                                "the round is played to its end")

    def _do_end_turn(self, _: EndTurn) -> None:
        self.events.append(("end_turn", self.active, self.current_player()))
        self.phase, self.active, self.step = "call", None, None
        self._advance()

    # ------------------------------------------------------------------ abilities

    def _rule_once(self, part: str) -> RuleViolation | None:
        """Ablauf eines Charakterzuges (S. 1): the ability is used once per turn, when the player likes."""
        if part in self.used:
            return RuleViolation(R_ONCE, f"{self.active}: the ability was already used this turn.")
        return None

    def _rule_income(self, _: CollectIncome) -> RuleViolation | None:
        """Einnahmen (S. 1 · Die Bauwerke): king yellow, bishop blue, merchant green, warlord red."""
        if self.active not in INCOME_COLOR:
            return RuleViolation(R_INCOME, f"{self.active} gets no income from districts.")
        return self._rule_once("income")

    def _do_income(self, _: CollectIncome) -> None:
        me = self.current_player()
        color = INCOME_COLOR[self.active]
        due = sum(1 for d in self.cities[me] if d.color == color)
        paid = self._pay_from_bank(me, due)
        self.used.add("income")
        self.events.append(("income", me, self.active, due, paid, color.value))

    def _rule_assassin(self, a: Assassinate) -> RuleViolation | None:
        """Meuchler (S. 1–2): names a character; it skips this round. Naming himself is refused as a
        reading (the source does not address it)."""
        if self.active != Character.ASSASSIN:
            return RuleViolation(R_ASSASSIN, "Only the assassin assassinates.")
        if a.target == Character.ASSASSIN:
            return RuleViolation(R_SELF, "The assassin may not name himself (a reading: the source does not say).")
        return self._rule_once("special")

    def _rule_thief(self, a: Rob) -> RuleViolation | None:
        """Dieb (S. 2): not the assassin, not the assassin's victim. Naming himself is refused as a
        reading (the source does not address it)."""
        if self.active != Character.THIEF:
            return RuleViolation(R_THIEF, "Only the thief robs.")
        if a.target == Character.ASSASSIN:
            return RuleViolation(R_THIEF, f"The thief may not rob the {a.target}.")
        if a.target == Character.THIEF:
            return RuleViolation(R_SELF, "The thief may not name himself (a reading: the source does not say).")
        if a.target == self.murdered:
            return RuleViolation(R_THIEF, f"The {a.target} was assassinated and may not be robbed.")
        return self._rule_once("special")

    def _rule_magician(self, a: Action) -> RuleViolation | None:
        """Magier (S. 1–2): swap the whole hand with another player (sizes may differ), or discard any
        number of cards and draw as many."""
        me = self.current_player()
        if self.active != Character.MAGICIAN:
            return RuleViolation(R_MAGICIAN, "Only the magician exchanges cards.")
        if isinstance(a, MagicianDraw):
            if self.step != "magician":
                return RuleViolation(R_MAGICIAN, "Discard cards first, then draw as many.")
            return None
        if isinstance(a, MagicianDiscard):
            if a.district not in self.hands[me]:
                return RuleViolation(R_MAGICIAN, f"{a.district} is not in hand.")
            return None if self.step == "magician" else self._rule_once("special")
        if a.player == me or a.player not in self.players:
            return RuleViolation(R_MAGICIAN, "The magician swaps with another player.")
        return self._rule_once("special")

    def _do_swap(self, a: SwapHands) -> None:
        me, other = self.current_player(), a.player
        self.used.add("special")
        self.hands[me], self.hands[other] = self.hands[other], self.hands[me]
        self.events.append(("swap", me, other, len(self.hands[other]), len(self.hands[me])))

    def _do_magician_discard(self, a: MagicianDiscard) -> None:
        me, d = self.current_player(), a.district
        if self.step != "magician":
            self.used.add("special")
            self.return_step, self.step = self.step, "magician"
        self.hands[me].remove(d)
        self.discard.append(d)
        self.magician_discards += 1

    def _do_magician_draw(self, _: MagicianDraw) -> None:
        me = self.current_player()
        got = self._draw(self.magician_discards)
        self.hands[me].extend(got)
        self.events.append(("magician_redraw", me, self.magician_discards, len(got)))
        self.magician_discards, self.step, self.return_step = 0, self.return_step, None

    @staticmethod
    def destroy_price(d: District) -> int:
        """Söldner (S. 2): 1 gold less than its price, so a district of cost 1 is free."""
        return d.cost - 1

    def _rule_warlord(self, a: Destroy) -> RuleViolation | None:
        """Söldner (S. 2): one district of another player; not in a city of 8 or more; not the
        bishop's unless the bishop was assassinated; pay the price to the bank. Prediger (S. 2)."""
        me = self.current_player()
        if self.active != Character.WARLORD:
            return RuleViolation(R_WARLORD, "Only the warlord destroys districts.")
        if a.player == me or a.player not in self.players:
            return RuleViolation(R_WARLORD, "The warlord destroys another player's district.")
        if a.district not in self.cities[a.player]:
            return RuleViolation(R_WARLORD, f"{a.player} has no district {a.district}.")
        if len(self.cities[a.player]) >= self.config.complete_size:
            return RuleViolation(R_WARLORD, f"Cities of {self.config.complete_size} or more districts are safe.")
        if self.holders.get(Character.BISHOP) == a.player and self.murdered != Character.BISHOP:
            return RuleViolation(R_BISHOP, "The bishop's districts are safe from the warlord.")
        price = self.destroy_price(a.district)
        if self.gold[me] < price:
            return RuleViolation(R_WARLORD, f"Destroying costs {price} gold, there are {self.gold[me]}.")
        return self._rule_once("special")

    def _do_destroy(self, a: Destroy) -> None:
        me, other, d = self.current_player(), a.player, a.district
        price = self.destroy_price(d)
        self.used.add("special")
        self.gold[me] -= price
        self.bank += price
        self.cities[other].remove(d)
        self.discard.append(d)
        self.events.append(("destroy", me, other, d, price))


# --------------------------------------------------------------------------- play helpers


def advance_passively(state: GameState, until: Callable[[GameState], bool] | None = None,
                      max_actions: int = 10_000) -> GameState:
    """Play on in the plainest way until ``until(state)`` holds or the game ends: draft the first
    legal option, take 2 gold, keep the first card, end the turn. For probes and tests."""
    for _ in range(max_actions):
        if state.is_terminal() or (until is not None and until(state)):
            return state
        if state.phase == "draft":
            state.apply(state.legal_actions()[0])
        elif state.step == "resources":
            state.apply(TakeGold())
        elif state.step == "keep":
            state.apply(KeepCard(state.drawn[0]))
        elif state.step == "magician":
            state.apply(MagicianDraw())
        else:
            state.apply(EndTurn())
    raise RuntimeError("advance_passively: no end in sight")
