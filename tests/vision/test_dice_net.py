"""The pip counter (dice_net.py): the shipped ONNX net as OpenCV runs it, and the writer
that makes such files without the onnx package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import dice_net
from companion.vision.eval_dice import PHOTOS, as_grey, evaluate, load_labels, main, match
from companion.vision.pips import read_pips
from tests.vision.test_pips import turned_die


def photo_of_a_die(
    pips: int,
    turn: float,
    tray: tuple = (150, 155, 160),
    body: tuple = (235, 235, 230),
    ink: tuple = (25, 25, 25),
) -> tuple[np.ndarray, tuple]:
    """A grey tray with one white die (black pips) turned `turn` degrees, and its rectangle
    (other colours of tray, die and pips when given, BGR)."""
    image = np.full((240, 320, 3), tray, np.uint8)
    side = 44.0
    turned_die(image, np.array([160.0, 120.0]), side, pips, body, ink, turn, 5, 0.27)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    return image, ((160.0, 120.0), (side, side), turn)


def test_the_shipped_counter_is_small_and_opencv_reads_it() -> None:
    assert dice_net.SHIPPED.stat().st_size < 1_000_000
    assert dice_net.count_many(np.zeros((50, 50, 3), np.uint8), []).shape == (0, 7)


@pytest.mark.parametrize("pips", range(1, 7))
def test_the_counter_reads_a_plain_white_die_at_any_turn(pips: int) -> None:
    for turn in (0.0, 30.0, 75.0):
        image, rect = photo_of_a_die(pips, turn)
        chances = dice_net.count_many(image, [rect])[0]
        assert abs(float(chances.sum()) - 1.0) < 1e-4
        assert int(np.argmax(chances)) == pips, (turn, chances.round(2))


def test_a_dark_die_shows_its_pips_as_strongly_on_a_light_tray_as_on_a_dark_one() -> None:
    """The counter's cut-out is scaled by the die's own colour, not the table's: a dark
    die with faint red pips on a pale tray (the rim far brighter than any pip) must not
    have its pips squashed, else the counter takes its five for fewer."""
    strengths = []
    for tray in ((215, 215, 210), (70, 72, 75)):
        image, rect = photo_of_a_die(5, 0.0, tray, body=(40, 40, 40), ink=(50, 50, 120))
        patch = dice_net.cut(image, rect)
        centre = dice_net.CUT // 2  # the middle pip, against the body beside it
        strengths.append(float(np.abs(patch[centre, centre] - patch[centre - 4, centre]).max()))
    assert strengths[0] > 1.0  # the pips stand out at all
    assert strengths[0] == pytest.approx(strengths[1], rel=0.05)


def test_asking_about_many_dice_at_once_gives_each_its_own_answer() -> None:
    """The reader asks once per frame about all its dice: the batch must not mix them up,
    and a rectangle named from another corner (90 degrees on) must not change the answer."""
    image, rect = photo_of_a_die(5, 30.0)
    renamed = (rect[0], rect[1], rect[2] + 90.0)  # the same rectangle, another corner first
    elsewhere = ((40.0, 40.0), rect[1], 0.0)  # the plain tray
    together = dice_net.count_many(image, [rect, elsewhere, renamed])
    alone = [dice_net.count_chances(image, r) for r in (rect, elsewhere, renamed)]
    assert np.allclose(together, np.array(alone), atol=1e-5)
    assert np.allclose(together[0], together[2], atol=1e-5)
    assert [int(np.argmax(c)) for c in together] == [5, 0, 5]


def test_a_dies_count_is_the_same_bits_whatever_other_dice_are_counted_with_it() -> None:
    # the table asks about a changing number of dice frame by frame: each die's chances are
    # those it gets counted alone, to the bit (the readings hold exactly, not nearly)
    dice = [photo_of_a_die(pips, turn) for pips, turn in ((5, 30.0), (2, 10.0), (6, 65.0))]
    image = np.hstack([picture for picture, _ in dice])
    rects = [
        ((cx + 320.0 * i, cy), size, angle) for i, (_, ((cx, cy), size, angle)) in enumerate(dice)
    ]
    together = dice_net.count_many(image, rects)
    for i, rect in enumerate(rects):
        assert np.array_equal(together[i], dice_net.count_chances(image, rect))
        assert np.array_equal(together[i], dice_net.count_many(image, rects[i:] + rects[:i])[0])


def test_the_net_is_always_run_on_one_dies_cut_outs_so_it_is_never_set_up_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an OpenCV net given another batch size than its last sets every layer up again (about
    # as long as counting a die); the table asks about 1 to 20 dice a frame
    net = dice_net._net(dice_net.COUNTER)
    shapes: list[tuple[int, ...]] = []

    class Watched:  # the net itself, each input's shape kept
        def setInput(self, blob: np.ndarray) -> None:  # OpenCV's name
            shapes.append(blob.shape)
            net.setInput(blob)

        def forward(self) -> np.ndarray:
            return net.forward()

    monkeypatch.setattr(dice_net, "_net", lambda path: Watched())
    image, rect = photo_of_a_die(4, 20.0)
    for many in (3, 1, 7):
        chances = dice_net.count_many(image, [rect] * many)
        assert [int(np.argmax(c)) for c in chances] == [4] * many
    assert set(shapes) == {(dice_net.VIEWS, 3, dice_net.CUT, dice_net.CUT)}
    assert len(shapes) == 11


def test_the_counter_sees_no_die_on_the_bare_tray() -> None:
    image, rect = photo_of_a_die(3, 0.0)
    bare = np.full_like(image, (150, 155, 160))
    assert int(np.argmax(dice_net.count_many(bare, [rect])[0])) == 0


def test_eval_dice_refuses_a_counter_it_cannot_read(tmp_path: Path, capsys) -> None:
    image, _ = photo_of_a_die(2, 0.0)
    cv2.imwrite(str(tmp_path / "a.png"), image)
    before = dice_net.COUNTER  # the shipped net, or COMPANION_PIP_COUNTER's
    assert main([str(tmp_path), "--counter", str(tmp_path / "none.onnx")]) == 2
    assert "no such net" in capsys.readouterr().err
    (tmp_path / "bad.onnx").write_bytes(b"not a net")
    assert main([str(tmp_path), "--counter", str(tmp_path / "bad.onnx")]) == 2
    assert before == dice_net.COUNTER


def test_the_onnx_writer_gives_a_net_opencv_runs_as_pytorch_does(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")  # the `train` extra; CI runs without it
    from companion.vision.train_dice_net import check_export, counter_net, write_onnx

    torch.manual_seed(0)
    net = counter_net().eval()
    path = tmp_path / "net.onnx"
    write_onnx(net, (3, dice_net.CUT, dice_net.CUT), path)
    assert check_export(net, (3, dice_net.CUT, dice_net.CUT), path) < 1e-4


def test_a_counter_trained_with_batch_norms_is_written_without_them(tmp_path: Path) -> None:
    """The counter is trained with a batch norm after each convolution; they are folded into
    the convolutions, so the file OpenCV runs holds Conv, Relu and MaxPool only and gives
    what the trained net gives."""
    torch = pytest.importorskip("torch")  # the `train` extra; CI runs without it
    from companion.vision.train_dice_net import counter_net, fold_norms, write_checked

    torch.manual_seed(0)
    trained = counter_net(normed=True)
    for layer in trained:  # batch norms as training leaves them: their own scales and means
        if isinstance(layer, torch.nn.BatchNorm2d):
            layer.running_mean.uniform_(-1.0, 1.0)
            layer.running_var.uniform_(0.5, 2.0)
            layer.weight.data.uniform_(0.5, 1.5)
            layer.bias.data.uniform_(-0.5, 0.5)
    trained.eval()
    x = torch.randn(4, 3, dice_net.CUT, dice_net.CUT)
    with torch.no_grad():
        expected = trained(x).numpy()
    folded = fold_norms(trained)
    path = write_checked(folded, tmp_path)
    assert [type(layer) for layer in folded] == [type(layer) for layer in counter_net()]
    reader = cv2.dnn.readNetFromONNX(str(path))
    reader.setInput(x.numpy())
    assert np.abs(reader.forward() - expected).max() < 1e-4


def test_counters_joined_side_by_side_give_the_mean_of_their_chances(tmp_path: Path) -> None:
    """`train_dice_net --join` writes an ensemble as one ONNX file (grouped convolutions):
    read back by OpenCV, its chances are the mean of what each counter gives alone."""
    torch = pytest.importorskip("torch")  # the `train` extra; CI runs without it
    from companion.vision.train_dice_net import counter_net, main, write_onnx

    shape = (3, dice_net.CUT, dice_net.CUT)
    members = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        members.append(tmp_path / f"member{seed}.onnx")
        write_onnx(counter_net().eval(), shape, members[-1])
    main(["--join", *map(str, members), "--out", str(tmp_path / "joined")])
    image, rect = photo_of_a_die(5, 20.0)
    rects = [rect, ((100.0, 80.0), (40.0, 40.0), 0.0)]
    before = dice_net.COUNTER
    try:
        alone = []
        for path in members:
            dice_net.COUNTER = path
            alone.append(dice_net.count_many(image, rects))
        dice_net.COUNTER = tmp_path / "joined" / dice_net.SHIPPED.name
        joined = dice_net.count_many(image, rects)
    finally:
        dice_net.COUNTER = before
    assert not np.allclose(alone[0], alone[1], atol=1e-3)  # two different counters
    assert np.allclose(joined, (alone[0] + alone[1]) / 2, atol=1e-5)
    assert np.allclose(joined.sum(axis=1), 1.0, atol=1e-5)


def test_joining_a_file_that_is_no_counter_says_so(tmp_path: Path, capsys) -> None:
    pytest.importorskip("torch")
    from companion.vision.train_dice_net import main

    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\x0a\xff\xff not protobuf")
    with pytest.raises(SystemExit):
        main(["--join", str(junk), str(dice_net.SHIPPED), "--out", str(tmp_path / "out")])
    assert "not a counter" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_companion_pip_counter_names_the_net_that_runs(tmp_path: Path) -> None:
    """A candidate net is measured at the table by pointing COMPANION_PIP_COUNTER at it: it
    then counts every die, a colour photograph's, a grey one's and the table's; unset,
    each has its own shipped net."""
    candidate = tmp_path / "candidate.onnx"
    candidate.write_bytes(dice_net.SHIPPED.read_bytes())
    code = (
        "from companion.vision import dice_net as d; "
        "print(d.COUNTER, d.GREY_COUNTER, d.TABLE_COUNTER)"
    )
    env = {**os.environ, "COMPANION_PIP_COUNTER": str(candidate)}
    named = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert named.stdout.split() == [str(candidate)] * 3
    env.pop("COMPANION_PIP_COUNTER")
    default = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    shipped = [dice_net.SHIPPED, dice_net.SHIPPED_GREY, dice_net.SHIPPED_TABLE]
    assert default.stdout.split() == [str(path) for path in shipped]
    assert all(path.is_file() and path.stat().st_size < 1_000_000 for path in shipped)


def table_file(path: Path, labels: list[int], sources: list[str]) -> Path:
    """A small table examples file as the table's command writes it: 64 x 64 windows around
    drawn dice (a bare tray for 0), the dice's rectangles in them, pips and sources."""
    crops, rects = [], []
    for pips in labels:
        image, (_, (w, h), turn) = photo_of_a_die(max(pips, 1), 20.0)
        if pips == 0:
            image = np.full_like(image, (150, 155, 160))
        crops.append(image[88:152, 128:192])  # the die is centred at (160, 120)
        rects.append((32.0, 32.0, w, h, turn))
    np.savez(
        path,
        crops=np.array(crops, np.uint8),
        rects=np.array(rects, np.float32),
        labels=np.array(labels, np.int64),
        source=np.array(sources),
    )
    return path


