"""`companion enroll --game switching FOLDER`: a family's own switching box taught to the
camera from one frame (vision/taught.py), in a first, command-line form.

The family lays the box's board square to the table among its four markers (its top
towards markers 0 and 1), its panels at home upright and a train of each colour on its
first Starts, and measures the board (`--size`). The board file (`switching-board/1`) is
the family's own when they have written one (`--board FILE`, docs/board.md); otherwise the
companion proposes one: our board's layout (boards/ours.json) scaled to the board's size,
then fitted to where the panels are seen in the taught picture (a shift and a scale along
each side, which every slot, port, piece and track follows). Either is checked as the board
tool checks one (board.parse), and the preview draws it over the camera's picture: the
slots, every space with its name, Starts green and Finishes red, for the family to check
before they play. A proposal that does not match their board is corrected by writing the
file and teaching again with `--board`, or marked on the setup page (web/board_teach.py).
With `--colour-die` the colour die's faces are taught next, one at a time, the die lying
alone beside the board (taught.py `teach_die`): for a die not printed in its panels'
exact shades.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.games.protocol import BoardProblem, preview_path
from companion.games.switching import art
from companion.games.switching.board import FINISH, START, Board, BoardError, parse, read
from companion.games.switching.board import load as load_board
from companion.games.switching.record import GAME_ID
from companion.games.switching.scenes import TABLE
from companion.games.switching.vision.taught import (
    PICTURE_PX_PER_MM,
    TaughtBox,
    TeachError,
    lying_square,
    teach,
    teach_die,
    with_dice,
)
from companion.vision.frame_checks import as_bgr
from companion.vision.table import TableLayout

FACE = "box"  # the first thing shown: the whole box, laid out to be taught
DIE_FACE = "die-"  # then, with --colour-die, each face of the colour die: die-purple, ...
_FIT_OFF = (0.1, 25.0)  # the panels seen this far from the proposal at most: scale, mm


def proposed(size: tuple[float, float]) -> Board:
    """Our board's layout scaled to a board of `size` mm (along each side), as a family's
    own board file."""
    return parse(_mapped(load_board().document(), size, (1.0, 1.0), (0.0, 0.0)), "the proposal")


def _mapped(
    doc: dict[str, Any],
    size: tuple[float, float],
    scale: tuple[float, float],
    shift: tuple[float, float],
) -> dict[str, Any]:
    """A board file `doc` redrawn on a board of `size`: every board point (x, y) scaled
    to the new size, then by `scale` and `shift` (mm) about the origin; a panel's own
    points by its slots' scale."""
    width, height = doc["size"]
    sx, sy = size[0] / width * scale[0], size[1] / height * scale[1]

    def point(x: float, y: float) -> list[float]:
        return [round(x * sx + shift[0], 2), round(y * sy + shift[1], 2)]

    out = dict(doc, id="own", name="Our family's own board", ours=False,
               note="Proposed by companion enroll from the companion's own layout.")  # fmt: skip
    out["size"] = [round(size[0], 2), round(size[1], 2)]
    slot_w, slot_h = doc["slots"]["size"]
    out["slots"] = {
        "size": [round(slot_w * sx, 2), round(slot_h * sy, 2)],
        "at": {k: point(*at) for k, at in doc["slots"]["at"].items()},
    }
    out["ports"] = {k: [round(x * sx, 2), round(y * sy, 2)] for k, (x, y) in doc["ports"].items()}
    out["panels"] = {
        colour: dict(panel, pieces=[
            dict(piece, spaces=[[sid, round(x * sx, 2), round(y * sy, 2)]
                                for sid, x, y in piece["spaces"]])
            for piece in panel["pieces"]
        ])
        for colour, panel in doc["panels"].items()
    }  # fmt: skip
    out["tracks"] = [dict(track, spaces=[[sid, *point(x, y)] for sid, x, y in track["spaces"]])
                     for track in doc["tracks"]]  # fmt: skip
    return out


