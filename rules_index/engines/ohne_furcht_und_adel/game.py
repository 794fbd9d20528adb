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
  both of its variants). The merchant's 1 gold per green district is his ability, used once at a
  moment of his choice (S. 1 · Ablauf eines Charakterzuges; S. 2 · Beispiel).
- The warlord has two once-per-turn abilities: income (1 gold per red district) and destroying.
- While the 2 drawn cards wait for the keep/discard choice, and while the magician discards cards
  one at a time before drawing as many, nothing else can happen (these are parts of one step).
- ``unique_districts``: the source says nothing about building the same district twice; default
  False (allowed).
- Naming a character that nobody holds (face up, set aside, discarded) is legal for the assassin
  and the thief and simply has no effect (S. 2 · Dieb says so for the thief).
- Players still level after the tie-break share the victory (:mod:`.scoring`).
- Seat order is the order of ``players``; "left" is the next name in that list.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Union

from ..base import Rule, RuleViolation
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
    build_deck,
    parse_character,
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
R_DECK = Rule("Nachziehstapel leer", "Quelle schweigt · Ablagestapel wird neu gemischt")
R_UNIQUE = Rule("Gleiche Bauwerke", "Quelle schweigt · Parameter unique_districts")

# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class ChooseCharacter:
    """Draft: keep this character (S. 1 · Ablauf einer Runde; S. 2 · Zu zweit und zu dritt)."""

    character: Character

    def __str__(self) -> str:
        return f"wählt {self.character}"


@dataclass(frozen=True)
class DiscardCharacter:
    """Draft with 2 players: lay this character face down on the discard pile (S. 2)."""

    character: Character

    def __str__(self) -> str:
        return f"legt {self.character} ab"


@dataclass(frozen=True)
class TakeGold:
    """Resource step: take 2 gold from the bank (S. 1 · Ein Zug)."""

    def __str__(self) -> str:
        return "nimmt 2 Gold"


@dataclass(frozen=True)
class DrawCards:
    """Resource step: draw 2 district cards (then KeepCard) (S. 1 · Ein Zug)."""

    def __str__(self) -> str:
        return "zieht 2 Karten"


@dataclass(frozen=True)
class KeepCard:
    """Resource step: keep this one of the 2 drawn cards; the other goes to the discard pile."""

    district: District

    def __str__(self) -> str:
        return f"behält {self.district}"


@dataclass(frozen=True)
class Build:
    """Build this district from hand, paying its cost to the bank (S. 1 · Ein Zug)."""

    district: District

    def __str__(self) -> str:
        return f"baut {self.district}"


@dataclass(frozen=True)
class CollectIncome:
    """Ability of king/bishop/merchant/warlord: 1 gold per district of their colour (S. 1–2)."""

    def __str__(self) -> str:
        return "kassiert"


@dataclass(frozen=True)
class Assassinate:
    """Assassin's ability: name a character; it skips this round (S. 1–2 · Meuchler)."""

    target: Character

    def __str__(self) -> str:
        return f"meuchelt {self.target}"


@dataclass(frozen=True)
class Rob:
    """Thief's ability: name a character; its holder gives him all gold when called (S. 2 · Dieb)."""

    target: Character

    def __str__(self) -> str:
        return f"bestiehlt {self.target}"


@dataclass(frozen=True)
class SwapHands:
    """Magician's ability: swap the whole hand with this player's whole hand (S. 1–2 · Magier)."""

    player: str

    def __str__(self) -> str:
        return f"tauscht Hand mit {self.player}"


@dataclass(frozen=True)
class MagicianDiscard:
    """Magician's ability, other form: discard this card (repeatable), then MagicianDraw."""

    district: District

    def __str__(self) -> str:
        return f"wirft {self.district} ab"


@dataclass(frozen=True)
class MagicianDraw:
    """Magician: draw as many cards as were discarded with MagicianDiscard (S. 1–2 · Magier)."""

    def __str__(self) -> str:
        return "zieht so viele nach"