def test_the_trainer_cuts_table_examples_as_the_counter_sees_them(tmp_path: Path) -> None:
    pytest.importorskip("torch")  # the `train` extra; CI runs without it
    from companion.vision.train_dice_net import load_table, table_cuts

    path = table_file(tmp_path / "t.npz", [3, 0, 5], ["drawn", "other", "photo"])
    table = load_table(path)
    assert table.labels.tolist() == [3, 0, 5]
    # cross-validating on the photographs: photo dice of unknown images are left out
    assert load_table(path, photos=False).labels.tolist() == [3, 0]
    patches, labels = table_cuts(table, np.random.default_rng(0))
    assert labels == [3, 0, 5]
    assert all(p.shape == (3, dice_net.CUT, dice_net.CUT) for p in patches)
    for i in (0, 2):  # each die's cut-out is its die, moved and recoloured a little
        (cx, cy, w, h, turn) = table.rects[i]
        clean = dice_net.cut(table.crops[i], ((cx, cy), (w, h), turn)).transpose(2, 0, 1)
        likeness = max(
            np.corrcoef(patches[i].ravel(), view.ravel())[0, 1]
            for view in (clean, clean[..., ::-1])
        )
        assert likeness > 0.5, i
    assert patches[1].std() < 0.5 * patches[0].std()  # the bare tray stays plain


