"""A game of the switching-track board game being played at the table: the one object the
shared writer (`companion.table.Table`) drives for it (`companion.games.protocol.Match`).

The match keeps the game as the store does, on the skeleton every game shares
(companion/games/match.py): how it was set up, then a journal of steps (a roll, a move, a
turn passed, a step taken back). Each step is checked by the rules before
anything is journaled (a refusal changes nothing); the game at any instant is a
`Snapshot` (snapshot.py), which the view draws. The pure functions below (`thrown`,
`played`, `passed`, `undone`) are what both a command and the journal's fold go through,
so a game resumed after a restart is the game that was being played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games import match as base
from companion.games.protocol import RecordProblem, Refusal, Setting, Start
from companion.games.said import Said
from companion.games.switching import rules, view
from companion.games.switching.board import BOARDS, PANEL_COLOURS, Board, BoardError, parse, taught
from companion.games.switching.board import load as load_board
from companion.games.switching.commands import PassTurn, Play, Press, Seen, Throw, Undo
from companion.games.switching.follow import BoardSeen, Reading, compare, shows, slide_only
from companion.games.switching.record import GAME_ID, from_json, replay, to_json, variant_id
from companion.games.switching.rules import Move, Outcome, Pass, Roll, Stop
from companion.games.switching.snapshot import Played, Snapshot
from companion.store import Store

# The kinds of the journal's entries of its own (`Store.append`; the setting, how the table
# plays it, and the undo are every game's, companion/games/match.py): the panels' way round
# as the camera saw them set up (S-5), the dice read, a move, a turn passed (or a re-roll
# declined).
SETUP, ROLL, MOVE, PASS = "setup", "roll", "move", "pass"


# --- the steps, pure -------------------------------------------------------------------------


def thrown(
    snap: Snapshot, colour: str | None, dice: tuple[int, int], repair: str | None = None
) -> Snapshot:
    """The game with the dice read: the colour die's `colour` (or a repair tile sliding
    `repair` instead, S-20) and the two number dice; every legal move for them is then
    known. A `Refusal` when the roll cannot be (a colour that is no panel's, the game
    over, a roll already waiting for its move)."""
    if snap.roll is not None:
        raise Refusal(
            "turn", f"the dice are read already ({_said_roll(snap.roll, snap.repair)}): move "
            "a train, or take the roll back to read it again", key="rolled_already",
            conflict=True,
        )  # fmt: skip
    for panel in (colour, repair):
        if panel is not None and panel not in PANEL_COLOURS:
            raise Refusal(
                "S-3", f"{panel!r} is no panel's colour: the panels are "
                f"{', '.join(PANEL_COLOURS)}", key="not_a_panel", params={"panel": panel},
            )  # fmt: skip
    after = replace(snap, roll=Roll(None if repair else colour, *dice), repair=repair)
    after.moves  # noqa: B018 - the rules check the roll (S-3, S-18…S-20) as they list its moves
    return after


def played(snap: Snapshot, space: str) -> Snapshot:
    """The game after the mover's train on `space` moved (or a train entered at the Start
    `space`) for the roll read; a `Refusal` naming the rule when that is no legal move."""
    roll = _rolled(snap)
    outcome = next(
        (o for o in snap.moves if isinstance(o.action, Move) and o.action.train == space), None
    )
    if outcome is None:
        rules.apply(snap.position, Move(roll, space, snap.repair))  # raises: says which rule
        raise AssertionError(f"{space} is legal to the rules but not among the legal moves")
    return _after(snap, Played(outcome.action, outcome.events, outcome.position))


def passed(snap: Snapshot) -> Snapshot:
    """The turn passed: lost, when the roll read allows no move (S-17), or the doubles'
    re-roll declined (S-16); a `Refusal` when neither is the case."""
    if snap.roll is not None:
        action: Pass | Stop = Pass(snap.roll, snap.repair)
    elif snap.position.reroll is not None:
        action = Stop()
    else:
        raise Refusal(
            "turn", "roll the dice first: a turn is passed only when its roll allows no move",
            key="roll_first",
        )  # fmt: skip
    position, events = rules.apply(snap.position, action)
    return _after(snap, Played(action, events, position))


def undone(snap: Snapshot) -> Snapshot:
    """The game with its last step taken back: a roll waiting for its move, or else the
    last action (which leaves its roll waiting again). The log keeps what was taken back."""
    if snap.roll is not None:
        mover = snap.position.to_move
        roll = snap.roll
        taken = (snap.turn, "roll", {"player": snap.name(mover) if mover else "",
                                     "colour": roll.colour, "repair": snap.repair,
                                     "white": roll.white, "black": roll.black})  # fmt: skip
        return replace(snap, roll=None, repair=None, undone=(*snap.undone, taken))
    if not snap.history:
        raise Refusal("undo", "nothing has been played yet: nothing to take back",
                      key="nothing_to_undo")  # fmt: skip
    last = snap.history[-1]
    before = replace(snap, history=snap.history[:-1])
    player = before.name(before.position.players[before.position.turn])
    if isinstance(last.action, Stop):
        taken = (snap.turn, "stop", {"player": player})
        return replace(before, undone=(*snap.undone, taken))
    if isinstance(last.action, Pass):
        taken = (snap.turn, "pass", {"player": player})
    else:
        taken = (snap.turn, "move", {"player": player, "from": last.action.train})
    return replace(
        before, roll=last.action.roll, repair=last.action.repair, undone=(*snap.undone, taken)
    )


def set_up(snap: Snapshot, seen: BoardSeen) -> Snapshot | None:
    """Before the first roll, the game set up as the board shows it: a panel may lie either
    way round in its home slot (S-5), which only the table says. None when the board shows
    no other setup (or the game has begun)."""
    home = [lie.slot for lie in snap.start.layout]
    if snap.turn or seen.trains or [lie.slot for lie in seen.layout] != home:
        return None
    if tuple(seen.layout) == tuple(snap.start.layout):
        return None
    return _with_turned(snap, [p.colour for p, lie in zip(snap.board.panels, seen.layout,
                                                          strict=True) if lie.turned])  # fmt: skip


def _with_turned(snap: Snapshot, turned: list[str]) -> Snapshot:
    start = snap.start
    return replace(snap, start=rules.deal(start.board, start.players, start.variant, turned))


def _turned(snap: Snapshot) -> list[str]:
    """The panels lying turned round at the start (S-5)."""
    layout = snap.start.layout
    return [p.colour for p, lie in zip(snap.board.panels, layout, strict=True) if lie.turned]


def _rolled(snap: Snapshot) -> Roll:
    if snap.roll is None:
        raise Refusal(
            "turn", "roll the dice first: the move is counted from the number dice",
            key="roll_first",
        )  # fmt: skip
    return snap.roll


def _after(snap: Snapshot, step: Played) -> Snapshot:
    return replace(snap, history=(*snap.history, step), roll=None, repair=None)


def _said_roll(roll: Roll, repair: str | None) -> str:
    """A roll in English, for messages: "cyan, 3 and 4" or "repair tile (orange), 2 and 2"."""
    first = roll.colour if repair is None else f"repair tile ({repair})"
    return f"{first}, {roll.white} and {roll.black}"


def _roll_doc(snap: Snapshot) -> dict[str, Any]:
    """The journal's entry of a roll read."""
    roll = snap.roll
    assert roll is not None
    doc: dict[str, Any] = {"dice": [roll.white, roll.black]}
    if snap.repair is None:
        doc["colour"] = roll.colour
    else:
        doc["repair"] = snap.repair
    return doc


