"""`companion demo`: scripted players play a whole game on the synthetic table.

Nothing is short-circuited: the players (the game's bots) lay cards, roll dice,
move the caboose and take penalty cards on a synthetic table; what the camera sees of it is
rendered (companion.synthetic) and goes through the real recognition, tracker and session; the
buttons are pressed on gpiozero's mock pins through hw.controls, debounce included; every
accepted action is journaled by the real Table and store; and, unless `--headless`, the
real web page serves the game live.

The players know the truth (the deal, the action they chose, the dice they threw); the
companion knows only what it saw. As at a real table it plays on a provisional deal of
its own (the true deal with the hands and the draw pile shuffled together) and learns the
true one from the cards shown: laid, taken from the draw pile, and the hands at the end.
After every turn the demo compares the two, so a run says whether the camera saw every
turn right, and at the end whether the companion's game is the true one. With `--store`
a killed demo resumes its game where the store left it, and a finished one prints its
result again: that is how the kill test checks that no accepted action is ever lost.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.app.run import serve_page
from companion.app.service import FrameLoop
from companion.games.caboose import cards
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.bots import POLICIES
from companion.games.caboose.camera import Camera
from companion.games.caboose.commands import Answer, Press, Show
from companion.games.caboose.deal import replay as deal_replay
from companion.games.caboose.match import Match
from companion.games.caboose.record import Record, RecordError, record_of, replay, save, summary
from companion.games.caboose.rules import geometry
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.rules.engine import deal, laura_action
from companion.games.caboose.rules.state import (
    TOOK,
    Action,
    Chaos,
    GameState,
    Pass,
    Play,
    RuleError,
)
from companion.games.caboose.session import CHECKING, OVER, STAGED, WAITING, Session, SessionConfig
from companion.games.caboose.table import Ledger, snapshot_of, stored_record
from companion.games.caboose.tracker import Tracker, TrackerConfig
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.protocol import Setting
from companion.hardware import GPIO_PINS
from companion.pose import Pose
from companion.store import Store
from companion.table import Table
from companion.vision.table import TableLayout
from hw.controls import Controls, pin_factory
from hw.frames import FrameSource

# The synthetic table's regions (mm): the railway keeps to the top, the marked zone where
# cards are shown is bottom left, the dice land along the bottom.
LAYOUT = TableLayout()
RAILWAY_AREA = (68.0, 68.0, 772.0, 488.0)
ZONE = (70.0, 495.0, 360.0, 565.0)
# Laura's railway may use the whole table between the rows of markers but the marked zone
# (cards there are shown, never railway); dice are thrown off whatever cards lie there.
LAURA_AREA = (5.0, 65.0, 835.0, 565.0)
DICE_AREA = (375.0, 505.0, 695.0, 545.0)
ZONE_CARDS = 3  # cards side by side in the zone
# How far a new card's rail ends keep from every other card's: well clear, or (when Laura
# has no other choice) just beyond the distance at which the camera joins two ends.
_CLEAR_MM = 20.0
# Half a card's length and a die's half width and room: a die this far from a card's
# centre on either axis lies off it.
CARD_REACH_MM = 44.0 + 12.0
_FORCED_CLEAR_MM = 15.0
# How far from the middle of the area players may slide a railway to make room (mm).
_SHIFTS_MM = tuple(range(-400, 401, 40))
# A safety net, not a deadline: a press waits for the controls and the session to take it,
# however slowly; only a press not taken after this long means something is broken.
PRESS_TIMEOUT = 120.0


class DemoError(RuntimeError):
    """The demo could not go on: the companion stopped following the table."""


@dataclass(frozen=True)
class DemoOptions:
    """One demo game. Small frames and an easy camera keep a whole game quick; `motion_every`
    puts a hand over the table and tumbling dice into every n-th turn (frames the tracker
    must ignore); `delay` paces the frames for a person watching the page."""

    edition: str = "loose-caboose"
    players: int = 3
    variant: str | None = None
    seed: str = "demo"
    camera: str = "easy"
    frame_size: tuple[int, int] = (960, 720)
    px_per_mm: float = 1.0
    still_frames: int = 2
    motion_every: int = 4
    delay: float = 0.0
    debounce: float = 0.02
    hold: float = 2.0
    policies: tuple[str, ...] = ("cautious", "greedy")


@dataclass
class Tally:
    """How the camera did against the truth the players know."""

    turns: int = 0
    matched: int = 0
    asked: int = 0
    mismatched: list[int] = field(default_factory=list)
    frames: int = 0
    rendered: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "matched": self.matched,
            "asked": self.asked,
            "mismatched_turns": self.mismatched,
            "frames": self.frames,
            "rendered": self.rendered,
        }


def _names(options: DemoOptions) -> list[str]:
    """The people at the table: as many as the variant seats (a rival is the rules' own
    seat), else as many as --players."""
    variant = load_edition(options.edition).variants.get(options.variant or "")
    players = variant.players if variant is not None else options.players
    known = ["Ana", "Ben", "Cleo", "Dan"]
    return [known[i] if i < len(known) else f"Player {i + 1}" for i in range(players)]


class Players:
    """The people at the synthetic table: what they choose (a bot policy, which knows the
    truth of the game) and where on the table they lay their cards."""

    def __init__(self, options: DemoOptions) -> None:
        self.options = options
        self.offset = (0.0, 0.0)  # where the engine's origin lies on the table (mm)
        self.quarters = 0  # how many quarter turns the railway lies turned on the table
        self.policies = [POLICIES[name] for name in options.policies]

    def centre(
        self,
        state: GameState,
        area: tuple[float, ...] = RAILWAY_AREA,
        also: Sequence[Pose] = (),
    ) -> None:
        """Slide the railway (with the cards about to be laid, `also`) to the middle of
        `area`, as players do when it runs towards the table's edge (the camera sees the
        whole railway move; the game does not change)."""
        poses = [self.turned(p) for p in [*state.layout, *also] if p is not None]
        xs = [p.x for p in poses]
        ys = [p.y for p in poses]
        self.offset = (
            round((area[0] + area[2]) / 2 - (min(xs) + max(xs)) / 2),
            round((area[1] + area[3]) / 2 - (min(ys) + max(ys)) / 2),
        )

    def choose(self, state: GameState) -> Action:
        """A bot's action with placements that stay inside the table's railway area, and
        the dice thrown for it (seeded by the turn, so a resumed game rolls the same)."""
        rng = random.Random(f"{self.options.seed}/{state.turn}")
        if state.player.laura:
            action = laura_action(state)
        else:
            action = self.policies[state.to_move % len(self.policies)](state)
        if not isinstance(action, Play):
            return action
        # Laura must play what she drew if the rules let her: the whole table will do.
        area = LAURA_AREA if state.player.laura else RAILWAY_AREA
        fitted = self.fit(state, action.cards, area)
        if len(fitted) < len(action.cards):
            fitted = self.make_room(state, action.cards, area, fitted)
        if not fitted and state.player.laura:
            raise DemoError(
                f"Laura must play {action.cards[0]} (R-10), but no table area holds the railway"
            )
        if not fitted:
            chaos = tuple(c for c in state.player.hand + state.draw[:1] if cards.is_chaos(c))
            return Chaos(chaos) if chaos and not state.player.laura else Pass()
        played = tuple(code for code, _ in fitted)
        poses = tuple(pose for _, pose in fitted)
        dice = 0 if state.player.laura else state.edition.dice_for(played)
        roll = tuple(rng.choice(state.edition.die_faces) for _ in range(dice))
        return Play(played, roll, place=poses)

    def make_room(
        self,
        state: GameState,
        played: Sequence[str],
        area: tuple[float, ...],
        fitted: list[tuple[str, Pose]],
    ) -> list[tuple[str, Pose]]:
        """Room for more of `played` than `fitted`, as players make it when the railway
        runs towards the table's edge: they slide the whole railway to the middle of the
        area (or as near it as the table lets), or, when it has grown longer than the table
        is deep, turn it a quarter (or half) turn as well, the whole railway kept on the
        table and off the marked zone.
        The table stays as it was when no move lays more cards. A card Laura must lay
        (R-10) always has a legal placement, which the engine's railway does not bound:
        only moving the railway on the table can make it fit."""
        before = (self.offset, self.quarters)
        first = geometry.legal_placements(state.edition, state.railway, state.layout, played[0])
        # Laura's railway may use the whole table (she moves by her card, and the dice are
        # thrown off whatever cards lie there); everyone else's keeps clear of the dice.
        laura = any(seat.laura for seat in state.seats)
        table = LAURA_AREA if laura else area
        best, moved = fitted, before
        turns = [
            q % 4 for q in (self.quarters, self.quarters + 1, self.quarters + 3, self.quarters + 2)
        ]
        for centred_by_edges in (False, True):
            for quarters in turns:
                self.quarters = quarters
                self.centre(state, area, first[:1])
                x, y = self.offset
                if centred_by_edges:
                    # A railway nearly as long as the table fits only when centred by its
                    # cards' edges, not their middles (its end cards may lie either way
                    # round): that line, with the other direction's shifts.
                    ex, ey = self._centred_by_edges(state, table, first[:1])
                    shifts = [(ex, ey), *((ex, y + d) for d in _SHIFTS_MM)]
                    shifts += [(x + d, ey) for d in _SHIFTS_MM]
                    x, y = ex, ey
                else:
                    shifts = [(x + dx, y + dy) for dx in _SHIFTS_MM for dy in _SHIFTS_MM]
                # the middle first; then ever farther from it, as far as the table goes
                for offset in sorted(shifts, key=lambda shift: math.dist(shift, (x, y))):
                    self.offset = offset
                    if any(self._space(state, p, table) is None for p in state.layout if p):
                        continue  # the railway would leave the table, reach the dice or the zone
                    tried = self.fit(state, played, area)
                    if len(tried) > len(best):
                        best, moved = tried, (self.offset, self.quarters)
                        if len(best) == len(played):
                            self.offset, self.quarters = moved
                            return best
        self.offset, self.quarters = moved
        return best

    def _centred_by_edges(
        self, state: GameState, area: tuple[float, ...], also: Sequence[Pose]
    ) -> tuple[float, float]:
        """The slide that puts the middle of the cards' outer edges (the railway with the
        cards about to be laid, turned as it lies) on the middle of `area`."""
        short, long = state.edition.card_mm
        lefts, tops, rights, bottoms = [], [], [], []
        for pose in [*state.layout, *also]:
            if pose is None:
                continue
            turned = self.turned(pose)
            half_w, half_h = (
                (long / 2, short / 2)
                if round(turned.rotation) % 180 == 90
                else (
                    short / 2,
                    long / 2,
                )
            )
            lefts.append(turned.x - half_w)
            rights.append(turned.x + half_w)
            tops.append(turned.y - half_h)
            bottoms.append(turned.y + half_h)
        return (
            (area[0] + area[2]) / 2 - (min(lefts) + max(rights)) / 2,
            (area[1] + area[3]) / 2 - (min(tops) + max(bottoms)) / 2,
        )

    def fit(
        self, state: GameState, played: Sequence[str], area: tuple[float, ...] = RAILWAY_AREA
    ) -> list[tuple[str, Pose]]:
        """The longest prefix of `played` that can lie inside `area`, each card
        at the legal placement farthest from the area's edges, its rail ends well clear of
        every other card's (a loop would leave the camera two ways to read the railway).
        Laura must play a card that can go somewhere (R-10): for her, a placement whose
        ends are clear only of the camera's joining distance will do when no other will."""
        railway, layout = list(state.railway), list(state.layout)
        fitted: list[tuple[str, Pose]] = []
        clearances = (_CLEAR_MM, _FORCED_CLEAR_MM) if state.player.laura else (_CLEAR_MM,)
        for code in played:
            best: tuple[float, Pose] | None = None
            options = geometry.legal_placements(state.edition, railway, layout, code)
            for clear in clearances:
                for pose in options:
                    room = self._room(state, railway, layout, code, pose, area, clear)
                    if room is not None and (best is None or room > best[0]):
                        best = (room, pose)
                if best is not None:
                    break
            if best is None:
                break
            fitted.append((code, best[1]))
            railway.append(code)
            layout.append(best[1])
        return fitted

    def _room(
        self,
        state: GameState,
        railway: list[str],
        layout: list[Pose | None],
        code: str,
        pose: Pose,
        area: tuple[float, ...],
        clear: float = _CLEAR_MM,
    ) -> float | None:
        room = self._space(state, pose, area)
        if room is None:
            return None
        size = state.edition.card_mm
        open_end = geometry.open_ends(railway, layout, size)
        ends = geometry.rail_ends(code, pose, size)
        for index, (other, other_pose) in enumerate(zip(railway, layout, strict=True)):
            if other_pose is None:
                continue
            for end in geometry.rail_ends(other, other_pose, size):
                if index == len(railway) - 1 and any(math.dist(end, o) < 1.0 for o in open_end):
                    continue
                if any(math.dist(end, new) < clear for new in ends):
                    return None
        return room

    def _space(self, state: GameState, pose: Pose, area: tuple[float, ...]) -> float | None:
        """How far a card at this engine pose keeps inside `area` on the table; None when
        it reaches out of it or into the marked zone (for cards shown, never laid)."""
        size = state.edition.card_mm
        table_pose = self.on_table(pose)
        half_w, half_h = (size[0] / 2, size[1] / 2)
        if round(table_pose.rotation) % 180 == 90:
            half_w, half_h = half_h, half_w
        left, top, right, bottom = area
        room = min(
            table_pose.x - half_w - left,
            right - table_pose.x - half_w,
            table_pose.y - half_h - top,
            bottom - table_pose.y - half_h,
        )
        zone_left, zone_top, zone_right, zone_bottom = ZONE
        on_zone = (
            table_pose.x + half_w > zone_left
            and table_pose.x - half_w < zone_right
            and table_pose.y + half_h > zone_top
            and table_pose.y - half_h < zone_bottom
        )
        return None if room < 0 or on_zone else room

    def turned(self, pose: Pose) -> Pose:
        """An engine pose turned as the railway lies turned on the table (a quarter turn
        takes the engine's (x, y) to (-y, x) and adds 90 degrees, as geometry draws it)."""
        x, y = pose.x, pose.y
        for _ in range(self.quarters):
            x, y = -y, x
        return Pose(x, y, (pose.rotation + 90.0 * self.quarters) % 360.0)

    def on_table(self, pose: Pose) -> Pose:
        """Where an engine pose lies on the table: turned, then slid."""
        turned = self.turned(pose)
        return Pose(turned.x + self.offset[0], turned.y + self.offset[1], turned.rotation)


