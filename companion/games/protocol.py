"""The one small protocol between the shared table and a game.

The shared parts (the writer `companion.table.Table`, the store, the page's shell and routes,
the service loop, calibration, frame sources, buttons, the command line) know a game only as
a `Game`: they never import a game's package (the registry, `companion.games`, does). A game
package exposes one object that satisfies `Game`; `companion/games/__init__.py` lists it.

What flows through the seam, one way each:

- in: **commands**, plain frozen dataclasses the game defines, made from a route's JSON
  (`parse`), a button (`button`) or what the camera saw (`Watcher.see`); the table hands
  each to the game's `Match.handle` under its one lock, in arrival order;
- out: a **refusal** (`Refusal`: a rule id, an English message and a key with parameters
  for other languages), or nothing: the match has journaled what changed before it
  returns, and only then does the table wake the pages;
- out: the **view** (`Match.view`), one JSON object the game's page script draws, and the
  **camera hint** (`Match.hint`), what the camera must look for now;
- records: a record names its format (`"format": "caboose-record/1"`), and `for_record`
  finds the game that reads it.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from companion.games.printables import Printables

# The languages the page speaks, as the rulebooks are printed in them: a game's `words`
# (and its view, its refusals) say everything of its own in each.
LANGUAGES = ("en", "es")


class Refusal(ValueError):
    """A command the game (or the table) will not take: nothing was changed.

    `rule` is the ruling or check that refused it (`R-10`, `turn`, `stale`, …) and says
    which HTTP status a route answers (`conflict`: the table moved on or is not in the
    state the command needs; else the request itself was wrong). `key`/`params` let a page
    say it in its own language; `message` is the English."""

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        conflict: bool = False,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.conflict = conflict
        self.key = key
        self.params = dict(params or {})
        self.extra = extra


class Malformed(Refusal):
    """A request of the wrong shape (an unknown field, a card code that is none, a roll
    that is not a list of numbers): refused before it reaches the game (HTTP 400)."""


def advised_seat(seat: Any, seats: int) -> int:
    """The seat a question to the advisor (`Game.advise`) names, or `Malformed` (its key
    `seat`): a player's number of the game at the table."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise Malformed(
            "request",
            f"seat must be a player's number, 0 to {seats - 1}",
            key="seat",
            params={"most": seats - 1},
            fields=["seat"],
        )
    return seat


def check_held(hand: Sequence[str], box: Mapping[str, int], seen: Mapping[str, int]) -> None:
    """`Malformed` (its key `all_seen`) naming the first card of a hand typed for the advisor
    that the box (`box`: how many of each card a game has) cannot supply beside the copies in
    sight (`seen`): a hand must be one the table could have dealt."""
    typed = Counter(hand)
    for code in hand:
        if typed[code] + seen.get(code, 0) > box.get(code, 0):
            shown = seen.get(code, 0)
            raise Malformed(
                "hand",
                f"the game has {box.get(code, 0)} of card {code} and {shown} lie in sight: "
                f"the hand cannot hold {typed[code]}",
                key="all_seen",
                params={"code": code, "box": box.get(code, 0), "seen": shown, "given": typed[code]},
                fields=["hand"],
            )


class RecordProblem(ValueError):
    """A record that cannot be read or replayed: which turn (0 for the document) and rule.
    `key`/`params`, when given, say it as a kind for a page's other language, as a
    `Refusal`'s do."""

    def __init__(
        self,
        turn: int,
        rule: str,
        message: str,
        *,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"turn {turn}: {message}" if turn else message)
        self.turn = turn
        self.rule = rule
        self.message = message
        self.key = key
        self.params = dict(params or {})

    def as_json(self) -> dict[str, Any]:
        return {"error": {"turn": self.turn, "rule": self.rule, "message": self.message}}


