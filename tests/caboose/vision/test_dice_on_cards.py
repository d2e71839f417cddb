"""Dice lying on a card: the synthetic table lays some there (`--dice-on-cards`), and the
table's reader finds them where the card does not look like its own face, reads them as it
reads dice off the cards, and reads the card under each again without the die's place; what
it cannot tell it asks, and it never reads a die or a card under one wrong yet surely."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from companion.app import eval_vision as eval_vision_command
from companion.games.caboose import scenes
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.vision.eval_vision import ON_CARDS, evaluate
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.games.caboose.vision.off_the_cards import dice_on_the_cards
from companion.synthetic import PlacedDie
from companion.synthetic.camera import has_curl
from companion.vision import dice
from companion.vision.calibrate import top_down
from companion.vision.table import lies_on, rotate
from tests.caboose.vision.test_real_dice import needs_photos
from tests.opencv_versions import differs_on_opencv_5

_SURE_DIE = FollowConfig().die_unsure_below
_SURE_CARD = FollowConfig().unsure_below


def test_dice_on_cards_are_the_same_dice_moved_onto_cards_wholly_clear_of_the_caboose() -> None:
    for seed in range(20):
        off = scenes.random_scene(seed, loose_cards=1)
        on = scenes.random_scene(seed, loose_cards=1, dice_on_cards=1.0)
        assert on.cards == off.cards and on.caboose_at == off.caboose_at
        assert [(d.kind, d.face, d.rotation) for d in on.dice] == [
            (d.kind, d.face, d.rotation) for d in off.dice
        ]
        assert all(scenes.card_under(off, d.x, d.y) is None for d in off.dice)
        for die in on.dice:
            card = scenes.card_under(on, die.x, die.y)
            assert card is not None, f"seed {seed}: a die left off the cards"
            pose = on.cards[card].pose
            local = rotate(np.array([[die.x - pose.x, die.y - pose.y]]), -pose.rotation)[0]
            assert (np.abs(local) + 11.4 <= np.array(on.card_mm) / 2).all()  # a 16 mm die's corner
            assert math.dist((die.x, die.y), on.caboose_at) > 25


def test_a_share_of_dice_on_cards_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="0 to 1"):
        scenes.random_scene(1, dice_on_cards=1.5)


def test_eval_vision_refuses_a_bad_share_in_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        eval_vision_command.main(["--scenes", "1", "--dice-on-cards", "-0.2"])
    assert stopped.value.code == 2
    assert "--dice-on-cards must be a share from 0 to 1" in capsys.readouterr().err


def _railway_with_dice_on_it(seed: int) -> scenes.Scene:
    """Six railway cards with our three wheel faces and a white pip die on four of them, away
    from the caboose (the die on the card's value where there is room)."""
    base = scenes.random_scene(seed, n_cards=6, n_dice=0)
    dice = []
    laid = ((0, "wheels", 2, (0.0, 10.0)), (2, "wheels", 1, (5.0, -15.0)),
            (4, "wheels", 0, (-5.0, 20.0)), (3, "pips", 5, (-14.0, -26.0)))  # fmt: skip
    for index, kind, face, (lx, ly) in laid:
        pose = base.cards[index].pose
        xy = rotate(np.array([[lx, ly]]), pose.rotation)[0] + (pose.x, pose.y)
        if math.dist(xy, base.caboose_at) < 25:  # the caboose stands there: the other end
            xy = rotate(np.array([[-lx, -ly]]), pose.rotation)[0] + (pose.x, pose.y)
        dice.append(PlacedDie(kind, face, float(xy[0]), float(xy[1]), 20.0))
    return replace(base, dice=tuple(dice))


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_dice_on_railway_cards_are_read_and_the_cards_under_them_too(seed: int) -> None:
    scene = _railway_with_dice_on_it(seed)
    frame = scenes.render(scene, seed, scenes.Camera.preset("easy"))
    back = scene.cards[scene.railway[0]].pose
    config = VisionConfig.for_edition("rollecate")
    seen = observe(frame, config, back=(back.x, back.y))
    for die in scene.dice:
        near = [d for d in seen.dice if math.dist(d.position, (die.x, die.y)) < 10]
        if die.kind == "wheels":  # our yellow wheel dice stand out on any card: read right
            assert [(d.kind, d.face) for d in near] == [("wheels", die.face)], f"{die}: {near}"
            # a blank one may be asked: on a card's print the learned count may see two pips
            assert near[0].confidence >= _SURE_DIE or die.face == 0
        else:  # a white die on our light blue may go unseen, never read wrong and sure
            assert all((d.kind, d.face) == ("pips", 5) or d.confidence < _SURE_DIE for d in near)
    on_no_die = [
        d for d in seen.dice if all(math.dist(d.position, (t.x, t.y)) >= 10 for t in scene.dice)
    ]
    assert all(d.confidence < _SURE_DIE for d in on_no_die), on_no_die
    unread = [p.key for p in seen.problems if p.key.startswith("cards_unread")]
    for card in scene.cards:  # every card read right, or asked: never another card surely
        near = [
            c
            for c in seen.cards
            if math.dist((c.pose.x, c.pose.y), (card.pose.x, card.pose.y)) < 15
        ]
        if not near:  # or left unread under a die seen on it, and that said
            on_it = [d for d in seen.dice if lies_on(card.pose, config.card_mm, d.position)]
            assert on_it and unread, f"{card} unseen"
            continue
        assert len(near) == 1, f"{card} seen twice: {near}"
        assert near[0].code == card.code or near[0].confidence < _SURE_CARD


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("at", [(22.0, 0.0), (-22.0, 10.0)])
def test_a_railway_card_whose_frame_a_die_hides_is_said_to_be_unreadable(
    seed: int, at: tuple[float, float]
) -> None:
    # a die lying across a railway card's printed frame: the card cannot be found, and the
    # frame says so (the tracker waits) instead of showing the railway a card short
    base = scenes.random_scene(seed, n_cards=6)
    config = VisionConfig.for_edition("rollecate")
    camera = scenes.Camera.preset("hard", glare=0.0)  # no lamp's reflection: only the die hides
    plain = observe(scenes.render(base, seed, camera), config)
    assert len(plain.cards) == len(base.cards) and not plain.problems  # dice on the table only
    pose = base.cards[base.railway[2]].pose
    if math.dist((pose.x, pose.y), base.caboose_at) < 5:  # the caboose stands there
        pose = base.cards[base.railway[3]].pose
    xy = rotate(np.array([at]), pose.rotation)[0] + (pose.x, pose.y)
    scene = replace(base, dice=(PlacedDie("wheels", 1, float(xy[0]), float(xy[1]), 20.0),))
    seen = observe(scenes.render(scene, seed, camera), config)
    assert all(math.dist((c.pose.x, c.pose.y), (pose.x, pose.y)) > 15 for c in seen.cards)
    assert "cards_unread_one" in [p.key for p in seen.problems]


def test_a_die_on_a_curled_card_is_found_on_the_card_laid_flat() -> None:
    """A card that does not lie flat (hard table 7024: its cards curled, no lamp) but is
    matched well enough to be read as it lies is off its face's grid and darker at one end;
    against its face the whole end looked unlike it, the die on it lost in that (unseen
    before). Laid flat along its frame's edges it looks like its face but for the die,
    which is found and read surely, the card under it read right."""
    camera = scenes.Camera.preset("hard", glare=0.0)
    assert has_curl(7024, camera)
    scene = scenes.random_scene(7024, "rollecate", loose_cards=1, dice_on_cards=0.5)
    (die,) = scene.dice
    under = scene.cards[scenes.card_under(scene, die.x, die.y)]
    back = scene.cards[scene.railway[0]].pose
    frame = scenes.render(scene, 7024, camera)
    seen = observe(frame, VisionConfig.for_edition("rollecate"), back=(back.x, back.y))
    near = [d for d in seen.dice if math.dist(d.position, (die.x, die.y)) < 10]
    assert [(d.kind, d.face) for d in near] == [(die.kind, die.face)]
    assert near[0].confidence >= _SURE_DIE
    card = min(seen.cards, key=lambda c: math.dist(c.pose[:2], under.pose[:2]))
    assert card.code == under.code and card.confidence >= _SURE_CARD


def test_the_print_a_little_off_its_face_is_no_place_for_a_die() -> None:
    """On hard tables with no die on any card, a card's print seen a little off its face's
    grid (the lens, the blur, a slight curl) differs from its face only just past the
    threshold: no place a die is looked for, each of which costs the reader a crop, a
    layout fit and a count (tuning seeds 7000 and 7001: 42 such places before, 17 now)."""
    config = VisionConfig.for_edition("rollecate")
    places = 0
    for seed in (7000, 7001):
        scene = scenes.random_scene(seed, "rollecate", loose_cards=1)
        assert all(scenes.card_under(scene, d.x, d.y) is None for d in scene.dice)
        frame = scenes.render(scene, seed, scenes.Camera.preset("hard"))
        seen = observe(frame, config)
        top = top_down(frame, seen.calibration, config.layout, config.px_per_mm)
        places += len(dice_on_the_cards(top, config, list(seen.cards), None)[0])
    assert places <= 24


@pytest.mark.parametrize(
    "seed",
    [
        7006,
        pytest.param(
            7024,
            marks=differs_on_opencv_5(
                "issue 32, left open: OpenCV 5 bends table 7024's curled cards otherwise and one "
                "is still laid flat for a second look (a cost, nothing misread)"
            ),
        ),
    ],
)
def test_a_card_unlike_its_face_with_no_die_colour_on_it_is_not_laid_flat_for_dice(
    seed: int,
) -> None:
    """A card seen off its face's grid (the hard camera's lens and blur; on table 7024 its
    cards curl, a shaded end) differs from its face over more than a die's size, but
    nowhere by a die's colour: with no die on any card (hard tables 7006 and 7024), no card
    is laid flat to look for a die on it (1 and 2 were before)."""
    config = VisionConfig.for_edition("rollecate")
    scene = scenes.random_scene(seed, "rollecate", loose_cards=1)
    assert all(scenes.card_under(scene, d.x, d.y) is None for d in scene.dice)
    frame = scenes.render(scene, seed, scenes.Camera.preset("hard"))
    seen = observe(frame, config)
    top = top_down(frame, seen.calibration, config.layout, config.px_per_mm)
    assert dice_on_the_cards(top, config, list(seen.cards), None)[1] == []


def test_a_card_off_the_railway_is_no_card_unread() -> None:
    # a card-sized thing beside the table's cards but not by the railway (a face-down draw
    # pile, a box lid; here a loose card under a die across its frame) holds nothing up
    base = scenes.random_scene(11, n_cards=6, loose_cards=1)
    (loose,) = (c for i, c in enumerate(base.cards) if i not in base.railway)
    pose = loose.pose
    xy = rotate(np.array([(0.0, 38.0)]), pose.rotation)[0] + (pose.x, pose.y)
    scene = replace(base, dice=(PlacedDie("wheels", 1, float(xy[0]), float(xy[1]), 20.0),))
    seen = observe(
        scenes.render(scene, 11, scenes.Camera.preset("hard")),
        VisionConfig.for_edition("rollecate"),
    )
    assert len(seen.cards) == len(base.cards) - 1
    assert not seen.problems


# `companion eval-vision --scenes 40 --seed 7000 --dice-on-cards 0.5 --glare 0 --curl 0 --lens-error
# 0`, drawn dice, hard camera without a lamp's reflection, curled cards or a lens error (the tuning
# seed; with the hard camera's own curl, RESULTS.md): 22 of the 38 dice on cards found, all 22
# read right (6 of them asked), none wrong and sure; of the 38 cards under them 32 read right and
# sure, 6 not seen (a die across the card's printed frame hides its outline: each frame says a card
# could not be read), none wrong and sure; 2 dice seen where none lies (asked, never sure). On
# OpenCV 5.0 (session 10's counter): 21 found and read right, 31 cards under them right, 7 not seen,
# 4 dice seen where none lies (asked).
ON_CARDS_FOUND_FLOOR, ON_CARDS_RIGHT_FLOOR, CARDS_UNDER_RIGHT_FLOOR = 21, 21, 31


@pytest.mark.slow
def test_hard_tables_with_dice_on_cards_read_them_and_never_misread_a_die_or_a_card() -> None:
    result = evaluate(
        40, 7000, "hard", "rollecate", dice_on_cards=0.5, glare=0.0, curl=0.0, lens_error=0.0
    )
    assert result["dice_on_cards"] == 38
    assert result["on_cards_found"] >= ON_CARDS_FOUND_FLOOR
    assert result["on_cards_right"] >= ON_CARDS_RIGHT_FLOOR
    assert result["on_cards_wrong_sure"] == 0
    assert result["cards_under_right"] >= CARDS_UNDER_RIGHT_FLOOR
    assert result["cards_under_wrong_sure"] == 0
    assert result["cards_under_unseen_told"] == result["cards_under_unseen"]
    assert result["dice_wrong_sure"] == 0


def test_the_json_report_counts_dice_on_cards_only_when_some_lie_there(capsys) -> None:
    assert eval_vision_command.main(["--scenes", "2", "--difficulty", "easy", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert not set(ON_CARDS) & set(plain)
    args = ["--scenes", "2", "--difficulty", "easy", "--dice-on-cards", "1", "--json"]
    assert eval_vision_command.main(args) == 0
    on = json.loads(capsys.readouterr().out)
    assert on["dice_on_cards"] == on["dice"] > 0
    assert on["cards_under"] >= 1
    assert on["on_cards_right"] <= on["on_cards_found"] <= on["dice_on_cards"]
    assert on["on_cards_wrong_sure"] == 0


# `companion eval-vision --dice real --dice-on-cards 1 --scenes 12 --seed 7000` (held-out
# half of the photographs): of the 23 real dice, all on cards, 5 found, 2 read right, the
# other 3 asked (on OpenCV 5.0 one of them read wrong and sure instead); the 23 cards under
# them 21 read right, 2 not seen (a die across the printed frame: told as a card unread),
# none misread. With the counter before session 10's, 6 were found, 5 read right and 1 read
# wrong and sure (a yellow pip die taken for our wheel die); on 300 held-out tables (seed
# 5000, half the dice on cards) the two counters read as many real dice on cards right, 63
# of 401 (RESULTS.md), so this floor follows the 12 tables here.
REAL_ON_CARDS_RIGHT_FLOOR, REAL_ON_CARDS_WRONG_SURE_MOST = 2, 1


@needs_photos
def test_real_dice_on_cards_are_read_or_asked_and_the_cards_under_them_never_misread() -> None:
    result = evaluate(12, 7000, "hard", "rollecate", dice="real", dice_on_cards=1.0)
    assert result["dice_on_cards"] == result["dice"] == 23
    assert result["on_cards_right"] >= REAL_ON_CARDS_RIGHT_FLOOR
    assert result["on_cards_wrong_sure"] <= REAL_ON_CARDS_WRONG_SURE_MOST
    assert result["cards_under_wrong_sure"] == 0


def _every_spot_looked_at(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice reader with no glance first: every spot on a card looked at in full."""
    monkeypatch.setattr(dice, "_GLANCE_DIE", 0.0)
    monkeypatch.setattr(dice, "_GLANCE_YELLOW_PX", 0)


# (7400 was one: lit, its print fitted with the glow since session 26 leaves no spot)
@pytest.mark.parametrize("seed", [7405, 7409, 7412])
def test_a_glance_spares_the_print_a_full_look_yet_reads_every_die_on_a_card_as_before(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # hard tables with half their dice on cards: a card's print a little off its face makes
    # spots where no die lies, which a glance turns down before the reader's full look (a
    # few milliseconds each); what is read, cards and dice, is what the full looks read
    scene = scenes.random_scene(seed, loose_cards=1, dice_on_cards=0.5)
    frame = scenes.render(scene, seed, scenes.Camera.preset("hard"))
    back = scene.cards[scene.railway[0]].pose
    config = VisionConfig.for_edition("rollecate")
    looks: list[bool] = []
    look_at = dice.look_at

    def counted(*args, **kwargs):  # the reader's own look, counted
        looks.append(kwargs.get("under") is not None)
        return look_at(*args, **kwargs)

    monkeypatch.setattr(dice, "look_at", counted)
    glanced = observe(frame, config, back=(back.x, back.y))
    on_cards_glanced = sum(looks)
    looks.clear()
    _every_spot_looked_at(monkeypatch)
    looked = observe(frame, config, back=(back.x, back.y))
    assert (glanced.cards, glanced.dice, glanced.railway) == (
        looked.cards,
        looked.dice,
        looked.railway,
    )
    assert glanced.problems == looked.problems
    assert on_cards_glanced < sum(looks), "no spot on a card was spared a look"


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_glance_keeps_our_wheel_dice_and_a_white_pip_die_on_cards_for_a_full_look(
    seed: int,
) -> None:
    # our yellow wheel dice (blank, one and two wheels) and a white pip die lying on railway
    # cards, seen by the hard camera: each spot is looked at in full, none turned down
    scene = _railway_with_dice_on_it(seed)
    frame = scenes.render(scene, seed, scenes.Camera.preset("hard", glare=0.0))
    calibration = observe(frame, VisionConfig.for_edition("rollecate")).calibration
    on_dice = [(d.x, d.y, None) for d in scene.dice]
    assert dice._worth_a_look(frame, calibration, on_dice, None) == on_dice
