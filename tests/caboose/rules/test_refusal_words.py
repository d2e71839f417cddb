"""The engine's refusals as kinds with parameters: each keeps the English message the API has
always given, and carries a key and parameters that the page's other language says
(companion/games/caboose/words.py, REFUSALS). The rules themselves speak only English."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from string import Formatter

import pytest

from companion.games.caboose.deal import DealError, hold, lay_railway, take
from companion.games.caboose.follow_messages import MESSAGES
from companion.games.caboose.match import load, start
from companion.games.caboose.record import RecordError, from_json
from companion.games.caboose.refusals import TableError
from companion.games.caboose.rules import engine
from companion.games.caboose.rules.engine import apply, deal
from companion.games.caboose.rules.state import Chaos, Pass, Play, RuleError
from companion.games.caboose.words import REFUSALS, SESSION
from companion.games.protocol import Setting, Start
from companion.pose import Pose
from companion.store import Store
from tests.caboose.rules.conftest import laura_table, table
from tests.tables import ROLLECATE_TWO
from tests.words_checks import codes_in

GAMES = Path(__file__).parents[3] / "companion" / "games"
PACKAGE = GAMES / "caboose"
# The shared checks every game's requests go through (a name, a request's fields): their
# keys are the Caboose page's words too.
SHARED = (GAMES / "names.py", GAMES / "requests.py")
# What gives a refusal key: the refusals themselves, a request of the wrong shape or naming
# no command of the game (requests.py), a name's problem (names.py) and a record refused on
# import (record.py's `_fail`).
REFUSERS = {
    "RuleError",
    "TableError",
    "PlacementError",
    "DealError",
    "Refusal",
    "Malformed",
    "UnknownCommand",
    "NameProblem",
    "RecordError",
    "_fail",
}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def refused(state, action) -> RuleError:
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    return caught.value


def spanish(error: RuleError | DealError | RecordError) -> str:
    template = REFUSALS["es"][error.key]
    assert fields(template) <= set(error.params), (error.key, error.params)
    return template.format_map(error.params)


ANA = table("rollecate", ["2"], 0, [["2", "3"], ["1", "4"]])  # Ana draws a 1 first


@pytest.mark.parametrize(
    ("action", "key", "english", "words"),
    [
        (Play(("4",), ()), "not_in_hand", "4 is not in the hand (the hand holds 2, 3, 1)",
         "4 no está en la mano (la mano tiene 2, 3, 1)"),
        (Play(("2", "3"), ()), "mixed_values",
         "the cards played together must all have the same value",
         "las cartas jugadas juntas deben tener todas el mismo valor"),
        (Play((), ()), "play_empty", "a play needs at least one card",
         "una jugada necesita al menos una carta"),
        (Play(("2",), (1, 1, 1)), "dice_count", "this play rolls 2 dice, but 3 results were given",
         "esta jugada tira 2 dados, pero se han dado 3 resultados"),
        (Play(("2",), (1, 7)), "dice_face",
         "7 is not a face of the dice: each die shows one of [0, 1]",
         "7 no es una cara de los dados: cada dado muestra una de [0, 1]"),
        (Play(("2",), (1, 1), place=(Pose(0, 0, 0), Pose(0, 88, 0))), "placement_count",
         "2 positions for 1 cards played", "2 posiciones para 1 cartas jugadas"),
        (Chaos(("2",)), "chaos_only", "only chaos cards can be discarded this way",
         "así solo se pueden descartar cartas de caos"),
        (Pass(order=("1",)), "order_unneeded",
         "an order was given but no penalty cards were taken",
         "se ha dado un orden, pero no se ha tomado ninguna carta de penalización"),
    ],
)  # fmt: skip
def test_a_refusal_keeps_its_english_and_says_it_in_spanish(action, key, english, words):
    error = refused(ANA, action)
    assert (error.key, error.message, str(error)) == (key, english, english)
    assert spanish(error) == words


def test_an_order_where_nobody_chooses_one():
    loose = table("loose-caboose", ["2"], 0, [["2", "3"], ["1", "4"]])
    error = refused(loose, Pass(order=("1",)))
    assert (error.rule, error.key) == ("R-13", "no_order")
    assert error.message.startswith("Loose Caboose has no discard order: each penalty card")
    assert spanish(error).startswith("Loose Caboose no tiene orden de descarte")


def test_the_game_over_and_an_empty_hand():
    assert refused(replace(ANA, over=True), Pass()).key == "game_over"
    with pytest.raises(RuleError) as caught:  # a hand emptied, as at the very end
        engine._take_from_hand((), ["3"])
    error = caught.value
    assert error.message == "3 is not in the hand (the hand holds no cards)"
    assert spanish(error) == "3 no está en la mano (la mano no tiene cartas)"


def test_a_card_laid_crooked_or_apart_is_refused_in_both_languages():
    state = deal("rollecate", ["Ana", "Ben"], 3)  # the front card lies at (-63, 176)
    code = state.player.hand[0]
    dice = (0,) * state.edition.dice_for((code,))
    crooked = refused(state, Play((code,), dice, place=(Pose(-126.0, 176.0, 45.0),)))
    assert crooked.rule == "placement" and crooked.key == "placement_crooked"
    assert crooked.message.endswith("is laid at 45 degrees: lay it straight along the table")
    assert spanish(crooked) == (
        f"la carta 1 jugada ({code}) está a 45 grados: ponla recta a lo largo de la mesa"
    )
    apart = refused(state, Play((code,), dice, place=(Pose(400.0, 400.0, 0.0),)))
    assert apart.key == "placement_apart" and "does not join the open end" in apart.message
    assert spanish(apart).startswith(f"la carta 1 jugada ({code}) no se une al extremo abierto")


@pytest.mark.parametrize(
    ("edition", "names", "variant", "english", "words"),
    [
        ("rollecate", ["Ana"], None, "Rollecate is for 2 to 4 players, not 1",
         "Rollecate es para 2 a 4 jugadores, no 1"),
        ("rollecate", ["Ana", " "], None, "every player needs a name",
         "cada jugador necesita un nombre"),
        ("loknroll", ["Ana", "Ben"], "solo-laura", "solo against Laura is for one player",
         "esta variante es para 1 jugador"),
    ],
)  # fmt: skip
def test_a_new_game_the_rules_refuse_in_both_languages(edition, names, variant, english, words):
    with pytest.raises(RuleError) as caught:
        deal(edition, names, 1, variant)
    assert (caught.value.rule, caught.value.message) == ("setup", english)
    assert spanish(caught.value) == words


def test_a_real_tables_deal_refused_in_both_languages():
    """What a real table shows but its provisional deal cannot be (deal.py)."""
    record = from_json(ROLLECATE_TWO)
    with pytest.raises(DealError) as caught:
        hold(record, 0, ["1x"], drawing=True)  # no broken 1 in this deal at all
    assert caught.value.key == "deal_unseen"
    assert str(caught.value).startswith("no card nobody has seen can be 1x: every 1x of the")
    assert spanish(caught.value).startswith("ninguna carta que nadie haya visto puede ser 1x")
    with pytest.raises(DealError) as caught:
        lay_railway(record, ["2", "3", "4"])
    assert str(caught.value) == "the table shows 3 railway cards, the deal has 4"
    assert spanish(caught.value) == "la mesa muestra 3 cartas de vía; el reparto tiene 4"


def texts(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def keys_raised() -> set[str]:
    """Every refusal key given in the Caboose package's source and the shared checks it uses:
    `key="…"` of a refusal (or each key of a `key="…" if … else "…"`), and the placement keys
    of rules/geometry.py. Not the advice's: only the advisor's page says those, in the
    shell's words (tests/web/test_advise_api.py)."""
    keys: set[str] = set()
    for path in (*(p for p in PACKAGE.rglob("*.py") if p.name != "advise.py"), *SHARED):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in REFUSERS:
                keys |= {k for kw in node.keywords if kw.arg == "key" for k in texts(kw.value)}
                if ast.unparse(node.func) == "NameProblem" and node.args:  # its key comes first
                    keys |= texts(node.args[0])
        if path.name == "geometry.py":
            keys |= {text for text in texts(tree) if text.startswith("placement_")}
    return keys


