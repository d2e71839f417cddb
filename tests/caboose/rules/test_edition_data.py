"""R-9: the edition files are the editions. A file dropped into the
game's `editions/` is a new
edition in the menus, its variants say who plays them and when they are lost, and its default
face map for standard pip dice is read from it, so a table corrects a file, not the code."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from companion.app.cli import build_parser
from companion.games.caboose.rules import dice
from companion.games.caboose.rules.edition import EDITIONS, discover, load, variant_ids
from companion.games.caboose.rules.engine import apply
from companion.games.caboose.rules.state import LOST, Play

PACKAGED = Path(str(resources.files("companion.games.caboose").joinpath("editions")))


@pytest.fixture
def editions_folder(tmp_path: Path) -> Path:
    """A copy of the packaged edition files that a test may add to or correct."""
    folder = tmp_path / "editions"
    shutil.copytree(PACKAGED, folder)
    return folder


def _write(folder: Path, doc: dict) -> None:
    (folder / f"{doc['id']}.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")


def test_the_menus_list_the_editions_in_the_order_their_files_give():
    assert EDITIONS == ("loose-caboose", "rollecate", "loknroll")
    simulate = build_parser().parse_args(["simulate", "--edition", "loknroll"])
    assert simulate.edition == "loknroll"


def test_a_file_dropped_into_the_editions_folder_is_a_new_edition(editions_folder):
    doc = json.loads((editions_folder / "rollecate.json").read_text(encoding="utf-8"))
    _write(editions_folder, {**doc, "id": "rollecate-junior", "name": "Junior", "order": 2.5})
    found = discover(editions_folder)
    assert list(found) == ["loose-caboose", "rollecate", "rollecate-junior", "loknroll"]
    assert found["rollecate-junior"].name == "Junior"
    assert found["rollecate-junior"].deck == load("rollecate").deck


def test_a_file_that_misses_a_fact_is_named_at_start(editions_folder):
    doc = json.loads((editions_folder / "rollecate.json").read_text(encoding="utf-8"))
    del doc["order"]
    _write(editions_folder, doc)
    with pytest.raises(ValueError, match=r"rollecate\.json .*'order'"):
        discover(editions_folder)


def test_a_file_must_be_named_after_its_edition(editions_folder):
    doc = json.loads((editions_folder / "rollecate.json").read_text(encoding="utf-8"))
    (editions_folder / "copy.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match=r"copy\.json describes edition 'rollecate'"):
        discover(editions_folder)


def test_the_variants_and_their_facts_come_from_loknrolls_file():
    variants = load("loknroll").variants
    assert list(variants) == ["solo", "solo-hard", "solo-laura"]
    assert all(v.players == 1 for v in variants.values())
    assert variants["solo-hard"].loses_at_derailment == 4
    assert variants["solo-laura"].rival == "Laura"
    assert not load("rollecate").variants and not load("loose-caboose").variants
    assert variant_ids() == ("solo", "solo-hard", "solo-laura")


def test_a_corrected_derailment_limit_decides_when_hard_solo_is_lost(make_table):
    """The engine's rules read the limit from the variant: a file saying the 2nd derailment
    loses makes the 2nd one lose the game."""
    state = make_table(
        "loknroll", ["1", "2", "1", "1"], 3, [["2"]], ["2"] * 10, names=["Ana"], variant="solo-hard"
    )
    hard = load("loknroll").variants["solo-hard"]
    edition = replace(state.edition, variants={"solo-hard": replace(hard, loses_at_derailment=2)})
    state = replace(state, edition=edition)
    state, _ = apply(state, Play(("2",), (1, 1)))
    assert state.seats[0].derailments == 1 and not state.over
    state, events = apply(state, Play(("2",), (1, 1)))
    assert state.over and state.lost and any(e.what == LOST for e in events)


def test_the_default_face_map_is_the_edition_files(editions_folder):
    assert dice.face_map_for(load("loose-caboose")) == {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2}
    assert any(a.startswith("dice.pip_face_map:") for a in load("loose-caboose").assumptions)
    doc = json.loads((editions_folder / "rollecate.json").read_text(encoding="utf-8"))
    doc["dice"]["pip_face_map"] = {"1": 0, "2": 1, "3": 1, "4": 1, "5": 1, "6": 0}
    _write(editions_folder, doc)
    corrected = discover(editions_folder)["rollecate"]
    assert dice.face_map_for(corrected) == {1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0}


def test_a_file_whose_face_map_shows_wheels_its_dice_lack_is_refused(editions_folder):
    doc = json.loads((editions_folder / "rollecate.json").read_text(encoding="utf-8"))
    doc["dice"]["pip_face_map"] = {"1": 2, "2": 1, "3": 1, "4": 1, "5": 0, "6": 0}
    _write(editions_folder, doc)
    with pytest.raises(ValueError, match=r"Rollecate dice show \[0, 1\] wheels, not \[2\]"):
        dice.face_map_for(discover(editions_folder)["rollecate"])
