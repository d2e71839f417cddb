"""The switching-track board game as the shared table sees it: its `Game`
(companion/games/protocol.py).

One entry per thing the shared parts ask; each points at the module of the package that
does it, so this file is the package's table of contents for the seam."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from importlib.resources import files
from typing import Any

from companion.games.names import first_bad_name
from companion.games.protocol import Camera, Game, Option, RecordProblem, Setting, Start
from companion.games.switching import (
    board,
    bots,
    camera,
    commandline,
    commands,
    demo,
    match,
    printing,
    rules,
    scenes,
    view,
)
from companion.games.switching.commands import PassTurn, Play, Throw
from companion.games.switching.drawing import draw
from companion.games.switching.record import GAME_ID, from_json, result, variant_id
from companion.games.switching.snapshot import Played, Snapshot
from companion.games.switching.vision import enrolment, eval_vision
from companion.games.switching.words import TEXT

NAME = "Switching tracks"

# The start form's names of the variants (rules.VARIANTS; the page says them in its words)
_VARIANT_NAMES = {
    "short": "short game (two trains win)",
    "repair": "bonus level (repair tiles)",
    "short-repair": "short game with repair tiles",
}


def options() -> tuple[Option, ...]:
    """The boards, each with the rules' variants (the full game is the default)."""
    return tuple(_option(board.load(board_id)) for board_id in board.BOARDS)


def own_options(setting: Setting) -> tuple[Option, ...]:
    """The board of the box taught at this table (`Setting.catalogue`), when it is one
    the package does not ship; none when there is none, or when its folder cannot be read
    (a game started on it is then refused saying why: match.own_board)."""
    try:
        own = board.taught(setting.catalogue)
    except board.BoardError:
        return ()
    return () if own is None or own.id in board.BOARDS else (_option(own),)


def _option(played_on: board.Board) -> Option:
    """A board as the start form offers it, with the rules' variants."""
    variants = tuple(Option(v, _VARIANT_NAMES[v], rules.PLAYERS) for v in _VARIANT_NAMES)
    return Option(played_on.id, played_on.name, rules.PLAYERS, variants)


def watch(doc: Mapping[str, Any], turn: int, lang: str) -> dict[str, Any]:
    """One frame of a record watched turn by turn on the page (`POST /api/replay`): the view
    after `turn` turns, with the number of turns."""
    played = from_json(doc)
    bad = first_bad_name(played.names)
    if bad is not None:
        message, key, params = bad
        raise RecordProblem(0, "record", message, key=key, params=params)
    variant = variant_id(played.start.variant)
    snap = Snapshot(played.names, played.start, variant=variant)
    turn = min(turn, len(played.turns))
    position = played.start
    history = []
    for number, entry in enumerate(played.turns[:turn], 1):
        try:
            position, events = rules.apply(position, entry.action)
        except rules.RuleError as error:
            raise RecordProblem(number, error.rule, error.message) from None
        history.append(Played(entry.action, events, position))
    frame = view.build(replace(snap, history=tuple(history)), lang, light=True)
    frame["turns"] = len(played.turns)
    return frame


def sample(table: Any, turns: int = 6, seed: str = "demo") -> None:
    """A game in progress to look at: three bots' first `turns` turns played through the
    table, as the page would play them (the dice thrown from the seed)."""
    table.start(GAME_ID, Start(("Ana", "Ben", "Cleo"), "ours", None, seed))
    rng = random.Random(seed)
    for _ in range(turns):
        snap = table.match.hint()
        if snap.position.over:
            return
        if snap.position.reroll is not None and rng.random() < 0.5:
            table.handle(PassTurn(snap.turn))
            continue
        colour = rng.choice(board.PANEL_COLOURS)
        table.handle(Throw(colour, (rng.randint(1, 6), rng.randint(1, 6)), snap.turn))
        snap = table.match.hint()
        choice = bots.choose(snap.position, snap.moves, "greedy", rng)
        if isinstance(choice.action, rules.Move):
            table.handle(Play(choice.action.train, snap.turn))
        else:
            table.handle(PassTurn(snap.turn))


def scene(seed: int) -> Any:
    """A table of this game in mid-play: what the synthetic camera shows."""
    return scenes.random_table(seed).scene


def refusal_words(match: Any, key: str, params: Mapping[str, Any], message: str, lang: str) -> str:
    """A refusal in `lang` with the spaces and slots it names in words (`view.said_words`);
    before any game (the lobby) the home board's."""
    snap = getattr(match, "snap", None)
    played = snap.position.board if snap is not None else board.load()
    return view.said_words(played, {"key": key, "params": dict(params), "text": message}, lang)


GAME = Game(
    id=GAME_ID,
    name=NAME,
    options=options(),
    own_options=own_options,
    words=TEXT.__getitem__,
    page=files("companion.games.switching") / "page",
    start=match.start,
    load=match.load,
    resume=match.resume,
    parse=commands.parse,
    button=commands.button,
    replay=commandline.replay_text,
    watch=watch,
    result=result,
    camera=Camera(
        watcher=camera.Camera.over,
        follow=camera.follow,
        scene=scene,
        area=camera.area,
        draw=draw,
    ),
    sample=sample,
    simulate=commandline.simulate,
    add_arguments=commandline.add_arguments,
    demo=demo.from_args,
    eval_vision=eval_vision.main,
    refusal_words=refusal_words,
    printables=printing.PRINTABLES,
    # a family's own box, taught (vision/taught.py): the configuration's `table.catalogue`
    enroll=enrolment.enrolment,
    teach_board=enrolment.PageLesson(),
    # no advise, no hand: no hidden hand, the page shows every legal move with its outcome
)
