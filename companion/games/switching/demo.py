"""`companion demo --game switching`: bots play a whole switching-track game on the
synthetic table.

Nothing is short-circuited, as in the other games' demos: the players (the game's bots,
bots.py, as `companion simulate` plays them) throw the three dice beside our rendered board
(scenes.py), the camera's frames go through the frame loop of `companion run` (the reader,
the stillness of the board and of the dice, the match's comparison of the board with every
legal move), CONFIRM and PASS are pressed on gpiozero's mock pins, every step is journaled,
and the page shows it live.

With `--pieces printed` the table holds a family's own box instead of ours: the synthetic
table's stand-in box (standin.py), its board lying anywhere among the table's markers, any
way round. The players first teach it to the camera as `companion enroll --game switching`
does (one frame of the box laid out to be taught, kept in a folder), then play on its
board: the camera finds the board by its picture and reads the pieces as taught
(vision/taught.py), as `companion run` does with the box its configuration names.

A turn at this table: the mover picks the dice up (frames with no dice beside the board:
they are "lifted", so the dice still lying there from the last throw are never read as a
new one), throws them (the companion reads them: its phase goes to "move"), slides the
panel and moves the train (now and then a hand over the board while it goes down), and
presses CONFIRM: the companion takes the move the still board shows. A roll that allows no
move leaves only the panel slid, and PASS is pressed; after doubles the bot throws again,
or presses PASS to stop. The bonus level's repair tile is played on the page (a `Throw`
with `repair`, as a player taps it): the camera cannot see a tile played, only the two
number dice thrown with it.

The players know the truth: the whole game is the simulator's, seeded (`simulate.play`),
so the same seed plays the same game, and a killed demo resumed on its store plays on as it
would have. After every step they compare what the companion took with what they did; a
misread roll or a move the companion took wrongly is counted against the camera and put
right on the page, as players would. At the end the companion's game (its record's
summary) is compared with the true one.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion import synthetic
from companion.games.protocol import CameraSetup, DemoError, RecordProblem, Setting, Start
from companion.games.switching import commandline, match, record, rules, scenes, simulate, standin
from companion.games.switching.board import Board
from companion.games.switching.board import load as load_board
from companion.games.switching.camera import Camera
from companion.games.switching.commands import Play, Throw, Undo
from companion.games.switching.follow import agrees
from companion.games.switching.record import GAME_ID
from companion.games.switching.snapshot import Played, Snapshot
from companion.games.switching.vision.taught import TeachError, teach
from companion.pose import Pose
from companion.store import Store
from companion.synthetic import Hand, Scene
from companion.synthetic.players import Hands
from companion.table import Table

NAMES = ("Ana", "Ben", "Cleo", "Dan")
BOARD = "ours"
_TEACHING_SEED = 900  # the camera's noise on the frame the stand-in box is taught from
POLICIES = ("greedy", "random")  # by seat, alternating, as `companion simulate` plays them


@dataclass(frozen=True)
class TableNow:
    """The table as it lies, the scene the camera is shown: the board with the panels and
    trains of `position`, the dice of `roll` beside it (None: in the mover's hand), and a
    hand over the space `hand_at` while a train is put down. `seed` places the pieces (a
    hand puts each down a little askew): the same seed, the same picture."""

    position: rules.Position
    roll: rules.Roll | None
    seed: tuple[int, ...]
    hand_at: tuple[float, float] | None = None
    box: Pose | None = None  # the stand-in box's board lies here (None: ours, upright)

    def drawn(self) -> Scene:
        hands = () if self.hand_at is None else (Hand(*self.hand_at, 0.0, 0.9),)
        board = self.position.board
        rng = np.random.default_rng(self.seed)
        if self.box is None:
            return scenes.board_scene(board, self.position, self.roll, rng, hands)
        trains = tuple(scenes.OnBoard(t.owner, t.space, t.facing) for t in self.position.trains)
        roll = None if self.roll is None else (self.roll.colour, self.roll.white, self.roll.black)
        return standin.table_scene(board, self.box, self.position.layout, trains, roll, rng, hands)


@dataclass(frozen=True)
class Truth:
    """The players' game: how it was set up (which panels lie turned, S-5) and every
    action, each with what it did and the position after it."""

    start: rules.Position
    steps: tuple[Played, ...]

    def before(self, number: int) -> rules.Position:
        """The position before action `number` (0: the start)."""
        return self.steps[number - 1].position if number else self.start

    def summary(self, names: tuple[str, ...], actions: int) -> dict[str, Any]:
        """What `companion replay --json` prints of the true game after `actions` actions."""
        played = [(step.action, step.events) for step in self.steps[:actions]]
        doc = record.to_json(self.start, names, played)
        return record.summary(record.from_json(doc), self.before(actions))


def true_game(board: Board, players: int, seed: str, variant: str) -> Truth:
    """The game the bots play for `seed`: the simulator's (its dice and its bots' choices
    seeded apart), every action replayed through the rules for the positions."""
    policies = [POLICIES[seat % len(POLICIES)] for seat in range(players)]
    played = simulate.play(board, policies, f"demo:{seed}", variant)
    kept = record.from_json(played.doc)
    position, steps = kept.start, []
    for turn in kept.turns:
        position, events = rules.apply(position, turn.action)
        steps.append(Played(turn.action, events, position))
    return Truth(kept.start, tuple(steps))


@dataclass
class Tally:
    """How the camera did against the truth the players know: the actions taken (each
    move by CONFIRM on the board the camera saw, each pass), those that were the players'
    own, those the board could not tell apart (`asked`: tapped on the page, no fault of the
    camera's), the throws it read and those it read wrong (each put right on the page)."""

    turns: int = 0
    matched: int = 0
    mismatched: list[int] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)
    throws: int = 0
    misread_throws: list[int] = field(default_factory=list)

    def as_json(self, hands: Hands | None = None) -> dict[str, Any]:
        """The tally as the demo's JSON says it, with the frames the camera was given and
        the pictures drawn for them (none when no game was watched)."""
        frames, rendered = (0, 0) if hands is None else (hands.frames, hands.rendered)
        taken = {"turns": self.turns, "matched": self.matched, "mismatched_turns": self.mismatched}
        taken["asked_on_the_page"] = self.asked
        read = {"throws": self.throws, "misread_throws": self.misread_throws}
        return taken | read | {"frames": frames, "rendered": rendered}


