"""What the page is shown of a game of the switching-track board game (view.build), by
ruling id, on positions made with the rules: the board as it lies (panel spaces where their
panel is, the track as it joins through the panels), each train pointing the way it faces,
the slide a roll makes before any train moves (S-6, S-7), every legal move with where each
train of its bump chain ends and who starts over (S-10, S-13, S-14), PASS (S-17), the
re-roll after doubles (S-16), repair tiles (S-19, S-20), the winner (S-18), the log with
steps taken back, in both languages."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace

import pytest

from companion.games.protocol import LANGUAGES
from companion.games.switching import bots, match, rules, view
from companion.games.switching.board import PANEL_COLOURS, load, network
from companion.games.switching.rules import Move, Pass, Roll, Stop, Train
from companion.games.switching.snapshot import Played, Snapshot

BOARD = load()
NAMES = ("Ana", "Ben", "Cleo")


def position(*trains: Train, players=("red", "blue"), variant="full", **changes) -> rules.Position:
    """Our board dealt, panels at home (purple NW, cyan NE, orange SW, SE empty), with these
    trains on it."""
    dealt = rules.deal(BOARD, players, rules.VARIANTS[variant])
    return replace(dealt, trains=tuple(sorted(trains)), **changes)


def snap(start: rules.Position, *actions, roll: Roll | None = None, **changes) -> Snapshot:
    """The game after `actions` (each applied by the rules), with `roll` taken."""
    history, at = [], start
    for action in actions:
        at, events = rules.apply(at, action)
        history.append(Played(action, events, at))
    names = NAMES[: len(start.players)]
    return Snapshot(names, start, tuple(history), roll=roll, **changes)


def outcome_of(s: Snapshot, space: str) -> rules.Outcome:
    return next(o for o in s.moves if isinstance(o.action, Move) and o.action.train == space)


def move_of(doc: dict, space: str) -> dict:
    return next(m for m in doc["moves"] if m["id"] == space)


def test_the_board_is_drawn_as_it_lies_every_space_where_its_panel_is_now():
    """Every space of the board at its centre with the panels as they lie; the links are
    the track as it joins now (a track leading into the empty slot joins nothing there);
    the empty slot is marked; each panel in its slot, turned or not."""
    start = position(players=("red", "blue"))
    start = replace(start, layout=(start.layout[0]._replace(turned=True), *start.layout[1:]))
    doc = view.build(snap(start), "en")
    board = doc["board"]
    assert {s["id"] for s in board["spaces"]} == set(BOARD.spaces)
    for space in board["spaces"]:
        assert (space["x"], space["y"]) == pytest.approx(BOARD.centre(space["id"], start.layout))
    kinds = {s["id"]: s["kind"] for s in board["spaces"]}
    assert {k for k, v in kinds.items() if v == "start"} == set(BOARD.starts)
    assert {k for k, v in kinds.items() if v == "finish"} == set(BOARD.finishes)
    links = {tuple(link) for link in board["links"]}
    assert links == set(network(BOARD, start.layout).links)
    home = {tuple(link) for link in view.build(snap(position()), "en")["board"]["links"]}
    assert ("D5", "p1") in home and ("D5", "p1") not in links  # turned, its curve faces away
    assert [s["id"] for s in board["slots"] if s["empty"]] == ["SE"]
    panels = {p["colour"]: (p["slot"], p["turned"]) for p in board["panels"]}
    assert panels == {"purple": ("NW", True), "cyan": ("NE", False), "orange": ("SW", False)}
    ends = {end["space"] for end in board["dead_ends"]}
    assert ends == {"p5", "o6"}  # the sidings of purple and orange
    assert board["ours"] and json.loads(json.dumps(doc)) == doc  # plain JSON


def test_a_train_points_the_way_it_faces():
    """A's track runs up the board (y down): a train facing Finish points up (-90
    degrees), one facing back down (+90); on a horizontal track along x (0)."""
    s = snap(position(Train("A2", "red", 1), Train("A4", "blue", -1), Train("D2", "red", 1)))
    angles = {t["space"]: t["angle"] for t in view.build(s, "en")["trains"]}
    assert angles == {"A2": -90.0, "A4": 90.0, "D2": 0.0}


def test_S_6_S_7_the_roll_slides_its_panel_first_and_its_riders_ride_along_turned_to_finish():
    """Cyan (NE) is next to the empty SE: the roll's slide is drawn before any train moves,
    the trains on cyan where cyan now lies, one that turned round (S-7) pointing its new
    way; purple (NW) is not next to SE, so it stays (S-6) and says so."""
    start = position(Train("c2", "red", 1), Train("c5", "blue", 1))
    slid = snap(start, roll=Roll("cyan", 1, 2))
    doc = view.build(slid, "en")
    after = outcome_of(slid, "c2").position  # every outcome shares the slide
    assert {p["colour"]: p["slot"] for p in doc["board"]["panels"]}["cyan"] == "SE"
    centres = {s["id"]: (s["x"], s["y"]) for s in doc["board"]["spaces"]}
    assert centres["c2"] == pytest.approx(BOARD.centre("c2", after.layout))
    assert centres["c2"] != pytest.approx(BOARD.centre("c2", start.layout))
    event = next(e for e in outcome_of(slid, "c2").events if isinstance(e, rules.Slid))
    assert doc["slide"].startswith(
        "The cyan panel slides from the top right slot into the bottom right slot."
    )
    for train in doc["trains"]:  # riders face as the slide left them
        facing = -1 if train["space"] in event.turned else 1
        dx, dy = BOARD.heading(train["space"], after.layout)
        assert train["facing"] == facing
        assert train["angle"] == pytest.approx(
            math.degrees(math.atan2(dy * facing, dx * facing)), abs=0.1
        )
    stayed = view.build(snap(start, roll=Roll("purple", 1, 2)), "en")
    assert stayed["slide"] == "The purple panel is not next to the empty slot: it stays."
    assert stayed["board"]["panels"] == view.build(snap(start), "en")["board"]["panels"]


def test_S_10_the_first_bump_diagram_said_and_stepped_as_the_rules_play_it():
    """Red on A2 rolls 7 with blue on A4 ahead: red stops behind blue, blue carries the
    rest of the count (S-10). The move says where both end, and its chain has a step for
    each train, its path from where it stood to where the rules put it."""
    s = snap(position(Train("A2", "red"), Train("A4", "blue")), roll=Roll("purple", 3, 4))
    doc = view.build(s, "en")
    after = outcome_of(s, "A2").position
    red = next(t.space for t in after.trains if t.owner == "red")
    blue = next(t.space for t in after.trains if t.owner == "blue")
    move = move_of(doc, "A2")
    assert move["body"] == {"from": "A2"} and move["colour"] == "red"
    assert (red, blue) == ("A3", "o4")  # one space along A, then into orange's straight
    assert move["text"] == (
        "red moves 1 space along the bottom Start track, bumps blue 5 spaces, from the "
        "bottom Start track to the orange panel"
    )
    assert [(st["colour"], st["from"], st["to"], st["end"]) for st in move["steps"]] == [
        ("red", "A2", red, "stops"),
        ("blue", "A4", blue, "stops"),
    ]
    assert move["steps"][0]["path"][0] == "A2" and move["steps"][0]["path"][-1] == red
    assert move["steps"][1]["path"][0] == "A4" and move["steps"][1]["path"][-1] == blue
    # Counted space by space: every space of both paths but the blocker's counts one.
    assert len(move["steps"][0]["path"]) - 1 + len(move["steps"][1]["path"]) == 7


def test_S_13_S_14_a_train_bumped_into_the_dead_end_is_said_to_start_over():
    """Doubles, 12: red bumps blue up orange's straight into purple's siding, which ends
    in a dead end (S-14): blue starts over, its step ends crossed out where it went off,
    and doubles let red roll again (S-16)."""
    s = snap(position(Train("A2", "red"), Train("A4", "blue")), roll=Roll("purple", 6, 6))
    move = move_of(view.build(s, "en"), "A2")
    went = next(e for e in outcome_of(s, "A2").events if isinstance(e, rules.StartedOver))
    assert went.player == "blue" and went.reason == "dead end"
    assert "blue hits the dead end on the purple panel and starts over" in move["text"]
    assert move["text"].endswith("doubles: Ana may roll again with this train")
    blue = move["steps"][-1]
    assert (blue["colour"], blue["to"], blue["end"]) == ("blue", None, "started_over")
    assert blue["path"][-1] == "p5"
    spanish = move_of(view.build(s, "es"), "A2")["text"]
    assert "el azul choca con la vía muerta en el panel morado y vuelve a empezar" in spanish


def test_S_8_entering_at_a_free_start_and_running_off_the_track():
    """B's track leads into the empty slot: a train entering at B1 with 5 (the Start
    counts as one, S-8) runs to B5; with 6, on past it, off the track (S-14)."""
    five = move_of(view.build(snap(position(), roll=Roll("purple", 2, 3)), "en"), "B1")
    assert (
        five["text"] == "red enters at the right Start and runs 4 spaces to the right Start track"
    )
    assert five["steps"][0]["path"] == ["B1", "B2", "B3", "B4", "B5"]
    s = snap(position(players=("red", "blue")), roll=Roll("purple", 2, 4))
    doc = view.build(s, "en")
    assert {m["id"] for m in doc["moves"]} == set(BOARD.starts)
    off = move_of(doc, "B1")
    assert (
        off["text"]
        == "red enters at the right Start and runs 4 spaces to the right Start track, red runs "
        "off the track past the right Start track and starts over"
    )
    assert off["steps"] == [
        {
            "colour": "red",
            "from": "B1",
            "to": None,
            "path": ["B1", "B2", "B3", "B4", "B5"],
            "end": "started_over",
            "text": off["text"],  # the one train of the chain: its step is the move
        }
    ]


def test_S_12_a_train_reaching_finish_goes_to_the_depot_and_S_18_the_third_wins():
    """Red has two trains in the depot; its third reaches E5 (Finish): the move says so and
    that Ana wins; once played, the winner and the ranking are shown, nothing to move."""
    start = position(Train("E3", "red"), Train("A2", "blue"), depots=(2, 1))
    s = snap(start, roll=Roll("purple", 1, 2))
    move = move_of(view.build(s, "en"), "E3")
    assert move["text"] == (
        "red moves 2 spaces, from the top Finish track to the top Finish, red reaches the top "
        "Finish: into the depot, Ana wins!"
    )
    assert move["steps"][0]["end"] == "finished" and move["steps"][0]["to"] is None
    won = view.build(snap(start, Move(Roll("purple", 1, 2), "E3")), "en")
    assert won["over"] and won["winner"] == "Ana" and won["to_move"] is None
    assert won["phase"] == "over" and won["moves"] == []
    assert [(r["place"], r["name"], r["depot"]) for r in won["ranking"]] == [
        (1, "Ana", 3),
        (2, "Ben", 1),
    ]
    assert [p["depot"] for p in won["players"]] == [3, 1]
    # The winning move's line says it, once (a roll and its move: turn 1).
    assert won["log"][0]["text"].startswith("turn 1: ") and "Ana wins" in won["log"][0]["text"]
    assert [entry["text"] for entry in won["log"] if "wins" in entry["text"]] == [
        won["log"][0]["text"]
    ]


def test_S_17_no_move_possible_offers_pass_not_a_move():
    """Every Start is blocked and red has no train on the board: the roll's only outcome
    is Pass, so the page lists no move and offers PASS; once passed, the log says the turn
    was lost and the next player is to move."""
    blockers = [Train(start, "blue") for start in BOARD.starts][:3]
    start = position(*blockers, Train("D1", "yellow"), players=("red", "blue", "yellow"))
    s = snap(start, roll=Roll("purple", 1, 2))
    assert [type(o.action) for o in s.moves] == [Pass]
    doc = view.build(s, "en")
    assert doc["moves"] == [] and doc["no_move"] and doc["may_pass"]
    passed = view.build(snap(start, Pass(Roll("purple", 1, 2))), "en")
    assert "no train can move: Ana loses the turn" in passed["log"][0]["text"]
    assert passed["to_move"] == 1 and not passed["may_pass"]


def test_S_16_after_doubles_the_player_may_roll_again_or_pass():
    start = position(Train("D2", "red"), Train("A2", "blue"))
    s = snap(start, Move(Roll("purple", 1, 1), "D2"))
    doc = view.build(s, "en")
    assert doc["phase"] == "reroll" and doc["to_move"] == 0
    train = s.position.reroll.train
    assert doc["reroll"] == {"train": train, "place": view.place(BOARD, train, "en")}
    assert doc["reroll"]["place"] == "the left Start track" and doc["may_pass"]
    stopped = view.build(snap(start, Move(Roll("purple", 1, 1), "D2"), Stop()), "en")
    assert stopped["phase"] == "roll" and stopped["to_move"] == 1
    assert stopped["log"][0]["text"] == "turn 2: Ana does not roll again"


def test_S_19_S_20_repair_tiles_offered_as_the_panels_next_to_the_empty_slot():
    start = position(Train("A2", "blue"), variant="repair", repairs=(1, 0))
    doc = view.build(snap(start), "en")
    assert doc["repair"] and doc["players"][0]["repair"] == 1
    assert doc["repair_options"] == list(rules.slidable(start)) == ["cyan", "orange"]
    assert view.build(snap(replace(start, repairs=(0, 0))), "en")["repair_options"] == []
    assert view.build(snap(position(variant="full")), "en")["repair_options"] == []
    played = snap(start, roll=Roll(None, 2, 3), repair="orange")
    shown = view.build(played, "en")
    assert shown["roll"] == {
        "colour": None,
        "dice": [2, 3],
        "total": 5,
        "doubles": False,
        "repair": "orange",
    }
    assert shown["slide"].startswith(
        "Ana plays a repair tile. The orange panel slides from the bottom left slot into the "
        "bottom right slot."
    )
    assert shown["repair_options"] == []  # the dice are thrown: the tile was played
    assert shown["players"][0]["repair"] == 0  # and is back on the pile


def test_the_roll_phase_offers_the_dice_and_undo_only_once_something_is_played():
    fresh = view.build(snap(position()), "en")
    assert fresh["phase"] == "roll" and fresh["roll"] is None and fresh["moves"] == []
    assert not fresh["undo"]["possible"] and not fresh["may_pass"]
    rolled = view.build(snap(position(), roll=Roll("cyan", 2, 2)), "en")
    assert rolled["roll"]["doubles"] and rolled["roll"]["total"] == 4
    assert rolled["undo"]["possible"] and rolled["turn"] == 1


def test_a_watched_frame_is_light_nothing_to_tap():
    doc = view.build(snap(position(), roll=Roll("cyan", 2, 3)), "en", light=True)
    assert doc["moves"] == [] and not doc["undo"]["possible"] and not doc["may_pass"]
    assert doc["roll"] is not None and doc["board"]["spaces"]


def test_the_log_tells_each_roll_and_move_newest_first_with_steps_taken_back():
    """The log: each roll, then its move in the same words as the move list had; a step
    taken back stands where it was, marked a correction."""
    start = position(Train("A2", "red"), Train("A4", "blue"))
    roll = Roll("purple", 3, 4)
    listed = move_of(view.build(snap(start, roll=roll), "en"), "A2")["text"]
    undone = ((2, "move", {"player": "Ana", "from": "D1"}),)  # step 2: turn 1's move
    doc = view.build(snap(start, Move(roll, "A2"), undone=undone), "en")
    assert [entry["text"] for entry in doc["log"]] == [
        "turn 1: Ana: The purple panel is not next to the empty slot: it stays. Then " + listed,
        "turn 1 taken back: Ana's move from the left Start",
        "turn 1: Ana rolls purple, 3 and 4",
    ]
    assert [entry["correction"] for entry in doc["log"]] == [False, True, False]
    spanish = view.build(snap(start, Move(roll, "A2")), "es")["log"]
    assert spanish[-1]["text"] == "turno 1: Ana tira morado, 3 y 4"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_bot_games_draw_in_both_languages_at_every_step(lang):
    """Seeded games between bots, drawn at every roll: every legal move listed (Pass
    aside), each with a step ending where its outcome leaves that train, every train on a
    space of the board, every word said (no key left unsaid)."""
    for seed in range(3):
        rng = random.Random(seed)
        start = rules.deal(BOARD, rules.COLOURS[:3], rules.VARIANTS["repair"])
        at, history = start, []
        while not at.over and len(history) < 200:
            if at.reroll is not None and rng.random() < 0.3:
                after, events = rules.apply(at, Stop())
                history.append(Played(Stop(), events, after))
                at = after
                continue
            roll = Roll(rng.choice(PANEL_COLOURS), rng.randint(1, 6), rng.randint(1, 6))
            s = Snapshot(NAMES, start, tuple(history), roll=roll)
            doc = view.build(s, lang)
            spaces = {space["id"] for space in doc["board"]["spaces"]}
            assert all(t["space"] in spaces for t in doc["trains"])
            listed = [o for o in s.moves if isinstance(o.action, Move)]
            assert [m["id"] for m in doc["moves"]] == [o.action.train for o in listed]
            for move, outcome in zip(doc["moves"], listed, strict=True):
                assert move["text"] and "{" not in move["text"]
                stopped = {(st["colour"], st["to"]) for st in move["steps"] if st["to"]}
                where = {(t.owner, t.space) for t in outcome.position.trains}
                assert stopped <= where
            outcome = bots.choose(at, s.moves, "greedy", rng)
            history.append(Played(outcome.action, outcome.events, outcome.position))
            at = outcome.position
        end = view.build(Snapshot(NAMES, start, tuple(history)), lang)
        assert end["over"] and end["winner"] in NAMES
        assert all("{" not in entry["text"] for entry in end["log"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_the_match_takes_back_is_told_in_the_log(lang):
    """The match's undo (match.undone) of each kind of step: a roll, a move, a lost turn, a
    re-roll declined. Each stands in the log as a correction, in words, where it was."""
    blocked = position(*[Train(s, "blue") for s in BOARD.starts], players=("red", "blue"))
    steps = [
        (position(), [("roll", "cyan", (1, 2))]),
        (position(), [("roll", "cyan", (1, 2)), ("play", "D1")]),
        (blocked, [("roll", "cyan", (1, 2)), ("pass",)]),
        (position(), [("roll", "cyan", (1, 1)), ("play", "D1"), ("pass",)]),
    ]
    for start, taken in steps:
        s = snap(start)
        for step in taken:
            if step[0] == "roll":
                s = match.thrown(s, step[1], step[2])
            elif step[0] == "play":
                s = match.played(s, step[1])
            else:
                s = match.passed(s)
        back = match.undone(s)
        doc = view.build(back, lang)
        corrections = [entry for entry in doc["log"] if entry["correction"]]
        assert len(corrections) == 1, taken
        # numbered as the turn it belonged to, which is played again after it
        assert corrections[0]["turn"] == len(back.history) + 1
        assert "{" not in corrections[0]["text"]
        assert corrections[0]["text"] == doc["log"][0]["text"]  # the newest step: taken back
