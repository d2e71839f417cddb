"""The session: table events, buttons and page commands matched against what the engine
expects next, each a command handed to the one writer (`Table.handle`). Views are built by
hand from the engine's own railway (moved to where it lies on the table), so each test says
exactly what the camera saw."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from companion.games.caboose.bots import greedy
from companion.games.caboose.commands import Answer, Press, Seen
from companion.games.caboose.follow import (
    ASKING,
    CHECKING,
    CONFIRM,
    ILLEGAL,
    LED_ERROR,
    LED_NEEDS_CONFIRMATION,
    LED_WAITING,
    PASS,
    STAGED,
    UNDO,
    WAITING,
    FollowConfig,
    Following,
)
from companion.games.caboose.refusals import TableError
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.state import Pass, Play
from companion.games.caboose.snapshot import stored_record
from companion.games.caboose.tracker import (
    CABOOSE_MOVED,
    CARDS_LAID,
    CARDS_LIFTED,
    CARDS_SHOWN,
    CARDS_TAKEN,
    DICE_SETTLED,
    TABLE_SEEN,
    TableEvent,
    TableView,
)
from companion.games.caboose.vision.observation import SeenCard, SeenDie
from companion.games.caboose.vision.problems import Problem
from companion.games.protocol import Setting
from companion.pose import Pose
from companion.store import Store
from companion.table import Table
from hw import controls as hw_controls
from tests.hw.test_controls import chattering_press
from tests.playing import act, match, new_game, press

OFFSET = (300.0, 150.0)  # where the engine's origin lies on the table


class Outputs:
    """Records what the session asks of the LED and the buzzer."""

    def __init__(self) -> None:
        self.led: list[str] = []
        self.buzzes: list[str] = []

    def show(self, status: str) -> None:
        self.led.append(status)

    def derailed(self) -> None:
        self.buzzes.append("derailed")

    def illegal(self) -> None:
        self.buzzes.append("illegal")


def on_table(pose: Pose) -> Pose:
    return Pose(pose.x + OFFSET[0], pose.y + OFFSET[1], pose.rotation)


def seen(code: str, pose: Pose, confidence: float = 0.9) -> SeenCard:
    return SeenCard(code, confidence, on_table(pose))


def view_of(
    table: Table,
    laid: Sequence[tuple[str, Pose]] = (),
    caboose: int | None = None,
    dice: Sequence[int] = (),
    shown: Sequence[str] = (),
    confidence: float = 0.9,
) -> TableView:
    """What the camera sees: the engine's railway where it lies, plus what is given."""
    state = match(table).snap.state
    railway = [seen(c, p) for c, p in zip(state.railway, state.layout, strict=True)]
    railway += [seen(c, p, confidence) for c, p in laid]
    return TableView(
        tuple(railway),
        state.caboose if caboose is None else caboose,
        tuple(SeenDie("wheels", w, (400.0 + 40 * i, 560.0), 1.0) for i, w in enumerate(dice)),
        tuple(SeenCard(c, 0.9, Pose(100.0 + 90 * i, 560.0, 90.0)) for i, c in enumerate(shown)),
    )


def event(what: str, view: TableView, **fields) -> list[TableEvent]:
    return [TableEvent(what, view, **fields)]


def first_play(edition: str, names: Sequence[str] = ("Ana", "Ben")) -> tuple[int, Play]:
    """A seed whose first player's greedy choice is a play, and that play."""
    for seed in range(200):
        action = greedy(deal(edition, list(names), seed))
        if isinstance(action, Play) and action.place:
            return seed, action
    raise AssertionError("no seed opens with a play")


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "table.sqlite3")


def followed(store: Store, provisional: bool = False, outputs: Outputs | None = None) -> Table:
    """A table a camera follows, as `companion run` and the demo set it up."""
    return Table(store, Setting(provisional, FollowConfig(), outputs))


def flow(table: Table) -> Following:
    """The turn at the table, as the game at the table follows it."""
    session = match(table).following
    assert session is not None
    return session


def see(table: Table, events: Sequence[TableEvent] = (), problems: Sequence[Problem] = ()) -> None:
    """A camera frame's news, handed to the table as the frame loop hands it."""
    table.handle(Seen(tuple(events), tuple(problems)))


def answer(table: Table, code: str) -> None:
    """The players' answer on the page (`POST /api/session/answer`)."""
    table.handle(Answer(code))


