"""`companion demo --game yardmaster-express`: bots play a whole game of Yardmaster Express
on the synthetic table.

Nothing is short-circuited, as in the Caboose demo: the players (the game's bots) hold the
true hand, each adds a card to their own train on a rendered table (our printable cards,
scenes.py), the camera's frames go through the frame loop of `companion run` (the reader,
the stillness of the trains, the match's comparison with the game), CONFIRM is pressed on
gpiozero's mock pins, every card taken is journaled, and the page shows it live. As at a
real table the companion does not know the deal: it plays on a provisional one built from
the cards it sees. After every turn the players compare the card the companion took with
the one they laid, and at the end its trains and scores with the true ones.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.games.protocol import CameraSetup, DemoError, RecordProblem, Start
from companion.games.yardmaster import bots, record, rules, scenes
from companion.games.yardmaster.camera import Camera
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.match import VARIANTS, Match, fold
from companion.games.yardmaster.record import GAME_ID
from companion.store import Store
from companion.synthetic import Hand, Scene
from companion.synthetic.players import Hands
from companion.table import Table

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eva")
POLICIES = ("run", "value")  # by seat, alternating
Turned = list[list[bool]]  # by seat, whether each card of the train lies end for end


@dataclass(frozen=True)
class TableNow:
    """The table as it lies, the scene the camera is shown: every train, each laid by its
    own hand (its cards keep their places as the train grows), and a player's hand over
    the table while a card goes down."""

    trains: tuple[scenes.TrainOnTable, ...]
    seed: int
    hand: Hand | None = None

    def drawn(self) -> Scene:
        laid = [
            scenes.lay([train], np.random.default_rng((self.seed, seat)))[0]
            for seat, train in enumerate(self.trains)
        ]
        return scenes.drawn(laid, scenes.TABLE, () if self.hand is None else (self.hand,))


@dataclass
class Tally:
    """How the camera did against the truth the players know."""

    turns: int = 0
    matched: int = 0
    mismatched: list[int] = field(default_factory=list)

    def as_json(self, hands: Hands | None = None) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "matched": self.matched,
            "mismatched_turns": self.mismatched,
            "frames": 0 if hands is None else hands.frames,
            "rendered": 0 if hands is None else hands.rendered,
        }


class ScriptedGame:
    """One demo game (`companion.games.protocol.Demo`)."""

    follows: Mapping[str, Any] = {}

    def __init__(
        self, edition: str, players: int, seed: str, variant: str | None, motion_every: int
    ) -> None:
        if not 2 <= players <= 5:
            raise DemoError(f"Yardmaster Express is for 2 to 5 players, not {players}")
        self.edition = load_edition(edition)
        self.seed = seed
        self.variant = variant
        self.motion_every = motion_every
        with_caboose, _ = VARIANTS[variant]
        self.start = rules.deal(self.edition, NAMES[:players], seed, with_caboose)
        self.seats = scenes.seat_poses(players)  # in turn order, the start player first
        self.tally = Tally()
        self.table: Table | None = None
        self.hands: Hands | None = None

    # --- the truth -----------------------------------------------------------------------

    def truth(self, turns: int) -> tuple[rules.Yard, rules.Add | None]:
        """The true game after `turns` cards (the bots' choices are seeded: the same every
        time, so a resumed demo plays on as the killed one would have), and the next card."""
        rng = random.Random(f"demo:{self.seed}")
        yard, chosen = self.start, None
        for turn in range(turns + 1):
            if yard.over:
                return yard, None
            chosen = bots.choose(yard, POLICIES[yard.to_move % 2], rng)
            if turn < turns:
                yard = rules.apply(yard, chosen)
        return yard, chosen

    def now(
        self, yard: rules.Yard, turned: list[list[bool]], hand_over: int | None = None
    ) -> TableNow:
        """The scene of `yard`'s trains (`turned[seat][i]`: card i lies end for end), with a
        hand over the train of seat `hand_over` if given."""
        trains = tuple(
            scenes.TrainOnTable(seat, train, tuple(turned[i]))
            for i, (seat, train) in enumerate(zip(self.seats, yard.trains, strict=True))
        )
        hand = None
        if hand_over is not None:
            seat = self.seats[hand_over]
            x, y = np.array(seat.engine[:2]) + seat.heading * 63.0 * len(yard.trains[hand_over])
            hand = Hand(float(x), float(y), seat.engine.rotation + 180.0, 0.9)
        return TableNow(trains, random.Random(self.seed).randrange(10**6), hand)

    # --- at the table --------------------------------------------------------------------

    def sit(self, table: Table, setup: CameraSetup) -> Camera:
        """Deal the game (the players in turn order, the start player first, as at a real
        table), or go on with the store's; the camera over the demo's table."""
        self.table = table
        if not (isinstance(table.match, Match) and not table.match.over):
            names = self.start.players
            table.start(GAME_ID, Start(names, self.edition.id, self.variant, self.seed))
        return Camera(replace(setup, layout=scenes.TABLE), self.edition.id, self.edition.deck)

    @property
    def match(self) -> Match:
        assert self.table is not None and isinstance(self.table.match, Match)
        return self.table.match

    def answer(self) -> None:
        """The camera asks nothing the players must answer: an unsure card is waited for."""

    def play(self, hands: Hands) -> dict[str, Any]:
        """Every card of the game, laid by its player; the final state as `companion replay
        --json` prints it, and how the camera did."""
        self.hands = hands
        done = len(self.match.snap.adds)
        yard, _ = self.truth(done)
        turned = [[False] * len(train) for train in yard.trains]
        for seat, adds in enumerate(_adds_by_seat(self.match.snap)):
            for i, add in enumerate(adds, 1):
                turned[seat][i] = add.turned
        hands.look(self.now(yard, turned))  # the table as it lies now
        while not yard.over:
            yard, turned = self.turn(yard, turned)
        doc = record.summary(self.match.snap.yard)
        doc["camera_matched_every_turn"] = not self.tally.mismatched
        doc["camera"] = self.tally.as_json(hands)
        doc["truth_matched"] = _trains_and_scores(doc) == _trains_and_scores(record.summary(yard))
        return doc

    def turn(
        self, yard: rules.Yard, turned: list[list[bool]]
    ) -> tuple[rules.Yard, list[list[bool]]]:
        """The player to move adds their card: a hand over the train (every
        `motion_every`-th turn), the train still with the card, until the companion takes
        it; then CONFIRM."""
        assert self.hands is not None
        turns = yard.turns
        _, add = self.truth(turns)
        assert add is not None
        seat = yard.to_move
        after = rules.apply(yard, add)
        turned = [list(t) for t in turned]
        turned[seat].append(add.turned)
        if self.motion_every and turns % self.motion_every == 0:
            self.hands.look(self.now(after, turned, hand_over=seat), frames=1)
        scene = self.now(after, turned)
        if not self.hands.look_until(scene, lambda: len(self.match.snap.adds) > turns):
            session = self.match.view("en")["session"] or {}
            said = session.get("problem") or session.get("waiting") or {}
            raise DemoError(
                f"the camera did not take {yard.players[seat]}'s {add.laid} (turn {turns + 1})"
                + (f": {said['text']}" if said else "")
            )
        self.tally.turns += 1
        if self.match.snap.yard.trains[seat][-1] == add.laid:
            self.tally.matched += 1
        else:
            self.tally.mismatched.append(turns + 1)
        self.hands.announce(turns)
        self.hands.press("confirm", lambda: self.match.view("en")["session"]["awaiting"] == "card")
        return after, turned

    # --- a store's game ------------------------------------------------------------------

    def refusal(self, store: Store) -> str | None:
        """Why the demo cannot play its game in `store`, or None: a store's game of other
        players or another caboose card is another game."""
        games = store.games()
        if not games:
            return None
        current = store.current()
        try:
            kept = fold(store.kept(current if current is not None else games[-1][0]))
        except (RecordProblem, KeyError) as error:
            return (
                f"{store.path} holds a game the demo cannot read ({error}): give another "
                "--store file"
            )
        if kept.start.players != self.start.players or kept.start.caboose != self.start.caboose:
            return (
                f"{store.path} holds another game ({', '.join(kept.start.players)}): give "
                "another --store file, or that game's --players and --seed"
            )
        return None

    def finished(self, store: Store, number: int) -> tuple[dict[str, Any], Mapping[str, Any]]:
        """How the store's finished game ended, and its record: a demo over already only
        reports it again."""
        snap = fold(store.kept(number))
        doc = record.summary(snap.yard)
        doc["camera_matched_every_turn"] = True  # no turn was watched this time
        doc["camera"] = Tally().as_json()
        truth, _ = self.truth(len(snap.adds))
        doc["truth_matched"] = _trains_and_scores(doc) == _trains_and_scores(record.summary(truth))
        return doc, snap.record()


def _adds_by_seat(snap: Any) -> list[list[rules.Add]]:
    """A game's additions, each player's in the order they added them."""
    n = len(snap.start.players)
    return [list(snap.adds[seat::n]) for seat in range(n)]


def _trains_and_scores(doc: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """What a table shows and counts: each train as it lies and its score."""
    return [(p["name"], tuple(p["train"]), p["score"]) for p in doc["players"]]


def from_args(args: argparse.Namespace) -> ScriptedGame:
    """The demo game `companion demo --game yardmaster-express`'s options ask for: the
    players, a caboose card or not, the seed; a hand over the table in every turn when the
    page is watched, in every fourth headless."""
    variant = "caboose" if args.caboose else None
    return ScriptedGame(
        args.edition, args.players, str(args.seed), variant, 4 if args.headless else 1
    )
