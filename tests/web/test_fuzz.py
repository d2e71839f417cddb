"""No request, however strange, gets a 500 or changes the game when refused."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.caboose import commands as caboose_commands
from companion.games.protocol import Malformed, Refusal
from companion.games.switching import commands as switching_commands
from companion.games.yardmaster import commands as yardmaster_commands
from companion.store import Store
from companion.table import Table
from tests.caboose.test_follow import start as start_followed
from tests.web.conftest import HEADERS, PIN, record
from web.app import Settings, create_app

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 10)
    | st.sampled_from(["1", "2x", "C3", "4/s", "3!", "", "x", "pass"])
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=12)
turns = st.lists(
    st.dictionaries(
        st.sampled_from(["pass", "play", "roll", "chaos", "order", "place", "drawn", "jump"]),
        values,
        max_size=3,
    ),
    max_size=3,
)
setups = st.fixed_dictionaries(
    {"railway": values, "caboose": values, "hands": values, "draw": values}
)

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(turns=turns, setup=st.none() | setups)
def test_strange_records_are_refused_cleanly(client, dealt, turns, setup):
    doc = record(turns=turns) if setup is None else record(turns=turns, setup=setup)
    before = json.dumps(dealt.record()[2])
    answer = client.post("/api/import", json={"record": doc}, headers=HEADERS)
    assert answer.status_code in (200, 400, 422), answer.json
    if answer.status_code != 200:
        assert json.dumps(dealt.record()[2]) == before
    watched = client.post("/api/replay", json={"record": doc, "turn": 3})
    assert watched.status_code in (200, 400, 422), watched.json


@FUZZ
@given(
    route=st.sampled_from(["/api/command/", "/api/"]),  # the command route, the old paths
    path=st.sampled_from(["pass", "play", "chaos", "stage", "order", "correct"]),
    body=st.dictionaries(
        st.sampled_from(["seat", "cards", "roll", "place", "order", "confirm"]), values, max_size=4
    ),
)
def test_strange_turns_are_refused_cleanly(client, dealt, route, path, body):
    answer = client.post(f"{route}{path}", json=body, headers=HEADERS)
    assert answer.status_code in (200, 400, 409, 422), answer.json


# --- every field of every route, every wrong JSON type -------------------------------------

# Values of each JSON type. A field refuses every type it does not take with a 400 naming it;
# what a type it takes may hold that is still wrong (out of range, a list of other things)
# is each field's own `wrong` below.
TYPES: dict[str, tuple[Any, ...]] = {
    "list": ([], [1], [{}], ["caboose"]),
    "object": ({}, {"a": 1}, {"caboose": "caboose"}),
    "text": ("", "x", "1", "caboose"),
    "int": (0, 1, -1, 10**20),
    "float": (1.5, -0.5, 1e300),
    "bool": (True, False),
    "null": (None,),
}


@dataclass(frozen=True)
class Field:
    """A field of a route: the JSON types it takes, and values of those types that are
    still refused (400 naming it, or the route's refusal of a table that cannot do it:
    409 not now, 422 not allowed)."""

    takes: frozenset[str]
    wrong: tuple[Any, ...] = ()


def takes(*types: str, wrong: tuple[Any, ...] = ()) -> Field:
    return Field(frozenset(types), wrong)


SEAT = takes("int", wrong=(-1, 99, 10**20))
TURN = takes("int", wrong=(-1, 10**20))
FLAG = takes("bool")
CARDS = takes("list", wrong=([1], [None], [[]], ["ZZ"], ["1", 2]))
ORDER = takes("list", wrong=([1], [None], ["ZZ!"], ["!"]))
ROLL = takes("list", wrong=([1.5], ["1"], [True], [None], [-1], [99], [10**20]))
PLACE = takes("list", wrong=([1], [{}], [[0, 0]], [[0, 0, "x"]], [[0, 0, 0, 0]], [[1e300, 0, 0]]))
HAND = takes("list", wrong=([1], [None], [[]], ["ZZ"], ["1"] * 30))
LANG = takes("text", wrong=("fr", "", "EN"))
RECORD = takes("object", wrong=({"format": "chess/1"},))

START = {
    "game": takes("text", wrong=("chess", "")),
    "edition": takes("text", wrong=("chess", "x" * 201)),
    "variant": takes("text", "null", wrong=("chess",)),
    "names": takes("list", wrong=([], ["A"] * 9, [1], [None], [["Ana"]], ["", "Ben"])),
    "seed": takes("int", "text", "null", wrong=("x" * 201,)),
}
EDITION = {"caboose": "rollecate", "yardmaster-express": "yardmaster-express", "switching": "ours"}


@dataclass(frozen=True)
class Route:
    """A POST route, the game at the table when it is asked (None: none yet), a request of
    it whose every field is of a type it takes, and its fields."""

    game: str | None
    path: str
    body: dict[str, Any]
    fields: dict[str, Field]

    def __str__(self) -> str:
        return f"{self.game or 'lobby'}:{self.path}:{'+'.join(self.body) or '-'}"

    @property
    def url(self) -> str:
        """Where it is posted: a game's command through the one command route."""
        if self.path not in SHELL_POSTS:
            return f"/api/command/{self.path}"
        return f"/api/{self.path.replace('<number>', '1')}"  # a player of the history


