"""The camera as the application asks the registry for it (`Game.camera.watcher`,
`CameraSetup`): `companion run` hands the game its configured camera and the edition to
look for, and the game's watcher then looks for the cards the game at the table is played
with (its hint), so the application names no game."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import synthetic
from companion.app.run import main
from companion.games import default, game, games
from companion.games.caboose.tracker import CameraHint
from companion.games.caboose.vision.enrolment import PipLesson
from companion.games.protocol import CameraSetup
from companion.games.yardmaster.vision.eval_printed import teach_stand_in
from companion.hardware import FRAME_SIZE
from companion.vision.table import TableLayout
from tests.web.test_pips_teach import die_showing

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


def run_with(tmp_path: Path, catalogue: Path) -> int:
    """`companion run` for one frame at a table whose enrolled folder is `catalogue`."""
    config = tmp_path / "companion.toml"
    config.write_text(
        f"[camera]\nsource = 'synthetic:3'\n[table]\ncatalogue = '{catalogue}'\n"
        f"[gpio]\npin_factory = 'mock'\n[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    return main(config, frames=1, serve=False)


def test_an_enrolled_deck_that_cannot_be_read_stops_run_naming_the_key(
    tmp_path: Path, capsys
) -> None:
    (tmp_path / "deck").mkdir()
    (tmp_path / "deck" / "catalogue.json").write_text('{"format": "caboose-catalogue/1", ')
    assert run_with(tmp_path, tmp_path / "deck") == 2
    said = capsys.readouterr().err
    assert "table.catalogue" in said and "Traceback" not in said


def test_a_catalogue_folder_still_empty_starts_run_with_our_pieces_read(
    tmp_path: Path, caplog
) -> None:
    """The setup page teaches a box into the configured folder, so the family names it
    before anything is in it: the service starts, reads our printed cards meanwhile, and
    the log says why."""
    (tmp_path / "deck").mkdir()
    assert run_with(tmp_path, tmp_path / "deck") == 0
    assert "is empty: every game reads its printed pieces" in caplog.text
    setup = CameraSetup(TableLayout(), FRAME_SIZE, catalogue=tmp_path / "deck")
    assert default().camera.watcher(setup, "loose-caboose").reader.vision.catalogue is None


def test_a_box_taught_for_another_game_starts_run_with_our_cards_read(
    tmp_path: Path, capsys
) -> None:
    """One folder is named for the whole table: a family that taught its Yardmaster box
    (README) starts the service, and the Caboose design's camera reads our printed cards."""
    deck, pictures = teach_stand_in()
    deck.save(pictures, tmp_path / "yardmaster-box")
    assert run_with(tmp_path, tmp_path / "yardmaster-box") == 0, capsys.readouterr().err
    setup = CameraSetup(TableLayout(), FRAME_SIZE, catalogue=tmp_path / "yardmaster-box")
    camera = default().camera.watcher(setup, "loose-caboose")
    assert camera.reader.vision.catalogue is None  # ours, not the other game's


@pytest.mark.parametrize("game_id", [g for g in games() if game(g).camera is not None])
def test_every_game_s_watcher_reads_a_frame_in_which_nothing_moved_as_the_same_picture(
    game_id: str,
) -> None:
    """A still table's next frame (fresh sensor noise, compressed again) is not read again:
    the watcher takes it as the same picture (what it read stands), for a fraction of a
    reading's cost; a frame in which something moved is read."""
    played = game(game_id)
    scene = played.camera.scene(4)
    frame = synthetic.render(scene, 4, synthetic.Camera.hard())
    watcher = played.camera.watcher(CameraSetup(scene.layout, FRAME_SIZE), played.options[0].id)
    watcher.see(frame, None)
    read = watcher.last  # every game's watcher keeps what it read of the last frame read
    assert read is not None
    noisy = cv2.add(frame, np.random.default_rng(2).normal(0, 3.0, frame.shape), dtype=cv2.CV_8U)
    _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])
    watcher.see(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), None)
    assert watcher.last is read
    watcher.see(synthetic.render(played.camera.scene(5), 4, synthetic.Camera.hard()), None)
    assert watcher.last is not read


def test_pip_dice_taught_while_the_companion_runs_are_read_from_the_next_frame(
    tmp_path: Path,
) -> None:
    """The setup page teaches the family's own pip dice into the table's folder while the
    service runs: the Caboose camera reads them from the next frame on, with no restart;
    a damaged file then leaves them read as they were."""
    folder = tmp_path / "box"
    folder.mkdir()
    setup = CameraSetup(TableLayout(), FRAME_SIZE, catalogue=folder)
    camera = default().camera.watcher(setup, "rollecate")
    frame = die_showing(1)
    camera.see(frame, None)
    assert camera.reader.vision.pips is None
    lesson = PipLesson()
    learnt = {pips: lesson.learn(die_showing(pips), TableLayout())[0] for pips in range(1, 7)}
    lesson.save(learnt, folder)
    camera.see(frame, None)
    taught = camera.reader.vision.pips
    assert taught is not None and sorted(d.pips for d in taught.dice) == [1, 2, 3, 4, 5, 6]
    (folder / "pips.json").write_text("{ damaged")
    camera.see(frame, None)
    assert camera.reader.vision.pips is taught
