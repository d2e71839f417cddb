"""The board file format (docs/board.md): our board as shipped, and a bad file refused
naming what is wrong and where."""

from __future__ import annotations

import copy
import json
import math
import os
import sys
from typing import Any

import cv2
import pytest

from companion.games.switching import board as boards
from companion.games.switching.board import DEAD_END, OFF_TRACK, BoardError, Lie, Step
from tests.test_cli_errors import refused


@pytest.fixture(scope="module")
def ours() -> boards.Board:
    return boards.load("ours")


def ours_doc() -> dict[str, Any]:
    text = (boards._FOLDER / "ours.json").read_text(encoding="utf-8")
    return json.loads(text)


def route(board: boards.Board, layout: boards.Layout, start: str) -> tuple[list[str], str]:
    """The spaces from a Start onwards as the tracks join, and how the way ends."""
    ahead = boards.network(board, layout).ahead
    path, here = [start], (start, 1)
    while True:
        step = ahead[here]
        if isinstance(step, str):
            return path, step
        path.append(step.space)
        if board.spaces[step.space].kind == boards.FINISH:
            return path, "finish"
        here = step


def test_our_board_is_marked_ours_and_has_what_the_rulebook_needs(ours: boards.Board) -> None:
    assert ours.ours and "ours" in boards.BOARDS
    assert ours.starts == ("A1", "B1", "C1", "D1")
    assert ours.finishes == ("E5", "F5", "G5", "H5")
    assert [p.colour for p in ours.panels] == ["purple", "cyan", "orange"]
    assert len(ours.slots) == len(ours.panels) + 1  # a sliding puzzle: one slot empty
    assert ours.empty_slot(ours.home) == "SE"


def test_at_home_two_starts_reach_finish_one_hits_a_dead_end_one_runs_off(
    ours: boards.Board,
) -> None:
    ends = {start: route(ours, ours.home, start)[1] for start in ours.starts}
    assert ends == {"A1": DEAD_END, "B1": OFF_TRACK, "C1": "finish", "D1": "finish"}
    path, _ = route(ours, ours.home, "D1")
    assert path == ["D1", "D2", "D3", "D4", "D5", "p1", "p2", "p3", "E1", "E2", "E3", "E4", "E5"]


def test_a_slide_changes_where_a_track_leads(ours: boards.Board) -> None:
    """Orange into the empty SE: A now runs into the empty SW; turning purple round instead
    sends A through purple's curve into cyan."""
    orange_right = (Lie("NW"), Lie("NE"), Lie("SE"))
    assert route(ours, orange_right, "A1") == (["A1", "A2", "A3", "A4", "A5"], OFF_TRACK)
    purple_turned = (Lie("NW", True), Lie("NE"), Lie("SW"))
    path, end = route(ours, purple_turned, "A1")
    assert path[5:] == ["o1", "o2", "o3", "o4", "p3", "p2", "p1", "c1", "c2", "c3"]
    assert end == OFF_TRACK  # cyan's w-s curve ends at the empty SE


def test_every_start_reaches_a_finish_in_some_layout(ours: boards.Board) -> None:
    import itertools

    reached = set()
    for slots in itertools.permutations(ours.slots, 3):
        for turned in itertools.product((False, True), repeat=3):
            layout = tuple(Lie(s, t) for s, t in zip(slots, turned, strict=True))
            reached |= {s for s in ours.starts if route(ours, layout, s)[1] == "finish"}
    assert reached == set(ours.starts)


