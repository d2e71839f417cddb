"""Where frames come from: the Pi camera, a USB webcam, recorded frames, or the synthetic table.

Every source has the same small shape: `read()` gives the next BGR frame (a numpy array) or
None when there is none (end of a recording, a dropped frame), `close()` lets the device go,
and a source is a context manager. `open_source(spec)` picks one from a configuration
string, so the service, the demo and the tests differ only in that string:

    picamera2              the Pi's camera module (picamera2 comes from apt on a Pi)
    usb:0                  an OpenCV capture device, here /dev/video0
    folder:/path           the images of a folder in name order (.png, .jpg, .jpeg, .bmp)
    video:/path.mp4        the frames of a video file
    synthetic:SEED         the synthetic table (companion.synthetic), optionally
                           synthetic:SEED:hard, showing what the caller's game lays on it

A camera that is missing raises one `FrameSourceError` whose message says what to do.
picamera2 is imported only inside `PiCamera`, so everything else runs on any computer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np

from companion.hardware import FRAME_SIZE
from companion.synthetic import Camera, Scene, render

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class FrameSourceError(RuntimeError):
    """A frame source that cannot be opened; the message says what to do about it."""


class FrameSource:
    """The shape every source shares: read, close, and `with`."""

    def read(self) -> np.ndarray | None:
        raise NotImplementedError

    def close(self) -> None:
        """Let the device or file go; reading afterwards gives None."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class PiCamera(FrameSource):
    """The Raspberry Pi camera module through picamera2, in video mode at `size`."""

    def __init__(self, size: tuple[int, int] = FRAME_SIZE) -> None:
        try:
            from picamera2 import Picamera2  # only on a Pi: from apt's python3-picamera2
        except ImportError as error:
            raise FrameSourceError(
                "picamera2 is not installed: on a Raspberry Pi run "
                "`sudo apt install python3-picamera2` and make the venv with "
                "--system-site-packages; elsewhere use usb:0 or synthetic:1"
            ) from error
        try:
            self._camera = Picamera2()
            # "RGB888" is stored B, G, R per pixel: OpenCV's order, no conversion needed
            config = self._camera.create_video_configuration(
                main={"size": size, "format": "RGB888"}
            )
            self._camera.configure(config)
            self._camera.start()
        except (IndexError, RuntimeError, OSError) as error:
            raise FrameSourceError(
                f"the Pi camera could not start ({error}): check its ribbon cable and that "
                "`rpicam-hello --list-cameras` lists it"
            ) from error
        self._open = True

    def read(self) -> np.ndarray | None:
        if not self._open:
            return None
        frame = self._camera.capture_array()
        return np.ascontiguousarray(frame[..., :3]) if frame is not None else None

    def close(self) -> None:
        if self._open:
            self._open = False
            self._camera.stop()
            self._camera.close()


class CaptureDevice(FrameSource):
    """An OpenCV capture device (a USB webcam) by index, asked for `size`."""

    def __init__(self, index: int, size: tuple[int, int] = FRAME_SIZE) -> None:
        self._capture = cv2.VideoCapture(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise FrameSourceError(
                f"no camera at usb:{index}: plug in a USB webcam (`ls /dev/video*` lists "
                "them) or choose another index; synthetic:1 runs without a camera"
            )
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray | None:
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        self._capture.release()


class VideoFrames(CaptureDevice):
    """The frames of a video file, then None."""

    def __init__(self, path: Path) -> None:
        # not CaptureDevice.__init__: a file takes no frame size
        if not path.is_file():
            raise FrameSourceError(f"no video file at {path}")
        self._capture = cv2.VideoCapture(str(path))
        if not self._capture.isOpened():
            self._capture.release()
            raise FrameSourceError(f"{path} cannot be read as a video by OpenCV")


class FolderFrames(FrameSource):
    """The images of a folder in name order, then None (or round again with `loop`)."""

    def __init__(self, folder: Path, loop: bool = False) -> None:
        if not folder.is_dir():
            raise FrameSourceError(f"no folder at {folder}")
        self._paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._paths:
            raise FrameSourceError(
                f"{folder} holds no images ({', '.join(IMAGE_SUFFIXES)}): record some first"
            )
        self._loop = loop
        self._next = 0

    def read(self) -> np.ndarray | None:
        if self._next >= len(self._paths):
            if not self._loop:
                return None
            self._next = 0
        path = self._paths[self._next]
        self._next += 1
        return cv2.imread(str(path), cv2.IMREAD_COLOR)  # None if the file is unreadable

    def close(self) -> None:
        self._next = len(self._paths)
        self._loop = False


class SyntheticFrames(FrameSource):
    """The synthetic table as a camera: a fixed camera (drawn from `seed`) over a scene (the
    bare table unless given one: a game lays its own pieces, this module knows none);
    `show` changes what lies on it."""

    def __init__(self, seed: int, difficulty: str = "easy", scene: Scene | None = None) -> None:
        self.seed = seed
        self.camera = Camera.preset(difficulty)
        self.scene = scene if scene is not None else Scene()
        self._open = True

    def show(self, scene: Scene) -> None:
        """Put another scene under the camera."""
        self.scene = scene

    def read(self) -> np.ndarray | None:
        if not self._open:
            return None
        return render(self.scene, self.seed, self.camera)

    def close(self) -> None:
        self._open = False


def open_source(spec: str, scene: Callable[[int], Scene] | None = None) -> FrameSource:
    """The frame source a configuration string names (see the module's docstring);
    FrameSourceError says what is wrong with the string or the device. `scene(seed)` is
    what the synthetic table shows (a game's `Game.camera.scene`); without it, the bare table."""
    kind, _, rest = spec.strip().partition(":")
    if kind == "picamera2" and not rest:
        return PiCamera()
    if kind == "usb":
        if not rest.strip().isdigit():
            raise FrameSourceError(f"{spec!r}: write usb:N with N the device number, e.g. usb:0")
        return CaptureDevice(int(rest))
    if kind == "folder" and rest:
        return FolderFrames(Path(rest))
    if kind == "video" and rest:
        return VideoFrames(Path(rest))
    if kind == "synthetic":
        seed_text, _, difficulty = rest.partition(":")
        if not seed_text.strip().isdigit() or difficulty not in ("", "easy", "hard"):
            raise FrameSourceError(
                f"{spec!r}: write synthetic:SEED or synthetic:SEED:hard, e.g. synthetic:1"
            )
        seed = int(seed_text)
        return SyntheticFrames(seed, difficulty or "easy", scene(seed) if scene else None)
    raise FrameSourceError(
        f"unknown frame source {spec!r}: use picamera2, usb:N, folder:PATH, video:PATH "
        "or synthetic:SEED"
    )
