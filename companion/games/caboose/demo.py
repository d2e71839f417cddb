"""`companion demo` for the Caboose design: scripted players play a whole game on the
synthetic table.

Nothing is short-circuited: the players (the game's bots, players.py) lay cards, roll dice,
move the caboose and take penalty cards on a synthetic table; what the camera sees of it is
rendered and goes through the real recognition, tracker and session, and the buttons are
pressed on mock pins: the shared driver (companion/app/demo.py, the `hands` here) shows the
camera each scene through the frame loop of `companion run` and presses the buttons.

The players know the truth (the deal, the action they chose, the dice they threw); the
companion knows only what it saw. As at a real table it plays on a provisional deal of
its own (the true deal with the hands and the draw pile shuffled together) and learns the
true one from the cards shown: laid, taken from the draw pile, and the hands at the end.
After every turn the players compare the two, so a run says whether the camera saw every
turn right, and at the end whether the companion's game is the true one.
"""

from __future__ import annotations

import argparse
import math
import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.games.caboose import commandline
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.camera import Camera
from companion.games.caboose.commands import Answer, Show
from companion.games.caboose.deal import replay as deal_replay
from companion.games.caboose.follow import CHECKING, OVER, STAGED, WAITING, Following
from companion.games.caboose.match import Match
from companion.games.caboose.players import (
    DICE_AREA,
    LAURA_AREA,
    ZONE,
    ZONE_CARDS,
    DemoOptions,
    Players,
)
from companion.games.caboose.record import Record, RecordError, record_of, replay, summary
from companion.games.caboose.rules.dice import face_map_for
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.state import (
    TOOK,
    Action,
    Chaos,
    GameState,
    Pass,
    Play,
    RuleError,
)
from companion.games.caboose.snapshot import snapshot_of, stored_record
from companion.games.protocol import CameraSetup, DemoError
from companion.pose import Pose
from companion.store import Store
from companion.synthetic.players import Hands
from companion.table import Table

# Half a card's length and a die's half width and room: a die this far from a card's
# centre on either axis lies off it.
CARD_REACH_MM = 44.0 + 12.0
# A die the camera asks about this far (mm) from every die thrown is something else the
# camera took for one: the players say there is no die there.
DIE_THERE_MM = 12.0


@dataclass
class Tally:
    """How the camera did against the truth the players know."""

    turns: int = 0
    matched: int = 0
    asked: int = 0
    mismatched: list[int] = field(default_factory=list)
    frames: int = 0
    rendered: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "matched": self.matched,
            "asked": self.asked,
            "mismatched_turns": self.mismatched,
            "frames": self.frames,
            "rendered": self.rendered,
        }


def _names(options: DemoOptions) -> list[str]:
    """The people at the table: as many as the variant seats (a rival is the rules' own
    seat), else as many as --players."""
    variant = load_edition(options.edition).variants.get(options.variant or "")
    players = variant.players if variant is not None else options.players
    known = ["Ana", "Ben", "Cleo", "Dan"]
    return [known[i] if i < len(known) else f"Player {i + 1}" for i in range(players)]


def _scene_cards(
    state: GameState, players: Players, extra: Sequence[tuple[str, Pose]] = ()
) -> tuple[list[Any], int]:
    """The railway as it lies on the table (engine poses moved to the table), plus cards
    laid at the front; and the caboose's card index."""
    placed = [
        synthetic.PlacedCard(code, players.on_table(pose))
        for code, pose in zip(state.railway, state.layout, strict=True)
        if pose is not None
    ]
    placed += [synthetic.PlacedCard(code, players.on_table(pose)) for code, pose in extra]
    return placed, state.caboose


