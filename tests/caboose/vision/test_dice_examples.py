"""The pip counter's table examples (dice_examples.py): the windows the table's dice reader
asks the learned count about, with their truth, and never a die of the held-out half."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.caboose.vision import dice_examples
from companion.synthetic.photo_dice import FOLDER, PhotoDice
from companion.vision.dice import CROP_SIDE
from companion.vision.eval_dice import PHOTOS, image_paths

needs_photos = pytest.mark.skipif(
    not (PHOTOS / FOLDER).is_dir(),
    reason=f"the labelled dice photographs are not at {PHOTOS / FOLDER} (not in the repo)",
)


@needs_photos
def test_the_odd_half_is_the_one_tuned_on_and_the_even_half_stays_held_out() -> None:
    names = [p.name for p in image_paths(PHOTOS / FOLDER)]
    for half, parity in (("even", 0), ("odd", 1)):
        photos = PhotoDice(half=half)
        cut = [photos.die(i) for i in range(0, len(photos), 40)]
        sources = [d.source.split(" #")[0] for d in cut if d is not None]
        assert sources and all(names.index(name) % 2 == parity for name in sources)
    with pytest.raises(ValueError, match="half"):
        PhotoDice(half="all")


@needs_photos
def test_examples_are_the_readers_windows_with_the_true_pips(tmp_path) -> None:
    out = tmp_path / "table.npz"
    assert dice_examples.main(["--out", str(out), "--scenes", "4", "--seed", "20000"]) == 0
    got = np.load(out)
    n = len(got["labels"])
    assert got["crops"].shape == (n, CROP_SIDE, CROP_SIDE, 3) and got["crops"].dtype == np.uint8
    assert got["rects"].shape == (n, 5) and got["rects"].dtype == np.float32
    assert got["labels"].dtype == np.int64 and set(got["labels"]) <= set(range(7))
    assert set(got["source"]) == {"drawn", "photo", "other"}
    # real dice only from the odd half: the even half is what the table is measured on
    names = [p.name for p in image_paths(PHOTOS / FOLDER)]
    photo = got["source"] == "photo"
    assert all(names.index(o.split(" #")[0]) % 2 == 1 for o in got["origin"][photo])
    assert (got["labels"][photo] >= 1).all() and (
        got["labels"][got["source"] == "other"] == 0
    ).all()
    # a drawn die the finder found is where its rectangle says: the layout fit reads its pips
    drawn = (got["source"] == "drawn") & got["found"]
    assert drawn.sum() >= 3
    assert (got["fit_face"][drawn] == got["labels"][drawn]).mean() >= 0.8
    centres = got["rects"][:, :2]
    assert (np.abs(centres - CROP_SIDE / 2) < CROP_SIDE / 4).all()  # each die in its window


@needs_photos
def test_real_only_examples_are_real_dice_in_every_table_under_the_hard_camera(tmp_path) -> None:
    """`--real-only`: the hardest view of real dice, the one the counter misreads most, in
    every table (by default every other table holds real dice, a third under the easy camera)."""
    out = tmp_path / "real.npz"
    args = ["--out", str(out), "--scenes", "2", "--seed", "20000", "--real-only"]
    assert dice_examples.main(args) == 0
    got = np.load(out)
    assert set(got["camera"]) == {"hard"}
    tables = {o.split(" #")[0] for o in got["origin"] if o}
    assert (got["source"] == "photo").sum() >= 3 and tables  # real dice in both tables
    names = [p.name for p in image_paths(PHOTOS / FOLDER)]
    assert all(names.index(name) % 2 == 1 for name in tables)  # the odd half only