class ScriptedGame:
    """One demo game (`companion.games.protocol.Demo`)."""

    follows: Mapping[str, Any] = {}

    def __init__(
        self, players: int, seed: str, variant: str, motion_every: int, pieces: str = "ours"
    ) -> None:
        least, most = rules.PLAYERS
        if not least <= players <= most:
            raise DemoError(f"the switching-track game is for {least} to {most} players, "
                            f"not {players}")  # fmt: skip
        self.printed = pieces == "printed"
        self.board = standin.board() if self.printed else load_board(BOARD)
        # where the box's board lies on the table: anywhere among its markers, any way round
        where = np.random.default_rng(random.Random(seed).randrange(10**6))
        self.pose = standin.random_pose(self.board, where) if self.printed else scenes.home_pose()
        self.names = NAMES[:players]
        self.seed = seed
        self.variant = variant
        self.motion_every = motion_every
        try:
            self.truth = true_game(self.board, players, seed, variant)
        except ValueError as error:  # a seed whose bots never finish: said, not a crash
            raise DemoError(f"--seed {seed!r} deals no game that ends: {error}") from None
        self.tally = Tally()
        self.table: Table | None = None
        self.hands: Hands | None = None

    # --- at the table --------------------------------------------------------------------

    def sit(self, table: Table, setup: CameraSetup) -> Camera:
        """Deal the game (the players in turn order, seat 0 red, as the start form does;
        the panels' way round is the camera's to see), or go on with the store's; the
        camera over the demo's table. The stand-in box is first taught to the camera, in a
        folder as `companion enroll` writes it, and the game is played on its board."""
        self.table = table
        dealt = isinstance(table.match, match.Match) and not table.match.over
        wanted = Start(self.names, self.board.id, self.variant, self.seed)
        if not self.printed:
            if not dealt:
                table.start(GAME_ID, wanted)
            return Camera(replace(setup, layout=scenes.TABLE), self.board)
        with tempfile.TemporaryDirectory(prefix="switching-box-") as folder:
            taught = replace(setup, layout=standin.TABLE, catalogue=Path(folder))
            teach_standin(taught)
            if not dealt:  # their board is in no package: the game begins as its record
                game = match.new_game(wanted, self.board)
                table.load(record.to_json(game.start, game.names, []))
            return Camera.over(taught, BOARD)

    @property
    def match(self) -> match.Match:
        assert self.table is not None and isinstance(self.table.match, match.Match)
        return self.table.match

    @property
    def snap(self) -> Snapshot:
        return self.match.snap

    def answer(self) -> None:
        """The camera asks nothing the players must answer: a hidden space is waited for."""

    def play(self, hands: Hands) -> dict[str, Any]:
        """Every action of the game, each played at the table; the final state as
        `companion replay --json` prints it, its turns in words (`log`), and how the camera
        did."""
        self.hands = hands
        done = len(self.snap.history)
        if not self._same_game(self.snap):
            raise DemoError(
                f"the store's game after {done} actions is not the demo's game for seed "
                f"{self.seed!r}: give another --store file"
            )
        if done == 0 and self.snap.roll is None:
            self._set_up()
        else:  # resumed: the table as it lies, the dice where they fell if they were read
            hands.look(self._table(self.truth.before(done), self.snap.roll, done))
        for number in range(done, len(self.truth.steps)):
            self._step(number)
        return self._result(self.snap, self.match.record(), hands)

    def _set_up(self) -> None:
        """The board as the players set it up, each panel home either way round (S-5):
        the camera tells the companion which lie turned."""
        assert self.hands is not None
        start = self.truth.start
        if not self.hands.look_until(self._table(start, None, 0),
                                     lambda: self.snap.start == start):  # fmt: skip
            raise self._stuck("the camera did not see how the panels were set up (S-5)")

    def _step(self, number: int) -> None:
        """Action `number` of the true game played at the table, then told as accepted."""
        step = self.truth.steps[number]
        action = step.action
        if isinstance(action, rules.Stop):
            self._press("pass", number, "did not take the re-roll declined")
        else:
            if self.snap.roll is None:
                self._throw(number, action.roll, action.repair)
            self._check_roll(number, action.roll, action.repair)
            if isinstance(action, rules.Pass):
                self._pass(number, step.position, action.roll)
            else:
                self._move(number, step, action)
        self._count(number, step)

    def _throw(self, number: int, roll: rules.Roll, repair: str | None) -> None:
        """The mover picks the dice up and throws them beside the board; the companion
        reads them (a repair tile is played on the page: the camera sees only the number
        dice)."""
        assert self.hands is not None and self.table is not None
        before = self.truth.before(number)
        self.hands.look(self._table(before, None, number))  # the dice in the hand: lifted
        thrown = self._table(before, roll, number)
        self.tally.throws += 1
        if repair is not None:
            self.hands.look(thrown)
            self.table.handle(Throw(None, (roll.white, roll.black), self.snap.turn, repair))
        elif not self.hands.look_until(thrown, lambda: self.snap.roll is not None):
            raise self._stuck(
                f"the camera did not read {self._mover()}'s throw ({roll.colour}, "
                f"{roll.white} and {roll.black}; action {number + 1})"
            )

    def _check_roll(self, number: int, roll: rules.Roll, repair: str | None) -> None:
        """The roll the companion took is the one thrown, or the players put it right on
        the page: the roll taken back, the true one entered. The camera tells the number
        dice apart by their pips only (it reports the lower first), and which is the white
        one changes nothing in the rules (their sum and doubles, S-3, S-4)."""
        assert self.table is not None
        taken = self.snap.roll
        if taken is not None and self.snap.repair == repair and _dice(taken) == _dice(roll):
            return
        self.tally.misread_throws.append(number + 1)
        self.table.handle(Undo(self.snap.turn))
        self.table.handle(Throw(roll.colour, (roll.white, roll.black), self.snap.turn, repair))

    def _pass(self, number: int, after: rules.Position, roll: rules.Roll) -> None:
        """No move for the roll: the panel slid (if it could), the board seen so, PASS."""
        assert self.hands is not None
        following = self._following()
        seen = self._table(after, roll, number)
        if not self.hands.look_until(
            seen, lambda: following.seen is not None and agrees(after, following.seen)
        ):
            raise self._stuck(f"the camera did not see the panel slid (action {number + 1})")
        self._press("pass", number, "did not take the turn passed")

    def _move(self, number: int, step: Played, action: rules.Move) -> None:
        """The panel slid and the train moved (a hand over it, every `motion_every`-th
        action), the board still until the camera has seen it so; then CONFIRM (also when
        the move left the board as it was: a train entered ran off the track, S-14). Where
        the board looks the same after two moves that leave different games (S-12, S-13),
        the companion says so and the players tap theirs on the page. A move it took other
        than the players' is counted and put right on the page."""
        assert self.hands is not None and self.table is not None
        following = self._following()
        after = step.position
        if self.motion_every and number % self.motion_every == 0:
            x, y = scenes.to_table(
                self.board, self.pose, self.board.centre(action.train, after.layout)
            )[0]
            over = self._table(after, action.roll, number, (float(x), float(y)))
            self.hands.look(over, frames=1)

        def moved() -> bool:
            return following.seen is not None and agrees(after, following.seen)

        if not self.hands.look_until(self._table(after, action.roll, number), moved):
            raise self._stuck(f"the camera did not see {self._mover()}'s move from "
                              f"{action.train} (action {number + 1})")  # fmt: skip
        if not _alike(following):
            self.hands.press("confirm", lambda: len(self.snap.history) > number)
        if len(self.snap.history) <= number:
            if not _alike(following):
                raise self._stuck(f"CONFIRM did not take the move from {action.train} "
                                  f"(action {number + 1})")  # fmt: skip
            self.tally.asked.append(number + 1)
            self.table.handle(Play(action.train, self.snap.turn))
        elif self.snap.position != after:
            self.tally.mismatched.append(number + 1)
            self.table.handle(Undo(self.snap.turn))
            self.table.handle(Play(action.train, self.snap.turn))

    def _press(self, button: str, number: int, failed: str) -> None:
        assert self.hands is not None
        if not self.hands.press(button, lambda: len(self.snap.history) > number):
            raise self._stuck(f"{button.upper()} {failed} (action {number + 1})")

    def _count(self, number: int, step: Played) -> None:
        """The action journaled: counted against the truth, then said as accepted (only
        now may anyone rely on it: the kill test)."""
        assert self.hands is not None
        self.tally.turns += 1
        if number + 1 not in self.tally.mismatched:
            self.tally.matched += 1
        if self.snap.position != step.position:  # put right on the page, so never
            raise DemoError(f"the companion's game left the players' at action {number + 1}")
        self.hands.announce(number)

    def _result(
        self, snap: Snapshot, kept: Mapping[str, Any], hands: Hands | None
    ) -> dict[str, Any]:
        """The companion's game (`snap`, its record `kept`) as `companion replay --json`
        prints it and its turns in words (`log`), beside the truth, with how the camera
        did."""
        doc = record.summary(record.from_json(kept), snap.position)
        doc["truth_matched"] = doc == self.truth.summary(self.names, len(snap.history))
        doc["log"] = commandline.replay_text(kept, False).splitlines()
        doc["camera_matched_every_turn"] = not (self.tally.mismatched or self.tally.misread_throws)
        doc["camera"] = self.tally.as_json(hands)
        return doc

    # --- what the players look at ----------------------------------------------------------

    def _table(
        self,
        position: rules.Position,
        roll: rules.Roll | None,
        number: int,
        hand_at: tuple[float, float] | None = None,
    ) -> TableNow:
        """The table showing `position` during action `number`: each action's pieces put
        down anew, the same each time it is shown (a resumed demo draws the same table)."""
        base = random.Random(self.seed).randrange(10**6)
        box = self.pose if self.printed else None
        return TableNow(position, roll, (base, number, roll is not None), hand_at, box)

    def _following(self) -> match.Following:
        following = self.match.following
        assert following is not None, "the demo's table is followed by its camera"
        return following

    def _mover(self) -> str:
        mover = self.snap.position.to_move
        return "nobody" if mover is None else self.snap.name(mover)

    def _stuck(self, what: str) -> DemoError:
        """Why the demo cannot go on, with what the companion says of the table."""
        following = self._following()
        said = following.problem or following.waiting
        heard = [said.text] if said is not None else []
        heard += [s.text for s in following.camera]
        return DemoError(what + (f": {'; '.join(heard)}" if heard else ""))

    # --- a store's game ------------------------------------------------------------------

    def refusal(self, store: Store) -> str | None:
        """Why the demo cannot play its game in `store`, or None: a store's game of other
        players, another variant or another seed's is another game."""
        games = store.games()
        if not games:
            return None
        current = store.current()
        try:
            snap = match.fold(store.kept(current if current is not None else games[-1][0]))
        except (RecordProblem, KeyError) as error:
            return (
                f"{store.path} holds a game the demo cannot read ({error}): give another "
                "--store file"
            )
        if snap.names != self.names or snap.variant != self.variant or not self._same_game(snap):
            return (
                f"{store.path} holds another game ({', '.join(snap.names)}, {snap.variant}): "
                "give another --store file, or that game's --players, --short, --repair "
                "and --seed"
            )
        return None

    def _same_game(self, snap: Snapshot) -> bool:
        """`snap` is this demo's game so far: its actions the true game's first ones (before
        any, the panels' lie is the camera's to see yet)."""
        done = len(snap.history)
        return done <= len(self.truth.steps) and (
            done == 0 or snap.position == self.truth.before(done)
        )

    def finished(self, store: Store, number: int) -> tuple[dict[str, Any], Mapping[str, Any]]:
        """How the store's finished game ended, and its record: a demo over already only
        reports it again (no turn is watched, so the camera's tally is empty)."""
        kept = match.resume(store, number, Setting())
        return self._result(kept.snap, kept.record(), None), kept.record()


