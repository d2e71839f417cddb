"""Our own printable design of the track cards and the caboose token, drawn with cv2 (the
dice are the shared companion/vision/dice_art.py's: any game may roll them).

The design is made for the camera first, so that recognition stays cheap on a Pi:

- every card face has a dark frame inset from its edge with a white margin outside it, so two
  cards laid edge to edge still show two separate frames with a white band between them; the
  hole inside a frame is a clean rectangle of known size, which gives each card's pose;
- nothing inside the frame touches it, so the hole's outline is never broken by the art;
- the value is a big black digit in the top left corner plus that many dots in the bottom left
  corner: the digit is readable at low resolution and, being in one corner, tells the
  rotation over the full 360 degrees;
- the kind has its own panel colour and track colour (blue track, amber broken track with a
  gap and a black cross, violet chaos card with a star and no track), so kinds differ in
  shape as well as in colour and a colour cast cannot swap them;
- the track is thick and runs between the two rail ends of the shape (straight: the short
  edges' midpoints; curve: bottom short edge to right long edge), as rules/geometry.py
  defines them;
- the caboose token is the only saturated red thing on the table (the dice are yellow and
  white).

All drawing is in millimetres scaled by `px_per_mm`; sprites are portrait, rotation 0, and
come with a mask of their outline so the synthetic table can lay them on its surface.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.games.caboose import cards
from companion.vision.dice_art import INK, Sprite, fixed_point, rounded_rect

CARD_MM = (63.0, 88.0)  # short side x long side; an edition's `card_mm` may differ
MARGIN_MM = 4.0  # white band between the card edge and the frame
FRAME_MM = 3.0  # width of the dark frame
CLEAR_MM = 2.5  # art keeps this far from the frame's inner edge
CORNER_MM = 3.0  # card corner radius
CABOOSE_MM = 20.0  # token diameter

PAPER = (238, 242, 244)
PANEL = {cards.TRACK: (246, 228, 206), cards.BROKEN: (200, 240, 250), cards.CHAOS: (244, 214, 236)}
RAIL = {cards.TRACK: (150, 70, 20), cards.BROKEN: (20, 120, 200), cards.CHAOS: (150, 40, 120)}
CABOOSE_RED = (40, 40, 215)


def frame_hole_mm(card_mm: tuple[float, float] = CARD_MM) -> tuple[float, float]:
    """Width and height of the hole inside a card's frame: what recognition looks for."""
    inset = 2 * (MARGIN_MM + FRAME_MM)
    return card_mm[0] - inset, card_mm[1] - inset


def design_codes() -> tuple[str, ...]:
    """Every card face of the three editions, shapes included: the catalogue that ships."""
    from companion.games.caboose.rules import edition

    codes: dict[str, None] = {}
    for edition_id in edition.EDITIONS:
        codes.update(dict.fromkeys(edition.load(edition_id).deck))
    return tuple(codes)


def track_path(shape: str | None, w: float, h: float) -> np.ndarray:
    """Points of the rail's centre line in card mm, from one rail end to the other."""
    if shape == cards.CURVE:
        # quarter ellipse around the bottom right corner: (0, h/2) to (w/2, 0)
        t = np.linspace(np.pi, 1.5 * np.pi, 40)
        return np.stack([w / 2 + (w / 2) * np.cos(t), h / 2 + (h / 2) * np.sin(t)], axis=1)
    return np.stack([np.zeros(40), np.linspace(-h / 2, h / 2, 40)], axis=1)


