"""`companion enroll FOLDER`: teach the camera a box's pieces by showing it each face once.

Why: the deck on a real table may not be our printable design, nor the dice and token
ours, and nothing may be downloaded, so the camera learns the faces it will have to tell
apart. For each face the game asks for (its `enroll`: for the Caboose design, an edition's
card faces, then each face of one of its wheel dice and its caboose token, or the faces
given), the player lays that one piece alone on the table as the prompt says and presses
Enter; the game cuts the face out of the frame (companion/games/caboose/vision/
enrolment.py). Progress goes to the console and a preview of every face learnt so far to
an image file, so a wrong piece or a bad crop is seen at once. The faces learnt are a
catalogue folder, which the configuration's `table.catalogue` names.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from companion import games
from companion.app.cli import (
    chosen_game,
    folder_path,
    game_options,
    refused_tool,
    writable_file,
    writable_folder,
)
from companion.arguments import CommandLine
from companion.games.protocol import Enrolment, PipThrows, preview_path
from hw.frames import FrameSource, FrameSourceError, open_source

_TRIES = 10  # frames read for one face before asking again


class EnrollError(RuntimeError):
    """A face could not be learnt; the message says what to change."""


def enroll(
    source: FrameSource,
    deck: Enrolment,
    *,
    wait: Callable[[str], object] | None = None,
    say: Callable[[str], object] = print,
    preview_path: Path | None = None,
) -> list[Any]:
    """Learn each of the deck's faces from `source`: before each card `wait(prompt)` (None:
    read on at once, e.g. from recorded frames); the pictures learnt, one per face, in the
    deck's order. EnrollError when a face cannot be learnt."""
    learnt: list[Any] = []
    codes = list(deck.faces)
    for number, code in enumerate(codes, start=1):
        prompt = f"[{number}/{len(codes)}] {deck.prompt(code)}"
        if wait is not None:
            wait(prompt + ", then press Enter ")
        why = "the camera gave no frame"
        for _ in range(_TRIES):
            frame = source.read()
            if frame is None:
                break
            image, why = deck.learn(code, frame)
            if why is None:
                break
        if why is not None:
            raise EnrollError(f"{code}: {why}")
        learnt.append(image)
        say(f"[{number}/{len(codes)}] learnt {code}")
        if preview_path is not None:
            cv2.imwrite(str(preview_path), deck.preview(codes[:number], learnt))
    return learnt


def _faces(pips: list[int]) -> str:
    """Pip faces in words: "1, 4 and 6"."""
    numbers = [str(n) for n in pips]
    return numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]


def _answer(question: str, ask: Callable[[str], str], say: Callable[[str], object]) -> int | None:
    """The pips the family says a die shows (1-6), None when they skip it (Enter): asked
    again until the answer is one or the other."""
    while True:
        text = ask(question).strip()
        if not text:
            return None
        if text in ("1", "2", "3", "4", "5", "6"):
            return int(text)
        say(f"{text!r} is not a face of a die: type a number from 1 to 6, or press Enter to skip")


def enroll_thrown(
    source: FrameSource,
    lesson: PipThrows,
    *,
    wait: Callable[[str], object] | None = None,
    ask: Callable[[str], str] | None = None,
    say: Callable[[str], object] = print,
    preview_path: Path | None = None,
) -> None:
    """Teach the family's own pip dice from throws until every face 1-6 is taught: before
    each throw `wait(prompt)` (None: read on at once, e.g. from recorded frames); of each
    throw the family is asked (`ask`, None: not asked) the pips of every die the reader is
    unsure of, then the dice it is sure of teach the faces still missing. EnrollError when
    the frames end first."""
    throw = 0
    while missing := lesson.missing():
        throw += 1
        if wait is not None:
            wait(f"[throw {throw}] throw some of your pip dice onto the table (still to learn: "
                 f"{_faces(missing)} pips), then press Enter ")  # fmt: skip
        frame = source.read()
        if frame is None:
            raise EnrollError(f"the frames ended with faces {_faces(missing)} still to learn")
        dice, why = lesson.look(frame)
        if why is not None:
            say(why)
            continue
        for die in [die for die in dice if die.pips is None and ask is not None]:
            pips = _answer(f"how many pips does the die {die.where} show? (1-6, Enter to "
                           "skip) ", ask, say)  # fmt: skip
            if pips is not None:
                taught = lesson.take(pips, die.picture, answered=True)
                say(f"learnt {pips} from the die {die.where}" if taught
                    else f"{pips} is learnt already")  # fmt: skip
        for die in dice:
            if die.pips is not None and lesson.take(die.pips, die.picture, answered=False):
                say(f"read {die.pips} on the die {die.where}: learnt")
        if preview_path is not None:
            cv2.imwrite(str(preview_path), lesson.preview())
    say("all six faces learnt")


def _preview_file(text: str) -> Path:
    """The preview's path: a file that can be written, of a kind OpenCV writes (it would
    otherwise fail only once the first card is learnt)."""
    path = writable_file("preview.png")(text)
    if not cv2.haveImageWriter(str(path)):
        raise argparse.ArgumentTypeError(f"{path} is not an image file: end it in .png or .jpg")
    return path


def _scene(game: games.Game) -> Callable[[int], Any] | None:
    """What the synthetic camera shows for `game` (its camera's scene), if it has one."""
    return None if game.camera is None else game.camera.scene


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = chosen_game(argv)  # the game whose faces are asked for (`--game`)
    game = games.game(chosen)
    refused = refused_tool("enroll", chosen, "enroll")
    if refused is not None:
        return refused
    parser = CommandLine(
        prog="companion enroll",
        description="Teach the camera a box: show it each card face, die face and token once.",
    )
    parser.add_argument("folder", type=folder_path, help="where to write the catalogue")
    parser.add_argument("--source", default="picamera2", help="frame source (default picamera2)")
    game_options("enroll", parser, chosen, "enroll")
    parser.add_argument(
        "--preview",
        type=_preview_file,
        help="preview image, .png or .jpg (default FOLDER/preview-GAME.png, GAME the game's id)",
    )
    parser.add_argument(
        "--no-wait", action="store_true", help="do not wait for Enter: frames come in code order"
    )
    args = parser.parse_args(argv)
    try:
        deck = game.enroll(args)
    except ValueError as error:  # a face asked for that is none of the game's
        parser.error(str(error))
    problem = writable_folder(args.folder)
    if problem is not None:  # said before the first card, not after the last
        print(f"companion enroll: {problem}", file=sys.stderr)
        return 2
    preview = args.preview or preview_path(args.folder, game.id)
    try:
        with open_source(args.source, _scene(game)) as source:
            if isinstance(deck, PipThrows):
                wait, ask = (None, None) if args.no_wait else (input, input)
                enroll_thrown(source, deck, wait=wait, ask=ask, preview_path=preview)
                deck.save(args.folder)
                print(f"wrote your pip dice's six faces to {args.folder}; preview in {preview}")
                return 0
            pictures = enroll(
                source, deck, wait=None if args.no_wait else input, preview_path=preview
            )
    except (FrameSourceError, EnrollError) as error:
        print(f"enroll stopped: {error}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\nenroll stopped: nothing written", file=sys.stderr)
        return 2
    deck.save(pictures, args.folder)
    faces = "1 face" if len(pictures) == 1 else f"{len(pictures)} faces"
    print(f"wrote {faces} to {args.folder}; preview in {preview}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