def start(store: Store, edition: str = "loose-caboose", names=("Ana", "Ben")):
    seed, play = first_play(edition, names)
    outputs = Outputs()
    table = followed(store, outputs=outputs)
    new_game(table, edition, list(names), seed=seed)
    see(table, event(TABLE_SEEN, view_of(table)))
    return table, flow(table), outputs, play


def lay(table: Table, play: Play, **kwargs) -> TableView:
    view = view_of(table, list(zip(play.cards, play.place, strict=True)), **kwargs)
    see(table, event(CARDS_LAID, view))
    return view


def roll(table: Table, view: TableView, wheels: Sequence[int]) -> TableView:
    dice = tuple(SeenDie("wheels", w, (400.0 + 40 * i, 560.0), 1.0) for i, w in enumerate(wheels))
    rolled = replace(view, dice=dice)
    see(table, event(DICE_SETTLED, rolled, dice=dice))
    return rolled


def test_the_session_and_hw_controls_name_buttons_and_statuses_alike():
    assert (PASS, CONFIRM, UNDO) == (hw_controls.PASS, hw_controls.CONFIRM, hw_controls.UNDO)
    assert (LED_WAITING, LED_NEEDS_CONFIRMATION, LED_ERROR) == (
        hw_controls.WAITING,
        hw_controls.NEEDS_CONFIRMATION,
        hw_controls.ERROR,
    )


def test_a_whole_play_laid_rolled_checked_and_confirmed(store):
    table, session, outputs, play = start(store)
    view = lay(table, play)
    assert session.phase == STAGED
    staged = match(table).staged
    assert staged is not None and staged.cards == play.cards
    # the camera's poses, moved back into the engine's frame, are the engine's placements
    for got, want in zip(staged.place, play.place, strict=True):
        assert got == pytest.approx(want, abs=0.01)
    dice = staged.dice
    assert not match(table).snap.record.turns  # nothing kept before the roll

    rolled = roll(table, view, [0] * dice)
    turns = match(table).snap.record.turns
    assert turns[-1]["play"] == list(play.cards) and turns[-1]["roll"] == [0] * dice
    assert session.phase == CHECKING
    assert stored_record(Store(store.path), match(table).snap.id).turns == turns  # journaled

    state = match(table).snap.state
    see(table, event(CABOOSE_MOVED, replace(rolled, caboose=None)))
    assert session.mismatch is not None and "caboose" in session.mismatch.text
    table.handle(Press(CONFIRM))
    assert session.phase == CHECKING and session.problem.text.startswith("not yet")
    assert outputs.buzzes[-1] == "illegal" and outputs.led[-1] == LED_ERROR

    matching = view_of(table, dice=[0] * dice)
    assert matching.caboose == state.caboose
    see(table, event(CABOOSE_MOVED, matching, caboose=state.caboose))
    assert session.mismatch is None and session.problem is None
    assert session.led() == LED_NEEDS_CONFIRMATION
    table.handle(Press(CONFIRM))
    assert session.phase == WAITING and outputs.led[-1] == LED_WAITING


def test_the_check_names_the_penalty_cards_still_to_take(store):
    table, session, _, play = start(store)
    before = match(table).snap.state
    view = lay(table, play)
    roll(table, view, [2] * match(table).staged.dice)  # as far as it goes: a derailment
    after = match(table).snap.state
    taken = len(before.railway) + len(play.cards) - len(after.railway)
    assert taken > 0
    # the camera still sees every card: the caboose moved to the front, none taken yet
    everything = tuple(
        seen(c, p)
        for c, p in zip(before.railway + play.cards, before.layout + tuple(play.place), strict=True)
    )
    see(
        table,
        event(CABOOSE_MOVED, TableView(everything, len(everything) - 1), caboose=len(everything)),
    )
    assert (
        session.mismatch.text
        == f"take {taken} more card{'s' if taken > 1 else ''} from the back of the railway"
    )


def test_an_illegal_placement_is_announced_and_nothing_is_applied(store):
    table, session, outputs, play = start(store)
    wrong = Pose(play.place[0].x + 40.0, play.place[0].y + 40.0, play.place[0].rotation)
    view = view_of(table, [(play.cards[0], wrong)])
    see(table, event(CARDS_LAID, view))
    assert session.phase == ILLEGAL
    assert "cannot be played" in session.problem.text
    assert outputs.buzzes == ["illegal"] and session.led() == LED_ERROR
    assert match(table).staged is None and not match(table).snap.record.turns
    roll(table, view, [1])  # dice thrown anyway: still nothing
    assert not match(table).snap.record.turns
    # the card is put right: staged, the error is gone
    lay(table, play)
    assert session.phase == STAGED and session.problem is None


