"""Following a real table through the camera, pure: a still view of the board compared with
the game.

Everything of this game lies in plain sight (the panels, every train and which way it
faces, the dice), so the camera can check the whole table at every step: before the dice
the board must be the game's position; once the dice are read, the board is compared with
the position each legal move leads to, and the move it shows is the one CONFIRM takes. A
board that is the position before the move, or that with only the panel slid, is a move
under way; anything else is what no legal move explains, which the page shows (and the
buzzer sounds when CONFIRM is pressed on it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.games.said import Said
from companion.games.switching.board import Layout
from companion.games.switching.rules import Move, Outcome, Position, Slid

TrainSeen = tuple[str, str, int | None]  # (space, owner's colour, facing; None: not read)


@dataclass(frozen=True)
class BoardSeen:
    """The board as it lay still: where each panel lies (`Board.panels` order) and every
    train on a space."""

    layout: Layout
    trains: frozenset[TrainSeen]


@dataclass(frozen=True)
class Reading:
    """What a still board says: `same`, it is the game's position; `outcome`, the legal
    move it shows (the move phase); else `differs` says what does not agree, or which
    moves it shows alike."""

    same: bool = False
    outcome: Outcome | None = None
    differs: Said | None = None


def agrees(position: Position, seen: BoardSeen) -> bool:
    """The board shows `position`: every panel where it lies and every train on its space,
    its owner's, facing as the position has it (where the camera read the facing)."""
    if tuple(seen.layout) != tuple(position.layout) or len(seen.trains) != len(position.trains):
        return False
    wanted = {(t.space, t.owner): t.facing for t in position.trains}
    return all(
        (space, owner) in wanted and facing in (None, wanted[(space, owner)])
        for space, owner, facing in seen.trains
    )


def difference(position: Position, seen: BoardSeen, names: Sequence[str]) -> Said:
    """What the board shows that `position` does not, in words: the first panel out of its
    slot, else the trains missing and those too many."""
    board = position.board
    for panel, lie, seen_lie in zip(board.panels, position.layout, seen.layout, strict=True):
        if lie != seen_lie:
            where = f"{lie.slot}{' turned' if lie.turned else ''}"
            return Said(
                "panel_elsewhere", f"the {panel.colour} panel should lie in {where}",
                (("panel", panel.colour), ("slot", lie.slot), ("turned", lie.turned)),
            )  # fmt: skip
    name = dict(zip(position.players, names, strict=True))
    wanted = {(t.space, t.owner) for t in position.trains}
    there = {(space, owner) for space, owner, _ in seen.trains}
    missing = sorted(wanted - there)
    extra = sorted(there - wanted)
    if missing:
        space, owner = missing[0]
        return Said(
            "train_missing", f"{name[owner]}'s {owner} train should stand on {space}",
            (("name", name[owner]), ("colour", owner), ("space", space)),
        )  # fmt: skip
    if extra:
        space, owner = extra[0]
        return Said(
            "train_extra", f"a {owner} train stands on {space}, where the game has none",
            (("colour", owner), ("space", space)),
        )  # fmt: skip
    space = next(t.space for t in position.trains if (t.space, t.owner) in there)
    return Said(
        "train_facing", f"the train on {space} faces the wrong way: turn it towards Finish",
        (("space", space),),
    )  # fmt: skip


def compare(
    position: Position,
    slid: Position | None,
    moves: Sequence[Outcome],
    seen: BoardSeen,
    names: Sequence[str],
) -> Reading:
    """A still board against the game: the position itself, one of the `moves`' outcomes
    (the dice are read), or, short of those, the position with only the panel slid (`slid`:
    the move under way). Anything else is said as it differs from the position the table
    moves from: the slid one once the dice are read."""
    if agrees(position, seen) or (slid is not None and agrees(slid, seen)):
        return Reading(same=True)
    reading = shows(moves, seen)
    if reading.outcome is not None or reading.differs is not None:
        return reading
    return Reading(differs=difference(position if slid is None else slid, seen, names))


def shows(moves: Sequence[Outcome], seen: BoardSeen) -> Reading:
    """The move a still board shows among `moves`' outcomes (a Move's: no move is PASS's
    button), or which moves it shows alike that leave different games; an empty Reading
    when it shows none. Also asked when CONFIRM is pressed on the board as it was, since a
    move may leave it so (a train entered runs off the track and starts over, S-14)."""
    shown = [o for o in moves if isinstance(o.action, Move) and agrees(o.position, seen)]
    # moves that end in the same game are one move to the table: the first is taken
    if shown and all(o.position == shown[0].position for o in shown):
        return Reading(outcome=shown[0])
    if shown:  # told apart off the board: a train run into Finish (S-12) or bumped into
        return Reading(differs=alike(shown))  # it and started over (S-13)
    return Reading()


def alike(shown: Sequence[Outcome]) -> Said:
    """Moves the board shows alike that leave different games (where a train went off
    the board is not on it): no move is taken, the players say which on the page."""
    origins = ", ".join(sorted({o.action.train for o in shown if isinstance(o.action, Move)}))
    return Said(
        "moves_alike", f"the board looks the same after the moves from {origins}: tap the "
        "one played on the page", (("moves", origins),),
    )  # fmt: skip


def slide_only(position: Position, moves: Sequence[Outcome]) -> Position | None:
    """The position with only the roll's panel slid and its riders turned (S-7), as the
    table shows it between the slide and the move; None before the dice are read."""
    if not moves:
        return None
    slide = next((e for e in moves[0].events if isinstance(e, Slid)), None)
    if slide is None:  # the colour die's panel stayed (S-6): nothing slides
        return None
    turned = set(slide.turned)
    trains = tuple(
        replace(t, facing=-t.facing) if t.space in turned else t for t in position.trains
    )
    return replace(position, layout=moves[0].position.layout, trains=trains)