class ScriptedGame:
    """One demo game as its players play it (`companion.games.protocol.Demo`): they deal
    it on the table (or go on with the one the store kept), choose every move, show it to
    the camera, and check what the companion kept against the truth."""

    def __init__(self, options: DemoOptions) -> None:
        if options.edition not in EDITIONS:
            raise DemoError(f"unknown edition {options.edition!r}: use one of {EDITIONS}")
        self.options = options
        self.seed = options.seed
        self.players = Players(options)
        self.tally = Tally()
        self.dice: tuple[Any, ...] = ()  # the dice on the table now
        self.thrown: tuple[Any, ...] = ()  # where the last settled throw lay
        self.rng = random.Random()  # where dice land: seeded anew by each turn (`turn`)
        self.truth: tuple[str, ...] = ()  # the cards really laid this turn
        # with standard pip dice, the edition's face map, which the table follows too
        self.face_map = face_map_for(load_edition(options.edition))
        self.follows = {"pip_wheels": self.face_map} if options.dice == "pips" else {}

    def _dealt(self) -> Record:
        """The game the players really hold."""
        options = self.options
        return record_of(deal(options.edition, _names(options), options.seed, options.variant))

    def sit(self, table: Table, setup: CameraSetup) -> Camera:
        """Deal on `table` the companion's provisional game (or go on with the one it
        holds), lay the railway where the players have it, and the camera over the
        demo's table (its marked zone where cards are shown)."""
        self.table = table
        self.layout = setup.layout  # where the camera finds the table's markers
        try:
            dealt = self._dealt()
        except RuleError as error:
            raise DemoError(f"cannot deal the game: {error.message}") from None
        if not isinstance(table.match, Match):
            table.load(_guessed(dealt, self.options.seed).as_json())
        game = self.match.snap
        edition = load_edition(game.record.edition)
        if None in game.state.layout:
            raise DemoError(f"{edition.name}'s railway cannot be laid out on the table")
        self.truth_setup = dealt.setup  # the deal the players really hold
        self._follow_history()
        setup = replace(setup, zone=ZONE)
        if self.options.dice != "printed":
            return Camera.over(setup, edition.id)
        with tempfile.TemporaryDirectory(prefix="caboose-box-") as folder:
            try:
                synthetic.teach_printed_box(
                    edition.id, setup.layout, setup.frame_size, Path(folder)
                )
            except ValueError as error:
                raise DemoError(str(error)) from None
            return Camera.over(replace(setup, catalogue=Path(folder)), edition.id)

    def answer(self) -> None:
        """A question about a card or a die is answered with the truth, and counted, as the
        players at the table would answer it (the die asked about is the one thrown
        nearest where the question says it lies; none thrown there: it is no die)."""
        question = self.following.question
        if question is None:
            return
        if question.card is not None and question.card < len(self.truth):
            self.tally.asked += 1
            self.table.handle(Answer(self.truth[question.card]))
        elif question.at is not None:
            x, y = question.at
            thrown = min(self.dice, key=lambda die: math.dist((die.x, die.y), (x, y)), default=None)
            self.tally.asked += 1
            if thrown is None or math.dist((thrown.x, thrown.y), (x, y)) > DIE_THERE_MM:
                self.table.handle(Answer(no_die=True))
            else:
                self.table.handle(Answer(face=thrown.face))

    def _see_until(self, scene: Any, done: Callable[[], bool], what: str) -> None:
        """Show a still scene until `done()`, or stop the demo saying what the companion
        did not see, in its words."""
        if not self.hands.look_until(scene, done):
            raise DemoError(
                f"the companion did not see {what}: {self.following.status()['message']}"
            )

    @property
    def match(self) -> Match:
        """The game the companion keeps (what it learnt of the players' game)."""
        match = self.table.match
        assert isinstance(match, Match)
        return match

    @property
    def following(self) -> Following:
        """The turn at the table as the companion follows it."""
        match = self.table.match
        assert isinstance(match, Match) and match.following is not None
        return match.following

    def _follow_history(self) -> None:
        """Lay the railway where the players have it: centred at the start, then moved as
        they moved it (slid, turned) for each turn already played. Where it lies decides
        where the next cards fit, so a resumed game must not start from the railway as it
        lies now: its players choose exactly as the uninterrupted game's did."""
        record = self.match.export()
        self.players.centre(snapshot_of(record, 0).state)
        for played in range(len(record.turns)):
            seen = snapshot_of(record, played).state
            before = replace(record, setup=self.truth_setup, turns=record.turns[:played])
            truth, _ = deal_replay(before)
            self.players.choose(_with_layout_of(truth, seen))

    # --- the camera ----------------------------------------------------------------------

    def scene(
        self,
        state: GameState,
        laid: Sequence[tuple[str, Pose]] = (),
        shown: Sequence[str] = (),
        hand_over: bool = False,
    ) -> Any:
        """The synthetic table showing the game's railway and caboose, plus cards being
        laid at the front, cards shown in the zone, the dice, and a hand if wanted."""
        placed, caboose = _scene_cards(state, self.players, laid)
        on = placed[caboose].pose
        for index, code in enumerate(shown):  # side by side, landscape, in pile order
            x = ZONE[0] + 48.0 + 94.0 * index
            placed.append(synthetic.PlacedCard(code, Pose(x, (ZONE[1] + ZONE[3]) / 2, 90.0)))
        reaching = ()  # a player's hand over the table
        if hand_over:
            front = placed[len(state.railway) - 1].pose
            reaching = (synthetic.Hand(front.x, front.y, 200.0),)
        return synthetic.Scene(
            cards=tuple(placed),
            railway=tuple(range(len(state.railway) + len(laid))),
            caboose=caboose,
            caboose_at=(on.x, on.y),
            dice=self.dice,
            hands=reaching,
            card_mm=state.edition.card_mm,
            layout=self.layout,
            pieces="printed" if self.options.dice == "printed" else "ours",
        )

    def moving(self, state: GameState) -> bool:
        return self.options.motion_every > 0 and state.turn % self.options.motion_every == 0

    def confirm(self, state: GameState) -> None:
        """Move the caboose and take the penalty cards as computed (showing those taken
        from the draw pile), then CONFIRM."""
        wanted = self.match.snap.to_show
        if wanted is not None and wanted[0] == "taken" and wanted[2] > ZONE_CARDS:
            # more than the zone holds: typed on the page
            self.table.handle(Show(tuple(self.taken_from_draw())))
        elif wanted is not None and wanted[0] == "taken":
            taken = self.taken_from_draw()
            self._see_until(
                self.scene(state, shown=taken),
                lambda: self.match.snap.to_show != wanted,
                f"the cards taken from the draw pile ({' '.join(taken)})",
            )
        scene = self.scene(state)
        self._see_until(scene, lambda: self.following.mismatch is None, "the computed move")
        if not self.hands.press("confirm", lambda: self.following.phase in (WAITING, OVER)):
            raise DemoError(f"CONFIRM was not accepted: {self.following.status()['message']}")

    # --- a turn --------------------------------------------------------------------------

    def turn(self) -> None:
        """One whole turn as the players live it, then the truth compared with the record."""
        if self.following.phase == CHECKING:  # resumed after the turn was accepted
            self.confirm(self.true_state())
            return
        state = self.true_state()
        moved = (self.players.offset, self.players.quarters)
        action = self.players.choose(state)
        if (self.players.offset, self.players.quarters) != moved:  # let the railway settle
            self.hands.look(self.scene(state))
        turns = len(self.match.snap.record.turns)
        # seeded by the turn, not by the turns this run has watched: a resumed game's
        # dice land where the uninterrupted game's did
        self.rng = random.Random(f"{self.options.seed}/table/{turns}")
        self.truth = action.cards if isinstance(action, Play) else ()
        if isinstance(action, Play):
            self.lay(state, action)
        elif isinstance(action, Chaos):
            shown = self.scene(state, shown=action.cards)
            self._see_until(shown, lambda: self._accepted(turns), "the chaos cards shown")
            self.hands.announce(turns)
            self.hands.look(self.scene(self.true_state()))
        else:
            if state.player.laura:  # her card is turned up, cannot be played: she passes
                card = state.draw[0]
                self._see_until(
                    self.scene(state, shown=(card,)),
                    lambda: self.match.snap.state.draw[:1] == (card,),
                    f"Laura's card {card} shown",
                )
                self.hands.look(self.scene(state))
            if not self.hands.press("pass", lambda: self._accepted(turns)):
                raise DemoError(f"PASS was not taken: {self.following.status()['message']}")
            self.hands.announce(turns)
            self.confirm(self.true_state())
        self._compare(turns, action)

    def lay(self, state: GameState, action: Play) -> None:
        """Lay the cards of a play and throw its dice, as the camera sees it done."""
        turns = len(self.match.snap.record.turns)
        laid = list(zip(action.cards, action.place or (), strict=True))
        if self.moving(state):
            self.hands.look(self.scene(state, laid[:1], hand_over=True), frames=1)
        # Dice left from the last roll where the new cards go are gathered up, all of them
        # (a die left alone would look like one just rolled).
        down = self.scene(state, laid).cards
        if any(_under(die, down) for die in self.dice):
            self.dice = ()
        target = CHECKING if state.player.laura else STAGED
        self._see_until(
            self.scene(state, laid),
            lambda: self.following.phase == target or self._accepted(turns),
            f"{' '.join(action.cards)} laid",
        )
        for start in range(0, len(action.roll), self.following.config.dice_per_roll):
            batch = action.roll[start : start + self.following.config.dice_per_roll]
            cards_down = self.scene(state, laid).cards
            if self.moving(state):
                self.dice = self._throw(batch, settled=False, cards_down=cards_down)
                self.hands.look(self.scene(state, laid), frames=1)
            self.dice = self._throw(batch, settled=True, cards_down=cards_down)
            rolled = self._rolled()
            self._see_until(
                self.scene(state, laid),
                lambda rolled=rolled: self._accepted(turns) or self._rolled() > rolled,
                f"the dice {list(batch)}",
            )
        if not self._accepted(turns):
            raise DemoError(f"the play was not taken: {self.following.status()['message']}")
        self.hands.announce(turns)
        self.confirm(self.true_state())

    def _throw(
        self, wheels: Sequence[int], settled: bool, cards_down: Sequence[Any] = ()
    ) -> tuple[Any, ...]:
        """Dice at random spots along the dice area, apart from each other and from where
        the last throw lay (thrown dice never land exactly where they lay: the tracker
        tells a new throw by that), and off the cards lying there (a railway slid down
        the table may reach the dice area; a die on a card is not a die rolled). When the
        railway leaves too little of the dice area free (in a game with Laura it may cover
        it), the dice land wherever the table is free of cards and of the marked zone, as
        players throw them where there is room. Faces are the roll once settled, anything
        while they tumble."""
        left, top, right, bottom = DICE_AREA
        middle = (top + bottom) / 2
        spots = [(left + 20 + 40 * slot, middle) for slot in range(int((right - left) // 40))]
        self.rng.shuffle(spots)

        def clear(spot: tuple[float, float]) -> bool:
            die = synthetic.PlacedDie("wheels", 0, spot[0], spot[1], 0.0)
            return not _under(die, cards_down)

        off_cards = [spot for spot in spots if clear(spot)]
        if len(off_cards) < len(wheels):
            elsewhere = [
                (x, y)
                for x in range(int(LAURA_AREA[0]) + 30, int(LAURA_AREA[2]) - 29, 40)
                for y in range(int(LAURA_AREA[1]) + 30, int(LAURA_AREA[3]) - 29, 40)
                if clear((x, y)) and not _in(ZONE, (x, y), margin=30.0)
            ]
            self.rng.shuffle(elsewhere)
            off_cards += elsewhere
        if len(off_cards) >= len(wheels):
            spots = off_cards
        before = self.dice + self.thrown
        free = [spot for spot in spots if all(abs(d.x - spot[0]) >= 30 for d in before)]
        spots = free + [spot for spot in spots if spot not in free]
        dice = []
        pips = self.options.dice == "pips"
        for (x, y), face in zip(spots, wheels, strict=False):
            if pips:  # a pip face the table's face map reads as these wheels
                faces = [pip for pip, shows in self.face_map.items() if shows == face]
                shown = self.rng.choice(faces if settled else range(1, 7))
            else:
                shown = face if settled else self.rng.choice((0, 1, 2))
            in_dice_area = _in(DICE_AREA, (x, y))
            dice.append(
                synthetic.PlacedDie(
                    "pips" if pips else "wheels",
                    shown,
                    x + self.rng.uniform(-5, 5),
                    self.rng.uniform(top + 5, bottom - 5) if in_dice_area else y,
                    self.rng.uniform(0, 90),
                )
            )
        if settled:
            self.thrown = tuple(dice)
        return tuple(dice)

    def _rolled(self) -> int:
        roll = self.following.status()["roll"]
        return len(roll["seen"]) if roll else 0

    def _accepted(self, turns: int) -> bool:
        return len(self.match.snap.record.turns) > turns

    def _compare(self, turns: int, truth: Action) -> None:
        """The record's turn against the action the players really took."""
        record = self.match.snap.record
        self.tally.turns += 1
        if len(record.turns) <= turns:
            self.tally.mismatched.append(turns + 1)
            return
        seen = record.turns[turns]
        if _same_turn(seen, truth):
            self.tally.matched += 1
        else:
            self.tally.mismatched.append(turns + 1)

    def play(self, hands: Hands) -> dict[str, Any]:
        """Turns until the game is over; the final state as `companion replay --json`
        prints it, and how the camera did."""
        self.hands = hands
        self.hands.look(self.scene(self.true_state()))  # the table as it lies now
        while not self.match.snap.state.over:
            self.turn()
        if self.following.phase == CHECKING:
            self.confirm(self.true_state())
        self.show_hands()
        doc = self.match.summary()
        doc["camera_matched_every_turn"] = not self.tally.mismatched and not self.tally.asked
        self.tally.frames, self.tally.rendered = hands.frames, hands.rendered
        doc["camera"] = self.tally.as_json()
        doc["truth_matched"] = _hands_sorted(doc) == _hands_sorted(
            summary(self.true_state(), doc["log"])
        )
        return doc

    # --- the truth -----------------------------------------------------------------------

    def _true_record(self) -> Record:
        """The game the players really play: the true deal and the turns the companion
        accepted (the turns are the players' own actions, seen)."""
        return replace(self.match.export(), setup=self.truth_setup)

    def true_state(self) -> GameState:
        state, _ = deal_replay(self._true_record())
        return _with_layout_of(state, self.match.snap.state)

    def taken_from_draw(self) -> tuple[str, ...]:
        """The cards the last turn really took from the draw pile (Loose Caboose)."""
        _, shown = deal_replay(self._true_record())
        return tuple(
            e.cards[0] for e in shown[-1] if e.what == TOOK and e.detail["source"] == "draw"
        )

    def show_hands(self) -> None:
        """At the end each player shows their hand in the zone; a hand longer than the
        zone holds is typed on the page instead (as `POST /api/command/shown` does)."""
        truth = self.true_state()
        while (wanted := self.match.snap.to_show) is not None and wanted[0] == "hand":
            hand = truth.seats[wanted[1]].hand
            if len(hand) > ZONE_CARDS:
                self.table.handle(Show(tuple(hand)))
                continue
            self.truth = hand
            self._see_until(
                self.scene(truth, shown=hand),
                lambda wanted=wanted: self.match.snap.to_show != wanted,
                f"{truth.seats[wanted[1]].name}'s hand shown",
            )
            self.hands.look(self.scene(truth))  # the cards are taken back: the zone is empty again

    # --- a store's game ------------------------------------------------------------------

    def refusal(self, store: Store) -> str | None:
        """Why the demo cannot play its game in `store`, or None if it can. A store keeps
        one game: resuming it with another edition, other players or another seed would be
        another game, so it is refused before anything is played, naming what to give
        instead."""
        path = store.path
        games = store.games()
        if not games:
            return None
        current = store.current()
        try:
            kept = stored_record(store, current if current is not None else games[-1][0])
        except RecordError as error:
            return f"{path} holds a game the demo cannot read ({error}): give another --store file"
        try:
            dealt = self._dealt()
        except RuleError:
            return None  # these options deal no game at all: the demo says why
        kept_game = (kept.edition, kept.variant, kept.players)
        if kept_game != (dealt.edition, dealt.variant, dealt.players):
            return (
                f"{path} holds a game of {_described(kept)}, not of {_described(dealt)}: give "
                f"another --store file, or that game's options ({_options_of(kept)})"
            )
        public = ("railway", "caboose")  # what a deal shows face up, the same in every store
        if any(kept.setup.get(key) != dealt.setup.get(key) for key in public):
            return (
                f"{path} holds a game dealt from another seed than {self.options.seed!r}: give "
                "another --store file, or the --seed of that game"
            )
        return None

    def finished(self, store: Store, number: int) -> tuple[dict[str, Any], Mapping[str, Any]]:
        """How the store's finished game ended, and its record: a demo over already
        only reports it again."""
        record = stored_record(store, number)
        done = replay(record)
        doc = summary(done.state, done.lines)
        doc["camera_matched_every_turn"] = True  # no turn was watched this time
        doc["camera"] = Tally().as_json()
        truth, _ = deal_replay(replace(record, setup=self._dealt().setup))
        doc["truth_matched"] = _hands_sorted(doc) == _hands_sorted(summary(truth, doc["log"]))
        return doc, record.as_json()


def _in(area: tuple[float, ...], spot: tuple[float, float], margin: float = 0.0) -> bool:
    """Whether a spot lies within `margin` of a table area (left, top, right, bottom)."""
    left, top, right, bottom = area
    return left - margin <= spot[0] <= right + margin and top - margin <= spot[1] <= bottom + margin


def _under(die: Any, cards_down: Sequence[Any]) -> bool:
    """Whether a die at this spot would lie on (or against) one of the cards."""
    return any(
        abs(card.pose.x - die.x) <= CARD_REACH_MM and abs(card.pose.y - die.y) <= CARD_REACH_MM
        for card in cards_down
    )


def _guessed(record: Record, seed: str) -> Record:
    """The companion's provisional deal: the record's hands and draw pile, which nobody
    sees at the start, shuffled together (the railway lies in plain view)."""
    setup = {key: list(value) if isinstance(value, list) else value for key, value in
             record.setup.items()}  # fmt: skip
    setup["hands"] = [list(hand) for hand in record.setup["hands"]]
    unseen = [code for hand in setup["hands"] for code in hand] + setup["draw"]
    random.Random(f"{seed}/guess").shuffle(unseen)
    for hand in setup["hands"]:
        hand[:], unseen = unseen[: len(hand)], unseen[len(hand) :]
    setup["draw"] = unseen
    return replace(record, setup=setup, turns=[])


def _with_layout_of(state: GameState, seen: GameState) -> GameState:
    """The true state with the railway's poses as the table has them (the same cards lie
    in the same places; the engine's fold does not keep the setup's poses)."""
    return replace(state, layout=seen.layout)


def _hands_sorted(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """A summary's players, each hand as a set of cards: the order in which a player holds
    them is not something a table shows."""
    return [p | {"hand": sorted(p["hand"])} for p in doc["players"]]


def _same_turn(seen: dict[str, Any], truth: Action) -> bool:
    if isinstance(truth, Pass):
        return "pass" in seen
    if isinstance(truth, Chaos):
        return seen.get("chaos") == list(truth.cards)
    # A roll lists wheels per die; which die is which is not seen, nor does it matter.
    if seen.get("play") != list(truth.cards) or sorted(seen.get("roll", ())) != sorted(truth.roll):
        return False
    places = seen.get("place") or []
    return len(places) == len(truth.place or ()) and all(
        math.dist(p[:2], t[:2]) < 5.0 and _angle(p[2], t.rotation) < 10.0
        for p, t in zip(places, truth.place or (), strict=True)
    )


def _angle(a: float, b: float) -> float:
    turn = abs(a - b) % 360.0
    return min(turn, 360.0 - turn)


def _described(record: Record) -> str:
    """A game in words: its edition, variant and players."""
    game = load_edition(record.edition).name
    if record.variant:
        return f"{game} ({record.variant})"
    return f"{game} for {len(record.players)} players"


def _options_of(record: Record) -> str:
    """The demo's options that deal a game like `record` (all but its seed)."""
    edition = f"--edition {record.edition}"
    if record.variant:
        return f"{edition} --variant {record.variant}"
    return f"{edition} --players {len(record.players)}"


def from_args(args: argparse.Namespace) -> ScriptedGame:
    """The demo game `companion demo`'s options ask for: the edition, players and variant
    (add_arguments), the seed, the dice (`--pieces printed`: the box's own, as `--dice
    printed`); a hand over the table in every turn when the page is watched, in every
    fourth headless."""
    try:
        players = commandline.seats(args)
    except ValueError as error:
        raise DemoError(str(error)) from None
    dice = args.dice
    if args.pieces == "printed":  # the box's own pieces: its own wheel dice and token
        if dice == "pips":
            raise DemoError("--pieces printed throws the box's own wheel dice, not pip dice: "
                            "leave --dice pips out")  # fmt: skip
        dice = "printed"
    options = DemoOptions(
        edition=args.edition,
        players=players,
        variant=args.variant,
        seed=str(args.seed),
        motion_every=4 if args.headless else 1,
        dice=dice,
    )
    return ScriptedGame(options)