# --- the store: how the game is kept ---------------------------------------------------------


def _record(snap: Snapshot) -> dict[str, Any]:
    """The game so far as its `switching-record/1` document."""
    return to_json(snap.start, snap.names, [(p.action, p.events) for p in snap.history])


def _setting(snap: Snapshot) -> dict[str, Any]:
    """How the table plays the game: the journal's first entry, which `fold` starts from."""
    return {
        "board": snap.board.id,
        "names": list(snap.names),
        "players": list(snap.start.players),
        "variant": snap.variant,
        "turned": _turned(snap),
    }


def _begin(record: Mapping[str, Any], setting: Mapping[str, Any]) -> Snapshot:
    """A kept game before its first step: set up as its setting says, on the board its
    record carries (a family's own, taught, is in no package: the setting names it by id
    only)."""
    try:
        board = parse(record["board"], "the kept game's board")
    except (KeyError, TypeError, BoardError) as error:
        raise RecordProblem(0, "board", f"the kept game's board cannot be read: {error}") from None
    start = rules.deal(
        board, setting["players"], rules.VARIANTS[setting["variant"]], setting["turned"]
    )
    return Snapshot(tuple(setting["names"]), start, variant=setting["variant"])


def _step(snap: Snapshot, kind: str, doc: Any) -> Snapshot:
    """A journal entry folded over the game, the step checked again."""
    if kind == ROLL:
        dice = doc["dice"]
        return thrown(snap, doc.get("colour"), (dice[0], dice[1]), doc.get("repair"))
    if kind == SETUP:
        if snap.turn:
            raise Refusal("S-5", "the panels are set up before the first roll")
        return _with_turned(snap, list(doc["turned"]))
    if kind == MOVE:
        return played(snap, doc["from"])
    if kind == PASS:
        return passed(snap)
    raise KeyError(kind)


