"""What the page is shown of a game of Yardmaster Express (view.build), by ruling id: every
train as it lies (turned cards marked, a face-down card not named), the longest run's
railcars, each score with its parts, the hand's ways with why one does not join (Y-5), the
ranking and what decided it (Y-10), the strategic variant's totals (Y-11), the caboose
card's condition (Y-12), the log with cards taken back, in both languages."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.protocol import LANGUAGES
from companion.games.yardmaster import bots, edition, rules, view
from companion.games.yardmaster.edition import Caboose
from companion.games.yardmaster.record import STRATEGIC_SECOND
from companion.games.yardmaster.rules import Add
from companion.games.yardmaster.snapshot import STRATEGIC, Snapshot, provisional_start

EDITION = edition.load()
NAMES = ("Ana", "Ben", "Cleo")


def played(start: rules.Yard, *adds: Add, **changes) -> Snapshot:
    return Snapshot(EDITION, start, tuple(adds), **changes)


def bot_game(seed: int, players: int = 3, turns: int | None = None, caboose: bool = True):
    """A dealt game with bots adding `turns` cards (all, by default)."""
    start = rules.deal(EDITION, ["Ana", "Ben", "Cleo", "Dan", "Eve"][:players], seed, caboose)
    rng = random.Random(seed)
    yard, adds = start, []
    while not yard.over and (turns is None or len(adds) < turns):
        add = bots.choose(yard, ("run", "value")[len(adds) % 2], rng)
        adds.append(add)
        yard = rules.apply(yard, add)
    return played(start, *adds)


# A table whose cards the tests name: Ana's hand, then the draw.
HAND = ("R3-B2", "B2-Y4", "Y1-Y1")
DRAW = ("R1-R1", "G2-G3", "B1-Y4", "R4-R2", "G1-G1", "Y2-Y3", "B3-G2", "R2-R3")


def table(caboose: Caboose | None = None) -> rules.Yard:
    return rules.start(NAMES, HAND, DRAW, caboose)


def test_every_train_is_drawn_as_it_lies_turned_marked_face_down_unnamed():
    """Ana adds R3-B2 as printed, Ben Y1-Y1 face down, Cleo B2-Y4 turned (Y-4): the page
    gets each card as it lies, the turned one marked with its printed code, the face-down
    one as W with no code of the card under it (nobody at the table sees it, Y-2)."""
    snap = played(table(), Add("R3-B2"), Add("Y1-Y1", face_down=True), Add("B2-Y4", turned=True))
    doc = view.build(snap, "en")
    ana, ben, cleo = doc["players"]
    assert [c["kind"] for c in ana["train"]] == ["engine", "railcar"]
    card = ana["train"][1]
    assert card["code"] == "R3-B2" and not card["turned"]
    assert [(r["colour"], r["value"], r["name"]) for r in card["railcars"]] == [
        ("R", 3, "red"),
        ("B", 2, "blue"),
    ]
    assert ben["train"][1] == {"kind": "face_down", "code": "W", "newest": False}
    assert "Y1-Y1" not in json.dumps(ben)
    turned = cleo["train"][1]
    assert turned["code"] == "Y4-B2" and turned["printed"] == "B2-Y4" and turned["turned"]
    assert turned["newest"] and not card["newest"]
    assert [p["train_value"] for p in doc["players"]] == [5, 0, 6]
    assert doc["players"][0]["start"] and not doc["players"][1]["start"]


def test_y8_the_longest_run_is_marked_railcar_by_railcar_across_cards():
    """Ana's train R1-R1, R3-B2, B1-Y4: red 1, red 1, red 3 is a run of three across the
    card boundary; blue 2, blue 1 a run of two. Only the three reds are marked."""
    start = rules.start(
        ("Ana", "Ben"), ("R1-R1", "G2-G3"), ("R3-B2", "Y1-Y1", "B1-Y4", "G1-G1", "Y2-Y3", "B3-G2")
    )
    adds = [Add("R1-R1"), Add("G2-G3"), Add("R3-B2"), Add("Y1-Y1", face_down=True), Add("B1-Y4")]
    doc = view.build(played(start, *adds), "en")
    ana = doc["players"][0]
    marked = [[r["run"] for r in card["railcars"]] for card in ana["train"][1:]]
    assert marked == [[True, True], [True, False], [False, False]]
    assert ana["longest_run"] == 3 and ana["run_bonus"] == 3  # Y-9: Ben's longest is 2
    assert doc["longest_run"] == 3 and doc["players"][1]["run_bonus"] == 0


def test_y2_a_face_down_card_breaks_the_run_it_lies_in():
    start = rules.start(
        ("Ana", "Ben"), ("R1-R1", "G2-G3"), ("B1-B1", "R4-R2", "Y1-Y1", "R2-R3", "G1-G1", "B3-G2")
    )
    adds = [
        Add("R1-R1"),
        Add("G2-G3"),
        Add("Y1-Y1", face_down=True),
        Add("B1-B1", face_down=True),
        Add("R4-R2"),
    ]
    ana = view.build(played(start, *adds), "en")["players"][0]
    assert ana["longest_run"] == 2  # R1 R1 | W | R4 R2: two runs of two, not one of four
    assert [[r["run"] for r in c["railcars"]] for c in ana["train"] if c["kind"] == "railcar"] == [
        [True, True],
        [True, True],
    ]


@pytest.mark.parametrize("seed", range(40))
def test_y8_the_marked_railcars_are_exactly_the_longest_runs(seed):
    """In any game, each train's marked railcars make runs of one colour, each as long as
    the train's longest run (the rules' count), and there are as many as the rules find."""
    doc = view.build(bot_game(seed, players=2 + seed % 4), "en")
    for player in doc["players"]:
        runs = rules.runs(tuple(c["code"] for c in player["train"]))
        along = []
        for card in player["train"]:
            along += card.get("railcars") or [None]  # a wild card ends a run (Y-8)
        marked_runs, current = [], []
        for railcar in [*along, None]:
            if railcar is not None and railcar["run"]:
                if current and current[-1]["colour"] != railcar["colour"]:
                    marked_runs.append(current)
                    current = []
                current.append(railcar)
            elif current:
                marked_runs.append(current)
                current = []
        longest = player["longest_run"]
        assert longest == max((n for _, n in runs), default=0)
        assert all(len(run) == longest for run in marked_runs)
        assert len(marked_runs) == sum(1 for _, n in runs if n == longest)


@pytest.mark.parametrize("seed", range(40))
def test_scores_add_up_from_their_parts_at_every_turn(seed):
    game = bot_game(seed, players=2 + seed % 4)
    for turns in range(len(game.adds) + 1):
        snap = played(game.start, *game.adds[:turns])
        doc = view.build(snap, "en")
        for player, score in zip(doc["players"], rules.score(snap.yard), strict=True):
            parts = (player["train_value"] + player["run_bonus"] + player["caboose_bonus"]
                     + player["carried"])  # fmt: skip
            assert player["score"] == parts == score.score
            value = sum(r["value"] for c in player["train"] for r in c.get("railcars", []))
            assert player["train_value"] == value  # Y-2, Y-3: wild cards are worth 0
            assert (player["caboose_bonus"] > 0) == bool(player["caboose_met"])


def test_y5_a_way_that_does_not_join_is_greyed_with_why():
    """Ana's train ends in R3-B2 (right railcar blue 2); Ben and Cleo have added G2-G3 and
    Y1-Y1. Ana holds B2-Y4, R1-R1, B1-Y4 and the drawn R4-R2. B2-Y4 and B1-Y4 join as
    printed (blue on blue) but not turned (yellow 4); R4-R2 only turned (2 on 2); R1-R1
    joins no way face up; every card may go face down."""
    adds = (Add("R3-B2"), Add("G2-G3"), Add("Y1-Y1"))
    snap = played(table(), *adds)
    assert view.build(snap, "en")["to_move"] == 0
    held = view.hand(snap, "en")
    assert (held["seat"], held["name"], held["turn"]) == (0, "Ana", 3)
    hand = {entry["card"]: entry["ways"] for entry in held["hand"]}
    assert list(hand) == ["B2-Y4", "R1-R1", "B1-Y4", "R4-R2"]
    ways = {(card, w["way"]): w for card, found in hand.items() for w in found}
    legal = {key for key, way in ways.items() if way["legal"]}
    assert legal == {
        ("B2-Y4", "printed"),
        ("B1-Y4", "printed"),
        ("R4-R2", "turned"),
        *((card, "face_down") for card in hand),
    }
    assert all(ways[key]["why"] is None for key in legal)
    turned = ways["B2-Y4", "turned"]
    assert turned["laid"] == "Y4-B2"
    assert [r["colour"] for r in turned["railcars"]] == ["Y", "B"]
    assert turned["why"] == (
        "does not join: yellow 4 after blue 2, neither colour nor value matches"
    )
    assert ("R1-R1", "turned") not in ways  # the same card either way round: one way
    assert "red 1 after blue 2" in ways["R1-R1", "printed"]["why"]
    spanish = view.hand(played(table(), *adds), "es")["hand"][0]["ways"][1]
    assert (
        spanish["why"] == "no encaja: amarillo 4 tras azul 2, no coincide ni el color ni el valor"
    )


@pytest.mark.parametrize("seed", range(30))
def test_the_hands_legal_ways_are_the_rules_legal_additions(seed):
    """Whatever the game, the ways shown legal are exactly `legal_adds`, and each greyed
    way is one `rules.apply` refuses (Y-5)."""
    game = bot_game(seed, players=2 + seed % 4)
    for turns in range(len(game.adds)):
        snap = played(game.start, *game.adds[:turns])
        yard = snap.yard
        shown = []
        for entry in view.hand(snap, "en")["hand"]:
            for way in entry["ways"]:
                add = Add(entry["card"], way["way"] == "turned", way["way"] == "face_down")
                assert add.laid == way["laid"]
                if way["legal"]:
                    shown.append(add)
                else:
                    with pytest.raises(rules.RuleError) as refused:
                        rules.apply(yard, add)
                    assert refused.value.rule == "Y-5"
        assert sorted(shown, key=repr) == sorted(rules.legal_adds(yard), key=repr)


def test_y6_an_empty_draw_deck_greys_every_way_and_says_why():
    start = rules.start(("Ana", "Ben"), ("R1-R1", "B1-B1"), ("G1-G1",))
    snap = played(start, Add("R1-R1"))
    assert view.build(snap, "en")["draw"] == 0
    ways = [w for entry in view.hand(snap, "en")["hand"] for w in entry["ways"]]
    assert ways and not any(w["legal"] for w in ways)
    assert {w["why"] for w in ways} == {"The draw deck is empty: a card must be drawn first"}


def test_whose_turn_the_round_and_the_rounds_after_it():
    game = bot_game(5)  # three players: six rounds (Y-7)
    doc = view.build(played(game.start), "en")
    assert (doc["round"], doc["rounds"], doc["rounds_after"], doc["turn"]) == (1, 6, 5, 0)
    assert doc["to_move"] == 0 and doc["players"][0]["to_move"]
    doc = view.build(played(game.start, *game.adds[:16]), "en")  # round 6, Ben to move
    assert (doc["round"], doc["rounds_after"], doc["to_move"], doc["turn"]) == (6, 0, 1, 16)
    done = view.build(game, "en")
    assert done["over"] and done["ended"] and done["to_move"] is None
    assert view.hand(game, "en") is None and done["ranking"] is not None


def test_y10_a_tie_is_won_by_the_player_moving_latest_and_the_page_says_so():
    """Ana and Ben both lay a red 1 pair; Ben moves after Ana in the round, so he wins."""
    start = rules.start(("Ana", "Ben"), ("R1-R1", "B1-B1"), ("G1-G1",) * 14)
    adds = [Add("R1-R1"), Add("B1-B1")] + [Add("G1-G1", face_down=True)] * 12
    doc = view.build(played(start, *adds), "en")
    ranking = doc["ranking"]
    assert ranking["winners"] == ["Ben"] and ranking["decided_by"] == "seat"
    assert [(r["place"], r["name"], r["score"]) for r in ranking["rows"]] == [
        (1, "Ben", 4),
        (2, "Ana", 4),
    ]
    assert ranking["said"] == "a tie on 4 points: Ben moves latest in a round, and wins it"
    spanish = view.build(played(start, *adds), "es")["ranking"]["said"]
    assert spanish == "empate a 4 puntos: Ben juega el último de la ronda, y gana"
    assert doc["log"][0]["text"] == f"game over, won by Ben ({ranking['said']})"


def test_a_win_on_points_says_the_most_points_decided_it():
    doc = view.build(bot_game(3), "es")
    assert doc["ranking"]["decided_by"] == "score"
    assert doc["ranking"]["said"] == "decidido por la puntuación más alta"
    scores = [r["score"] for r in doc["ranking"]["rows"]]
    assert scores == sorted(scores, reverse=True)
    assert doc["ranking"]["rows"][0]["name"] == doc["ranking"]["winners"][0]


def test_y12_the_caboose_card_its_condition_in_words_and_who_meets_it():
    oil = Caboose("Oil baron", 4, {"kind": "run", "colour": "Y", "length": 2})
    snap = played(table(oil), Add("R3-B2"), Add("Y1-Y1", face_down=True), Add("Y1-Y1"))
    with pytest.raises(rules.RuleError):
        snap.yard  # noqa: B018 - Y1-Y1 is face down in Ben's train, no longer in the hand
    snap = played(table(oil), Add("R3-B2"), Add("R1-R1", face_down=True), Add("Y1-Y1"))
    doc = view.build(snap, "en")
    assert doc["caboose"] == {
        "name": "Oil baron",
        "points": 4,
        "condition": "a run of at least 2 yellow railcars",
    }
    assert [p["caboose_met"] for p in doc["players"]] == [False, False, True]
    assert [p["caboose_bonus"] for p in doc["players"]] == [0, 0, 4]
    assert view.build(snap, "es")["caboose"]["condition"] == (
        "una carga de al menos 2 vagones de color amarillo"
    )
    assert view.build(played(table()), "en")["caboose"] is None
    assert view.build(played(table()), "en")["players"][0]["caboose_met"] is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_y12_every_shipped_caboose_condition_is_said_without_a_placeholder(lang):
    said = [view.condition_words(EDITION, c.condition, lang) for c in EDITION.cabooses]
    assert len(set(said)) == len(said)
    assert not any("{" in text for text in said)
    kinds = {
        "cond_face_down_between": {"kind": "face_down", "min": 1, "max": 3},
        "cond_face_down_min_one": {"kind": "face_down", "min": 1},
        "cond_face_down_max": {"kind": "face_down", "max": 2},
        "cond_run": {"kind": "run", "length": 5},
    }
    for condition in kinds.values():
        assert "{" not in view.condition_words(EDITION, condition, lang)
    if lang == "en":
        assert view.condition_words(EDITION, kinds["cond_face_down_min_one"], lang) == (
            "at least 1 card face down"
        )
        assert view.condition_words(EDITION, {"kind": "face_down", "max": 0}, lang) == (
            "no card face down"
        )


def test_y11_the_strategic_variant_says_who_starts_the_second_game_and_the_totals():
    game = bot_game(8, caboose=False)
    first = played(game.start, *game.adds, variant=STRATEGIC)
    doc = view.build(first, "en")
    scores = {s.name: s.score for s in rules.score(first.yard)}
    lowest = min(
        first.yard.players, key=lambda name: (scores[name], first.yard.players.index(name))
    )
    assert doc["strategic"]["game"] == 1 and doc["strategic"]["second_game_due"]
    assert doc["strategic"]["second_starts"] == lowest
    assert doc["ended"] and not doc["over"]  # the match goes on with the second game
    assert doc["ranking"]["winners"] == [] and doc["ranking"]["said"] is None  # totals decide
    assert doc["log"][0]["text"] == f"the first game is over: {lowest} starts the second"
    assert [t["first"] for t in doc["strategic"]["totals"]] == [
        scores[n] for n in first.yard.players
    ]
    second_start = rules.deal_second(EDITION, first.yard, 1)
    assert second_start.players[0] == lowest
    second = played(second_start, variant=STRATEGIC_SECOND)
    doc = view.build(second, "en")
    totals = doc["strategic"]["totals"]
    assert doc["strategic"]["game"] == 2 and not doc["strategic"]["second_game_due"]
    assert [t["name"] for t in totals] == list(second_start.players)
    assert all(t["first"] == scores[t["name"]] and t["second"] == 0 for t in totals)
    assert all(t["total"] == t["first"] + t["second"] for t in totals)
    assert [p["carried"] for p in doc["players"]] == [scores[n] for n in second_start.players]
    assert view.build(game, "en")["strategic"] is None


def test_the_log_is_newest_first_with_a_card_taken_back_as_a_correction():
    """Ana adds R3-B2, which is taken back; she adds B2-Y4 turned; Ben adds R1-R1 face
    down."""
    snap = played(
        table(),
        Add("B2-Y4", turned=True),
        Add("R1-R1", face_down=True),
        undone=((1, Add("R3-B2")),),
    )
    log = view.build(snap, "en")["log"]
    assert [(e["text"], e["correction"]) for e in log] == [
        ("turn 2: Ben adds a card face down", False),
        ("turn 1: Ana adds yellow 4 · blue 2, turned", False),
        ("turn 1 taken back: Ana's red 3 · blue 2", True),
    ]
    spanish = [e["text"] for e in view.build(snap, "es")["log"]]
    assert spanish == [
        "turno 2: Ben pone una carta boca abajo",
        "turno 1: Ana pone amarillo 4 · azul 2, girada",
        "se deshace el turno 1: rojo 3 · azul 2 de Ana",
    ]


def test_a_card_taken_back_with_no_card_since_is_the_newest_line():
    snap = played(table(), Add("R3-B2"), undone=((2, Add("R1-R1")),))
    assert view.build(snap, "en")["log"][0] == {
        "turn": 2,
        "text": "turn 2 taken back: Ben's red 1 · red 1",
        "correction": True,
    }


def test_a_real_tables_game_shows_no_hand_but_the_cards_not_yet_seen():
    """A provisional deal (a hand-shuffled deck): the hand is not known, so the page offers
    every card of the deck not yet in a train, face up, and a card face down naming none."""
    start, adds = provisional_start(EDITION, NAMES, [Add("R3-B2"), None])
    snap = played(start, *adds, provisional=True)
    doc = view.build(snap, "en")
    assert view.hand(snap, "en") is None and doc["provisional"]
    offered = [entry["card"] for entry in doc["choices"]]
    assert offered[-1] is None and doc["choices"][-1]["ways"][0]["way"] == "face_down"
    assert "R3-B2" not in offered
    assert len(offered) - 1 == len(EDITION.deck_for(3)) - 1  # all but the one seen face up
    assert not any(w["way"] == "face_down" for e in doc["choices"][:-1] for w in e["ways"])
    assert doc["players"][1]["train"][1]["kind"] == "face_down"
    assert view.build(played(table()), "en")["choices"] is None


def test_the_view_every_page_reads_holds_no_hand():
    """The mover's hand goes to their phone alone (`view.hand`, behind the PIN), never into
    the view the other phones and the screen beside the table read."""
    snap = played(table(), Add("R3-B2"), Add("G2-G3"), Add("Y1-Y1"))
    held = {entry["card"] for entry in view.hand(snap, "en")["hand"]}
    doc = view.build(snap, "en")
    assert "hand" not in doc and held
    assert not any(card in json.dumps(doc) for card in held - {"R3-B2", "G2-G3", "Y1-Y1"})


def test_a_record_watched_offers_nothing_to_tap():
    doc = view.build(played(table(), Add("R3-B2")), "en", light=True)
    assert doc["choices"] is None and not doc["undo"]["possible"]
    assert view.build(played(table(), Add("R3-B2")), "en")["undo"]["possible"]
    assert not view.build(played(table()), "en")["undo"]["possible"]


def test_the_view_is_plain_json_and_its_colours_have_words_in_both_languages():
    snap = bot_game(2, players=5, turns=9)
    docs = {lang: view.build(snap, lang) for lang in LANGUAGES}
    for doc in docs.values():
        assert json.loads(json.dumps(doc)) == doc
        assert doc["game"] == "yardmaster-express"
    names = {lang: [c["name"] for c in doc["edition"]["colours"]] for lang, doc in docs.items()}
    assert names["en"] == ["red", "blue", "yellow", "green", "purple"]
    assert names["es"] == ["rojo", "azul", "amarillo", "verde", "morado"]
    # The numbers do not depend on the language; only the words do.
    assert docs["en"]["players"] == [
        p | {"train": docs["en"]["players"][i]["train"]}
        for i, p in enumerate(docs["es"]["players"])
    ]


def test_y11_the_second_games_ranking_is_by_the_totals():
    """The strategic variant's second game played to the end: its ranking and winner are
    the two games' totals (the first game's points carried), as the rules rank them."""
    game = bot_game(9, caboose=False)
    first = played(game.start, *game.adds, variant=STRATEGIC)
    second_start = rules.deal_second(EDITION, first.yard, 2)
    rng = random.Random(2)
    yard, adds = second_start, []
    while not yard.over:
        adds.append(bots.choose(yard, "value", rng))
        yard = rules.apply(yard, adds[-1])
    doc = view.build(played(second_start, *adds, variant=STRATEGIC_SECOND), "en")
    totals = {t["name"]: t["total"] for t in doc["strategic"]["totals"]}
    assert [r["score"] for r in doc["ranking"]["rows"]] == sorted(totals.values(), reverse=True)
    assert all(totals[r["name"]] == r["score"] for r in doc["ranking"]["rows"])
    assert doc["ranking"]["winners"] == rules.ranking(yard)[0]
    assert doc["over"] and not doc["strategic"]["second_game_due"]
    assert doc["log"][0]["text"].startswith(f"game over, won by {doc['ranking']['winners'][0]}")
