"""A game of the switching-track board game being played at the table: the one object the
shared writer (`companion.table.Table`) drives for it (`companion.games.protocol.Match`).

The match keeps the game as the store does: how it was set up, then a journal of steps (a
roll, a move, a turn passed, a step taken back). Each step is checked by the rules before
anything is journaled (a refusal changes nothing); the game at any instant is a
`Snapshot` (snapshot.py), which the view draws. The pure functions below (`thrown`,
`played`, `passed`, `undone`) are what both a command and the journal's fold go through,
so a game resumed after a restart is the game that was being played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.protocol import (
    LED_ERROR,
    LED_NEEDS_CONFIRMATION,
    LED_WAITING,
    RecordProblem,
    Refusal,
    Setting,
    Start,
)
from companion.games.said import Said
from companion.games.switching import rules, view
from companion.games.switching.board import BOARDS, PANEL_COLOURS
from companion.games.switching.board import load as load_board
from companion.games.switching.commands import PassTurn, Play, Press, Seen, Throw, Undo
from companion.games.switching.follow import BoardSeen, Reading, compare, shows, slide_only
from companion.games.switching.record import GAME_ID, from_json, replay, to_json, variant_id
from companion.games.switching.rules import Move, Outcome, Pass, Roll, Stop
from companion.games.switching.snapshot import Played, Snapshot
from companion.store import Kept, Store

# The kinds of the journal's entries (`Store.append`): how the table plays this game, then
# the panels' way round as the camera saw them set up (S-5), the dice read, a move, a turn
# passed (or a re-roll declined), the last step taken back.
SETTING, SETUP, ROLL, MOVE = "setting", "setup", "roll", "move"
PASS, UNDO = "pass", "undo"


@dataclass
class Following:
    """The turn at a table a camera follows: the last still board, whether the dice have
    been lifted since the last roll taken (a roll is taken once per throw: dice still
    lying where they fell are not a new roll, nor are those of a roll taken back), the legal
    move the board shows (CONFIRM takes it), what disagrees with the game, why the camera
    waits, and what it cannot see."""

    seen: BoardSeen | None = None
    lifted: bool = True
    shown: Outcome | None = None
    problem: Said | None = None
    waiting: Said | None = None
    camera: tuple[Said, ...] = ()


class Match:
    """One game of the switching-track board game at the table."""

    def __init__(self, store: Store, number: int, snap: Snapshot, setting: Setting) -> None:
        self.store = store
        self.number = number
        self.snap = snap
        self.setting = setting
        self.following = Following() if setting.camera is not None else None

    # --- the protocol --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.snap.position.over

    @property
    def id(self) -> int:
        return self.number

    def handle(self, command: object) -> bool:
        """Apply one command, journaled before this returns; a `Refusal` changes nothing."""
        if isinstance(command, Throw):
            self._fresh(command.turn)
            snap = thrown(self.snap, command.colour, command.dice, command.repair)
            self._journal(snap, ROLL, _roll_doc(snap))
        elif isinstance(command, Play):
            self._fresh(command.turn)
            self._journal(played(self.snap, command.space), MOVE, {"from": command.space})
        elif isinstance(command, PassTurn):
            self._fresh(command.turn)
            self._journal(passed(self.snap), PASS, {})
        elif isinstance(command, Undo):
            self._fresh(command.turn)
            self._journal(undone(self.snap), UNDO, {})
        elif isinstance(command, Press):
            self._press(command.button)
        elif isinstance(command, Seen):
            return self._seen(command)
        else:
            raise Refusal("request", f"a switching-track table takes no {type(command).__name__}")
        self._follow()
        return True

    def view(self, lang: str) -> dict[str, Any]:
        return view.build(self.snap, lang) | {"session": self._session(lang)}

    def record(self) -> Mapping[str, Any]:
        return _record(self.snap)

    def hint(self) -> Snapshot:
        """What the camera must look for: the board as the game has it."""
        return self.snap

    # --- the commands --------------------------------------------------------------------

    def _journal(self, snap: Snapshot, kind: str, doc: dict[str, Any]) -> None:
        """Keep one step: in the store first, then as the game. The store is told with
        the step whether the game is over after it: the step that wins finishes it (a
        restart no longer resumes it), and an undo of that step opens it again."""
        self.store.append(self.number, kind, doc, finished=snap.position.over)
        self.snap = snap

    def _press(self, button: str) -> None:
        """PASS passes the turn (no move for the roll, or the re-roll declined); hold
        CONFIRM takes the last step back; CONFIRM, at a table a camera follows, takes the
        move the board shows, or sounds the buzzer when no legal move explains it."""
        if button == "pass":
            self._journal(passed(self.snap), PASS, {})
        elif button == "undo":
            self._journal(undone(self.snap), UNDO, {})
        elif self.following is None:
            raise Refusal(
                "session", "no camera follows this table: enter the dice and the move on "
                "the page", key="no_camera",
            )  # fmt: skip
        else:
            self._confirm(self.following)

    def _confirm(self, following: Following) -> None:
        shown = following.shown
        if self.snap.roll is not None and shown is None and following.waiting is None:
            # the board as it was: CONFIRM says the move was made, which a move may leave
            # so (a train entered runs off the track and starts over, S-14)
            quiet = Reading() if following.seen is None else shows(self.snap.moves, following.seen)
            shown, following.waiting = quiet.outcome, quiet.differs
        if self.snap.roll is not None and shown is not None:
            space = shown.action.train if isinstance(shown.action, Move) else None
            snap = passed(self.snap) if space is None else played(self.snap, space)
            self._journal(
                snap, PASS if space is None else MOVE, {} if space is None else {"from": space}
            )
            return
        if self.snap.roll is not None and following.waiting is not None:
            following.problem = following.waiting  # said when CONFIRM asks: buzzed once
            if self.setting.outputs is not None:
                self.setting.outputs.illegal()
            return
        raise Refusal(
            "session", "nothing to confirm: throw the dice, then slide the panel and move "
            "your train; hold CONFIRM to take the last step back", key="nothing_to_confirm",
        )  # fmt: skip

    # --- the camera ----------------------------------------------------------------------

    def _seen(self, command: Seen) -> bool:
        """A frame's news: what the camera cannot see, the dice (a new throw, still, is
        the mover's roll) and the still board, compared with the game. Whether what the
        page shows changed."""
        following = self.following
        if following is None:
            raise Refusal(
                "session", "no camera follows this table: the turn at the table is not known"
            )
        before = (self._session("en"), self.snap.turn)
        following.camera = command.camera
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
                self._journal(snap, ROLL, _roll_doc(snap))
                following.lifted = False
        self._follow()
        return (self._session("en"), self.snap.turn) != before

    def _follow(self) -> None:
        """Compare the last still board with the game as it now stands (after a frame, and
        after the page or a button changed the game)."""
        following = self.following
        if following is None or following.seen is None:
            return
        turned = set_up(self.snap, following.seen)
        if turned is not None:
            self._journal(turned, SETUP, {"turned": _turned(turned)})
        snap = self.snap
        reading = compare(
            snap.position, slide_only(snap.position, snap.moves), snap.moves, following.seen,
            [snap.name(c) for c in snap.position.players],
        )  # fmt: skip
        following.shown = reading.outcome
        if snap.roll is not None:  # a move under way: what differs is waited for, and is a
            # problem once CONFIRM was pressed on it (_confirm), until the board changes
            waiting = reading.differs
            problem = following.problem if reading.differs == following.problem else None
        else:
            problem, waiting = reading.differs, None
        fresh = problem is not None and problem != following.problem
        if fresh and self.setting.outputs is not None:
            self.setting.outputs.illegal()  # once a problem: the buzzer does not nag
        following.problem = problem
        following.waiting = waiting
        if self.setting.outputs is not None:
            self.setting.outputs.show(self._led())

    def _led(self) -> str:
        following = self.following
        assert following is not None
        if following.problem is not None or following.camera:
            return LED_ERROR
        return LED_NEEDS_CONFIRMATION if following.shown is not None else LED_WAITING

    def _session(self, lang: str) -> dict[str, Any] | None:
        """The turn at the table, as the page shows it in `lang` (None when no camera
        follows): what the referee says with its `said` words, the spaces in words."""
        following = self.following
        if following is None:
            return None
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
            "problem": self._said(following.problem, lang),
            "waiting": self._said(following.waiting, lang),
            "camera": [self._said(said, lang) for said in following.camera],
        }

    def _said(self, said: Said | None, lang: str) -> dict[str, Any] | None:
        """What the referee says, in JSON, with `said`: its words in `lang`, the spaces it
        names (by id in `params` and the English `text`) as a player finds them."""
        if said is None:
            return None
        doc = said.as_json()
        return doc | {"said": view.said_words(self.snap.position.board, doc, lang)}

    def _fresh(self, turn: int | None) -> None:
        """A command made on a page that saw `turn` steps: refused if the table has moved
        on since (another phone, the camera)."""
        now = self.snap.turn
        if turn is not None and turn != now:
            raise Refusal(
                "stale", f"the table has moved on: {now} steps are taken now, the page saw "
                f"{turn}; look at the table again", conflict=True, key="stale",
                params={"turn": now},
            )  # fmt: skip


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


# --- the store: keeping a game, folding its journal ------------------------------------------


def _record(snap: Snapshot) -> dict[str, Any]:
    """The game so far as its `switching-record/1` document."""
    return to_json(snap.start, snap.names, [(p.action, p.events) for p in snap.history])


def _keep(store: Store, snap: Snapshot) -> int:
    """Keep a new game (which finishes the one left unfinished): its record, and how the
    table plays it as the first journal entry."""
    return store.start(GAME_ID, _record(snap), [(SETTING, _setting(snap))])


def _setting(snap: Snapshot) -> dict[str, Any]:
    """How the table plays the game: the journal's first entry, which `fold` starts from."""
    return {
        "board": snap.board.id,
        "names": list(snap.names),
        "players": list(snap.start.players),
        "variant": snap.variant,
        "turned": _turned(snap),
    }


