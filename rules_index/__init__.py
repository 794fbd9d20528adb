"""Rules index: content, search, rule engines and web layer of the board-game rules service."""
