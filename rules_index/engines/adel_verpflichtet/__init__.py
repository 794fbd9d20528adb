"""Rules engine of Adel Verpflichtet (Hoity Toity), from the German rules explanation
(sources/adel-verpflichtet.de.txt; no page numbers, so citations name the section, e.g.
"Regelerklärung · Phase 3 · Diebe").

Modelled (exactly as the source states it):

- A round of 4 phases in fixed order: 1 choose location (auction house / castle, secret and
  simultaneous: every player still to choose may submit a choice, in any order, while it stays
  hidden; revealed when all have chosen), 2 choose action card (auction house: cheque or thief, the detective is forbidden;
  castle: exhibition card, thief or detective; the exhibition card only if the player can really
  form a valid exhibition), 3 resolve the auction house, 4 resolve the castle, then the round end.
- Auction house: the highest cheque takes the top card of one of the two stacks and goes to the cash
  box; lower cheques return to hand. A single thief takes the cheque paid THIS round (never older
  ones, nothing if nothing was paid); several thieves block each other; a stolen cheque is played
  like one's own; thief cards return to hand.
- Castle: exhibitions (>= 3 collection cards with letters A-F following without a gap, repeats
  allowed; one per player and round), ranking by most cards, ties by the oldest object; only the two
  best move, by the higher / lower number of the scoring field beside the leading pawn (clubroom
  field at the start). Then castle thieves, higher loot-sack number first, each take 1 card of their
  choice from every exhibition. Then, if a detective lies in the castle, all castle thieves go to
  prison keeping their loot, and if at least one was caught every detective's owner moves by the
  place of their pawn (leader 1, second 2, ...). Prison: as many cells as players; a new prisoner
  enters cell 1 pushing the others on (several at once: lower number first); a thief pushed out of
  the last cell is free and returns to its owner.
- Round end: location cards, remaining action cards and exhibited cards go back; when no collection
  card is left the auction house closes and only the castle is played.
- Spiel zu zweit: the surprise variant (place and action card laid and revealed together) and the
  confrontation variant (all always at the same announced place, alternating, only action cards).
  The source describes them for two players and forbids them for none, so any count may use them.
- ``exhibition_validity(cards)``: the calculator's pure check with reason codes
  ("empty", "unknown-letter", "too-few-cards", "gap").

Parameters because the source is silent (``AdelGame``): an optional upper bound on the player count
(none by default: the material is made per player, so the bound is the engine's, not a rule),
collection cards per letter, what "oldest object" means (the engine: the lowest card number; cards
are numbered letter by letter), cheque values and ties of the highest cheque, thief cards per player
and their loot-sack numbers, the scoring fields, how pawns on the same space rank for the detective
(shared place), the setup (no starting collection), how the game ends (a pawn at ``goal`` or
``max_rounds``) and who wins (the furthest pawn, ties share), the first place of the confrontation
variant, and what a player with no card allowed at the announced place does in that variant
(passes).

Not modelled: hidden information as information sets (the state is omniscient; hidden choices are
just not revealed in the log until everyone has chosen), and anything the source does not describe
(end-of-game money or penalty rules, the real card texts and values).
"""
from .cards import CollectionCard, Cheque, Location, Thief
from .exhibitions import exhibition_validity
from .game import (
    AdelGame, AdelState, ChooseBoth, ChooseLocation, ExhibitCard, ExhibitionViolation,
    FinishExhibition, Pass, PlayCard, Steal, TakeCard, check_invariants,
)

__all__ = [
    "AdelGame", "AdelState", "ChooseBoth", "ChooseLocation", "Cheque", "CollectionCard", "ExhibitCard",
    "ExhibitionViolation", "FinishExhibition", "Location", "Pass", "PlayCard", "Steal", "TakeCard", "Thief",
    "check_invariants", "exhibition_validity", "STATE",
]

STATE = AdelState
