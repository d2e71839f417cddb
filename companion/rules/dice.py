"""Dice results as the engine takes them: wheels per die (RULINGS.md R-6).

A table without the custom dice can roll standard pip dice; a face map, chosen by the table
and shown on screen, says how many wheels each pip count stands for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules.edition import Edition

# Defaults that keep each edition's odds: Rollecate/LOK'n'ROLL dice have 4 wheel faces and
# 2 blanks; Loose Caboose's (assumed) 2 blank, 2 one-wheel, 2 two-wheel faces.
DEFAULT_FACE_MAPS: dict[str, dict[int, int]] = {
    "loose-caboose": {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2},
    "rollecate": {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0},
    "loknroll": {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0},
}


def face_map_for(edition: Edition, custom: Mapping[int, int] | None = None) -> dict[int, int]:
    """The table's pip-to-wheels map, checked against the edition's dice faces."""
    face_map = dict(custom) if custom is not None else dict(DEFAULT_FACE_MAPS[edition.id])
    if sorted(face_map) != [1, 2, 3, 4, 5, 6]:
        raise ValueError("a face map gives the wheels for each pip count 1 to 6")
    allowed = set(edition.die_faces)
    wrong = sorted({w for w in face_map.values() if w not in allowed})
    if wrong:
        raise ValueError(f"{edition.name} dice show {sorted(allowed)} wheels, not {wrong}")
    return face_map


def wheels_from_pips(pips: Sequence[int], face_map: Mapping[int, int]) -> tuple[int, ...]:
    """Wheels per die from the pips of standard dice."""
    try:
        return tuple(face_map[p] for p in pips)
    except KeyError as missing:
        raise ValueError(f"a standard die shows 1 to 6 pips, not {missing.args[0]}") from None
