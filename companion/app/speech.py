"""What the table says aloud, taken from its views: game-free.

Every game's view already says what happened in the page's language: its log (newest
first, each line's "text"), its session (what the camera asks or sees wrong), whose turn
it is and, once over, its ranking. `phrases(before, after)` compares two views of one table
and returns what to say about the change, oldest first; it shortens (a log line's
"turn 7:" is dropped, an arrow read as a word) and adds no game logic of its own. The
`Follower` is the thread that watches a table (`Table.wait`, like the page's event stream)
and hands each change's phrases to a speaker (hw.speaker.Speaker).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from companion.table import Table
from hw.speaker import Speaker

# A view's session says these, when a move breaks a rule or the camera asks the players
# (each game has some of them): said when new. What the camera merely waits for (a hand
# over the table, a caboose not moved yet) is left to the page: at a table it happens
# every turn, and a voice repeating it would be noise.
SESSION_KEYS = ("problem", "question")

WORDS = {
    "en": {
        "turn": "{name}'s turn",
        "ranking": "Final ranking: {places}.",
        "and": " and ",
        "ordinals": ("first", "second", "third", "fourth", "fifth", "sixth"),
        "to": " to ",
        "corrected": "Corrected: {text}",
    },
    "es": {
        "turn": "Le toca a {name}",
        "ranking": "Clasificación final: {places}.",
        "and": " y ",
        "ordinals": ("primero", "segundo", "tercero", "cuarto", "quinto", "sexto"),
        "to": " a ",
        "corrected": "Corregido: {text}",
    },
}

# A log line's turn number, as the games print it ("turn 7:", "turn 7 ", "turno 7:").
_TURN = re.compile(r"^\s*(turn|turno)\s+\d+\s*:?\s*", re.IGNORECASE)
# A ruling's id in brackets ("(S-6)"): for the page to look up, not for the ear.
_RULING = re.compile(r"\s*\([A-Z]{1,2}-\d+\)")
_ARROW = re.compile(r"\s*->\s*")
_DIGITS = re.compile(r"\d+")


def phrases(before: Mapping[str, Any], after: Mapping[str, Any], lang: str = "en") -> list[str]:
    """What to say about the table going from view `before` to view `after` (both in
    `lang`; `before` may be `{}`: a table not heard yet), oldest first: each new log line
    (a turn already said whose line changed, as a correction), each new problem or
    question of the session, whose turn it is when that changed, and the ranking once
    the game is over and ranked."""
    words = WORDS.get(lang, WORDS["en"])
    told = {line.get("turn") for line in before.get("log") or () if not line.get("correction")}
    said = []
    for line in reversed(_new_log(before, after)):
        text = _spoken(line["text"], words)
        if not line.get("correction") and line.get("turn") in told:
            text = words["corrected"].format(text=text)  # a turn said before, now changed
        said.append(text)
    said += _session(before, after)
    over = bool(after.get("over"))
    mover = _mover(after)
    if not over and mover is not None and mover != _mover(before):
        said.append(words["turn"].format(name=mover))
    ranking = _ranking(after.get("ranking"), words) if over else ""
    if ranking and ranking != _ranking(before.get("ranking"), words):
        said.append(ranking)  # a game may rank its players a move after it ends
    return [text for text in said if text]


def _new_log(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The log lines of `after` that `before` did not show (newest first, as the log)."""
    old = {_key(line) for line in before.get("log") or ()}
    return [line for line in after.get("log") or () if _key(line) not in old]


def _key(line: Mapping[str, Any]) -> tuple[Any, str]:
    return line.get("turn"), str(line.get("text", ""))


def _spoken(text: str, words: Mapping[str, Any]) -> str:
    text = _TURN.sub("", text)
    text = _RULING.sub("", text)
    return _ARROW.sub(words["to"], text).strip()


def _texts(value: Any) -> list[str]:
    """The sentences of a session's entry: a string, an object with its words in the
    view's language ("said": the cards and spaces it names in words; else its "text", a
    question its "prompt"), or a list of these."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        text = value.get("said") or value.get("text", value.get("prompt"))
        return [text] if isinstance(text, str) else []
    if isinstance(value, list | tuple):
        return [text for item in value for text in _texts(item)]
    return []


def _session(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The session's remarks in `after` not already made in `before`. A remark that only
    changed its numbers ("a hand covers 5% of the table", then 6%) is the same remark:
    said once while it lasts."""
    old_session = before.get("session") or {}
    new_session = after.get("session") or {}
    said: list[str] = []
    for key in SESSION_KEYS:
        old = {_DIGITS.sub("#", text) for text in _texts(old_session.get(key))}
        for text in _texts(new_session.get(key)):
            spoken = _RULING.sub("", text).strip()
            if _DIGITS.sub("#", text) not in old and spoken not in said:
                said.append(spoken)
    return said


