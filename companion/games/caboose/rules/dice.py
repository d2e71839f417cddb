"""Dice results as the engine takes them: wheels per die (docs/RULINGS.md R-6).

A table without the custom dice can roll standard pip dice; a face map, chosen by the table
and shown on screen, says how many wheels each pip count stands for. Each edition's file gives
a default map that keeps its dice odds (R-9: a fact of the box, not of the code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.caboose.rules.edition import Edition


def face_map_for(edition: Edition, custom: Mapping[int, int] | None = None) -> dict[int, int]:
    """The table's pip-to-wheels map (the edition file's when the table gives none), checked
    against the edition's dice faces: a corrected file is checked like a table's choice."""
    face_map = dict(custom if custom is not None else edition.pip_face_map)
    if sorted(face_map) != [1, 2, 3, 4, 5, 6]:
        raise ValueError("a face map gives the wheels for each pip count 1 to 6")
    allowed = set(edition.die_faces)
    wrong = sorted({w for w in face_map.values() if w not in allowed})
    if wrong:
        raise ValueError(f"{edition.name} dice show {sorted(allowed)} wheels, not {wrong}")
    return face_map


def counted_alike(face_map: Mapping[int, int]) -> tuple[tuple[int, ...], ...]:
    """The pip faces a face map counts alike, each group in order (Rollecate's: 1-4 one
    wheel, 5-6 a blank): what the camera needs to know to ask about a pip die only when the
    wheels it stands for are in doubt."""
    groups: dict[int, list[int]] = {}
    for pips in sorted(face_map):
        groups.setdefault(face_map[pips], []).append(pips)
    return tuple(tuple(faces) for faces in sorted(groups.values()))


def wheels_from_pips(pips: Sequence[int], face_map: Mapping[int, int]) -> tuple[int, ...]:
    """Wheels per die from the pips of standard dice."""
    try:
        return tuple(face_map[p] for p in pips)
    except KeyError as missing:
        raise ValueError(f"a standard die shows 1 to 6 pips, not {missing.args[0]}") from None
