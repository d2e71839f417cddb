"""A second look at a white number die the shared pip reader asked about: its face by a
template of a white die with black pips, drawn at the die's measured pose and blurred as
the picture is, fitted to the die's crop.

Why: the switching game's number dice lie beside the board at the table's edge, where a
hard camera sees them at about 0.6-0.7 px/mm and blurred; there the shared reader's layout
fit (the darkness at each place a pip can be, dice.py `_pip_face`) fits only loosely and
its learned count spreads its answer, so the die is asked. Yet a blurred die's whole
picture still says its face plainly (a 3 is a dark diagonal streak, a 4 four soft blots): a
model of the whole die (its body and its pips, each blurred) fitted by least squares
explains the crop far better with the true face than with any other. This reader is built
for exactly these dice (white, black round pips on a 3x3 grid scaled to the die's measured
side: ours and any box's drawn alike) and says nothing of any other: a die whose pips are
lighter than its body, or whose best face explains the crop only loosely or barely better
than the next, is left asked.

Cost: one crop, a few hundred small least-squares fits of sampled pixels, numpy only; asked
dice only (a few in a hundred).
"""

from __future__ import annotations

import numpy as np

from companion.vision.dice import CROP_PX_PER_MM
from companion.vision.dice_art import DIE_MM, PIP_MM, PIP_PITCH_MM, PIP_SPOTS

# the blur tried, a Gaussian sigma in mm (the picture's blur and its pixels' size together:
# a sharp die near the camera to a far one at 0.6 px/mm behind a soft lens)
_SIGMAS_MM = (0.5, 1.0, 1.4, 1.8, 2.3)
_NUDGES_MM = (-1.0, 0.0, 1.0)  # the measured centre may be this far off
# the measured turn may be a little off too (a wider search lets a wrong face fit as well:
# a blurred 3's streak is a 2 turned a little; tuning seeds 3000-3599 and 7000-7059 at
# 1280x720, turns up to 45 degrees off read fewer asked dice than these)
_TURNS = (-8.0, 0.0, 8.0)
_SAMPLE = 4  # every _SAMPLE-th pixel of the crop each way: a millimetre (a far die is a
# frame pixel every 1.5 mm)
_REACH = 0.62  # the pixels fitted: this share of the die's side round its centre, each way
# (the die and a rim of the table: a wider window's table only dilutes the die)
# the 3x3 places a pip can be (in pitches), and each face's pips among them, both ways
# round (a 2, 3 or 6 turned a quarter is another set of places; the outline's turn is known
# only to a quarter)
_PLACES = [(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)]


def _patterns() -> tuple[np.ndarray, np.ndarray]:
    """Each layout's face (n,) and its places (n, 9) as 0/1."""
    faces, rows = [], []
    for face, spots in PIP_SPOTS.items():
        seen = set()
        for quarter in (spots, tuple((-y, x) for x, y in spots)):
            key = frozenset(quarter)
            if key in seen:
                continue
            seen.add(key)
            faces.append(face)
            rows.append([1.0 if place in key else 0.0 for place in _PLACES])
    return np.array(faces), np.array(rows)


_FACES, _LAYOUTS = _patterns()


def _edge(distance: np.ndarray, sigma: float) -> np.ndarray:
    """A blurred edge's profile: 1 well inside, 0 well outside (tanh standing in for erf)."""
    return 0.5 * (1.0 + np.tanh(0.85 * distance / sigma))


def face_fits(
    grey: np.ndarray,
    rect: tuple[tuple[float, float], tuple[float, float], float],
    turned: bool = True,
) -> np.ndarray:
    """How well each face (1-6) explains a white die with dark pips in `grey` (a crop at
    CROP_PX_PER_MM) whose outline is `rect` (a cv2.minAreaRect in the crop's pixels): the
    share of the crop's variance round the die (R^2, 0-1) a blurred body plus that face's
    blurred pips explains, the best over blur, a nudge of the centre and of the turn, and
    the face's two turns; 0 where no fit has a body lighter and pips darker than the
    rest. Not `turned`: at the outline's own turn alone (a third of the time)."""
    (cx, cy), (width, height), angle = rect
    side = (width + height) / 2 / CROP_PX_PER_MM
    scale = side / DIE_MM
    ys, xs = np.mgrid[0 : grey.shape[0] : _SAMPLE, 0 : grey.shape[1] : _SAMPLE]
    x, y = (xs - cx) / CROP_PX_PER_MM, (ys - cy) / CROP_PX_PER_MM
    fits = np.zeros(6)
    half, pip = side / 2, PIP_MM * scale
    for off in _TURNS if turned else (0.0,):
        turn = np.radians(angle + off)
        u = x * np.cos(turn) + y * np.sin(turn)
        v = -x * np.sin(turn) + y * np.cos(turn)
        near = (np.abs(u) <= _REACH * side) & (np.abs(v) <= _REACH * side)
        seen = grey[ys[near], xs[near]].astype(np.float64)
        seen -= seen.mean()
        total = float(seen @ seen)
        if total > 0.0:
            _fit_turned(u[near], v[near], seen, total, PIP_PITCH_MM * scale, half, pip, fits)
    return fits


def _fit_turned(
    u: np.ndarray,
    v: np.ndarray,
    seen: np.ndarray,
    total: float,
    pitch: float,
    half: float,
    pip: float,
    fits: np.ndarray,
) -> None:
    """`face_fits` at one turn of the die (`u`, `v`: each pixel's place along its sides,
    mm): raises `fits` where a blur and a nudge of this turn explain more. Every nudge at
    once, and a pip's blurred disc as a Gaussian, a product of one along each side."""
    du, dv = (n.ravel() for n in np.meshgrid(_NUDGES_MM, _NUDGES_MM))
    uu, vv = u[None] - du[:, None], v[None] - dv[:, None]  # (nudges, n)
    rows = np.array([-pitch, 0.0, pitch])[None, :, None]
    for sigma in _SIGMAS_MM:
        spread = 2.0 * (sigma**2 + pip**2 / 2.0)  # a blurred disc, as a Gaussian
        body = (_edge(half - uu, sigma) * _edge(half + uu, sigma)
                * _edge(half - vv, sigma) * _edge(half + vv, sigma))  # fmt: skip
        body -= body.mean(axis=1, keepdims=True)
        along_u = np.exp(-((uu[:, None] - rows) ** 2) / spread)  # (nudges, 3, n)
        along_v = np.exp(-((vv[:, None] - rows) ** 2) / spread)
        spots = (along_v[:, :, None] * along_u[:, None, :]).reshape(len(du), 9, -1)
        pips = np.einsum("lp,kpn->kln", _LAYOUTS, spots)  # (nudges, layouts, n)
        pips -= pips.mean(axis=2, keepdims=True)
        # least squares of seen on (body, pips) for every nudge and layout at once
        bb, bs = (body * body).sum(axis=1)[:, None], (body @ seen)[:, None]
        bp, pp, ps = np.einsum("kln,kn->kl", pips, body), (pips * pips).sum(axis=2), pips @ seen
        det = bb * pp - bp * bp
        ok = det > 1e-9
        safe = np.where(ok, det, 1.0)
        a, b = (pp * bs - bp * ps) / safe, (bb * ps - bp * bs) / safe
        explained = np.where(ok & (a > 0) & (b < 0), (a * bs + b * ps) / total, 0.0)
        np.maximum.at(fits, _FACES - 1, explained.max(axis=0))