# The POST routes of the shell's own; every other is a game's command.
SHELL_POSTS = {
    "game",
    "import",
    "replay",
    "pin",
    "advise",
    "seats/invite",
    "seats/forget",
    "seats/join",
    "setup/led",
    "setup/buzzer",
    "setup/speaker",
    "setup/save",
    "setup/board",
    "setup/board/save",
    "setup/pips",
    "setup/pips/save",
    "setup/die",
    "setup/die/save",
    "players/<number>/rename",
    "players/<number>/merge",
}


ROUTES = [
    *(
        Route(
            None,
            "game",
            {"game": g, "edition": e, "variant": None, "names": ["A", "B"], "seed": 1},
            START,
        )
        for g, e in EDITION.items()
    ),
    Route(None, "import", {"record": record()}, {"record": RECORD}),
    Route(
        None,
        "replay",
        {"record": record(), "turn": 1},
        {"record": RECORD, "turn": takes("int", wrong=(-1,))},
    ),
    Route(None, "pin", {}, {}),
    Route(
        None,
        "players/<number>/rename",
        {"name": "Ana"},
        {"name": takes("text", wrong=("", " ", "a\nb", "x" * 201))},
    ),
    Route(
        None, "players/<number>/merge", {"into": 2}, {"into": takes("int", wrong=(0, -1, 10**20))}
    ),
    *(Route(None, f"setup/{tried}", {}, {}) for tried in ("led", "buzzer", "speaker", "save")),
    Route(
        None,
        "setup/board",
        {"size": [560, 560]},
        {"size": takes("list", wrong=([], [560], [99, 560], [560, 3001], [560, "x"], [True, 560]))},
    ),
    Route(None, "setup/board/save", {"board": {}}, {"board": takes("object")}),
    Route(None, "setup/pips", {"pips": 1}, {"pips": takes("int", wrong=(0, 7, -1))}),
    Route(None, "setup/pips/save", {}, {}),
    Route(None, "setup/die", {"face": "purple"}, {"face": takes("text")}),
    Route(None, "setup/die/save", {}, {}),
    Route("caboose", "pass", {"seat": 0, "order": ["1"]}, {"seat": SEAT, "order": ORDER}),
    Route(
        "caboose",
        "play",
        {"seat": 0, "cards": ["1"], "roll": [1], "place": [[0, 0, 0]], "order": ["1"]},
        {"seat": SEAT, "cards": CARDS, "roll": ROLL, "place": PLACE, "order": ORDER},
    ),
    Route("caboose", "chaos", {"seat": 0, "cards": ["C2"]}, {"seat": SEAT, "cards": ORDER}),
    Route(
        "caboose",
        "stage",
        {"seat": 0, "cards": ["1"], "place": [[0, 0, 0]]},
        {"seat": SEAT, "cards": CARDS, "place": PLACE},
    ),
    Route("caboose", "unstage", {}, {}),
    Route("caboose", "undo", {"turn": 0}, {"turn": TURN}),
    Route("caboose", "order", {"order": ["1"], "turn": 0}, {"order": ORDER, "turn": TURN}),
    Route(
        "caboose",
        "correct",
        {"roll": [1], "confirm": True, "turn": 0},
        {"roll": ROLL, "confirm": FLAG, "turn": TURN},
    ),
    Route("caboose", "shown", {"cards": ["1"]}, {"cards": CARDS}),
    Route(
        "caboose",
        "advise",
        {"seat": 0, "hand": ["1"], "lang": "en"},
        {"seat": SEAT, "hand": HAND, "lang": LANG},
    ),
    # Seats on phones (web/seats.py): a seat's code, forgetting its phone, joining with it.
    Route("caboose", "seats/invite", {"seat": 0}, {"seat": SEAT}),
    Route("caboose", "seats/forget", {"seat": 0}, {"seat": SEAT}),
    Route("caboose", "seats/join", {"invite": "x"}, {"invite": takes("text")}),
    Route(
        "camera",
        "session/answer",
        {"code": "1", "face": 1},
        {
            "code": takes("text", wrong=("ZZ",)),
            "face": takes("int", wrong=(-1, 7, 10**20)),
            "no_die": takes("bool", wrong=(False,)),  # only true says what it asks is no die
        },
    ),
    Route(
        "yardmaster-express",
        "add",
        {"seat": 0, "card": "R3-B2", "turned": False, "face_down": False, "turn": 0},
        {
            "seat": SEAT,
            "card": takes("text", wrong=("ZZ", "R9-B9", "")),
            "turned": FLAG,
            "face_down": FLAG,
            "turn": TURN,
        },
    ),
    Route("yardmaster-express", "undo", {"turn": 0}, {"turn": TURN}),
    Route("yardmaster-express", "next", {}, {}),
    Route(
        "yardmaster-express",
        "advise",
        {"seat": 0, "hand": ["R3-B2"], "lang": "en"},
        {"seat": SEAT, "hand": HAND, "lang": LANG},
    ),
    *(
        Route(
            "switching",
            "roll",
            {die: "purple", "dice": [1, 2], "turn": 0},
            {
                die: takes("text", wrong=("red", "x" * 201)),
                "dice": takes("list", wrong=([0, 1], [1, 7], [1], [1, 2, 3], [1.5, 2], [True, 1])),
                "turn": TURN,
            },
        )
        for die in ("colour", "repair")
    ),
    Route(
        "switching",
        "play",
        {"from": "o3", "turn": 0},
        {"from": takes("text", wrong=("nowhere", "x" * 201)), "turn": TURN},
    ),
    Route("switching", "pass", {"turn": 0}, {"turn": TURN}),
    Route("switching", "undo", {"turn": 0}, {"turn": TURN}),
    # No hidden hand to advise on: the question's shape is checked all the same.
    Route(
        "switching",
        "advise",
        {"seat": 0, "hand": [], "lang": "en"},
        {"seat": takes("int", wrong=(-1,)), "hand": takes("list", wrong=([1],)), "lang": LANG},
    ),
]


