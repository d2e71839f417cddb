"""The Caboose design as the shared table sees it: its `Game` (companion/games/protocol.py)."""

from __future__ import annotations