KEEPING = base.Keeping(
    game=GAME_ID,
    setting=_setting,
    begin=_begin,
    step=_step,
    undone=undone,
    undo_doc={},
    turn=lambda snap: snap.turn,
    over=lambda snap: snap.position.over,
    record=_record,
)

# A kept game as it stands now: its journal folded over how it was set up, each step
# checked again, or `RecordProblem` naming the entry that cannot be.
fold = KEEPING.fold


# --- the match at the table ------------------------------------------------------------------


@dataclass
class Following(base.Following[BoardSeen]):
    """The turn at a table a camera follows (besides every game's, `base.Following`):
    whether the dice have been lifted since the last roll taken (a roll is taken once per
    throw: dice still lying where they fell are not a new roll, nor are those of a roll
    taken back), and the legal move the board shows (CONFIRM takes it)."""

    lifted: bool = True
    shown: Outcome | None = None


class Match(base.FollowedMatch[Snapshot, Following]):
    """One game of the switching-track board game at the table."""

    keeping = KEEPING
    press_command, undo_command, seen_command = Press, Undo, Seen
    table_kind = "switching-track"
    steps_taken = "steps are taken"
    by_hand = "enter the dice and the move on the page"
    to_do = (
        "throw the dice, then slide the panel and move your train; hold CONFIRM to take the "
        "last step back"
    )

    def actions(self) -> Mapping[type, Callable[[Any], None]]:
        return {Throw: self._throw, Play: self._play, PassTurn: self._pass}

    def buttons(self) -> Mapping[str, Callable[[], None]]:
        """PASS passes the turn (no move for the roll, or the re-roll declined)."""
        return {"pass": lambda: self.keep(passed(self.snap), PASS, {})}

    # --- the commands --------------------------------------------------------------------

    def _throw(self, command: Throw) -> None:
        self.fresh(command.turn)
        snap = thrown(self.snap, command.colour, command.dice, command.repair)
        self.keep(snap, ROLL, _roll_doc(snap))

    def _play(self, command: Play) -> None:
        self.fresh(command.turn)
        self.keep(played(self.snap, command.space), MOVE, {"from": command.space})

    def _pass(self, command: PassTurn) -> None:
        self.fresh(command.turn)
        self.keep(passed(self.snap), PASS, {})

    # --- the turn at the table -----------------------------------------------------------

    def new_following(self) -> Following:
        return Following()

    def confirm(self, following: Following) -> bool:
        """CONFIRM takes the move the board shows, or sounds the buzzer when no legal move
        explains it."""
        shown = following.shown
        if self.snap.roll is not None and shown is None and following.waiting is None:
            # the board as it was: CONFIRM says the move was made, which a move may leave
            # so (a train entered runs off the track and starts over, S-14)
            quiet = Reading() if following.seen is None else shows(self.snap.moves, following.seen)
            shown, following.waiting = quiet.outcome, quiet.differs
        if self.snap.roll is not None and shown is not None:
            space = shown.action.train if isinstance(shown.action, Move) else None
            snap = passed(self.snap) if space is None else played(self.snap, space)
            self.keep(
                snap, PASS if space is None else MOVE, {} if space is None else {"from": space}
            )
            return True
        if self.snap.roll is not None and following.waiting is not None:
            following.problem = following.waiting  # said when CONFIRM asks: buzzed once
            if self.setting.outputs is not None:
                self.setting.outputs.illegal()
            return True
        return False

    def confirmable(self, following: Following) -> bool:
        return following.shown is not None

    def saw(self, following: Following, command: Seen) -> bool:
        """The dice (a new throw, still, is the mover's roll) and the still board."""
        following.lifted = following.lifted or command.lifted
        if command.board is not None:
            following.seen = command.board
        if command.dice is not None and following.lifted and self.snap.phase in ("roll", "reroll"):
            colour, numbers = command.dice
            try:
                snap = thrown(self.snap, colour, numbers)
            except Refusal as refusal:  # said with this frame's news, until the dice change
                said = Said(
                    refusal.key or refusal.rule, refusal.message, (*refusal.params.items(),)
                )
                following.camera = (*following.camera, said)
            else:
                self.keep(snap, ROLL, _roll_doc(snap))
                following.lifted = False
        return True

    def compare(self, following: Following) -> tuple[Said | None, Said | None]:
        """The panels' way round before the first roll, then the legal move the board
        shows; what differs is waited for while a move is under way, and is a problem once
        CONFIRM was pressed on it (`confirm`), until the board changes."""
        assert following.seen is not None
        turned = set_up(self.snap, following.seen)
        if turned is not None:
            self.keep(turned, SETUP, {"turned": _turned(turned)})
        snap = self.snap
        reading = compare(
            snap.position, slide_only(snap.position, snap.moves), snap.moves, following.seen,
            [snap.name(c) for c in snap.position.players],
        )  # fmt: skip
        following.shown = reading.outcome
        if snap.roll is None:
            return reading.differs, None
        problem = following.problem if reading.differs == following.problem else None
        return problem, reading.differs

    # --- its words -----------------------------------------------------------------------

    def game_view(self, lang: str) -> dict[str, Any]:
        return view.build(self.snap, lang)

    def following_fields(self, following: Following, lang: str) -> dict[str, Any]:
        """Whose turn, what the table waits for, and the move the board shows, its space in
        words."""
        snap = self.snap
        board = snap.position.board
        mover = snap.position.to_move
        shown = following.shown
        awaiting = {"roll": "dice", "reroll": "dice_or_pass", "over": "nothing"}.get(
            snap.phase, "confirm" if shown is not None else "move"
        )
        return {
            "mover": None if mover is None else snap.name(mover),
            "awaiting": awaiting,
            "shown": None
            if shown is None or not isinstance(shown.action, Move)
            else {"from": shown.action.train, "place": view.place(board, shown.action.train, lang)},
        }

    def said_words(self, doc: Mapping[str, Any], lang: str) -> str:
        """The spaces it names (by id in `params` and the English `text`) as a player finds
        them."""
        return view.said_words(self.snap.position.board, doc, lang)