def at_the_table(route: Route, tmp_path) -> tuple[Table, FlaskClient]:
    """A table with `route.game` being played ("camera": a Caboose game a camera follows),
    and a client that knows the PIN and may ask the advisor as often as it likes."""
    store = Store(tmp_path / "table.sqlite3")
    the_table = start_followed(store)[0] if route.game == "camera" else Table(store)
    unlimited = Settings(advise_rate=1e9, advise_burst=10**9)
    client = create_app(the_table, PIN, unlimited).test_client()
    if route.game == "caboose":
        answer = client.post("/api/import", json={"record": record()}, headers=HEADERS)
    elif route.game in EDITION:
        start = {"game": route.game, "edition": EDITION[route.game], "names": ["A", "B"]}
        answer = client.post("/api/game", json=start | {"seed": 1}, headers=HEADERS)
    else:
        return the_table, client
    assert answer.status_code == 200, answer.json
    return the_table, client


def kept(the_table: Table) -> tuple[int, str | None]:
    """What a refused request must leave as it was: the table's version and its game."""
    try:
        return the_table.version, json.dumps(the_table.record()[2])
    except Refusal:  # no game yet
        return the_table.version, None


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_every_field_of_every_route_refuses_every_wrong_type_naming_it(route, tmp_path):
    the_table, client = at_the_table(route, tmp_path)
    before = kept(the_table)
    sent = [(name, value, True) for name in route.fields for kind, values in TYPES.items()
            if kind not in route.fields[name].takes for value in values]  # fmt: skip
    sent += [(name, value, False) for name, field in route.fields.items() for value in field.wrong]
    sent += [("bogus", 1, True)]  # a field the route does not take at all
    for name, value, of_wrong_type in sent:
        body = route.body | {name: value}
        answer = client.post(route.url, json=body, headers=HEADERS)
        said = f"{route} {name}={value!r}: {answer.status_code} {answer.json}"
        if of_wrong_type:
            assert answer.status_code == 400, said
        else:
            assert answer.status_code in (400, 409, 422), said
        error = answer.json["error"]
        if answer.status_code == 400 or name == "game":
            assert error["fields"] == [name], said
        assert error["message"], said
        assert kept(the_table) == before, said


def test_the_routes_above_are_every_route_with_every_field(client):
    """The list above, checked against the app's POST routes and against the fields each
    game's route says it takes: a route or a field added later is fuzzed too, or this fails."""
    posts = {
        rule.rule.removeprefix("/api/")
        for rule in client.application.url_map.iter_rules()
        if "POST" in (rule.methods or ())
    }
    assert posts == SHELL_POSTS | {"command/<path:name>"}  # the games' commands: one route
    assert {route.path for route in ROUTES} >= SHELL_POSTS
    commands = {
        "caboose": caboose_commands.ROUTES,
        "yardmaster-express": yardmaster_commands.ROUTES,
        "switching": switching_commands.ROUTES,
    }
    for game, routes in commands.items():
        followed = "camera" if game == "caboose" else game  # its game a camera follows
        for path, read in routes.items():
            listed = [r for r in ROUTES if r.path == path and r.game in (game, followed)]
            assert listed, f"{game}: {path} is not fuzzed"
            with pytest.raises(Malformed) as refused:
                read({"bogus": 1})
            fuzzed = sorted({name for route in listed for name in route.fields})
            assert refused.value.params["allowed"] == ", ".join(fuzzed), f"{game}: {path}"
