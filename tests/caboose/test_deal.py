"""A real table's deal is not known: the companion fixes a provisional one from what the
table shows, and ends with the same game as if it had known the deal all along."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from copy import deepcopy
from dataclasses import replace

import pytest

from companion.games.caboose.bots import POLICIES
from companion.games.caboose.deal import DealError, hold, lay_railway, replay, take
from companion.games.caboose.match import Match, load, start
from companion.games.caboose.record import Record, from_json, record_of, summary
from companion.games.caboose.refusals import TableError
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.state import TOOK, Pass, Play
from companion.games.caboose.simulate import play_game
from companion.games.caboose.snapshot import DEAL, TURN
from companion.games.protocol import Setting, Start
from companion.store import Store
from tests.tables import ROLLECATE_TWO

PROVISIONAL = Setting(provisional=True)  # a real table: its deal fixed from what it shows


def scrambled(record: Record, seed: int) -> Record:
    """The record's deal with every card nobody sees at the start (hands, draw pile)
    shuffled among those places: what a companion guesses of a hand-shuffled deck."""
    setup = deepcopy(record.setup)
    places = [(hand, i) for hand in setup["hands"] for i in range(len(hand))]
    places += [(setup["draw"], i) for i in range(len(setup["draw"]))]
    codes = [where[i] for where, i in places]
    random.Random(seed).shuffle(codes)
    for (where, i), code in zip(places, codes, strict=True):
        where[i] = code
    return replace(record, setup=setup, turns=[])


def every_card(record: Record) -> Counter[str]:
    setup = record.setup
    return Counter(setup["railway"] + setup["draw"] + [c for hand in setup["hands"] for c in hand])


@pytest.mark.parametrize(
    ("edition", "players"), [("loose-caboose", 3), ("rollecate", 4), ("loknroll", 3)]
)
@pytest.mark.parametrize("seed", ["a", "b"])
def test_a_guessed_deal_fixed_from_what_is_laid_ends_as_the_true_game(edition, players, seed):
    policies = [POLICIES["cautious"], POLICIES["greedy"]]
    truth = play_game(edition, [f"P{i}" for i in range(players)], seed, policies).record
    guess = scrambled(truth, 7)
    assert guess.setup != truth.setup
    _, true_shown = replay(truth)
    for turn, events in zip(truth.turns, true_shown, strict=True):
        state, _ = replay(guess)  # the cards laid are the first the table shows of a turn
        laid = [code.rstrip("!") for code in turn.get("play", turn.get("chaos", []))]
        fixed = hold(guess, state.to_move, laid, drawing=True)
        assert every_card(fixed) == every_card(truth)  # cards exchanged, none made up
        guess = replace(fixed, turns=[*fixed.turns, turn])
        # Loose Caboose: cards taken from the draw pile are shown once taken
        taken = [e.cards[0] for e in events if e.what == TOOK and e.detail["source"] == "draw"]
        if taken:
            guess = take(guess, taken)
    true_end, _ = replay(truth)
    shown: dict[int, tuple[str, ...]] = {}
    for seat, player in enumerate(true_end.seats):  # the hands shown at the end
        guess = hold(guess, seat, player.hand, drawing=False, keep=shown)
        shown[seat] = player.hand
    end, _ = replay(guess)
    assert sorted_hands(summary(end, [])) == sorted_hands(summary(true_end, []))
    assert guess.turns == truth.turns


def sorted_hands(doc: dict) -> dict:
    """A replay summary in which a hand is a set of cards: the order a player holds them
    in is not something the table shows."""
    return doc | {"players": [p | {"hand": sorted(p["hand"])} for p in doc["players"]]}


def test_a_card_laid_that_the_deal_gave_elsewhere_is_exchanged_with_an_unseen_one():
    record = from_json(ROLLECATE_TWO)  # Ana holds 1 C2 and draws 2
    fixed = hold(record, 0, ["4"], drawing=True)
    state, _ = replay(fixed)
    assert "4" in state.seats[0].hand + state.draw[:1]
    assert fixed.setup["railway"] == record.setup["railway"]  # the railway is in view
    assert every_card(fixed) == every_card(record)
    assert hold(record, 0, ["1"], drawing=True) == record  # she holds it: nothing changes


def test_no_unseen_card_can_be_one_the_deck_lacks_or_has_shown():
    record = from_json(ROLLECATE_TWO)
    with pytest.raises(DealError, match="no card nobody has seen can be 1x"):
        hold(record, 0, ["1x"], drawing=True)  # no broken 1 in this deal at all
    # The deal has three 4s and one lies on the railway, in plain view: two can be held.
    two = hold(record, 0, ["4", "4"], drawing=False)
    assert Counter(replay(two)[0].seats[0].hand)["4"] == 2
    with pytest.raises(DealError, match="every 4 of the deck is accounted for"):
        hold(record, 0, ["4", "4", "4"], drawing=False)


def test_a_shown_hand_is_kept_when_the_next_one_is_shown():
    record = from_json(ROLLECATE_TWO)
    first = hold(record, 0, ["3", "3"], drawing=False)
    second = hold(first, 1, ["1", "C2"], drawing=False, keep={0: ("3", "3")})
    state, _ = replay(second)
    assert sorted(state.seats[0].hand) == ["3", "3"]
    assert sorted(state.seats[1].hand) == ["1", "C2"]


def test_the_first_railway_is_laid_as_the_table_shows_it():
    record = from_json(ROLLECATE_TWO)
    fixed = lay_railway(record, ["2", "3", "1", "4"])
    assert fixed.setup["railway"] == ["2", "3", "1", "4"]
    assert every_card(fixed) == every_card(record)
    with pytest.raises(DealError, match="3 railway cards"):
        lay_railway(record, ["2", "3", "4"])


def test_a_provisional_table_fixes_its_deal_journals_it_and_resumes_it(tmp_path):
    path = tmp_path / "table.sqlite3"
    table = start(Store(path), Start(("Ana", "Ben"), "rollecate", seed=3), PROVISIONAL)
    state = table.snap.state
    unseen = Counter(state.draw[1:]) + Counter(state.seats[1].hand)
    held = Counter(state.player.hand + state.draw[:1])
    code = next(c for c in unseen if c not in held and not c.startswith("C"))
    try:
        table.stage(0, [code])
    except TableError as error:  # the railway may not take it: the deal is fixed anyway
        assert error.rule != "deal"
    fixed = table.snap
    assert code in fixed.state.player.hand + fixed.state.draw[:1]
    kinds = [entry.kind for entry in table.store.journal(fixed.id)]
    assert kinds == [DEAL]
    table.act(0, Pass())
    store = Store(path)  # a restart: the fixed deal stands
    again = Match.resume(store, store.current(), PROVISIONAL)
    assert again.snap.record == table.snap.record
    assert again.snap.state.turn == 1


def test_a_known_deal_is_never_changed(tmp_path):
    table = load(Store(tmp_path / "t.sqlite3"), ROLLECATE_TWO, Setting())
    with pytest.raises(TableError) as refused:
        table.act(0, Play(("4",), (1, 1, 1, 1)))
    assert refused.value.rule == "hand"
    with pytest.raises(TableError, match="knows its deal"):
        table.lay_first_railway(["2", "3", "1", "4"])


def test_hands_shown_at_the_end_count_and_are_checked(tmp_path):
    state = deal("rollecate", ["Ana", "Ben"], 5)
    record = replace(record_of(state), turns=[])
    table = load(Store(tmp_path / "t.sqlite3"), record.as_json(), PROVISIONAL)
    with pytest.raises(TableError, match="once the game is over"):
        table.show_hand(0, list(state.seats[0].hand))
    while not table.snap.state.over:
        table.act(table.snap.state.to_move, Pass())
    end = table.snap.state
    ben = list(end.seats[1].hand)
    with pytest.raises(TableError, match="show every card"):
        table.show_hand(1, ben[:-1])
    table.show_hand(1, ben)
    assert table.snap.shown == {1: tuple(ben)}


def test_a_store_from_before_deal_entries_takes_them(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT NOT NULL DEFAULT
            (datetime('now')), record TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE journal (game INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('turn', 'undo', 'correct')),
            turn TEXT, note TEXT, at TEXT NOT NULL DEFAULT (datetime('now')),
            PRIMARY KEY (game, seq));
        INSERT INTO games (record) VALUES ('{"format": "caboose-record/1"}');
        INSERT INTO journal (game, seq, kind, turn) VALUES (1, 1, 'turn', '{"pass": true}');
        """
    )
    old.close()
    store = Store(path)
    store.append(1, DEAL, {"setup": {"railway": ["1"]}, "shown": {}}, finished=False)
    assert [entry.kind for entry in store.journal(1)] == [TURN, DEAL]


