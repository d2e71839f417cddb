"""The Caboose design as the shared table sees it: its `Game` (companion/games/protocol.py).

One entry per thing the shared parts ask; each points at the module of the package that
does it, so this file is the package's table of contents for the seam."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from companion.games.caboose import (
    advise,
    camera,
    commandline,
    commands,
    demo,
    match,
    printing,
    sample,
    view,
)
from companion.games.caboose.drawing import draw
from companion.games.caboose.names import check_names
from companion.games.caboose.record import RecordError, from_json, result
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.scenes import random_table
from companion.games.caboose.snapshot import GAME_ID, snapshot_of
from companion.games.caboose.vision import enrolment, eval_vision
from companion.games.caboose.words import TEXT, session_words
from companion.games.protocol import Camera, Game, Option


def options() -> tuple[Option, ...]:
    """The editions in their files' order, each with its variants (a variant is played by
    exactly its number of people)."""
    found = []
    for edition_id in EDITIONS:
        edition = load_edition(edition_id)
        variants = tuple(
            Option(v.id, v.name, (v.players, v.players)) for v in edition.variants.values()
        )
        players = (edition.min_players, edition.max_players)
        found.append(Option(edition.id, edition.name, players, variants))
    return tuple(found)


def watch(doc: Mapping[str, Any], turn: int, lang: str) -> dict[str, Any]:
    """One frame of a record watched turn by turn on the page (`POST /api/replay`): the view
    after `turn` turns, with the number of turns and the players' names. Its players' names
    are checked as a new game's are, since the page shows them."""
    try:
        record = from_json(doc)
    except TypeError:  # cards.parse cannot hash a card given as a list or an object
        raise RecordError(0, "record", 'a card code must be a string such as "3" or "2x"') from None
    check_names(record.players)
    turn = min(turn, len(record.turns))
    frame = view.build(snapshot_of(record, turn), lang, light=True)
    frame["turns"] = len(record.turns)
    frame["players_names"] = record.players
    return frame


def refusal_words(match: Any, key: str, params: Mapping[str, Any], message: str, lang: str) -> str:
    """A refusal in `lang` with its cards in words, as the session says one (`session_words`,
    its English the message where the words have no template of their own)."""
    del match  # the cards' words are the same at every table
    said = session_words({"key": key, "params": {**params, "message": message}}, lang)
    return said if said is not None else message


GAME = Game(
    id=GAME_ID,
    name="Loose Caboose · Rollecate · LOK'n'ROLL",
    options=options(),
    words=TEXT.__getitem__,
    page=files("companion.games.caboose") / "page",
    start=match.start,
    load=match.load,
    resume=match.resume,
    parse=commands.parse,
    button=commands.button,
    replay=commandline.replay_text,
    watch=watch,
    result=result,
    idle=match.idle,
    camera=Camera(watcher=camera.Camera.over, follow=camera.follow, scene=random_table, draw=draw),
    sample=sample.sample,
    simulate=commandline.simulate,
    add_arguments=commandline.add_arguments,
    demo=demo.from_args,
    enroll=enrolment.enrolment,
    teach_pips=enrolment.PipLesson(),
    eval_vision=eval_vision.main,
    advise=advise.advise,
    refusal_words=refusal_words,
    hand=match.hand,
    printables=printing.PRINTABLES,
)
