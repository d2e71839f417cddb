"""The companion's controls on GPIO: the PASS and CONFIRM buttons, a status LED, a buzzer.

Built on gpiozero, so the same code runs on a Pi (lgpio pins) and in tests (MockFactory).
Debounce is ours, not gpiozero's `bounce_time` (which its mock pins ignore): a level counts
only once it has stayed put for `debounce` seconds. Holding CONFIRM for `hold` seconds is
UNDO (the same limit as the page's undo: back to the last dice roll).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import LED, Buzzer, DigitalInputDevice

from companion.hardware import GPIO_PINS

PASS, CONFIRM, UNDO = "pass", "confirm", "undo"
WAITING, NEEDS_CONFIRMATION, ERROR = "waiting", "needs-confirmation", "error"


class PinsError(RuntimeError):
    """The GPIO pins cannot be opened; the message says how to get them."""


def pin_factory(name: str) -> Any:
    """gpiozero's pin factory by name: "lgpio" on a Pi (imported only then), "mock" to
    run without buttons (gpiozero's MockFactory: the demo and the tests press its pins)."""
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as error:  # ImportError off a Pi, an OSError without /dev/gpiochip*
        raise PinsError(
            f"the GPIO pins cannot be opened ({error}): on a Raspberry Pi install "
            "python3-lgpio (apt) and run as a user in the gpio group; elsewhere set "
            'gpio.pin_factory = "mock"'
        ) from error


class DebouncedButton:
    """A push button to ground (internal pull-up) that reports clean presses and holds."""

    def __init__(
        self,
        pin: int | str,
        on_press: Callable[[], None],
        on_hold: Callable[[], None] | None = None,
        *,
        debounce: float = 0.03,
        hold: float = 2.0,
        pin_factory: Any = None,
    ) -> None:
        self._input = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self._on_press = on_press
        self._on_hold = on_hold
        self._debounce = debounce
        self._hold = hold
        self._lock = threading.Lock()
        self._level = threading.Condition(self._lock)  # told when the debounced level changes
        self._pressed = False  # the debounced level
        self._settle: threading.Timer | None = None
        self._holding: threading.Timer | None = None
        self._held = False
        self._closed = False
        self._input.when_activated = self._edge
        self._input.when_deactivated = self._edge

    def _edge(self) -> None:
        with self._lock:
            if self._closed:
                return
            if self._settle is not None:
                self._settle.cancel()
            self._settle = threading.Timer(self._debounce, self._settled)
            self._settle.daemon = True
            self._settle.start()

    def _settled(self) -> None:
        with self._lock:
            if self._closed:
                return
            level = bool(self._input.value)
            if level == self._pressed:
                return  # a bounce that came back to where it was
            self._pressed = level
            self._level.notify_all()
            if level:
                self._held = False
                if self._on_hold is not None:
                    self._holding = threading.Timer(self._hold, self._held_long)
                    self._holding.daemon = True
                    self._holding.start()
                return
            if self._holding is not None:
                self._holding.cancel()
            fire = not self._held
        if fire:
            self._on_press()

    def wait_until(self, pressed: bool, timeout: float) -> bool:
        """Block until the debounced level is `pressed` (down when True), at most `timeout`
        seconds; whether it is. A press shorter than the debounce (as its timers, late on a
        busy machine, see it) is no press: whoever presses for a program waits for this."""
        with self._level:
            return self._level.wait_for(lambda: self._pressed == pressed, timeout)

    def _held_long(self) -> None:
        with self._lock:
            if self._closed or not self._pressed:
                return
            self._held = True
        assert self._on_hold is not None
        self._on_hold()

    def close(self) -> None:
        """Stop reporting: a timer that fires after this (it may already be running)
        finds the button closed and reports nothing."""
        with self._lock:
            self._closed = True
            for timer in (self._settle, self._holding):
                if timer is not None:
                    timer.cancel()
        self._input.close()


class Controls:
    """PASS, CONFIRM (hold: UNDO), the status LED and the buzzer, by BCM pin numbers."""

    def __init__(
        self,
        on_button: Callable[[str], None],
        pins: Mapping[str, int | str] | None = None,
        *,
        debounce: float = 0.03,
        hold: float = 2.0,
        pin_factory: Any = None,
    ) -> None:
        pins = {**GPIO_PINS, **(pins or {})}
        self.pass_button = DebouncedButton(
            pins["pass"], lambda: on_button(PASS), debounce=debounce, pin_factory=pin_factory
        )
        self.confirm_button = DebouncedButton(
            pins["confirm"],
            lambda: on_button(CONFIRM),
            lambda: on_button(UNDO),
            debounce=debounce,
            hold=hold,
            pin_factory=pin_factory,
        )
        self.led = LED(pins["led"], pin_factory=pin_factory)
        self.buzzer = Buzzer(pins["buzzer"], pin_factory=pin_factory)
        # A press reported from a timer thread can reach show() while the service closes:
        # the lock orders the two, and a closed LED or buzzer is left alone.
        self._lock = threading.RLock()
        self._closed = False
        self.status = ""
        self.show(WAITING)

    def show(self, status: str) -> None:
        """The LED says what the table waits for: a slow blink while waiting for the
        players, steady while a derailment waits for CONFIRM, a fast blink on an error."""
        if status not in (WAITING, NEEDS_CONFIRMATION, ERROR):
            raise ValueError(f"unknown status {status!r}")
        with self._lock:
            if self._closed or status == self.status:
                return
            self.status = status
            if status == WAITING:
                self.led.blink(on_time=0.2, off_time=1.8)
            elif status == NEEDS_CONFIRMATION:
                self.led.on()
            else:
                self.led.blink(on_time=0.1, off_time=0.1)

    def derailed(self) -> None:
        self._beep(on_time=0.4, off_time=0.2, n=2)

    def illegal(self) -> None:
        self._beep(on_time=0.08, off_time=0.08, n=3)

    def flash(self) -> None:
        """Blink the LED three times for a person checking it (the setup page), then show
        again what the table waits for."""
        with self._lock:
            if self._closed:
                return
            self.led.blink(on_time=0.15, off_time=0.15, n=3, background=False)
            status, self.status = self.status, ""
            self.show(status)

    def chirp(self) -> None:
        """Beep twice for a person checking the buzzer (the setup page)."""
        self._beep(on_time=0.1, off_time=0.1, n=2)

    def _beep(self, on_time: float, off_time: float, n: int) -> None:
        with self._lock:
            if not self._closed:
                self.buzzer.beep(on_time=on_time, off_time=off_time, n=n)

    def close(self) -> None:
        """Release the pins; later calls from a button's timer thread do nothing."""
        for button in (self.pass_button, self.confirm_button):
            button.close()
        with self._lock:
            self._closed = True
            self.led.close()
            self.buzzer.close()
