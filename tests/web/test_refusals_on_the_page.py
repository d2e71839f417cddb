"""Why the table refused what it saw, on the page in its language: the engine's refusal
keeps its English (what the API always gave) and carries a key and parameters the Spanish
page says in Spanish."""

from __future__ import annotations

from companion.games.caboose.tracker import CARDS_LAID
from companion.pose import Pose
from companion.store import Store
from tests.test_session import event, see, start, view_of
from tests.web.conftest import PIN
from web.app import create_app


def test_a_card_laid_apart_is_refused_in_the_pages_language(tmp_path, settings):
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    client = create_app(table, PIN, settings).test_client()
    front = play.place[0]
    apart = Pose(front.x + 40.0, front.y + 40.0, front.rotation)  # off the open end
    see(table, event(CARDS_LAID, view_of(table, [(play.cards[0], apart)])))
    code = play.cards[0]
    english = client.get("/api/state?lang=en").json["session"]
    assert english["problem"] == (
        f"{code} cannot be played so: card 1 played ({code}) does not join the open end of "
        "the front card: put one of its track ends against it"
    )
    assert english["problem"] == session.problem.text
    spanish = client.get("/api/state?lang=es").json["session"]
    assert spanish["problem"] == (
        f"{code} no se puede jugar así: la carta 1 jugada ({code}) no se une al extremo "
        "abierto de la carta del frente: pon uno de sus extremos de vía contra él"
    )
    detail = spanish["said"]["problem"]["params"]["detail"]
    assert detail["key"] == "placement_apart"
    assert detail["params"]["number"] == 1 and detail["params"]["code"] == code
    assert detail["params"]["message"] == english["problem"].split("so: ", 1)[1]  # its English
