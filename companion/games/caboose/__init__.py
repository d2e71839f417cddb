"""The Caboose design (Loose Caboose, Rollecate, LOK'n'ROLL) as a game package.

Its `Game` (companion/games/protocol.py) is `GAME` in `game.py`, not here: every module of
the package imports this file first, so it stays empty of imports.
"""