def test_cards_taken_back_unstage(store):
    table, session, _, play = start(store)
    lay(table, play)
    assert match(table).staged is not None
    see(table, event(CARDS_LIFTED, view_of(table)))
    assert session.phase == WAITING and match(table).staged is None


def test_pass_button_then_undo_by_holding_confirm(store):
    table, session, _, _ = start(store)
    table.handle(Press(PASS))
    assert match(table).snap.record.turns == [{"pass": True}]
    assert session.phase == CHECKING
    table.handle(Press(UNDO))
    assert match(table).snap.record.turns == []
    assert session.phase == WAITING


def test_undo_never_goes_past_a_roll(store):
    table, session, outputs, play = start(store)
    view = lay(table, play)
    roll(table, view, [0] * match(table).staged.dice)
    table.handle(Press(UNDO))
    assert len(match(table).snap.record.turns) == 1
    assert "dice roll once seen is not undone" in session.problem.text
    assert outputs.buzzes[-1] == "illegal"


def test_undo_while_staged_takes_the_cards_back(store):
    table, session, _, play = start(store)
    lay(table, play)
    table.handle(Press(UNDO))
    assert match(table).staged is None and session.phase == WAITING


def test_pass_with_cards_laid_is_refused(store):
    table, session, outputs, play = start(store)
    lay(table, play)
    table.handle(Press(PASS))
    assert not match(table).snap.record.turns
    assert "take them back to pass" in session.problem.text and outputs.buzzes == ["illegal"]


def test_an_unsure_card_is_asked_about_not_guessed(store):
    table, session, _, play = start(store)
    lay(table, play, confidence=0.1)
    assert session.phase == ASKING and match(table).staged is None
    question = session.status()["question"]
    assert play.cards[0] in question["options"]
    answer(table, play.cards[0])
    assert session.phase in (STAGED, ASKING)
    while session.phase == ASKING:  # each unsure card in turn
        answer(table, play.cards[session.question.card])
    assert session.phase == STAGED and match(table).staged.cards == play.cards
    with pytest.raises(TableError):
        answer(table, play.cards[0])


def test_a_card_not_in_the_hand_is_asked_about(store):
    table, session, _, play = start(store)
    hand = match(table).snap.state.player.hand + match(table).snap.state.draw[:1]
    stranger = next(c for c in ("1/s", "2/s", "3/s", "4/s", "1/c") if c not in hand)
    view = view_of(table, [(stranger, play.place[0])])
    see(table, event(CARDS_LAID, view))
    assert session.phase == ASKING
    assert set(session.question.options) <= set(hand)
    with pytest.raises(TableError):
        answer(table, "C4")


def test_chaos_cards_shown_in_the_zone_are_discarded_in_order(store):
    table = followed(store)
    for seed in range(300):
        state = new_game(table, "rollecate", ["Ana", "Ben"], seed=seed).snap.state
        chaos = [c for c in state.player.hand + state.draw[:1] if c.startswith("C")]
        if chaos:
            break
    session = flow(table)
    see(table, event(TABLE_SEEN, view_of(table)))
    view = view_of(table, shown=chaos)
    see(table, event(CARDS_SHOWN, view, cards=view.shown))
    assert match(table).snap.record.turns == [{"chaos": chaos}]
    assert session.phase == WAITING


def test_more_dice_than_the_table_has_are_rolled_in_batches(store):
    table, session, _, play = start(store, "rollecate")
    view = lay(table, play)
    needed = match(table).staged.dice
    see(table, event(DICE_SETTLED, view, dice=view_of(table, dice=[1] * 5).dice))
    assert "5 dice were rolled" in session.problem.text or needed >= 5
    session.config = replace(session.config, dice_per_roll=1)
    for number in range(needed):
        assert not match(table).snap.record.turns
        dice = (SeenDie("wheels", 1, (400.0 + 3 * number, 560.0), 1.0),)
        see(table, event(DICE_SETTLED, replace(view, dice=dice), dice=dice))
    assert match(table).snap.record.turns[-1]["roll"] == [1] * needed


