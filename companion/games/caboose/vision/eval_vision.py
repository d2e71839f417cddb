"""`companion eval-vision` for the Caboose game: how well recognition reads synthetic tables
whose truth is known.

Each scene is drawn by caboose.scenes from its own seed (a legal railway of 3-20 cards, one
card lying apart, 1-4 wheel or pip dice, the caboose on a railway card), rendered through an
easy or hard camera, and recognised by `observe`. Recognition is given what a tracker
knows from earlier frames: where the railway's back card lay (so "railway exact" measures
finding and chaining the cards, not guessing which end is the back).

Latency is measured with OpenCV on one thread, the Pi's budget for one core; it is reported
as wall time and as CPU time of this process, which stays honest on a busy machine. Each
scene is a new camera position, so every frame calibrates and builds its warp tables from
scratch; `still_camera_ms_p50` times the same frame again as a fixed camera's next frame,
which reuses them (observe's `calibration` argument). Beside each frame's time, a plain
OpenCV pass over the same frame (companion/vision/plain_pass.py) is timed in the same run:
the ratio of the two travels between machines, absolute times do not.

`--dice real` lays real dice on the same scenes instead of drawn ones: each die is cut from
a labelled photograph the readers were never tuned on (companion/synthetic/photo_dice.py,
`--dice-photos DIR`), lies where the drawn die would and is scored as the pip die it is,
its pips and, through the edition's R-6 face map, the wheels the game takes from it. The
run goes through the photographs' dice in a seeded order, so a long run shows each of them
about equally often. `--dice printed` throws the synthetic table's stand-in for a box's own
wheel dice and stands its locomotive for the caboose (scenes.with_printed_box), which the
run first teaches the camera as `companion enroll` does (scenes.teach_printed_box).
`--grey` renders every frame through a camera without colour (a mono sensor).
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.arguments import CommandLine
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.rules.dice import counted_alike, face_map_for
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.vision.observation import Observation, VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.pose import Pose
from companion.synthetic import Camera, add_camera_options, camera_view
from companion.synthetic.camera import clear_share, lamp_footprint, touched
from companion.synthetic.photo_dice import (
    TAUGHT,
    PhotoDice,
    PhotoDiceMissing,
    PhotoDie,
    add_photo_dice_options,
    photo_dice_stream,
    set_sources,
    taught_first,
)
from companion.vision.dice_art import DIE_MM
from companion.vision.plain_pass import plain_pass_ms
from companion.vision.table import card_corners

# dice_art's dice, real dice cut from photographs, or a box's own wheel dice and token that
# are not ours (scenes.with_printed_box), taught first as `companion enroll` does
DICE = ("drawn", "real", "printed")

_SAME_CARD_MM = 15.0  # a seen card this close to a true card's centre is that card
SAME_DIE_MM = 10.0  # a die seen this close to a true die's centre is that die
_UNSURE_BELOW = FollowConfig().die_unsure_below  # a die read less surely is asked about
_CARD_UNSURE_BELOW = FollowConfig().unsure_below  # a card read less surely is asked about
# what `score_scene` counts of the dice lying on a card and of the cards under them
ON_CARDS = ("dice_on_cards", "on_cards_found", "on_cards_right", "on_cards_asked",
            "on_cards_wrong_sure", "cards_under", "cards_under_right", "cards_under_asked",
            "cards_under_unseen", "cards_under_unseen_told", "cards_under_wrong_sure")  # fmt: skip


LAMP = ("cards_lamp", "cards_lamp_right", "dice_lamp", "dice_lamp_right", "dice_lamp_unseen",
        "dice_lamp_asked", "dice_lamp_wrong_sure")  # fmt: skip


def under_lamp(
    scene: synthetic.Scene, scene_seed: int, camera: Camera, frame: np.ndarray
) -> tuple[frozenset[int], frozenset[int]]:
    """The indices of the cards and of the dice of `scene` that a lamp's reflection touches
    in `frame`, rendered from `scene_seed` through `camera` (synthetic.camera
    .lamp_footprint)."""
    footprint = lamp_footprint(scene.drawn(), scene_seed, camera, frame)
    if footprint is None:
        return frozenset(), frozenset()
    view = camera_view(scene_seed, camera, scene.layout)
    cards = (card_corners(card.pose, scene.card_mm) for card in scene.cards)
    dice = (card_corners(Pose(d.x, d.y, d.rotation), (DIE_MM, DIE_MM)) for d in scene.dice)
    return (
        frozenset(i for i, outline in enumerate(cards) if touched(footprint, view, outline)),
        frozenset(i for i, outline in enumerate(dice) if touched(footprint, view, outline)),
    )


def _nearest(point: tuple[float, float], options: Sequence[tuple[float, float]], limit: float):
    best, best_d = None, limit
    for i, other in enumerate(options):
        d = math.dist(point, other)
        if d < best_d:
            best, best_d = i, d
    return best


def score_scene(
    scene: synthetic.Scene,
    seen: Observation,
    face_map: dict[int, int] | None = None,
    unsure_below: float = _UNSURE_BELOW,
    lit: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset()),
) -> dict:
    """Per-scene counts: cards right, railway exact, caboose right, dice right, pose errors;
    with a pip-to-wheels `face_map` (R-6), also the pip dice whose wheels are right: a pip
    die read as another count that stands for the same wheels costs the game nothing (the
    reader is told the faces the map counts alike, and is as sure as the wheels are). Where
    the dice go: not found, a pip die taken for a wheel die, read with a confidence below
    `unsure_below` (the session asks the players about those: never guessed into the game),
    and read wrong yet surely (the misreads that reach the game: a pip die's wheels, with a
    face map). The same of the dice lying on a card (`ON_CARDS`), and of the cards under
    them: read right and sure, asked (read less surely than the session takes unasked), not
    seen at all (and of those, the ones in a frame that says a card could not be read, so
    the game waits), or read wrong yet surely.
    The cards and dice `lit` names (indices, `under_lamp`) are counted again apart (`LAMP`)."""
    lit_cards, lit_dice = lit
    lamp = dict.fromkeys(LAMP, 0)
    centres = [(c.pose.x, c.pose.y) for c in seen.cards]
    truth_of_seen: dict[int, int] = {}
    cards_right, position_err, rotation_err = 0, [], []
    for index, card in enumerate(scene.cards):
        match = _nearest((card.pose.x, card.pose.y), centres, _SAME_CARD_MM)
        lamp["cards_lamp"] += index in lit_cards
        if match is None:
            continue
        truth_of_seen[match] = index
        got = seen.cards[match]
        if got.code == card.code:
            cards_right += 1
            lamp["cards_lamp_right"] += index in lit_cards
            position_err.append(math.dist(centres[match], (card.pose.x, card.pose.y)))
            turn = (got.pose.rotation - card.pose.rotation + 180.0) % 360.0 - 180.0
            rotation_err.append(abs(turn))
    railway = tuple(truth_of_seen.get(i, -1) for i in seen.railway)
    caboose_right = (
        seen.caboose is not None
        and scene.caboose is not None
        and railway[seen.caboose] == scene.caboose
    )
    die_centres = [d.position for d in seen.dice]
    dice_right, wheels_right, unseen, as_wheels, asked, wrong_sure = 0, 0, 0, 0, 0, 0
    on_cards = dict.fromkeys(ON_CARDS, 0)
    under: set[int] = set()
    found: set[int] = set()  # the seen dice that lie where a die does
    for index, die in enumerate(scene.dice):
        match = _nearest((die.x, die.y), die_centres, SAME_DIE_MM)
        card = synthetic.card_under(scene, die.x, die.y)
        if card is not None:
            under.add(card)
            on_cards["dice_on_cards"] += 1
        lamp["dice_lamp"] += index in lit_dice
        if match is None:
            unseen += 1
            lamp["dice_lamp_unseen"] += index in lit_dice
            continue
        found.add(match)
        got = seen.dice[match]
        right = (got.kind, got.face) == (die.kind, die.face)
        dice_right += right
        as_wheels += die.kind == "pips" and got.kind == "wheels"
        # what reaches the game: a pip die's wheels, through the face map
        counts = right
        if face_map is not None and die.kind == "pips":
            wheels = face_map.get(got.face) if got.kind == "pips" else got.face
            counts = wheels == face_map[die.face]
            wheels_right += counts
        asked += got.confidence < unsure_below
        wrong_sure += not counts and got.confidence >= unsure_below
        if index in lit_dice:
            lamp["dice_lamp_right"] += right
            lamp["dice_lamp_asked"] += got.confidence < unsure_below
            lamp["dice_lamp_wrong_sure"] += not counts and got.confidence >= unsure_below
        if card is not None:
            on_cards["on_cards_found"] += 1
            on_cards["on_cards_right"] += right
            on_cards["on_cards_asked"] += got.confidence < unsure_below
            on_cards["on_cards_wrong_sure"] += not counts and got.confidence >= unsure_below
    seen_as = {truth: match for match, truth in truth_of_seen.items()}
    told = any(p.key.startswith("cards_unread") for p in seen.problems)
    for card in under:
        on_cards["cards_under"] += 1
        if card not in seen_as:
            on_cards["cards_under_unseen"] += 1
            on_cards["cards_under_unseen_told"] += told
            continue
        got_card = seen.cards[seen_as[card]]
        sure = got_card.confidence >= _CARD_UNSURE_BELOW
        on_cards["cards_under_asked"] += not sure
        on_cards["cards_under_right"] += sure and got_card.code == scene.cards[card].code
        on_cards["cards_under_wrong_sure"] += sure and got_card.code != scene.cards[card].code
    return (
        on_cards
        | lamp
        | {
            "cards": len(scene.cards),
            "cards_right": cards_right,
            "cards_extra": len(seen.cards) - len(truth_of_seen),
            "railway_exact": railway == scene.railway,
            "caboose_right": caboose_right,
            "dice": len(scene.dice),
            "dice_right": dice_right,
            "dice_wheels_right": wheels_right,
            "dice_unseen": unseen,
            "dice_as_wheels": as_wheels,
            "dice_asked": asked,
            "dice_wrong_sure": wrong_sure,
            "dice_extra": len(seen.dice) - len(found),  # seen where no die lies (not misread)
            "position_err_mm": position_err,
            "rotation_err_deg": rotation_err,
        }
    )


def evaluate(
    scenes: int,
    seed: int,
    difficulty: str,
    edition: str,
    dice: str = "drawn",
    dice_photos: Path | None = None,
    dice_half: str = "even",
    dice_on_cards: float = 0.0,
    grey: bool = False,
    glare: float | None = None,
    frame_size: tuple[int, int] | None = None,
    dice_set: str | None = None,
    teach_pips: bool = False,
    curl: float | None = None,
    lens_error: float | None = None,
) -> dict:
    """Render and recognise `scenes` scenes, their dice drawn or (`dice` "real") cut from the
    photographs in `dice_photos` (PhotoDiceMissing when there are none), from the half
    `dice_half` of them (even: held out, the figure reported; odd: the half tuned on), the
    share `dice_on_cards` of them lying on a card (scenes.random_scene), through a `grey`
    camera (no colour) if asked; the summary that `--json` prints, with the dice on cards
    and the cards under them (`ON_CARDS`) when some lie there; `glare` the share of the
    frame a lamp's reflection covers at most on every table (None: the camera's own);
    `frame_size` films at another size than the camera's default; `curl` bends the cards up
    to so many mm and `lens_error` displaces the frame up to so many px on every table (None:
    the camera's own). With `dice_set` (real
    dice), only that set's dice (photo_dice.SETS) are laid, but for TAUGHT of them, which are
    `teach_pips` taught first as `companion enroll --codes pips` does
    (scenes.teach_pip_dice: a die the camera cannot learn is left untaught), and left out
    either way, so taught and untaught runs read the same dice."""
    if dice not in DICE:
        raise ValueError(f"unknown dice {dice!r}: use drawn, real or printed")
    cv2.setNumThreads(1)
    used: set[str] = set()
    taught: list[PhotoDie] = []
    only = None
    if dice == "real" and dice_set is not None:
        pool = PhotoDice(dice_photos, dice_half)
        members = set_sources(dice_set, dice_half)
        mine = [d for i in range(len(pool)) if pool.source(i) in members if (d := pool.die(i))]
        taught = taught_first(mine, lambda die: die.pips, seed)
        only = members - {die.source for die in taught}
    photos = (
        photo_dice_stream(PhotoDice(dice_photos, dice_half), seed, used, only)
        if dice == "real"
        else None
    )
    face_map = face_map_for(editions.load(edition)) if dice == "real" else None
    alike = None if face_map is None else counted_alike(face_map)
    camera = replace(
        synthetic.Camera.preset(
            difficulty, glare=glare, frame_size=frame_size, curl=curl, lens_error=lens_error
        ),
        grey=grey,
    )
    config = VisionConfig.for_edition(edition, frame_size=camera.frame_size, alike=alike)
    if dice == "printed":
        with tempfile.TemporaryDirectory(prefix="caboose-box-") as folder:
            synthetic.teach_printed_box(edition, config.layout, camera.frame_size, Path(folder))
            config = VisionConfig.for_edition(
                edition, Path(folder), frame_size=camera.frame_size, alike=alike
            )
    if teach_pips and taught:
        with tempfile.TemporaryDirectory(prefix="pip-dice-") as folder:
            taught = synthetic.teach_pip_dice(taught, config.layout, camera, Path(folder))
            config = VisionConfig.for_edition(
                edition, Path(folder), frame_size=camera.frame_size, alike=alike
            )
    warm = synthetic.random_scene(seed + scenes, edition, n_cards=3, n_dice=1)
    config.faces()  # the catalogue is built once, at start-up: not a frame's latency
    observe(synthetic.render(warm, seed + scenes, camera), config)
    totals = {"cards": 0, "cards_right": 0, "cards_extra": 0, "dice": 0, "dice_right": 0,
              "dice_wheels_right": 0, "dice_extra": 0, "railway_exact": 0, "dice_unseen": 0,
              "dice_as_wheels": 0, "dice_asked": 0, "dice_wrong_sure": 0,
              "caboose_right": 0, "too_coarse": 0} | dict.fromkeys(ON_CARDS + LAMP, 0)  # fmt: skip
    wall, cpu, still, render_ms, plain, pos, rot = [], [], [], [], [], [], []
    failures: list[dict] = []
    for i in range(scenes):
        scene_seed = seed + i
        scene = synthetic.random_scene(
            scene_seed, edition, loose_cards=1, dice_on_cards=dice_on_cards
        )
        if photos is not None:
            scene = synthetic.with_photo_dice(scene, photos)
        if dice == "printed":
            scene = synthetic.with_printed_box(scene, edition)
        start = time.perf_counter()
        frame = synthetic.render(scene, scene_seed, camera)
        render_ms.append((time.perf_counter() - start) * 1000)
        back = scene.cards[scene.railway[0]].pose
        plain.append(plain_pass_ms(frame))
        start, start_cpu = time.perf_counter(), time.process_time()
        seen = observe(frame, config, back=(back.x, back.y))
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        # the same camera's next frame: calibration and warp tables are reused
        start = time.perf_counter()
        observe(frame, config, calibration=seen.calibration, back=(back.x, back.y))
        still.append((time.perf_counter() - start) * 1000)
        lit = under_lamp(scene, scene_seed, camera, frame)
        result = score_scene(scene, seen, face_map, lit=lit)
        result["too_coarse"] = any(p.key == "too_coarse" for p in seen.problems)
        for key in totals:
            totals[key] += int(result[key])
        pos += result["position_err_mm"]
        rot += result["rotation_err_deg"]
        if (
            result["cards_right"] < result["cards"]
            or not result["railway_exact"]
            or not result["caboose_right"]
            or result["dice_right"] < result["dice"]
        ):
            failures.append({"seed": scene_seed, "problems": [p.text() for p in seen.problems]} | {
                k: result[k] for k in ("cards", "cards_right", "railway_exact",
                                       "caboose_right", "dice", "dice_right")})  # fmt: skip

    def ratio(right: int, total: int) -> float:
        return round(right / total, 4) if total else 1.0

    def pct(values: list[float], q: float) -> float:
        return round(float(np.percentile(values, q)), 2) if values else 0.0

    return {
        "scenes": scenes,
        "seed": seed,
        "difficulty": difficulty,
        "edition": edition,
        "dice_kind": dice,
        "grey": grey,
        "frame_size": list(camera.frame_size),
        "glare": camera.glare,
        "glare_odds": round(camera.glare_odds, 4),  # the share of tables with it
        "curl": camera.curl,
        "curl_odds": round(camera.curl_odds, 4),  # the share of tables with curled cards
        "lens_error": camera.lens_error,
        "lens_odds": round(camera.lens_odds, 4),  # the share of tables with a lens error
        "cards": totals["cards"],
        "cards_accuracy": ratio(totals["cards_right"], totals["cards"]),
        "cards_extra": totals["cards_extra"],
        "railway_exact": ratio(totals["railway_exact"], scenes),
        "frames_too_coarse": totals["too_coarse"],  # said so, nothing read
        "caboose_accuracy": ratio(totals["caboose_right"], scenes),
        "dice": totals["dice"],
        "dice_accuracy": ratio(totals["dice_right"], totals["dice"]),
        "dice_extra": totals["dice_extra"],
        "dice_unseen": totals["dice_unseen"],
        "dice_asked": totals["dice_asked"],
        "dice_wrong_sure": totals["dice_wrong_sure"],
        # what the reflection of a lamp touches, counted again apart; the share read right
        # of what it touches none of (under it a reader asks, or says the lamp and waits)
        **{key: totals[key] for key in LAMP},
        "cards_clear_accuracy": clear_share(
            totals["cards_right"], totals["cards"], totals["cards_lamp_right"], totals["cards_lamp"]
        ),
        "dice_clear_accuracy": clear_share(
            totals["dice_right"], totals["dice"], totals["dice_lamp_right"], totals["dice_lamp"]
        ),
        **(
            {
                "dice_right": totals["dice_right"],
                "dice_wheels_right": totals["dice_wheels_right"],
                "dice_wheels_accuracy": ratio(totals["dice_wheels_right"], totals["dice"]),
                "photo_dice_used": len(used),
                "photo_dice_half": dice_half,
                "dice_set": dice_set,
                "pips_taught": len(taught) if teach_pips else 0,
                "dice_as_wheels": totals["dice_as_wheels"],
            }
            if dice == "real"
            else {}
        ),
        "position_err_mm_p95": pct(pos, 95),
        "rotation_err_deg_p95": pct(rot, 95),
        "latency_ms_p50": pct(wall, 50),
        "latency_ms_p95": pct(wall, 95),
        "cpu_ms_p50": pct(cpu, 50),
        "cpu_ms_p95": pct(cpu, 95),
        "still_camera_ms_p50": pct(still, 50),
        "plain_pass_ms_p50": pct(plain, 50),
        "plain_pass_ms_p95": pct(plain, 95),
        "latency_ratio_p50": round(pct(wall, 50) / max(pct(plain, 50), 1e-3), 2),
        "latency_ratio_p95": round(pct(wall, 95) / max(pct(plain, 95), 1e-3), 2),
        "render_ms_p50": pct(render_ms, 50),
        **({key: totals[key] for key in ON_CARDS} if dice_on_cards > 0 else {}),
        "failures": failures[:20],
    }


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion eval-vision",
        description="Render synthetic tables and measure how well the camera reads them.",
    )
    parser.add_argument("--scenes", type=int, default=100, help="how many scenes (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first scene")
    parser.add_argument("--difficulty", choices=("easy", "hard"), default="hard")
    parser.add_argument("--edition", choices=EDITIONS, default="rollecate")
    parser.add_argument(
        "--dice",
        choices=DICE,
        default="drawn",
        help="drawn: our printed dice (default); real: dice cut from labelled photographs; "
        "printed: a box's own wheel dice and caboose token, not ours, taught first",
    )
    add_photo_dice_options(parser)
    parser.add_argument(
        "--dice-set",
        metavar="NAME",
        help="with --dice real, lay only one set's dice (bench/pip_dice_sets.json names "
        f"them), less the {TAUGHT} that --teach-pips teaches",
    )
    parser.add_argument(
        "--teach-pips",
        action="store_true",
        help="with --dice-set, teach that set's dice first, as `companion enroll --codes "
        "pips` does",
    )
    parser.add_argument(
        "--dice-on-cards",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="the share (0-1) of the dice that lie on a card, railway or loose, rather than "
        "off the cards (default 0: every die off the cards)",
    )
    parser.add_argument(
        "--grey",
        action="store_true",
        help="a camera without colour: every frame one brightness in three equal channels",
    )
    add_camera_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    if args.seed < 0:
        parser.error("--seed must not be negative")
    if not 0.0 <= args.dice_on_cards <= 1.0:
        parser.error("--dice-on-cards must be a share from 0 to 1")
    if args.dice_set is not None and args.dice != "real":
        parser.error("--dice-set lays real dice: give --dice real too")
    if args.teach_pips and args.dice_set is None:
        parser.error("--teach-pips teaches one set's dice: give --dice-set NAME too")
    try:
        result = evaluate(
            args.scenes,
            args.seed,
            args.difficulty,
            args.edition,
            args.dice,
            args.dice_photos,
            args.dice_half,
            args.dice_on_cards,
            args.grey,
            args.glare,
            args.frame_size,
            args.dice_set,
            args.teach_pips,
            args.curl,
            args.lens_error,
        )
    except (PhotoDiceMissing, ValueError) as missing:  # no photographs, or no such set
        print(f"{parser.prog}: {missing}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['scenes']} {args.difficulty} scenes of {args.edition}, seed {args.seed}, "
          f"{result['frame_size'][0]}x{result['frame_size'][1]}"
          f"{', a camera without colour' if args.grey else ''}"
          + (f", glare over {args.glare:.0%} of the frame" if args.glare else "")
          + (f", cards curled up to {args.curl:g} mm" if args.curl else "")
          + (f", a lens error of up to {args.lens_error:g} px" if args.lens_error else "")
          )  # fmt: skip
    print(f"cards    {result['cards_accuracy']:.2%} of {result['cards']} "
          f"({result['cards_extra']} seen that are not there)")  # fmt: skip
    print(f"railway  {result['railway_exact']:.2%} of scenes exact")
    if result["frames_too_coarse"]:
        print(f"         {result['frames_too_coarse']} frames said the camera sees the table "
              "too coarsely (nothing read)")  # fmt: skip
    print(f"caboose  {result['caboose_accuracy']:.2%} of scenes on the right card")
    print(f"dice     {result['dice_accuracy']:.2%} of {result['dice']} "
          f"({result['dice_extra']} seen that are not there)")  # fmt: skip
    if args.dice == "real":
        print(f"         real dice: {result['dice_right']} of {result['dice']} read right "
              f"({result['photo_dice_used']} photographed dice), "
              f"{result['dice_wheels_accuracy']:.2%} give the right wheels "
              f"(R-6 face map)")  # fmt: skip
        print(f"         {result['dice_unseen']} not found, {result['dice_as_wheels']} taken "
              f"for wheel dice ({result['photo_dice_half']} half of the photographs)")  # fmt: skip
    print(f"         {result['dice_asked']} asked on the page (unsure), "
          f"{result['dice_wrong_sure']} read wrong and sure")  # fmt: skip
    if args.dice_on_cards > 0:
        print(f"on cards {result['on_cards_right']} of {result['dice_on_cards']} dice lying on a "
              f"card read right, {result['on_cards_found']} found, {result['on_cards_asked']} "
              f"asked, {result['on_cards_wrong_sure']} read wrong and sure; the "
              f"{result['cards_under']} cards under them: {result['cards_under_right']} read "
              f"right, {result['cards_under_asked']} asked, {result['cards_under_unseen']} not "
              f"seen ({result['cards_under_unseen_told']} of them said to be unreadable), "
              f"{result['cards_under_wrong_sure']} read wrong and sure")  # fmt: skip
    if result["glare_odds"] and result["glare"]:
        print(
            f"lamp     where its reflection touches none of the piece: cards "
            f"{result['cards_clear_accuracy']:.2%} of "
            f"{result['cards'] - result['cards_lamp']} read right, dice "
            f"{result['dice_clear_accuracy']:.2%} of {result['dice'] - result['dice_lamp']}"
        )
        print(f"         under it: cards {result['cards_lamp_right']} of "
              f"{result['cards_lamp']} right, "
              f"dice {result['dice_lamp_right']} of {result['dice_lamp']} right, "
              f"{result['dice_lamp_asked']} asked, {result['dice_lamp_unseen']} not found, "
              f"{result['dice_lamp_wrong_sure']} wrong and sure")  # fmt: skip
    print(f"pose     p95 {result['position_err_mm_p95']} mm, "
          f"{result['rotation_err_deg_p95']} degrees")  # fmt: skip
    print(f"latency  p50 {result['latency_ms_p50']} ms, p95 {result['latency_ms_p95']} ms "
          f"(CPU p50 {result['cpu_ms_p50']} ms, one thread); a still camera's next frame "
          f"p50 {result['still_camera_ms_p50']} ms")  # fmt: skip
    print(f"         {result['latency_ratio_p50']}x (p95 {result['latency_ratio_p95']}x) "
          f"a plain OpenCV pass over the frame (p50 {result['plain_pass_ms_p50']} ms)")  # fmt: skip
    for failure in result["failures"]:
        print(f"  seed {failure['seed']}: {failure}", file=sys.stderr)
    return 0
