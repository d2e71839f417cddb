"""The referee at the table speaks the page's language: the session says everything as keys
and parameters, the view says them in English or Spanish, and the English is what the API
always gave. The session is driven as in tests/caboose/test_follow.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.caboose.commands import Press
from companion.games.caboose.follow import CHECKING, CONFIRM, STAGED, UNDO, Following
from companion.games.caboose.rules.state import Pass
from companion.games.caboose.tracker import CABOOSE_MOVED, CARDS_SHOWN
from companion.games.caboose.words import card_words, session_words
from companion.store import Store
from tests.caboose.test_follow import (
    Outputs,
    event,
    flow,
    followed,
    lay,
    roll,
    see,
    start,
    view_of,
)
from tests.playing import act, match, new_game
from tests.web.conftest import PIN
from web.app import create_app


@pytest.fixture
def seated(tmp_path, settings):
    """A first play's table, its session having seen it, and the page's app following it."""
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    app = create_app(table, PIN, settings)
    return table, session, play, app.test_client()


def said(client, lang: str) -> dict:
    """The view's `session` in `lang`, checked against `GET /api/session` in that language."""
    doc = client.get(f"/api/state?lang={lang}").json["session"]
    alone = client.get(f"/api/session?lang={lang}").json
    assert alone == doc
    return doc


def english_unchanged(client, session: Following) -> None:
    """The English view carries the session's own words, as before there were others, but
    the cards it names are said in words (the session's English `text` keeps the codes)."""
    status = session.status()
    in_words = status | {
        name: session_words(status["said"][name], "en")
        for name in ("message", "problem", "mismatch")
    }
    if status["question"] is not None:
        prompt = session_words(status["said"]["prompt"], "en")
        in_words["question"] = status["question"] | {"prompt": prompt}
    assert said(client, "en") == in_words
    assert client.get("/api/session").json == in_words


def test_waiting_for_the_player_to_move(seated):
    _, session, _, client = seated
    es = said(client, "es")
    assert es["message"] == (
        "le toca a Ana: pon cartas al frente, enseña cartas de caos o pulsa PASS"
    )
    assert es["said"]["message"] == {"key": "to_move", "params": {"name": "Ana"}}
    en = said(client, "en")
    assert en["message"] == "Ana to move: lay cards at the front, show chaos cards, or press PASS"
    english_unchanged(client, session)
    # the browser's own language is followed too, and the event stream speaks it
    spanish = client.get("/api/state", headers={"Accept-Language": "es-ES,es;q=0.9"}).json
    assert spanish["session"]["message"] == es["message"]
    stream = client.get("/api/events?lang=es").get_data(as_text=True)
    assert "le toca a Ana" in stream


def test_roll_the_dice(seated):
    table, session, play, client = seated
    lay(table, play)
    assert session.phase == STAGED
    dice = match(table).staged.dice
    es = said(client, "es")
    assert es["message"] == (f"Ana: tira {dice} dados" if dice != 1 else "Ana: tira 1 dado")
    assert es["roll"] == {"needed": dice, "seen": []}
    en = said(client, "en")
    assert en["message"] == (f"Ana: roll {dice} dice" if dice != 1 else "Ana: roll 1 die")
    english_unchanged(client, session)


def test_a_question_about_an_unsure_card(seated):
    table, session, play, client = seated
    lay(table, play, confidence=0.1)
    es = said(client, "es")
    code = session.question.prompt.params["code"]  # the data keeps the code; people read words
    prompt = (
        f"carta 1 puesta: la cámara lee {card_words(code, 'es')}, pero no está segura (10 %); "
        "¿qué carta es?"
    )
    assert es["question"]["prompt"] == es["message"] == prompt
    assert es["question"]["options"] == list(session.question.options)
    en = said(client, "en")
    assert en["question"]["prompt"] == (
        f"card 1 laid: the camera reads {card_words(code, 'en')} but is unsure (10%); "
        "which card is it?"
    )
    english_unchanged(client, session)


def test_confirm_refused_with_the_mismatch(seated):
    table, session, play, client = seated
    view = lay(table, play)
    rolled = roll(table, view, [0] * match(table).staged.dice)
    assert session.phase == CHECKING
    see(table, event(CABOOSE_MOVED, replace(rolled, caboose=None)))
    state = match(table).snap.state
    where = f"{state.caboose + 1} desde el final ({card_words(state.railway[state.caboose], 'es')})"
    mismatch = f"el furgón va en la carta {where}; la cámara no lo ve en ninguna"
    es = said(client, "es")
    assert es["mismatch"] == es["message"] == mismatch
    table.handle(Press(CONFIRM))  # too early: refused, and why
    es = said(client, "es")
    assert es["problem"] == f"aún no: {mismatch}" and es["mismatch"] == mismatch
    assert es["said"]["problem"]["key"] == "not_yet"
    assert es["said"]["problem"]["params"]["why"] == es["said"]["mismatch"]
    en = said(client, "en")
    assert en["problem"].startswith("not yet: the caboose belongs on card")
    english_unchanged(client, session)


def test_a_roll_not_undone_is_said_in_spanish(seated):
    table, session, play, client = seated
    view = lay(table, play)
    roll(table, view, [0] * match(table).staged.dice)
    table.handle(Press(UNDO))
    es = said(client, "es")
    assert es["problem"] == "una tirada ya vista no se deshace; si se anotó mal, corrige la tirada"
    assert "dice roll once seen is not undone" in said(client, "en")["problem"]
    english_unchanged(client, session)


def test_show_the_hand_at_the_end_of_a_real_tables_game(tmp_path, settings):
    """A provisional deal: the hands are shown at the end. A hand the table refuses is said
    after a Spanish lead-in, in Spanish too; in English as the table words it."""
    table = followed(Store(tmp_path / "table.sqlite3"), provisional=True, outputs=Outputs())
    new_game(table, "rollecate", ["Ana", "Ben"], seed=2)
    session = flow(table)
    app = create_app(table, PIN, settings)
    client = app.test_client()
    while not match(table).snap.state.over:
        act(table, match(table).snap.state.to_move, Pass())
    ana = list(match(table).snap.state.seats[0].hand)
    count = f"{len(ana)} cartas" if len(ana) != 1 else "1 carta"
    es = said(client, "es")
    assert es["message"] == f"fin de la partida: Ana, enseña tu mano ({count}) en la zona marcada"
    assert said(client, "en")["message"].startswith("game over: Ana, show your hand")
    english_unchanged(client, session)

    short = view_of(table, shown=ana[:-1] if len(ana) > 1 else [*ana, *ana])
    see(table, event(CARDS_SHOWN, short, cards=short.shown))
    es = said(client, "es")
    shown = len(short.shown)
    assert es["problem"] == (
        f"no se puede: Ana acaba con {len(ana)} cartas, no {shown}: enseña todas las cartas "
        "de la mano"
    )
    assert said(client, "en")["problem"] == (
        f"Ana ends with {len(ana)} cards, not {shown}: show every card of the hand"
    )
    english_unchanged(client, session)


def test_without_a_game_too(tmp_path, settings):
    table = followed(Store(tmp_path / "table.sqlite3"))
    app = create_app(table, PIN, settings)
    client = app.test_client()
    assert said(client, "es")["message"] == "empieza una partida en la página"
    assert said(client, "en")["message"] == "start a game on the page"
