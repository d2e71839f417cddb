"""`companion eval-vision --game switching`: how well the camera reads synthetic tables of
the switching-track game whose truth is known.

Each scene is drawn by switching.scenes.random_table from its own seed (our board any way
round near the middle of the table, the panels in any lie, trains of 2-4 players on every
kind of space, now and then nose to tail along a track, finished trains in depots beside
the board, the three dice thrown beside it, a hand reaching over the board in a third of
the scenes, over no train), rendered through an easy or hard camera and read by
`read_board`.

A train is right when a sure train of its colour and facing is read on its space; unsure
when its space is said unseen or its train unsure (the turn flow waits for another frame:
no harm done); wrong when read surely as another colour or facing (the misreads that
would reach the game). A sure train read on an empty space is wrong too (`trains_extra`).
A panel is right when read surely in its slot and way round. The dice: the colour die's
colour and the number dice's pair, each right, unsure (None) or wrong. `--dice real` lays
real dice cut from the labelled photographs as the two number dice (the held-out even half
unless `--dice-half odd`, as the Caboose game's `--dice real`), so the pair is measured on
dice the pip reader has never seen: the dice a family throws.

Where the hard camera draws a lamp's reflection, every piece it touches (by 12 grey levels
or more: synthetic.camera `lamp_footprint`) is counted again apart (`trains_lamp`,
`trains_lamp_right`, ...), and each kind's `_clear_accuracy` is its share read right where
the reflection touches none of the piece. Under it a reader asks what the white hides
(the family is told to move the lamp), so the accuracy a reader is held to is the clear
one; nothing may be read wrong yet surely anywhere.

`--pieces printed` draws a family's own box instead of ours (switching/standin.py: a board
of another design without our corner markers, anywhere among the table's markers any way
round, panels and trains of another look), taught to the camera once from one frame under
a well lit camera (vision/taught.py `teach`, seed `_TEACHING_SEED`) and read through it.

Latency is one thread's, wall and CPU time; each scene is a new camera position, so every
frame calibrates from scratch (`still_camera_ms` reads the same frame again as a fixed
camera's next frame, everything read again: what a next frame after a move costs at most,
where the reader's memo, vision/unchanged.py, reads again only what changed). Beside each
frame's time a plain OpenCV pass over the same frame (companion/vision/plain_pass.py) is
timed in the same run: their ratio travels between machines, absolute times do not.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.arguments import CommandLine
from companion.games.switching import scenes, standin
from companion.games.switching.board import load as load_board
from companion.games.switching.vision import taught
from companion.games.switching.vision.reader import SeenBoard, read_board
from companion.hardware import FRAME_SIZE
from companion.pose import Pose
from companion.synthetic import Camera, add_camera_options, camera_view, render
from companion.synthetic.camera import clear_share, lamp_footprint, touched
from companion.synthetic.photo_dice import (
    PhotoDice,
    PhotoDiceMissing,
    PhotoDie,
    add_photo_dice_options,
    photo_dice_stream,
)
from companion.synthetic.surface import under_a_hand
from companion.vision.dice import PIPS
from companion.vision.dice_art import DIE_MM
from companion.vision.plain_pass import plain_pass_ms, times
from companion.vision.table import card_corners

COUNTS = (
    "trains", "trains_right", "trains_unsure", "trains_wrong", "trains_extra",
    "panels", "panels_right", "panels_unsure", "panels_wrong",
    "colour", "colour_right", "colour_unsure", "colour_wrong",
    "numbers", "numbers_right", "numbers_unsure", "numbers_wrong", "empty_unseen", "hands",
    "number_dice", "number_dice_right", "number_dice_unsure", "number_dice_wrong",
    "number_dice_extra", "number_dice_missed",
)  # fmt: skip
_SAME_DIE_MM = DIE_MM  # a number die read this near a die thrown (centres): that die
PIECE_KINDS = ("trains", "panels", "colour", "numbers", "number_dice")
# each kind's pieces the lamp's reflection touches (`lamp_footprint`), counted again apart:
# "trains_lamp" of them, "trains_lamp_right", "trains_lamp_unsure", "trains_lamp_wrong", ...
LAMP_COUNTS = tuple(
    f"{kind}_lamp{outcome}"
    for kind in PIECE_KINDS
    for outcome in ("", "_right", "_unsure", "_wrong")
)
# each kind's pieces a hand lies over (`under_hand`: what no reader can see, the stand-in's
# hands reaching over the dice now and then), counted apart the same way, and those neither
# the lamp nor a hand touches ("trains_open", "trains_open_right"): `_open_accuracy`
HAND_COUNTS = tuple(
    f"{kind}_hand{outcome}"
    for kind in PIECE_KINDS
    for outcome in ("", "_right", "_unsure", "_wrong")
) + tuple(f"{kind}_open{outcome}" for kind in PIECE_KINDS for outcome in ("", "_right"))


def score(
    truth: scenes.Shown,
    seen: SeenBoard,
    lit: frozenset[str] = frozenset(),
    covered: frozenset[str] = frozenset(),
) -> dict[str, int]:
    """One scene's counts (`COUNTS`) of its reading against its truth, (`LAMP_COUNTS`)
    those of the pieces `lit` names (`under_lamp`) again apart, and (`HAND_COUNTS`) those
    `covered` names (`under_hand`) and those neither names."""
    counts = dict.fromkeys(COUNTS + LAMP_COUNTS + HAND_COUNTS, 0)

    def tally(kind: str, outcome: str, piece: str) -> None:
        counts[kind] += 1
        counts[f"{kind}_{outcome}"] += 1
        for apart, named in (("lamp", lit), ("hand", covered)):
            if piece in named:
                counts[f"{kind}_{apart}"] += 1
                counts[f"{kind}_{apart}_{outcome}"] += 1
        if piece not in lit | covered:
            counts[f"{kind}_open"] += 1
            counts[f"{kind}_open_right"] += outcome == "right"

    on = {train.space: train for train in truth.trains}
    for space, train in on.items():
        read = seen.train_at(space)
        if read is None or not read.sure:
            outcome = "unsure" if read is not None or space in seen.unseen else "wrong"
        elif (read.colour, read.facing) == (train.colour, train.facing):
            outcome = "right"
        else:
            outcome = "wrong"
        tally("trains", outcome, f"train:{space}")
    counts["trains_extra"] = sum(t.sure and t.space not in on for t in seen.trains)
    counts["empty_unseen"] = sum(space not in on for space in seen.unseen)
    for panel, lie in zip(truth.board.panels, truth.layout, strict=True):
        read = seen.panels[panel.colour]
        if not read.sure:
            outcome = "unsure"
        else:
            outcome = "right" if (read.slot, read.turned) == tuple(lie) else "wrong"
        tally("panels", outcome, f"panel:{panel.colour}")
    colour, white, black = truth.roll
    for name, got, want in (
        ("colour", seen.dice.colour, colour),
        ("numbers", seen.dice.numbers, (min(white, black), max(white, black))),
    ):
        tally(name, "unsure" if got is None else "right" if got == want else "wrong", name)
    outcomes, counts["number_dice_extra"], counts["number_dice_missed"] = _number_dice(truth, seen)
    for i, outcome in enumerate(outcomes):
        tally("number_dice", outcome, f"number:{i}")
    counts["hands"] = len(truth.scene.hands)
    return counts


def _outlines(truth: scenes.Shown) -> list[tuple[tuple[str, ...], np.ndarray]]:
    """Each piece of `truth` with its names as `score` tallies it ("train:SPACE",
    "panel:COLOUR", "colour" for the colour die, "numbers" and "number:I" for the I-th
    number die thrown) and its outline on the table (N, 2 mm). The scene lays the board,
    then its panels, then its trains."""
    cards = truth.scene.cards
    panels = cards[1 : 1 + len(truth.board.panels)]
    trains = cards[1 + len(panels) : 1 + len(panels) + len(truth.trains)]
    pieces = [((f"panel:{panel.colour}",), card_corners(card.pose, card.size))
              for panel, card in zip(truth.board.panels, panels, strict=True)]  # fmt: skip
    pieces += [((f"train:{train.space}",), card_corners(card.pose, card.size))
               for train, card in zip(truth.trains, trains, strict=True)]  # fmt: skip
    numbers = [die for die in truth.scene.dice if die.kind == PIPS]
    for die in truth.scene.dice:
        names = ("colour",) if die.kind != PIPS else ("numbers", f"number:{numbers.index(die)}")
        pieces.append((names, card_corners(Pose(die.x, die.y, die.rotation), (DIE_MM, DIE_MM))))
    return pieces


def under_lamp(
    truth: scenes.Shown, scene_seed: int, camera: Camera, frame: np.ndarray
) -> frozenset[str]:
    """The pieces of `truth` the lamp's reflection touches in `frame`, rendered from
    `scene_seed` through `camera` (synthetic.camera.lamp_footprint), named as `score`
    tallies them (`_outlines`)."""
    footprint = lamp_footprint(truth.scene, scene_seed, camera, frame)
    if footprint is None:
        return frozenset()
    view = camera_view(scene_seed, camera, truth.scene.layout)
    return frozenset(name for names, outline in _outlines(truth)
                     if touched(footprint, view, outline) for name in names)  # fmt: skip


def under_hand(truth: scenes.Shown) -> frozenset[str]:
    """The pieces of `truth` a hand lies over (synthetic.surface `under_a_hand`), named as
    `score` tallies them (`_outlines`)."""
    if not truth.scene.hands:
        return frozenset()
    return frozenset(name for names, outline in _outlines(truth)
                     if under_a_hand(truth.scene, outline) for name in names)  # fmt: skip


def _number_dice(truth: scenes.Shown, seen: SeenBoard) -> tuple[list[str], int, int]:
    """The number dice one by one: each die thrown is right when a die read within
    `_SAME_DIE_MM` of it (the nearest first, each read die once) shows its face surely,
    wrong when it shows another surely, unsure otherwise (unread, hidden, asked); how
    many dice were read surely where none was thrown (seen where nothing lies); and how
    many thrown no die was seen near at all (not found: neither read nor asked)."""
    thrown = [die for die in truth.scene.dice if die.kind == PIPS]
    read = list(seen.dice.pips)
    where = (scenes.to_table(truth.board, truth.pose, [(d.x, d.y) for d in read])
             if read else np.empty((0, 2)))  # fmt: skip
    pairs = sorted(
        (float(np.hypot(*(where[j] - (die.x, die.y)))), i, j)
        for i, die in enumerate(thrown)
        for j in range(len(read))
    )
    matched: dict[int, int] = {}
    for distance, i, j in pairs:
        if distance <= _SAME_DIE_MM and i not in matched and j not in matched.values():
            matched[i] = j
    outcomes = []
    for i, die in enumerate(thrown):
        face = read[matched[i]].face if i in matched else None
        outcomes.append("unsure" if face is None else "right" if face == die.face else "wrong")
    extra = sum(die.face is not None and j not in matched.values() for j, die in enumerate(read))
    return outcomes, extra, len(thrown) - len(matched)


def with_real_numbers(truth: scenes.Shown, photos: Iterator[PhotoDie]) -> scenes.Shown:
    """The table with its two number dice replaced by the next real dice of `photos`, lying
    and turned where the drawn ones were, and the roll they show; the colour die stays."""
    colour, *_ = truth.roll
    dice, faces = [], []
    for die in truth.scene.dice:
        if die.kind == "pips":
            photo = next(photos)
            die = replace(die, face=photo.pips, picture=photo.picture)
            faces.append(photo.pips)
        dice.append(die)
    white, black = faces
    scene = replace(truth.scene, dice=tuple(dice))
    return replace(truth, scene=scene, roll=(colour, white, black))


PIECES = ("ours", "printed")  # our printed board and pieces, or the stand-in box, taught
_TEACHING_SEED = 900  # the teaching frame's (a seed no measured scene is drawn from)

# a reading of one frame: the frame and what the last frame's reading left for the next
# (a still camera's calibration, where a taught board was found, never the memo of what it
# read: the next frame is read in full), to what it shows and what this one leaves
Read = Callable[[Any, Any], tuple[SeenBoard, Any]]


def reader_of(pieces: str) -> tuple[Callable[[int], scenes.Shown], Read]:
    """The tables drawn (from a seed) and how they are read, for `pieces` (`PIECES`): our
    board read by its markers, or the stand-in box taught once and read through it."""
    if pieces == "ours":

        def read_ours(frame: Any, previous: Any) -> tuple[SeenBoard, Any]:
            seen = read_board(frame, load_board(), calibration=previous)
            return seen, seen.calibration

        return scenes.random_table, read_ours
    lesson = standin.teaching_table(0)
    box = taught.teach(render(lesson.scene, _TEACHING_SEED, Camera.easy()), lesson.board,
                       standin.TABLE)  # fmt: skip

    def read_box(frame: Any, previous: Any) -> tuple[SeenBoard, Any]:
        seen, found = taught.read_taught(frame, box, standin.TABLE, previous)
        return seen, None if found is None else replace(found, memo=None)  # read again in full

    return standin.random_table, read_box


def evaluate(
    scenes_n: int,
    seed: int,
    difficulty: str,
    glare: float | None = None,
    frame_size: tuple[int, int] = FRAME_SIZE,
    curl: float | None = None,
    lens_error: float | None = None,
    dice: str = "drawn",
    dice_photos: Path | None = None,
    dice_half: str = "even",
    pieces: str = "ours",
) -> dict[str, Any]:
    """Render and read `scenes_n` scenes from `seed` on, a lamp's reflection over `glare` of
    the frame at most on every table (None: the camera's own), filmed at `frame_size`, cards
    curled up to `curl` mm and a lens error of up to `lens_error` px (each None: the camera's
    own), the number dice drawn or (`dice` "real") cut from `dice_half` of the photographs in
    `dice_photos`, of our board and pieces or a family's own box (`pieces`, `PIECES`): the
    summary `--json` prints. PhotoDiceMissing when real dice are asked for and none can be
    cut."""
    cv2.setNumThreads(1)
    photos = (
        photo_dice_stream(PhotoDice(dice_photos, dice_half), seed, set())
        if dice == "real"
        else None
    )
    camera = Camera.preset(
        difficulty, glare=glare, frame_size=frame_size, curl=curl, lens_error=lens_error
    )
    table, read = reader_of(pieces)
    warm = table(seed + scenes_n)  # the first frame pays for imports and caches
    read(render(warm.scene, seed + scenes_n, camera), None)
    totals = dict.fromkeys(COUNTS + LAMP_COUNTS + HAND_COUNTS, 0)
    wall, cpu, still, plain, render_ms = [], [], [], [], []
    failures = []
    for i in range(scenes_n):
        scene_seed = seed + i
        truth = table(scene_seed)
        if photos is not None:
            truth = with_real_numbers(truth, photos)
        start = time.perf_counter()
        frame = render(truth.scene, scene_seed, camera)
        render_ms.append((time.perf_counter() - start) * 1000)
        plain.append(plain_pass_ms(frame))
        start, start_cpu = time.perf_counter(), time.process_time()
        seen, left = read(frame, None)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        start = time.perf_counter()
        read(frame, left)  # a still camera's next
        still.append((time.perf_counter() - start) * 1000)
        lit = under_lamp(truth, scene_seed, camera, frame)
        counts = score(truth, seen, lit, under_hand(truth))
        for key, value in counts.items():
            totals[key] += value
        wrong = [k for k in COUNTS if k.endswith(("_wrong", "_extra")) and counts[k]]
        if wrong or counts["trains_right"] < counts["trains"]:
            failures.append({"seed": scene_seed, "wrong": wrong,
                             "said": [p.key for p in seen.problems]})  # fmt: skip
    return {
        "game": "switching",
        "scenes": scenes_n,
        "seed": seed,
        "difficulty": difficulty,
        "frame_size": list(camera.frame_size),
        "glare": camera.glare,
        "glare_odds": round(camera.glare_odds, 4),  # the share of tables with it
        "curl": camera.curl,
        "curl_odds": round(camera.curl_odds, 4),  # the share of tables with curled cards
        "lens_error": camera.lens_error,
        "lens_odds": round(camera.lens_odds, 4),  # the share of tables with a lens error
        "dice_kind": dice,
        "pieces": pieces,
        **({"photo_dice_half": dice_half} if dice == "real" else {}),
        **totals,
        "trains_accuracy": round(totals["trains_right"] / max(totals["trains"], 1), 4),
        "panels_accuracy": round(totals["panels_right"] / max(totals["panels"], 1), 4),
        "dice_accuracy": round(
            min(totals["colour_right"], totals["numbers_right"]) / max(scenes_n, 1), 4
        ),
        **{
            f"{kind}_clear_accuracy": clear_share(
                totals[f"{kind}_right"],
                totals[kind],
                totals[f"{kind}_lamp_right"],
                totals[f"{kind}_lamp"],
            )
            for kind in PIECE_KINDS
        },
        # clear of the lamp and of every hand: what the camera could see of each kind
        **{
            f"{kind}_open_accuracy": round(totals[f"{kind}_open_right"] / totals[f"{kind}_open"], 4)
            if totals[f"{kind}_open"]
            else 1.0
            for kind in PIECE_KINDS
        },
        **times(
            latency_ms=wall,
            cpu_ms=cpu,
            still_camera_ms=still,
            plain_pass_ms=plain,
            render_ms=render_ms,
        ),
        "failures": failures[:20],
    }


_KIND_NAMES = {"trains": "trains", "panels": "panels", "colour": "colour die",
               "numbers": "number pairs", "number_dice": "number dice"}  # fmt: skip


def report(result: dict[str, Any]) -> str:
    """The run's figures in words, as eval-vision and the bench print them."""
    r = result
    return "\n".join([
        f"{r['scenes']} {r['difficulty']} scenes of the switching-track game"
        f"{' (a taught stand-in box)' if r.get('pieces') == 'printed' else ''}, seed {r['seed']}, "
        f"{r['frame_size'][0]}x{r['frame_size'][1]} ({r['hands']} with a hand over the board)",
        f"trains   {r['trains_accuracy']:.2%} of {r['trains']} read right; {r['trains_unsure']} "
        f"unsure (asked, never guessed), {r['trains_wrong']} wrong and sure, "
        f"{r['trains_extra']} seen where none stands",
        f"panels   {r['panels_accuracy']:.2%} of {r['panels']} right; {r['panels_unsure']} "
        f"unsure, {r['panels_wrong']} wrong and sure",
        f"dice     colour die {r['colour_right']} right, {r['colour_unsure']} unsure, "
        f"{r['colour_wrong']} wrong; number dice {r['numbers_right']} right, "
        f"{r['numbers_unsure']} unsure, {r['numbers_wrong']} wrong",
        f"         die by die: number dice {r['number_dice_right']} of {r['number_dice']} "
        f"right, {r['number_dice_unsure']} unsure ({r['number_dice_missed']} of them not "
        f"found), {r['number_dice_wrong']} wrong and sure, {r['number_dice_extra']} seen "
        "where none lies",
        "lamp     where its reflection touches none of the piece, read right: "
        + ", ".join(
            f"{name} {r[f'{kind}_clear_accuracy']:.2%} of {r[kind] - r[f'{kind}_lamp']}"
            for kind, name in _KIND_NAMES.items()
        ),
        "         under it: "
        + "; ".join(
            f"{name} {r[f'{kind}_lamp_right']} right, {r[f'{kind}_lamp_unsure']} asked, "
            f"{r[f'{kind}_lamp_wrong']} wrong"
            for kind, name in _KIND_NAMES.items()
        ),
        "hands    where neither the lamp nor a hand touches the piece, read right: "
        + ", ".join(
            f"{name} {r[f'{kind}_open_accuracy']:.2%} of {r[f'{kind}_open']}"
            for kind, name in _KIND_NAMES.items()
        )
        + "; under a hand: "
        + ", ".join(
            f"{name} {r[f'{kind}_hand_right']} right of {r[f'{kind}_hand']}"
            for kind, name in _KIND_NAMES.items()
        ),
        f"spaces   {r['empty_unseen']} empty spaces said unseen (under a hand, or a panel unread)",
        f"time     {r['latency_ms_p50']} ms a frame, {r['latency_ratio_p50']}x a plain OpenCV "
        f"pass over it ({r['plain_pass_ms_p50']} ms); p95 {r['latency_ms_p95']} ms, "
        f"{r['latency_ratio_p95']}x; a still camera's frame {r['still_camera_ms_p50']} ms; "
        "one thread",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion eval-vision --game switching",
        description="Render synthetic tables of the switching-track game and measure how "
        "well the camera reads their panels, trains and dice.",
    )
    parser.add_argument("--scenes", type=int, default=100, help="how many (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first scene")
    parser.add_argument("--difficulty", choices=("easy", "hard"), default="hard")
    add_camera_options(parser)
    parser.add_argument(
        "--dice",
        choices=("drawn", "real"),
        default="drawn",
        help="the number dice: drawn (ours, default) or real: cut from labelled photographs",
    )
    add_photo_dice_options(parser)
    parser.add_argument(
        "--pieces",
        choices=PIECES,
        default="ours",
        help="the box: ours (our printed board and pieces, default) or printed: a family's "
        "own box of another design, taught to the camera once",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.seed < 0:
        parser.error("--scenes is 1 or more and --seed 0 or more")
    try:
        real = {"dice": args.dice, "dice_photos": args.dice_photos, "dice_half": args.dice_half,
                "pieces": args.pieces}  # fmt: skip
        result = evaluate(
            args.scenes,
            args.seed,
            args.difficulty,
            args.glare,
            args.frame_size,
            args.curl,
            args.lens_error,
            **real,
        )
    except PhotoDiceMissing as missing:
        print(f"{parser.prog}: {missing}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    print(report(result))
    for failure in result["failures"]:
        print(f"  seed {failure['seed']}: {failure}", file=sys.stderr)
    return 0