def test_panel_spaces_travel_and_turn_with_their_panel(ours: boards.Board) -> None:
    """A space's centre on the board follows its panel's slot; turned round it is rotated
    about the slot's centre, and a train's heading there turns with it."""
    assert ours.centre("A1", ours.home) == (270.0, 672.0)
    home = ours.centre("c1", ours.home)
    slid = ours.centre("c1", (Lie("NW"), Lie("SE"), Lie("SW")))
    assert (slid[0] - home[0], slid[1] - home[1]) == (0.0, 160.0)
    turned = ours.centre("c1", (Lie("NW"), Lie("NE", True), Lie("SW")))
    slot = ours.slots["NE"]
    assert turned == pytest.approx(
        (2 * slot.x + slot.width - home[0], 2 * slot.y + slot.height - home[1])
    )
    hx, hy = ours.heading("o2", ours.home)  # orange's straight runs s to n: up the board
    assert (round(hx, 6), round(hy, 6)) == (0.0, -1.0)
    hx, hy = ours.heading("o2", (Lie("NW"), Lie("NE"), Lie("SW", True)))
    assert (round(hx, 6), round(hy, 6)) == (0.0, 1.0)
    assert math.hypot(*ours.heading("p2", ours.home)) == pytest.approx(1.0)


def test_slots_slide_only_to_a_neighbour(ours: boards.Board) -> None:
    assert set(ours.neighbours("NW")) == {"NE", "SW"}
    assert "SE" not in ours.neighbours("NW")


def test_network_joins_panel_to_panel_and_to_tracks(ours: boards.Board) -> None:
    ahead = boards.network(ours, ours.home).ahead
    assert ahead[("o4", 1)] == Step("p4", 1)  # orange's n meets purple's siding at s
    assert ahead[("p5", 1)] == DEAD_END
    assert ahead[("A1", -1)] == OFF_TRACK  # behind a Start
    assert ahead[("c3", 1)] == OFF_TRACK  # into the empty SE


def test_links_follow_the_panels(ours: boards.Board) -> None:
    """Where two chains join depends on the lie: D5 meets purple's p1 at home; with
    orange slid into SE, o1 meets G1 and nothing meets A5."""
    home = boards.network(ours, ours.home).links
    assert ("D5", "p1") in home and ("A5", "o1") in home and ("o4", "p4") in home
    assert len(home) == len(set(home))
    slid = boards.network(ours, (Lie("NW"), Lie("NE"), Lie("SE"))).links
    assert ("G1", "o1") in slid and not any("A5" in pair and "A4" not in pair for pair in slid)


def mutate(path: str, value: Any) -> dict[str, Any]:
    """Our board's document with one field (a dotted path, list indexes as numbers) set."""
    doc = copy.deepcopy(ours_doc())
    *parents, last = path.split(".")
    here: Any = doc
    for key in parents:
        here = here[int(key)] if isinstance(here, list) else here[key]
    if isinstance(here, list):
        here[int(last)] = value
    else:
        here[last] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        ("format", "switching-board/2", "'format' must be 'switching-board/1'"),
        ("size", [700], "board 'ours', size: a point is [x, y]"),
        ("slots.at.SE", [600, 350], "slots, SE: the slot lies outside the board"),
        ("slots.at.SE", [300, 300], "overlap"),
        ("ports.e", [160, 70], "ports, e: a panel turned round puts this port"),
        ("ports.n", [80, 40], "ports, n: (80, 40) is not on the slot's edge"),
        ("panels.cyan.home", "NW", "panels, cyan: two panels have the home slot NW"),
        ("panels.cyan.pieces.1.from", "w", "panels, cyan, piece 2: port w is used twice"),
        ("panels.orange.pieces.0.to", "s", "panels, orange, piece 1: a piece joins two"),
        ("panels.purple.pieces.0.spaces.0", ["p1", 200, 20], "space p1: (200.0, 20.0) lies"),
        ("tracks.1.to", "SW.s", "track B: slot port SW.s is joined by two tracks"),
        ("tracks.1.to", "XX.s", "track B: 'XX.s' names no slot port"),
        ("tracks.1.from", "finish", "track B: an end is 'start', \"dead end\" or a slot port"),
        ("tracks.2.spaces.0", ["A1", 430, 672], "the space id 'A1' is used twice"),
        ("tracks.3.spaces.2", ["D3", 100], "track D, space 3: a space is [id, x, y]"),
    ],
)
def test_a_bad_board_file_is_refused_naming_what_and_where(
    path: str, value: Any, says: str
) -> None:
    with pytest.raises(BoardError) as refused:
        boards.parse(mutate(path, value))
    assert says in str(refused.value)


