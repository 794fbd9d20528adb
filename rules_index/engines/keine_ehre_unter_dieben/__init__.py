"""Rule engine of Keine Ehre unter Dieben (Christine Alcouffe & Ludovic Maublanc, Game Factory).

Source: a German review with a rules walkthrough (``keine-ehre-unter-dieben.de.txt``), secondary and
without page numbers; citations name its sections ("Rezension · Der Raubzug").

Modelled as the source states it:
* setup: the loot cards are shuffled, 15 are set aside as the reserve, the rest is the loot deck;
  the board has 7 card fields, the commissar starts in his notch on the right;
* a round = the heist and sharing the loot; the leader changes from round to round;
* the heist: the leader reveals the top card onto the first free field; movement symbols move the
  commissar 1-3 fields towards the band; after every card the leader goes on or stops voluntarily;
  commissar directly next to the last card = master stroke (ends at once); commissar onto a field with
  a card = caught (ends at once, that card and all to its right are discarded);
* sharing: voluntary stop -> the leader must take first the number printed under the last card
  (1 on fields 1-3, 2 on 4-5, 4 on 6); caught -> nothing; master stroke -> as many as he wants; then
  clockwise from the leader's left one card of choice each; then one more for a leader not caught;
  the rest is discarded;
* laying out by colour: the third bell card in a colour row triggers a police raid (all cards of that
  colour are lost); a secret compartment draws the top reserve card and lays it out the same way;
* game end when the loot deck is used up (the last heist may go on with reserve cards), a last
  share, then scoring: per colour the most cards get the higher reward tile, the second most the
  lower one; feather symbols are an extra colour; printed victory points are added.

The calculator (``calculators.py``) answers how a heist's loot is shared (``rules.share_loot``, which
a test plays against the game's own sharing); it answers only what the source states (no printed
number for field 7).

Parameters where the source is silent (see ``KeineEhreGame``): player count, deck composition,
commissar start / reset, the 7th field, reward tile values, ties in majorities, leader rotation,
compartment draws after a raid, an empty reserve. Not modelled: the thief cards (pure identity) and
anything the review does not describe (e.g. a variant, end-of-game tie-breaks beyond listing winners).
"""
from .cards import FEATHERS, LootCard, default_deck
from .game import KeineEhreGame, KeineEhreState, Pass, Phase, Reveal, Stop, Take
from .scoring import ScoreSheet, majority_awards, score_holdings
from .rules import lay_out, leader_quota

__all__ = [
    "FEATHERS", "KeineEhreGame", "KeineEhreState", "LootCard", "Pass", "Phase", "Reveal", "ScoreSheet",
    "Stop", "Take", "default_deck", "lay_out", "leader_quota", "majority_awards",
    "score_holdings", "STATE",
]

STATE = KeineEhreState
