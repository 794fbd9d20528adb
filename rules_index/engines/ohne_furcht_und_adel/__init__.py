"""Ohne Furcht und Adel (Citadels; Hans im Glück 2000), 2–7 players: executable rules.

Source: ``ohne-furcht-und-adel.de.txt``, a German summary of the official 2-page rulebook with its page
numbers (Regelheft S. 1 / S. 2); it is authoritative here. The Italian description
(``ohne-furcht-und-adel.it.txt``) deviates in several facts (51 district cards, the warlord paying the
full cost, drawing cards as the only resource, ...); the German source wins everywhere.

Modelled (:mod:`.game`):
- material: 65 district cards (20 green, 12 yellow, 11 red, 11 blue, 11 purple), 8 characters numbered
  1..8, 30 gold; start with 4 cards and 2 gold each; the oldest (first) player holds the crown;
- the character draft for 2, 3 and 4–7 players: face-up cards (4 players 2, 5 players 1, 6–7 none),
  the king never face up (shuffled back and replaced), one card set aside face down, passing left,
  the last player choosing from 2 cards, with 7 players the set-aside card going to the last player;
  2 and 3 players with two characters each (S. 2);
- calling the characters 1..8; a turn: 2 gold or 2 cards keep 1, then build up to 1 district (architect
  3), the ability once at any moment of the turn (an action legal until used);
- all eight characters with their exceptions (assassin, thief, magician, king and crown incl. murdered
  or unchosen king, bishop's protection unless murdered, merchant, architect, warlord's price and
  protected cities);
- game end after the round in which someone builds an 8th district; final scoring and tie-break
  (:mod:`.scoring`, a pure function usable without a game).

Not modelled, and why:
- the texts of the purple districts: they are printed only on the cards, not in the source; purple
  districts are plain purple districts scoring their cost;
- the cost of each district card: the source gives counts per colour only; the costs are a documented
  parameter table (:data:`.cards.DEFAULT_DISTRICT_TABLE`);
- secrecy: the engine is omniscient (the draft is secret at the table; here the state knows all).

Where the source is silent the engine takes a documented parameter (:class:`.game.GameConfig`): empty
bank (pays what it has), empty draw pile (the discard pile is reshuffled), identical districts
(allowed), a tie after the tie-break (shared victory), the moment of the merchant's extra gold and
the architect's extra cards (with the resource step).
"""
from .cards import Character, Color, District
from .game import GameConfig, GameState
from .scoring import score

STATE = GameState

__all__ = ["Character", "Color", "District", "GameConfig", "GameState", "score", "STATE"]
