"""What the table says: `phrases` on the real views of a whole demo game of each game, in
English and Spanish, and `companion demo --speak-to DIR` writing each phrase as a WAV file
in the table's language."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import wave
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.app.cli import build_parser
from companion.app.cli import main as cli_main
from companion.app.demo import run_demo
from companion.app.service import FrameLoop
from companion.app.speech import phrases
from companion.table import Table
from hw.speaker import phrases_written

pytestmark = pytest.mark.slow  # whole demo games

GAMES = ("caboose", "yardmaster-express", "switching")
TURN_WORDS = {"en": "'s turn", "es": "Le toca a "}
RANKING = {"en": "Final ranking: ", "es": "Clasificación final: "}


def played_views(game_id: str) -> list[dict[str, dict[str, Any]]]:
    """Every view of one demo game as a page following it sees them, in both languages
    at the same version: [{"en": view, "es": view}, …]."""
    args = build_parser(game_id).parse_args(["demo", "--game", game_id, "--headless"])
    game = games.game(game_id)
    seen: list[dict[str, dict[str, Any]]] = []
    stop = threading.Event()
    tables: list[Table] = []

    def look() -> None:
        table = tables[0]
        version = -1
        while True:
            views = {lang: table.view(lang) for lang in ("en", "es")}
            if views["en"]["version"] == views["es"]["version"]:
                if views["en"]["version"] != version:
                    seen.append(views)
                    version = views["en"]["version"]
                elif stop.is_set():
                    return
            table.wait(version, 0.2)

    watcher = threading.Thread(target=look)

    def follow(loop: FrameLoop) -> None:
        tables.append(loop.table)
        watcher.start()

    try:
        run_demo(game.demo(args), serve=follow, game=game)
    finally:
        stop.set()
        if watcher.is_alive():
            watcher.join()
    return seen


@pytest.fixture(scope="module", params=GAMES)
def views(request: pytest.FixtureRequest) -> list[dict[str, dict[str, Any]]]:
    return played_views(request.param)


def said_through(views: list[dict[str, dict[str, Any]]], lang: str) -> list[list[str]]:
    """The phrases of each change, from a table not heard yet to the game's end."""
    before: dict[str, Any] = {}
    said = []
    for pair in views:
        said.append(phrases(before, pair[lang], lang))
        before = pair[lang]
    return said


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def test_nothing_changed_nothing_said(views: list[dict[str, dict[str, Any]]]) -> None:
    for pair in views:
        for lang, view in pair.items():
            assert phrases(view, view, lang) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_log_line_is_said_once_oldest_first_without_its_turn_number(
    views: list[dict[str, dict[str, Any]]], lang: str
) -> None:
    said = [text for batch in said_through(views, lang) for text in batch]
    assert not [text for text in said if re.match(r"(turn|turno) \d", text, re.IGNORECASE)]
    log = [line["text"] for line in reversed(views[-1][lang]["log"])]
    assert log, "a whole game has a log"
    # Each line, in order, is said as itself or shortened: no word the line does not have
    # (but "to"/"a" for its arrows, and "corrected" for a turn said again once it changed),
    # and most of it.
    at = 0
    for line in log:
        while at < len(said) and not (
            words(said[at]) - {"to", "a", "corrected", "corregido"} <= words(line)
            and len(said[at]) >= len(line) // 2
        ):
            at += 1
        assert at < len(said), f"never said: {line!r}"
        at += 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_ranking_is_said_once_at_the_end_winner_first(
    views: list[dict[str, dict[str, Any]]], lang: str
) -> None:
    said = [text for batch in said_through(views, lang) for text in batch]
    rankings = [text for text in said if text.startswith(RANKING[lang])]
    assert len(rankings) == 1 and said[-1] == rankings[0]
    final = views[-1][lang]
    ranking = final["ranking"]
    rows = ranking["rows"] if isinstance(ranking, dict) else ranking
    assert rows[0]["place"] == 1
    names = rankings[0].removeprefix(RANKING[lang])
    assert rows[0]["name"] in names.split(",")[0]
    assert all(row["name"] in names for row in rows)


def test_whose_turn_is_said_in_each_language_for_the_same_changes(
    views: list[dict[str, dict[str, Any]]],
) -> None:
    english, spanish = said_through(views, "en"), said_through(views, "es")
    assert [len(batch) for batch in english] == [len(batch) for batch in spanish]
    names = {player["name"] for player in views[0]["en"]["players"]}
    turns = [text for batch in english for text in batch if text.endswith(TURN_WORDS["en"])]
    assert {text.removesuffix(TURN_WORDS["en"]) for text in turns} == names
    turnos = [text for batch in spanish for text in batch if text.startswith(TURN_WORDS["es"])]
    assert len(turnos) == len(turns)


def seconds(path: Path) -> float:
    with wave.open(str(path)) as sound:
        return sound.getnframes() / sound.getframerate()


@pytest.mark.parametrize(("game_id", "lang"), [("switching", "es")])
def test_a_whole_demo_game_is_written_as_one_wav_a_phrase_in_its_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game_id: str, lang: str
) -> None:
    out = tmp_path / "said"
    argv = ["demo", "--game", game_id, "--headless", "--json", "--speak-to", str(out)]
    assert cli_main([*argv, "--speak-lang", lang]) == 0
    printed = capsys.readouterr()
    assert json.loads(printed.out)["truth_matched"] is True  # the voice changed nothing
    written = list(phrases_written(out))
    assert f"speech: {len(written)} phrases written to {out}" in printed.err
    assert sorted(path.name for path in out.glob("*.wav")) == [name for name, _, _ in written]
    assert len(written) > 10 and {voice for _, voice, _ in written} == {lang}
    assert written[-1][2].startswith(RANKING[lang])
    # Each file is as long as its text: espeak-ng at 160 words a minute says a character
    # in 30 to 150 ms; the longest text makes a longer file than the shortest.
    lengths = {text: seconds(out / name) for name, _, text in written}
    for text, length in lengths.items():
        assert 0.03 * len(text) < length < 0.15 * len(text) + 0.5, (text, length)
    assert lengths[max(lengths, key=len)] > lengths[min(lengths, key=len)]
    # The file is the language's voice: the same text rendered with -v en sounds otherwise.
    name, _, text = max(written, key=lambda said: len(said[2]))
    renders = {}
    for voice in ("en", "es"):
        target = tmp_path / f"{voice}.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", "160", "-a", "100", "-w", str(target), "--stdin"],
            input=text.encode(),
            check=True,
        )
        renders[voice] = target.read_bytes()
    assert renders["en"] != renders["es"]
    assert (out / name).read_bytes() == renders[lang]
