"""Yardmaster Express played at the table through its one writer (companion.table.Table) and
a real store: every card checked by its rule (Y-…) before it is kept, a refusal changing
nothing, undo, a restart back on the same turn, a record imported, the strategic variant's
second game, and a real table's hand-shuffled deck (a provisional deal)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games import game
from companion.games.protocol import Malformed, RecordProblem, Refusal, Setting, Start
from companion.games.yardmaster import bots, record, rules, simulate
from companion.games.yardmaster.commands import AddCard, NextGame, Undo, parse
from companion.games.yardmaster.edition import load
from companion.games.yardmaster.match import fold
from companion.games.yardmaster.record import GAME_ID
from companion.store import Store
from companion.table import Table

NAMES = ("Ana", "Ben", "Cleo")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "table.sqlite3")
    yield store
    store.close()


def dealt(store: Store, variant: str | None = None, provisional: bool = False) -> Table:
    table = Table(store, Setting(provisional=provisional))
    table.start(GAME_ID, Start(NAMES, "yardmaster-express", variant, seed=11))
    return table


def yard(table: Table) -> rules.Yard:
    return table.match.hint().yard


def refused(table: Table, command: object) -> Refusal:
    before, version = table.record(), table.version
    with pytest.raises(Refusal) as caught:
        table.handle(command)
    assert table.record() == before and table.version == version  # nothing changed
    return caught.value


def add(table: Table, card: str, turned: bool = False, face_down: bool = False) -> None:
    now = yard(table)
    table.handle(AddCard(now.to_move, card, now.turns, turned, face_down))


def play_out(table: Table, seed: int = 0) -> None:
    """Bots add every remaining card, through the table as the page would."""
    rng = random.Random(seed)
    while not yard(table).over:
        now = yard(table)
        choice = bots.choose(now, "run", rng)
        table.handle(AddCard(now.to_move, choice.card, now.turns, choice.turned, choice.face_down))


def test_a_dealt_game_follows_the_rules_deal(store: Store) -> None:
    table = dealt(store)
    expected = rules.deal(load(), NAMES, 11)
    assert yard(table) == expected
    doc = table.record()[2]
    assert doc["format"] == "yardmaster-record/1" and doc["turns"] == []
    assert doc["setup"] == {"hand": list(expected.hand), "draw": list(expected.draw)}


def test_Y6_only_the_mover_adds_and_only_from_the_hand(store: Store) -> None:
    table = dealt(store)
    now = yard(table)
    card = now.in_hand[0]
    other = (now.to_move + 1) % 3
    refusal = refused(table, AddCard(other, card, 0, face_down=True))
    assert (refusal.rule, refusal.key) == ("Y-6", "not_your_turn")
    assert refusal.params == {"name": now.players[now.to_move]}
    outside = next(c for c in load().deck if c not in now.in_hand)
    refusal = refused(table, AddCard(now.to_move, outside, 0, face_down=True))
    assert (refusal.rule, refusal.key) == ("Y-6", "not_in_hand")
    assert refusal.params["card"] == outside


def test_Y5_a_card_that_does_not_join_is_refused_and_the_train_unchanged(store: Store) -> None:
    table = dealt(store)
    # Put a card in the mover's train, then find a card in the next hand that does not join.
    for _ in range(60):
        now = yard(table)
        last = now.trains[now.to_move][-1]
        bad = [c for c in now.in_hand if not rules.joins(last, c)]
        if bad:
            refusal = refused(table, AddCard(now.to_move, bad[0], now.turns))
            assert (refusal.rule, refusal.key) == ("Y-5", "no_join")
            assert refusal.params == {"card": bad[0], "last": last}
            return
        add(table, now.in_hand[0])
    pytest.fail("no hand ever held a card that does not join")


def test_a_tap_on_a_table_that_moved_on_is_refused(store: Store) -> None:
    table = dealt(store)
    now = yard(table)
    add(table, now.in_hand[0], face_down=True)
    now = yard(table)
    refusal = refused(table, AddCard(now.to_move, now.in_hand[0], 0, face_down=True))
    assert refusal.rule == "stale" and refusal.conflict
    assert refused(table, Undo(0)).key == "stale"


def test_undo_takes_back_the_last_card_and_the_log_keeps_it(store: Store) -> None:
    table = dealt(store)
    assert refused(table, Undo(0)).key == "nothing_to_undo"
    first = yard(table)
    add(table, first.in_hand[1], face_down=True)
    table.handle(Undo(1))
    assert yard(table) == first
    assert table.match.hint().undone == ((1, rules.Add(first.in_hand[1], face_down=True)),)
    assert table.record()[2]["turns"] == []


def test_a_restarted_table_is_back_on_the_same_card(store: Store) -> None:
    table = dealt(store)
    for _ in range(4):
        add(table, yard(table).in_hand[0], face_down=True)
    table.handle(Undo(4))
    add(table, yard(table).in_hand[-1], face_down=True)
    again = Table(store, Setting())
    assert again.game.id == GAME_ID
    assert again.record() == table.record()
    assert again.match.hint().undone == table.match.hint().undone


def test_a_whole_game_at_the_table_replays_to_its_scores(store: Store) -> None:
    table = dealt(store, "caboose")
    play_out(table)
    assert table.match.over
    assert store.current() is None  # finished in the store: a restart does not resume it
    doc = table.record()[2]
    assert doc["caboose"] is not None
    summed = record.replay_json(doc)
    assert summed["over"] and len(summed["winners"]) == 1
    assert summed == record.summary(yard(table))
    assert refused(table, AddCard(0, doc["setup"]["draw"][-1], len(doc["turns"]))).rule in {
        "Y-6",
        "Y-7",
        "stale",
    }


def test_Y11_the_strategic_variant_deals_a_second_game_carrying_the_first(store: Store) -> None:
    table = dealt(store, "strategic")
    assert refused(table, NextGame()).key == "no_second_game"
    play_out(table)
    first = yard(table)
    assert not table.match.over  # the second game is still to be played
    assert store.current() == table.record()[1]  # and a restart comes back to it
    points = {s.name: s.score for s in rules.score(first)}
    first_number = table.record()[1]
    table.handle(NextGame())
    second = yard(table)
    assert second.players == tuple(
        rules.second_game_order(first.players, [points[n] for n in first.players])
    )
    assert second.carried == tuple(points[n] for n in second.players)
    _, number, doc = table.record()
    assert number != first_number and doc["variant"] == "strategic-2"
    assert doc["carried"] == list(second.carried)
    play_out(table, 1)
    assert table.match.over
    totals = {p["name"]: p["score"] for p in record.replay_json(table.record()[2])["players"]}
    finals = {s.name: s.score for s in rules.score(yard(table))}
    assert totals == finals and all(totals[n] >= points[n] for n in NAMES)


def test_an_imported_record_is_continued_and_a_bad_one_refused(store: Store) -> None:
    game = simulate.play(load(), ["run", "value", "run"], 5)[0]
    doc = game.doc | {"turns": game.doc["turns"][:7]}
    table = Table(store, Setting())
    table.load(doc)
    assert table.game.id == GAME_ID and yard(table).turns == 7
    assert table.record()[2] == doc
    broken = doc | {"turns": [*doc["turns"][:3], {"add": "Z9-Z9"}]}
    with pytest.raises(RecordProblem) as caught:
        table.load(broken)
    assert caught.value.turn == 4
    assert table.record()[2] == doc  # the game in progress is as it was


def test_players_and_options_a_game_cannot_have_are_refused(store: Store) -> None:
    table = Table(store, Setting())
    start = Start(("Ana",), "yardmaster-express")
    with pytest.raises(Refusal) as caught:
        table.start(GAME_ID, start)
    assert (caught.value.key, caught.value.params) == (
        "players_count",
        {"n": 1, "least": 2, "most": 5},
    )
    with pytest.raises(Refusal) as caught:
        table.start(GAME_ID, Start(NAMES, "yardmaster-express", "turbo"))
    assert caught.value.key == "no_variant"
    with pytest.raises(Refusal) as caught:
        table.start(GAME_ID, Start(NAMES, "loose-caboose"))
    assert caught.value.key == "no_edition"
    with pytest.raises(Refusal) as caught:
        table.start(GAME_ID, Start(("Ana", "Ana"), "yardmaster-express"))
    assert caught.value.key == "same_names"
    assert store.current_game() is None


@pytest.mark.parametrize(
    ("route", "body", "key"),
    [
        ("add", {"seat": 0, "card": "R3-B2"}, "missing_fields"),
        ("add", {"seat": 0, "turn": 0}, "missing_fields"),
        ("add", {"seat": -1, "card": "R3-B2", "turn": 0}, "bad_seat"),
        ("add", {"seat": 0, "card": "R3", "turn": 0}, "bad_card"),
        ("add", {"seat": 0, "card": "R3-B2", "turn": 0, "turned": "yes"}, "bad_flag"),
        ("add", {"seat": 0, "card": "R3-B2", "turn": 0, "colour": "red"}, "unknown_fields"),
        ("undo", {}, "missing_fields"),
        ("next", {"now": True}, "unknown_fields"),
    ],
)
def test_a_request_of_the_wrong_shape_is_refused_before_the_game(route, body, key) -> None:
    with pytest.raises(Malformed) as caught:
        parse(route, body)
    assert caught.value.key == key


def test_a_real_tables_game_is_checked_from_the_cards_seen(store: Store) -> None:
    """At a real table the deck is shuffled by hand: the companion does not know the hand,
    sees face-down cards as nothing but face down, and still refuses a card seen twice and
    a card that does not join; its record replays to the same trains."""
    table = dealt(store, provisional=True)
    assert yard(table).players == NAMES  # the start player is named first
    add(table, "R1-R1")
    table.handle(AddCard(1, None, 1, face_down=True))
    add(table, "B3-Y2", turned=True)  # lies as Y2-B3
    refusal = refused(table, AddCard(0, "R1-R1", 3))
    assert (refusal.rule, refusal.key) == ("Y-1", "card_twice")
    # Ana's train ends R1 on the right: a card whose left railcar is neither red nor a 1
    refusal = refused(table, AddCard(0, "B2-B3", 3))
    assert (refusal.rule, refusal.key) == ("Y-5", "no_join")
    add(table, "R4-R2")
    doc = table.record()[2]
    trains = [p["train"] for p in record.replay_json(doc)["players"]]
    assert trains == [["E", "R1-R1", "R4-R2"], ["E", "W"], ["E", "Y2-B3"]]
    table.handle(Undo(4))
    again = Table(store, Setting(provisional=True))
    assert [list(t) for t in yard(again).trains] == [["E", "R1-R1"], ["E", "W"], ["E", "Y2-B3"]]
    assert again.record() == table.record()


def test_the_journal_keeps_what_older_stores_hold(store: Store) -> None:
    """A restart resumes from the store's journal, this version's or an older one's: its
    kinds and documents stay as they are (a card nobody saw is "W", an undo has no
    document)."""
    table = dealt(store, provisional=True)
    add(table, "R1-R1")
    table.handle(AddCard(1, None, 1, face_down=True))
    add(table, "B3-Y2", turned=True)
    table.handle(Undo(3))
    journal = [(entry.kind, entry.doc) for entry in store.kept(table.match.id).journal]
    assert journal == [
        ("setting", {"edition": "yardmaster-express", "variant": None, "provisional": True}),
        ("add", {"add": "R1-R1"}),
        ("add", {"add": "W"}),
        ("add", {"add": "B3-Y2", "turned": True}),
        ("undo", None),
    ]


def test_a_journal_entry_no_game_writes_is_named_when_the_game_is_resumed(store: Store) -> None:
    """A store edited by hand (or by a newer companion) holding an entry this one cannot
    read: the restart says which entry, after which card, rather than resuming another
    game."""
    table = dealt(store)
    add(table, yard(table).in_hand[0])
    store.append(table.match.id, "shuffle", {"seed": 3}, finished=False)
    with pytest.raises(RecordProblem) as caught:
        fold(store.kept(table.match.id))
    assert caught.value.turn == 2 and "shuffle" in caught.value.message


def test_a_sample_game_is_played_through_the_table(store: Store) -> None:
    """`companion serve --demo`'s game in progress, were this the default game."""
    table = Table(store, Setting())
    game("yardmaster-express").sample(table, 4, "look")
    doc = table.record()[2]
    assert len(doc["turns"]) == 4 and doc["caboose"] is not None
    assert record.replay_json(doc)["round"] == 2