@dataclass(frozen=True)
class Option:
    """One choice a new game of this kind offers (an edition, a variant): what the start
    form lists and `GET /api/games` returns."""

    id: str
    name: str
    players: tuple[int, int]
    variants: tuple[Option, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "players": list(self.players),
            "variants": [variant.as_json() for variant in self.variants],
        }


@dataclass(frozen=True)
class Start:
    """A new game as the start form or the command line asks for it."""

    names: tuple[str, ...]
    option: str  # an `Option.id` of the game (for the Caboose design: the edition)
    variant: str | None = None
    seed: int | str | None = None


@dataclass(frozen=True)
class Result:
    """How one game stands, as the table's history keeps it (`Game.result`): which option
    and variant it was played with, who sat where, each seat's score and who won. Scores
    are what the game counts (points; for the Caboose design, penalty points, where the
    fewest win: `fewest_win`). `over`: the game reached its end (else it was left before
    its end, abandoned, and `winners` is empty)."""

    option: str  # an `Option.id` of the game
    variant: str | None
    names: tuple[str, ...]  # by seat, as they sat at this game
    scores: tuple[int, ...]  # by seat
    winners: tuple[int, ...]  # seats; empty before the end, or when nobody won
    over: bool
    turns: int
    fewest_win: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "variant": self.variant,
            "names": list(self.names),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "over": self.over,
            "turns": self.turns,
            "fewest_win": self.fewest_win,
        }


# The status LED's states a match shows through `Setting.outputs` (hw.controls.Controls.show):
# waiting for the players, something to confirm, a problem to fix.
LED_WAITING, LED_NEEDS_CONFIRMATION, LED_ERROR = "waiting", "needs-confirmation", "error"


@dataclass(frozen=True)
class Setting:
    """How the table plays, the same for every game started on it: `provisional`, the
    deal is not known (a real table's deck is shuffled by hand: the game fixes it from
    what the table shows); `camera`, the game's settings for following the table with a
    camera (for the Caboose design: its `FollowConfig`), None when the page is the only
    input; `outputs`, what a match drives besides the page (the LED and the buzzer:
    hw.controls.Controls), if any; `catalogue`, the family's own box taught to the camera
    (`companion enroll`, the configuration's `table.catalogue`), None for ours: a game
    whose box it is plays on its pieces (a switching box's own board)."""

    provisional: bool = False
    camera: Any = None
    outputs: Any = None
    catalogue: Path | None = None


class Match(Protocol):
    """One game being played at the table, as the game package keeps it. Called only by
    the table, under its lock, so a match never needs one of its own."""

    @property
    def over(self) -> bool:
        """The game has ended (a new one may be started). Its last turn may still be
        taken back, as any turn within the game's undo limit: a family that pressed the
        wrong thing on the last turn expects to. The game then goes on, so the entry that
        takes it back tells the store it is no longer finished, in the same transaction
        (`Store.append`'s `finished`, said with every entry): a restart, even after a
        power cut, resumes the game the table shows, and only a game over is not resumed."""

    @property
    def id(self) -> int:
        """Its number in the store (a record's file name says it)."""

    def handle(self, command: object) -> bool:
        """Apply one command: journal it in the store before returning, or raise
        `Refusal` and change nothing. Whether anything a page shows changed (the table
        then wakes the pages; a camera frame that brings no news wakes nobody)."""

    def view(self, lang: str) -> dict[str, Any]:
        """Everything a page shows, in `lang` (`en`, `es`): the game's own JSON."""

    def record(self) -> Mapping[str, Any]:
        """The game so far as its record document (what `GET /api/export` sends)."""

    def hint(self) -> object:
        """What the camera must look for now (for the Caboose design: the railway as the
        game has it and where its back card was): handed to the game's watcher."""


class Watcher(Protocol):
    """The camera's side of one game: frames in, commands out."""

    def see(self, frame: Any, hint: object) -> Sequence[object]:
        """One frame (None: the same picture as before): the commands it brings, if any
        (cards laid, dice settled, what the camera could not see)."""