def test_the_trainer_refuses_a_file_that_is_not_table_examples(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from companion.vision.train_dice_net import load_table, main

    bad = tmp_path / "bad.npz"
    np.savez(bad, crops=np.zeros((2, 8, 8), np.uint8), rects=np.zeros((2, 5), np.float32),
             labels=np.array([1, 9]), source=np.array(["drawn", "drawn"]))  # fmt: skip
    with pytest.raises(ValueError, match="not table examples"):
        load_table(bad)
    with pytest.raises(SystemExit):
        main(["--table", str(tmp_path / "missing.npz"), "--out", str(tmp_path)])


def test_the_trainer_refuses_no_rounds_or_epochs_before_loading_anything(
    tmp_path: Path, capsys
) -> None:
    pytest.importorskip("torch")
    from companion.vision.train_dice_net import main

    for flags in (["--bank", "0"], ["--epochs", "0"], ["--bank", "-2"]):
        with pytest.raises(SystemExit):
            main([*flags, "--out", str(tmp_path)])
        assert "at least 1" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # no net written


def test_the_trainer_shows_a_share_of_cut_outs_grey_as_a_colourless_frame_gives_them(
    tmp_path: Path,
) -> None:
    """A camera without colour (issue 30, point 3): a quarter of the counter's cut-outs are
    of the die turned grey (random channel weights), cut as a colourless frame is, so a red
    pip on a black die, faint in grey, is learnt too; the rest keep their colour."""
    pytest.importorskip("torch")
    from companion.vision.train_dice_net import GREY_SHARE, load_table, recolour, table_cuts

    red_on_black, _ = photo_of_a_die(5, 10.0, body=(30, 30, 30), ink=(40, 40, 210))
    rng = np.random.default_rng(0)
    grey = recolour(red_on_black, rng, grey=True)
    assert (grey[..., 0] == grey[..., 1]).all() and (grey[..., 1] == grey[..., 2]).all()
    assert grey.std() > 5  # the pips still show
    labels = [1, 2, 3, 4, 5, 6] * 30
    table = load_table(table_file(tmp_path / "t.npz", labels, ["photo"] * len(labels)))
    patches, _ = table_cuts(table, rng, GREY_SHARE)
    plain = [np.allclose(p[0], p[1]) and np.allclose(p[1], p[2]) for p in patches]
    assert abs(np.mean(plain) - GREY_SHARE) < 0.08
    patches, _ = table_cuts(table, rng)  # the shipped counter's recipe: none grey
    assert not any(np.allclose(p[0], p[1]) and np.allclose(p[1], p[2]) for p in patches)


def test_the_trainer_can_grey_cut_outs_as_a_grey_camera_mixes_its_colours(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """`--grey-luma` (the grey counter's recipe): grey cut-outs weighed near a grey camera's
    own mix (BT.601 luma, what OpenCV and a webcam's grey mode give), where a red pip on a
    black die shows, rather than at any random weights, most of which hide it. Without it the
    trainer draws the very same random numbers as before, so older recipes stay as they were."""
    pytest.importorskip("torch")
    from companion.vision import train_dice_net

    red_on_black, _ = photo_of_a_die(5, 10.0, body=(30, 30, 30), ink=(40, 40, 210))
    camera = cv2.cvtColor(red_on_black, cv2.COLOR_BGR2GRAY).astype(np.float32)
    monkeypatch.setattr(train_dice_net, "grey_luma", 1.0)
    for seed in range(20):
        grey = train_dice_net.greyed(red_on_black, np.random.default_rng(seed))
        assert np.abs(grey[..., 0] - camera).max() < 40  # the pips as the camera shows them
    monkeypatch.setattr(train_dice_net, "grey_luma", 0.0)
    rng = np.random.default_rng(3)
    grey = train_dice_net.greyed(red_on_black, rng)
    before = np.random.default_rng(3)  # the recipe before --grey-luma: one draw, the weights
    weights = before.dirichlet((2.0, 2.0, 2.0)).astype(np.float32)
    assert np.allclose(grey[..., 0], red_on_black.astype(np.float32) @ weights)
    assert rng.random() == before.random()  # and nothing else drawn
    with pytest.raises(SystemExit):
        train_dice_net.main(["--grey-luma", "1.5", "--out", str(tmp_path)])
    assert "--grey-luma must be a share from 0 to 1" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # no net written


def test_fine_tuning_starts_from_the_counter_given(tmp_path: Path) -> None:
    """`train_dice_net --start ONNX` fine-tunes a trained counter (the shipped one) at a
    tenth of the rate rather than training anew: one short epoch leaves it close to where it
    started, and a net trained anew is nothing like it."""
    torch = pytest.importorskip("torch")
    from companion.vision.train_dice_net import load_table, read_onnx, train_counter

    table = load_table(table_file(tmp_path / "t.npz", [1, 3, 0, 5], ["photo"] * 4))
    start = read_onnx(dice_net.SHIPPED)
    tuned = train_counter([], 1, 0, table, 1, start=start)
    anew = train_counter([], 1, 0, table, 1)
    cuts = [
        dice_net.cut(crop, ((cx, cy), (w, h), turn))
        for crop, (cx, cy, w, h, turn) in zip(table.crops, table.rects, strict=True)
    ]
    x = torch.from_numpy(np.stack(cuts).transpose(0, 3, 1, 2).copy())
    with torch.no_grad():
        before, after, fresh = (net(x).flatten() for net in (start.eval(), tuned, anew))
    assert np.corrcoef(before, after)[0, 1] > 0.95
    assert np.corrcoef(before, fresh)[0, 1] < 0.9


def test_the_trainer_joins_several_files_of_table_examples(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from companion.vision.train_dice_net import joined, load_table

    a = load_table(table_file(tmp_path / "a.npz", [3, 0], ["drawn", "other"]))
    b = load_table(table_file(tmp_path / "b.npz", [5], ["photo"]))
    both = joined([a, b])
    assert both.labels.tolist() == [3, 0, 5] and both.source.tolist() == ["drawn", "other", "photo"]
    assert len(both.crops) == len(both.rects) == 3


@pytest.mark.skipif(
    not (PHOTOS / "overhead-tray").is_dir(), reason=f"no labelled photographs at {PHOTOS}"
)
def test_a_camera_without_colour_reads_the_trays_dice_nearly_as_in_colour() -> None:
    """Issue 30, point 3: a grey frame is counted by its own net (dice_net.GREY_COUNTER,
    fine-tuned on grey cut-outs), so red pips on a black or blue die, faint in grey, are
    counted too. A quarter of the held-out tray photographs (every eighth from the fifth:
    174 dice): 166 read in colour, turned grey 161 (154 with the colour net)."""
    folder = PHOTOS / "overhead-tray"
    colour = evaluate(folder, every=8, offset=4)
    grey = evaluate(folder, every=8, offset=4, grey=True)
    assert colour["dice"] == grey["dice"] == 174
    assert grey["read"] >= 161 and colour["read"] - grey["read"] <= 5


@pytest.mark.skipif(
    not (PHOTOS / "overhead-tray").is_dir(), reason=f"no labelled photographs at {PHOTOS}"
)
def test_a_grey_held_out_photograph_is_read_as_its_colour_version_is() -> None:
    """Issue 30, point 3: a held-out tray photograph (never trained on) of a white 4 and a
    6, read right in colour, is read the same turned grey. The grey counter before (trained
    on grey cut-outs of random channel weights) took the 4 for a 1; the one trained near a
    grey camera's own mix (`train_dice_net --grey-luma 1`) reads it."""
    path = PHOTOS / "overhead-tray" / "IMG_20191208_112648.jpg"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
    colour, grey = read_pips(image), read_pips(as_grey(image))
    assert match(colour, labels, "die") == len(colour) == len(labels) == 2
    assert match(grey, labels, "die") == len(grey) == 2
    assert sorted(d.pips for d in grey) == sorted(d.pips for d in colour) == [4, 6]


def test_the_table_counts_a_grey_frames_dice_with_the_grey_counter_but_not_its_blobs() -> None:
    """A grey frame at the table: its dice's counts (`dice.count_looks(counts=True)`) come
    from the grey counter, which reads more real dice right there, but whether a faint blob
    is a die at all is still the colour counter's call, since the grey one took twice as many
    faint blobs of a grey table for dice."""
    image, rect = photo_of_a_die(4, 20.0)
    grey = as_grey(image)
    counts = dice_net.count_many(grey, [rect], grey_counter=False, table=True)
    a_die_at_all = dice_net.count_many(grey, [rect], grey_counter=False)
    before = dice_net.GREY_COUNTER
    try:
        dice_net.GREY_COUNTER = dice_net.COUNTER
        by_the_colour_counter = dice_net.count_many(grey, [rect])
    finally:
        dice_net.GREY_COUNTER = before
    assert np.allclose(counts, dice_net.count_many(grey, [rect]))  # the grey counter's
    assert np.allclose(a_die_at_all, by_the_colour_counter)
    assert not np.allclose(counts, a_die_at_all)


def test_the_trainer_refuses_an_extra_folder_without_labelled_photographs(
    tmp_path: Path, capsys
) -> None:
    """`--extra DIR` (more public dice photographs, issue 30): a folder with no photographs
    is named in a clear message before anything is trained or written."""
    pytest.importorskip("torch")
    from companion.vision.train_dice_net import main

    empty = tmp_path / "none"
    empty.mkdir()
    out = tmp_path / "out"
    for folder in (empty, tmp_path / "missing"):
        with pytest.raises(SystemExit):
            main(["--extra", str(folder), "--out", str(out)])
        assert f"--extra: no labelled photographs in {folder}" in capsys.readouterr().err
    assert not out.exists()  # no net written


def test_the_extra_dice_photographs_are_labelled_whole_dice_seen_square() -> None:
    """data/dice-extra/tray-colour (CC BY 4.0, scripts/dice_extra_tray_colour.py): every
    photograph has its labels, each a pip count 1-6 and a box about as wide as tall (the
    export had squeezed the photographs to squares; stretched back, a die is square again),
    so the trainer cuts its dice as it cuts the shared tray's."""
    folder = Path(__file__).resolve().parents[2] / "data" / "dice-extra" / "tray-colour"
    images = sorted(folder.glob("*.jpg"))
    assert len(images) == 99
    ratios = []
    for image in images:
        height, width = cv2.imread(str(image)).shape[:2]
        dice = load_labels(image.with_suffix(".txt"), width, height)
        assert dice and all(1 <= d.pips <= 6 for d in dice)
        ratios += [d.w / d.h for d in dice]
    assert 0.9 < float(np.median(ratios)) < 1.1