def _mover(view: Mapping[str, Any]) -> str | None:
    """The name of the player to move: the session's "mover" where a game says it, else
    the player at the view's "to_move" seat (or the one marked "to_move")."""
    if view.get("over") or not view:
        return None
    session = view.get("session") or {}
    if isinstance(session.get("mover"), str):
        return session["mover"]
    players = view.get("players") or []
    seat = view.get("to_move")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return players[seat].get("name")
    for player in players:
        if player.get("to_move") is True:
            return player.get("name")
    return None


def _ranking(ranking: Any, words: Mapping[str, Any]) -> str:
    """The ranking said by place: "first Ana, second Cleo and Ben, …" (a shared place
    named once)."""
    rows = ranking.get("rows") if isinstance(ranking, Mapping) else ranking
    if not isinstance(rows, list):
        return ""
    places: dict[int, list[str]] = {}
    for row in rows:
        if isinstance(row, Mapping) and isinstance(row.get("place"), int):
            places.setdefault(row["place"], []).append(str(row.get("name", "")))
    ordinals = words["ordinals"]
    said = [
        f"{ordinals[place - 1] if 0 < place <= len(ordinals) else place} {words['and'].join(names)}"
        for place, names in sorted(places.items())
    ]
    return words["ranking"].format(places=", ".join(said)) if said else ""


class Voice(Protocol):
    """What the follower speaks through (hw.speaker.Speaker)."""

    def say(self, *texts: str) -> None: ...


class Follower:
    """A thread that follows a table and says each change through a voice."""

    def __init__(
        self,
        table: Table,
        voice: Voice,
        lang: str = "en",
        *,
        heard: Mapping[str, Any] | None = None,
        poll: float = 1.0,
        told: Callable[[list[str]], None] | None = None,
    ) -> None:
        """`heard` is the view already known (None: the table as it is now, so a resumed
        game is not told again; `{}`: everything on it is news, as for a demo's new
        game). `told` sees each batch said (the demo counts them)."""
        self.table = table
        self.voice = voice
        self.lang = lang
        self.poll = poll
        self._told = told
        self._before: Mapping[str, Any] = table.view(lang) if heard is None else heard
        self._version = self._before.get("version", -1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="speech", daemon=True)

    def start(self) -> Follower:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop following, having said the table's last change (a game's end included)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._catch_up()

    def _follow(self) -> None:
        while not self._stop.is_set():
            if self.table.wait(self._version, self.poll) != self._version:
                self._catch_up()

    def _catch_up(self) -> None:
        after = self.table.view(self.lang)
        if after.get("version") == self._version:
            return
        said = phrases(self._before, after, self.lang)
        self._before, self._version = after, after.get("version", -1)
        if said:
            self.voice.say(*said)
            if self._told is not None:
                self._told(said)


class TableVoice:
    """A speaker following whichever table it is given (the demo's, the service's): the
    one object `companion demo --speak` and `companion run` start and close."""

    def __init__(self, speaker: Speaker, lang: str, *, news: bool = False) -> None:
        """`news`: everything on the table when it is followed is said (a demo's new
        game); otherwise only what changes after (a resumed game is not told again)."""
        self.speaker = speaker
        self.lang = lang
        self.news = news
        self.said = 0  # phrases handed to the speaker
        self._follower: Follower | None = None

    def follow(self, table: Table) -> None:
        """Start saying what happens at `table`."""
        self._follower = Follower(
            table, self.speaker, self.lang, heard={} if self.news else None, told=self._count
        ).start()

    def close(self, drain: float = 0.0) -> None:
        """Stop following (the last change said), give the speaker up to `drain` seconds
        to finish what waits (the demo's files), then close it."""
        if self._follower is not None:
            self._follower.stop()
        if drain > 0:
            self.speaker.wait_idle(drain)
        self.speaker.close()

    def _count(self, said: list[str]) -> None:
        self.said += len(said)
