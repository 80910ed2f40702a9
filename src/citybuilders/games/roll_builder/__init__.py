"""Roll Builder: a roll-and-write city builder (15 turns, two shared dice, hex city sheets)."""
