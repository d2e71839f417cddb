"""The people at the Caboose demo's synthetic table (`companion demo`): what they choose to
play (a bot's policy, which knows the truth of the game; Laura's action by the rules) and
where on the table they lay their cards. They keep the railway on the table: when it runs
towards an edge they slide it back to the middle, or turn it, as players do, and they keep
the cards off the marked zone where cards are shown and off the dice's strip.

The table's regions (mm) are the demo's own: the railway keeps to the top, the marked zone
where cards are shown is bottom left, the dice land along the bottom.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.caboose import cards
from companion.games.caboose.bots import POLICIES
from companion.games.caboose.rules import geometry
from companion.games.caboose.rules.engine import dice_to_roll, laura_action
from companion.games.caboose.rules.state import Action, Chaos, GameState, Pass, Play
from companion.games.protocol import DemoError
from companion.pose import Pose

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
_FORCED_CLEAR_MM = 15.0
# How far from the middle of the area players may slide a railway to make room (mm).
_SHIFTS_MM = tuple(range(-400, 401, 40))


DICE = ("wheels", "pips", "printed")  # the dice a demo game throws (DemoOptions.dice)


@dataclass(frozen=True)
class DemoOptions:
    """One demo game of the Caboose design: its edition, players (as many as the variant
    seats, else `players`), seed and the bots' policies by seat; `motion_every` puts a hand
    over the table and tumbling dice into every n-th turn (frames the tracker must
    ignore); `dice`, the dice thrown: our wheel dice, "pips", standard pip dice read
    through the edition's face map (R-6), or "printed", a box's own wheel dice and token
    that are not ours (scenes.Scene.pieces), taught to the camera first."""

    edition: str = "loose-caboose"
    players: int = 3
    variant: str | None = None
    seed: str = "demo"
    motion_every: int = 4
    policies: tuple[str, ...] = ("cautious", "greedy")
    dice: str = "wheels"


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
        dice = dice_to_roll(state, played)
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
