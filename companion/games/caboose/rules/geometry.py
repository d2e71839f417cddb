"""Where track cards lie on the table, and whether a new card may join the railway (R-8).

Conventions, shared with the vision and the synthetic table: table millimetres, x to the
right, y down as the camera sees it, rotation in degrees clockwise. A card at rotation 0 is
portrait, W wide and H long (the edition's `card_mm`). Its track joins two edge midpoints:
a straight the two short edges, (0, -H/2) and (0, +H/2); a curve the bottom short edge
(0, +H/2) and the right long edge (+W/2, 0).

A railway runs from the back (index 0) to the front (the last card). The front's open rail
end is the one not joined to the card before it; a new card must put one of its rail ends on
that point, facing it, overlap no card (touching is fine), and in Loose Caboose its other,
new open end must not touch another card's rail end, which would close a loop.

Poses the engine proposes are exact multiples of 90 degrees; poses the camera measures are
checked with a tolerance. A pose may be unknown (None): such cards are skipped, and when the
front's pose is unknown the first placed card becomes the new anchor (R-12).

The hot path (`legal_placements`, used by bots on every turn) avoids numpy: for a few dozen
cards plain floats are several times faster than building arrays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.rules.edition import Edition
from companion.pose import Pose

Point = tuple[float, float]

# How far apart two points may be and still count as one (float noise on engine poses).
_EXACT_MM = 0.5


class PlacementError(ValueError):
    """A card cannot lie where it was put; the message says why, in a player's words, and
    `key` and `params` say the same as a kind and its parameters (see `RuleError`)."""

    def __init__(self, message: str, key: str, params: dict[str, Any]) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


@lru_cache(maxsize=64)
def _turn(degrees: float) -> tuple[float, float]:
    """(cos, sin) of a clockwise rotation; exact for multiples of 90 degrees."""
    quarter = degrees / 90.0
    if quarter == int(quarter):
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(quarter) % 4]
    radians = math.radians(degrees)
    return math.cos(radians), math.sin(radians)


def _rotate(x: float, y: float, degrees: float) -> Point:
    c, s = _turn(degrees)
    return x * c - y * s, x * s + y * c


def _local_ends(shape: str | None, size: tuple[float, float]) -> tuple[Point, Point]:
    w, h = size
    if shape == cards.CURVE:
        return (0.0, h / 2), (w / 2, 0.0)
    return (0.0, -h / 2), (0.0, h / 2)


@lru_cache(maxsize=4096)
def _ends(shape: str | None, pose: Pose, size: tuple[float, float]) -> tuple[Point, Point]:
    ends = []
    for lx, ly in _local_ends(shape, size):
        dx, dy = _rotate(lx, ly, pose.rotation)
        ends.append((pose.x + dx, pose.y + dy))
    return ends[0], ends[1]


def rail_ends(code: str, pose: Pose, size: tuple[float, float]) -> tuple[Point, Point]:
    """The two rail ends of a card at `pose`, in table mm. A code without a shape is taken
    as a straight: its exact ends are unknown, and a straight's are the likelier guess."""
    return _ends(cards.shape(code), pose, size)


_distance = math.dist  # between two points; C, not a Python call, on the hot path


def open_ends(
    railway: Sequence[str], layout: Sequence[Pose | None], size: tuple[float, float]
) -> tuple[Point, ...]:
    """Where the next card may join: the front card's rail end that is not joined to the
    card before it. When the card before it has no known pose (a railway only partly seen,
    R-12), the pose alone cannot tell the ends apart and both are open; when the front's
    own pose is unknown, none is known."""
    if not railway or not layout or layout[-1] is None:
        return ()
    front = _ends(cards.shape(railway[-1]), layout[-1], size)  # rail_ends, one call less
    if len(railway) < 2 or layout[-2] is None:
        return front
    p0, p1 = _ends(cards.shape(railway[-2]), layout[-2], size)
    f0, f1 = front
    first_joined = min(_distance(f0, p0), _distance(f0, p1)) <= min(
        _distance(f1, p0), _distance(f1, p1)
    )
    return (f1,) if first_joined else (f0,)


