"""The page is one shell (web/static/shell.js, app.css, index.html) plus the page of the game
being played, served from that game's package (`Game.page`): its script, style and markup."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from companion import games
from tests.web.conftest import HEADERS

ROOT = Path(__file__).resolve().parents[2]
SHELL = ROOT / "web" / "static" / "shell.js"


@pytest.mark.parametrize("game", list(games.games().values()), ids=lambda g: g.id)
def test_a_games_page_files_are_served_as_the_shells_are(client, game):
    """Its script and style come byte for byte from its package, with the same security
    headers and caching as /static (revalidated, a 304 when unchanged)."""
    static = client.get("/static/app.css")
    for name, kind in ((f"{game.id}.js", "text/javascript"), (f"{game.id}.css", "text/css")):
        answer = client.get(f"/games/{game.id}/{name}")
        assert answer.status_code == 200, name
        assert answer.mimetype == kind
        assert answer.data == (game.page / name).read_bytes()
        for header in ("Cache-Control", "Content-Security-Policy", "X-Content-Type-Options"):
            assert answer.headers[header] == static.headers[header], header
        again = client.get(
            f"/games/{game.id}/{name}", headers={"If-None-Match": answer.headers["ETag"]}
        )
        assert again.status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "/games/caboose/nothing.js",  # not in the folder
        "/games/caboose/game.py",  # the package, beside the folder
        "/games/caboose/../game.py",
        "/games/caboose/..%2Fgame.py",
        "/games/caboose/%2E%2E/words.py",
        "/games/caboose/page/caboose.js",  # a path, not a file's name
        "/games/nothing/caboose.js",  # no such game
        "/games/..%2F..%2Fweb/app.py",
    ],
)
def test_only_the_files_a_games_page_folder_holds_are_served(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json["error"]["rule"] == "http"


def test_the_page_loads_the_shell_then_the_default_games_page(client):
    """Before any game the default game's page is loaded, after the shell, so its script
    finds the shell's helpers; its markup is in the page."""
    game = games.default()
    page = client.get("/").get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', page)
    # then joining from phones (seats.js), which draws around what the game drew, and the
    # games played (history.js); setting the table up (setup.js) only where a camera
    # watches it (test_browser_setup)
    assert scripts == [
        "/static/shell.js",
        f"/games/{game.id}/{game.id}.js",
        "/static/seats.js",
        "/static/history.js",
    ]
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    assert styles == [
        "/static/app.css",
        f"/games/{game.id}/{game.id}.css",
        "/static/seats.css",
        "/static/history.css",
    ]
    fragment = (game.page / "table.html").read_text()
    ids = re.findall(r'id="([^"]+)"', fragment)
    assert ids and all(f'id="{name}"' in page for name in ids)


def test_the_screen_beside_the_table_is_a_kiosk_from_its_first_frame(client):
    """`?view=table` is drawn as the kiosk before any script runs (no PIN or start form
    shown for a moment on the TV); the phones' page is not."""
    assert '<html lang="en" class="kiosk">' in client.get("/?view=table").text
    assert '<html lang="en">' in client.get("/").text


def test_the_shell_names_nothing_of_the_caboose_design():
    """The shell is every game's: what belongs to one game (its railway, cards, dice,
    chaos cards, derailments, the Laura bot) is drawn by that game's script. The only
    "caboose" left is the key under which phones keep the PIN, the companion's name,
    which must not change or every phone would forget its PIN."""
    source = SHELL.read_text().lower().replace('"caboose-pin"', "")
    for word in ("caboose", "railway", "derail", "chaos", "laura", "card", "dice"):
        assert word not in source, word