@cache
def draw_card(code: str, px_per_mm: float = 4.0, card_mm: tuple[float, float] = CARD_MM) -> Sprite:
    """The face of a card at rotation 0 (portrait, value digit top left)."""
    value, kind, shape = cards.parse(code)
    w_mm, h_mm = card_mm
    h, w = round(h_mm * px_per_mm), round(w_mm * px_per_mm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = PAPER
    origin = (w_mm / 2, h_mm / 2)

    def pt(x: float, y: float) -> tuple[int, int]:
        return fixed_point(x, y, px_per_mm, origin)

    def mm(length: float) -> int:
        return max(1, round(length * px_per_mm))

    outer = MARGIN_MM + FRAME_MM / 2
    cv2.rectangle(
        img,
        pt(-w_mm / 2 + outer, -h_mm / 2 + outer),
        pt(w_mm / 2 - outer, h_mm / 2 - outer),
        INK,
        mm(FRAME_MM),
        cv2.LINE_AA,
        4,
    )
    hole_w, hole_h = frame_hole_mm(card_mm)
    panel = np.zeros((h, w), np.uint8)
    cv2.rectangle(panel, pt(-hole_w / 2, -hole_h / 2), pt(hole_w / 2, hole_h / 2), 255, -1, 8, 4)
    img[panel > 0] = PANEL[kind]

    art = np.zeros_like(img)
    art_mask = np.zeros((h, w), np.uint8)
    if kind == cards.CHAOS:
        star = [
            (
                (17 if i % 2 == 0 else 7) * np.sin(i * np.pi / 5),
                -(17 if i % 2 == 0 else 7) * np.cos(i * np.pi / 5) + 8,
            )
            for i in range(10)
        ]
        poly = np.array([pt(x, y) for x, y in star], np.int32)
        cv2.fillPoly(art, [poly], RAIL[kind], cv2.LINE_AA, 4)
        cv2.fillPoly(art_mask, [poly], 255, cv2.LINE_AA, 4)
    else:
        path = track_path(shape, w_mm, h_mm)
        poly = np.array([pt(x, y) for x, y in path], np.int32)
        cv2.polylines(art, [poly], False, RAIL[kind], mm(9), cv2.LINE_AA, 4)
        cv2.polylines(art_mask, [poly], False, 255, mm(9), cv2.LINE_AA, 4)
        # sleepers across the rail every 7 mm, so the track reads as a track
        steps = np.hypot(*np.diff(path, axis=0).T)
        along = np.concatenate([[0.0], np.cumsum(steps)])
        for at in np.arange(6.0, along[-1] - 5.0, 7.0):
            i = min(int(np.searchsorted(along, at)), len(path) - 1)
            d = (path[i] - path[i - 1]) / max(steps[i - 1], 1e-6)
            mid, n = path[i - 1] + d * (at - along[i - 1]), np.array([-d[1], d[0]]) * 3.5
            cv2.line(art, pt(*(mid - n)), pt(*(mid + n)), PANEL[kind], mm(1.2), cv2.LINE_AA, 4)
        if kind == cards.BROKEN:
            centre = path[len(path) // 2]
            cv2.circle(art, pt(*centre), mm(7) * 16, PANEL[kind], -1, cv2.LINE_AA, 4)
            for dx, dy in ((1, 1), (1, -1)):
                cv2.line(art, pt(centre[0] - 5 * dx, centre[1] - 5 * dy), pt(centre[0] + 5 * dx,
                         centre[1] + 5 * dy), INK, mm(2.2), cv2.LINE_AA, 4)  # fmt: skip
    # the value: a big digit top left and `value` dots bottom left
    text = str(value)
    font, thick = cv2.FONT_HERSHEY_DUPLEX, mm(3.2)
    (_, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    font_scale = 20 * px_per_mm / th
    (_tw, th), _ = cv2.getTextSize(text, font, font_scale, thick)
    gx, gy = -hole_w / 2 + CLEAR_MM + 1.5, -hole_h / 2 + CLEAR_MM + 2.0
    org = (round((gx + origin[0]) * px_per_mm), round((gy + origin[1]) * px_per_mm) + th)
    cv2.putText(art, text, org, font, font_scale, INK, thick, cv2.LINE_AA)
    cv2.putText(art_mask, text, org, font, font_scale, 255, thick, cv2.LINE_AA)
    for i in range(value):
        centre = pt(-hole_w / 2 + CLEAR_MM + 3.5, hole_h / 2 - CLEAR_MM - 3.5 - i * 6.5)
        cv2.circle(art, centre, mm(2.4) * 16, INK, -1, cv2.LINE_AA, 4)
        cv2.circle(art_mask, centre, mm(2.4) * 16, 255, -1, cv2.LINE_AA, 4)
    # keep the art inside the hole, clear of the frame
    clip = np.zeros((h, w), np.uint8)
    cw, ch = hole_w / 2 - CLEAR_MM, hole_h / 2 - CLEAR_MM
    cv2.rectangle(clip, pt(-cw, -ch), pt(cw, ch), 255, -1, 8, 4)
    art_mask = cv2.bitwise_and(art_mask, clip)
    alpha = (art_mask.astype(np.float32) / 255)[..., None]
    img = (img * (1 - alpha) + art * alpha).astype(np.uint8)
    return img, rounded_rect((h, w), mm(CORNER_MM))


@cache
def draw_caboose(px_per_mm: float = 4.0) -> Sprite:
    """The caboose token seen from above: a red disc with a dark rim and a white roof lamp."""
    size = round(CABOOSE_MM * px_per_mm)
    img = np.zeros((size, size, 3), np.uint8)
    mask = np.zeros((size, size), np.uint8)
    c = (size * 8, size * 8)
    r = round(CABOOSE_MM / 2 * px_per_mm * 16)
    cv2.circle(mask, c, r - 8, 255, -1, cv2.LINE_AA, 4)
    cv2.circle(img, c, r - 8, (25, 25, 90), -1, cv2.LINE_AA, 4)
    cv2.circle(img, c, round(r * 0.86), CABOOSE_RED, -1, cv2.LINE_AA, 4)
    cv2.circle(img, c, round(r * 0.22), (235, 235, 235), -1, cv2.LINE_AA, 4)
    return img, mask
