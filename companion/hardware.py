"""The companion as built (README, "Setting up a Raspberry Pi"): the camera mode and the GPIO pins a
table has unless its configuration says otherwise.

One place for both, read by the configuration, the vision code, the camera sources and the
buttons, so that a changed camera mode or wiring cannot leave one of them behind. A pure
module: hw/ may import it, and it imports nothing of the companion's.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# width, height: the Pi HQ / Camera Module 3 binned video mode picamera2 is set to
FRAME_SIZE: tuple[int, int] = (1456, 1088)

# BCM numbers, as gpiozero counts them; read-only, a table overrides them in its config.
GPIO_PINS: Mapping[str, int] = MappingProxyType(
    {"pass": 17, "confirm": 27, "led": 22, "buzzer": 23}
)
