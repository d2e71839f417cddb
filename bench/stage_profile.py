"""Where a reader's time goes, step by step, measured on the reader's own path.

A copy of a reader's calls drifts from the reader (a step added to it is missing from the
copy); this times the real calls instead: `Stages.watch(module, name, label)` replaces the
function `name` that `module` calls by a timed one for the length of a `with` block, and
each call's CPU time is kept as its own (exclusive) time, what the watched calls it makes
took being counted to them, so nested steps add up to the whole. What no watched step took
is the frame's "rest" (`Stages.frame`).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

import cv2
import numpy as np


def tables_parser(doc: str | None, seed: int) -> argparse.ArgumentParser:
    """The command line of a bench over synthetic tables: how many (`--tables`) from which
    seed (`--seed`)."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seed", type=int, default=seed)
    return parser


def machine() -> str:
    """The line each bench prints first: what it ran on (its figures are ratios, but the
    versions say which code paths OpenCV and numpy took)."""
    return (
        f"machine: {platform.machine()}, Python {platform.python_version()}, "
        f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread\n"
    )


class Stages:
    """CPU milliseconds per step of a reader, per frame (exclusive of watched sub-steps)."""

    def __init__(self) -> None:
        self._watched: list[tuple[ModuleType, str, Callable, str]] = []
        self._inner: list[float] = []  # per open call: CPU time its watched calls took
        self._frame: dict[str, float] | None = None  # the frame being timed, if any
        self.frames: list[dict[str, float]] = []

    def watch(self, module: ModuleType, name: str, label: str) -> None:
        """Time `module.name` as step `label` (several names may share a label)."""
        self._watched.append((module, name, getattr(module, name), label))

    @contextmanager
    def timing(self) -> Iterator[None]:
        """The watched functions replaced by timed ones inside the block, restored after."""
        for module, name, original, label in self._watched:
            setattr(module, name, self._timed(original, label))
        try:
            yield
        finally:
            for module, name, original, _ in self._watched:
                setattr(module, name, original)

    def _timed(self, function: Callable, label: str) -> Callable:
        def timed(*args, **kwargs):
            if self._frame is None:  # called outside a timed frame: not counted
                return function(*args, **kwargs)
            self._inner.append(0.0)
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                took = (time.process_time() - start) * 1000
                inner = self._inner.pop()
                self._frame[label] = self._frame.get(label, 0.0) + took - inner
                if self._inner:
                    self._inner[-1] += took

        return timed

    def frame(self, work: Callable[[], object]) -> object:
        """Run one frame's `work`, its steps' times kept, the rest as "rest"."""
        self._frame = {}
        start = time.process_time()
        result = work()
        total = (time.process_time() - start) * 1000
        self._frame["rest"] = total - sum(self._frame.values())
        self._frame["total"] = total
        self.frames.append(self._frame)
        self._frame = None
        return result

    def medians(self) -> dict[str, float]:
        """Each step's median CPU ms over the frames (0 in a frame that did not take it),
        in the order the steps were first taken."""
        labels: list[str] = []
        for frame in self.frames:
            labels += [label for label in frame if label not in labels]
        labels.sort(key=lambda label: label in ("rest", "total"))
        return {
            label: statistics.median(frame.get(label, 0.0) for frame in self.frames)
            for label in labels
        }


def print_steps(reading: str, frames: str, scenes_n: int, seed: int,
                results: dict[str, float], plain: float) -> None:  # fmt: skip
    """A reader's steps (`Stages.medians`) as a markdown table for bench/RESULTS.md, each
    also as a ratio to the plain pass over the same frames (`plain` CPU ms)."""
    print(f"\nCPU ms per step of `{reading}` ({frames}), median over {scenes_n} hard scenes (seed "
          f"{seed}), and as a ratio to the plain pass over the same frames "
          f"({plain:.2f} ms):\n")  # fmt: skip
    print("| step | CPU ms | x plain pass |\n|---|---|---|")
    for name, ms in results.items():
        print(f"| {name} | {ms:.2f} | {ms / plain:.2f} |")
    print(f"| plain pass | {plain:.2f} | 1.00 |")