def fitted(box: TaughtBox) -> Board:
    """The board of `box` (a proposal) fitted to where its panels are seen in its picture:
    each panel's colour (as taught) found round its home slot, and the shift and scale
    along each side that take the home slots onto them applied to the whole layout.
    BoardError when the panels are not seen near where the proposal puts them."""
    board = box.board
    k = PICTURE_PX_PER_MM
    value = box.picture.max(axis=2)
    paper = np.array(cv2.mean(box.picture, mask=(value >= np.percentile(value, 90)).astype(
        np.uint8))[:3]) + 1.0  # fmt: skip
    balanced = np.clip(box.picture * (paper.max() / paper), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)  # white-balanced, as the hues were taught
    names = [*art.TRAIN_COLOURS, *art.PANEL_COLOURS]
    classes = cv2.LUT(hsv[..., 0], box.pieces.classes)
    classes[hsv[..., 1] < 0.45 * 255] = 255
    wanted, seen = [], []
    for panel in board.panels:
        slot = board.slots[panel.home]
        mine = cv2.morphologyEx((classes == names.index(panel.colour)).astype(np.uint8),
                                cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))  # fmt: skip
        reach = _FIT_OFF[1] + 0.1 * max(slot.width, slot.height)  # round the home slot
        x0, y0 = (max(round((v - reach) * k), 0) for v in (slot.x, slot.y))
        x1, y1 = (round((v + reach) * k) for v in (slot.x + slot.width, slot.y + slot.height))
        ys, xs = np.nonzero(mine[y0:y1, x0:x1])
        if len(xs) < 0.25 * slot.width * slot.height * k * k:
            raise BoardError(f"the {panel.colour} panel is not seen near its home, "
                             f"{panel.home}: lay it there")  # fmt: skip
        inset = art.PANEL_INSET_MM  # a panel is that much smaller than its slot all round
        wanted.append([slot.x, slot.y, slot.x + slot.width, slot.y + slot.height])
        seen.append([(x0 + xs.min()) / k - inset, (y0 + ys.min()) / k - inset,
                     (x0 + xs.max() + 1) / k + inset, (y0 + ys.max() + 1) / k + inset])  # fmt: skip
    want, got = np.array(wanted), np.array(seen)
    scale, shift = [], []
    for axis in (0, 1):
        a = np.concatenate([want[:, axis], want[:, axis + 2]])
        b = np.concatenate([got[:, axis], got[:, axis + 2]])
        slope, offset = np.polyfit(a, b, 1)
        scale.append(float(slope))
        shift.append(float(offset))
    if max(abs(s - 1.0) for s in scale) > _FIT_OFF[0] or max(map(abs, shift)) > _FIT_OFF[1]:
        raise BoardError("the panels do not lie where our layout puts them: write your "
                         "board's file (docs/board.md) and teach it with --board FILE")  # fmt: skip
    doc = _mapped(board.document(), board.size, (scale[0], scale[1]), (shift[0], shift[1]))
    return parse(doc, "the proposal fitted to the board's picture")


def cut_out(frame_bgr: object, size: tuple[float, float], layout: TableLayout) -> np.ndarray | None:
    """The board of `size` mm lying square among the table's markers, cut out of a frame
    top-down as `teach` cuts it (its picture), for marking its file on when our layout
    cannot be fitted to it; None when the markers or the board's outline are not seen."""
    frame, _ = as_bgr(frame_bgr)
    if frame is None:
        return None
    try:
        return lying_square(frame, proposed(size), layout)[2]
    except TeachError:
        return None