def test_every_refusal_key_raised_has_spanish_words():
    raised = keys_raised()
    assert {"not_in_hand", "placement_loop", "placement_on_top", "dice_face"} <= raised
    missing = {key for key in raised if key not in REFUSALS["es"] and key not in SESSION["es"]}
    assert missing == set()
    # no words for a refusal nobody gives (a `_one` form is its key's, said when `n` is 1)
    assert {key if key in raised else key.removesuffix("_one") for key in REFUSALS["es"]} <= raised
    # a refusal key is a key of the session's own words only where they say the same thing
    assert all(
        REFUSALS["es"][key] == SESSION["es"][key] for key in set(REFUSALS["es"]) & set(MESSAGES)
    )
    # English is each refusal's message, but where it names cards by their codes or holds a
    # rule id inside it: said anew, cards in words, the id in the answer's `rule` alone
    anew = {key for key, words in REFUSALS["en"].items() if words != "{message}"}
    assert anew == {"laura_no_order", "no_order", "laura_must_pass", "laura_must_play",
                    "laura_must_discard", "not_in_hand", "not_in_empty_hand",
                    "placement_crooked", "placement_apart", "placement_on_top",
                    "placement_loop", "order_cards", "not_held"}  # fmt: skip
    assert not [words for words in REFUSALS["en"].values() if codes_in(words)]


