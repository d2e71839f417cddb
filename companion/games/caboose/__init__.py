"""The Caboose design (Loose Caboose, Rollecate, LOK'n'ROLL) as a game package; where its
rulebooks are silent or ambiguous, the rulings of docs/RULINGS.md (R-1…) stand.

Its `Game` (companion/games/protocol.py) is `GAME` in `game.py`, not here: every module of
the package imports this file first, so it stays empty of imports.
"""