def _half(rotation: float, size: tuple[float, float]) -> Point:
    """Half the width and height of the axis-aligned box around a card so turned. Asked
    for every card near every placement: a quarter turn, as every pose the engine makes
    is, by arithmetic alone, without hashing floats for a cache."""
    quarter = rotation % 180.0
    if quarter == 0.0:
        return size[0] / 2, size[1] / 2
    if quarter == 90.0:
        return size[1] / 2, size[0] / 2
    return _turned_half(rotation, size)


@lru_cache(maxsize=256)
def _turned_half(rotation: float, size: tuple[float, float]) -> Point:
    """`_half` of a card turned by other than a quarter turn (the camera's poses)."""
    w, h = size
    c, s = _turn(rotation)
    return abs(c) * w / 2 + abs(s) * h / 2, abs(s) * w / 2 + abs(c) * h / 2


def _axis_aligned(pose: Pose) -> bool:
    return pose.rotation % 90.0 == 0.0


def _overlap(a: Pose, b: Pose, size: tuple[float, float], margin: float) -> bool:
    """Whether two cards overlap by more than `margin` mm (touching edges do not)."""
    ahx, ahy = _half(a.rotation, size)
    bhx, bhy = _half(b.rotation, size)
    if ahx + bhx - abs(a.x - b.x) <= margin or ahy + bhy - abs(a.y - b.y) <= margin:
        return False
    if _axis_aligned(a) and _axis_aligned(b):
        return True
    # Separating axis test on the four edge directions of the two rectangles.
    w, h = size
    for pose in (a, b):
        c, s = _turn(pose.rotation)
        for ux, uy in ((c, s), (-s, c)):
            spans = []
            for other in (a, b):
                oc, os_ = _turn(other.rotation)
                centre = other.x * ux + other.y * uy
                radius = abs(oc * ux + os_ * uy) * w / 2 + abs(-os_ * ux + oc * uy) * h / 2
                spans.append((centre - radius, centre + radius))
            if min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0]) <= margin:
                return False
    return True


@lru_cache(maxsize=64)
def _relative_candidates(
    shape: str | None, outward: Point, size: tuple[float, float]
) -> tuple[tuple[float, float, float, float, float], ...]:
    """Every placement of a card of `shape` joining an open end facing `outward` from
    outside, relative to that end: (centre dx, dy, rotation, its new open end dx, dy).
    There are only a few dozen distinct inputs, so they are worked out once."""
    shapes = (cards.STRAIGHT, cards.CURVE) if shape is None else (shape,)
    found: list[tuple[float, float, float, float, float]] = []
    for kind in shapes:
        local = _local_ends(kind, size)
        for rotation in (0.0, 90.0, 180.0, 270.0):
            for index in (0, 1):
                lx, ly = local[index]
                nx, ny = _rotate(*_unit(lx, ly), rotation)
                if abs(nx + outward[0]) > 1e-9 or abs(ny + outward[1]) > 1e-9:
                    continue  # this end would not face the open end
                ex, ey = _rotate(lx, ly, rotation)
                ox, oy = _rotate(*local[1 - index], rotation)
                candidate = (-ex, -ey, rotation, ox - ex, oy - ey)
                if kind == cards.STRAIGHT and any(
                    abs(c[0] + ex) < _EXACT_MM and abs(c[1] + ey) < _EXACT_MM for c in found
                ):
                    continue  # a straight turned half round is the same card on the table
                found.append(candidate)
    return tuple(found)


def _unit(x: float, y: float) -> Point:
    length = math.hypot(x, y)
    return x / length, y / length


def _outward(end: Point, front: Pose) -> Point:
    """The unit direction pointing out of the front card at its open end `end`, snapped to
    the nearest table axis (the end lies on the middle of an edge: this is its normal)."""
    return _outward_from_centre(end[0] - front.x, end[1] - front.y, front.rotation)