def _fold_step(snap: Snapshot, kind: str, doc: Mapping[str, Any]) -> Snapshot:
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
    if kind == UNDO:
        return undone(snap)
    raise KeyError(kind)


def fold(kept: Kept) -> Snapshot:
    """A kept game as it stands now: its journal folded over how it was set up, each step
    checked again, or `RecordProblem` naming what cannot be."""
    if kept.game != GAME_ID:
        raise RecordProblem(0, "store", f"game {kept.number} is one of {kept.game!r}")
    entries = list(kept.journal)
    setting = entries[0].doc if entries and entries[0].kind == SETTING else None
    if not isinstance(setting, dict):
        raise RecordProblem(0, "store", f"game {kept.number} does not say how it is played")
    try:
        board = load_board(setting["board"])
        start = rules.deal(
            board, setting["players"], rules.VARIANTS[setting["variant"]], setting["turned"]
        )
        snap = Snapshot(tuple(setting["names"]), start, variant=setting["variant"])
    except (KeyError, TypeError, Refusal) as error:
        raise RecordProblem(0, "store", f"game {kept.number} is set up wrongly: {error}") from None
    for entry in entries[1:]:
        try:
            snap = _fold_step(snap, entry.kind, entry.doc)
        except (KeyError, TypeError, IndexError) as error:
            raise RecordProblem(
                snap.turn + 1, "store", f"game {kept.number} holds an entry it cannot read: "
                f"{entry.kind} {error}",
            ) from None  # fmt: skip
        except Refusal as refusal:
            raise RecordProblem(snap.turn + 1, refusal.rule, refusal.message) from None
    return snap


