"""Yardmaster Express (../shared/rules/yardmaster-express-en.txt, rulings Y-1…Y-13 in
RULINGS-yardmaster.md): each player builds a train of railcar cards behind an engine,
drafting from one hand passed round the table; trains score their values, the longest cargo
run and, optionally, a caboose card's condition.

So far the rules alone (`cards`, `edition`, `rules`): pure functions and one frozen state,
not yet a `Game` of the registry (no record, camera or page yet).
"""
