"""R-9: each edition file lists, as an assumption, every fact it sets that its rulebook does not
print, and says where the dice faces come from. A table that corrects a file needs to know which
numbers were read in a rulebook and which were supplied."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from companion.games.caboose.rules.edition import EDITIONS, load

RULEBOOKS = Path(__file__).resolve().parents[3].parent / "shared" / "rules"
RULEBOOK = {
    "loose-caboose": "loose-caboose-gamewright-2022-en-es.txt",
    "rollecate": "rollecate-en.txt",
    "loknroll": "loknroll-tranjis-2020-es.txt",
}

# The facts each edition file sets that its rulebook does not print, as read in
# shared/rules/ (see the package's docs/RULINGS.md for where the missing ones come from).
NOT_PRINTED = {
    "loose-caboose": {"deck", "card_mm", "track", "dice.faces"},
    # The setup section is missing from the Rollecate rulebook.
    "rollecate": {"deck", "card_mm", "track", "first_railway", "removed_at_setup", "hand"},
    # The components list says only "4 dados".
    "loknroll": {"deck", "card_mm", "track", "dice.faces"},
}
# How a rulebook prints its dice faces, where it does.
PRINTED_FACES = {"rollecate": "4 6-sided dice (4x wheel, 2x blank)"}


def assumed_facts(edition_id: str) -> dict[str, str]:
    """Fact name -> assumption text; an assumption starts with the facts it covers, as in
    "first_railway, removed_at_setup, hand: ..."."""
    facts: dict[str, str] = {}
    for text in load(edition_id).assumptions:
        names, _, _ = text.partition(":")
        for name in names.split(","):
            facts.setdefault(name.strip(), text)
    return facts


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_R9_every_fact_the_rulebook_does_not_print_is_an_assumption(edition_id):
    missing = NOT_PRINTED[edition_id] - set(assumed_facts(edition_id))
    assert not missing, f"{edition_id}.json sets {sorted(missing)} with no assumption"


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_R9_the_dice_faces_have_a_stated_source(edition_id):
    faces = assumed_facts(edition_id).get("dice.faces")
    if edition_id in PRINTED_FACES:
        assert faces is None, "the rulebook prints the faces: they are no assumption"
        return
    assert faces is not None, f"{edition_id}.json does not say where its dice faces come from"
    _, _, source = faces.partition("source:")
    # Only RULINGS.md names these faces: the rulebook must not be given as their source.
    assert "RULINGS.md" in source, faces
    assert "rulebook names" not in faces, faces


def test_R9_the_assumed_faces_agree_with_the_data():
    """LOK'n'ROLL's dice are Rollecate's (RULINGS.md), which its rulebook prints: four wheel
    faces, two blank; Loose Caboose's faces are blank, 1 and 2 wheels, two of each."""
    assert Counter(load("rollecate").die_faces) == {1: 4, 0: 2}
    assert load("loknroll").die_faces == load("rollecate").die_faces
    assert Counter(load("loose-caboose").die_faces) == {0: 2, 1: 2, 2: 2}


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks (shared/rules) are not here")
@pytest.mark.parametrize("edition_id", EDITIONS)
def test_R9_what_is_said_about_the_rulebooks_is_what_they_print(edition_id):
    text = (RULEBOOKS / RULEBOOK[edition_id]).read_text(encoding="utf-8")
    if edition_id in PRINTED_FACES:
        assert PRINTED_FACES[edition_id] in text
    else:
        # No face is named: neither a blank face nor a count of wheel faces.
        lowered = text.lower()
        assert not any(word in lowered for word in ("blank", "en blanco", "x wheel", "caras"))