def _alike(following: match.Following) -> bool:
    """The companion says the board looks the same after moves that leave different
    games (follow.alike): the players tap theirs on the page."""
    return any(
        s is not None and s.key == "moves_alike" for s in (following.waiting, following.problem)
    )


def _dice(roll: rules.Roll) -> tuple[str | None, int, int]:
    """A roll as the rules count it: its colour and its two numbers, whichever die shows
    which."""
    low, high = sorted((roll.white, roll.black))
    return roll.colour, low, high


def teach_standin(setup: CameraSetup) -> None:
    """The stand-in box taught to a camera set up as `setup` says, as a family teaches
    theirs (`companion enroll --game switching --board FILE`: its board file given), kept
    in `setup.catalogue`; DemoError saying what could not be taught."""
    lesson = standin.teaching_table(0, setup.layout)
    camera = replace(synthetic.Camera.easy(), frame_size=setup.frame_size)
    assert setup.catalogue is not None, "the box is taught into a folder"
    try:
        box = teach(synthetic.render(lesson.scene, _TEACHING_SEED, camera), lesson.board,
                    setup.layout)  # fmt: skip
    except TeachError as error:
        raise DemoError(f"the stand-in box could not be taught: {error}") from None
    box.save(setup.catalogue)


def from_args(args: argparse.Namespace) -> ScriptedGame:
    """The demo game `companion demo --game switching`'s options ask for: the players, the
    short game, the repair tiles, the seed, the pieces (ours or the stand-in box); a hand
    over the board in every turn when the page is watched, in every fourth headless."""
    return ScriptedGame(
        args.players,
        str(args.seed),
        commandline.variant_of(args),
        4 if args.headless else 1,
        args.pieces,
    )
