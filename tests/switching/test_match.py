"""The switching-track game played at the table by its match and a real store: a roll then
a move, every step checked by the rules before it is kept, a refusal changing nothing, a
stale page refused, undo step by step, a restart back on the same step, a record imported,
and the buttons of a table no camera follows."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.games.protocol import Malformed, RecordProblem, Refusal, Setting, Start
from companion.games.switching import bots, match, record, rules, simulate, standin
from companion.games.switching.board import load
from companion.games.switching.commands import PassTurn, Play, Press, Throw, Undo, parse
from companion.store import Store

NAMES = ("Ana", "Ben", "Cleo")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "table.sqlite3")
    yield store
    store.close()


def started(store: Store, variant: str | None = None, names: tuple[str, ...] = NAMES):
    return match.start(store, Start(names, "ours", variant), Setting())


def refused(table: match.Match, command: object) -> Refusal:
    before, journal = table.snap, list(table.store.kept(table.id).journal)
    with pytest.raises(Refusal) as caught:
        table.handle(command)
    assert table.snap == before  # nothing changed, nothing kept
    assert list(table.store.kept(table.id).journal) == journal
    return caught.value


def play_out(table: match.Match, seed: int = 0, turns: int = 10_000) -> None:
    """Bots throw and move through the match's commands, as the page sends them."""
    rng = random.Random(seed)
    for _ in range(turns):
        snap = table.snap
        if snap.position.over:
            return
        if snap.position.reroll is not None and not bots.reroll(snap.position, "greedy", rng):
            table.handle(PassTurn(snap.turn))
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        table.handle(Throw(rng.choice(("purple", "cyan", "orange")), dice, snap.turn))
        chosen = bots.choose(table.snap.position, table.snap.moves, "greedy", rng)
        if isinstance(chosen.action, rules.Move):
            table.handle(Play(chosen.action.train, table.snap.turn))
        else:
            table.handle(PassTurn(table.snap.turn))


def test_seats_take_the_colours_in_order_and_the_first_seat_begins(store: Store) -> None:
    table = started(store)
    assert table.snap.start.players == ("red", "blue", "yellow")
    assert table.snap.name("blue") == "Ben"
    assert table.snap.phase == "roll" and table.snap.position.to_move == "red"


def test_a_roll_lists_every_legal_move_and_the_move_played_is_one_of_them(store: Store) -> None:
    table = started(store)
    table.handle(Throw("orange", (3, 4), 0))
    snap = table.snap
    assert snap.phase == "move" and snap.turn == 1
    expected = rules.legal_moves(snap.start, rules.Roll("orange", 3, 4))
    assert [o.action for o in snap.moves] == [o.action for o in expected]
    entering = next(o for o in expected if o.action.train == "C1")
    table.handle(Play("C1", 1))
    assert table.snap.position == entering.position
    assert table.snap.phase == "roll" and table.snap.position.to_move == "blue"


def test_a_move_the_rules_forbid_is_refused_naming_the_ruling(store: Store) -> None:
    table = started(store)
    table.handle(Throw("cyan", (2, 5), 0))
    assert refused(table, Play("A3", 1)).rule == "S-9"  # no train of red's stands there
    assert refused(table, PassTurn(1)).rule == "S-17"  # red can move: no turn is lost
    assert refused(table, Throw("cyan", (1, 1), 1)).key == "rolled_already"


def test_a_colour_that_is_no_panel_and_a_move_before_the_dice_are_refused(store: Store) -> None:
    table = started(store)
    assert refused(table, Throw("pink", (1, 2), 0)).key == "not_a_panel"
    assert refused(table, Play("A1", 0)).key == "roll_first"
    assert refused(table, PassTurn(0)).key == "roll_first"
    assert refused(table, Throw(None, (1, 2), 0, repair="cyan")).rule == "S-19"  # no tiles


