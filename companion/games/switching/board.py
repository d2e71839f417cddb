"""A switching-track board as data (format `switching-board/1`, docs/board.md): the fixed
tracks, the slots in the board's middle, the panels and their track pieces, with every
space's centre in millimetres, read from `boards/<id>.json` and checked into frozen
dataclasses.

The rulebook prints no board, so a board is a file a family can write by hand for their
own: tracks are chains of spaces listed from their Start (or their back end) towards their
Finish (or their front end); a panel's track pieces are chains of panel spaces from one
port on the slot's edge to another port or a dead end. The rules ignore the geometry; the
camera, the art and the page draw from it. `network` joins the chains for one lie of the
panels (which slot each panel is in and whether it lies turned), which is all the rules
need to move a train.

`python -m companion.games.switching.board --draw docs/board.png` draws the schematic.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from companion.arguments import CommandLine
from companion.games.records import load_json, read_small_file

FORMAT = "switching-board/1"
PANEL_COLOURS = ("purple", "cyan", "orange")  # the colour die shows each on two faces
START, FINISH, DEAD_END = "start", "finish", "dead end"
OFF_TRACK = "off the track"  # where a train runs past a chain end that joins nothing
_NEAR_MM = 0.5  # two ports closer than this are the same point of the board


class BoardError(ValueError):
    """A board file that cannot be played: the message names what is wrong and where."""


@dataclass(frozen=True, slots=True)
class Space:
    """One space a train can stand on. `at` is its centre in mm: on the board for a fixed
    space, in its panel's own frame (panel upright, origin at its top left) for a panel
    space. `chain` and `index` place it on its track or piece; `kind` is "start" (a Start
    space), "finish" (a Finish space) or "" (any other)."""

    id: str
    at: tuple[float, float]
    chain: str
    index: int
    panel: str | None
    kind: str


@dataclass(frozen=True, slots=True)
class Chain:
    """A fixed track (`panel` None, `id` a letter) or a panel's track piece: its spaces in
    order, from its `back` end towards its `front` end (for a track: towards Finish). An end
    is "start" (the first space is a Start), "finish" (the last space is a Finish), "dead
    end" (a buffer stop), or a port: "<slot>.<port>" for a track, "<port>" for a piece (the
    port of the panel as it lies upright)."""

    id: str
    spaces: tuple[str, ...]
    back: str
    front: str
    panel: str | None


@dataclass(frozen=True, slots=True)
class Slot:
    """One slot of the sliding puzzle: its rectangle on the board (top left and size, mm)."""

    id: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Panel:
    """A track-switch panel: its colour (its id), its `home` slot at setup, its pieces."""

    colour: str
    home: str
    pieces: tuple[str, ...]  # chain ids


class Lie(NamedTuple):
    """Where one panel lies: its slot and whether it is turned round (180 degrees)."""

    slot: str
    turned: bool = False


Layout = tuple[Lie, ...]  # one `Lie` per panel, in `Board.panels` order


class Step(NamedTuple):
    """The next space along a chain, and the direction the train then faces on its chain
    (+1 along the chain's listed order, -1 against it)."""

    space: str
    facing: int


@dataclass(frozen=True, eq=False)
class Board:
    """A checked board. Equal boards have the same `digest` (of their canonical JSON)."""

    id: str
    name: str
    ours: bool
    note: str
    size: tuple[float, float]
    slots: Mapping[str, Slot]
    ports: Mapping[str, tuple[float, float]]  # port name -> point in a slot's own frame
    panels: tuple[Panel, ...]
    chains: Mapping[str, Chain]
    spaces: Mapping[str, Space]
    canonical: str  # the board file's JSON, keys sorted: what `digest` is taken of
    digest: str

    def document(self) -> dict[str, Any]:
        """The board file's JSON object (a fresh copy): a record embeds it, so that it
        replays on exactly this board, a table's own included."""
        return json.loads(self.canonical)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    @cached_property
    def starts(self) -> tuple[str, ...]:
        """Every Start space, in the file's order of tracks."""
        return tuple(s.id for s in self.spaces.values() if s.kind == START)

    @cached_property
    def finishes(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces.values() if s.kind == FINISH)

    @property
    def home(self) -> Layout:
        """Every panel in its home slot, upright (the setup before any is turned)."""
        return tuple(Lie(p.home, False) for p in self.panels)

    def panel(self, colour: str) -> Panel:
        for p in self.panels:
            if p.colour == colour:
                return p
        raise KeyError(f"this board has no {colour} panel")

    def empty_slot(self, layout: Layout) -> str:
        """The slot no panel lies in."""
        taken = {lie.slot for lie in layout}
        return next(s for s in self.slots if s not in taken)

    def neighbours(self, slot: str) -> tuple[str, ...]:
        """The slots that share an edge with `slot`: a panel slides only between these."""
        return _neighbours(self)[slot]

    def turned_port(self, port: str) -> str:
        """The port a panel's `port` lies at when the panel is turned round."""
        return _turned_ports(self)[port]

    def centre(self, space: str, layout: Layout) -> tuple[float, float]:
        """A space's centre on the board (mm) with the panels lying as `layout` says."""
        s = self.spaces[space]
        if s.panel is None:
            return s.at
        x, y = s.at
        slot, turned = self._slot_of(s.panel, layout)
        if turned:
            x, y = slot.width - x, slot.height - y
        return slot.x + x, slot.y + y

    def heading(self, space: str, layout: Layout) -> tuple[float, float]:
        """The unit vector on the board a train facing +1 at `space` points along: from the
        space before it on its chain to the one after (its port or end at a chain's end).
        A train facing -1 points the other way. The camera turns a seen nose into a facing
        with it; the art and the page draw noses with it."""
        s = self.spaces[space]
        chain = self.chains[s.chain]
        before = self._end_point(chain, chain.back, layout) if s.index == 0 else None
        after = (
            self._end_point(chain, chain.front, layout)
            if s.index == len(chain.spaces) - 1
            else None
        )
        x0, y0 = before or self.centre(chain.spaces[max(s.index - 1, 0)], layout)
        last = len(chain.spaces) - 1
        x1, y1 = after or self.centre(chain.spaces[min(s.index + 1, last)], layout)
        if (x0, y0) == (x1, y1):  # a one-space chain with no end points: straight up
            return 0.0, -1.0
        length = math.hypot(x1 - x0, y1 - y0)
        return (x1 - x0) / length, (y1 - y0) / length

    def port_point(self, slot: str, port: str) -> tuple[float, float]:
        """A slot's port on the board (mm)."""
        s = self.slots[slot]
        px, py = self.ports[port]
        return s.x + px, s.y + py

    def _slot_of(self, panel: str, layout: Layout) -> tuple[Slot, bool]:
        i = next(i for i, p in enumerate(self.panels) if p.colour == panel)
        return self.slots[layout[i].slot], layout[i].turned

    def _end_point(self, chain: Chain, end: str, layout: Layout) -> tuple[float, float] | None:
        """Where a chain's port end lies on the board; None for other ends."""
        if end in (START, FINISH, DEAD_END):
            return None
        if chain.panel is None:
            slot, port = end.split(".")
            return self.port_point(slot, port)
        slot, turned = self._slot_of(chain.panel, layout)
        port = self.turned_port(end) if turned else end
        return self.port_point(slot.id, port)


@cache
def _neighbours(board: Board) -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {s: [] for s in board.slots}
    for a in board.slots.values():
        for b in board.slots.values():
            if a.id != b.id and _share_edge(a, b):
                found[a.id].append(b.id)
    return {k: tuple(v) for k, v in found.items()}


def _share_edge(a: Slot, b: Slot) -> bool:
    def overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
        return min(a1, b1) - max(a0, b0) > _NEAR_MM

    touch_x = abs(a.x + a.width - b.x) < _NEAR_MM or abs(b.x + b.width - a.x) < _NEAR_MM
    touch_y = abs(a.y + a.height - b.y) < _NEAR_MM or abs(b.y + b.height - a.y) < _NEAR_MM
    return (touch_x and overlap(a.y, a.y + a.height, b.y, b.y + b.height)) or (
        touch_y and overlap(a.x, a.x + a.width, b.x, b.x + b.width)
    )


@cache
def _turned_ports(board: Board) -> dict[str, str]:
    slot = next(iter(board.slots.values()))
    turned = {}
    for name, (x, y) in board.ports.items():
        tx, ty = slot.width - x, slot.height - y
        turned[name] = next(
            other
            for other, (ox, oy) in board.ports.items()
            if math.hypot(ox - tx, oy - ty) < _NEAR_MM
        )
    return turned


@cache
def _across(board: Board) -> dict[tuple[str, str], tuple[str, str] | str | None]:
    """What lies across each slot port: ("track", end) a fixed track's port end, (slot,
    port) another slot's port at the same point, or None (nothing: off the track)."""
    tracks = {
        (c.back if e == "back" else c.front): c.id
        for c in board.chains.values()
        if c.panel is None
        for e in ("back", "front")
    }
    points = {(s, p): board.port_point(s, p) for s in board.slots for p in board.ports}
    across: dict[tuple[str, str], tuple[str, str] | str | None] = {}
    for (s, p), (x, y) in points.items():
        ref = f"{s}.{p}"
        if ref in tracks:
            across[(s, p)] = ref
            continue
        across[(s, p)] = next(
            (
                (s2, p2)
                for (s2, p2), (x2, y2) in points.items()
                if s2 != s and math.hypot(x2 - x, y2 - y) < _NEAR_MM
            ),
            None,
        )
    return across


class Network(NamedTuple):
    """The tracks joined for one layout: `ahead[(space, facing)]` is the next `Step`, or
    the end a train runs into there ("dead end", "off the track")."""

    ahead: Mapping[tuple[str, int], Step | str]

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """Every pair of neighbouring spaces as the tracks now join, each pair once (the
        page draws the track through the panels with these)."""
        pairs = {
            (min(space, step.space), max(space, step.space))
            for (space, _), step in self.ahead.items()
            if isinstance(step, Step)
        }
        return tuple(sorted(pairs))


@cache
def network(board: Board, layout: Layout) -> Network:
    """The board's chains joined as the panels lie in `layout` (cached: a board has few
    layouts, and a simulation moves thousands of trains on each)."""
    across = _across(board)
    lie_of = {p.colour: lie for p, lie in zip(board.panels, layout, strict=True)}
    in_slot = {lie.slot: (p, lie.turned) for p, lie in zip(board.panels, layout, strict=True)}
    ends: dict[tuple[str, str], Step] = {}  # chain port end -> entry step into that chain
    by_panel_port: dict[tuple[str, str], Step] = {}
    for c in board.chains.values():
        first, last = Step(c.spaces[0], 1), Step(c.spaces[-1], -1)
        if c.panel is None:
            for end, step in ((c.back, first), (c.front, last)):
                if end not in (START, FINISH, DEAD_END):
                    ends[("track", end)] = step
        else:
            for end, step in ((c.back, first), (c.front, last)):
                if end != DEAD_END:
                    by_panel_port[(c.panel, end)] = step

    def into_slot(slot: str, port: str) -> Step | str:
        """Entering the panel in `slot` at the slot's `port`."""
        if slot not in in_slot:
            return OFF_TRACK
        panel, turned = in_slot[slot]
        panel_port = board.turned_port(port) if turned else port
        return by_panel_port.get((panel.colour, panel_port), OFF_TRACK)

    def beyond(chain: Chain, end: str) -> Step | str:
        if end == DEAD_END:
            return DEAD_END
        if end in (START, FINISH):
            return OFF_TRACK
        if chain.panel is None:
            slot, port = end.split(".")
            return into_slot(slot, port)
        lie = lie_of[chain.panel]
        port = board.turned_port(end) if lie.turned else end
        other = across[(lie.slot, port)]
        if other is None:
            return OFF_TRACK
        if isinstance(other, str):
            return ends[("track", other)]
        return into_slot(*other)

    ahead: dict[tuple[str, int], Step | str] = {}
    for c in board.chains.values():
        n = len(c.spaces)
        for i, space in enumerate(c.spaces):
            ahead[(space, 1)] = Step(c.spaces[i + 1], 1) if i + 1 < n else beyond(c, c.front)
            ahead[(space, -1)] = Step(c.spaces[i - 1], -1) if i > 0 else beyond(c, c.back)
    return Network(ahead)


# --- reading a board file ---------------------------------------------------------------


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise BoardError(f"{where}: {message}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _point(raw: Any, where: str) -> tuple[float, float]:
    _need(
        isinstance(raw, list) and len(raw) == 2 and all(_number(v) for v in raw),
        where,
        "a point is [x, y] in millimetres",
    )
    return float(raw[0]), float(raw[1])


def _space_list(raw: Any, where: str) -> list[tuple[str, tuple[float, float]]]:
    _need(
        isinstance(raw, list) and raw,
        where,
        "'spaces' is a list of [id, x, y], at least one",
    )
    out = []
    for k, item in enumerate(raw):
        here = f"{where}, space {k + 1}"
        _need(
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and item[0].strip() == item[0] != "",
            here,
            'a space is [id, x, y] with an id such as "A1"',
        )
        out.append((item[0], _point(item[1:], f"{here} ({item[0]})")))
    return out


def parse(doc: Any, where: str = "board") -> Board:
    """A checked `Board` from a board file's JSON; BoardError naming what is wrong and where.

    Checked: the format; the board's size; the slots (all one size, inside the board, not
    overlapping, one more than the panels); the ports (on a slot's edge, each with a twin
    where a turned panel puts it); the panels (the colour die's three colours, each home a
    different slot, pieces joining two different ports or a port and a dead end, no port
    used twice); the tracks (ends that exist, Start only at the back and Finish only at the
    front, no slot port joined twice, at least one Start and one Finish); every space id
    used once; every space inside the board or its panel."""
    _need(isinstance(doc, Mapping), where, "a board file is a JSON object")
    _need(
        doc.get("format") == FORMAT,
        where,
        f"'format' must be {FORMAT!r}, not {doc.get('format')!r}",
    )
    known = {"format", "id", "name", "ours", "note", "size", "slots", "ports", "panels", "tracks"}
    unknown = sorted(set(doc) - known)
    _need(not unknown, where, f"unknown field(s) {', '.join(unknown)}: the fields are {known}")
    board_id = doc.get("id")
    _need(isinstance(board_id, str) and board_id != "", where, "'id' is a non-empty string")
    where = f"board {board_id!r}"
    name = doc.get("name", board_id)
    _need(isinstance(name, str), where, "'name' is a string")
    ours = doc.get("ours", False)
    _need(isinstance(ours, bool), where, "'ours' is true or false")
    note = doc.get("note", "")
    _need(isinstance(note, str), where, "'note' is a string")
    width, height = _point(doc.get("size"), f"{where}, size")
    _need(width > 0 and height > 0, f"{where}, size", "the board's size is positive")

    slots, slot_size = _slots(doc.get("slots"), where, (width, height))
    ports = _ports(doc.get("ports"), where, slot_size)
    spaces: dict[str, Space] = {}
    chains: dict[str, Chain] = {}

    def add_chain(
        chain_id: str,
        items: list[tuple[str, tuple[float, float]]],
        back: str,
        front: str,
        panel: str | None,
        inside: tuple[float, float],
        here: str,
    ) -> None:
        _need(chain_id not in chains, here, f"the id {chain_id!r} is used twice")
        for k, (space_id, at) in enumerate(items):
            _need(space_id not in spaces, here, f"the space id {space_id!r} is used twice")
            _need(
                0 <= at[0] <= inside[0] and 0 <= at[1] <= inside[1],
                f"{here}, space {space_id}",
                f"{at} lies outside the {'panel' if panel else 'board'} "
                f"(0..{inside[0]:g} x 0..{inside[1]:g} mm)",
            )
            kind = ""
            if k == 0 and back == START:
                kind = START
            if k == len(items) - 1 and front == FINISH:
                _need(kind == "", here, "a track of one space cannot be both Start and Finish")
                kind = FINISH
            spaces[space_id] = Space(space_id, at, chain_id, k, panel, kind)
        chains[chain_id] = Chain(chain_id, tuple(i for i, _ in items), back, front, panel)

    panels = _panels(doc.get("panels"), where, slots, ports, slot_size, add_chain)
    _need(
        len(slots) == len(panels) + 1,
        f"{where}, slots",
        f"a sliding puzzle has one more slot than panels: {len(slots)} slots, {len(panels)} panels",
    )
    _tracks(doc.get("tracks"), where, slots, ports, (width, height), add_chain)
    kinds = [s.kind for s in spaces.values()]
    _need(START in kinds, f"{where}, tracks", "no track begins at a Start ('from': 'start')")
    _need(FINISH in kinds, f"{where}, tracks", "no track ends at a Finish ('to': 'finish')")
    canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return Board(
        id=board_id,
        name=name,
        ours=ours,
        note=note,
        size=(width, height),
        slots=slots,
        ports=ports,
        panels=panels,
        chains=chains,
        spaces=spaces,
        canonical=canonical,
        digest=hashlib.sha256(canonical.encode()).hexdigest(),
    )


def _slots(
    raw: Any, where: str, size: tuple[float, float]
) -> tuple[dict[str, Slot], tuple[float, float]]:
    here = f"{where}, slots"
    _need(
        isinstance(raw, Mapping) and {"size", "at"} <= set(raw) and len(raw) == 2,
        here,
        '\'slots\' is {"size": [w, h], "at": {"<slot id>": [x, y] of its top left, …}}',
    )
    w, h = _point(raw["size"], f"{here}, size")
    _need(w > 0 and h > 0, f"{here}, size", "a slot's size is positive")
    _need(isinstance(raw["at"], Mapping) and raw["at"], here, "'at' names at least two slots")
    slots = {}
    for slot_id, at in raw["at"].items():
        x, y = _point(at, f"{here}, {slot_id}")
        _need(
            x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1],
            f"{here}, {slot_id}",
            "the slot lies outside the board",
        )
        slots[slot_id] = Slot(slot_id, x, y, w, h)
    for a in slots.values():
        for b in slots.values():
            overlap = (
                min(a.x + w, b.x + w) - max(a.x, b.x) > _NEAR_MM
                and min(a.y + h, b.y + h) - max(a.y, b.y) > _NEAR_MM
            )
            _need(a.id == b.id or not overlap, here, f"slots {a.id} and {b.id} overlap")
    return slots, (w, h)


def _ports(raw: Any, where: str, slot_size: tuple[float, float]) -> dict[str, tuple[float, float]]:
    here = f"{where}, ports"
    _need(
        isinstance(raw, Mapping) and raw,
        here,
        "'ports' is {\"<port>\": [x, y]} on a slot's edge, in the slot's own frame",
    )
    w, h = slot_size
    ports = {}
    for name, at in raw.items():
        _need("." not in name, f"{here}, {name}", "a port's name has no '.'")
        x, y = _point(at, f"{here}, {name}")
        on_edge = (min(abs(x), abs(x - w)) < _NEAR_MM and 0 <= y <= h) or (
            min(abs(y), abs(y - h)) < _NEAR_MM and 0 <= x <= w
        )
        _need(on_edge, f"{here}, {name}", f"({x:g}, {y:g}) is not on the slot's edge")
        ports[name] = (x, y)
    for name, (x, y) in ports.items():
        _need(
            any(math.hypot(w - x - ox, h - y - oy) < _NEAR_MM for ox, oy in ports.values()),
            f"{here}, {name}",
            "a panel turned round puts this port where the slot has none: give each port "
            "its twin at (width - x, height - y)",
        )
    return ports


def _panels(
    raw: Any,
    where: str,
    slots: Mapping[str, Slot],
    ports: Mapping[str, tuple[float, float]],
    slot_size: tuple[float, float],
    add_chain: Any,
) -> tuple[Panel, ...]:
    here = f"{where}, panels"
    _need(
        isinstance(raw, Mapping) and set(raw) == set(PANEL_COLOURS),
        here,
        f"'panels' names the colour die's three panels: {', '.join(PANEL_COLOURS)}",
    )
    panels = []
    homes: set[str] = set()
    for colour in PANEL_COLOURS:
        spec = raw[colour]
        at = f"{here}, {colour}"
        _need(
            isinstance(spec, Mapping) and set(spec) == {"home", "pieces"},
            at,
            'a panel is {"home": "<slot>", "pieces": [...]}',
        )
        home = spec["home"]
        _need(home in slots, at, f"its home {home!r} is not a slot ({', '.join(slots)})")
        _need(home not in homes, at, f"two panels have the home slot {home}")
        homes.add(home)
        pieces = spec["pieces"]
        _need(isinstance(pieces, list) and pieces, at, "'pieces' lists at least one piece")
        used: set[str] = set()
        ids = []
        for k, piece in enumerate(pieces):
            pat = f"{at}, piece {k + 1}"
            _need(
                isinstance(piece, Mapping) and set(piece) == {"from", "to", "spaces"},
                pat,
                'a piece is {"from": port, "to": port or "dead end", "spaces": [...]}',
            )
            ends = (piece["from"], piece["to"])
            _need(ends != (DEAD_END, DEAD_END), pat, "a piece joins at least one port")
            _need(ends[0] != ends[1], pat, "a piece joins two different ports")
            for end in ends:
                _need(
                    end in ports or end == DEAD_END,
                    pat,
                    f'{end!r} is neither a port ({", ".join(ports)}) nor "dead end"',
                )
                _need(end == DEAD_END or end not in used, pat, f"port {end} is used twice")
                used.add(end)
            chain_id = f"{colour}-{k + 1}"
            add_chain(chain_id, _space_list(piece["spaces"], pat), *ends, colour, slot_size, pat)
            ids.append(chain_id)
        panels.append(Panel(colour, home, tuple(ids)))
    return tuple(panels)


def _tracks(
    raw: Any,
    where: str,
    slots: Mapping[str, Slot],
    ports: Mapping[str, tuple[float, float]],
    size: tuple[float, float],
    add_chain: Any,
) -> None:
    here = f"{where}, tracks"
    _need(isinstance(raw, list) and raw, here, "'tracks' lists at least one track")
    used: set[str] = set()
    for k, track in enumerate(raw):
        at = f"{here}, track {k + 1}"
        _need(
            isinstance(track, Mapping) and set(track) == {"id", "from", "to", "spaces"},
            at,
            'a track is {"id", "from", "to", "spaces"}',
        )
        track_id = track["id"]
        _need(isinstance(track_id, str) and track_id != "", at, "'id' is a name such as \"A\"")
        at = f"{here}, track {track_id}"
        for end, allowed in ((track["from"], START), (track["to"], FINISH)):
            if end in (allowed, DEAD_END):
                continue
            _need(
                isinstance(end, str) and end.count(".") == 1,
                at,
                f'an end is {allowed!r}, "dead end" or a slot port "<slot>.<port>", not {end!r}',
            )
            slot, port = end.split(".")
            _need(slot in slots and port in ports, at, f"{end!r} names no slot port")
            _need(end not in used, at, f"slot port {end} is joined by two tracks")
            used.add(end)
        add_chain(
            track_id, _space_list(track["spaces"], at), track["from"], track["to"], None, size, at
        )


_FOLDER = resources.files("companion.games.switching") / "boards"
# Every board the package ships, by id (its file's name).
BOARDS = tuple(
    sorted(f.name.removesuffix(".json") for f in _FOLDER.iterdir() if f.name.endswith(".json"))
)


@cache
def load(board_id: str = "ours") -> Board:
    """The shipped board `boards/<board_id>.json`."""
    path = _FOLDER / f"{board_id}.json"
    if not path.is_file():
        raise KeyError(f"there is no switching board {board_id!r}: the boards are {BOARDS}")
    return read(path.read_text(encoding="utf-8"), f"boards/{board_id}.json")


def is_box(folder: Path) -> bool:
    """Whether `folder` holds a switching box taught to the camera (`companion enroll
    --game switching` writes its `box.json` beside its board file): a catalogue folder
    of another game's holds none."""
    return (Path(folder) / "box.json").is_file()


def taught(folder: Path | None) -> Board | None:
    """The board of the box taught into `folder` (its `board.json`), None when there is
    no folder or it holds no switching box (`is_box`); BoardError saying what is wrong and
    what to do when its board file cannot be read or played."""
    if folder is None or not is_box(folder):
        return None
    path = Path(folder) / "board.json"
    try:
        text = path.read_bytes()
    except OSError as error:
        raise BoardError(f"{path}: cannot be read ({error.strerror or error}): teach the box "
                         "again with companion enroll --game switching") from None  # fmt: skip
    return read(text, str(path))


def read(text: str | bytes, where: str = "board") -> Board:
    """A checked board from a board file's text or bytes; BoardError saying what is wrong
    (a file a family wrote by hand may be in another encoding, or no JSON at all), as
    every file a person names is read (`load_json`)."""
    try:
        doc = load_json(text, "a board file")
    except ValueError as error:
        raise BoardError(f"{where}: {error}") from None
    return parse(doc, where)


# --- the schematic ----------------------------------------------------------------------


def draw(board: Board, layout: Layout | None = None, px_per_mm: float = 1.5) -> Any:
    """The board as a BGR picture (numpy array): tracks, every space with its id, Start,
    Finish and dead ends marked, slots outlined, each panel in its colour where `layout`
    (default: home, upright) puts it, and a small arrow on each space towards its chain's
    front (for a track: towards Finish). A schematic for docs/board.md, not the art."""
    import cv2
    import numpy as np

    layout = layout or board.home
    w, h = board.size
    img = np.full((round(h * px_per_mm), round(w * px_per_mm), 3), 250, np.uint8)

    def px(p: tuple[float, float]) -> tuple[int, int]:
        return round(p[0] * px_per_mm), round(p[1] * px_per_mm)

    tint = {"purple": (170, 80, 150), "cyan": (210, 200, 80), "orange": (60, 150, 245)}
    for slot in board.slots.values():
        cv2.rectangle(
            img,
            px((slot.x, slot.y)),
            px((slot.x + slot.width, slot.y + slot.height)),
            (120, 120, 120),
            2,
        )
        cv2.putText(img, slot.id, px((slot.x + 3, slot.y + 12)), 0, 0.4, (90, 90, 90), 1)
    for panel, lie in zip(board.panels, layout, strict=True):
        s = board.slots[lie.slot]
        cv2.rectangle(
            img,
            px((s.x + 3, s.y + 3)),
            px((s.x + s.width - 3, s.y + s.height - 3)),
            tint[panel.colour],
            -1,
        )
        label = f"{panel.colour}{' (turned)' if lie.turned else ''}"
        cv2.putText(img, label, px((s.x + 6, s.y + s.height - 6)), 0, 0.45, (255, 255, 255), 1)
    for chain in board.chains.values():
        points = [board.centre(sp, layout) for sp in chain.spaces]
        back = board._end_point(chain, chain.back, layout)
        front = board._end_point(chain, chain.front, layout)
        line = [p for p in (back, *points, front) if p is not None]
        for a, b in itertools.pairwise(line):
            cv2.line(img, px(a), px(b), (60, 60, 60), 3)
        for end, at, before in (
            (chain.back, points[0], line[1] if len(line) > 1 else None),
            (chain.front, points[-1], line[-2] if len(line) > 1 else None),
        ):
            if end == DEAD_END and before is not None:
                dx, dy = at[0] - before[0], at[1] - before[1]
                n = math.hypot(dx, dy) or 1.0
                stop = (at[0] + dx / n * 16, at[1] + dy / n * 16)
                a = (stop[0] - dy / n * 10, stop[1] + dx / n * 10)
                b = (stop[0] + dy / n * 10, stop[1] - dx / n * 10)
                cv2.line(img, px(at), px(stop), (60, 60, 60), 3)
                cv2.line(img, px(a), px(b), (0, 0, 200), 5)
    for space in board.spaces.values():
        c = board.centre(space.id, layout)
        colour = {START: (80, 180, 80), FINISH: (40, 40, 220)}.get(space.kind, (255, 255, 255))
        cv2.circle(img, px(c), round(11 * px_per_mm), colour, -1)
        cv2.circle(img, px(c), round(11 * px_per_mm), (40, 40, 40), 1)
        hx, hy = board.heading(space.id, layout)
        # a chevron just outside the space, pointing along the chain's order
        tip = (c[0] + hx * 17, c[1] + hy * 17)
        for side in (1, -1):
            wing = (c[0] + hx * 12 - side * hy * 4, c[1] + hy * 12 + side * hx * 4)
            cv2.line(img, px(wing), px(tip), (0, 0, 0), 2)
        size, _ = cv2.getTextSize(space.id, 0, 0.4, 1)
        x, y = px(c)
        cv2.putText(img, space.id, (x - size[0] // 2, y + 4), 0, 0.4, (0, 0, 0), 1)
    return img


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m companion.games.switching.board [--board ours] [--file F] --draw OUT.png`:
    check a board file (a family's own with --file) and draw its schematic."""
    parser = CommandLine(prog="python -m companion.games.switching.board")
    parser.add_argument("--board", default="ours", help="a shipped board's id")
    parser.add_argument("--file", type=Path, help="a board file of your own to check")
    parser.add_argument("--draw", type=_png, help="write the schematic to this PNG")
    args = parser.parse_args(argv)
    try:
        board = read(read_small_file(args.file), str(args.file)) if args.file else load(args.board)
    except (BoardError, KeyError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(
        f"{board.id}: {len(board.spaces)} spaces, {len(board.starts)} Starts, "
        f"{len(board.finishes)} Finishes, {len(board.slots)} slots, {len(board.panels)} panels"
    )
    if args.draw:
        import cv2

        _, png = cv2.imencode(".png", draw(board))
        try:
            args.draw.write_bytes(png.tobytes())
        except OSError as error:
            print(
                f"error: cannot write {args.draw} ({error.strerror or error}): give a .png "
                "file in a folder you can write",
                file=sys.stderr,
            )
            return 2
        print(f"drew {args.draw}")
    return 0


def _png(text: str) -> Path:
    """`--draw`'s file: the schematic is a PNG picture, so the file's name says so."""
    if Path(text).suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a .png file: give a file such as board.png"
        )
    return Path(text)


if __name__ == "__main__":
    sys.exit(main())