def test_loose_caboose_cards_taken_from_the_draw_pile_are_shown_then_counted(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    table = start(store, Start(("Ana", "Ben"), "loose-caboose", seed=4), PROVISIONAL)
    while table.snap.to_show is None:  # passes eat the railway behind the caboose
        assert not table.snap.state.over
        table.act(table.snap.state.to_move, Pass())
    what, seat, count = table.snap.to_show
    assert (what, count) == ("taken", 1)
    game = table.snap
    took = next(e.cards[0] for e in game.events[-1] if e.what == TOOK)
    unseen = Counter(game.state.draw) + sum((Counter(p.hand) for p in game.state.seats), Counter())
    other = next(code for code in unseen if code != took)
    with pytest.raises(TableError, match="1 cards from the draw pile, not 2"):
        table.show_taken([other, other])
    table.show_taken([other])
    player = table.snap.state.seats[seat]
    assert other in player.pile + player.banked and table.snap.to_show is None


def test_the_page_of_a_provisional_table_shows_no_guessed_hand(tmp_path):
    from companion.games.caboose.view import build, hand

    store = Store(tmp_path / "t.sqlite3")
    table = start(store, Start(("Ana", "Ben"), "rollecate", seed=3), PROVISIONAL)
    assert build(table.snapshot())["choices"]["provisional"]
    assert hand(table.snapshot()) is None
    known = start(
        Store(tmp_path / "k.sqlite3"), Start(("Ana", "Ben"), "rollecate", seed=3), Setting()
    )
    assert hand(known.snapshot())["hand"]


def test_lauras_card_turned_up_is_learnt_before_she_acts(tmp_path):
    """LOK'n'ROLL solo against Laura: her card comes from the draw pile, face up. On a
    provisional deal the table learns it, and the rules then decide what she does."""
    store = Store(tmp_path / "t.sqlite3")
    table = start(store, Start(("Ana",), "loknroll", "solo-laura", seed=1), PROVISIONAL)
    state = table.snap.state
    assert state.player.laura
    other = next(c for c in state.draw[1:] if c != state.draw[0])
    table.reveal(state.to_move, [other])
    assert table.snap.state.draw[0] == other
    with pytest.raises(TableError, match="not Ana's"):
        table.reveal(1 - state.to_move, [other])
    known = start(
        Store(tmp_path / "k.sqlite3"), Start(("Ana",), "loknroll", "solo-laura", seed=1), Setting()
    )
    top = known.snap.state.draw[0]
    known.reveal(known.snap.state.to_move, [top])  # agrees: nothing to fix
    with pytest.raises(TableError, match="not what this player holds"):
        known.reveal(known.snap.state.to_move, [other if other != top else "4x/s"])
