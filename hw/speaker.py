"""The companion's speaker: short phrases spoken through espeak-ng, beside the LED and buzzer.

Speaking takes seconds and the table must never wait for it, so `say` only queues: one
worker thread runs `espeak-ng` for each phrase in turn. When the table moves on faster than
the speaker talks, what waits is stale: each new batch (one view's phrases) is queued
after the waiting ones, then only the newest `keep` waiting phrases are kept, the older
ones dropped (counted in `dropped`); the phrase being spoken always finishes. With
`out_dir` nothing is played: each phrase is written as a numbered WAV file (`espeak-ng -w`)
and listed in `phrases.tsv` (file, voice, text), and nothing is dropped (a file is heard
later: no phrase in it is stale), which is how the tests listen.

A missing espeak-ng (or one that fails) is one message through `on_problem`, then silence:
the service goes on without a voice rather than stopping.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

PROGRAM = "espeak-ng"
KEEP = 3  # waiting phrases kept when a new batch arrives (live only)
PHRASE_TIMEOUT = 30.0  # a phrase still being spoken after this long is cut short
MANIFEST = "phrases.tsv"

log = logging.getLogger("companion.speech")


class Speaker:
    """A voice for the table: `say` queues, one worker thread speaks."""

    def __init__(
        self,
        voice: str | None = None,
        speed: int = 160,
        volume: int = 100,
        lang: str = "en",
        out_dir: Path | None = None,
        *,
        keep: int = KEEP,
        program: str = PROGRAM,
        on_problem: Callable[[str], None] | None = None,
    ) -> None:
        """`voice` is espeak-ng's (`-v`; None: the language's own, `en` or `es`), `speed`
        words a minute (`-s`), `volume` 0-200 (`-a`). `program` is the espeak-ng to run
        (a stand-in in tests)."""
        self.voice = voice or lang
        self.speed = speed
        self.volume = volume
        self.out_dir = out_dir
        self.keep = None if out_dir is not None else keep
        self._on_problem = on_problem or log.warning
        self._told: set[str] = set()  # the problems already said: each is said once
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._waiting: deque[str] = deque()
        self._busy = False
        self._closed = False
        self._process: subprocess.Popen[bytes] | None = None
        self.dropped = 0  # stale phrases never spoken
        self.ran: list[list[str]] = []  # each command run, in order (what was said and how)
        self.written = 0  # WAV files written (out_dir)
        found = shutil.which(program)
        self.program = found
        if found is None:
            self._problem(
                "missing",
                f"speech: {program} is not installed, so the table stays silent "
                "(install it with: apt-get install espeak-ng)",
            )
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / MANIFEST).write_text("")
        self._worker = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._worker.start()

    @property
    def silent(self) -> bool:
        """True when nothing will be spoken: espeak-ng is missing."""
        return self.program is None

    def say(self, *texts: str) -> None:
        """Queue one batch of phrases (one view's) and return at once; older waiting
        phrases past the newest `keep` are dropped as stale."""
        batch = [text.strip() for text in texts if text and text.strip()]
        with self._changed:
            if self._closed or self.silent or not batch:
                return
            self._waiting.extend(batch)
            if self.keep is not None:
                while len(self._waiting) > self.keep:
                    self._waiting.popleft()
                    self.dropped += 1
            self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Block until every queued phrase is spoken or written (the demo's end); whether
        it was before the timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._busy, timeout)

    def close(self) -> None:
        """Stop speaking: waiting phrases are dropped, the one being spoken is cut short."""
        with self._changed:
            self._closed = True
            self.dropped += len(self._waiting)
            self._waiting.clear()
            process = self._process
            self._changed.notify_all()
        if process is not None and process.poll() is None:
            process.kill()
        self._worker.join(PHRASE_TIMEOUT)

    # --- the worker ----------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closed or self._waiting)
                if self._closed:
                    return
                text = self._waiting.popleft()
                self._busy = True
            try:
                self._speak(text)
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def _speak(self, text: str) -> None:
        """Run espeak-ng on one phrase (the text on its standard input, never on the
        command line, where a leading "-" would read as an option)."""
        assert self.program is not None
        command = [self.program, "-v", self.voice, "-s", str(self.speed), "-a", str(self.volume)]
        target = None
        if self.out_dir is not None:
            target = self.out_dir / f"{self.written + 1:04d}.wav"
            command += ["-w", str(target)]
        command.append("--stdin")
        try:
            with self._lock:
                if self._closed:
                    return
                self._process = subprocess.Popen(
                    command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            self.ran.append(command)
            _, error = self._process.communicate(text.encode(), timeout=PHRASE_TIMEOUT)
        except FileNotFoundError:  # uninstalled while the service runs
            self.program = None
            self._problem("missing", f"speech: {command[0]} has gone: the table is silent now")
            return
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.communicate()
            self._problem("slow", f"speech: {command[0]} took over {PHRASE_TIMEOUT:.0f} s")
            return
        finally:
            with self._lock:
                process, self._process = self._process, None
        if process is not None and process.returncode != 0 and not self._closed:
            said = error.decode(errors="replace").strip() or f"exit status {process.returncode}"
            self._problem(
                "failed",
                f"speech: {command[0]} -v {self.voice} failed ({said}): check "
                "speech.voice (espeak-ng --voices lists them)",
            )
            return
        if target is not None:
            self.written += 1
            with (self.out_dir / MANIFEST).open("a") as manifest:  # type: ignore[operator]
                manifest.write(f"{target.name}\t{self.voice}\t{_one_line(text)}\n")

    def _problem(self, kind: str, message: str) -> None:
        if kind not in self._told:
            self._told.add(kind)
            self._on_problem(message)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def phrases_written(out_dir: Path) -> Iterable[tuple[str, str, str]]:
    """The phrases a Speaker wrote into `out_dir`: (file name, voice, text), in order."""
    for line in (out_dir / MANIFEST).read_text().splitlines():
        name, voice, text = line.split("\t", 2)
        yield name, voice, text
