"""The rules of Adel Verpflichtet as named and cited objects.

The source is a German rules explanation without page numbers, so every citation names the section
("Regelerklärung · Phase 3 · Diebe"). Rule names are the German terms of the source.
"""
from __future__ import annotations

from ..base import Rule


def _cite(section: str) -> str:
    return f"Regelerklärung · {section}"


ROUND_STRUCTURE = Rule("Rundenaufbau", _cite("Der Rundenaufbau"))
SIMULTANEOUS_CHOICE = Rule("Verdeckte Wahl", _cite("Phase 1 und Phase 2"))
CHOOSE_LOCATION = Rule("Ort wählen", _cite("Phase 1"))
CHOOSE_ACTION = Rule("Handlung wählen", _cite("Phase 2"))
DETECTIVE_CASTLE_ONLY = Rule("Detektiv nur im Schloss", _cite("Phase 2"))
EXHIBITION_CARD = Rule("Ausstellungskarte", _cite("Phase 2"))
EXHIBITION = Rule("Ausstellung", _cite("Was eine Ausstellung ist"))
ONE_EXHIBITION = Rule("Eine Ausstellung pro Person und Runde", _cite("Phase 4 · Ausstellungen"))
AUCTION_CHEQUES = Rule("Schecks", _cite("Phase 3 · Schecks"))
AUCTION_THIEVES = Rule("Diebe im Auktionshaus", _cite("Phase 3 · Diebe"))
EXHIBITION_RANKING = Rule("Wertvollste Ausstellung", _cite("Phase 4 · Ausstellungen"))
ADVANCE = Rule("Figuren vorrücken", _cite("Phase 4 · Figuren vorrücken"))
CASTLE_THIEVES = Rule("Diebe im Schloss", _cite("Phase 4 · Diebe im Schloss"))
DETECTIVES = Rule("Detektive", _cite("Phase 4 · Detektive"))
PRISON = Rule("Gefängnis", _cite("Phase 4 · Gefängnis"))
ROUND_END = Rule("Rundenende", _cite("Rundenende"))
AUCTION_CLOSED = Rule("Auktionshaus geschlossen", _cite("Rundenende"))
SURPRISE = Rule("Überraschungsvariante", _cite("Spiel zu zweit"))
CONFRONTATION = Rule("Konfrontationsvariante", _cite("Spiel zu zweit"))
GAME_OVER = Rule("Spielende und Sieg", "Quelle schweigt · Parameter goal und max_rounds")
# The source only lists the cards allowed at each place; that a player with none of them may not
# choose the place is the engine's reading, so it is cited as one.
NO_CARD_FOR_PLACE = Rule("Auktionshaus ohne passende Karte", "Quelle schweigt · Lesart: Auktionshaus nur mit Scheck oder Dieb")
