"""Yardmaster Express as the shared table sees it: its `Game` (companion/games/protocol.py).

One entry per thing the shared parts ask; each points at the module of the package that
does it, so this file is the package's table of contents for the seam."""

from __future__ import annotations

import random
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from companion.games.protocol import Camera, Game, Option, RecordProblem, Start
from companion.games.yardmaster import (
    advise,
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
from companion.games.yardmaster.commands import AddCard
from companion.games.yardmaster.drawing import draw
from companion.games.yardmaster.edition import EDITIONS
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.record import FORMAT, GAME_ID, from_json, result
from companion.games.yardmaster.snapshot import Snapshot
from companion.games.yardmaster.vision import enrolment, eval_vision
from companion.games.yardmaster.words import TEXT

NAME = "Yardmaster Express"


def options() -> tuple[Option, ...]:
    """The editions, each with its variants (match.VARIANTS: a caboose card, the strategic
    variant's two games, both)."""
    names = {
        "caboose": "with a caboose card",
        "strategic": "strategic (two games)",
        "strategic-caboose": "strategic, with a caboose card",
    }
    found = []
    for edition_id in EDITIONS:
        edition = load_edition(edition_id)
        variants = tuple(Option(v, names[v], edition.players) for v in match.VARIANTS if v)
        found.append(Option(edition.id, edition.name, edition.players, variants))
    return tuple(found)


def watch(doc: Mapping[str, Any], turn: int, lang: str) -> dict[str, Any]:
    """One frame of a record watched turn by turn on the page (`POST /api/replay`): the view
    after `turn` cards, with the number of turns."""
    played = from_json(doc)  # its players' names checked as a new game's are
    turn = min(turn, len(played.adds))
    snap = Snapshot(load_edition(), played.start, played.adds[:turn], variant=played.variant)
    try:
        snap.yard  # noqa: B018 - a turn that breaks a rule is said, not drawn
    except rules.RuleError as error:
        raise RecordProblem(turn, error.rule, error.message) from None
    frame = view.build(snap, lang, light=True)
    frame["turns"] = len(played.adds)
    return frame


def sample(table: Any, turns: int = 6, seed: str = "demo") -> None:
    """A game in progress to look at: three bots' first `turns` cards added through the
    table, as the page would add them."""
    table.start(GAME_ID, Start(("Ana", "Ben", "Cleo"), "yardmaster-express", "caboose", seed))
    rng = random.Random(seed)
    for number in range(turns):
        snap = table.match.hint()
        if snap.yard.over:
            return
        add = bots.choose(snap.yard, ("run", "value")[number % 2], rng)
        table.handle(AddCard(snap.yard.to_move, add.card, number, add.turned, add.face_down))


def scene(seed: int) -> Any:
    """A table of this game in mid-play: what the synthetic camera shows."""
    return scenes.random_yard(seed).scene


def refusal_words(match: Any, key: str, params: Mapping[str, Any], message: str, lang: str) -> str:
    """A refusal in `lang` with the cards it names in words (`view.said_words`); before any
    game (the lobby: no edition dealt) in the words as they are."""
    snap = getattr(match, "snap", None)
    edition = snap.edition if snap is not None else load_edition()
    return view.said_words(edition, {"key": key, "params": dict(params), "text": message}, lang)


GAME = Game(
    id=GAME_ID,
    name=NAME,
    options=options(),
    words=TEXT.__getitem__,
    page=files("companion.games.yardmaster") / "page",
    start=match.start,
    load=match.load,
    resume=match.resume,
    parse=commands.parse,
    button=commands.button,
    replay=commandline.replay_text,
    watch=watch,
    result=result,
    record_format=FORMAT,  # the spec's "yardmaster-record/1", not its id's
    camera=Camera(watcher=camera.Camera.over, follow=camera.follow, scene=scene, draw=draw),
    sample=sample,
    simulate=commandline.simulate,
    add_arguments=commandline.add_arguments,
    demo=demo.from_args,
    enroll=enrolment.enrolment,
    eval_vision=eval_vision.main,
    advise=advise.advise,
    refusal_words=refusal_words,
    hand=match.hand,
    printables=printing.PRINTABLES,
)
