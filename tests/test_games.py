"""The registry: games are found by id and records by their format, and the command line
asks the registry, so `companion replay FILE` works for any game's record."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.games import for_record, game, games
from companion.games.caboose.record import record_of
from companion.games.caboose.rules.actions import legal_actions
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.rules.engine import apply, deal
from companion.games.caboose.rules.state import Pass, Play
from companion.games.lobby import before_any_game
from companion.games.protocol import RecordProblem, Refusal, Setting


def test_a_caboose_record_is_read_by_the_caboose_game():
    doc = record_of(deal("rollecate", ["Ana", "Ben"], seed=1)).as_json()
    assert for_record(doc) is game("caboose")


@pytest.mark.parametrize("bad", [{"format": "chess-pgn/1"}, {"edition": "rollecate"}])
def test_a_record_of_no_known_game_names_the_formats_the_companion_reads(bad):
    with pytest.raises(RecordProblem) as refused:
        for_record(bad)
    assert refused.value.turn == 0 and refused.value.rule == "record"
    assert all(g.record_format in refused.value.message for g in games().values())


def test_a_record_that_is_not_an_object_is_refused_as_such():
    with pytest.raises(RecordProblem, match="a record is a JSON object"):
        for_record(["caboose-record/1"])


def test_replay_refuses_a_record_of_another_format_in_one_line(tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "chess-pgn/1", "moves": []}))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "error in the record (record): the format must be 'caboose-record/1', "
        "'yardmaster-record/1' or 'switching-record/1', not 'chess-pgn/1'"
    ]


def test_the_caboose_options_are_the_edition_files():
    options = game("caboose").options
    assert [o.id for o in options] == ["loose-caboose", "rollecate", "loknroll"]
    for option in options:
        edition = load_edition(option.id)
        assert option.players == (edition.min_players, edition.max_players)
        assert [v.id for v in option.variants] == list(edition.variants)


def test_an_unknown_game_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["simulate", "--game", "chess"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "chess" in err and "caboose" in err


def test_simulate_with_the_game_named_plays_that_game(capsys):
    assert main(["simulate", "--game", "caboose", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_a_generic_reader_plays_a_game_through_its_rules_alone():
    """What a bot or an advisor of any game does: deal, list the legal actions, apply one;
    an illegal action is a protocol `Refusal` and changes nothing."""
    state = deal("rollecate", ("Ana", "Ben"), 3)
    listed = legal_actions(state)
    assert Pass() in listed and any(isinstance(a, Play) for a in listed)
    after, events = apply(state, Pass())
    assert after.to_move == 1 and events
    with pytest.raises(Refusal):
        apply(after, Play(("9",), ()))


@pytest.mark.parametrize("game_id", list(games()))
def test_before_any_game_a_table_has_nothing_to_draw_and_refuses_commands(game_id):
    lobby = before_any_game(game(game_id), Setting())
    assert lobby.view("en")["game"] is None and not lobby.over
    with pytest.raises(Refusal) as caught:
        lobby.handle(object())
    assert caught.value.key == "no_game_yet"


def test_each_game_reads_the_record_format_its_spec_names():
    """A record's format is a contract (spec/): the Caboose design's and the switching
    game's are their ids' (`Game.record_format`'s default), Yardmaster Express's its own."""
    assert {g.id: g.record_format for g in games().values()} == {
        "caboose": "caboose-record/1",
        "yardmaster-express": "yardmaster-record/1",
        "switching": "switching-record/1",
    }
