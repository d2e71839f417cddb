"""The table's configuration file (TOML): camera, table markers, buttons, store, page, voice.

Every key is optional except what a real table must say for itself; every key the file
holds must be known, so a typo is an error that names it rather than a default silently
used. `examples/companion.toml` documents each key. A bad file raises `ConfigError`, whose
message says which key and what is wrong; `companion run` prints it and exits 2.
"""

from __future__ import annotations

import math
import tomllib
from argparse import ArgumentTypeError
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.arguments import host_address
from companion.games import default
from companion.hardware import FRAME_SIZE, GPIO_PINS

DEFAULT_STORE = Path("/var/lib/caboose-companion/table.sqlite3")
MAX_TABLE_MM = 5000.0  # a table, its markers and their inset, in mm: five metres is plenty
MAX_PIXELS = 10_000  # a camera frame's width or height


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the key at fault."""


@dataclass(frozen=True)
class CameraConfig:
    source: str = "picamera2"  # hw.frames.open_source: picamera2, usb:N, folder:…, synthetic:N
    frame_size: tuple[int, int] = FRAME_SIZE
    fps: float = 8.0  # at most this many frames a second are read


@dataclass(frozen=True)
class TableConfig:
    width: float = 840.0
    height: float = 630.0
    marker_mm: float = 50.0
    inset_mm: float = 10.0
    zone: tuple[float, float, float, float] | None = None
    catalogue: Path | None = None  # an enrolled deck (`companion enroll`); ours otherwise
    edition: str = "loose-caboose"  # whose card size the camera looks for before a game


@dataclass(frozen=True)
class TrackerSettings:
    still_frames: int = 3
    card_mm: float = 8.0
    die_mm: float = 10.0


@dataclass(frozen=True)
class SessionSettings:
    unsure_below: float = 0.25
    dice_per_roll: int = 4
    pip_wheels: dict[int, int] | None = None


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str = "lgpio"  # "lgpio" on a Pi, "mock" to run without buttons
    pins: dict[str, int] = field(default_factory=lambda: dict(GPIO_PINS))
    debounce: float = 0.03
    hold: float = 2.0


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8000
    pin: str | None = None


@dataclass(frozen=True)
class SpeechConfig:
    """The table's voice (hw.speaker): off unless asked for, as a family may not want it."""

    on: bool = False
    lang: str = "en"  # the language it speaks: en or es
    voice: str | None = None  # espeak-ng's -v; None: the language's own voice
    speed: int = 160  # words a minute
    volume: int = 100  # espeak-ng's amplitude, 0-200


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    table: TableConfig = field(default_factory=TableConfig)
    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    session: SessionSettings = field(default_factory=SessionSettings)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    store: Path = DEFAULT_STORE
    web: WebConfig = field(default_factory=WebConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)


