"""How the table's dice reader makes one pip count of its two readers (the layout fit and
the learned count), that looking for faint dice finds none where none lie, and that a
yellow pip die is not taken for our yellow wheel die."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.synthetic import PlacedDie
from companion.vision import dice as dice_reader
from companion.vision import dice_art
from companion.vision.dice import _agreed

UNSURE = FollowConfig().die_unsure_below  # a die read less surely is asked about


def _chances(face: int, sure: float) -> np.ndarray:
    """A learned count `sure` of `face`, the rest spread over the other counts and 0."""
    chances = np.full(7, (1.0 - sure) / 6)
    chances[face] = sure
    return chances


def _errors(best: int, error: float, others: float) -> np.ndarray:
    """A layout fit whose count `best` fits with `error`, every other count with `others`."""
    errors = np.full(6, others)
    errors[best - 1] = error
    return errors


def test_a_layout_that_fits_cleanly_is_believed_over_the_learned_count() -> None:
    # a drawn die: its layout fits all but exactly, the learned count would rather have a 2
    chances = _chances(2, 0.45)
    chances[4] = 0.35
    face, confidence = _agreed(_errors(4, 0.01, 1.0), chances)
    assert face == 4 and confidence >= UNSURE


def test_a_clean_fit_the_learned_count_rules_out_is_asked() -> None:
    # a real die's glare fitting a 1 exactly while the count is sure of a 3: never guessed
    face, confidence = _agreed(_errors(1, 0.0, 1.0), _chances(3, 0.9))
    assert face in (1, 3) and confidence < UNSURE


def test_a_layout_that_fits_loosely_lets_the_learned_count_decide() -> None:
    # a real die (marbled, coloured pips): every layout fits about as badly
    face, confidence = _agreed(_errors(3, 0.9, 1.2), _chances(5, 0.9))
    assert face == 5 and confidence >= UNSURE


ROLLECATE = ((1, 2, 3, 4), (5, 6))  # R-6's example: 1-4 pips a wheel, 5-6 a blank


def test_a_die_whose_face_is_in_doubt_but_not_its_wheels_is_not_asked() -> None:
    """A real die the count cannot tell between a 3 and a 4: one wheel either way in
    Rollecate, so the family is not asked which; without a face map it is."""
    chances = _chances(3, 0.45)
    chances[4] = 0.45
    errors = _errors(4, 0.9, 1.2)  # a loose fit: the count decides
    assert _agreed(errors, chances)[1] < UNSURE
    face, confidence = _agreed(errors, chances, alike=ROLLECATE)
    assert face in (3, 4) and confidence >= UNSURE


def test_a_die_whose_wheels_are_in_doubt_is_still_asked() -> None:
    """Torn between a 4 (a wheel) and a 5 (a blank): what it counts for is in doubt."""
    chances = _chances(4, 0.45)
    chances[5] = 0.45
    assert _agreed(_errors(4, 0.9, 1.2), chances, alike=ROLLECATE)[1] < UNSURE


def test_a_count_spread_over_many_faces_that_count_alike_is_still_asked() -> None:
    """Spread over 1, 2, 3 and 4 (0.85 in all, no two of them over 0.45): the count is
    unsure of the die itself, not torn between two faces, and its sum is not believed."""
    chances = np.array([0.0, 0.25, 0.2, 0.2, 0.2, 0.1, 0.05])
    assert _agreed(_errors(4, 0.9, 1.2), chances, alike=ROLLECATE)[1] < UNSURE


def test_the_likeliest_wheels_win_over_the_likeliest_face() -> None:
    """A 5 alone is likelier than any one of 1-4, but 1-4 together likelier still: the die
    is read as the wheel 1-4 stand for, by the likeliest face among them."""
    chances = np.array([0.0, 0.3, 0.3, 0.0, 0.0, 0.35, 0.05])
    face, _ = _agreed(_errors(4, 0.9, 1.2), chances, alike=ROLLECATE)
    assert face in (1, 2)


@pytest.mark.parametrize("sure", [0.55, 0.7])
def test_a_loose_fit_the_learned_count_is_not_sure_of_is_asked(sure: float) -> None:
    # on real dice a count under 0.8 sure was wrong often enough to be asked, even where
    # the joint with the loose fit came out over 0.5
    face, confidence = _agreed(_errors(5, 0.9, 1.2), _chances(5, sure))
    assert face == 5 and confidence < UNSURE


def test_a_faint_die_needs_a_surer_count_than_a_plain_one() -> None:
    # a dark die on brown wood, only a little unlike the table: its outline is in doubt too
    errors, chances = _errors(2, 0.9, 1.2), _chances(2, 0.85)
    assert _agreed(errors, chances)[1] >= UNSURE
    assert _agreed(errors, chances, faint=True)[1] < UNSURE
    assert _agreed(errors, _chances(2, 0.95), faint=True)[1] >= UNSURE


def test_a_faint_die_the_count_is_all_but_sure_of_is_read_unasked() -> None:
    # with the table's own counter a faint die counted 0.88 sure was right often enough to
    # be taken (odd-half tables); a die lying on a card, whose print the count never saw,
    # still needs 0.9
    errors, chances = _errors(4, 0.9, 1.2), _chances(4, 0.88)
    face, confidence = _agreed(errors, chances, faint=True)
    assert face == 4 and confidence >= UNSURE
    assert _agreed(errors, chances, faint=True, on_a_card=True)[1] < UNSURE
    assert _agreed(errors, _chances(4, 0.95), faint=True, on_a_card=True)[1] >= UNSURE


def test_two_readers_that_disagree_make_the_count_unsure_so_it_is_asked() -> None:
    face, confidence = _agreed(_errors(6, 0.1, 0.9), _chances(4, 0.5))
    assert face in (4, 6) and confidence < UNSURE


def test_no_layout_fitting_at_all_leaves_the_learned_count() -> None:
    face, confidence = _agreed(np.full(6, np.inf), _chances(6, 0.9))
    assert face == 6 and confidence >= UNSURE


@pytest.mark.parametrize("seed", [5001, 5002, 5003])
def test_faint_dice_are_not_made_of_wood_grain(seed: int) -> None:
    # the faint search looks at blobs only a little darker than the wood: with no die on
    # the table under the hard camera, none of them may become a die
    scene = synthetic.random_scene(seed, n_dice=0, loose_cards=1)
    frame = synthetic.render(scene, seed, synthetic.Camera.preset("hard"))
    assert observe(frame, VisionConfig.for_edition("rollecate")).dice == ()


def _yellow_die(face: int, yellow: tuple[int, int, int] = (120, 225, 240)):
    """A picture of a yellow pip die with black pips (by default a pale yellow, not our
    wheel die's)."""

    def draw(px_per_mm: float) -> np.ndarray:
        img, mask = dice_art.draw_pip_die(face, px_per_mm, "white")
        img = img.copy()
        body = np.abs(img.astype(int) - dice_art.PIP_COLOURS["white"][0]).sum(axis=2) < 10
        img[body] = yellow
        return np.dstack([img, mask])

    return draw


def _six_dice_seen(picture, camera: str):
    """Pip dice 1-6 drawn by `picture(face)` laid in the clear on a table of three cards
    (seed 40), through the `camera` preset: where they lie, and the dice observed."""
    scene = synthetic.random_scene(40, n_cards=3, n_dice=0)
    clear = [
        (float(x), float(y))
        for y in range(90, 560, 45)
        for x in range(90, 790, 90)
        if all(math.dist((x, y), (c.pose.x, c.pose.y)) > 75 for c in scene.cards)
    ]
    spots = clear[::2][:6]
    dice = tuple(
        PlacedDie("pips", face, x, y, 17.0 * face, picture=picture(face))
        for face, (x, y) in zip(range(1, 7), spots, strict=True)
    )
    frame = synthetic.render(replace(scene, dice=dice), 40, synthetic.Camera.preset(camera))
    return spots, observe(frame, VisionConfig.for_edition("rollecate")).dice


@pytest.mark.parametrize("yellow", [(120, 225, 240), dice_art.WHEEL_DIE], ids=["pale", "ours"])
def test_a_yellow_pip_die_is_read_as_the_pip_die_it_is(yellow) -> None:
    spots, seen = _six_dice_seen(lambda face: _yellow_die(face, yellow), "easy")
    read = [[(d.kind, d.face) for d in seen if math.dist(d.position, xy) < 6] for xy in spots]
    assert read == [[("pips", face)] for face in range(1, 7)]


def _red_die(body: tuple[int, int, int], pips: tuple[int, int, int]):
    """Pictures (by face) of a pip die of the BGR colour `body` with pips of `pips`."""

    def of_face(face: int):
        def draw(px_per_mm: float) -> np.ndarray:
            img, mask = dice_art.draw_pip_die(face, px_per_mm, "white")
            pale = np.abs(img.astype(int) - dice_art.PIP_COLOURS["white"][0]).sum(axis=2) < 10
            img = np.where(pale[..., None], body, pips).astype(np.uint8)
            return np.dstack([img, mask])

        return draw

    return of_face


def _found(spots, seen) -> dict:
    """The die seen at each of the six `spots`, by the face laid there."""
    return {
        face: die
        for face, xy in zip(range(1, 7), spots, strict=True)
        for die in seen
        if math.dist(die.position, xy) < 6
    }


def test_a_die_darker_than_the_wood_is_found() -> None:
    # a dull red die with pale pips: darker than the wood it lies on, and too little of
    # another colour to stand out from it. Its body is the dark side of the crop's split,
    # not the light one: before, only the one was found (the one with the fewest pips: the
    # most of its body showing)
    spots, seen = _six_dice_seen(_red_die((40, 40, 110), (150, 150, 200)), "hard")
    found = _found(spots, seen)
    assert len(found) >= 3 and len(seen) == len(found)  # nothing where no die lies
    assert all(die.face == face or die.confidence < UNSURE for face, die in found.items())


def test_a_red_die_on_the_wood_is_found_apart_from_its_shadow() -> None:
    # a dark red die of about the wood's darkness: its colour sets it apart, its brightness
    # does not. A faint die's body was only where the crop is a little darker or of another
    # colour than the wood: its shadow is darker too, so the die and its shadow made one
    # blob too large for a die and two of six were not found; its colour alone outlines it
    spots, seen = _six_dice_seen(_red_die((50, 40, 120), (170, 170, 220)), "hard")
    found = _found(spots, seen)
    assert len(found) == 6 and len(seen) == 6  # nothing where no die lies
    assert all(die.face == face or die.confidence < UNSURE for face, die in found.items())


def test_the_counters_are_asked_only_about_the_dice_whose_count_is_used(monkeypatch) -> None:
    # each die asked about costs a counter as much again (a Caboose frame's budget): the
    # table's count of our wheel dice off the cards went unused, and so did the photographs'
    # say of whether our wheel die lying on a card is a pip die (it stays a wheel die)
    scene = synthetic.random_scene(40, n_cards=3, n_dice=0)
    card = scene.cards[1].pose  # lies about (527, 440)
    wheels = [PlacedDie("wheels", face, x, 120.0, 20.0 * face) for face, x in ((0, 300), (2, 480))]
    pips = [PlacedDie("pips", 5, 390.0, 480.0, 10.0)]
    on_a_card = [PlacedDie("wheels", 1, card.x + 5.0, card.y + 10.0, 30.0)]
    asked = {True: 0, False: 0}  # dice asked about, by the table's counter and the other
    real = dice_reader.count_many

    def counting(bgr, rects, grey_counter=True, table=False):
        asked[table] += len(rects)
        return real(bgr, rects, grey_counter, table)

    monkeypatch.setattr(dice_reader, "count_many", counting)
    config = VisionConfig.for_edition("rollecate")
    easy = synthetic.Camera.preset("easy")
    # (table's, photographs'): our wheel dice are asked whether they are pip dice, a white
    # pip die is counted; our wheel die on a card only asked whether it shows other pips
    for dice, counted in ((wheels, (0, 2)), (wheels + pips, (1, 2)), (on_a_card, (1, 0))):
        asked.update({True: 0, False: 0})
        seen = observe(synthetic.render(replace(scene, dice=tuple(dice)), 40, easy), config).dice
        read = [
            [(s.kind, s.face) for s in seen if math.dist(s.position, (d.x, d.y)) < 6] for d in dice
        ]
        assert read == [[(d.kind, d.face)] for d in dice] and len(seen) == len(dice)
        assert (asked[True], asked[False]) == counted


def test_a_clean_fit_is_believed_where_the_count_only_spreads_its_answer_when_asked_for() -> None:
    # the switching board's drawn 4 (tuning seed 3048): the layout fits cleanly, far better
    # than any other count's, the learned count spreads its answer over 2-6
    errors = np.array([2.074, 1.414, 2.414, 0.057, 1.057, 1.031])
    chances = np.array([0.03, 0.005, 0.257, 0.356, 0.078, 0.15, 0.124])
    face, confidence = _agreed(errors, chances)
    assert confidence < UNSURE  # the Caboose table's reading: asked
    assert dice_reader._clean_fit(errors, chances, face, confidence) == (4, 0.95)


def test_a_clean_fit_is_not_believed_over_a_count_sure_of_another_face_nor_as_a_1() -> None:
    errors = np.array([2.074, 1.414, 2.414, 0.057, 1.057, 1.031])
    sure_of_3 = _chances(3, 0.7)
    assert dice_reader._clean_fit(errors, sure_of_3, 3, 0.3) == (3, 0.3)
    no_die = _chances(4, 0.3)
    no_die[0] = 0.6  # the count takes it for no die at all
    assert dice_reader._clean_fit(errors, no_die, 4, 0.3) == (4, 0.3)
    # a real die's glare fitting a 1 exactly, the count spread (the Caboose table's real
    # dice, seed 5000): never taken on the fit alone
    glare = np.array([0.0, 1.993, 1.134, 1.424, 1.979, 0.95])
    spread = np.array([0.004, 0.118, 0.336, 0.183, 0.063, 0.264, 0.031])
    assert dice_reader._clean_fit(glare, spread, 1, 0.118) == (1, 0.118)
    loose = _errors(4, 0.3, 1.2)  # a loose fit: the count decides, as before
    assert dice_reader._clean_fit(loose, _chances(4, 0.3), 4, 0.2) == (4, 0.2)


def test_a_loose_fit_of_a_blurred_die_is_not_believed_whatever_its_face() -> None:
    # blur smears pips as well as losing them: at 1280x720 a 2 smeared along the 6's
    # columns fit a 6 at 0.185, far better than any other count, the count spread
    smeared_2 = np.array([1.586, 1.386, 2.27, 1.385, 2.228, 0.185])
    spread = np.array([0.36, 0.177, 0.147, 0.114, 0.02, 0.076, 0.107])
    assert dice_reader._clean_fit(smeared_2, spread, 6, 0.0) == (6, 0.0)
    # and a far 5 whose middle pip was lost fit a 4 at 0.111 (ours, seed 300)
    lost_pip = np.array([1.574, 1.05, 1.681, 0.111, 1.111, 1.008])
    counted = np.array([0.012, 0.009, 0.014, 0.028, 0.462, 0.064, 0.411])
    assert dice_reader._clean_fit(lost_pip, counted, 4, 0.0) == (4, 0.0)


def test_a_coarse_wheel_die_the_count_takes_for_pips_is_asked_not_read_as_pips() -> None:
    # at 1280x720 (0.52 px/mm there) our wheel die showing two wheels in a shadow is 8 px
    # wide, its yellow paler than ours, and the learned count takes it for a pip die at
    # 0.59: it had been read as a 2, surely, which Loose Caboose makes no wheels (table 7069)
    camera = synthetic.Camera.preset("hard", glare=0.0, frame_size=(1280, 720))
    config = VisionConfig.for_edition("loose-caboose", frame_size=camera.frame_size)
    scene = synthetic.random_scene(7069, "loose-caboose", loose_cards=1)
    truth = next(d for d in scene.dice if d.kind == "wheels" and d.face == 2)
    seen = observe(synthetic.render(scene, 7069, camera), config)
    die = min(seen.dice, key=lambda d: math.dist(d.position, (truth.x, truth.y)))
    assert math.dist(die.position, (truth.x, truth.y)) < 10.0
    assert (die.kind, die.face) == ("wheels", 2) or die.confidence < UNSURE


def test_a_coarse_face_neither_reader_puts_first_is_asked() -> None:
    # at 1280x720 (0.64 px/mm) a white 4's layout fits cleanly (0.08) and its 6 second
    # (0.28), while the learned count spreads over 3 (0.35) and 6 (0.32): the joint had been
    # a 6 at 0.68, a face neither reader puts first, read wrong yet surely
    errors = np.array([1.645, 1.367, 2.367, 0.079, 1.079, 0.28])
    chances = np.array([0.055, 0.013, 0.105, 0.352, 0.079, 0.07, 0.324])
    face, confidence = _agreed(errors, chances, coarse=True)
    assert face == 4 or confidence < UNSURE
    # a finer table keeps its figures as tuned: the change is the coarse frame's alone
    assert _agreed(errors, chances) == _agreed(errors, chances, coarse=False)


def test_a_coarse_white_four_is_not_read_as_a_six_surely() -> None:
    # the same on a whole frame: table 9125 at 1280x720, a white 4 read as a 6 at 0.73
    camera = synthetic.Camera.preset("hard", frame_size=(1280, 720))
    config = VisionConfig.for_edition("rollecate", frame_size=camera.frame_size)
    scene = synthetic.random_scene(9125, "rollecate", loose_cards=1)
    truth = next(d for d in scene.dice if math.dist((d.x, d.y), (487.5, 178.3)) < 1.0)
    seen = observe(synthetic.render(scene, 9125, camera), config)
    die = min(seen.dice, key=lambda d: math.dist(d.position, (truth.x, truth.y)))
    assert math.dist(die.position, (truth.x, truth.y)) < 10.0
    assert (die.kind, die.face) == ("pips", 4) or die.confidence < UNSURE