def test_a_board_needs_a_start_a_finish_and_one_slot_more_than_panels() -> None:
    doc = ours_doc()
    for track in doc["tracks"]:
        if track["to"] == "finish":
            track["to"] = "dead end"
    with pytest.raises(BoardError, match="no track ends at a Finish"):
        boards.parse(doc)
    doc = ours_doc()
    del doc["slots"]["at"]["SE"]
    with pytest.raises(BoardError, match="one more slot than panels: 3 slots, 3 panels"):
        boards.parse(doc)
    with pytest.raises(BoardError, match="not valid JSON"):
        boards.read("{", "mine.json")


def test_an_unknown_board_is_named() -> None:
    with pytest.raises(KeyError, match="no switching board 'attic'"):
        boards.load("attic")


def test_equal_boards_are_equal_and_a_changed_one_is_not(ours: boards.Board) -> None:
    again = boards.parse(ours_doc())
    assert again == ours and hash(again) == hash(ours)
    assert boards.parse(mutate("name", "Grandma's board")) != ours


def test_a_board_gives_back_its_own_document_for_a_record(ours: boards.Board) -> None:
    """A record embeds its board's file; parsed again it is the same board."""
    family = boards.parse(mutate("name", "Grandma's board"))
    assert boards.parse(family.document()) == family
    assert family.document()["name"] == "Grandma's board"
    family.document()["name"] = "changed"  # a copy: the board is untouched
    assert family.document()["name"] == "Grandma's board"
    assert ours.document() == ours_doc()


def test_the_command_checks_a_family_board_and_draws_it(tmp_path, capsys) -> None:
    bad = tmp_path / "mine.json"
    bad.write_text(json.dumps(mutate("panels.cyan.home", "NW")), encoding="utf-8")
    assert boards.main(["--file", str(bad)]) == 2
    assert "two panels have the home slot NW" in capsys.readouterr().err
    picture = tmp_path / "board.png"
    assert boards.main(["--draw", str(picture)]) == 0
    image = cv2.imread(str(picture))
    assert image is not None and image.shape[:2] == (1050, 1050)  # 700 mm at 1.5 px/mm


BAD_COMMANDS = [
    (["--file", "{tmp}/latin1.json"], ["latin1.json", "not UTF-8 text"]),
    (["--file", "{tmp}/deep.json"], ["deep.json", "nests", "more than 12 deep"]),
    (["--file", "{tmp}/fifo.json"], ["fifo.json is a pipe (FIFO), not a file"]),
    (["--file", "/dev/zero"], ["/dev/zero is a device, not a file"]),
    (["--file", "{tmp}"], ["is a folder, not a file"]),
    (["--draw", "{tmp}/board.txt"], ["--draw", "not a .png file"]),
    (["--draw", "{tmp}/missing/board.png"], ["cannot write", "missing/board.png"]),
]


@pytest.mark.parametrize(
    ("argv", "words"), BAD_COMMANDS, ids=[" ".join(a) for a, _ in BAD_COMMANDS]
)
def test_a_bad_board_command_is_one_clear_line_and_exit_2(tmp_path, argv, words) -> None:
    """A board file in another encoding, nested without end, a pipe or a device, a picture
    that is no PNG or cannot be written: one line on stderr and exit 2, never a traceback,
    a hang or "drew" over a file that was not written."""
    (tmp_path / "latin1.json").write_bytes('{"name": "Estación"}'.encode("latin-1"))
    (tmp_path / "deep.json").write_text("[" * 100_000)
    os.mkfifo(tmp_path / "fifo.json")  # nobody writes to it: reading it would wait for ever
    board = [sys.executable, "-m", "companion.games.switching.board"]
    done = refused(board + [arg.format(tmp=tmp_path) for arg in argv])
    for word in words:
        assert word.format(tmp=tmp_path) in done.stderr
    assert "drew" not in done.stdout
    assert not list(tmp_path.rglob("board.*"))