@lru_cache(maxsize=1024)
def _outward_from_centre(dx: float, dy: float, rotation: float) -> Point:
    """`_outward` of an end `dx, dy` from the centre of a card so turned: the engine's
    poses give only a few such ends, so each is worked out once."""
    c, s = _turn(rotation)
    along, across = dx * c + dy * s, -dx * s + dy * c  # in the card's own frame
    if abs(along) > abs(across):
        lx, ly = (1.0 if along > 0 else -1.0), 0.0
    else:
        lx, ly = 0.0, (1.0 if across > 0 else -1.0)
    nx, ny = _rotate(lx, ly, round(rotation / 90.0) * 90.0)
    return float(round(nx)), float(round(ny))


# (railway index, code, pose, half width and half height of its axis-aligned box)
Nearby = list[tuple[int, str, Pose, float, float]]


def _nearby(
    railway: Sequence[str],
    layout: Sequence[Pose | None],
    point: Point,
    reach: float,
    size: tuple[float, float],
) -> Nearby:
    """The railway cards whose centres lie within `reach` of `point` on both axes: the only
    ones a card laid there could touch. Most of a long railway is dropped by this test
    alone, once per placement question rather than per candidate; the boxes of the cards
    kept are worked out here once, for every candidate to test against."""
    if len(railway) != len(layout):
        raise ValueError(f"{len(railway)} railway cards but {len(layout)} poses")
    x, y = point
    near = []
    for index, pose in enumerate(layout):  # a loop, and no abs(): once per card every turn
        if pose is not None and -reach < pose.x - x < reach and -reach < pose.y - y < reach:
            near.append((index, railway[index], pose, *_half(pose.rotation, size)))
    return near


@lru_cache(maxsize=64)
def _reach(size: tuple[float, float], margin: float) -> float:
    """How far apart two card centres may be and the cards still touch: a diagonal."""
    return math.hypot(*size) + margin


def _conflict(
    edition: Edition,
    near: Nearby,
    pose: Pose,
    new_end: Point | None,
    joined: Point,
    margin: float,
) -> tuple[str, str, dict[str, Any]] | None:
    """Why a card at `pose` cannot lie there (in words, as a key and its parameters), or
    None when it can. Asked for every candidate of every placement question: the cheap
    box test runs inline, the words are made only for a conflict."""
    size = edition.card_mm
    ahx, ahy = _half(pose.rotation, size)
    x, y = pose.x, pose.y
    check_loops = not edition.loops and new_end is not None
    for index, code, other, bhx, bhy in near:
        apart = ahx + bhx - abs(x - other.x) <= margin or ahy + bhy - abs(y - other.y) <= margin
        if not apart and _overlap(pose, other, size, margin):
            why = f"it would lie on top of railway card {index + 1} ({code})"
            return why, "placement_on_top", {"other": index + 1, "other_code": code}
        if not check_loops:
            continue
        for end in rail_ends(code, other, size):
            if _distance(end, joined) <= margin:
                continue  # the end it is joined to
            if _distance(end, new_end) <= margin:
                why = f"it would close a loop with railway card {index + 1} ({code})"
                return why, "placement_loop", {"other": index + 1, "other_code": code}
    return None


def legal_placements(
    edition: Edition, railway: Sequence[str], layout: Sequence[Pose | None], code: str
) -> list[Pose]:
    """Every pose where `code` may join the front of the railway, in a fixed order; empty
    when none is free or the front's pose is unknown. A code without a shape may be either.
    Cheap enough to call for every card of every hand on every turn (bench/)."""
    if cards.is_chaos(code):
        return []
    size = edition.card_mm
    shape = cards.shape(code)
    found: list[Pose] = []
    for end in open_ends(railway, layout, size):
        near = _nearby(railway, layout, end, _placement_reach(size), size)
        ex, ey = end
        outward = _outward(end, layout[-1])
        for dx, dy, rotation, ox, oy in _relative_candidates(shape, outward, size):
            pose = Pose(ex + dx, ey + dy, rotation)
            if _conflict(edition, near, pose, (ex + ox, ey + oy), end, _EXACT_MM) is None:
                found.append(pose)
    return found