# --- the game's entries in its `Game` (game.py) ----------------------------------------------


def new_game(wanted: Start, own: Board | None = None) -> Snapshot:
    """A new game as the start form asks for it: the option is the board (a shipped one,
    or `own`, the table's box taught), the seats take the train colours in order (seat 0
    red, who begins: S-2), the variant one of rules.VARIANTS (None: the full game). A
    `Refusal` says what is wrong."""
    if own is not None and wanted.option == own.id:
        played_on = own  # the table's own (its id stands before a shipped board's)
    elif wanted.option in BOARDS:
        played_on = load_board(wanted.option)
    else:
        boards = ", ".join(dict.fromkeys([*BOARDS, *([own.id] if own is not None else [])]))
        raise Refusal(
            "request", f"there is no board {wanted.option!r}: use {boards}",
            key="no_board", params={"board": wanted.option},
        )  # fmt: skip
    variant = wanted.variant or "full"
    if variant not in rules.VARIANTS:
        names = ", ".join(rules.VARIANTS)
        raise Refusal(
            "request", f"there is no variant {variant!r}: use {names}",
            key="no_variant", params={"variant": variant, "variants": names},
        )  # fmt: skip
    if len(set(wanted.names)) != len(wanted.names):
        raise Refusal("setup", "two players have the same name: give each their own",
                      key="same_names")  # fmt: skip
    n, (least, most) = len(wanted.names), rules.PLAYERS
    if not least <= n <= most:
        raise Refusal(
            "S-1", f"the game is for {least} to {most} players, not {n}",
            key="players_count", params={"n": n},
        )  # fmt: skip
    colours = rules.COLOURS[:n]
    start = rules.deal(played_on, colours, rules.VARIANTS[variant])
    return Snapshot(tuple(wanted.names), start, variant=variant)


def own_board(setting: Setting) -> Board | None:
    """The board of the box taught at this table (`Setting.catalogue`), None when none is;
    a `Refusal` saying what is wrong with its folder and what to do."""
    try:
        return taught(setting.catalogue)
    except BoardError as error:
        raise Refusal("request", f"the taught box's board cannot be played: {error}",
                      key="box_unreadable", params={"error": str(error)}) from None  # fmt: skip


def start(store: Store, wanted: Start, setting: Setting) -> Match:
    """A new game, kept in the store: on a shipped board or the table's own, taught."""
    return Match.kept(store, new_game(wanted, own_board(setting)), setting)


def load(store: Store, doc: Mapping[str, Any], setting: Setting) -> Match:
    """The game of a record continued (an import): every turn is checked first
    (`RecordProblem` names the first that breaks a rule), then kept in the store as its
    setting and one journal entry a step, as if it had been played here."""
    played = from_json(doc)
    replayed = replay(played)
    variant = variant_id(played.start.variant)
    history = []
    position = played.start
    for turn, events in zip(played.turns, replayed.events, strict=True):
        position, _ = rules.apply(position, turn.action)
        history.append(Played(turn.action, events, position))
    snap = Snapshot(played.names, played.start, tuple(history), variant=variant)
    entries: list[tuple[str, dict[str, Any]]] = []
    for step in history:
        action = step.action
        if isinstance(action, Stop):
            entries.append((PASS, {}))
            continue
        entries.append((ROLL, _roll_doc(replace(snap, roll=action.roll, repair=action.repair))))
        entries.append((PASS, {}) if isinstance(action, Pass) else (MOVE, {"from": action.train}))
    return Match.kept(store, snap, setting, replace(snap, history=()), entries)


# The store's game after a restart, back on the same step.
resume = Match.resume