# --- the game's entries in its `Game` (game.py) ----------------------------------------------


def new_game(wanted: Start) -> Snapshot:
    """A new game as the start form asks for it: the option is the board, the seats take
    the train colours in order (seat 0 red, who begins: S-2), the variant one of
    rules.VARIANTS (None: the full game). A `Refusal` says what is wrong."""
    if wanted.option not in BOARDS:
        raise Refusal(
            "request", f"there is no board {wanted.option!r}: use {', '.join(BOARDS)}",
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
    start = rules.deal(load_board(wanted.option), colours, rules.VARIANTS[variant])
    return Snapshot(tuple(wanted.names), start, variant=variant)


def start(store: Store, wanted: Start, setting: Setting) -> Match:
    """A new game, kept in the store."""
    snap = new_game(wanted)
    return Match(store, _keep(store, snap), snap, setting)


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
    entries: list[tuple[str, dict[str, Any]]] = [(SETTING, _setting(snap))]
    for step in history:
        action = step.action
        if isinstance(action, Stop):
            entries.append((PASS, {}))
            continue
        entries.append((ROLL, _roll_doc(replace(snap, roll=action.roll, repair=action.repair))))
        entries.append((PASS, {}) if isinstance(action, Pass) else (MOVE, {"from": action.train}))
    number = store.start(GAME_ID, _record(replace(snap, history=())), entries)
    return Match(store, number, snap, setting)


def resume(store: Store, number: int, setting: Setting) -> Match:
    """The store's game `number`, after a restart: back on the same step."""
    return Match(store, number, fold(store.kept(number)), setting)
