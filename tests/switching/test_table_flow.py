"""Following the table through the camera where the demo found it wrong: two legal moves
whose boards look the same but whose games differ (one train runs into Finish, S-12; the
other bumps it there and it starts over, S-13) are not taken for each other: the camera
takes neither, says so, buzzes on CONFIRM, and the move tapped on the page is the one
kept. The position is the one the demo met (2 players, short game, seed "demo"). Also
what the demo found next: a move that leaves the board as it was (S-14), and a game won
left unfinished in the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.protocol import Setting, Start
from companion.games.switching import match, record, rules, simulate
from companion.games.switching.board import Lie
from companion.games.switching.board import load as load_board
from companion.games.switching.commands import PassTurn, Play, Press, Seen, Throw
from companion.games.switching.follow import BoardSeen, compare, slide_only
from companion.games.switching.snapshot import Snapshot
from companion.store import Store

ROLL = rules.Roll("cyan", 6, 5)


def before() -> rules.Position:
    """Red to move, two red trains on the cyan panel's second piece facing back, the cyan
    panel next to the empty slot: the roll slides it and turns them towards Finish."""
    trains = (
        rules.Train("B5", "red", 1),
        rules.Train("c4", "red", -1),
        rules.Train("c5", "red", -1),
        rules.Train("o3", "blue", 1),
        rules.Train("p2", "blue", -1),
    )
    return rules.Position(
        board=load_board("ours"),
        players=("red", "blue"),
        variant=rules.VARIANTS["short"],
        layout=(Lie("NW", True), Lie("SE", False), Lie("SW", False)),
        trains=trains,
        depots=(0, 0),
        repairs=(0, 0),
    )


def board_of(position: rules.Position) -> BoardSeen:
    """The board as a camera that reads everything reports it."""
    return BoardSeen(
        position.layout, frozenset((t.space, t.owner, t.facing) for t in position.trains)
    )


def outcome(moves: tuple[rules.Outcome, ...], space: str) -> rules.Outcome:
    return next(o for o in moves if isinstance(o.action, rules.Move) and o.action.train == space)


class Outputs:
    """The LED and buzzer as the match drives them (hw.controls.Controls' two calls)."""

    def __init__(self) -> None:
        self.buzzes = 0

    def show(self, status: str) -> None:
        """The LED's colour: not what these tests look at."""

    def illegal(self) -> None:
        self.buzzes += 1


def test_the_position_has_two_moves_that_leave_one_board_and_two_games() -> None:
    moves = rules.legal_moves(before(), ROLL)
    finished, bumped = outcome(moves, "c5"), outcome(moves, "c4")
    assert board_of(finished.position) == board_of(bumped.position)
    assert finished.position.depots == (1, 0) and bumped.position.depots == (0, 0)
    assert bumped.position.supply("red") == finished.position.supply("red") + 1


def test_a_board_two_different_games_would_leave_takes_neither_and_says_which() -> None:
    position = before()
    moves = rules.legal_moves(position, ROLL)
    seen = board_of(outcome(moves, "c5").position)
    reading = compare(position, slide_only(position, moves), moves, seen, ("Ana", "Ben"))
    assert reading.outcome is None and not reading.same
    assert reading.differs is not None and reading.differs.key == "moves_alike"
    assert dict(reading.differs.params) == {"moves": "c4, c5"}
    assert "c4, c5" in reading.differs.text and "page" in reading.differs.text


def test_a_board_another_move_leaves_is_still_taken() -> None:
    position = before()
    moves = rules.legal_moves(position, ROLL)
    entered = outcome(moves, "B5")
    reading = compare(
        position, slide_only(position, moves), moves, board_of(entered.position), ("Ana", "Ben")
    )
    assert reading.outcome == entered


@pytest.fixture
def table(tmp_path: Path):
    """A table a camera follows, at the demo's position."""
    store = Store(tmp_path / "table.sqlite3")
    outputs = Outputs()
    setting = Setting(camera=object(), outputs=outputs)
    number = match.start(store, Start(("Ana", "Ben"), "ours", "short"), setting).id
    at = match.Match(store, number, Snapshot(("Ana", "Ben"), before(), variant="short"), setting)
    yield at, outputs
    store.close()


def test_confirm_on_such_a_board_buzzes_and_the_move_tapped_on_the_page_is_kept(table) -> None:
    at, outputs = table
    at.handle(Throw("cyan", (6, 5), at.snap.turn))
    finished = outcome(at.snap.moves, "c5")
    at.handle(Seen(board=board_of(finished.position)))
    session = at.view("en")["session"]
    assert session["awaiting"] == "move" and session["shown"] is None
    assert session["waiting"]["key"] == "moves_alike"
    at.handle(Press("confirm"))
    assert at.snap.history == () and at.snap.roll == ROLL  # nothing taken
    assert outputs.buzzes == 1
    assert at.view("en")["session"]["problem"]["key"] == "moves_alike"
    at.handle(Play("c5", at.snap.turn))
    assert at.snap.position == finished.position and at.snap.position.depots == (1, 0)


def entering_runs_off() -> rules.Position:
    """Red to move with orange 2+6 (the orange panel cannot slide): a train entered at D1
    runs along D and off the track, and starts over (S-14), taking a repair tile."""
    trains = (
        rules.Train("C5", "yellow", 1),
        rules.Train("c5", "red", 1),
        rules.Train("p3", "blue", -1),
    )
    return rules.Position(
        board=load_board("ours"),
        players=("red", "blue", "yellow"),
        variant=rules.VARIANTS["short-repair"],
        layout=(Lie("NW", True), Lie("SE", False), Lie("SW", False)),
        trains=trains,
        depots=(0, 0, 0),
        repairs=(0, 0, 0),
    )


def test_confirm_on_the_board_as_it_was_takes_the_move_that_leaves_it_so(
    tmp_path: Path,
) -> None:
    position = entering_runs_off()
    roll = rules.Roll("orange", 2, 6)
    moves = rules.legal_moves(position, roll)
    ran_off = outcome(moves, "D1")
    assert board_of(ran_off.position) == board_of(position)  # nothing to see on the board
    assert ran_off.position.repairs == (1, 0, 0)
    store = Store(tmp_path / "table.sqlite3")
    try:
        names = ("Ana", "Ben", "Cleo")
        setting = Setting(camera=object(), outputs=Outputs())
        number = match.start(store, Start(names, "ours", "short-repair"), setting).id
        snap = Snapshot(names, position, variant="short-repair")
        at = match.Match(store, number, snap, setting)
        at.handle(Throw("orange", (2, 6), at.snap.turn))
        at.handle(Seen(board=board_of(position)))
        session = at.view("en")["session"]  # the move may not be made yet: not said as done
        assert session["awaiting"] == "move" and session["problem"] is None
        at.handle(Press("confirm"))
        assert at.snap.position == ran_off.position and at.snap.phase == "roll"
        assert setting.outputs.buzzes == 0
    finally:
        store.close()


def test_the_step_that_wins_finishes_the_game_in_the_store(tmp_path: Path) -> None:
    """A restart resumes the newest unfinished game: a game won is not resumed, and
    `companion demo --store` reports it rather than dealing a new one."""
    store = Store(tmp_path / "table.sqlite3")
    try:
        names = ("Ana", "Ben")
        at = match.start(store, Start(names, "ours", "short"), Setting())
        won = simulate.play(load_board("ours"), ("greedy", "greedy"), "finish", "short")
        start = record.from_json(won.doc).start
        at = match.Match(store, at.id, Snapshot(names, start, variant="short"), Setting())
        for turn in record.from_json(won.doc).turns:
            assert store.current() == at.id  # not over yet: a restart resumes it
            action = turn.action
            if isinstance(action, rules.Stop):
                at.handle(PassTurn(at.snap.turn))
                continue
            roll = action.roll
            at.handle(Throw(roll.colour, (roll.white, roll.black), at.snap.turn, action.repair))
            if isinstance(action, rules.Pass):
                at.handle(PassTurn(at.snap.turn))
            else:
                at.handle(Play(action.train, at.snap.turn))
        assert at.over and at.snap.position == won.end
        assert store.current() is None
    finally:
        store.close()
