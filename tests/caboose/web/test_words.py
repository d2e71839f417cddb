"""The words a family reads: real plurals in both languages, the ranking's decider said in
the log's language, the variants by name, railway cards counted from 1 as the page draws
them, and each turn's log line in the order things happened on the table."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from companion.games.caboose import view
from companion.games.caboose.record import from_json
from companion.games.caboose.rules import edition
from companion.games.caboose.rules.engine import apply
from companion.games.caboose.rules.state import GAME_OVER, Chaos, Event, Pass, Play
from companion.games.caboose.snapshot import snapshot_of
from companion.games.caboose.turn_log import turn_line
from companion.games.caboose.words import (
    LANGUAGES,
    TEXT,
    card_words,
    cards_words,
    session_words,
)
from companion.store import Store
from tests.caboose.rules.conftest import table
from tests.caboose.test_follow import lay, roll, start
from tests.playing import match
from tests.web.conftest import record
from tests.words_checks import codes_in, sample_views
from web.words import SHELL

# "1 cards", "1 cartas", "1 puntos", "1 dice", "le faltan 1": a plural said of one thing.
PLURAL_OF_ONE = re.compile(r"\b1 (\w+s|dice)\b|\b(faltan|quedan) 1\b")
DECIDERS = ("score", "cards", "4s", "3s", "2s", "1s", "shared", "lost", "solo")


def page(lang: str) -> dict[str, str]:
    """Every word of the page with a Caboose game: the shell's and the game's."""
    return SHELL[lang] | TEXT[lang]


def counted_by_the_page(lang: str, key: str, n: int) -> str:
    """A word of the page as shell.js's `t` says it: the `_one` form when the count is 1."""
    words = page(lang)
    template = words.get(f"{key}_one", words[key]) if n == 1 else words[key]
    fields = {name for _, name, _, _ in Formatter().parse(template) if name}
    return template.format(**{name: n if name == "n" else "X" for name in fields})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_says_one_card_one_point_one_die(lang):
    counted = [key for key, text in page(lang).items() if "{n}" in text]
    assert {"draw_left", "score", "k_cards", "pin_wait", "watch_turn"} <= set(counted)
    for key in counted:
        one = counted_by_the_page(lang, key, 1)
        assert not PLURAL_OF_ONE.search(one), (key, one)
    for text in page(lang).values():
        assert "(s)" not in text, text
    assert counted_by_the_page("es", "score", 1) == "1 punto"
    assert counted_by_the_page("es", "draw_left", 1) == "queda 1 carta en el mazo"
    assert counted_by_the_page("en", "k_cards", 1) == "1 card"


def test_the_log_says_one_penalty_card_and_one_short():
    # Ana draws the last card and passes with nothing left to pay: one card forgiven.
    state = table("loose-caboose", ["3"], 0, [["1"], ["3"]], draw=["1"])
    _, events = apply(state, Pass())
    assert "1 penalty card forgiven" in turn_line(1, "Ana", events, "en")
    assert "1 carta de penalización perdonada" in turn_line(1, "Ana", events, "es")
    # Two 2s on a railway whose caboose is at the front: 4 wheels, one card of room.
    state = table("rollecate", ["3", "3", "4", "3"], 2, [["2", "2"], ["3"]])
    _, events = apply(state, Play(("2", "2"), (1, 1, 1, 1)))
    assert "descarrila, le falta 1," in turn_line(1, "Ana", events, "es")
    for lang in LANGUAGES:
        assert not PLURAL_OF_ONE.search(turn_line(1, "Ana", events, lang))


def test_the_session_says_one_more_die_in_both_languages(tmp_path):
    """A die more than the one still wanted: "1 is wanted", "falta 1"."""
    table_, session, _, play = start(Store(tmp_path / "table.sqlite3"), "rollecate")
    laid = lay(table_, play)
    for _ in range(match(table_).staged.dice - 1):
        roll(table_, laid, [0])
    roll(table_, laid, [0, 0])
    said = session.problem.as_json()
    assert said["params"] == {"n": 2, "left": 1}
    assert session.problem.text == "2 dice were rolled but 1 is wanted: roll 1"
    assert session_words(said, "es") == "se han tirado 2 dados, pero falta 1: tira 1"


@pytest.mark.parametrize("decided_by", DECIDERS)
def test_the_log_says_how_the_ranking_was_decided_in_its_language(decided_by):
    winners = {"shared": ["Ana", "Ben"], "lost": []}.get(decided_by, ["Ana"])
    over = Event(GAME_OVER, 0, detail={"winners": winners, "decided_by": decided_by})
    for lang in LANGUAGES:
        line = turn_line(9, "Ana", [over], lang)
        assert f"({TEXT[lang][f'by_{decided_by}']})" in line, line
        assert f"({decided_by})" not in line
    assert "no gana nadie" in turn_line(9, "Ana", [over], "es") or winners
    assert "ganan Ana & Ben" in turn_line(9, "Ana", [over], "es") or len(winners) != 2


def test_a_real_game_over_is_said_in_spanish():
    state = table("loose-caboose", ["3"], 0, [["1"], ["3"]], draw=["1"])
    _, events = apply(state, Pass())
    decided = events[-1].detail["decided_by"]
    line = turn_line(1, "Ana", events, "es")
    assert line.endswith(f"gana Ana ({TEXT['es'][f'by_{decided}']})")