@lru_cache(maxsize=16)
def _placement_reach(size: tuple[float, float]) -> float:
    """How far from an open end a card laid there could touch another: a new card's centre
    lies at most H/2 from the end it joins."""
    return _reach(size, _EXACT_MM) + max(size) / 2


def extend(
    edition: Edition, railway: Sequence[str], layout: Sequence[Pose | None], codes: Sequence[str]
) -> list[Pose]:
    """The poses of `codes` laid one after another at the front, each at its first legal
    placement: how a run of cards is laid once its first card's pose is chosen. Shorter
    than `codes` where the next card fits nowhere."""
    track, poses = list(railway), list(layout)
    for code in codes:
        found = legal_placements(edition, track, poses, code)
        if not found:
            break
        track.append(code)
        poses.append(found[0])
    return poses[len(layout) :]


def _square(rotation: float, tolerance_deg: float) -> bool:
    off = rotation % 90.0
    return min(off, 90.0 - off) <= tolerance_deg


def _measured_end(
    code: str, pose: Pose, end: Point, size: tuple[float, float], tolerance_mm: float
) -> Point | None:
    """The new open end of a card measured at `pose` if one of its rail ends lies on `end`;
    a code without a shape is tried as both shapes."""
    shape = cards.shape(code)
    for kind in (cards.STRAIGHT, cards.CURVE) if shape is None else (shape,):
        first, second = _ends(kind, pose, size)
        if _distance(first, end) <= tolerance_mm:
            return second
        if _distance(second, end) <= tolerance_mm:
            return first
    return None


def check_play(
    edition: Edition,
    railway: Sequence[str],
    layout: Sequence[Pose | None],
    codes: Sequence[str],
    poses: Sequence[Pose],
    *,
    tolerance_mm: float = 6.0,
    tolerance_deg: float = 15.0,
) -> None:
    """Raise PlacementError unless each card of a play, in order, may join the railway at
    its pose. Poses come from the camera or a record, so they are checked with a tolerance.
    The values rule (R-11) is the engine's, not this module's."""
    size = edition.card_mm
    railway, layout = list(railway), list(layout) or [None] * len(railway)
    for number, (code, pose) in enumerate(zip(codes, poses, strict=True), start=1):
        card = f"card {number} played ({code})"
        which = {"number": number, "code": code}
        if not _square(pose.rotation, tolerance_deg):
            degrees = f"{pose.rotation:.0f}"
            raise PlacementError(
                f"{card} is laid at {degrees} degrees: lay it straight along the table",
                "placement_crooked",
                which | {"degrees": degrees},
            )
        joined: Point = (math.inf, math.inf)
        new_end = None
        for end in open_ends(railway, layout, size):
            new_end = _measured_end(code, pose, end, size, tolerance_mm)
            if new_end is not None:
                joined = end
                break
        else:
            if layout and layout[-1] is not None:
                raise PlacementError(
                    f"{card} does not join the open end of the front card: "
                    "put one of its track ends against it",
                    "placement_apart",
                    which,
                )
        near = _nearby(railway, layout, (pose.x, pose.y), _reach(size, tolerance_mm), size)
        conflict = _conflict(edition, near, pose, new_end, joined, tolerance_mm)
        if conflict is not None:
            why, key, other = conflict
            raise PlacementError(f"{card} cannot lie there: {why}", key, which | other)
        railway.append(code)
        layout.append(pose)


def first_railway_layout(edition: Edition, codes: Sequence[str]) -> tuple[Pose, ...] | None:
    """Poses for a dealt first railway: the back card portrait at the origin, each next card
    at its first legal placement. None if a card has no shape (its rail ends are unknown)
    or cannot be laid."""
    if not codes or any(cards.shape(code) is None for code in codes):
        return None
    layout: list[Pose | None] = [Pose(0.0, 0.0, 0.0)]
    for index in range(1, len(codes)):
        options = legal_placements(edition, codes[:index], layout, codes[index])
        if not options:
            return None
        layout.append(options[0])
    return tuple(p for p in layout if p is not None)
