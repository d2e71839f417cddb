"""What the page shows of a game of the switching-track board game, computed from one
`Snapshot`: plain JSON in the page's language, no rules in the page's script.

The questions that start arguments at a family table are answered here from the rules' own
outcomes: where the panel of the colour die went and which riders turned round, every legal
move for the roll with where each train of its bump chain ends, who starts over and why, who
reaches Finish, who takes a repair tile. The board comes as geometry in mm (every space's
centre as the panels lie now, the track as it joins through them, slots, panels, dead
ends), so the page draws it as it lies without knowing how a panel turns.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from companion.games.switching import rules
from companion.games.switching.board import DEAD_END, FINISH, START, Board, Layout, network
from companion.games.switching.record import GAME_ID
from companion.games.switching.rules import (
    Bumped,
    Event,
    Finished,
    MayRollAgain,
    Move,
    Moved,
    Outcome,
    Pass,
    Position,
    RepairPlayed,
    RepairTaken,
    Slid,
    StartedOver,
    Stayed,
    TurnLost,
    Won,
)
from companion.games.switching.snapshot import Snapshot
from companion.games.switching.words import TEXT, say

# How far past a chain's last space its dead end is drawn, as a share of the chain's step.
_DEAD_END_REACH = 0.6
# The fates of a train at the end of its run, as the page marks them (`end` of a step).
STOPS, STARTED_OVER, FINISHED = "stops", "started_over", "finished"


def colour(lang: str, name: str) -> str:
    """A train's or a panel's colour in words."""
    return TEXT[lang][f"colour_{name}"]


# --- the board ---------------------------------------------------------------------------


def _dead_ends(board: Board, layout: Layout) -> list[dict[str, Any]]:
    """Where each dead end is drawn: just past its chain's end space, along the chain."""
    ends = []
    for chain in board.chains.values():
        for end, space, way in (
            (chain.back, chain.spaces[0], -1),
            (chain.front, chain.spaces[-1], 1),
        ):
            if end != DEAD_END:
                continue
            x, y = board.centre(space, layout)
            dx, dy = board.heading(space, layout)
            step = _step_length(board, chain.spaces, layout)
            reach = way * step * _DEAD_END_REACH
            ends.append({"space": space, "x": x + dx * reach, "y": y + dy * reach})
    return ends


def _step_length(board: Board, spaces: Sequence[str], layout: Layout) -> float:
    """The distance between a chain's neighbouring spaces (the board's median when the chain
    has one space)."""
    if len(spaces) > 1:
        (x0, y0), (x1, y1) = board.centre(spaces[0], layout), board.centre(spaces[1], layout)
        return math.hypot(x1 - x0, y1 - y0)
    return min(board.size) / 20


def board_view(board: Board, layout: Layout) -> dict[str, Any]:
    """The board as it lies with the panels as `layout` says: every space's centre on the
    board (a panel's spaces where their panel lies now), the track as it joins now (pairs
    of neighbouring spaces, through the panels), the slots (the empty one marked), each
    panel's rectangle and way round, and the dead ends."""
    lies = dict(zip((p.colour for p in board.panels), layout, strict=True))
    taken = {lie.slot for lie in layout}
    spaces = []
    for space in board.spaces.values():
        x, y = board.centre(space.id, layout)
        kind = {START: "start", FINISH: "finish"}.get(space.kind, "track")
        spaces.append({"id": space.id, "x": x, "y": y, "kind": kind, "panel": space.panel})
    return {
        "id": board.id,
        "name": board.name,
        "ours": board.ours,
        "size": list(board.size),
        "spaces": spaces,
        "links": [list(pair) for pair in network(board, layout).links],
        "dead_ends": _dead_ends(board, layout),
        "slots": [
            {
                "id": s.id,
                "x": s.x,
                "y": s.y,
                "w": s.width,
                "h": s.height,
                "empty": s.id not in taken,
            }
            for s in board.slots.values()
        ],
        "panels": [
            {
                "colour": colour_,
                "slot": lie.slot,
                "turned": lie.turned,
                "x": board.slots[lie.slot].x,
                "y": board.slots[lie.slot].y,
                "w": board.slots[lie.slot].width,
                "h": board.slots[lie.slot].height,
            }
            for colour_, lie in lies.items()
        ],
    }


