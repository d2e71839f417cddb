"""The argument parser of every command the companion has (`companion ...` and the tools
run as `python -m companion...`): a refusal is one line, as the README promises. And the
address to listen on, which the command line and the configuration file check alike."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import math
import re
from typing import NoReturn


class CommandLine(argparse.ArgumentParser):
    """An argument parser whose every refusal is one line on stderr and exit status 2: what
    was wrong, said once, rather than a usage block with the reason on its last line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (`{self.prog} --help` lists the options)\n")


# A host name: dot-separated labels of letters, digits and inner hyphens (RFC 1123).
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


def seconds(text: str) -> float:
    """A pause in seconds: a finite number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds: give 0 or more, such as 0.4"
        )
    return value


def host_address(text: str) -> str:
    """An address to listen on: an IP address or a name. Numbers that are no IP address
    (256.1.1.1) are refused here, with the usual choices, rather than by the server."""
    with contextlib.suppress(ValueError):
        return str(ipaddress.ip_address(text))
    numbers = text.replace(".", "").isdigit()
    if len(text) <= 253 and not numbers and _HOST_NAME.fullmatch(text):
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not an address to listen on: give 0.0.0.0 (every network), "
        "127.0.0.1 (this machine only) or one of this machine's addresses or names"
    )


_FRAME_SIZE = re.compile(r"([0-9]{1,5})x([0-9]{1,5})")


def frame_size(text: str) -> tuple[int, int]:
    """A camera frame's size WIDTHxHEIGHT in pixels (1280x720): what a synthetic camera
    films at, so a measure can be taken at a webcam's size as well as the default's."""
    match = _FRAME_SIZE.fullmatch(text.strip().lower())
    size = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
    if not all(64 <= side <= 10_000 for side in size):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a frame size: give WIDTHxHEIGHT in pixels, each 64 to 10000, "
            "such as 1280x720"
        )
    return size
