"""`companion history` (issue 31): the games played at a table, listed from its store in a
terminal, newest first, in words; a store that is not there, or is not a store, is one line
and exit status 2, and nothing is made."""

from __future__ import annotations

import json

import pytest

from companion.app import cli
from companion.games.caboose.commands import Act
from companion.games.caboose.rules.state import Pass
from companion.store import Store
from companion.table import Table
from tests.web.test_games_api import last_turn


def test_the_games_of_a_table_are_listed_newest_first(tmp_path, capsys):
    path = tmp_path / "table.sqlite3"
    assert cli.main(["history", "--db", str(path)]) == 2
    assert "no table's store" in capsys.readouterr().err and not path.exists()
    table = Table(Store(path))
    doc, _ = last_turn("caboose")
    table.load(doc)
    table.handle(Act(table.match.snap.state.to_move, Pass()))
    table.load(doc | {"players": ["Cleo", "Dani"]})  # the game left for a new one
    table.load(doc | {"players": ["Eva", "Fede"]})
    table.store.close()
    assert cli.main(["history", "--db", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["game 2", "game 1"]
    assert "Loose Caboose" in lines[1] and "finished after 16 turns" in lines[1]
    assert "(won)" in lines[1] and lines[1].endswith("penalty points")
    assert "abandoned" in lines[0] and "(won)" not in lines[0]
    assert cli.main(["history", "--db", str(path), "--count", "1", "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["id"] == 2 and [p["name"] for p in entry["players"]] == ["Cleo", "Dani"]


def test_a_file_that_is_no_store_and_a_bad_count_are_one_line_and_exit_2(tmp_path, capsys):
    other = tmp_path / "notes.sqlite3"
    other.write_text("not a database, a shopping list")
    assert cli.main(["history", "--db", str(other)]) == 2
    said = capsys.readouterr().err
    assert said.startswith("companion history: ") and len(said.splitlines()) == 1
    with pytest.raises(SystemExit) as stopped:
        cli.main(["history", "--db", str(other), "--count", "0"])
    assert stopped.value.code == 2
    assert "from 1 to 1000" in capsys.readouterr().err
