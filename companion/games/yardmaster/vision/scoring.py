"""How a reading of a synthetic yard is scored against its truth, the same for our design
(eval_vision.py) and a printed deck the camera was taught (eval_printed.py).

A true train is the seen train whose engine lies within `SAME_CARD_MM` of its engine; its
cards are compared in order. A card is right when its code as it lies and whether it is
turned are; unsure when the reader said so (the watcher waits for another frame: no harm
done), wrong when read surely as something else (the misreads that would reach the
game), missing when the seen train ends before it. A train is exact when every card is
right and no card is seen after its last. The cards a lamp's reflection touches (`under_lamp`)
are counted again apart: under it a reader asks, or says the lamp and waits; the share read
right is asked of the cards clear of it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from companion.games.yardmaster import cards, scenes
from companion.games.yardmaster.vision.reader import UNSURE, Yard
from companion.synthetic import Camera, camera_view
from companion.synthetic.camera import clear_share, lamp_footprint, touched
from companion.vision.table import card_corners

SAME_CARD_MM = 15.0  # a seen engine this close to a true engine's centre is that engine
KINDS = ("engine", "face_up", "turned", "face_down")
LAMP = ("lamp", "lamp_right", "lamp_unsure", "lamp_wrong", "lamp_missing")
LAMP_TRAINS = ("lamp_trains", "lamp_trains_exact")  # trains with a card under it


def _kind(card: scenes.LaidCard) -> str:
    if card.code == cards.ENGINE:
        return "engine"
    if card.code == cards.FACE_DOWN:
        return "face_down"
    return "turned" if card.turned else "face_up"


def under_lamp(
    truth: scenes.Yard, scene_seed: int, camera: Camera, frame: np.ndarray
) -> frozenset[tuple[int, int]]:
    """The cards of `truth` (train, card index) that the lamp's reflection touches in
    `frame`, rendered from `scene_seed` through `camera` (synthetic.camera.lamp_footprint)."""
    footprint = lamp_footprint(truth.scene, scene_seed, camera, frame)
    if footprint is None:
        return frozenset()
    view = camera_view(scene_seed, camera, truth.scene.layout)
    sizes = {card.pose: card.size for card in truth.scene.cards}  # the laid cards, drawn
    return frozenset(
        (t, c)
        for t, train in enumerate(truth.trains)
        for c, card in enumerate(train.cards)
        if touched(footprint, view, card_corners(card.pose, sizes[card.pose]))
    )


def score_yard(
    truth: scenes.Yard, seen: Yard, lit: frozenset[tuple[int, int]] = frozenset()
) -> dict:
    """Per-scene counts: cards right, unsure, wrong (and sure), missing, by kind; trains
    exact; seen trains with no true engine under them; cards seen after a train's end; and
    of the cards `lit` names (`under_lamp`), again apart (`LAMP`)."""
    counts = {f"{kind}_{what}": 0 for kind in KINDS for what in ("cards", "right")}
    counts |= {"unsure": 0, "wrong": 0, "missing": 0, "extra_cards": 0, "trains_exact": 0}
    counts |= dict.fromkeys(LAMP + LAMP_TRAINS, 0)
    matched: set[int] = set()
    for t, train in enumerate(truth.trains):
        engine = train.cards[0].pose
        match = None
        for index, candidate in enumerate(seen.trains):
            pose = candidate.cards[0].pose
            if index not in matched and math.dist(pose[:2], engine[:2]) < SAME_CARD_MM:
                match = index
        got = () if match is None else seen.trains[match].cards
        if match is not None:
            matched.add(match)
        exact = len(got) == len(train.cards)
        for index, card in enumerate(train.cards):
            kind = _kind(card)
            counts[f"{kind}_cards"] += 1
            if index >= len(got):
                outcome = "missing"
            else:
                read = got[index]
                if (read.code, read.turned) == (card.code, card.turned) and read.sure:
                    outcome = "right"
                elif not read.sure or read.code == UNSURE:
                    outcome = "unsure"
                else:
                    outcome = "wrong"
            counts[f"{kind}_right" if outcome == "right" else outcome] += 1
            exact &= outcome == "right"
            if (t, index) in lit:
                counts["lamp"] += 1
                counts[f"lamp_{outcome}"] += 1
        extra = got[len(train.cards) :]
        counts["extra_cards"] += len(extra)
        counts["wrong"] += sum(card.sure for card in extra)
        counts["trains_exact"] += exact
        if any((t, index) in lit for index in range(len(train.cards))):
            counts["lamp_trains"] += 1
            counts["lamp_trains_exact"] += exact
    counts["trains"] = len(truth.trains)
    counts["trains_extra"] = len(seen.trains) - len(matched)
    return counts


def tally(
    totals: dict[str, int],
    failures: list[dict],
    scene_seed: int,
    truth: Any,
    seen: Any,
    lit: frozenset[tuple[int, int]] = frozenset(),
) -> None:
    """One scene's reading (`seen`, a reader.Yard) scored against its truth (a
    scenes.Yard; `lit` its cards under a lamp's reflection) into the run's `totals`, and
    kept among the `failures` if a train of it was not read exactly: what every design's
    evaluation counts."""
    result = score_yard(truth, seen, lit)
    for key, value in result.items():
        totals[key] = totals.get(key, 0) + value
    if result["trains_exact"] < result["trains"] or result["trains_extra"]:
        failures.append({
            "seed": scene_seed,
            "truth": [list(t.codes) for t in truth.trains],
            "seen": [list(t.codes) for t in seen.trains],
        })  # fmt: skip


def summary(totals: dict[str, int]) -> dict[str, Any]:
    """A run's `totals` (`tally`) as the report's cards and trains."""
    n_cards = sum(totals[f"{kind}_cards"] for kind in KINDS)
    right = sum(totals[f"{kind}_right"] for kind in KINDS)
    by_kind = {
        kind: {"cards": totals[f"{kind}_cards"], "right": totals[f"{kind}_right"]} for kind in KINDS
    }
    return {
        "cards": n_cards,
        "cards_right": right,
        "cards_accuracy": round(right / n_cards, 4) if n_cards else 1.0,
        "by_kind": by_kind,
        "cards_unsure": totals["unsure"],
        "cards_wrong_sure": totals["wrong"],
        "cards_missing": totals["missing"],
        "cards_extra": totals["extra_cards"],
        "trains": totals["trains"],
        "trains_exact": round(totals["trains_exact"] / totals["trains"], 4),
        "trains_extra": totals["trains_extra"],
        **{f"cards_{key}": totals[key] for key in LAMP},  # cards_lamp, cards_lamp_right, ...
        "cards_clear_accuracy": clear_share(right, n_cards, totals["lamp_right"], totals["lamp"]),
        **{key: totals[key] for key in LAMP_TRAINS},
        "trains_clear_exact": clear_share(
            totals["trains_exact"],
            totals["trains"],
            totals["lamp_trains_exact"],
            totals["lamp_trains"],
        ),
    }