@dataclass(frozen=True)
class Destroy:
    """Warlord's ability: destroy this district of this player (S. 2 · Söldner)."""

    player: str
    district: District

    def __str__(self) -> str:
        return f"zerstört {self.district} von {self.player}"


@dataclass(frozen=True)
class EndTurn:
    """End the character's turn (after the resource step)."""

    def __str__(self) -> str:
        return "beendet den Zug"


Action = Union[
    ChooseCharacter, DiscardCharacter, TakeGold, DrawCards, KeepCard, Build, CollectIncome,
    Assassinate, Rob, SwapHands, MagicianDiscard, MagicianDraw, Destroy, EndTurn,
]

# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class GameConfig:
    """Parameters of a game. Defaults follow the source; where it is silent, see the module docstring.

    ``players``: names in seat order (2..7); ``crown``: the oldest player, who holds the crown in
    round 1 (default: the first name).
    """

    players: tuple[str, ...] = ("A", "B", "C", "D")
    crown: str | None = None
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
        if self.start_gold * len(players) > self.bank_gold:
            raise ValueError("not enough gold in the bank for the start")


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


class GameState:
    """The whole state of one game. Mutable, owned by its caller; ``copy()`` for a private copy.

    ``legal_actions()`` is the single source of truth: it lists exactly the actions ``apply`` accepts.
    ``apply`` refuses anything else with a :class:`RuleViolation` naming the rule, and leaves the state
    unchanged when it does (every check runs before any change).
    """

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
        self.crown: str = self.config.crown or self.players[0]
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
            for _ in range(self.config.start_cards):
                card = self._draw()
                if card is not None:
                    self.hands[p].append(card)
        self._log(f"Aufbau: je {self.config.start_gold} Gold, {self.config.start_cards} Karten; Krone {self.crown}")
        self._start_round()

    @classmethod
    def scenario(
        cls,
        players: Iterable[str] = ("A", "B", "C", "D"),
        holders: dict | None = None,
        *,
        gold: dict | None = None,
        hands: dict | None = None,
        cities: dict | None = None,
        crown: str | None = None,
        murdered=None,
        robbed=None,
        start_at: int = 1,
        seed: int = 0,
        first_complete: str | None = None,
        **config_kw,
    ) -> "GameState":
        """A state in the calling phase of a round, for tests and probes.

        ``holders``: {character: player}; characters not listed were not chosen. ``hands``/``cities``:
        {player: [District]} taken out of the deck (so all 65 cards stay accounted for); ``gold``:
        {player: n} taken from the bank. Calling starts at character ``start_at`` (earlier ones count as
        already called); the state advances to the first turn.
        """
        config = GameConfig(players=tuple(players), crown=crown, **config_kw)
        st = cls(config, seed=seed, deal=False)
        deck = Counter(st.deck)
        for source in (hands or {}), (cities or {}):
            for p, cards in source.items():
                if p not in st.players:
                    raise ValueError(f"unknown player {p!r}")
                for d in cards:
                    if deck[d] <= 0:
                        raise ValueError(f"no card {d} left in the deck for {p}")
                    deck[d] -= 1
        st.hands = {p: list((hands or {}).get(p, [])) for p in st.players}
        st.cities = {p: list((cities or {}).get(p, [])) for p in st.players}
        st.deck = sorted(deck.elements())
        st.rng.shuffle(st.deck)
        for p in st.players:
            st.gold[p] = int((gold or {}).get(p, 0))
        st.bank = config.bank_gold - sum(st.gold.values())
        if st.bank < 0 or min(st.gold.values()) < 0:
            raise ValueError("more gold than the 30 pieces")
        st.round = 1
        st.holders = {parse_character(c): p for c, p in (holders or {}).items()}
        for p in st.holders.values():
            if p not in st.players:
                raise ValueError(f"unknown player {p!r}")
        st.removed = [c for c in Character if c not in st.holders]
        st.murdered = parse_character(murdered) if murdered is not None else None
        st.robbed = parse_character(robbed) if robbed is not None else None
        st.first_complete = first_complete
        st.phase = "call"
        st.call_next = start_at
        st._log("Szenario: " + ", ".join(f"{c}={p}" for c, p in sorted(st.holders.items())))
        st._advance()
        return st

    # ------------------------------------------------------------------ queries

    def copy(self) -> "GameState":
        return copy.deepcopy(self)

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

    def build_limit(self) -> int:
        """1 district per turn; the architect up to 3 (S. 1 · Ein Zug; S. 2 · Baumeister)."""
        return ARCHITECT_BUILD_LIMIT if self.active == Character.ARCHITECT else BUILD_LIMIT

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

    def trace(self) -> str:
        return "\n".join(self.history)

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
        return sorted({a for a in self._candidates() if self._check(a) is None}, key=repr)

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

    def apply(self, action: Action) -> None:
        """Perform a legal action; raise RuleViolation (state unchanged) for an illegal one."""
        violation = self._check(action)
        if violation is not None:
            raise violation
        who = self.current_player()
        tag = f"R{self.round} {who}" + (f" {self.active}" if self.phase == "turn" else "")
        self._log(f"{tag}: {action}")
        self._perform(action)

    def _check(self, a: Action) -> RuleViolation | None:
        if self.phase == "over":
            return RuleViolation(R_END, "Das Spiel ist zu Ende.")
        if isinstance(a, (ChooseCharacter, DiscardCharacter)):
            return self._rule_draft(a)
        if self.phase != "turn":
            return RuleViolation(R_DRAFT, "Jetzt werden Charaktere verteilt, niemand ist am Zug.")
        if self.step == "keep" and not isinstance(a, KeepCard):
            return RuleViolation(R_TURN, "Erst eine der 2 gezogenen Karten behalten, die andere ablegen.")
        if self.step == "magician" and not isinstance(a, (MagicianDiscard, MagicianDraw)):
            return RuleViolation(R_MAGICIAN, "Der Magier wirft ab und zieht dann ebenso viele nach.")
        if isinstance(a, (TakeGold, DrawCards)):
            return self._rule_resources(a)
        if isinstance(a, KeepCard):
            return self._rule_keep(a)
        if isinstance(a, Build):
            return self._rule_build(a)
        if isinstance(a, EndTurn):
            return self._rule_end_turn()
        if isinstance(a, CollectIncome):
            return self._rule_income()
        if isinstance(a, Assassinate):
            return self._rule_assassin(a)
        if isinstance(a, Rob):
            return self._rule_thief(a)
        if isinstance(a, (SwapHands, MagicianDiscard, MagicianDraw)):
            return self._rule_magician(a)
        if isinstance(a, Destroy):
            return self._rule_warlord(a)
        return RuleViolation(R_TURN, f"Unbekannte Aktion {a!r}.")

    def _perform(self, a: Action) -> None:
        if isinstance(a, ChooseCharacter):
            self._do_choose(a.character)
        elif isinstance(a, DiscardCharacter):
            self._do_discard_character(a.character)
        elif isinstance(a, TakeGold):
            self._do_take_gold()
        elif isinstance(a, DrawCards):
            self._do_draw_cards()
        elif isinstance(a, KeepCard):
            self._do_keep(a.district)
        elif isinstance(a, Build):
            self._do_build(a.district)
        elif isinstance(a, EndTurn):
            self._do_end_turn()
        elif isinstance(a, CollectIncome):
            self._do_income()
        elif isinstance(a, Assassinate):
            self.used.add("special")
            self.murdered = a.target
            self.events.append(("assassinate", a.target))
        elif isinstance(a, Rob):
            self.used.add("special")
            self.robbed = a.target
            self.events.append(("rob_named", a.target))
        elif isinstance(a, SwapHands):
            self._do_swap(a.player)
        elif isinstance(a, MagicianDiscard):
            self._do_magician_discard(a.district)
        elif isinstance(a, MagicianDraw):
            self._do_magician_draw()
        elif isinstance(a, Destroy):
            self._do_destroy(a.player, a.district)

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
            self.draft_steps = [("choose", a), ("choose", b), ("discard", b), ("choose", a), ("discard", a), ("choose", b)]
        elif n == 3:
            self.draft_steps = [("choose", p) for p in seats + seats]
        else:
            self.draft_steps = [("choose", p) for p in seats]
        self.draft_pos = 0
        self.phase = "draft"
        shown = ", ".join(str(c) for c in self.face_up) or "keine"
        self._log(f"R{self.round} Krone {self.crown}; offen: {shown}; verdeckt beiseite: {self.set_aside}")
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
            return RuleViolation(rule, "Die Charaktere sind schon verteilt.")
        kind = self.draft_steps[self.draft_pos][0]
        if isinstance(a, ChooseCharacter) != (kind == "choose"):
            what = "einen Charakter wählen" if kind == "choose" else "einen Charakter verdeckt ablegen"
            return RuleViolation(rule, f"Jetzt muss {self.current_player()} {what}.")
        if a.character not in self.stack:
            return RuleViolation(rule, f"{a.character} ist nicht unter den weitergereichten Karten.")
        return None

    def _do_choose(self, c: Character) -> None:
        self.stack.remove(c)
        self.holders[c] = self.current_player()
        self._next_draft_step()

    def _do_discard_character(self, c: Character) -> None:
        self.stack.remove(c)
        self.removed.append(c)
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
                self._log(f"R{self.round} {c} ({p}) ist gemeuchelt und setzt aus")
                self.events.append(("skipped", c, p))
                continue
            self._begin_turn(c, p)

    def _begin_turn(self, c: Character, p: str) -> None:
        self.phase, self.active, self.step = "turn", c, "resources"
        self.drawn, self.builds, self.used, self.magician_discards = [], 0, set(), 0
        self.events.append(("turn", c, p))
        self._log(f"R{self.round} Aufruf {c}: {p}")
        if c == self.robbed:
            self._rule_robbery_on_call(p)
        if c == Character.KING:
            self._rule_king_takes_crown(p)

    def _rule_robbery_on_call(self, victim: str) -> None:
        """Dieb (S. 2): when the robbed character is called, its holder gives the thief all his gold."""
        thief = self.holders[Character.THIEF]
        amount = self.gold[victim]
        self.gold[victim] -= amount
        self.gold[thief] += amount
        self.events.append(("rob", Character.THIEF, victim, amount))
        self._log(f"R{self.round} Dieb {thief} erhält {amount} Gold von {victim}")

    def _rule_king_takes_crown(self, p: str) -> None:
        """König (S. 2): the king takes the crown when called, and calls from now on."""
        self.events.append(("crown", self.crown, p, "called"))
        self._log(f"R{self.round} {p} bekommt die Krone")
        self.crown = p

    def _end_round(self) -> None:
        """Round end: the crown for a murdered king (S. 2 · König, Sonderfall a); game end (S. 2)."""
        king = self.holders.get(Character.KING)
        if king is not None and self.murdered == Character.KING:
            self.events.append(("crown", self.crown, king, "murdered_king"))
            self._log(f"R{self.round} Ende: der gemeuchelte König {king} bekommt die Krone")
            self.crown = king
        elif king is None:
            self.events.append(("crown", self.crown, self.crown, "king_not_chosen"))
            self._log(f"R{self.round} Ende: König nicht gewählt, Krone bleibt bei {self.crown}")
        self.active, self.step = None, None
        if self._rule_game_end():
            self.phase = "over"
            res = self.final_scores()
            totals = ", ".join(f"{p} {s['total']}" for p, s in res["scores"].items())
            self._log(f"Ende nach Runde {self.round}: {totals}; Sieger {', '.join(res['winners'])}")
        else:
            self._start_round()

    def _rule_game_end(self) -> bool:
        """Spielende (S. 2): once someone has built his 8th district, the round is played to its end."""
        return self.first_complete is not None

    # ------------------------------------------------------------------ turn: resources, building

    def _rule_resources(self, a: Action) -> RuleViolation | None:
        """Ein Zug (S. 1): first either take 2 gold or draw 2 cards, keep 1, discard 1 — once."""
        if self.step != "resources":
            return RuleViolation(R_TURN, "Gold oder Karten gibt es nur einmal je Zug, zu Beginn.")
        if isinstance(a, DrawCards) and not self._cards_available():
            return RuleViolation(R_DECK, "Es gibt keine Bauwerkkarten mehr zu ziehen.")
        return None

    def _rule_keep(self, a: KeepCard) -> RuleViolation | None:
        if self.step != "keep" or a.district not in self.drawn:
            return RuleViolation(R_TURN, f"{a.district} ist keine der gerade gezogenen Karten.")
        return None

    def _rule_build(self, a: Build) -> RuleViolation | None:
        """Bauen (S. 1 · Ein Zug; S. 2 · Baumeister): after the resource step, from hand, paying the
        cost; 1 district per turn, the architect up to 3."""
        me = self.current_player()
        if self.step != "main":
            return RuleViolation(R_TURN, "Erst Gold nehmen oder Karten ziehen, danach bauen.")
        if a.district not in self.hands[me]:
            return RuleViolation(R_BUILD, f"{a.district} ist nicht auf der Hand.")
        if self.builds >= self.build_limit():
            if self.active == Character.ARCHITECT:
                return RuleViolation(R_ARCHITECT, "Der Baumeister baut höchstens 3 Bauwerke je Zug.")
            return RuleViolation(R_BUILD, "Nur 1 Bauwerk je Zug (nur der Baumeister bis zu 3).")
        if self.gold[me] < a.district.cost:
            return RuleViolation(R_BUILD, f"{a.district} kostet {a.district.cost} Gold, vorhanden {self.gold[me]}.")
        if self.config.unique_districts and a.district in self.cities[me]:
            return RuleViolation(R_UNIQUE, f"{a.district} steht schon in der Stadt.")
        return None

    def _rule_end_turn(self) -> RuleViolation | None:
        if self.step != "main":
            return RuleViolation(R_TURN, "Erst 2 Gold nehmen oder 2 Karten ziehen.")
        return None

    def _cards_available(self) -> int:
        return len(self.deck) + len(self.discard)

    def _draw(self) -> District | None:
        """Draw the top card; an empty pile takes the shuffled discard pile (source silent)."""
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.events.append(("reshuffle", len(self.deck)))
            self._log(f"Ablagestapel neu gemischt ({len(self.deck)} Karten)")
        return self.deck.pop() if self.deck else None

    def _pay_from_bank(self, p: str, n: int) -> int:
        """Pay up to n gold from the bank; an empty bank pays what it has (source silent)."""
        paid = max(0, min(n, self.bank))
        self.bank -= paid
        self.gold[p] += paid
        return paid

    def _do_take_gold(self) -> None:
        me = self.current_player()
        paid = self._pay_from_bank(me, TAKE_GOLD)
        self.events.append(("take_gold", me, paid))
        self._finish_resources()

    def _do_draw_cards(self) -> None:
        me = self.current_player()
        cards = []
        for _ in range(DRAW_CARDS):
            card = self._draw()
            if card is not None:
                cards.append(card)
        self.events.append(("draw", me, tuple(cards)))
        if len(cards) >= 2:
            self.drawn = cards
            self.step = "keep"
        else:
            self.hands[me].extend(cards)
            self._finish_resources()

    def _do_keep(self, d: District) -> None:
        me = self.current_player()
        self.drawn.remove(d)
        self.hands[me].append(d)
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
            got = []
            for _ in range(ARCHITECT_EXTRA_CARDS):
                card = self._draw()
                if card is not None:
                    got.append(card)
            self.hands[me].extend(got)
            self.events.append(("architect_cards", me, len(got)))
        self.step = "main"

    def _do_build(self, d: District) -> None:
        me = self.current_player()
        self.hands[me].remove(d)
        self.gold[me] -= d.cost
        self.bank += d.cost
        self.cities[me].append(d)
        self.builds += 1
        self.events.append(("build", me, d))
        if self.first_complete is None and len(self.cities[me]) >= self.config.complete_size:
            self.first_complete = me
            self.events.append(("complete", me, self.round))
            self._log(f"R{self.round} {me} hat als Erster {self.config.complete_size} Bauwerke: Runde wird zu Ende gespielt")

    def _do_end_turn(self) -> None:
        self.events.append(("end_turn", self.active, self.current_player()))
        self.phase, self.active, self.step = "call", None, None
        self._advance()

    # ------------------------------------------------------------------ abilities

    def _rule_once(self, part: str) -> RuleViolation | None:
        """Ablauf eines Charakterzuges (S. 1): the ability is used once per turn, when the player likes."""
        if part in self.used:
            return RuleViolation(R_ONCE, f"{self.active}: die Fähigkeit wurde in diesem Zug schon eingesetzt.")
        return None

    def _rule_income(self) -> RuleViolation | None:
        """Einnahmen (S. 1 · Die Bauwerke): king yellow, bishop blue, merchant green, warlord red."""
        if self.active not in INCOME_COLOR:
            return RuleViolation(R_INCOME, f"{self.active} bekommt keine Einnahmen aus Bauwerken.")
        return self._rule_once("income")

    def _do_income(self) -> None:
        me = self.current_player()
        color = INCOME_COLOR[self.active]
        due = sum(1 for d in self.cities[me] if d.color == color)
        paid = self._pay_from_bank(me, due)
        self.used.add("income")
        self.events.append(("income", me, self.active, due, paid))

    def _rule_assassin(self, a: Assassinate) -> RuleViolation | None:
        """Meuchler (S. 1–2): names another character; it skips this round."""
        if self.active != Character.ASSASSIN:
            return RuleViolation(R_ASSASSIN, "Nur der Meuchler meuchelt.")
        if a.target == Character.ASSASSIN:
            return RuleViolation(R_ASSASSIN, "Der Meuchler benennt einen anderen Charakter.")
        return self._rule_once("special")

    def _rule_thief(self, a: Rob) -> RuleViolation | None:
        """Dieb (S. 2): not the assassin, not the assassin's victim (nor himself)."""
        if self.active != Character.THIEF:
            return RuleViolation(R_THIEF, "Nur der Dieb bestiehlt.")
        if a.target in (Character.ASSASSIN, Character.THIEF):
            return RuleViolation(R_THIEF, f"Der Dieb darf {a.target} nicht bestehlen.")
        if a.target == self.murdered:
            return RuleViolation(R_THIEF, f"{a.target} wurde gemeuchelt und darf nicht bestohlen werden.")
        return self._rule_once("special")

    def _rule_magician(self, a: Action) -> RuleViolation | None:
        """Magier (S. 1–2): swap the whole hand with another player (sizes may differ), or discard any
        number of cards and draw as many."""
        me = self.current_player()
        if self.active != Character.MAGICIAN:
            return RuleViolation(R_MAGICIAN, "Nur der Magier tauscht Karten.")
        if isinstance(a, MagicianDraw):
            if self.step != "magician":
                return RuleViolation(R_MAGICIAN, "Erst Karten abwerfen, dann ebenso viele ziehen.")
            return None
        if isinstance(a, MagicianDiscard):
            if a.district not in self.hands[me]:
                return RuleViolation(R_MAGICIAN, f"{a.district} ist nicht auf der Hand.")
            return None if self.step == "magician" else self._rule_once("special")
        if a.player == me or a.player not in self.players:
            return RuleViolation(R_MAGICIAN, "Der Magier tauscht mit einem Mitspieler.")
        return self._rule_once("special")

    def _do_swap(self, other: str) -> None:
        me = self.current_player()
        self.used.add("special")
        self.hands[me], self.hands[other] = self.hands[other], self.hands[me]
        self.events.append(("swap", me, other, len(self.hands[other]), len(self.hands[me])))

    def _do_magician_discard(self, d: District) -> None:
        me = self.current_player()
        if self.step != "magician":
            self.used.add("special")
            self.return_step, self.step = self.step, "magician"
        self.hands[me].remove(d)
        self.discard.append(d)
        self.magician_discards += 1

    def _do_magician_draw(self) -> None:
        me = self.current_player()
        got = 0
        for _ in range(self.magician_discards):
            card = self._draw()
            if card is not None:
                self.hands[me].append(card)
                got += 1
        self.events.append(("magician_redraw", me, self.magician_discards, got))
        self.magician_discards, self.step, self.return_step = 0, self.return_step, None

    @staticmethod
    def destroy_price(d: District) -> int:
        """Söldner (S. 2): a district of cost 1 is free, any other costs 1 gold less than its price."""
        return 0 if d.cost <= 1 else d.cost - 1

    def _rule_warlord(self, a: Destroy) -> RuleViolation | None:
        """Söldner (S. 2): one district of another player; not in a city of 8 or more; not the
        bishop's unless the bishop was assassinated; pay the price to the bank. Prediger (S. 2)."""
        me = self.current_player()
        if self.active != Character.WARLORD:
            return RuleViolation(R_WARLORD, "Nur der Söldner zerstört Bauwerke.")
        if a.player == me or a.player not in self.players:
            return RuleViolation(R_WARLORD, "Der Söldner zerstört ein Bauwerk eines Mitspielers.")
        if a.district not in self.cities[a.player]:
            return RuleViolation(R_WARLORD, f"{a.player} hat kein Bauwerk {a.district}.")
        if len(self.cities[a.player]) >= self.config.complete_size:
            return RuleViolation(R_WARLORD, f"Städte mit {self.config.complete_size} oder mehr Bauwerken sind sicher.")
        if self.holders.get(Character.BISHOP) == a.player and self.murdered != Character.BISHOP:
            return RuleViolation(R_BISHOP, "Die Bauwerke des Predigers sind vor dem Söldner sicher.")
        price = self.destroy_price(a.district)
        if self.gold[me] < price:
            return RuleViolation(R_WARLORD, f"Zerstören kostet {price} Gold, vorhanden {self.gold[me]}.")
        return self._rule_once("special")

    def _do_destroy(self, other: str, d: District) -> None:
        me = self.current_player()
        price = self.destroy_price(d)
        self.used.add("special")
        self.gold[me] -= price
        self.bank += price
        self.cities[other].remove(d)
        self.discard.append(d)
        self.events.append(("destroy", me, other, d, price))

    # ------------------------------------------------------------------ misc

    def _log(self, line: str) -> None:
        self.history.append(line)


# --------------------------------------------------------------------------- play helpers


def new_game(seed: int = 0, players: int | Iterable[str] = 4, **config_kw) -> GameState:
    names = player_names(players) if isinstance(players, int) else tuple(players)
    return GameState(GameConfig(players=names, **config_kw), seed=seed)


def play_random_game(seed: int, players: int | Iterable[str] = 4, max_actions: int = 100_000, **config_kw) -> GameState:
    """A complete game from setup to final scoring, every action uniformly random among the legal
    ones. The game and the choices are both seeded, so a seed replays exactly."""
    state = new_game(seed, players, **config_kw)
    chooser = random.Random(seed * 7919 + 17)
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        actions = state.legal_actions()
        if not actions:
            raise RuntimeError(f"no legal action in a running game: {state!r}")
        state.apply(chooser.choice(actions))
    raise RuntimeError(f"game did not end within {max_actions} actions")


def advance_passively(state: GameState, until: Callable[[GameState], bool] | None = None, max_actions: int = 10_000) -> GameState:
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
