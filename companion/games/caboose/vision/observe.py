"""One camera frame in, one `Observation` out (observation.py): the cards with their codes
and poses, the railway they form, where the caboose stands, the dice and their faces, and
what could not be seen. `observe` is the entry point; each step is a module of its own.

How (each step is a few milliseconds; bench/RESULTS-vision.md has the figures):
0. the frame is checked before anything is looked for in it (frame_checks.py: an image,
   its size, its exposure, its colour: a frame without colour is read, but the caboose and
   the dice are found by their colour, so that is said as its own problem);
1. calibrate from the four markers (calibrate.py) and warp the table to a top-down image at
   1 px/mm, where every card is a card-sized rectangle wherever the camera stands;
2. cards (card_outlines.py): our design prints a dark frame inset from the card's edge, so
   an adaptive threshold finds one closed dark rectangle per card, and two cards laid edge
   to edge are still two rectangles (the white margins keep a band between them); each
   rectangle gives a pose, and its crop is matched against the catalogue, which also says
   which end is the card's top (card_identity.py). An enrolled printed deck has no such
   frame: its cards are where the colour is unlike the table's (`unlike_table`), a lone
   card a card-sized rectangle there, and cards laid edge to edge one region that
   `touching_cards` (touching_cards.py) takes apart card by card with the catalogue's
   help; each such card is then placed by its own print (`card_identity.locate`);
3. railway (railway_order.py): rail ends (geometry.rail_ends) of cards that touch join
   them into a chain, ordered from the back;
4. caboose (caboose_token.py): the one saturated red disc on the table (or the token
   `companion enroll` taught), on the card under it;
5. dice (off_the_cards.py): bright (or yellow) die-sized blobs off the cards, and die-sized
   places where a card does not look like the face it was read as, all read on the
   original frame at once (dice.py); the dice `companion enroll` taught by their colour and
   faces instead (taught_dice.py); a card with a die on it is then read again with the
   die's place left out, so a die on its value is asked about, not misread;
6. anything large, smooth and unlike the table off the cards is reported as covering it
   (off_the_cards.py);
7. glare: where a lamp's reflection clips the frame white and washes out round it
   (companion/vision/frame_checks.py `glare_mask`) nothing is read and it is said as
   `glare`, not as a hand: no die is looked for there and one found touching it is
   dropped (a white spot is die-like). A card whose frame runs into what it clipped white
   is found by the rest of its frame (card_outlines.py), and every card is read with what
   the glare washed out (clipped, and `_WASHED_MM` round it) left out, as under a die:
   the rest of the halo is paler but shows the print. A card too little of which shows is
   not read (`_MOST_HIDDEN`), and the tracker waits while the glare is said.

`observe` never raises on a bad frame: what it could not see is in `problems`, each a
`Problem` (problems.py), a kind with parameters whose words a player can act on.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.caboose_token import find_caboose
from companion.games.caboose.vision.card_identity import (
    card_image,
    hidden,
    hidden_by_token,
    hide,
    locate,
    match_faces,
)
from companion.games.caboose.vision.card_outlines import card_poses
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, FaceMatch
from companion.games.caboose.vision.frame_checks import (
    as_frame,
    colour_problem,
    exposure_problem,
    size_problem,
)
from companion.games.caboose.vision.observation import (
    Memo,
    Observation,
    SeenCard,
    SeenDie,
    VisionConfig,
)
from companion.games.caboose.vision.off_the_cards import (
    cards_unfound,
    covered_area,
    dice_off_the_cards,
    dice_on_the_cards,
    off_the_known,
)
from companion.games.caboose.vision.problems import Problem, counted
from companion.games.caboose.vision.railway_order import card_under, railway_order
from companion.games.caboose.vision.touching_cards import touching_cards
from companion.games.caboose.vision.unchanged import (
    changes,
    matched,
    remember,
    squares,
)
from companion.pose import Pose
from companion.vision.bend import flatten, frame_bend
from companion.vision.calibrate import LEAST_PX_PER_MM, Calibration, calibrate, top_down
from companion.vision.dice import Under
from companion.vision.frame_checks import clipped_round, glare_mask
from companion.vision.table import TableLayout, card_corners, lies_on, on_card
from companion.vision.unlike_table import unlike_table

_MIN_CONFIDENCE = 0.15  # below this a card-shaped thing is reported as unreadable
_DIE_RADIUS_MM = 12.0  # what a die hides of the card under it: its corners, and its shadow
# a card read as another code once a die's place is left out: still seen, but under what the
# session takes unasked (its unsure_below, 0.25)
_DISAGREED = 0.2
# a die whose centre is this near the glare is not looked at: a halo's edge makes die-like
# blobs. 30 mm left unseen most dice the lamp's halo touched yet showed plainly (tuning seeds
# 61000 and 62000, every table lit: 23 -> 18 and 28 -> 24 real dice unseen at 20 mm, drawn
# 27 -> 18 of 190); 320 lit tables without dice (seeds 61000, 63000) see none at 20 mm, one
# (asked) at 15 mm and 10 mm (table 63007)
_GLARE_NEAR_MM = 20.0
_MOST_HIDDEN = 0.6  # of a card's face hidden (a die, the caboose, glare), at most, to read it
_WASHED_MM = 4.0  # round what the glare clipped white, this much more of a card is washed out
_FLATTEN_BELOW = 0.4  # a card matched more weakly than this is tried laid flat (_laid_flat)


def observe(
    frame_bgr: object,
    config: VisionConfig | None = None,
    *,
    calibration: Calibration | None = None,
    back: tuple[float, float] | None = None,
    apart: tuple[float, float, float, float] | None = None,
    previous: Observation | None = None,
) -> Observation:
    """Recognise one frame. `calibration` (from a previous Observation) is kept while the
    camera has not moved (its warp tables are then reused) and stands in when markers are
    hidden, if the ones still seen lie where it expects them. `back` is where the railway's
    back card was last seen (table mm): the chain end nearest it is the back. Without it the
    back is the chain end nearer the table's top edge (smaller y), then the left edge; a
    tracker that knows the previous railway should always pass it. `apart` (left, top,
    right, bottom in table mm) is where cards are shown, not laid: cards there are never
    part of the railway, even side by side with their rail ends touching. `previous` (the
    last frame's Observation, read with the same configuration) lends what it read where
    the picture did not change, when the camera has not moved (unchanged.py)."""
    config = config or VisionConfig()
    problems: list[Problem] = []
    frame = as_frame(frame_bgr, problems)
    if frame is None:
        return Observation(problems=tuple(problems))
    height, width = frame.shape[:2]
    wrong_size = size_problem(frame, config.frame_size)
    if wrong_size is not None:
        problems.append(wrong_size)
    exposure = exposure_problem(frame)
    if exposure is not None:
        return Observation(problems=(*problems, exposure))
    no_colour = colour_problem(frame)
    if no_colour is not None:
        problems.append(no_colour)
    seen = calibrate(frame, config.layout, calibration)
    if seen is None or len(seen.markers) < 4:
        missing = sorted(set(range(4)) - set(seen.markers if seen else ()))
        markers = ", ".join(map(str, missing))
        problems.append(counted("markers_hidden", len(missing), markers=markers))
    if seen is None or len(seen.markers) < 4:
        if _still_fits(calibration, seen, config.layout, (width, height)):
            seen = calibration
        elif seen is None:
            problems.append(Problem("no_table"))
            return Observation(problems=tuple(problems))
    density = seen.px_per_mm((config.layout.width / 2, config.layout.height / 2))
    if density < LEAST_PX_PER_MM:  # pips of a pixel, cards unfound: said, not misread
        least = round(LEAST_PX_PER_MM * 10)
        problems.append(Problem("too_coarse", {"per_cm": round(density * 10, 1), "least": least}))
        return Observation(problems=tuple(problems), calibration=seen)
    try:
        top = top_down(frame, seen, config.layout, config.px_per_mm)
        memo = None if previous is None else previous.memo
        return _recognise(frame, top, seen, config, back, problems, apart, memo)
    except cv2.error as error:  # OpenCV refusing some odd frame must not stop the referee
        problems.append(Problem("frame_unread", {"error": str(error).strip()}))
        return Observation(problems=tuple(problems), calibration=seen)


def _still_fits(
    previous: Calibration | None,
    seen: Calibration | None,
    layout: TableLayout,
    size: tuple[int, int],
) -> bool:
    """Whether a previous calibration still holds for a frame whose markers are partly
    hidden: same frame size, and every marker still seen within 2 px of where it says."""
    if previous is None or previous.frame_size != size:
        return False
    if seen is None or not seen.markers:
        return True  # nothing contradicts it; a moved camera shows its markers again soon
    known = layout.marker_corners()
    expected = previous.to_pixels(np.concatenate([known[k] for k in seen.markers]))
    return float(np.abs(expected - seen.corners).max()) < 2.0


def _recognise(
    frame: np.ndarray,
    top: np.ndarray,
    calibration: Calibration,
    config: VisionConfig,
    back: tuple[float, float] | None,
    problems: list[Problem],
    apart: tuple[float, float, float, float] | None = None,
    memo: Memo | None = None,
) -> Observation:
    """Steps 2-6 on the calibrated frame and its top-down image `top`, in the order each
    needs the last: the caboose before the cards' faces it covers, the cards before the
    dice lying on them, those dice before the cards under them are read again without them,
    and all of it before the railway and what lies off everything known. Where the
    picture did not change since `memo`'s frame, its cards' faces and its dice stand."""
    k = config.px_per_mm
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    now = squares(grey)
    change = changes(memo, calibration, config, now)
    glare = _glare_top(frame, calibration, config)
    washed = None if glare is None else _washed_out(top, glare, k)
    if glare is not None:
        problems.append(Problem("glare"))  # frame_checks.GLARE_KEY, as every game says it
    outlines = None if config.catalogue is None else unlike_table(top, config.layout, k)
    centre = (config.layout.width / 2, config.layout.height / 2)
    poses = card_poses(grey, config, outlines, calibration.px_per_mm(centre), washed)
    half = cv2.resize(top, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    corners = [card_corners(pose, config.card_mm) for pose in poses]
    hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)  # the caboose's finder and the dice finder's
    token = find_caboose(half, k / 2, config.token, corners, hsv)
    if outlines is not None:  # an enrolled deck: each card is placed by its print
        matches = match_faces(top, poses, config, token, closely=False)
        poses = [locate(top, p, m, config) for p, m in zip(poses, matches, strict=True)]
        poses += touching_cards(top, outlines, poses, config, token)
    matches = matched(
        poses,
        change,
        config.card_mm,
        lambda some: match_faces(top, some, config, token, washed=washed),
    )
    found = (poses, matches)  # the next frame lends these, and lays the weak ones flat again
    if outlines is None:  # our design: a weak match may be a card that does not lie flat
        matches = _laid_flat(top, poses, matches, config, token, calibration)
    seen: list[SeenCard] = []
    unreadable = 0
    for pose, match in zip(poses, matches, strict=True):
        rotation = pose.rotation
        if match.turned:
            pose = Pose(pose.x, pose.y, (rotation + 180.0) % 360.0)
        if match.confidence < _MIN_CONFIDENCE:
            unreadable += 1
            continue
        pose = Pose(round(pose.x, 1), round(pose.y, 1), round(pose.rotation, 1) % 360.0)
        seen.append(SeenCard(match.code, round(match.confidence, 3), pose))
    free = off_the_known(grey.shape[:2], config, seen, token)
    if glare is not None:
        free[glare > 0] = 0  # what the glare hides is neither a die nor a hand
    # a still camera's next frame: only the cards where the picture changed looked at, the
    # dice that stand there kept and the others read where it changed
    looked = seen if change is None else [c for c in seen if change.card(c.pose, config.card_mm)]
    kept = () if change is None else change.dice(seen, config.card_mm)
    glow = glare is not None  # the reflection's glow: a card's light slopes across it
    on_cards, unlike = dice_on_the_cards(top, config, looked, token, glow)
    if unlike and outlines is None:  # our design: a card unlike its face may be curled
        on_cards = _dice_on_laid_flat(
            top, config, looked, token, calibration, on_cards, unlike, glow
        )
    dice = dice_off_the_cards(frame, half, calibration, config, free, on_cards, kept, change, hsv)
    dice = [die for die in dice if not _in_glare(glare, die.position, k)]
    seen, unread = _read_under_dice(top, config, seen, dice, token, washed)
    unreadable += unread
    railway = railway_order(seen, config.card_mm, back, apart)
    caboose = None
    if token is None:
        if Problem("no_colour") not in problems:  # else why it is not seen is said already
            problems.append(Problem("caboose_unseen"))
    else:
        caboose = card_under(token, seen, railway, config.card_mm)
        if caboose is None:
            problems.append(Problem("caboose_off"))
    for die in dice:
        centre = (round(die.position[0] * k), round(die.position[1] * k))
        cv2.circle(free, centre, round(14 * k), 0, -1)
    unreadable += cards_unfound(half, free, config, [seen[i] for i in railway])
    if unreadable:
        problems.append(counted("cards_unread", unreadable))
    hidden_mm2 = covered_area(half, free, k / 2)
    if hidden_mm2 > 0:
        share = hidden_mm2 / (config.layout.width * config.layout.height)
        problems.append(Problem("covered", {"percent": round(max(share, 0.01) * 100)}))
    return Observation(
        cards=tuple(seen),
        railway=railway,
        caboose=caboose,
        dice=tuple(dice),
        problems=tuple(problems),
        caboose_at=None if token is None else (round(token[0], 1), round(token[1], 1)),
        calibration=calibration,
        memo=remember(calibration, config, now, found, seen, dice, problems),
    )


def _laid_flat(
    top: np.ndarray,
    poses: list[Pose],
    matches: list[FaceMatch],
    config: VisionConfig,
    token: tuple[float, float] | None,
    calibration: Calibration,
) -> list[FaceMatch]:
    """The matches with each card matched weakly (below `_FLATTEN_BELOW`) laid flat in the
    top-down image `top` (in place) where that matches it better, and matched so. A card
    bent along its length or with a corner lifted looks bent from above, and one end
    darker, which a flat card's crop matches weakly or not at all; its frame's edges say
    how it bends (companion/vision/bend.py), and the card laid flat along them is matched
    again. A card read better laid flat stays laid flat in the image, for the dice looked
    for on it and its reading under them. Cards matched well (every flat card of 148 on
    hard tables) are left as they are."""
    weak = [i for i, match in enumerate(matches) if match.confidence < _FLATTEN_BELOW]
    if not weak:
        return matches
    eye, k = calibration.eye(), config.px_per_mm
    matches = list(matches)
    for index in weak:
        bend = frame_bend(top, poses[index], _frame_mm(config), eye, k)
        if bend is None:
            continue
        undo = flatten(top, poses[index], config.card_mm, bend, k)  # tried in place
        again = match_faces(top, [poses[index]], config, token)[0]
        if again.confidence > matches[index].confidence:
            matches[index] = again
        else:
            undo()  # the card as it lay, every pixel
            matches[index] = _asked(matches[index])
    return matches


def _dice_on_laid_flat(
    top: np.ndarray,
    config: VisionConfig,
    seen: list[SeenCard],
    token: tuple[float, float] | None,
    calibration: Calibration,
    on_cards: list[tuple[float, float, Under, int]],
    unlike: list[int],
    glow: bool,
) -> list[tuple[float, float, Under, int]]:
    """The places a die may lie on a card (`dice_on_the_cards`), with each card that looked
    `unlike` its face in a place larger than a die laid flat along its frame's edges
    (bend.py) in the top-down image `top` (in place) and looked at again: kept laid flat
    (and its places taken from it) when it then looks like its face but for die-sized
    places. A curled card matched well enough to be read as it lies still shows its bend
    and its shaded end against its face, in which a die on it is lost (hard tables, seed
    7024)."""
    eye, k = calibration.eye(), config.px_per_mm
    for index in unlike:
        bend = frame_bend(top, seen[index].pose, _frame_mm(config), eye, k)
        if bend is None:
            continue
        undo = flatten(top, seen[index].pose, config.card_mm, bend, k)  # tried in place
        again, still_unlike = dice_on_the_cards(top, config, [seen[index]], token, glow)
        if still_unlike:
            undo()  # the card as it lay, every pixel
        else:
            on_cards = [place for place in on_cards if place[3] != index]
            on_cards += [(x, y, under, index) for x, y, under, _ in again]
    return on_cards


def _frame_mm(config: VisionConfig) -> tuple[float, float]:
    """The outer size of our design's printed frame on a card of the edition's size."""
    return (
        config.card_mm[0] - 2 * card_art.MARGIN_MM,
        config.card_mm[1] - 2 * card_art.MARGIN_MM,
    )


def _asked(flat: FaceMatch) -> FaceMatch:
    """A weakly matched card's reading when laying it flat read it no better: asked
    (`_DISAGREED`), not dropped. Its frame's edges said how it bends, yet neither reading
    is sure: what makes it weak may be a die on it, which is then looked for and the card
    read again without it (as surely as that reading is), or a curled card's bend that its
    frame does not show, whose flat reading may name a card whose print differs only where
    the die lies (a straight track read as a curve, hard table 7008 with real dice)."""
    most = 0.2 * _DISAGREED / max(flat.score, 1e-6)  # FaceMatch.confidence's margin scale
    return replace(flat, margin=min(flat.margin, most))


def _glare_top(
    frame: np.ndarray, calibration: Calibration, config: VisionConfig
) -> np.ndarray | None:
    """The top-down mask (255) of where a lamp's reflection hides the table, or None."""
    glare = glare_mask(frame)
    if glare is None:
        return None
    return top_down(glare, calibration, config.layout, config.px_per_mm, cv2.INTER_NEAREST)


def _washed_out(top: np.ndarray, glare: np.ndarray, k: float) -> np.ndarray:
    """Where the glare (`glare`, the top-down mask of `_glare_top`) left a card nothing to
    read: what it clipped white, and `_WASHED_MM` round it. The rest of its halo is paler
    but still shows a card's frame and print, so a card there is found and read from it."""
    return clipped_round(top, glare, 2 * round(_WASHED_MM * k) + 1)


def _in_glare(glare: np.ndarray | None, position: tuple[float, float], k: float) -> bool:
    """Whether a die at `position` (mm) lies near the glare (`_GLARE_NEAR_MM`): a halo's
    washed-out edge makes die-like bright blobs beyond what the mask holds."""
    if glare is None:
        return False
    reach = _GLARE_NEAR_MM * k
    x, y = position[0] * k, position[1] * k
    height, width = glare.shape
    x0, x1 = max(round(x - reach), 0), min(round(x + reach) + 1, width)
    y0, y1 = max(round(y - reach), 0), min(round(y + reach) + 1, height)
    return bool(glare[y0:y1, x0:x1].any())


def _read_under_dice(
    top: np.ndarray,
    config: VisionConfig,
    seen: list[SeenCard],
    dice: list[SeenDie],
    token: tuple[float, float] | None,
    washed: np.ndarray | None = None,
) -> tuple[list[SeenCard], int]:
    """The cards again, each with a die on it matched anew with the die's place left out
    (as the caboose's is: `hidden_by_token`), so that a die lying on its value or its track
    makes the card unsure (asked) rather than read as another card; one read as another code
    than with the die is unsure too (`_DISAGREED`); those now below _MIN_CONFIDENCE are
    dropped and counted (the second value), as any unreadable card, and so are those more
    than `_MOST_HIDDEN` hidden. A card that a lamp's reflection `washed` out in part (a
    top-down mask, `_washed_out`) is read again the same way, with that part left out."""
    covered: dict[int, np.ndarray] = {}
    for index, card in enumerate(seen):
        if washed is not None and (mask := hidden(card.pose, None, washed, config)) is not None:
            token_mask = hidden_by_token(card.pose, token, config.card_mm)
            covered[index] = mask if token_mask is None else mask | token_mask
    for die in dice:
        for index, card in enumerate(seen):
            if lies_on(card.pose, config.card_mm, die.position):
                if index not in covered:
                    token_mask = hidden_by_token(card.pose, token, config.card_mm)
                    covered[index] = (
                        np.zeros((TEMPLATE_PX[1], TEMPLATE_PX[0]), np.uint8)
                        if token_mask is None
                        else token_mask
                    )
                local = on_card(card.pose, die.position)
                hide(covered[index], local, _DIE_RADIUS_MM, config.card_mm)
    if not covered:
        return seen, 0
    order = sorted(covered)
    poses = [seen[i].pose for i in order]
    images = [card_image(top, pose, config.card_mm, config.px_per_mm) for pose in poses]
    matches = config.faces().match_all(images, [covered[i] for i in order])
    again = list(seen)
    for index, match in zip(order, matches, strict=True):
        pose = seen[index].pose
        if match.turned:
            pose = Pose(pose.x, pose.y, round((pose.rotation + 180.0) % 360.0, 1))
        confidence = round(match.confidence, 3)
        if match.code != seen[index].code:  # the two readings disagree: asked, never guessed
            confidence = min(confidence, _DISAGREED)
        if covered[index].mean() > _MOST_HIDDEN:  # too little of it left to say what it is
            confidence = 0.0
        again[index] = SeenCard(match.code, confidence, pose)
    kept = [card for card in again if card.confidence >= _MIN_CONFIDENCE]
    return kept, len(again) - len(kept)
