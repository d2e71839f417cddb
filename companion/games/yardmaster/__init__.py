"""Yardmaster Express (../shared/rules/yardmaster-express-en.txt, rulings Y-1…Y-13 in
RULINGS-yardmaster.md): each player builds a train of railcar cards behind an engine,
drafting from one hand passed round the table; trains score their values, the longest cargo
run and, optionally, a caboose card's condition.

So far: the rules (`cards`, `edition`, `rules`: pure functions and one frozen state), the
record (`record`: yardmaster-record/1 read, checked and replayed), and bots (`bots`,
`simulate`). Not yet a `Game` of the registry: the command line, camera, page and demo are
still to come (issue 13).
"""
