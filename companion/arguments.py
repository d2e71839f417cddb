"""The argument parser of every command the companion has (`companion ...` and the tools
run as `python -m companion...`): a refusal is one line, as the README promises."""

from __future__ import annotations

import argparse
from typing import NoReturn


class CommandLine(argparse.ArgumentParser):
    """An argument parser whose every refusal is one line on stderr and exit status 2: what
    was wrong, said once, rather than a usage block with the reason on its last line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (`{self.prog} --help` lists the options)\n")
