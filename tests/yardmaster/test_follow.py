"""A real table of Yardmaster Express followed through the camera: still views of the trains
(as the camera reports them) compared with the game. The card the player to move lays is
taken and journaled; a card that breaks a rule, or a train that is not the game's, is a
problem buzzed once, and nothing counts until it is fixed; CONFIRM acknowledges, holding it
takes the last card back. The LED and buzzer are gpiozero's mock pins through hw.controls."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games.protocol import Refusal, Setting, Start
from companion.games.said import Said
from companion.games.yardmaster import bots, record
from companion.games.yardmaster.commands import NextGame, Press, Seen
from companion.games.yardmaster.follow import TrainSeen, compare
from companion.games.yardmaster.record import GAME_ID
from companion.store import Store
from companion.table import Table
from tests.playing import Outputs

NAMES = ("Ana", "Ben", "Cleo")
# Where each player's engine lies: Ana at the bottom, Ben on the left, Cleo at the top.
ENGINES = {"Ana": (200.0, 560.0), "Ben": (90.0, 200.0), "Cleo": (600.0, 80.0)}


@pytest.fixture
def table(tmp_path: Path):
    store = Store(tmp_path / "table.sqlite3")
    outputs = Outputs()
    table = Table(store, Setting(provisional=True, camera=object(), outputs=outputs))
    table.start(GAME_ID, Start(NAMES, "yardmaster-express", seed=2))
    table.outputs = outputs  # type: ignore[attr-defined]
    yield table
    store.close()


def trains(**cards: tuple[str, ...]) -> tuple[TrainSeen, ...]:
    """A still view: every player's engine, with the cards given after it."""
    return tuple(TrainSeen(ENGINES[name], tuple(cards.get(name, ()))) for name in NAMES)


def see(table: Table, view: tuple[TrainSeen, ...]) -> dict:
    table.handle(Seen(view))
    return table.view("en")["session"]


def played(table: Table) -> list[list[str]]:
    return [p["train"] for p in record.replay_json(table.record()[2])["players"]]


def test_the_card_laid_by_the_player_to_move_is_taken_and_acknowledged(table: Table) -> None:
    session = see(table, trains())
    assert session["mover"] == "Ana" and session["problem"] is None
    session = see(table, trains(Ana=("R1-R1",)))
    assert session["last"] == {"name": "Ana", "card": "R1-R1", "said": "red 1 · red 1"}
    assert session["awaiting"] == "confirm" and session["mover"] == "Ben"
    assert table.outputs.led[-1] == "needs-confirmation"
    table.handle(Press("confirm"))
    assert table.view("en")["session"]["awaiting"] == "card"
    assert table.outputs.led[-1] == "waiting"
    with pytest.raises(Refusal) as caught:
        table.handle(Press("confirm"))
    assert caught.value.key == "nothing_to_confirm"
    # Ben lays his card turned (B3-Y2 lies as Y2-B3), Cleo hers face down
    see(table, trains(Ana=("R1-R1",), Ben=("Y2-B3",)))
    see(table, trains(Ana=("R1-R1",), Ben=("Y2-B3",), Cleo=("W",)))
    assert played(table) == [["E", "R1-R1"], ["E", "Y2-B3"], ["E", "W"]]
    turns = table.record()[2]["turns"]
    assert turns[1] == {"add": "B3-Y2", "turned": True} and turns[2]["add"] == "W"
    assert table.outputs.buzzes == 0


def test_Y5_a_card_that_does_not_join_is_buzzed_and_nothing_counts_until_fixed(table) -> None:
    see(table, trains(Ana=("R1-R1",)))
    see(table, trains(Ana=("R1-R1",), Ben=("B2-B3",)))
    see(table, trains(Ana=("R1-R1",), Ben=("B2-B3",), Cleo=("Y1-Y1",)))
    before = table.record()
    # Ana's R1-R1 ends in a red 1: B3-Y2 (a blue 3 on its left) joins neither way
    session = see(table, trains(Ana=("R1-R1", "B3-Y2"), Ben=("B2-B3",), Cleo=("Y1-Y1",)))
    assert session["problem"]["key"] == "no_join"
    assert session["problem"]["params"] == {"card": "B3-Y2", "last": "R1-R1"}
    assert table.record() == before and table.outputs.buzzes == 1
    assert table.outputs.led[-1] == "error"
    # the same view again is the same problem: buzzed once
    see(table, trains(Ana=("R1-R1", "B3-Y2"), Ben=("B2-B3",), Cleo=("Y1-Y1",)))
    assert table.outputs.buzzes == 1
    # fixed: the card is taken away, then a card that joins (R4-R2: red) is laid
    assert see(table, trains(Ana=("R1-R1",), Ben=("B2-B3",), Cleo=("Y1-Y1",)))["problem"] is None
    see(table, trains(Ana=("R1-R1", "R4-R2"), Ben=("B2-B3",), Cleo=("Y1-Y1",)))
    assert played(table)[0] == ["E", "R1-R1", "R4-R2"]