def test_every_games_page_files_ship_in_the_wheel():
    """pyproject.toml's package-data takes every file of each game's page folder, so an
    installed companion serves the same page as a checkout."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["companion"]
    package = ROOT / "companion"
    for game in games.games().values():
        folder = Path(str(game.page))
        held = {file.name for file in folder.iterdir() if file.is_file()}
        assert {f"{game.id}.js", f"{game.id}.css", "table.html"} <= held
        for file in folder.iterdir():
            path = file.relative_to(package).as_posix()
            assert any(fnmatch(path, pattern) for pattern in patterns), path


def test_only_a_language_the_page_speaks_is_remembered(client):
    """`?lang=es` is kept in a cookie for the next visit; a language the page does not
    speak is not, and the page follows the browser instead."""
    asked = client.get("/?lang=es", headers={"Accept-Language": "en"})
    assert 'lang="es"' in asked.get_data(as_text=True)
    assert "lang=es" in asked.headers["Set-Cookie"]
    client.delete_cookie("lang")
    unknown = client.get("/?lang=fr", headers={"Accept-Language": "es"})
    assert 'lang="es"' in unknown.get_data(as_text=True)
    assert "Set-Cookie" not in unknown.headers


@pytest.mark.parametrize("game", list(games.games().values()), ids=lambda g: g.id)
def test_the_advisors_link_shows_only_where_the_game_gives_advice(client, game):
    """The switching game hides no hand: its advisor has nothing to say, so its page does
    not offer it; the games with a hidden hand do, in both languages."""
    option = game.options[0].id
    answer = client.post(
        "/api/game",
        json={"game": game.id, "edition": option, "names": ["Ana", "Ben"]},
        headers=HEADERS,
    )
    assert answer.status_code == 200, answer.json
    for lang in ("en", "es"):
        page = client.get(f"/?lang={lang}").text
        assert ('id="advisor-link"' in page) == (game.advise is not None), lang


@pytest.mark.parametrize("game", list(games.games().values()), ids=lambda g: g.id)
def test_the_advisor_loads_the_drawing_of_the_games_advice_after_its_shell(client, game):
    """The advice is drawn by the game at the table's own script and style (its page
    folder's advisor.js and .css), after the advisor's shell; a game with no hidden hand
    has none."""
    body = {"game": game.id, "edition": game.options[0].id, "names": ["Ana", "Ben"]}
    assert client.post("/api/game", json=body, headers=HEADERS).status_code == 200
    page = client.get("/advisor").text
    drawing = [f"/games/{game.id}/advisor.js"] if game.advise is not None else []
    assert re.findall(r'<script src="([^"]+)"', page) == ["/static/advisor.js", *drawing]
    for url in drawing:
        assert client.get(url).data == (game.page / "advisor.js").read_bytes()
    assert f'data-game="{game.id}"' in page


def test_the_shell_names_no_games_command_nor_advice():
    """One route takes every game's commands by name (`/api/command/<name>`): no file of
    the shell (web/) names one, nor a game, nor a word of a game's advice, nor a piece of
    its advice's drawing."""
    shell = [path for path in (ROOT / "web").rglob("*") if path.suffix in SHELL_FILES]
    source = "\n".join(path.read_text() for path in shell).lower()
    named = source  # but the companion's own name: its title, files, log and keys
    for own in ("caboose companion", "caboose-companion", '"caboose-pin"', '"caboose.'):
        named = named.replace(own, "")
    for game in games.games().values():
        assert game.id not in named.replace('ident="caboose"', ""), game.id
        for name in game_commands(game):  # as a path, the blueprint's or the page's
            path = re.compile(rf"/api/{re.escape(name)}(?![\w-])")  # not /api/players
            assert f'"/{name}"' not in source and not path.search(source), (game.id, name)
        for lang in ("en", "es"):
            words = game.words(lang)
            advice = [words[key] for key in words if key.startswith("advisor_")]
            assert not [word for word in advice if f'"{word.lower()}"' in source], game.id
    advisor = (ROOT / "web/static/advisor.js").read_text().lower()
    for word in ("railway", "derail", "chaos", "laura", "dice", "railcar", "penalt", "answer.ways"):
        assert word not in advisor, word


SHELL_FILES = {".py", ".js", ".css", ".html"}


def game_commands(game) -> list[str]:
    """A game's commands, as its parse names them when asked for none of them."""
    from companion.games.requests import UnknownCommand

    with pytest.raises(UnknownCommand) as unknown:
        game.parse("", {})
    return unknown.value.params["commands"].split(", ")