@dataclass(frozen=True)
class CameraSetup:
    """The camera over the table, the same whatever game is played on it: where the
    markers lie (`layout`, a companion.vision.table.TableLayout), the frames' size, an
    enrolled deck's folder (`companion enroll`; None: the game's own pictures), and when the
    table is still: `still_frames` frames agree, a card seeming to move less than `card_mm`
    and a die less than `die_mm` between them; `zone`, the marked rectangle (table mm) where
    pieces are shown rather than played. `companion run` reads it from its configuration,
    `companion demo` films its synthetic table with it."""

    layout: Any
    frame_size: tuple[int, int]
    catalogue: Path | None = None
    still_frames: int = 3
    card_mm: float = 8.0
    die_mm: float = 10.0
    zone: tuple[float, float, float, float] | None = None


def teaches_others(folder: Path, formats: Collection[str]) -> bool:
    """Whether an enrolled folder (`CameraSetup.catalogue`) teaches other games' pieces
    only: the formats of its index files (each JSON file's `format`) are all outside
    `formats`, a game's own. One folder is named for the whole table, so a family that
    taught one game's box still plays the others with their printed pieces. A folder still
    empty teaches none (it is named so that the setup page can teach a box into it: every
    game reads its printed pieces meanwhile); one whose index files cannot be read is not
    another game's, and the game says what is wrong with it."""
    indexes = list(Path(folder).glob("*.json"))
    if not indexes:
        return True
    found = set()
    for index in indexes:
        try:
            doc = json.loads(index.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # damaged: the game whose file it is says so when it reads it
        if isinstance(doc, dict) and isinstance(doc.get("format"), str):
            found.add(doc["format"])
    return bool(found) and not found & set(formats)


def preview_path(folder: Path, game_id: str) -> Path:
    """Where what a game's box was taught is drawn for the family to look at (`companion
    enroll`, the setup page): a file a game, since one folder holds every game's box."""
    return Path(folder) / f"preview-{game_id}.png"


class DemoError(RuntimeError):
    """`companion demo` could not go on: the companion stopped following the table, or
    the demo's options deal no game; the message says which."""


class Demo(Protocol):
    """One game of `companion demo` as the game's scripted players play it on the
    synthetic table. They know its truth (the deal, what they chose, the dice they threw);
    the companion knows only what the camera saw. The shared driver
    (companion/app/demo.py) keeps the store, the table, the page, the buttons on mock pins
    and the camera's frame loop, and lends them to the players as `hands`."""

    seed: str  # the same seed, the same game: the camera's noise is seeded from it too
    # the [session] keys (`Game.camera.follow`) its table is followed with, as a configuration
    # gives them (the Caboose demo's pip dice: their face map)
    follows: Mapping[str, Any]

    def refusal(self, store: Any) -> str | None:
        """Why the game kept in `store` (companion.store.Store) is not this demo's game
        (another option, other players, another seed), or None; asked before anything is
        played, with `--store`."""

    def finished(self, store: Any, number: int) -> tuple[dict[str, Any], Mapping[str, Any]]:
        """A finished game of the store played again on the same store: its result, as
        `play` returns it, and its record, without playing."""

    def sit(self, table: Any, setup: CameraSetup) -> Watcher:
        """Deal the game on `table` (companion.table.Table), or go on with the one it holds:
        the watcher that follows it through a camera set up as `setup` says."""

    def play(self, hands: Any) -> dict[str, Any]:
        """Play to the end through `hands` (show the camera a scene, press a button, say a
        turn was accepted): the final state as `companion replay --json` prints it, plus
        how the camera did and whether the companion's game is the true one."""

    def answer(self) -> None:
        """After each frame: what the companion asks (an unsure card), answered with the
        truth, as the players at a table would."""


class Enrolment(Protocol):
    """A game's pieces (a deck, its dice, its tokens) being taught to the camera by
    `companion enroll`, one face at a time."""

    faces: Sequence[str]  # the faces to show, in this order

    def prompt(self, face: str) -> str:
        """What the player lays on the table to show `face` ("lay card 3/s alone …")."""

    def learn(self, face: str, frame: Any) -> tuple[Any, str | None]:
        """The picture of `face` lying alone on the table in `frame`, or why not."""

    def preview(self, faces: Sequence[str], pictures: Sequence[Any]) -> Any:
        """A contact sheet of the faces learnt so far (an image OpenCV writes)."""

    def save(self, pictures: Sequence[Any], folder: Path) -> None:
        """Write the faces learnt (one picture per face) where `CameraSetup.catalogue`
        finds them."""


@dataclass(frozen=True)
class Camera:
    """A game's camera side, one optional tool (`Game.camera`): a game that has none is
    refereed from the page alone.

    - `watcher`: (camera, the option whose pieces to look for until a game says) ->
      `companion run`'s camera side of the game, then looking for what each `Match.hint`
      says; ValueError if the enrolled deck (`CameraSetup.catalogue`) cannot be read;
    - `follow`: the configuration's [session] keys, plain values -> `Setting.camera` for
      `run` and `demo`;
    - `scene`: (seed) -> a table of this game in mid-play (a companion.synthetic.Scene),
      what the synthetic camera `synthetic:SEED` shows where there is no real one;
    - `area`: (camera, option) -> where the pieces lie that the camera must see, for
      `companion check` (a companion.vision.setup_check.PlayArea: a board's own
      markers and its rectangle). None: the table's own markers and play area;
    - `draw`: the frame with what the watcher read drawn on it, for the PIN
      holder's phone (`GET /api/camera.jpg`); its watcher then keeps `reading`."""

    watcher: Callable[[CameraSetup, str], Watcher]
    follow: Callable[[Mapping[str, Any]], Any]
    scene: Callable[[int], Any]
    area: Callable[[CameraSetup, str], Any] | None = None
    # (frame, reading, view, lang) -> a copy of the frame with what the game read drawn on it
    # (`GET /api/camera.jpg`): `reading` is its watcher's `reading` taken with that frame
    # (what it read of it, the game's own value; never None: a frame not read is shown as
    # it is), `view` the match's view in `lang` (the question the page asks about an
    # unsure piece is written beside it). None: the frame is shown as the camera gives it
    draw: Callable[[Any, Any, Mapping[str, Any], str], Any] | None = None


class BoardProblem(ValueError):
    """A board the family marked on the setup page that cannot be played or taught: `key`
    names the page's words for it (web/words.py's TEACH_BOARD), `marks` the spaces and
    tracks where it is, for the page to highlight; the message is the detail, in English,
    and `why` that detail as the page says it (its words' key and their parameters, a colour
    by its name in the game's words), None when the key says it all."""

    def __init__(
        self,
        message: str,
        key: str,
        marks: Sequence[str] = (),
        why: tuple[str, Mapping[str, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.key = key
        self.marks = tuple(marks)
        self.why = why


class BoardLesson(Protocol):
    """A game whose own box's board is taught from the setup page (web/board_teach.py), as
    `companion enroll` teaches it: `look` cuts the board of `size` mm out of a frame with
    the table's `layout` and proposes its board file (the picture, BGR; the file's JSON;
    whether the proposal was fitted to what is seen), None when the board is not seen;
    `save` checks the board file as the family corrected it, teaches the box with it from
    the same frame and writes the box's folder (BoardProblem says what is wrong; OSError
    when the folder cannot be written). A box with a die of its own to teach (web/
    die_teach.py) names its faces in `die_faces` (the game's colours; () when none):
    `learn_die` reads one face, lying alone beside the board taught into `folder`, told
    apart from the faces `learnt` before (what it learnt, and the die's picture, BGR);
    `save_dice` adds the faces learnt to the box in `folder` (BoardProblem; OSError)."""

    die_faces: tuple[str, ...]

    def look(
        self, frame: Any, size: tuple[float, float], layout: Any
    ) -> tuple[Any, dict[str, Any], bool] | None: ...

    def save(self, frame: Any, doc: Any, layout: Any, folder: Path) -> None: ...

    def learn_die(
        self, frame: Any, face: str, learnt: Mapping[str, Any], layout: Any, folder: Path
    ) -> tuple[Any, Any]: ...

    def save_dice(self, learnt: Mapping[str, Any], folder: Path) -> None: ...


class PipLesson(Protocol):
    """A game whose camera reads the family's own pip dice, taught from the setup page
    (web/pips_teach.py) as `companion enroll --codes pips` teaches them: `learn` cuts the
    one die lying alone among the table's `layout` markers out of a frame (its picture, or
    a `Said` saying why not: no die, more than one, the markers unseen); `save` writes the
    faces learnt (pips -> picture) into the folder (OSError when it cannot)."""

    def learn(self, frame: Any, layout: Any) -> tuple[Any, Any]: ...

    def save(self, learnt: Mapping[int, Any], folder: Path) -> None: ...


@runtime_checkable
class PipThrows(Protocol):
    """The family's own pip dice taught from throws (`companion enroll --codes pips
    --thrown`), what a game's `enroll` gives instead of an `Enrolment`: `look` finds the
    pip dice thrown anywhere in a frame (each with its `picture`, `where` it lies in words
    and the `pips` the reader is sure of, None when it must ask), or says why none; `take`
    teaches a die's picture as a face (`answered`: the family said it), whether it did;
    `missing` the faces 1-6 not taught yet; `preview` an image of those taught; `save`
    writes them into the folder."""

    def look(self, frame: Any) -> tuple[list[Any], str | None]: ...

    def take(self, pips: int, picture: Any, answered: bool) -> bool: ...

    def missing(self) -> list[int]: ...

    def preview(self) -> Any: ...

    def save(self, folder: Path) -> None: ...


@dataclass(frozen=True)
class Sight:
    """The latest camera frame as the frame loop keeps it for the page to look at: the frame
    itself (a reference: never written to), what the game's watcher read of it (its
    `reading`, None when the game draws nothing), the game it was read for, and its number
    in the loop (a new number, a new picture: what an encoding is kept by)."""

    frame: Any
    reading: Any
    game: str
    number: int


@dataclass(frozen=True)
class Game:
    """A game the table can referee: a required core, which every game fills in, and
    optional tools, each None when the game does not offer it (the command line, the page
    and the API then do not either: `companion.games.not_offered` says so in one line).
    The start form is the same for every game (`companion.games.requests.start`, up to
    `most_players` names).

    Plain functions rather than methods, so a game package fills it in from its own
    modules without a class hierarchy. The smallest game (tests/fixtures/dice_race/) has
    the core alone."""

    id: str  # "caboose": its name in URLs, the store and `--game`
    name: str  # what the start form shows
    options: Sequence[Option]  # the editions and variants a new game may choose
    words: Callable[[str], Mapping[str, str]]  # the page's words in a language
    # the folder of its page, served at /games/<id>/: `<id>.js` (draws a view, as
    # web/static/shell.js's top comment says), `<id>.css`, and `table.html`, its markup
    page: Traversable
    # --- playing at the table (the writer, `companion.table.Table`, calls these under its
    # lock; each returns the match, its game already kept in the store)
    start: Callable[[Any, Start, Setting], Match]  # (store, start, setting): a new game
    load: Callable[[Any, Mapping[str, Any], Setting], Match]  # a record continued
    # (store, its number in the store, …): the store's game in progress of this game,
    # after a restart (`Store.kept` gives its record and journal: folding them is the game's)
    resume: Callable[[Any, int, Setting], Match]
    parse: Callable[[str, Mapping[str, Any]], object]  # (route, JSON): a page's command
    button: Callable[[str], object]  # a button's name (hw.controls): its command
    # --- records: (doc, json) -> what `companion replay` prints; a bad record raises
    # RecordProblem; (doc, turn, lang) -> a record's frame watched on the page
    replay: Callable[[Mapping[str, Any], bool], str]
    watch: Callable[[Mapping[str, Any], int, str], dict[str, Any]]
    # (record document, as `Match.record` gives it) -> how the game stands: its history
    # entry, kept when the game ends or is left (pure: the record alone decides it)
    result: Callable[[Mapping[str, Any]], Result]

    # --- optional -------------------------------------------------------------------------
    # (the table's setting) -> the options a table adds of its own to `options` (a
    # switching box taught there: its board); None: `options` alone, at every table
    own_options: Callable[[Setting], Sequence[Option]] | None = None
    # "caboose-record/1": the `format` its records carry; "" means f"{id}-record/1"
    record_format: str = ""
    # the match before any game: it refuses the game's commands. None: the shared lobby
    # (companion/games/lobby.py); the Caboose design's shows what the camera cannot see
    # while the table is set up
    idle: Callable[[Setting], Match] | None = None
    camera: Camera | None = None  # following the table with a camera (`companion run`, demo)
    # (table, turns, seed): a game in progress to look at (`companion serve --demo`),
    # played through the table as the page would
    sample: Callable[[Any, int, str], None] | None = None
    simulate: Callable[[argparse.Namespace], int] | None = None  # `companion simulate`
    # the game's own options of `companion simulate`, `demo` and `enroll` (command, parser);
    # None: it has none of its own
    add_arguments: Callable[[str, argparse.ArgumentParser], None] | None = None
    demo: Callable[[argparse.Namespace], Demo] | None = None  # `companion demo`'s options: its game
    # `companion enroll`'s parsed options (add_arguments("enroll")): the faces to learn;
    # ValueError says why a face asked for is none of the game's
    enroll: Callable[[argparse.Namespace], Enrolment] | None = None
    teach_board: BoardLesson | None = None  # its own board taught on the setup page
    teach_pips: PipLesson | None = None  # the family's own pip dice taught on the setup page
    eval_vision: Callable[[list[str]], int] | None = None  # `companion eval-vision ARGS`
    printables: Printables | None = None  # `companion print GAME`: its pieces at true size
    # --- the private advisor (`POST /api/advise`): (match, seat, hand, lang) -> what each
    # move would do for the hand that seat says it holds, on the table as it stands; it
    # changes nothing and keeps nothing (the hand is forgotten), and refuses a hand that
    # cannot be held (`Malformed`, naming the card). None: a game with no hidden hand
    # (its page already shows every move)
    advise: Callable[[Match, Any, Any, str], dict[str, Any]] | None = None
    # --- a refusal as a person reads it: (match, its key, its parameters, its English
    # message, lang) -> the sentence in `lang`, the cards and spaces its parameters name by
    # their codes said in words (the API keeps the key, parameters and message as they are).
    # None: the page says it from `refusal_<key>` and the parameters as they are
    refusal_words: Callable[[Match, str, Mapping[str, Any], str, str], str] | None = None
    # --- a hidden hand (`GET /api/hand`, behind the PIN; `GET /api/seat/hand`, the seat's
    # phone): (match, lang, seat) -> the hand of `seat` (None: the player to move) and what
    # each move would do with it, for that player's phone alone, never in the view (which
    # every page and the screen beside the table read); None when the companion holds no
    # hand of that seat to show now (a real table's deal, a seat the companion plays, no
    # game, the game over). None: a game with no hidden hand
    hand: Callable[[Match, str, int | None], dict[str, Any] | None] | None = None

    def __post_init__(self) -> None:
        if not self.record_format:  # a frozen dataclass sets its own derived field so
            object.__setattr__(self, "record_format", f"{self.id}-record/1")

    def most_players(self) -> int:
        """The most players any of its options seats: the start form's limit of names (the
        rules may ask for more than one: a game refuses too few itself)."""
        return max(o.players[1] for option in self.options for o in (option, *option.variants))
