"""The buttons, LED and buzzer on gpiozero's MockFactory pins: our debounce, presses, holds."""

import time

import pytest
from gpiozero.pins.mock import MockFactory

from hw.controls import (
    CONFIRM,
    ERROR,
    NEEDS_CONFIRMATION,
    PASS,
    UNDO,
    Controls,
    PinsError,
    pin_factory,
)

DEBOUNCE = 0.02
HOLD = 0.3


@pytest.fixture
def table():
    factory = MockFactory()
    heard: list[str] = []
    controls = Controls(
        heard.append,
        {"pass": 5, "confirm": 6, "led": 13, "buzzer": 19},
        debounce=DEBOUNCE,
        hold=HOLD,
        pin_factory=factory,
    )
    yield factory, controls, heard
    controls.close()


def settle(seconds=DEBOUNCE * 4):
    time.sleep(seconds)


def heard_then_settled(heard) -> None:
    """Wait until a button is heard (its debounce timer's thread runs late on a loaded
    machine), then long enough for a second, wrong report to come."""
    deadline = time.monotonic() + 5
    while not heard and time.monotonic() < deadline:
        time.sleep(0.01)
    settle()


def press(factory, pin, heard, seconds=0.08):
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()
    heard_then_settled(heard)


def test_a_press_of_pass_is_heard_once(table):
    factory, _, heard = table
    press(factory, 5, heard)
    assert heard == [PASS]


def test_confirm_short_press_confirms(table):
    factory, _, heard = table
    press(factory, 6, heard)
    assert heard == [CONFIRM]


def test_holding_confirm_is_undo_and_not_confirm(table):
    factory, _, heard = table
    press(factory, 6, heard, seconds=HOLD + 0.15)
    assert heard == [UNDO]


def chattering_press(factory, pin: int) -> None:
    """One press of a real push button: its contacts chatter for a few milliseconds on the
    way down and on the way up."""
    contact = factory.pin(pin)
    for _ in range(6):
        contact.drive_low()
        time.sleep(0.002)
        contact.drive_high()
        time.sleep(0.002)
    contact.drive_low()
    time.sleep(0.08)
    for _ in range(4):
        contact.drive_high()
        time.sleep(0.002)
        contact.drive_low()
        time.sleep(0.002)
    contact.drive_high()


def test_a_bouncing_contact_is_one_press(table):
    factory, _, heard = table
    chattering_press(factory, 5)
    heard_then_settled(heard)
    assert heard == [PASS]


def test_a_glitch_shorter_than_the_debounce_is_no_press(table):
    factory, _, heard = table
    factory.pin(5).drive_low()
    time.sleep(DEBOUNCE / 4)
    factory.pin(5).drive_high()
    settle()
    assert heard == []


def test_the_led_shows_the_status_and_the_buzzer_sounds(table):
    factory, controls, _ = table
    controls.show(NEEDS_CONFIRMATION)
    assert controls.led.is_lit
    controls.show(ERROR)
    time.sleep(0.05)
    assert controls.status == ERROR
    with pytest.raises(ValueError):
        controls.show("party")
    controls.derailed()
    time.sleep(0.1)
    assert factory.pin(19).state == 1  # the buzzer is on during its first beep


def test_closing_while_a_press_settles_reports_nothing_and_raises_nothing(table):
    """The service closes the pins while a press is still settling on a timer thread:
    the press is dropped, and the session's answer to it (show, a beep) finds the LED and
    buzzer closed and leaves them alone."""
    factory, controls, heard = table
    factory.pin(5).drive_low()  # PASS goes down: its debounce timer is running
    controls.close()
    settle()
    assert heard == []
    controls.show(ERROR)
    controls.illegal()
    assert controls.status != ERROR


def test_pins_that_cannot_be_opened_say_how_to_get_them():
    """Off a Pi (no lgpio), asking for the real pins is one clear error, not a traceback."""
    pytest.importorskip("gpiozero")
    try:
        import lgpio  # noqa: F401  (on a Pi the real factory would open)

        pytest.skip("lgpio is installed: this is a Pi")
    except ImportError:
        pass
    with pytest.raises(PinsError, match="python3-lgpio"):
        pin_factory("lgpio")
    assert pin_factory("mock") is not None