def trains(position: Position, layout: Layout, turned: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every train on the board: whose, where, and the angle it points on the board
    (degrees, x right, y down), from its facing along the track as `layout` lies; a train
    whose space is in `turned` has just turned round riding a slid panel (S-7)."""
    found = []
    for train in position.trains:
        facing = -train.facing if train.space in turned else train.facing
        dx, dy = position.board.heading(train.space, layout)
        angle = math.degrees(math.atan2(dy * facing, dx * facing))
        found.append(
            {
                "colour": train.owner,
                "seat": position.players.index(train.owner),
                "space": train.space,
                "facing": facing,
                "angle": round(angle, 1),
            }
        )
    return found


# --- where things are, as a player finds them --------------------------------------------


def place(board: Board, space: str, lang: str) -> str:
    """A space as a player finds it on the board, never by its id ("o3", "G2"): a panel's
    space by the panel's colour, a fixed track's by the Start or Finish at its end and the
    side of the board that end is on ("the left Start track", "the top Finish")."""
    found = board.spaces.get(space)
    if found is None:
        return say(lang, "place_track")
    if found.panel is not None:
        return say(lang, "place_panel", panel=colour(lang, found.panel))
    chain = board.chains[found.chain]
    if chain.back == START:
        end, key = chain.spaces[0], "place_start"
    elif chain.front == FINISH:
        end, key = chain.spaces[-1], "place_finish"
    else:
        return say(lang, "place_track")
    if found.kind not in (START, FINISH):
        key += "_track"
    return say(lang, key, side=say(lang, f"side_{_side(board, board.spaces[end].at)}"))


def _side(board: Board, at: tuple[float, float]) -> str:
    """The edge of the board a point is nearest to, as the page draws it (top up)."""
    dx, dy = at[0] - board.size[0] / 2, at[1] - board.size[1] / 2
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "bottom" if dy > 0 else "top"


def slot_words(slot: str, lang: str) -> str:
    """A slot of the board's middle by where it lies ("the top left slot"); a board's own
    slot id when the words have none for it."""
    key = f"slot_{slot}"
    return say(lang, key) if key in TEXT[lang] else slot


def said_words(board: Board, said: dict[str, Any], lang: str) -> str:
    """What the referee or the camera says (`Said.as_json`) in `lang`, as the page's
    `said` would (`session_<key>`, `refusal_<key>`, else its English), the spaces, slots
    and colours it names in words."""
    params: dict[str, Any] = {"message": said["text"]}
    for name, value in said["params"].items():
        if name in ("space", "origin") and isinstance(value, str):
            value = place(board, value, lang)
        elif name == "moves" and isinstance(value, str):
            value = ", ".join(place(board, space, lang) for space in value.split(", "))
        elif name == "slot" and isinstance(value, str):
            value = slot_words(value, lang)
        elif name in ("panel", "colour") and isinstance(value, str):
            value = colour(lang, value)
        params[name] = value
    for key in (f"session_{said['key']}", f"refusal_{said['key']}"):
        if key in TEXT[lang]:
            return say(lang, key, **params)
    return said["text"]


# --- the roll and its moves --------------------------------------------------------------


def _slide_events(events: Sequence[Event]) -> list[Event]:
    """The events of a turn before its train moves: the repair tile, the panel's slide."""
    return [e for e in events if isinstance(e, (RepairPlayed, Slid, Stayed))]


def slide_text(snap: Snapshot, events: Sequence[Event], lang: str) -> str:
    """What the roll did to the panels, in words: the panel slid from which slot into
    which, the riders that turned round to face Finish (S-7), or the panel that stays
    because it is not next to the empty slot (S-6); a repair tile played first (S-20)."""
    said = []
    for event in _slide_events(events):
        if isinstance(event, RepairPlayed):
            said.append(say(lang, "slide_repair", name=snap.name(event.player)))
        elif isinstance(event, Slid):
            said.append(say(lang, "slide_slid", panel=colour(lang, event.panel),
                            origin=slot_words(event.origin, lang),
                            slot=slot_words(event.slot, lang)))  # fmt: skip
            if event.turned:
                said.append(say(lang, "slide_turned", n=len(event.turned)))
        elif isinstance(event, Stayed):
            said.append(say(lang, "slide_stayed", panel=colour(lang, event.panel)))
    return " ".join(said)


def _fate(board: Board, event: StartedOver | Finished, lang: str) -> tuple[str, str]:
    """A train's run ending otherwise than by the count: its mark and its words."""
    train = colour(lang, event.player)
    if isinstance(event, Finished):
        return FINISHED, say(
            lang, "fate_finished", train=train, space=place(board, event.space, lang)
        )
    reason = {DEAD_END: "dead_end", FINISH: "finish"}.get(event.reason, "off_track")
    where = place(board, event.origin, lang)
    return STARTED_OVER, say(lang, f"fate_{reason}", train=train, space=where)


def _mover_words(board: Board, events: Sequence[Event], i: int, lang: str) -> str:
    """A train of the chain coming to rest (`events[i]`), in words: the mover entered at a
    Start or moved from its space (or stayed, the train right ahead taking the count), or
    a train bumped from where it stood to where it stopped. Nothing for a mover that ran
    off at once, where it stood: the words of its fate say it all."""
    event = events[i]
    assert isinstance(event, (Moved, Bumped))
    after = events[i + 1] if i + 1 < len(events) else None
    ran_off = isinstance(after, StartedOver) and after.origin == event.origin
    if isinstance(event, Moved) and not event.entered and not event.path and ran_off:
        return ""
    if isinstance(event, Bumped):
        key = "step_bumped"
    elif event.entered:
        key = "step_entered" if event.path else "step_entered_stays"
    else:
        key = "step_moved" if event.path else "step_stays"
    return _run_words(board, key, event, lang)


def _run_words(board: Board, key: str, event: Moved | Bumped, lang: str) -> str:
    """A train's run said with its count of spaces, from where to where it stopped, or
    along one place (a track, a panel) when it stays on it."""
    origin, to = place(board, event.origin, lang), place(board, event.to, lang)
    if origin == to and f"{key}_along" in TEXT[lang]:
        key += "_along"
    train = colour(lang, event.player)
    return say(lang, key, train=train, n=len(event.path), origin=origin, to=to)


def steps(board: Board, events: Sequence[Event], lang: str) -> list[dict[str, Any]]:
    """A move's bump chain step by step: the mover, then each train it pushed, each with
    the spaces it went along (`path`, from where it stood), where it stopped (None when it
    started over or finished) and how its run ended; a train pushed that did not move
    (S-10) is no step unless it was pushed off the board."""
    found: list[dict[str, Any]] = []
    for i, event in enumerate(events):
        if isinstance(event, (Moved, Bumped)):
            found.append({"colour": event.player, "from": event.origin, "to": event.to,
                          "path": [event.origin, *event.path], "end": STOPS,
                          "text": _mover_words(board, events, i, lang)})  # fmt: skip
        elif isinstance(event, (StartedOver, Finished)):
            at = event.origin if isinstance(event, StartedOver) else event.space
            end, words = _fate(board, event, lang)
            last = found[-1] if found and found[-1]["to"] == at else None
            if last is None:  # pushed off where it stood, without a space to go
                last = {"colour": event.player, "from": at, "path": [at], "text": ""}
                found.append(last)
            last["to"] = None
            last["end"] = end
            last["text"] = f"{last['text']}, {words}" if last["text"] else words
    return found


def move_text(snap: Snapshot, outcome: Outcome, lang: str) -> str:
    """A legal move's whole outcome in one sentence: the mover from where to where, each
    train it bumps and where to, who starts over or reaches Finish, a repair tile taken,
    the re-roll doubles allow, the win."""
    board = snap.position.board
    parts: list[str] = []
    for i, event in enumerate(outcome.events):
        if isinstance(event, Moved):
            parts.append(_mover_words(board, outcome.events, i, lang))
        elif isinstance(event, Bumped):
            parts.append(_run_words(board, "move_bumps", event, lang))
        elif isinstance(event, (StartedOver, Finished)):
            parts.append(_fate(board, event, lang)[1])
        elif isinstance(event, RepairTaken):
            parts.append(say(lang, "move_repair_taken", name=snap.name(event.player)))
        elif isinstance(event, MayRollAgain):
            parts.append(say(lang, "move_may_roll_again", name=snap.name(event.player)))
        elif isinstance(event, Won):
            parts.append(say(lang, "move_won", name=snap.name(event.player)))
        elif isinstance(event, TurnLost):
            parts.append(say(lang, "move_turn_lost", name=snap.name(event.player)))
    return ", ".join(part for part in parts if part)


def moves(snap: Snapshot, lang: str) -> list[dict[str, Any]]:
    """Every legal move for the roll taken, each with what the page posts to play it
    (`body`), its whole outcome in words and its bump chain step by step. A `Pass` (no
    train can move or enter, S-17) is no move: the page offers PASS instead."""
    found = []
    for outcome in snap.moves:
        if not isinstance(outcome.action, Move):
            continue
        space = outcome.action.train
        found.append(
            {
                "id": space,
                "body": {"from": space},
                "colour": snap.position.players[snap.position.turn],
                "text": move_text(snap, outcome, lang),
                "steps": steps(snap.position.board, outcome.events, lang),
            }
        )
    return found


def last_move(snap: Snapshot, lang: str) -> dict[str, Any] | None:
    """The move played last, its trains' runs step by step as the page draws them on the
    board (arrows), while the board still lies as it left it: None once the next roll has
    slid a panel, or when the last turn was no move."""
    if snap.roll is not None or not snap.history:
        return None
    played = snap.history[-1]
    if not isinstance(played.action, Move):
        return None
    before = snap.history[-2].position if len(snap.history) > 1 else snap.start
    return {
        "id": played.action.train,
        "colour": before.players[before.turn],
        "steps": steps(snap.position.board, played.events, lang),
    }


def roll_view(snap: Snapshot) -> dict[str, Any] | None:
    """The roll taken, as thrown: the colour die (None when a repair tile moved `repair`
    instead, S-20), the two number dice, their sum (S-3) and doubles (S-4)."""
    roll = snap.roll
    if roll is None:
        return None
    return {"colour": roll.colour, "dice": [roll.white, roll.black], "total": roll.total,
            "doubles": roll.doubles, "repair": snap.repair}  # fmt: skip


def repair_options(snap: Snapshot) -> list[str]:
    """The panels a repair tile may slide instead of the colour die (S-20: one next to the
    empty slot), when the mover holds a tile and the dice are not thrown yet."""
    position = snap.position
    if snap.phase != "roll" or not position.variant.repair_tiles:
        return []
    if position.repairs[position.turn] < 1:
        return []
    return list(rules.slidable(position))


# --- the players, the end, the log -------------------------------------------------------


def players(snap: Snapshot) -> list[dict[str, Any]]:
    """Each player by seat: their train colour, trains in the depot (at Finish), on the
    board and waiting to start (never started or started over, S-22), repair tiles held (a
    tile played for the roll taken is back on the pile already, S-20)."""
    position = snap.position
    played = [
        int(snap.repair is not None and seat == position.turn)
        for seat in range(len(position.players))
    ]
    return [
        {
            "seat": seat,
            "name": snap.names[seat],
            "colour": colour_,
            "to_move": position.to_move == colour_,
            "depot": position.depots[seat],
            "on_board": len(position.on_board(colour_)),
            "waiting": position.supply(colour_),
            "repair": position.repairs[seat] - played[seat],
        }
        for seat, colour_ in enumerate(position.players)
    ]


def ranking(snap: Snapshot) -> list[dict[str, Any]] | None:
    """Once someone has won (S-18, S-21): the winner first, then the others by trains in
    their depot, ties sharing a place (the rulebook ranks no one else)."""
    position = snap.position
    if not position.over:
        return None
    order = sorted(
        range(len(position.players)),
        key=lambda seat: (position.players[seat] != position.winner, -position.depots[seat]),
    )
    rows: list[dict[str, Any]] = []
    for seat in order:
        depot = position.depots[seat]
        tied = rows and rows[-1]["depot"] == depot and position.players[seat] != position.winner
        place = rows[-1]["place"] if tied else len(rows) + 1
        rows.append({"place": place, "seat": seat, "name": snap.names[seat], "depot": depot})
    return rows


def _roll_words(lang: str, roll: rules.Roll, repair: str | None) -> str:
    if repair is not None:
        return say(lang, "log_roll_repair", panel=colour(lang, repair), white=roll.white,
                   black=roll.black)  # fmt: skip
    return say(lang, "log_roll_dice", colour=colour(lang, str(roll.colour)), white=roll.white,
               black=roll.black)  # fmt: skip


def log(snap: Snapshot, lang: str) -> list[dict[str, Any]]:
    """The game told step by step, newest first, in `lang`: each roll, then its move (the
    same sentence as the move had in the list) or the turn lost, a re-roll declined; a step
    taken back stands where it was taken, marked a correction. Lines are numbered by the
    record's turns, as `companion replay` and the demo count them: a roll and its move are
    one turn."""
    story: list[tuple[int, str, dict[str, Any], bool]] = []  # (step, key, params, correction)
    step = 0
    position = snap.start
    for played in snap.history:
        name = snap.name(position.players[position.turn])
        if isinstance(played.action, (Move, Pass)):
            step += 1
            roll = _roll_words(lang, played.action.roll, played.action.repair)
            story.append((step, "log_roll", {"name": name, "roll": roll}, False))
            step += 1
            text = move_text(snap, Outcome(played.action, played.position, played.events), lang)
            slid = slide_text(snap, played.events, lang)
            story.append((step, "log_move", {"name": name, "slide": slid, "move": text}, False))
        else:
            step += 1
            story.append((step, "log_stop", {"name": name}, False))
        position = played.position
    if snap.roll is not None:
        name = snap.name(position.players[position.turn])
        roll = _roll_words(lang, snap.roll, snap.repair)
        story.append((step + 1, "log_roll", {"name": name, "roll": roll}, False))
    for taken, key, params in snap.undone:
        if key == "roll":  # the dice said in the page's words, as a roll the log keeps is
            roll = rules.Roll(params["colour"], params["white"], params["black"])
            params = {"player": params["player"], "roll": _roll_words(lang, roll, params["repair"])}
        elif key == "move":  # the train by where it stood, as a player finds it
            params = params | {"from": place(snap.position.board, params["from"], lang)}
        at = next((i for i, line in enumerate(story) if line[0] >= taken), len(story))
        story.insert(at, (taken, f"log_undone_{key}", params, True))
    # The winning move's line says who wins (S-18): the end needs no line of its own.
    lines = [
        {"turn": (turn := turn_of_step(snap, at)), "text": say(lang, key, n=turn, **params),
         "correction": correction}
        for at, key, params, correction in story
    ]  # fmt: skip
    lines.reverse()
    return lines


def turn_of_step(snap: Snapshot, step: int) -> int:
    """The record's turn a step belongs to (`Snapshot.turn` counts steps: each roll and
    each action one; a turn is a roll and its action, or a re-roll declined). A step taken
    back belongs to the turn played again after it, whose steps before it are the same."""
    ended = 0
    for turn, played in enumerate(snap.history, 1):
        ended += 1 if isinstance(played.action, rules.Stop) else 2
        if ended >= step:
            return turn
    return len(snap.history) + 1


def build(snap: Snapshot, lang: str = "en", *, light: bool = False) -> dict[str, Any]:
    """The whole page's data. `light` leaves out what may be tapped (the moves, the roll
    to type in, undo): a record's frame being watched."""
    position = snap.position
    layout, turned, slide = position.layout, (), None
    if snap.moves:
        # The roll is taken: the panel has slid already at the table (every outcome has
        # the same slide), the trains on it riding along, turned to face Finish (S-7).
        first = snap.moves[0]
        layout = first.position.layout
        slid = next((e for e in first.events if isinstance(e, Slid)), None)
        turned = slid.turned if slid is not None else ()
        slide = slide_text(snap, first.events, lang)
    passing = any(isinstance(o.action, Pass) for o in snap.moves)
    return {
        "game": GAME_ID,
        "game_kind": GAME_ID,
        "over": position.over,
        "turn": snap.turn,
        "variant": snap.variant,
        "short": position.variant.to_win < rules.TRAINS,
        "to_win": position.variant.to_win,
        "repair": position.variant.repair_tiles,
        "board": board_view(position.board, layout),
        "players": players(snap),
        "trains": trains(position, layout, turned),
        "to_move": None if position.over else position.turn,
        "phase": snap.phase,
        "roll": roll_view(snap),
        "slide": slide,
        "moves": [] if light else moves(snap, lang),
        "last_move": last_move(snap, lang),
        "no_move": passing,
        "may_pass": not light and (passing or snap.phase == "reroll"),
        "reroll": None
        if position.reroll is None
        else {
            "train": position.reroll.train,
            "place": None
            if position.reroll.train is None
            else place(position.board, position.reroll.train, lang),
        },
        "repair_options": [] if light else repair_options(snap),
        "undo": {"possible": not light and (bool(snap.history) or snap.roll is not None)},
        "winner": None if position.winner is None else snap.name(position.winner),
        "ranking": ranking(snap),
        "log": log(snap, lang),
    }