def overlay(box: TaughtBox) -> np.ndarray:
    """The board file drawn over the board's picture (panels at home): each slot's outline
    and every space, its name beside it, Starts green, Finishes red, others white."""
    k = 2.0  # drawn larger than the picture, so the names can be read
    image = cv2.resize(box.picture, None, fx=k / PICTURE_PX_PER_MM, fy=k / PICTURE_PX_PER_MM)
    board = box.board
    for slot in board.slots.values():
        cv2.rectangle(image, (round(slot.x * k), round(slot.y * k)),
                      (round((slot.x + slot.width) * k), round((slot.y + slot.height) * k)),
                      (40, 40, 40), 2)  # fmt: skip
    colours = {START: (60, 170, 60), FINISH: (40, 40, 210)}
    for space in board.spaces.values():
        x, y = (round(v * k) for v in board.centre(space.id, board.home))
        cv2.circle(image, (x, y), round(6 * k), colours.get(space.kind, (250, 250, 250)), 2)
        cv2.putText(image, space.id, (x + round(7 * k), y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (0, 0, 0), 1, cv2.LINE_AA)  # fmt: skip
    return image


class BoxLesson:
    """`companion enroll --game switching`'s faces (`Enrolment`): the box laid out to be
    taught, learnt as a `TaughtBox` from the board file given or the proposal fitted, then
    (`colour_die`) each face of the colour die lying alone beside the board, learnt as its
    colour (taught.py `teach_die`): a family's die need not be printed in its panels'
    exact shades. A box taught without them reads its colour die by its panels' colours."""

    def __init__(
        self,
        layout: TableLayout,
        size: tuple[float, float] | None,
        board: Board | None,
        colour_die: bool = False,
    ) -> None:
        self.layout, self.size, self.board = layout, size, board
        dice = [DIE_FACE + colour for colour in art.PANEL_COLOURS] if colour_die else []
        self.faces = (FACE, *dice)
        self._box: TaughtBox | None = None  # the box learnt, which the die's faces lie by
        self._dice: dict[str, int] = {}  # the die's faces learnt so far: their hues

    def prompt(self, face: str) -> str:
        if face.startswith(DIE_FACE):
            return (
                f"leave the board as it lies and lay the colour die alone beside it, a hand's "
                f"breadth from its edge and away from its corners, {face[len(DIE_FACE) :]} "
                "face up"
            )
        starts = ", ".join(self._board().starts[: len(art.TRAIN_COLOURS)])
        trains = ", ".join(art.TRAIN_COLOURS)
        return (
            "lay the board square to the table among its markers, its top towards markers 0 "
            f"and 1, the panels at home the right way up, and a {trains} train on {starts}, "
            "each facing along its track (its shape is learnt that way round)"
        )

    def _board(self) -> Board:
        return self.board or proposed(self.size or (0.0, 0.0))

    def learn(self, face: str, frame: Any) -> tuple[TaughtBox | int | None, str | None]:
        """The box (`FACE`) or a colour die face's hue, or why not."""
        try:
            if face.startswith(DIE_FACE):
                return self._die_face(face[len(DIE_FACE) :], frame), None
            box = teach(frame, self._board(), self.layout)
            if self.board is None:
                box = teach(frame, fitted(box), self.layout)
        except (TeachError, BoardError) as error:
            return None, str(error)
        self._box = box
        return box, None

    def _die_face(self, colour: str, frame: Any) -> int:
        """The hue of the colour die's `colour` face, told apart from its faces learnt
        before and the trains' colours; TeachError when not."""
        if self._box is None:
            raise TeachError("board_teach_first", "teach the box before its colour die")
        hue, _ = teach_die(frame, self._box, self.layout, colour)
        with_dice(self._box, {**self._dice, colour: hue})  # refused when too alike
        self._dice[colour] = hue
        return hue

    def preview(self, faces: Sequence[str], pictures: Sequence[Any]) -> np.ndarray:
        return overlay(pictures[0])  # the box: the first face learnt

    def save(self, pictures: Sequence[Any], folder: Path) -> None:
        box, *hues = pictures  # the box, then its colour die's faces' hues
        if hues:
            colours = [face[len(DIE_FACE) :] for face in self.faces[1:]]
            box = with_dice(box, {c: int(h) for c, h in zip(colours, hues, strict=True)})
        box.save(folder)


# What the board check's message says, and the page's words for it (the first that
# matches; anything else is "board_wrong"): web/words.py's TEACH_BOARD.
_PROBLEMS = (
    ("the slot lies outside the board", "board_slot_off"),
    ("overlap", "board_slots_overlap"),
    ("lies outside", "board_off"),
    ("no track begins at a Start", "board_no_start"),
    ("no track ends at a Finish", "board_no_finish"),
    ("both Start and Finish", "board_start_finish"),
    ("used twice", "board_twice"),
)


def checked(doc: Any) -> Board:
    """A board file marked on the setup page, checked as the board tool checks one;
    BoardProblem naming the page's words for what is wrong and the spaces, tracks and
    slots where (from the check's own "where": "track B, space B2", "slots, NE"; two
    slots that overlap from what it says of them)."""
    try:
        return parse(doc, "your board")
    except BoardError as error:
        message = str(error)
        key = next((k for text, k in _PROBLEMS if text in message), "board_wrong")
        where, _, said = message.partition(": ")
        marks = re.findall(r"(?:track|space|slots,) ([^\s,:()]+)", where)
        marks += [m for pair in re.findall(r"^slots (\S+) and (\S+) overlap", said) for m in pair]
        raise BoardProblem(message, key, marks) from None


class PageLesson:
    """The setup page's "teach your board" step (`BoardLesson`): the board cut out and
    proposed as `companion enroll` proposes it (fitted, or our layout scaled to its size
    where the panels are not where ours puts them), and the family's corrected file taught
    and written as `companion enroll` writes it (the box's folder and its preview)."""

    def look(
        self, frame: Any, size: tuple[float, float], layout: TableLayout
    ) -> tuple[np.ndarray, dict[str, Any], bool] | None:
        box, _ = BoxLesson(layout, size, None).learn(FACE, frame)
        if box is not None:
            return box.picture, box.board.document(), True
        picture = cut_out(frame, size, layout)
        return None if picture is None else (picture, proposed(size).document(), False)

    die_faces = tuple(art.PANEL_COLOURS)

    def learn_die(
        self, frame: Any, face: str, learnt: Mapping[str, Any], layout: TableLayout, folder: Path
    ) -> tuple[int, np.ndarray]:
        """The colour die's `face` read beside the box taught into `folder` (as `enroll
        --colour-die` reads it): its hue, told apart from the trains' and the faces
        `learnt` before, and its picture."""
        box = _taught(folder)
        try:
            hue, picture = teach_die(frame, box, layout, face)
            with_dice(box, {**learnt, face: hue})  # refused when too alike
        except TeachError as error:
            why = (error.key, dict(error.params))
            raise BoardProblem(str(error), "die_not_taught", error.marks, why) from None
        return hue, picture

    def save_dice(self, learnt: Mapping[str, Any], folder: Path) -> None:
        """The faces `learnt` (colour: hue) added to the box taught into `folder`."""
        box = _taught(folder)
        try:
            box = with_dice(box, {colour: int(hue) for colour, hue in learnt.items()})
        except TeachError as error:
            why = (error.key, dict(error.params))
            raise BoardProblem(str(error), "die_not_taught", error.marks, why) from None
        box.save(folder)

    def save(self, frame: Any, doc: Any, layout: TableLayout, folder: Path) -> None:
        board = checked(doc)
        try:
            box = teach(frame, board, layout)
        except TeachError as error:
            why = (error.key, error.params)
            raise BoardProblem(str(error), "board_not_taught", error.marks, why) from None
        box.save(folder)
        cv2.imwrite(str(preview_path(folder, GAME_ID)), overlay(box))


def _taught(folder: Path) -> TaughtBox:
    """The box taught into `folder`; BoardProblem ("die_no_box") when none is: the die is
    read beside the board, as the box taught it."""
    try:
        return TaughtBox.load(folder)
    except ValueError as error:
        raise BoardProblem(str(error), "die_no_box") from None


def _millimetres(text: str) -> tuple[float, float]:
    """`WxH` in mm, e.g. 560x560: a board's or a table's size."""
    try:
        width, height = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no size: write WIDTHxHEIGHT in mm, "
                                         "e.g. 560x560") from None  # fmt: skip
    if not (100 <= width <= 3000 and 100 <= height <= 3000):
        raise argparse.ArgumentTypeError(f"{text} mm is no board or table: from 100 to 3000 mm")
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`companion enroll --game switching`'s options."""
    parser.add_argument(
        "--size", type=_millimetres, help="the board's size in mm, WIDTHxHEIGHT (e.g. 560x560)"
    )
    parser.add_argument(
        "--board", type=Path, help="your board's file (docs/board.md), instead of the proposal"
    )
    parser.add_argument(
        "--colour-die",
        action="store_true",
        help="also teach the colour die's faces, one at a time beside the board (when its "
        "colours are not its panels' exact shades)",
    )
    parser.add_argument(
        "--table",
        type=_millimetres,
        default=(TABLE.width, TABLE.height),
        help=f"the table's markers' outer corners apart, mm (default {TABLE.width:g}x"
        f"{TABLE.height:g})",
    )


def enrolment(args: argparse.Namespace) -> BoxLesson:
    """The lesson the command line asks for; ValueError when it gives neither the board's
    size nor its file, or a file that is no board."""
    layout = TableLayout(width=args.table[0], height=args.table[1])
    if args.board is None:
        if args.size is None:
            raise ValueError("give the board's size (--size WIDTHxHEIGHT in mm) or its file "
                             "(--board FILE)")  # fmt: skip
        return BoxLesson(layout, args.size, None, args.colour_die)
    try:
        board = read(args.board.read_bytes(), str(args.board))
    except OSError as error:
        raise ValueError(f"cannot read {args.board}: {error.strerror or error}") from None
    except BoardError as error:
        raise ValueError(str(error)) from None
    return BoxLesson(layout, None, board, args.colour_die)