def _scene_cards(
    state: GameState, players: Players, extra: Sequence[tuple[str, Pose]] = ()
) -> tuple[list[Any], int]:
    """The railway as it lies on the table (engine poses moved to the table), plus cards
    laid at the front; and the caboose's card index."""
    placed = [
        synthetic.PlacedCard(code, players.on_table(pose))
        for code, pose in zip(state.railway, state.layout, strict=True)
        if pose is not None
    ]
    placed += [synthetic.PlacedCard(code, players.on_table(pose)) for code, pose in extra]
    return placed, state.caboose


class Demo(FrameLoop):
    """One demo game end to end: players, synthetic camera, tracker, session, table. Its
    frames go through the frame loop of `companion run`."""

    def __init__(self, options: DemoOptions, table: Table, log: Any = None) -> None:
        if options.edition not in EDITIONS:
            raise DemoError(f"unknown edition {options.edition!r}: use one of {EDITIONS}")
        self.options = options
        self.table = table
        self.log = log
        try:
            dealt = record_of(deal(options.edition, _names(options), options.seed, options.variant))
        except RuleError as error:
            raise DemoError(f"cannot deal the game: {error.message}") from None
        if not isinstance(table.match, Match):
            table.load(_guessed(dealt, options.seed).as_json())
        game = self.ledger.game
        edition = load_edition(game.record.edition)
        if None in game.state.layout:
            raise DemoError(f"{edition.name}'s railway cannot be laid out on the table")
        self.truth_setup = dealt.setup  # the deal the players really hold
        self.players = Players(options)
        self._follow_history()
        self.camera = replace(
            synthetic.Camera.preset(options.camera), frame_size=options.frame_size
        )
        self.camera_seed = random.Random(options.seed).randrange(10**6)
        vision = VisionConfig(
            layout=LAYOUT,
            card_mm=edition.card_mm,
            frame_size=options.frame_size,
            px_per_mm=options.px_per_mm,
        )
        tracker = Tracker(TrackerConfig(still_frames=options.still_frames, zone=ZONE))
        super().__init__(Camera(vision, tracker), table)
        self.pins = pin_factory("mock")
        self._presses = threading.Condition()
        self.presses_taken = 0  # button presses the session has dealt with (taken or refused)
        self.controls = Controls(
            self._on_button,
            GPIO_PINS,
            debounce=options.debounce,
            hold=options.hold,
            pin_factory=self.pins,
        )
        self.session.outputs = self.controls
        self.tally = Tally()
        self.dice: tuple[Any, ...] = ()  # the dice on the table now
        self.thrown: tuple[Any, ...] = ()  # where the last settled throw lay
        self.showing: tuple[Any, int] | None = None  # the scene under the camera
        self.rng = random.Random()  # where dice land: seeded anew by each turn (`turn`)
        self.truth: tuple[str, ...] = ()  # the cards really laid this turn

    def close(self) -> None:
        self.controls.close()

    @property
    def ledger(self) -> Ledger:
        """The game the companion keeps (what it learnt of the players' game)."""
        match = self.table.match
        assert isinstance(match, Match)
        return match.ledger

    @property
    def session(self) -> Session:
        """The turn at the table as the companion follows it."""
        match = self.table.match
        assert isinstance(match, Match) and match.session is not None
        return match.session

    def _follow_history(self) -> None:
        """Lay the railway where the players have it: centred at the start, then moved as
        they moved it (slid, turned) for each turn already played. Where it lies decides
        where the next cards fit, so a resumed game must not start from the railway as it
        lies now: its players choose exactly as the uninterrupted game's did."""
        record = self.ledger.export()
        self.players.centre(snapshot_of(record, 0).state)
        for played in range(len(record.turns)):
            seen = snapshot_of(record, played).state
            before = replace(record, setup=self.truth_setup, turns=record.turns[:played])
            truth, _ = deal_replay(before)
            self.players.choose(_with_layout_of(truth, seen))

    # --- the camera ----------------------------------------------------------------------

    def scene(
        self,
        state: GameState,
        laid: Sequence[tuple[str, Pose]] = (),
        shown: Sequence[str] = (),
        hand_over: bool = False,
    ) -> Any:
        """The synthetic table showing the game's railway and caboose, plus cards being
        laid at the front, cards shown in the zone, the dice, and a hand if wanted."""
        placed, caboose = _scene_cards(state, self.players, laid)
        on = placed[caboose].pose
        for index, code in enumerate(shown):  # side by side, landscape, in pile order
            x = ZONE[0] + 48.0 + 94.0 * index
            placed.append(synthetic.PlacedCard(code, Pose(x, (ZONE[1] + ZONE[3]) / 2, 90.0)))
        hands = ()
        if hand_over:
            front = placed[len(state.railway) - 1].pose
            hands = (synthetic.Hand(front.x, front.y, 200.0),)
        return synthetic.Scene(
            cards=tuple(placed),
            railway=tuple(range(len(state.railway) + len(laid))),
            caboose=caboose,
            caboose_at=(on.x, on.y),
            dice=self.dice,
            hands=hands,
            card_mm=state.edition.card_mm,
            layout=LAYOUT,
        )

    def look(self, scene: Any, attempt: int = 0, frames: int | None = None) -> None:
        """Show the camera a scene for `frames` frames (default: long enough to be still);
        the same frame repeated is not recognised again, as on a real camera. A question
        about a card is answered with the truth, and counted. A scene the camera already
        shows is not rendered again: nothing on the table moved."""
        frame = None
        if (scene, attempt) != self.showing:
            frame = synthetic.render(scene, self.camera_seed + attempt, self.camera)
            self.showing = (scene, attempt)
            self.tally.rendered += 1
        self.run(_Still(frame), self.options.delay, frames or self.options.still_frames)

    def step(self, frame: np.ndarray | None) -> list[object]:
        """One frame through the service's loop; then a question about a card is answered
        with the truth, and counted, as the players at the table would answer it."""
        events = super().step(frame)
        self.tally.frames += 1
        question = self.session.question
        if question is not None and question.card < len(self.truth):
            self.tally.asked += 1
            self.table.handle(Answer(self.truth[question.card]))
        return events

    def look_until(self, scene: Any, done: Any, what: str) -> None:
        """Show a still scene until `done()`; a camera that stays stuck on one frame is
        given a slightly different one (as a real sensor's noise would)."""
        for attempt in range(4):
            self.look(scene, attempt)
            if done():
                return
        raise DemoError(f"the companion did not see {what}: {self.session.status()['message']}")

    def moving(self, state: GameState) -> bool:
        return self.options.motion_every > 0 and state.turn % self.options.motion_every == 0

    # --- the buttons ---------------------------------------------------------------------

    def _on_button(self, button: str) -> None:
        """The session takes the press; then whoever pressed is told it was dealt with."""
        try:
            self.table.handle(Press(button))
        finally:
            with self._presses:
                self.presses_taken += 1
                self._presses.notify_all()

    def press(self, button: str, done: Callable[[], bool]) -> bool:
        """Press a button on its mock pin until the controls count it as down, release it,
        and wait until the session has dealt with the press; then whether `done()`. Each
        step waits for what it needs, not for a time: the debounce runs on timer threads,
        late on a busy machine, and a slow machine makes the demo slower, never wrong.
        Only a step that has not happened after PRESS_TIMEOUT seconds stops the demo."""
        device = self.controls.pass_button if button == "pass" else self.controls.confirm_button
        pin = self.pins.pin(GPIO_PINS[button])
        with self._presses:
            taken = self.presses_taken
        pin.drive_low()
        down = device.wait_until(True, PRESS_TIMEOUT)
        pin.drive_high()
        if not down:
            raise DemoError(f"{button.upper()} was held {PRESS_TIMEOUT:.0f} s, never seen down")
        with self._presses:
            if not self._presses.wait_for(lambda: self.presses_taken > taken, PRESS_TIMEOUT):
                raise DemoError(
                    f"{button.upper()} was released but not reported within "
                    f"{PRESS_TIMEOUT:.0f} s: the controls' debounce timers did not run"
                )
        return done()

    def confirm(self, state: GameState) -> None:
        """Move the caboose and take the penalty cards as computed (showing those taken
        from the draw pile), then CONFIRM."""
        wanted = self.ledger.to_show()
        if wanted is not None and wanted[0] == "taken" and wanted[2] > ZONE_CARDS:
            # more than the zone holds: typed on the page
            self.table.handle(Show(tuple(self.taken_from_draw())))
        elif wanted is not None and wanted[0] == "taken":
            taken = self.taken_from_draw()
            self.look_until(
                self.scene(state, shown=taken),
                lambda: self.ledger.to_show() != wanted,
                f"the cards taken from the draw pile ({' '.join(taken)})",
            )
        scene = self.scene(state)
        self.look_until(scene, lambda: self.session.mismatch is None, "the computed move")
        if not self.press("confirm", lambda: self.session.phase in (WAITING, OVER)):
            raise DemoError(f"CONFIRM was not accepted: {self.session.status()['message']}")

    # --- a turn --------------------------------------------------------------------------

    def turn(self) -> None:
        """One whole turn as the players live it, then the truth compared with the record."""
        if self.session.phase == CHECKING:  # resumed after the turn was accepted
            self.confirm(self.true_state())
            return
        state = self.true_state()
        moved = (self.players.offset, self.players.quarters)
        action = self.players.choose(state)
        if (self.players.offset, self.players.quarters) != moved:  # let the railway settle
            self.look(self.scene(state))
        turns = len(self.ledger.game.record.turns)
        # seeded by the turn, not by the turns this run has watched: a resumed game's
        # dice land where the uninterrupted game's did
        self.rng = random.Random(f"{self.options.seed}/table/{turns}")
        self.truth = action.cards if isinstance(action, Play) else ()
        if isinstance(action, Play):
            self.play(state, action)
        elif isinstance(action, Chaos):
            shown = self.scene(state, shown=action.cards)
            self.look_until(shown, lambda: self._accepted(turns), "the chaos cards shown")
            self._announce(turns)
            self.look(self.scene(self.true_state()))
        else:
            if state.player.laura:  # her card is turned up, cannot be played: she passes
                card = state.draw[0]
                self.look_until(
                    self.scene(state, shown=(card,)),
                    lambda: self.ledger.game.state.draw[:1] == (card,),
                    f"Laura's card {card} shown",
                )
                self.look(self.scene(state))
            if not self.press("pass", lambda: self._accepted(turns)):
                raise DemoError(f"PASS was not taken: {self.session.status()['message']}")
            self._announce(turns)
            self.confirm(self.true_state())
        self._compare(turns, action)

    def play(self, state: GameState, action: Play) -> None:
        turns = len(self.ledger.game.record.turns)
        laid = list(zip(action.cards, action.place or (), strict=True))
        if self.moving(state):
            self.look(self.scene(state, laid[:1], hand_over=True), frames=1)
        # Dice left from the last roll where the new cards go are gathered up, all of them
        # (a die left alone would look like one just rolled).
        down = self.scene(state, laid).cards
        if any(_under(die, down) for die in self.dice):
            self.dice = ()
        target = CHECKING if state.player.laura else STAGED
        self.look_until(
            self.scene(state, laid),
            lambda: self.session.phase == target or self._accepted(turns),
            f"{' '.join(action.cards)} laid",
        )
        for start in range(0, len(action.roll), self.session.config.dice_per_roll):
            batch = action.roll[start : start + self.session.config.dice_per_roll]
            cards_down = self.scene(state, laid).cards
            if self.moving(state):
                self.dice = self._throw(batch, settled=False, cards_down=cards_down)
                self.look(self.scene(state, laid), frames=1)
            self.dice = self._throw(batch, settled=True, cards_down=cards_down)
            rolled = self._rolled()
            self.look_until(
                self.scene(state, laid),
                lambda rolled=rolled: self._accepted(turns) or self._rolled() > rolled,
                f"the dice {list(batch)}",
            )
        if not self._accepted(turns):
            raise DemoError(f"the play was not taken: {self.session.status()['message']}")
        self._announce(turns)
        self.confirm(self.true_state())

    def _throw(
        self, wheels: Sequence[int], settled: bool, cards_down: Sequence[Any] = ()
    ) -> tuple[Any, ...]:
        """Dice at random spots along the dice area, apart from each other and from where
        the last throw lay (thrown dice never land exactly where they lay: the tracker
        tells a new throw by that), and off the cards lying there (a railway slid down
        the table may reach the dice area; a die on a card is not a die rolled). When the
        railway leaves too little of the dice area free (in a game with Laura it may cover
        it), the dice land wherever the table is free of cards and of the marked zone, as
        players throw them where there is room. Faces are the roll once settled, anything
        while they tumble."""
        left, top, right, bottom = DICE_AREA
        middle = (top + bottom) / 2
        spots = [(left + 20 + 40 * slot, middle) for slot in range(int((right - left) // 40))]
        self.rng.shuffle(spots)

        def clear(spot: tuple[float, float]) -> bool:
            die = synthetic.PlacedDie("wheels", 0, spot[0], spot[1], 0.0)
            return not _under(die, cards_down)

        off_cards = [spot for spot in spots if clear(spot)]
        if len(off_cards) < len(wheels):
            elsewhere = [
                (x, y)
                for x in range(int(LAURA_AREA[0]) + 30, int(LAURA_AREA[2]) - 29, 40)
                for y in range(int(LAURA_AREA[1]) + 30, int(LAURA_AREA[3]) - 29, 40)
                if clear((x, y)) and not _in(ZONE, (x, y), margin=30.0)
            ]
            self.rng.shuffle(elsewhere)
            off_cards += elsewhere
        if len(off_cards) >= len(wheels):
            spots = off_cards
        before = self.dice + self.thrown
        free = [spot for spot in spots if all(abs(d.x - spot[0]) >= 30 for d in before)]
        spots = free + [spot for spot in spots if spot not in free]
        dice = []
        for (x, y), face in zip(spots, wheels, strict=False):
            shown = face if settled else self.rng.choice((0, 1, 2))
            in_dice_area = _in(DICE_AREA, (x, y))
            dice.append(
                synthetic.PlacedDie(
                    "wheels",
                    shown,
                    x + self.rng.uniform(-5, 5),
                    self.rng.uniform(top + 5, bottom - 5) if in_dice_area else y,
                    self.rng.uniform(0, 90),
                )
            )
        if settled:
            self.thrown = tuple(dice)
        return tuple(dice)

    def _rolled(self) -> int:
        roll = self.session.status()["roll"]
        return len(roll["seen"]) if roll else 0

    def _accepted(self, turns: int) -> bool:
        return len(self.ledger.game.record.turns) > turns

    def _announce(self, turns: int) -> None:
        """Say that a turn was accepted: only now may anyone rely on it (the kill test)."""
        if self.log is not None:
            print(f"accepted turn {turns + 1}", file=self.log, flush=True)

    def _compare(self, turns: int, truth: Action) -> None:
        """The record's turn against the action the players really took."""
        record = self.ledger.game.record
        self.tally.turns += 1
        if len(record.turns) <= turns:
            self.tally.mismatched.append(turns + 1)
            return
        seen = record.turns[turns]
        if _same_turn(seen, truth):
            self.tally.matched += 1
        else:
            self.tally.mismatched.append(turns + 1)

    def play_game(self) -> dict[str, Any]:
        """Turns until the game is over; the final state as `companion replay --json`
        prints it, and how the camera did."""
        self.look(self.scene(self.true_state()))  # the table as it lies now
        while not self.ledger.game.state.over:
            self.turn()
        if self.session.phase == CHECKING:
            self.confirm(self.true_state())
        self.show_hands()
        doc = self.ledger.summary()
        doc["camera_matched_every_turn"] = not self.tally.mismatched and not self.tally.asked
        doc["camera"] = self.tally.as_json()
        doc["truth_matched"] = _hands_sorted(doc) == _hands_sorted(
            summary(self.true_state(), doc["log"])
        )
        return doc

    # --- the truth -----------------------------------------------------------------------

    def _true_record(self) -> Record:
        """The game the players really play: the true deal and the turns the companion
        accepted (the turns are the players' own actions, seen)."""
        return replace(self.ledger.export(), setup=self.truth_setup)

    def true_state(self) -> GameState:
        state, _ = deal_replay(self._true_record())
        return _with_layout_of(state, self.ledger.game.state)

    def taken_from_draw(self) -> tuple[str, ...]:
        """The cards the last turn really took from the draw pile (Loose Caboose)."""
        _, shown = deal_replay(self._true_record())
        return tuple(
            e.cards[0] for e in shown[-1] if e.what == TOOK and e.detail["source"] == "draw"
        )

    def show_hands(self) -> None:
        """At the end each player shows their hand in the zone; a hand longer than the
        zone holds is typed on the page instead (as `POST /api/shown` does)."""
        truth = self.true_state()
        while (wanted := self.ledger.to_show()) is not None and wanted[0] == "hand":
            hand = truth.seats[wanted[1]].hand
            if len(hand) > ZONE_CARDS:
                self.table.handle(Show(tuple(hand)))
                continue
            self.truth = hand
            self.look_until(
                self.scene(truth, shown=hand),
                lambda wanted=wanted: self.ledger.to_show() != wanted,
                f"{truth.seats[wanted[1]].name}'s hand shown",
            )
            self.look(self.scene(truth))  # the cards are taken back: the zone is empty again


class _Still(FrameSource):
    """The camera over a table where nothing moves: the frame shown, then the same picture
    again (None: not recognised again, as on a real camera)."""

    def __init__(self, frame: np.ndarray | None) -> None:
        self.frame = frame

    def read(self) -> np.ndarray | None:
        frame, self.frame = self.frame, None
        return frame


def _in(area: tuple[float, ...], spot: tuple[float, float], margin: float = 0.0) -> bool:
    """Whether a spot lies within `margin` of a table area (left, top, right, bottom)."""
    left, top, right, bottom = area
    return left - margin <= spot[0] <= right + margin and top - margin <= spot[1] <= bottom + margin


def _under(die: Any, cards_down: Sequence[Any]) -> bool:
    """Whether a die at this spot would lie on (or against) one of the cards."""
    return any(
        abs(card.pose.x - die.x) <= CARD_REACH_MM and abs(card.pose.y - die.y) <= CARD_REACH_MM
        for card in cards_down
    )


def _guessed(record: Record, seed: str) -> Record:
    """The companion's provisional deal: the record's hands and draw pile, which nobody
    sees at the start, shuffled together (the railway lies in plain view)."""
    setup = {key: list(value) if isinstance(value, list) else value for key, value in
             record.setup.items()}  # fmt: skip
    setup["hands"] = [list(hand) for hand in record.setup["hands"]]
    unseen = [code for hand in setup["hands"] for code in hand] + setup["draw"]
    random.Random(f"{seed}/guess").shuffle(unseen)
    for hand in setup["hands"]:
        hand[:], unseen = unseen[: len(hand)], unseen[len(hand) :]
    setup["draw"] = unseen
    return replace(record, setup=setup, turns=[])


def _with_layout_of(state: GameState, seen: GameState) -> GameState:
    """The true state with the railway's poses as the table has them (the same cards lie
    in the same places; the engine's fold does not keep the setup's poses)."""
    return replace(state, layout=seen.layout)


def _hands_sorted(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """A summary's players, each hand as a set of cards: the order in which a player holds
    them is not something a table shows."""
    return [p | {"hand": sorted(p["hand"])} for p in doc["players"]]


def _same_turn(seen: dict[str, Any], truth: Action) -> bool:
    if isinstance(truth, Pass):
        return "pass" in seen
    if isinstance(truth, Chaos):
        return seen.get("chaos") == list(truth.cards)
    # A roll lists wheels per die; which die is which is not seen, nor does it matter.
    if seen.get("play") != list(truth.cards) or sorted(seen.get("roll", ())) != sorted(truth.roll):
        return False
    places = seen.get("place") or []
    return len(places) == len(truth.place or ()) and all(
        math.dist(p[:2], t[:2]) < 5.0 and _angle(p[2], t.rotation) < 10.0
        for p, t in zip(places, truth.place or (), strict=True)
    )


def _angle(a: float, b: float) -> float:
    turn = abs(a - b) % 360.0
    return min(turn, 360.0 - turn)


def run_demo(
    options: DemoOptions, store: Path | None = None, log: Any = None, serve: Any = None
) -> tuple[dict[str, Any], Record]:
    """Play (or resume) one demo game: its result (as `companion replay --json` prints
    it, plus how the camera did) and its record. `serve(table)` starts the page.
    A store whose demo is already over only reports how it ended."""
    with tempfile.TemporaryDirectory(prefix="caboose-demo-") as folder:
        setting = Setting(provisional=True, camera=SessionConfig())
        table = Table(Store(store or Path(folder) / "demo.sqlite3"), setting)
        try:
            games = table.store.games()
            if not isinstance(table.match, Match) and games:
                record = stored_record(table.store, games[-1][0])
                done = replay(record)
                doc = summary(done.state, done.lines)
                doc["camera_matched_every_turn"] = True  # no turn was watched this time
                doc["camera"] = Tally().as_json()
                dealt = deal(options.edition, _names(options), options.seed, options.variant)
                truth, _ = deal_replay(replace(record, setup=record_of(dealt).setup))
                doc["truth_matched"] = _hands_sorted(doc) == _hands_sorted(
                    summary(truth, doc["log"])
                )
                return doc, record
            demo = Demo(options, table, log)
            if serve is not None:
                serve(table)
            try:
                return demo.play_game(), demo.ledger.export()
            finally:
                demo.close()
        finally:
            table.store.close()


def _serve(host: str, port: int, pin: str | None) -> Any:
    def start(table: Table) -> None:
        chosen = serve_page(table, host, port, pin)
        shown = "localhost" if host in ("0.0.0.0", "::") else host
        print(f"Caboose Companion demo: watch at http://{shown}:{port}/  (PIN {chosen})")
        sys.stdout.flush()

    return start


def store_refusal(path: Path, options: DemoOptions) -> str | None:
    """Why the demo cannot play its game in the store at `path`, or None if it can. A store
    keeps one game: resuming it with another edition, other players or another seed would
    be another game, so it is refused before anything is played, naming what to give
    instead. Raises StoreError (an OSError) for a file that is no store at all."""
    store = Store(path)
    try:
        games = store.games()
        if not games:
            return None
        current = store.current()
        kept = stored_record(store, current if current is not None else games[-1][0])
    except RecordError as error:
        return f"{path} holds a game the demo cannot read ({error}): give another --store file"
    finally:
        store.close()
    try:
        dealt = record_of(deal(options.edition, _names(options), options.seed, options.variant))
    except RuleError:
        return None  # these options deal no game at all: the demo says why
    if (kept.edition, kept.variant, kept.players) != (dealt.edition, dealt.variant, dealt.players):
        return (
            f"{path} holds a game of {_described(kept)}, not of {_described(dealt)}: give "
            f"another --store file, or that game's options ({_options_of(kept)})"
        )
    public = ("railway", "caboose")  # what a deal shows face up, the same in every store
    if any(kept.setup.get(key) != dealt.setup.get(key) for key in public):
        return (
            f"{path} holds a game dealt from another seed than {options.seed!r}: give "
            "another --store file, or the --seed of that game"
        )
    return None


def _described(record: Record) -> str:
    """A game in words: its edition, variant and players."""
    game = load_edition(record.edition).name
    if record.variant:
        return f"{game} ({record.variant})"
    return f"{game} for {len(record.players)} players"


def _options_of(record: Record) -> str:
    """The demo's options that deal a game like `record` (all but its seed)."""
    edition = f"--edition {record.edition}"
    if record.variant:
        return f"{edition} --variant {record.variant}"
    return f"{edition} --players {len(record.players)}"


def main(args: argparse.Namespace) -> int:
    """`companion demo`; exit 0 when the game was played to its end, 2 when it could not."""
    delay = args.delay if args.delay is not None else (0.0 if args.headless else 0.4)
    options = DemoOptions(
        edition=args.edition,
        players=args.players,
        variant=args.variant,
        seed=str(args.seed),
        camera=args.camera,
        delay=delay,
        motion_every=4 if args.headless else 1,
    )
    if args.store is not None:
        try:
            refusal = store_refusal(args.store, options)
        except OSError as error:  # StoreError: a folder, another program's file
            refusal = str(error)
        if refusal is not None:
            print(f"companion demo: --store: {refusal}", file=sys.stderr)
            return 2
    serve = None if args.headless else _serve(args.host, args.port, args.pin)
    try:
        doc, record = run_demo(options, args.store, sys.stderr if args.progress else None, serve)
    except DemoError as error:
        print(f"demo stopped: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the page's port is taken, the store cannot be written
        print(f"companion demo: {error}", file=sys.stderr)
        return 2
    if args.record is not None:
        try:
            save(record, args.record)
        except OSError as error:  # checked at the start, but its folder may since have gone
            print(
                f"companion demo: cannot write the record {args.record} "
                f"({error.strerror or error}): its folder went while the game was played",
                file=sys.stderr,
            )
            return 2
    if args.json:
        print(json.dumps(doc))
    else:
        for line in doc["log"]:
            print(line)
        print(f"camera matched every turn: {doc['camera_matched_every_turn']}")
        print(f"the companion's game is the players' true game: {doc['truth_matched']}")
    if not args.headless:
        print("the game is over; the page stays up until Ctrl-C")
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0