def refusal_of(call) -> RuleError | TableError | DealError | RecordError:
    with pytest.raises((RuleError, TableError, DealError, RecordError)) as caught:
        call()
    return caught.value


def test_laura_must_is_said_in_both_languages():
    state = laura_table(["1", "2"], 0, ["3", "1"])  # Laura draws a 3 and must play it
    error = refused(state, Pass())
    assert (error.rule, error.message) == ("R-10", "Laura must play 3 this turn, not pass")
    assert spanish(error) == "Laura debe jugar 3 en este turno"  # the rule id: in `rule`


def test_a_setup_refused_in_both_languages():
    error = refusal_of(lambda: deal("rollecate", ["Ana", "Ben"], 1, "solo-laura"))
    assert error.message == "Rollecate has no variant 'solo-laura' (variants: none)"
    assert spanish(error) == "Rollecate no tiene la variante solo-laura: no tiene variantes"
    store = Store(":memory:")
    error = refusal_of(lambda: start(store, Start(("Ana", "Ben"), "rolecate"), Setting()))
    assert error.message.startswith("unknown edition 'rolecate': use one of")
    assert spanish(error).startswith("no existe la edición rolecate: usa una de ")


def test_a_correction_of_nothing_and_a_known_deal_in_both_languages(tmp_path):
    match = load(Store(tmp_path / "t.sqlite3"), ROLLECATE_TWO, Setting())
    error = refusal_of(lambda: match.correct_roll([1, 1]))
    assert error.message == "no turn has been played yet: there is nothing to change"
    assert spanish(error) == "todavía no se ha jugado ningún turno: no hay nada que cambiar"
    error = refusal_of(lambda: match.correct(Pass()))
    assert error.message == "there is no turn to correct yet"
    assert spanish(error) == "todavía no hay ningún turno que corregir"
    error = refusal_of(lambda: match.lay_first_railway(["2"]))
    assert spanish(error) == "esta mesa conoce su reparto: su vía ya está repartida"
    error = refusal_of(lambda: match.show(["2"]))
    assert spanish(error) == "la mesa no espera que se enseñe ninguna carta"
    error = refusal_of(lambda: take(from_json(ROLLECATE_TWO), ["2"]))
    assert spanish(error) == "no se ha jugado ningún turno: no se ha tomado nada"


@pytest.mark.parametrize(
    ("change", "english", "words"),
    [
        ({"edition": "rolecate"}, "edition must be one of", "la edición debe ser una de"),
        ({"players": "Ana"}, "players must be a list of names",
         "players debe ser una lista de nombres"),
        ({"turns": {}}, "turns must be a list", "turns debe ser una lista"),
        ({"colour": "red"}, "unknown fields ['colour']: a record has",
         "campos desconocidos: colour; un registro tiene"),
    ],
)  # fmt: skip
def test_a_record_refused_on_import_in_both_languages(change, english, words):
    error = refusal_of(lambda: from_json({**ROLLECATE_TWO, **change}))
    assert error.message.startswith(english) and spanish(error).startswith(words)


def test_a_hand_of_one_card_is_said_as_one_card():
    """The page says `refusal_hand_count_one` when the count `n` is 1, as shell.js's `t`."""
    params = {"name": "Ana", "held": 1, "shown": 2, "n": 1}
    assert REFUSALS["es"]["hand_count_one"].format_map(params) == (
        "Ana acaba con 1 carta, no 2: enseña todas las cartas de la mano"
    )
    assert "1 cartas" not in REFUSALS["es"]["hand_count"].format_map(params | {"held": 3})
