"""Kardinal & König (Michael Schacht, Goldsieber 2000; "Web of Power") — executable rules.

Source: the German rules page sources/kardinal-und-koenig.de.txt, which summarises the 8-page
Goldsieber rulebook with page citations (S. 2–8). Citations in RuleViolations name those pages.

Modelled (3–5 players):
* Material (S. 2): 55 cards in five colours (13 Franken/Aragon, 12 Bayern/Burgund,
  11 Lothringen/Italien, 10 England/Schwaben, 9 Frankreich); with 4 players one card of each
  colour leaves the game, with 3 players two; supplies of 20 monasteries and 8 councillors.
* Setup (S. 2): hands of 3, two open cards, the start player holds the black marker.
* A turn (S. 3–5): play up to 3 cards and place up to 2 stones in ONE land (a card allows a stone
  in a land it shows; a pair of one colour is a joker for one stone in another land; an empty land
  takes only one monastery this turn; one monastery per free field; the council limit), then
  refill the hand to 3 from the open cards and/or the deck, then the open cards back to 2 — or
  swap one card, which ends the turn. No passing.
* Interim scoring when the deck runs out the first time (monasteries only), reshuffling the
  discard pile (S. 5–6); the end when the deck runs out a second time (round finished up to the
  start player's right-hand neighbour) or when nobody can place a stone (S. 6); final scoring of
  monasteries, the 15 alliances and the monastery chains; tie-break by stones left (S. 6–7).

Not modelled, and why:
* The printed board: the source gives neither the monastery fields, nor the roads, nor which
  lands the 15 alliances join. The engine takes a :class:`Board` as data; :data:`SAMPLE_BOARD` is
  a made-up nine-land example, NOT the printed map.
* The score track (over 99 points one counts on) and the scoring order of the lands are
  presentation only.
* Choices where the source is silent are parameters of :class:`Config` or documented in
  ``game.py`` (joker for a shown land, open cards after a swap, order of stones within a turn,
  "nobody can place", a stuck player, shared wins) and ``scoring.py`` (what a chain is on a road
  graph: per network of own monasteries its longest simple path; branches never count).

API: :class:`KardinalState`, a kernel state (``legal_actions()`` / ``apply()`` / ``attempt()`` /
``returns()`` / ``play_random()`` ...) with ``winners()``; the pure :func:`monastery_points` for one
land's scoring (calculator API).
"""
from .board import Board
from .sample_board import SAMPLE_BOARD
from .cards import COLOURS, LANDS, Colour, colour_of
from .game import Config, Draw, KardinalState, Pass, Placement, Play, Swap
from .scoring import alliance_points, chain_points, chains, monastery_points, winners

__all__ = [
    "SAMPLE_BOARD", "Board", "COLOURS", "LANDS", "Colour", "colour_of", "Config", "Draw",
    "KardinalState", "Pass", "Placement", "Play", "Swap", "STATE",
    "alliance_points", "chain_points", "chains", "monastery_points", "winners",
]

STATE = KardinalState