def load(path: str | Path) -> Config:
    """Read and check a configuration file."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"no configuration file at {path}") from None
    except UnicodeDecodeError:
        raise ConfigError(
            f"{path} is not a text file: a configuration is TOML text, as in "
            "examples/companion.toml"
        ) from None
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: arrays or tables nested too deeply to read") from None
    except ValueError:  # the one left once TOMLDecodeError is caught: a number too long
        raise ConfigError(f"{path}: a number has too many digits to read") from None
    return parse(doc, str(path))


def parse(doc: Mapping[str, Any], where: str = "the configuration") -> Config:
    """A Config from a parsed TOML document."""
    _known(doc, {"camera", "table", "tracker", "session", "gpio", "store", "web", "speech"}, where)
    camera = _section(doc, "camera", {"source", "frame_size", "fps"}, where)
    table = _section(
        doc,
        "table",
        {"width", "height", "marker_mm", "inset_mm", "zone", "catalogue", "edition"},
        where,
    )
    tracker = _section(doc, "tracker", {"still_frames", "card_mm", "die_mm"}, where)
    session = _section(doc, "session", {"unsure_below", "dice_per_roll", "pip_wheels"}, where)
    gpio = _section(
        doc,
        "gpio",
        {"pin_factory", "pass", "confirm", "led", "buzzer", "debounce", "hold"},
        where,
    )
    store = _section(doc, "store", {"path"}, where)
    web = _section(doc, "web", {"host", "port", "pin"}, where)
    speech = _section(doc, "speech", {"on", "lang", "voice", "speed", "volume"}, where)

    edition = _get(table, "table.edition", str, "loose-caboose")
    editions = [option.id for option in default().options]
    if edition not in editions:
        raise ConfigError(f"table.edition: {edition!r} is not one of {', '.join(editions)}")
    zone = table.get("zone")
    if zone is not None:
        zone = _numbers(zone, "table.zone", 4)
        if zone[2] <= zone[0] or zone[3] <= zone[1]:
            raise ConfigError("table.zone: give [left, top, right, bottom] with some area")
    catalogue = table.get("catalogue")
    size = _numbers(camera.get("frame_size", list(FRAME_SIZE)), "camera.frame_size", 2)
    if not all(v == int(v) and 1 <= v <= MAX_PIXELS for v in size):
        raise ConfigError(
            f"camera.frame_size: [width, height] in whole pixels, each 1 to {MAX_PIXELS}, "
            f"not {list(size)}"
        )
    factory = _get(gpio, "gpio.pin_factory", str, "lgpio")
    if factory not in ("lgpio", "mock"):
        raise ConfigError(f"gpio.pin_factory: {factory!r} is not lgpio or mock")
    pins = {
        name: _get(gpio, f"gpio.{name}", int, default)
        for name, default in GpioConfig().pins.items()
    }
    for name, number in pins.items():
        if not 0 <= number <= 27:  # gpiozero would refuse it only when the service starts
            raise ConfigError(
                f"gpio.{name}: {number} is not a GPIO pin: give a BCM number from 0 to 27"
            )
    if len(set(pins.values())) != len(pins):
        raise ConfigError(f"gpio: two devices share one pin: {pins}")
    wheels = session.get("pip_wheels")
    if wheels is not None:
        if not isinstance(wheels, dict):
            raise ConfigError('session.pip_wheels: a table such as { "1" = 1, "6" = 0 }')
        try:
            wheels = {int(face): int(count) for face, count in wheels.items()}
        except (TypeError, ValueError):
            raise ConfigError("session.pip_wheels: faces 1-6 to wheel counts") from None
        if set(wheels) != set(range(1, 7)):
            raise ConfigError("session.pip_wheels: give the wheels of every face 1 to 6")
    pin = web.get("pin")
    if pin is not None and (
        not isinstance(pin, str) or not (pin.isascii() and pin.isdigit()) or len(pin) < 4
    ):
        raise ConfigError('web.pin: a string of at least 4 digits, such as "482913"')
    config = Config(
        camera=CameraConfig(
            source=_get(camera, "camera.source", str, "picamera2"),
            frame_size=(int(size[0]), int(size[1])),
            fps=_positive(camera, "camera.fps", 8.0),
        ),
        table=TableConfig(
            width=_positive(table, "table.width", 840.0, MAX_TABLE_MM),
            height=_positive(table, "table.height", 630.0, MAX_TABLE_MM),
            marker_mm=_positive(table, "table.marker_mm", 50.0, MAX_TABLE_MM),
            inset_mm=_positive(table, "table.inset_mm", 10.0, MAX_TABLE_MM),
            zone=zone,
            catalogue=Path(_get(table, "table.catalogue", str, "")) if catalogue else None,
            edition=edition,
        ),
        tracker=TrackerSettings(
            still_frames=_get(tracker, "tracker.still_frames", int, 3),
            card_mm=_positive(tracker, "tracker.card_mm", 8.0),
            die_mm=_positive(tracker, "tracker.die_mm", 10.0),
        ),
        session=SessionSettings(
            unsure_below=_get(session, "session.unsure_below", float, 0.25),
            dice_per_roll=_get(session, "session.dice_per_roll", int, 4),
            pip_wheels=wheels,
        ),
        gpio=GpioConfig(
            pin_factory=factory,
            pins=pins,
            debounce=_positive(gpio, "gpio.debounce", 0.03),
            hold=_positive(gpio, "gpio.hold", 2.0),
        ),
        store=Path(_get(store, "store.path", str, str(DEFAULT_STORE))),
        web=WebConfig(
            host=_get(web, "web.host", str, "0.0.0.0"),
            port=_get(web, "web.port", int, 8000),
            pin=pin,
        ),
        speech=_speech(speech),
    )
    if config.tracker.still_frames < 1:
        raise ConfigError("tracker.still_frames: at least 1")
    if not 0 < config.web.port < 65536:
        raise ConfigError(f"web.port: {config.web.port} is not a port number")
    try:
        host_address(config.web.host)
    except ArgumentTypeError as error:
        raise ConfigError(f"web.host: {error}") from None
    if config.session.dice_per_roll < 1:
        raise ConfigError("session.dice_per_roll: at least 1")
    if not 0 <= config.session.unsure_below <= 1:
        raise ConfigError(
            f"session.unsure_below: a confidence from 0 to 1, not {config.session.unsure_below}"
        )
    return config


def _speech(section: Mapping[str, Any]) -> SpeechConfig:
    """The [speech] section, each value checked against what espeak-ng takes."""
    on = section.get("on", False)
    if not isinstance(on, bool):
        raise ConfigError(f"speech.on: true or false, not {on!r}")
    lang = _get(section, "speech.lang", str, "en")
    if lang not in ("en", "es"):
        raise ConfigError(f"speech.lang: {lang!r} is not en or es")
    voice = section.get("voice")
    if voice is not None and (
        not isinstance(voice, str) or not voice or voice.startswith("-") or " " in voice
    ):
        raise ConfigError(
            f"speech.voice: {voice!r} is not an espeak-ng voice name such as "
            '"en-gb" or "es" (espeak-ng --voices lists them)'
        )
    speed = _get(section, "speech.speed", int, 160)
    if not 80 <= speed <= 450:
        raise ConfigError(f"speech.speed: {speed} words a minute: give 80 to 450")
    volume = _get(section, "speech.volume", int, 100)
    if not 0 <= volume <= 200:
        raise ConfigError(f"speech.volume: {volume}: give 0 to 200")
    return SpeechConfig(on=on, lang=lang, voice=voice, speed=speed, volume=volume)


def _known(doc: Mapping[str, Any], keys: set[str], where: str) -> None:
    unknown = sorted(set(doc) - keys)
    if unknown:
        raise ConfigError(f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {unknown}")


def _section(doc: Mapping[str, Any], name: str, keys: set[str], where: str) -> dict[str, Any]:
    section = doc.get(name, {})
    if not isinstance(section, dict):
        raise ConfigError(f"{where}: [{name}] must be a table of keys")
    _known(section, keys, f"[{name}]")
    return section


def _get(section: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    value = section.get(name.rsplit(".", 1)[-1], default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ConfigError(f"{name}: {value!r} is not a {kind.__name__}")
    return value


def _positive(
    section: Mapping[str, Any], name: str, default: float, most: float = math.inf
) -> float:
    """A number more than 0 (and at most `most`): nan, infinity or a table kilometres wide
    would only fail later, deep in the camera's arithmetic."""
    value = _get(section, name, float, default)
    if not (math.isfinite(value) and 0 < value <= most):
        limit = f" and at most {most:g}" if math.isfinite(most) else ""
        raise ConfigError(f"{name}: must be a number more than 0{limit}, not {value}")
    return value


def _numbers(value: Any, name: str, count: int) -> tuple[float, ...]:
    if (
        not isinstance(value, list)
        or len(value) != count
        or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in value
        )
    ):
        raise ConfigError(f"{name}: a list of {count} numbers, not {value!r}")
    return tuple(float(v) for v in value)
