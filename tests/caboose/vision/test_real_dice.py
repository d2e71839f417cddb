"""Real dice on the synthetic table: dice cut from the labelled photographs (only the half
the readers were never tuned on), drawn where a scene's dice lie, and `companion
eval-vision --dice real` measuring the table's reader on them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion import synthetic
from companion.app import eval_vision as eval_vision_command
from companion.games.caboose import scenes
from companion.games.caboose.vision.eval_vision import evaluate, score_scene
from companion.games.caboose.vision.observation import Observation, SeenDie
from companion.synthetic.photo_dice import FOLDER, PhotoDice, PhotoDiceMissing, set_sources
from companion.vision.dice_art import DIE_MM
from companion.vision.eval_dice import PHOTOS, image_paths

needs_photos = pytest.mark.skipif(
    not (PHOTOS / FOLDER).is_dir(),
    reason=f"the labelled dice photographs are not at {PHOTOS / FOLDER} (not in the repo)",
)

# dice read right on `companion eval-vision --dice real --scenes 12 --seed 7000`: what the
# table's reader reads there with each photo die's cut seeded (18 of 23 since a die darker
# than the wood is found too, 17 since a yellow die the learned count takes for a pip die is
# one, 16 with the counter trained on the table's examples, 15 before it, 7 before the
# learned count weighed in on every pip die; over 300 scenes bench/RESULTS.md, "Real dice
# on the synthetic table"), and the most of them read wrong yet surely (0 there, 8 asked):
# those reach the game, never guessed
READ_RIGHT_FLOOR = 0.7826  # 18 / 23, as the report rounds it (0.7826)
WRONG_AND_SURE_MOST = 0
# the most of them asked on the page: 5 (on OpenCV 4 and 5) since a die the count cannot
# tell between two faces of the same wheels is not asked (Rollecate's face map, told to
# the reader), 6 since a red die on the wood is outlined apart from its shadow (one more
# die found, and asked; 7 on OpenCV 5, where one more die read before is asked too, none
# wrong), 5 since a die darker than the wood is found (one more die found, and asked), 4
# since the table counts with its own counter (dice_net.TABLE_COUNTER, fine-tuned on more
# of the table's real dice), 6 before
ASKED_MOST = 5


def test_a_die_with_its_own_picture_is_drawn_from_it_where_it_lies() -> None:
    red = np.zeros((40, 40, 4), np.uint8)
    red[..., 2], red[..., 3] = 230, 255
    die = synthetic.PlacedDie("pips", 3, 300.0, 200.0, 30.0, picture=lambda px_per_mm: red)
    camera = synthetic.Camera(tilt=0.0, rotation=0.0, light=0.0, noise=0.0, blur=0.0)
    bare = synthetic.Scene()
    frame = synthetic.render(synthetic.Scene(dice=(die,)), 1, camera)
    x, y = synthetic.camera_view(1, camera, bare.layout).to_pixels(np.array([[300.0, 200.0]]))[0]
    b, g, r = frame[round(y), round(x)].astype(int)
    assert r > 180 and g < 60 and b < 60
    b, g, r = synthetic.render(bare, 1, camera)[round(y), round(x)].astype(int)
    assert not (r > 180 and g < 60 and b < 60)  # the wood there is not red


def test_missing_photographs_say_where_they_were_looked_for(tmp_path, capsys) -> None:
    with pytest.raises(PhotoDiceMissing, match="--dice-photos"):
        PhotoDice(tmp_path / "nowhere")
    code = eval_vision_command.main(
        ["--scenes", "1", "--dice", "real", "--dice-photos", str(tmp_path / "nowhere")]
    )
    err = capsys.readouterr().err
    assert code == 2 and "nowhere" in err and len(err.strip().splitlines()) == 1


def test_an_empty_folder_is_no_set_of_photographs(tmp_path) -> None:
    (tmp_path / FOLDER).mkdir()
    (tmp_path / FOLDER / "notes.txt").write_text("no photographs here")
    with pytest.raises(PhotoDiceMissing, match="no labelled dice photographs"):
        PhotoDice(tmp_path)


def test_a_pip_die_misread_as_a_count_with_the_same_wheels_costs_the_game_nothing() -> None:
    truth = scenes.Scene(cards=(), railway=(), dice=(synthetic.PlacedDie("pips", 3, 50, 50),))
    face_map = {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0}  # Rollecate's R-6 map
    for got, right, wheels_right in ((3, 1, 1), (2, 0, 1), (5, 0, 0)):
        seen = Observation(dice=(SeenDie("pips", got, (51.0, 50.0), 0.9),))
        result = score_scene(truth, seen, face_map)
        assert (result["dice_right"], result["dice_wheels_right"]) == (right, wheels_right)


def test_what_reaches_the_game_is_a_pip_die_s_wheels() -> None:
    """With a face map, a pip die read surely as another count that stands for the same
    wheels is not wrong yet surely (the game gets the right wheels); one read surely as a
    count of other wheels is. Without a map every face counts."""
    truth = scenes.Scene(cards=(), railway=(), dice=(synthetic.PlacedDie("pips", 3, 50, 50),))
    face_map = {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0}  # Rollecate's R-6 map
    for got, wrong_sure in ((4, 0), (6, 1)):
        seen = Observation(dice=(SeenDie("pips", got, (51.0, 50.0), 0.9),))
        assert score_scene(truth, seen, face_map)["dice_wrong_sure"] == wrong_sure
        assert score_scene(truth, seen)["dice_wrong_sure"] == 1


def test_a_misread_die_is_not_counted_as_a_die_seen_where_none_lies() -> None:
    """`dice_extra` is the dice the table reports where no die lies (a phantom roll), not
    the dice it read wrong: those are `dice_right`'s and `dice_wrong_sure`'s to count."""
    truth = scenes.Scene(cards=(), railway=(), dice=(synthetic.PlacedDie("pips", 3, 50, 50),))
    misread = Observation(dice=(SeenDie("pips", 5, (51.0, 50.0), 0.9),))
    result = score_scene(truth, misread)
    assert (result["dice_extra"], result["dice_right"]) == (0, 0)
    phantom = Observation(dice=(*misread.dice, SeenDie("pips", 2, (200.0, 120.0), 0.9)))
    assert score_scene(truth, phantom)["dice_extra"] == 1


@needs_photos
def test_only_the_held_out_half_is_cut_each_die_alone_and_square() -> None:
    photos = PhotoDice()
    names = [p.name for p in image_paths(photos.folder)]
    cut = [photos.die(i) for i in range(0, len(photos), 25)]
    dice = [d for d in cut if d is not None]
    assert len(dice) >= 0.6 * len(cut)  # most labelled dice give a face
    for die in dice:
        assert names.index(die.source.split(" #")[0]) % 2 == 0  # the even, held-out half
        assert 1 <= die.pips <= 6
        picture = die.picture(2.2)
        side = round(DIE_MM * 2.2)
        assert picture.shape == (side, side, 4)
        assert picture[0, 0, 3] < 40 and picture[side // 2, side // 2, 3] == 255


@needs_photos
def test_real_dice_lie_where_the_drawn_dice_would_and_say_their_pips() -> None:
    drawn = scenes.random_scene(11, n_dice=4)
    cut = PhotoDice()
    photos = (d for i in range(len(cut)) if (d := cut.die(i)) is not None)
    real = scenes.with_photo_dice(drawn, photos)
    assert [(d.x, d.y, d.rotation) for d in real.dice] == [
        (d.x, d.y, d.rotation) for d in drawn.dice
    ]
    assert all(d.kind == "pips" and d.picture is not None for d in real.dice)
    assert real.cards == drawn.cards


@needs_photos
def test_eval_vision_reads_real_dice_on_hard_scenes(capsys) -> None:
    code = eval_vision_command.main(
        # the hard camera without its lamp, curled cards or lens error: the dice's own figure
        ["--scenes", "12", "--seed", "7000", "--dice", "real", "--glare", "0", "--curl", "0"]
        + ["--lens-error", "0", "--json"]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["dice_kind"] == "real"
    assert doc["dice"] >= 12 and doc["photo_dice_used"] == doc["dice"]  # no die shown twice
    assert doc["dice_accuracy"] >= READ_RIGHT_FLOOR
    assert doc["dice_wrong_sure"] <= WRONG_AND_SURE_MOST  # the rest are asked on the page
    assert doc["dice_asked"] <= ASKED_MOST
    assert doc["dice_wheels_accuracy"] >= doc["dice_accuracy"]
    assert doc["cards_accuracy"] == 1.0  # real dice take no card's place
    assert doc["plain_pass_ms_p50"] > 0 and doc["latency_ratio_p50"] > 0


def test_drawn_dice_are_still_the_default() -> None:
    result = evaluate(1, 3, "easy", "rollecate")
    assert result["dice_kind"] == "drawn" and "photo_dice_used" not in result


@needs_photos
def test_eval_vision_lays_one_set_of_real_dice_and_teaches_six_of_it_first(capsys) -> None:
    name = "green opaque, white pips"
    code = eval_vision_command.main(["--scenes", "2", "--seed", "7000", "--dice", "real",
                                     "--dice-set", name, "--teach-pips", "--json"])  # fmt: skip
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["dice_set"] == name and doc["pips_taught"] == 6
    assert 0 < doc["photo_dice_used"] <= len(set_sources(name, "even")) - 6  # taught: not laid
    assert doc["dice_wrong_sure"] == 0


@needs_photos
def test_eval_vision_names_the_sets_when_asked_for_none_of_them(capsys) -> None:
    code = eval_vision_command.main(["--scenes", "1", "--dice", "real", "--dice-set", "tartan"])
    err = capsys.readouterr().err
    assert code == 2 and "no dice set 'tartan'" in err and "green opaque, white pips" in err
    with pytest.raises(SystemExit):  # a set of real dice, not of drawn ones
        eval_vision_command.main(["--scenes", "1", "--dice-set", "tartan"])
    assert "give --dice real too" in capsys.readouterr().err