def test_every_variant_has_a_name_in_both_languages():
    variants = {v for e in edition.EDITIONS for v in edition.load(e).variants}
    assert variants >= {"solo", "solo-hard", "solo-laura"}
    for lang in LANGUAGES:
        names = [TEXT[lang][f"variant_{v}"] for v in sorted(variants)]
        assert len(set(names)) == len(names)
        assert not set(names) & variants
    assert TEXT["es"]["variant_solo-laura"] != TEXT["en"]["variant_solo-laura"]


def test_the_log_counts_railway_cards_from_1_as_the_page_draws_them():
    """Ana plays a 2 and rolls one wheel: the caboose leaves the 3rd card drawn (index 2)
    for the 4th; the log says 3 -> 4, the drawing numbers cards i + 1, the last-turn panel
    says "to card 4"."""
    doc = record(turns=[{"play": ["2"], "roll": [1, 0]}])
    snap = snapshot_of(from_json(doc), 1)
    page = view.build(snap, "en")
    before = doc["setup"]["caboose"]
    assert page["last"]["moved"] == {"from": before, "to": before + 1}  # the JSON: from 0
    shown_now = page["railway"]["caboose"] + 1
    assert f"caboose {before + 1} -> {shown_now}" in page["log"][0]["text"]
    assert f"furgón {before + 1} -> {shown_now}" in view.build(snap, "es")["log"][0]["text"]


def test_a_cancel_is_said_after_the_take_from_the_railway_that_caused_it():
    """Loose Caboose cancels at once: Ana passes, takes the 2 at the back, which cancels
    the 2 on her pile."""
    state = table("loose-caboose", ["2", "3", "4", "3"], 2, [["1"], ["3"]], piles=[["2"], []])
    _, events = apply(state, Pass())
    assert turn_line(1, "Ana", events, "en") == (
        "turn 1 Ana passes, caboose 3 -> 4, takes 2 from the back of the railway, 2 cancels 2"
    )


def test_a_cancel_is_said_after_the_draw_that_caused_it():
    """Loose Caboose with the caboose at the back: the penalty card comes from the draw
    pile, then cancels."""
    state = table(
        "loose-caboose", ["3"], 0, [["1"], ["3"]], draw=["1", "2", "4", "4"], piles=[["2"], []]
    )
    _, events = apply(state, Pass())
    assert turn_line(1, "Ana", events, "en") == (
        "turn 1 Ana passes, takes 2 from the draw pile, 2 cancels 2"
    )
    assert turn_line(1, "Ana", events, "es") == ("turno 1 Ana pasa, toma 2 del mazo, 2 cancela 2")


def test_rollecate_combines_after_the_takes_at_the_end_of_the_turn():
    """Rollecate puts the turn's penalty cards on the pile at the end (R-7): the two 3s
    taken combine only then, and the line says so in that order."""
    state = table("rollecate", ["3", "3", "4", "3"], 3, [["2", "2"], ["3"]])
    _, events = apply(state, Play(("2", "2"), (1, 1, 1, 1)))
    assert turn_line(1, "Ana", events, "en") == (
        "turn 1 Ana plays 2 and 2, rolls 4 wheels, caboose 4 -> 6, derails 2 short, "
        "takes 3 and 3 from the back of the railway, 3 cancels 3"
    )


def test_every_action_laura_takes_has_words_in_both_languages():
    """The page says Laura's action from `choices.laura.kind`; none is left raw English."""
    kinds = {
        view._action_json(action)["kind"] for action in (Pass(), Play(("3",), ()), Chaos(("C1",)))
    }
    for lang in LANGUAGES:
        said = {TEXT[lang][f"laura_{kind}"] for kind in kinds}
        assert len(said) == len(kinds)
    assert not any(TEXT["es"][f"laura_{kind}"].startswith(kind) for kind in kinds)


def test_a_hand_of_one_card_shown_short_is_one_card_in_both_languages():
    """The refusal of a hand shown short counts its cards as `n`: the page says its `_one`."""
    assert counted_by_the_page("es", "refusal_hand_count", 1) == (
        "X acaba con 1 carta, no X: enseña todas las cartas de la mano"
    )
    assert counted_by_the_page("es", "refusal_hand_count", 3) == (
        "X acaba con X cartas, no X: enseña todas las cartas de la mano"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_names_cards_in_words_never_by_their_codes(lang, tmp_path):
    """Issue 27: a Rollecate game a few turns in and at its end: its log says "broken 3",
    "chaos card 2" ("3 rota", "carta de caos 2"), never "3x" or "C2"; the codes stay in the
    data (the railway, the piles, the hand)."""
    sample_views("caboose", tmp_path, lang)


def test_a_card_is_said_in_words_in_both_languages():
    assert cards_words(["1x", "C2", "3/s"], "en") == "broken 1, chaos card 2 and 3"
    assert cards_words(["1x", "C2", "3/s"], "es") == "1 rota, carta de caos 2 y 3"
    assert card_words("4x/c", "en") == "broken 4"
    state = table("rollecate", ["3"], 0, [["C2"], ["3"]], piles=[["2"], []])
    _, events = apply(state, Chaos(("C2",)))
    for lang in LANGUAGES:
        assert codes_in(turn_line(1, "Ana", events, lang)) == []
    assert "discards chaos card 2" in turn_line(1, "Ana", events, "en")
    assert "descarta carta de caos 2" in turn_line(1, "Ana", events, "es")
    assert "discards chaos C2" in turn_line(1, "Ana", events)  # the record's notation
