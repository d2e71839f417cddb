"""The camera as the application asks the registry for it (`Game.camera.watcher`,
`CameraSetup`): `companion run` hands the game its configured camera and the edition to
look for, and the game's watcher then looks for the cards the game at the table is played
with (its hint), so the application names no game."""

from __future__ import annotations

from pathlib import Path

from companion.app.run import main
from companion.games import default
from companion.games.caboose.tracker import CameraHint
from companion.games.protocol import CameraSetup
from companion.hardware import FRAME_SIZE
from companion.vision.table import TableLayout

SETUP = CameraSetup(TableLayout(), FRAME_SIZE, still_frames=1)


def test_the_watcher_looks_for_the_cards_the_game_at_the_table_is_played_with() -> None:
    camera = default().camera.watcher(SETUP, "rollecate")
    rollecate = camera.reader.vision.card_mm
    kept = camera.reader
    camera.see(None, None)  # before any game: the configured edition's cards
    camera.see(None, CameraHint(card_mm=rollecate))  # the same cards: the same tracker
    assert camera.reader is kept
    bigger = (rollecate[0] + 20.0, rollecate[1] + 20.0)
    camera.see(None, CameraHint(card_mm=bigger))  # an edition of other cards
    assert camera.reader.vision.card_mm == bigger
    assert camera.reader.vision.frame_size == FRAME_SIZE


def test_an_enrolled_deck_that_cannot_be_read_stops_run_naming_the_key(
    tmp_path: Path, capsys
) -> None:
    (tmp_path / "deck").mkdir()  # a folder with no catalogue in it
    config = tmp_path / "companion.toml"
    config.write_text(
        f"[camera]\nsource = 'synthetic:3'\n[table]\ncatalogue = '{tmp_path / 'deck'}'\n"
        f"[gpio]\npin_factory = 'mock'\n[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    assert main(config, frames=1, serve=False) == 2
    said = capsys.readouterr().err
    assert "table.catalogue" in said and "Traceback" not in said