def test_a_card_in_another_players_train_is_a_problem(table: Table) -> None:
    see(table, trains(Ana=("R1-R1",)))  # Ana's train is learnt; Ben is to move
    session = see(table, trains(Ana=("R1-R1", "R4-R2")))
    assert session["problem"]["key"] == "train_longer"
    assert session["problem"]["params"]["name"] == "Ana"
    assert len(table.record()[2]["turns"]) == 1


def test_holding_confirm_takes_the_last_card_back_until_it_leaves_the_table(table) -> None:
    see(table, trains(Ana=("R1-R1",)))
    table.handle(Press("undo"))
    assert table.record()[2]["turns"] == []
    # the card still lies there: it is not taken again
    session = see(table, trains(Ana=("R1-R1",)))
    assert session["waiting"]["key"] == "take_back" and session["mover"] == "Ana"
    see(table, trains())
    session = see(table, trains(Ana=("G2-R1",)))
    assert session["last"] == {"name": "Ana", "card": "G2-R1", "said": "green 2 · red 1"}


def test_the_camera_waits_for_every_engine_and_for_a_card_it_is_not_sure_of(table) -> None:
    view = trains()[:2]
    assert see(table, view)["waiting"]["key"] == "lay_engines"
    session = see(table, (*trains()[:2], TrainSeen(ENGINES["Cleo"], ())))
    assert session["waiting"] is None
    unsure = (TrainSeen(ENGINES["Ana"], (None,)), *trains()[1:])
    assert see(table, unsure)["waiting"]["key"] in {"camera_unsure"}
    assert table.record()[2]["turns"] == []


def test_a_train_is_known_by_its_cards_when_its_engine_moved() -> None:
    """compare() alone: a restarted service knows nothing of where engines lie."""
    game = [["E", "R1-R1"], ["E", "B2-B3"], ["E"]]
    seen = (
        TrainSeen((600.0, 80.0), ()),
        TrainSeen((100.0, 100.0), ("B2-B3",)),
        TrainSeen((300.0, 500.0), ("R1-R1", "R4-R2")),
    )
    reading = compare(NAMES, game, 0, seen, (None, None, None))
    assert reading.added == "R4-R2" and reading.problem is None
    assert reading.owners == ((300.0, 500.0), (100.0, 100.0), None)
    # a Said is what a page says: its key and parameters for the other language
    assert Said("k", "text", (("a", 1),)).as_json() == {
        "key": "k",
        "params": {"a": 1},
        "text": "text",
    }


def test_Y11_the_second_game_learns_whose_train_is_whose_anew(tmp_path: Path) -> None:
    """The strategic variant's second game seats the players in another order (Y-11): the
    trains the camera learnt in the first game say nothing of the second."""
    store = Store(tmp_path / "table.sqlite3")
    table = Table(store, Setting(provisional=True, camera=object()))
    table.start(GAME_ID, Start(NAMES, "yardmaster-express", "strategic", seed=2))
    rng = random.Random(0)
    laid: dict[str, list[str]] = {name: [] for name in NAMES}
    while not (yard := table.match.hint().yard).over:  # the first game, seen card by card
        add = bots.choose(yard, "value", rng)
        laid[yard.players[yard.to_move]].append(add.laid)
        see(table, trains(**{name: tuple(cards) for name, cards in laid.items()}))
        table.handle(Press("confirm"))
    assert len(table.record()[2]["turns"]) == 18
    table.handle(NextGame())
    first = table.match.hint().yard.players[0]
    assert first != NAMES[0]  # another seat starts: seat 0 is someone else now
    see(table, trains())  # the cards gathered, the engines laid again
    session = see(table, trains(**{first: ("R1-R1",)}))
    assert session["last"] == {"name": first, "card": "R1-R1", "said": "red 1 · red 1"}
    assert session["problem"] is None
    store.close()


def test_a_card_the_camera_no_longer_sees_is_waited_for_not_buzzed(table: Table) -> None:
    """A hand resting on the end of a train hides its last card: the camera cannot tell that
    from a card taken away, so it says so and waits, without the buzzer."""
    see(table, trains(Ana=("R1-R1",)))
    session = see(table, trains())
    assert session["waiting"]["key"] == "train_shorter" and session["problem"] is None
    assert table.outputs.buzzes == 0 and len(table.record()[2]["turns"]) == 1
    assert see(table, trains(Ana=("R1-R1",)))["waiting"] is None