def test_a_page_that_saw_an_older_table_is_refused(store: Store) -> None:
    table = started(store)
    table.handle(Throw("orange", (3, 4), 0))
    stale = refused(table, Play("C1", 0))
    assert stale.rule == "stale" and stale.conflict and stale.params == {"turn": 1}


def test_undo_takes_back_the_move_then_the_roll(store: Store) -> None:
    table = started(store)
    table.handle(Throw("orange", (3, 4), 0))
    table.handle(Play("C1", 1))
    table.handle(Undo(2))
    assert table.snap.phase == "move" and table.snap.roll == rules.Roll("orange", 3, 4)
    assert table.snap.position == table.snap.start
    table.handle(Undo(1))
    assert table.snap.phase == "roll" and table.snap.turn == 0
    assert [key for _, key, _ in table.snap.undone] == ["move", "roll"]
    said = [line["text"] for line in table.view("es")["log"] if line["correction"]]
    assert any("tirada" in text and "naranja" in text for text in said)  # the page's words
    assert refused(table, Undo(0)).key == "nothing_to_undo"


def test_the_journal_keeps_what_older_stores_hold(store: Store) -> None:
    """A restart resumes from the store's journal, this version's or an older one's: its
    kinds and documents stay as they are (an undo's document is an empty object)."""
    table = started(store, "short", ("Ana", "Ben"))
    table.handle(Throw("orange", (3, 4), 0))
    table.handle(Play("C1", 1))
    table.handle(Undo(2))
    table.handle(Undo(1))
    table.handle(Throw("cyan", (2, 5), 0))
    journal = [(entry.kind, entry.doc) for entry in store.kept(table.id).journal]
    setting = {"board": "ours", "names": ["Ana", "Ben"], "players": ["red", "blue"],
               "variant": "short", "turned": []}  # fmt: skip
    assert journal == [
        ("setting", setting),
        ("roll", {"dice": [3, 4], "colour": "orange"}),
        ("move", {"from": "C1"}),
        ("undo", {}),
        ("undo", {}),
        ("roll", {"dice": [2, 5], "colour": "cyan"}),
    ]


def test_a_restart_resumes_the_game_on_the_same_step(store: Store) -> None:
    table = started(store)
    play_out(table, seed=3, turns=12)
    table.handle(Throw("purple", (2, 2), table.snap.turn))  # a roll waiting for its move
    table.handle(Undo(table.snap.turn))
    table.handle(Throw("cyan", (6, 1), table.snap.turn))
    resumed = match.resume(store, table.id, Setting())
    assert resumed.snap.position == table.snap.position
    assert resumed.snap.roll == table.snap.roll and resumed.snap.turn == table.snap.turn


def test_a_whole_game_is_kept_and_its_record_replays_to_the_same_end(store: Store) -> None:
    table = started(store, "short")
    play_out(table, seed=5)
    assert table.over
    doc = table.record()
    assert record.replay(record.from_json(doc)).end == table.snap.position
    assert refused(table, Throw("cyan", (1, 2), table.snap.turn)).rule == "S-18"


def test_an_imported_record_is_continued_and_resumes(store: Store) -> None:
    game = simulate.play(load(), ["greedy", "random"], "import", "short")
    doc = game.doc
    cut = dict(doc, turns=doc["turns"][:9])
    table = match.load(store, cut, Setting())
    assert table.snap.position == record.replay(record.from_json(cut)).end
    play_out(table, seed=1)
    assert table.over
    resumed = match.resume(store, table.id, Setting())
    assert resumed.snap.position == table.snap.position


def test_a_record_that_breaks_a_rule_is_not_imported(store: Store) -> None:
    doc = simulate.play(load(), ["greedy", "greedy"], "bad", "full").doc
    broken = dict(doc, turns=[{"colour": "cyan", "dice": [3, 4], "move": "A4"}])
    with pytest.raises(RecordProblem) as caught:
        match.load(store, broken, Setting())
    assert caught.value.turn == 1 and caught.value.rule.startswith("S-")
    assert store.games() == []