def test_pip_dice_need_the_tables_face_map(store):
    table, session, _, play = start(store)
    view = lay(table, play)
    dice = tuple(
        SeenDie("pips", 6, (400.0 + 40 * i, 560.0), 1.0) for i in range(match(table).staged.dice)
    )
    see(table, event(DICE_SETTLED, replace(view, dice=dice), dice=dice))
    assert "face map" in session.problem.text and not match(table).snap.record.turns
    session.config = replace(session.config, pip_wheels={1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2})
    see(table, event(DICE_SETTLED, replace(view, dice=dice), dice=dice))
    assert match(table).snap.record.turns[-1]["roll"] == [2] * len(dice)


def test_the_session_follows_the_page_and_a_restart(store):
    table, session, _, _ = start(store)
    act(table, 0, Pass())  # the page passed for Ana: the session follows in the same step
    assert session.phase == CHECKING
    restarted = followed(Store(store.path))
    assert flow(restarted).phase == CHECKING  # the table is checked again before CONFIRM
    see(table, event(CARDS_TAKEN, view_of(table)))
    table.handle(Press(CONFIRM))
    assert session.phase == WAITING


def wait_for(condition, seconds: float = 2.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the session did not hear the button"
        time.sleep(0.01)


@pytest.fixture
def wired(store):
    """A session driven through hw.controls on gpiozero's mock pins."""
    table, session, _, play = start(store)
    factory = MockFactory()
    controls = hw_controls.Controls(
        lambda button: table.handle(Press(button)),
        {"pass": 5, "confirm": 6, "led": 13, "buzzer": 19},
        debounce=0.02,
        hold=0.3,
        pin_factory=factory,
    )
    session.outputs = controls
    yield table, session, factory, controls, play
    time.sleep(0.1)  # a button's callback may still be lighting the LED on its timer thread
    controls.close()


def test_buttons_on_mock_pins_pass_confirm_and_hold_to_undo(wired):
    table, session, factory, controls, _ = wired
    press(factory, 5)
    wait_for(lambda: len(match(table).snap.record.turns) == 1)
    assert session.phase == CHECKING and controls.status == LED_NEEDS_CONFIRMATION
    press(factory, 6, seconds=0.45)  # held: UNDO, not CONFIRM
    wait_for(lambda: not match(table).snap.record.turns)
    assert session.phase == WAITING and controls.status == LED_WAITING
    press(factory, 5)
    wait_for(lambda: len(match(table).snap.record.turns) == 1)
    see(table, event(CARDS_TAKEN, view_of(table)))
    press(factory, 6)
    wait_for(lambda: session.phase == WAITING)
    assert len(match(table).snap.record.turns) == 1


def test_a_bouncing_pass_button_passes_once(wired):
    table, _, factory, _, _ = wired
    chattering_press(factory, 5)
    # The pass waits on the debounce timer's thread, late on a loaded machine: wait for
    # it, then long enough for a second pass to have come if the chatter made one.
    wait_for(lambda: match(table).snap.record.turns, seconds=5.0)
    time.sleep(0.15)
    assert match(table).snap.record.turns == [{"pass": True}]


def test_an_illegal_move_lights_the_error_and_sounds_the_buzzer(wired):
    table, _, factory, controls, play = wired
    wrong = Pose(play.place[0].x + 40.0, play.place[0].y + 40.0, play.place[0].rotation)
    see(table, event(CARDS_LAID, view_of(table, [(play.cards[0], wrong)])))
    assert controls.status == LED_ERROR
    time.sleep(0.03)
    assert factory.pin(19).state == 1  # the buzzer's first beep


def test_a_railway_lying_turned_on_the_table_is_judged_in_the_engines_frame(store):
    """The table's railway need not lie as the engine laid it out: turned a quarter round
    and shifted, the laid card's pose still comes back as the engine's placement."""
    from companion.games.caboose.placement import engine_poses

    table, _, _, play = start(store)
    state = match(table).snap.state

    def turned(pose: Pose) -> Pose:  # a quarter turn clockwise about the origin, then a shift
        return Pose(-pose.y + 500.0, pose.x + 100.0, (pose.rotation + 90.0) % 360.0)

    pairs = zip(state.railway, state.layout, strict=True)
    railway = tuple(SeenCard(c, 0.9, turned(p)) for c, p in pairs)
    laid = tuple(SeenCard(c, 0.9, turned(p)) for c, p in zip(play.cards, play.place, strict=True))
    poses = engine_poses(state, TableView(railway + laid, 0), laid)
    for got, want in zip(poses, play.place, strict=True):
        assert got.x == pytest.approx(want.x, abs=0.01)
        assert got.y == pytest.approx(want.y, abs=0.01)
        assert got.rotation % 180 == pytest.approx(want.rotation % 180, abs=0.01)


def test_the_turn_in_progress_is_on_the_pages_api(store):
    from web.app import create_app

    table, _, _, play = start(store)
    app = create_app(table, "246810")
    client = app.test_client()
    assert client.get("/api/session").json["phase"] == WAITING
    lay(table, play, confidence=0.1)
    question = client.get("/api/session").json["question"]
    assert question is not None and play.cards[0] in question["options"]
    refused = client.post("/api/session/answer", json={"code": play.cards[0]})
    assert refused.status_code == 401  # changing the game needs the table's PIN
    pin = {"X-Table-Pin": "246810"}
    assert client.post("/api/session/answer", json={"card": "x"}, headers=pin).status_code == 400
    answered = client.post(
        "/api/session/answer", json={"code": play.cards[question["card"]]}, headers=pin
    )
    assert answered.status_code == 200 and answered.json["session"]["phase"] in (STAGED, ASKING)
    wrong = client.post("/api/session/answer", json={"code": "C9"}, headers=pin)
    assert wrong.status_code >= 400 and "error" in wrong.json


def test_on_a_provisional_deal_a_card_laid_is_the_card_the_player_held(store):
    """A real table: the companion's deal is a guess. A card laid that its guess gave to
    someone else is taken as laid, and the deal is fixed, not the player questioned."""
    seed, play = first_play("loose-caboose")
    table = followed(store, provisional=True)
    new_game(table, "loose-caboose", ["Ana", "Ben"], seed=seed)
    session = flow(table)
    see(table, event(TABLE_SEEN, view_of(table)))
    state = match(table).snap.state
    held = state.player.hand + state.draw[:1]
    shape = play.cards[0].split("/")[1]
    stranger = next(f"{value}/{shape}" for value in "1234" if f"{value}/{shape}" not in held)
    see(table, event(CARDS_LAID, view_of(table, [(stranger, play.place[0])])))
    assert session.phase == STAGED and match(table).staged.cards == (stranger,)
    state = match(table).snap.state
    assert stranger in state.player.hand + state.draw[:1]
    assert [entry.kind for entry in store.journal(match(table).snap.id)] == ["deal"]


def test_on_a_provisional_deal_the_hands_are_shown_at_the_end(store):
    table = followed(store, provisional=True)
    new_game(table, "rollecate", ["Ana", "Ben"], seed=2)
    session = flow(table)
    while not match(table).snap.state.over:
        act(table, match(table).snap.state.to_move, Pass())
    assert session.status()["message"].startswith("game over: Ana, show your hand")
    ana = list(match(table).snap.state.seats[0].hand)
    view = view_of(table, shown=ana)
    see(table, event(CARDS_SHOWN, view, cards=view.shown))
    assert match(table).snap.shown == {0: tuple(ana)}
    assert "Ben, show your hand" in session.status()["message"]


def test_a_hand_moving_over_the_table_does_not_wake_the_pages(store):
    """The camera's share of the table a hand covers changes on every frame while the hand
    moves: only a new kind of problem, or a share changed by 10 points, is announced."""
    table, session, _, _ = start(store)

    def covers(percent: int) -> Problem:  # as companion.games.caboose.vision.observe gives it
        return Problem("covered", {"percent": percent})

    unseen = Problem("caboose_unseen")

    def announced(problems: Sequence[Problem]) -> bool:
        version, own = table.version, session.version
        see(table, problems=problems)
        assert (table.version > version) == (session.version > own)
        return table.version > version

    assert announced([covers(12)])
    assert not announced([covers(13)])
    assert not announced([covers(15)])
    assert session.status()["camera"] == [covers(12).text()]  # the words the pages were told
    for _ in range(3):  # wavering about a round number is no news either
        assert not announced([covers(14)]) and not announced([covers(16)])
    assert announced([covers(12), unseen])  # a new kind of problem
    assert not announced([covers(19), unseen])
    assert announced([covers(22), unseen])  # the hand covers much more
    assert session.status()["camera"] == [
        "something covers 22% of the table (a hand?): what lies under it is not seen",
        "the caboose is not seen",
    ]
    assert announced([Problem("markers_hidden_one", {"n": 1, "markers": "2"})])
    assert announced([Problem("markers_hidden", {"n": 2, "markers": "2, 3"})])
    assert announced([])
    assert not announced([])