def test_the_start_form_is_checked(store: Store) -> None:
    with pytest.raises(Refusal) as caught:
        started(store, names=("Ana",))
    assert caught.value.rule == "S-1"
    with pytest.raises(Refusal) as caught:
        started(store, names=("Ana", "Ana"))
    assert caught.value.key == "same_names"
    with pytest.raises(Refusal) as caught:
        match.start(store, Start(NAMES, "nowhere", None), Setting())
    assert caught.value.key == "no_board"
    with pytest.raises(Refusal) as caught:
        started(store, "longer")
    assert caught.value.key == "no_variant"
    assert store.games() == []


def test_buttons_without_a_camera_pass_and_undo_but_have_nothing_to_confirm(
    store: Store,
) -> None:
    table = started(store)
    assert refused(table, Press("confirm")).key == "no_camera"
    table.handle(Throw("orange", (3, 4), 0))
    table.handle(Press("undo"))
    assert table.snap.phase == "roll"


@pytest.mark.parametrize(
    ("route", "body", "key"),
    [
        ("roll", {"colour": "cyan", "dice": [0, 4], "turn": 0}, "bad_dice"),
        ("roll", {"colour": "cyan", "dice": [3], "turn": 0}, "bad_dice"),
        ("roll", {"colour": "cyan", "repair": "orange", "dice": [3, 4], "turn": 0},
         "colour_or_repair"),
        ("roll", {"dice": [3, 4], "turn": 0}, "colour_or_repair"),
        ("roll", {"colour": "cyan", "dice": [3, 4], "turn": -1}, "bad_turn"),
        ("play", {"from": "A1"}, "missing_fields"),
        ("play", {"from": "A1", "turn": 0, "train": 2}, "unknown_fields"),
        ("pass", {"turn": True}, "bad_turn"),
    ],
)  # fmt: skip
def test_a_request_of_the_wrong_shape_is_malformed(route: str, body: dict, key: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse(route, body)
    assert caught.value.key == key


def box_folder(folder: Path, board_json: str | None = None) -> Path:
    """A taught box's folder as `companion enroll --game switching` writes it, as far as
    the match reads it: its board file (the stand-in box's, or `board_json`) beside its
    `box.json`."""
    folder.mkdir()
    doc = json.dumps(standin.board_document()) if board_json is None else board_json
    (folder / "board.json").write_text(doc, encoding="utf-8")
    (folder / "box.json").write_text('{"format": "switching-box/1"}', encoding="utf-8")
    return folder


def test_a_game_on_the_tables_taught_board_is_played_and_resumes_after_a_restart(
    store: Store, tmp_path: Path
) -> None:
    own = Setting(catalogue=box_folder(tmp_path / "box"))
    table = match.start(store, Start(NAMES, "standin", None), own)
    assert table.snap.board == standin.board()
    play_out(table, seed=3, turns=8)
    table.handle(Throw("cyan", (6, 1), table.snap.turn))
    # after a restart the folder may be gone: the kept game carries its board
    resumed = match.resume(store, table.id, Setting())
    assert resumed.snap.position == table.snap.position and resumed.snap.roll == table.snap.roll
    assert resumed.record()["board"]["id"] == "standin"


def test_a_taught_board_is_offered_only_at_a_table_that_has_it(store: Store) -> None:
    with pytest.raises(Refusal) as caught:
        match.start(store, Start(NAMES, "standin", None), Setting())
    assert caught.value.key == "no_board"
    assert store.games() == []


def test_a_taught_box_whose_board_file_is_damaged_is_refused_in_words(
    store: Store, tmp_path: Path
) -> None:
    own = Setting(catalogue=box_folder(tmp_path / "box", '{"format": "switching-board/1",'))
    with pytest.raises(Refusal) as caught:
        match.start(store, Start(NAMES, "ours", None), own)
    assert caught.value.key == "box_unreadable"
    assert "board.json" in caught.value.message and "JSON" in caught.value.message
    assert store.games() == []
