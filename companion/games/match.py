"""The skeleton of a match, written once: a game kept journal first, and the turn at the
table followed through the camera, the buttons and the LED.

A game fills in two things and keeps only what is its own:

- its `Keeping`, pure: how its state begins from the setting it was kept with, one journal
  entry folded over it, an undo, its record, whether it is over. `Keeping.keep` and
  `Keeping.fold` do the store's side for every game the same way: a new game is kept with
  its setting as the first journal entry (a game whose record says how it is played has
  none), and a kept game is its journal folded over that, each entry checked again
  (`RecordProblem` names the entry that breaks);
- its match, a `KeptMatch` subclass: its own commands (`actions`, `buttons`) and its view
  (`game_view`). `KeptMatch` is a `companion.games.protocol.Match`: it keeps every step
  before it becomes the game's, refuses a page's stale command and takes the last step
  back. A game the camera follows builds on `FollowedMatch`, which adds the turn at the
  table: what the camera saw compared with the game (`saw`, `compare`), CONFIRM, what the
  camera cannot see, a problem buzzed once, the LED, and the turn at the table in the view
  with its words (`following_fields`, `said_words`, `to_do`).

The turn at the table is a `Following` (a game's `follow.py` compares what the camera saw
with the game, pure); `session`, its key in the view, and `[session]`, the configuration
section of its settings, are data and keep their names.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from companion.games.protocol import (
    LED_ERROR,
    LED_NEEDS_CONFIRMATION,
    LED_WAITING,
    RecordProblem,
    Refusal,
    Setting,
)
from companion.games.said import Said
from companion.store import Kept, Store

# The kinds of journal entries every game writes (`Store.append`): how the table plays the
# game (its first entry), and the last step taken back. Every other kind is the game's.
SETTING, UNDO = "setting", "undo"

S = TypeVar("S")  # the game at one instant (each game's `Snapshot`)
V = TypeVar("V")  # what the camera saw in a still view of the table
F = TypeVar("F", bound="Following[Any]")


@dataclass(frozen=True)
class Keeping(Generic[S]):
    """How a game is kept in the store, as pure functions of its state `S`."""

    game: str  # the registry's id, which the store keeps with the game
    # how the table plays it: the first entry; None for a game whose record says it all
    # (the Caboose design's journals have no such entry: old stores resume as kept)
    setting: Callable[[S], dict[str, Any]] | None
    # (the record document it was kept with, its setting): the game before any step; a
    # KeyError, TypeError or Refusal when they cannot be
    begin: Callable[[Mapping[str, Any], Mapping[str, Any]], S]
    # (state, kind, document): one journal entry of the game's own kinds folded over it; a
    # Refusal naming the rule it breaks, a KeyError for a kind it does not write
    step: Callable[[S, str, Any], S]
    undone: Callable[[S], S]  # the last step taken back, or a Refusal (nothing to take back)
    undo_doc: Any  # what an undo entry holds (the games differ: old stores resume as kept)
    turn: Callable[[S], int]  # the steps taken: what a page's command says it saw
    over: Callable[[S], bool]  # finished in the store: a restart no longer resumes it
    record: Callable[[S], Mapping[str, Any]]  # the game so far as its record document
    # (state, note): what an entry's note (a correction's, for the log) adds, if anything
    noted: Callable[[S, str], S] | None = None
    # the record document a new game is kept with, when not `record` of its opening (the
    # Caboose design's has no turns: they are its journal's entries)
    opening: Callable[[S], Mapping[str, Any]] | None = None

    def keep(self, store: Store, opening: S, steps: Iterable[tuple[str, Any]] = ()) -> int:
        """Keep a new game (which finishes the one left unfinished): the record of its
        `opening`, how the table plays it as the first journal entry, then `steps`, the
        entries that make the game it is (a record imported), in one transaction."""
        first = [] if self.setting is None else [(SETTING, self.setting(opening))]
        record = (self.record if self.opening is None else self.opening)(opening)
        return store.start(self.game, record, [*first, *steps])

    def fold(self, kept: Kept) -> S:
        """A kept game as it stands now: its journal folded over how it was set up, each
        step checked again, or `RecordProblem` naming the entry that cannot be."""
        number = kept.number
        if kept.game != self.game:
            raise RecordProblem(0, "store", f"game {number} is one of {kept.game!r}")
        entries = list(kept.journal)
        setting: Any = {}
        if self.setting is not None:
            setting = entries.pop(0).doc if entries and entries[0].kind == SETTING else None
            if not isinstance(setting, dict):
                raise RecordProblem(0, "store", f"game {number} does not say how it is played")
        try:
            state = self.begin(kept.record, setting)
        except (KeyError, TypeError, Refusal) as error:
            raise RecordProblem(0, "store", f"game {number} is set up wrongly: {error}") from None
        for entry in entries:
            try:
                if entry.kind == UNDO:
                    state = self.undone(state)
                else:
                    state = self.step(state, entry.kind, entry.doc)
                if entry.note and self.noted is not None:
                    state = self.noted(state, entry.note)
            except (KeyError, TypeError, IndexError) as error:
                raise RecordProblem(
                    self.turn(state) + 1, "store", f"game {number} holds an entry it cannot "
                    f"read: {entry.kind} {error}",
                ) from None  # fmt: skip
            except Refusal as refusal:
                raise RecordProblem(self.turn(state) + 1, refusal.rule, refusal.message) from None
        return state


@dataclass
class Following(Generic[V]):
    """The turn at a table a camera follows, as every game has it: the last still view
    (`seen`), the problem that keeps the game from going on (buzzed once), why the camera
    waits, and what it cannot see. A game adds what its own turn needs."""

    seen: V | None = None
    problem: Said | None = None
    waiting: Said | None = None
    camera: tuple[Said, ...] = ()


class KeptMatch(ABC, Generic[S]):
    """One game at the table (`companion.games.protocol.Match`), kept journal first: a
    command is checked by the game's pure steps, kept in the store, and only then the
    game's (`keep`). A subclass says which of its commands are the table's own (a button,
    an undo), and fills in `actions` and `game_view`; a game the camera follows builds on
    `FollowedMatch` instead."""

    keeping: ClassVar[Keeping[Any]]
    press_command: ClassVar[type]  # a button pressed (`.button`)
    undo_command: ClassVar[type]  # the last step taken back (`.turn`: as the page saw it)
    table_kind: ClassVar[str]  # "Yardmaster Express": what a table it takes no command of is
    steps_taken: ClassVar[str]  # "cards are added": the count a stale page is told of
    by_hand: ClassVar[str]  # where no camera follows: how the players play on the page

    def __init__(self, store: Store, number: int, snap: S, setting: Setting) -> None:
        self.store = store
        self.number = number
        self.snap = snap
        self.setting = setting

    # --- starting, loading, resuming -----------------------------------------------------

    @classmethod
    def kept(
        cls,
        store: Store,
        snap: S,
        setting: Setting,
        opening: S | None = None,
        steps: Iterable[tuple[str, Any]] = (),
    ) -> Self:
        """A new game `snap` kept in the store (`Keeping.keep`), and its match; a record
        imported is kept as its `opening` and the `steps` that make it `snap`."""
        number = cls.keeping.keep(store, snap if opening is None else opening, steps)
        return cls(store, number, snap, setting)

    @classmethod
    def resume(cls, store: Store, number: int, setting: Setting) -> Self:
        """The store's game `number`, after a restart: back on the same step."""
        return cls(store, number, cls.keeping.fold(store.kept(number)), setting)

    # --- the protocol --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.keeping.over(self.snap)

    @property
    def id(self) -> int:
        return self.number

    def handle(self, command: object) -> bool:
        """Apply one command, journaled before this returns; a `Refusal` changes nothing."""
        if isinstance(command, self.press_command):
            self._press(command.button)  # type: ignore[attr-defined]
        elif isinstance(command, self.undo_command):
            self.undo(command.turn)  # type: ignore[attr-defined]
        else:
            action = self.actions().get(type(command))
            if action is None:
                raise Refusal(
                    "request", f"a {self.table_kind} table takes no {type(command).__name__}"
                )
            action(command)
        return True

    def view(self, lang: str) -> dict[str, Any]:
        return self.game_view(lang)

    def record(self) -> Mapping[str, Any]:
        return self.keeping.record(self.snap)

    def hint(self) -> S:
        """What the camera must look for: the game as it stands."""
        return self.snap

    # --- keeping -------------------------------------------------------------------------

    def keep(self, snap: S, kind: str, doc: Any, note: str = "") -> None:
        """Keep one step (`note`: what the log says of it): in the store first, then as the
        game. The store is told with the step whether the game is over after it: the step
        that ends it finishes it (a restart no longer resumes it), and an undo of that step
        opens it again."""
        self.store.append(self.number, kind, doc, note, finished=self.keeping.over(snap))
        self.snap = snap

    def fresh(self, turn: int | None) -> None:
        """A command made on a page that saw `turn` steps (None: a button, which acts on
        the table as it stands): refused if the table has moved on since (another phone,
        the camera)."""
        now = self.keeping.turn(self.snap)
        if turn is not None and turn != now:
            raise Refusal(
                "stale", f"the table has moved on: {now} {self.steps_taken} now, the page saw "
                f"{turn}; look at the table again", conflict=True, key="stale",
                params={"turn": now},
            )  # fmt: skip

    def undo(self, turn: int | None) -> None:
        """The last step taken back (`Keeping.undone`), kept as an undo entry."""
        self.fresh(turn)
        self.keep(self.keeping.undone(self.snap), UNDO, self.keeping.undo_doc)

    # --- the buttons ---------------------------------------------------------------------

    def _press(self, button: str) -> None:
        """Hold CONFIRM: the last step taken back. A button of the game's own (`buttons`)
        does what it says; any other is the camera's to answer (`confirm_pressed`)."""
        if button == "undo":
            self.undo(None)
            return
        own = self.buttons().get(button)
        if own is not None:
            own()
            return
        self.confirm_pressed(button)

    def confirm_pressed(self, button: str) -> None:
        """CONFIRM (or another button of no use to the game) where no camera follows the
        table: the players are told how to play instead."""
        raise Refusal("session", f"no camera follows this table: {self.by_hand}", key="no_camera")

    # --- the game's hooks ----------------------------------------------------------------

    @abstractmethod
    def actions(self) -> Mapping[type, Callable[[Any], None]]:
        """The game's own commands, each with what does it (a `Refusal` changes nothing)."""

    def buttons(self) -> Mapping[str, Callable[[], None]]:
        """The buttons that are the game's own, besides CONFIRM and its hold (UNDO)."""
        return {}

    @abstractmethod
    def game_view(self, lang: str) -> dict[str, Any]:
        """The view of the game, in `lang` (for a followed game, without the turn at the
        table)."""


class FollowedMatch(KeptMatch[S], Generic[S, F]):
    """A game the camera follows (a game with `Game.camera`): besides what every match
    does, the turn at the table (`Following`, when the table has a camera): what the
    camera cannot see, what the game takes from a still view (`saw`, `compare`), CONFIRM,
    a problem buzzed once, the LED, and the `session` JSON of the view with its words."""

    seen_command: ClassVar[type]  # a frame's news (`.camera`: what it cannot see)
    to_do: ClassVar[str]  # where nothing waits for CONFIRM: what the players do

    def __init__(self, store: Store, number: int, snap: S, setting: Setting) -> None:
        super().__init__(store, number, snap, setting)
        # the turn at the table, when a camera follows it
        self.following: F | None = self.new_following() if setting.camera is not None else None

    def handle(self, command: object) -> bool:
        """Apply one command as every match does, then compare the table with the game as
        it now stands. The camera's news says whether it changed what a page shows."""
        if isinstance(command, self.seen_command):
            return self._seen(command)
        changed = super().handle(command)
        self._follow()
        return changed

    def view(self, lang: str) -> dict[str, Any]:
        return self.game_view(lang) | {"session": self._following_json(lang)}

    def undo(self, turn: int | None) -> None:
        """The last step taken back; the turn at the table learns what may still lie on
        the table (`undid`)."""
        before = self.snap
        super().undo(turn)
        if self.following is not None:
            self.undid(self.following, before)

    def confirm_pressed(self, button: str) -> None:
        """CONFIRM, at a table a camera follows, is the game's to answer (`confirm`); else
        the players are told what to do instead."""
        following = self.following
        if following is None:
            super().confirm_pressed(button)
        elif button != "confirm" or not self.confirm(following):
            raise Refusal("session", f"nothing to confirm: {self.to_do}", key="nothing_to_confirm")

    # --- the camera ----------------------------------------------------------------------

    def _seen(self, command: Any) -> bool:
        """A frame's news: what the camera cannot see, and what the game takes from the
        frame (`saw`); the still view is then compared with the game. Whether what the page
        shows changed."""
        following = self.following
        if following is None:
            raise Refusal(
                "session", "no camera follows this table: the turn at the table is not known"
            )
        before = (self._following_json("en"), self.keeping.turn(self.snap))
        following.camera = command.camera
        if self.saw(following, command):
            self._follow()
        return (self._following_json("en"), self.keeping.turn(self.snap)) != before

    def _follow(self) -> None:
        """Compare the last still view with the game as it now stands (after a frame, and
        after the page or a button changed the game): a new problem sounds the buzzer once
        (it does not nag), and the LED shows the turn."""
        following = self.following
        if following is None or following.seen is None:
            return
        problem, waiting = self.compare(following)
        fresh = problem is not None and problem != following.problem
        outputs = self.setting.outputs
        if fresh and outputs is not None:
            outputs.illegal()
        following.problem, following.waiting = problem, waiting
        if outputs is not None:
            outputs.show(self._led())

    def _led(self) -> str:
        following = self.following
        assert following is not None
        if following.problem is not None or following.camera:
            return LED_ERROR
        return LED_NEEDS_CONFIRMATION if self.confirmable(following) else LED_WAITING

    def _following_json(self, lang: str) -> dict[str, Any] | None:
        """The turn at the table, as the page shows it in `lang` (None when no camera
        follows): the game's own fields, then what the referee says, with its words."""
        following = self.following
        if following is None:
            return None
        return self.following_fields(following, lang) | {
            "problem": self._said(following.problem, lang),
            "waiting": self._said(following.waiting, lang),
            "camera": [self._said(said, lang) for said in following.camera],
        }

    def _said(self, said: Said | None, lang: str) -> dict[str, Any] | None:
        """What the referee says, in JSON, with `said`: its words in `lang`, the pieces it
        names (by their codes in `params` and the English `text`) in words."""
        if said is None:
            return None
        doc = said.as_json()
        return doc | {"said": self.said_words(doc, lang)}

    # --- the game's hooks ----------------------------------------------------------------

    @abstractmethod
    def new_following(self) -> F:
        """The turn at the table as it begins."""

    @abstractmethod
    def following_fields(self, following: F, lang: str) -> dict[str, Any]:
        """The `session` JSON's fields of the game's own (whose turn, what it waits for)."""

    @abstractmethod
    def said_words(self, doc: Mapping[str, Any], lang: str) -> str:
        """A said thing's words in `lang`, the pieces it names in words."""

    @abstractmethod
    def saw(self, following: F, command: Any) -> bool:
        """Take a frame's news besides what the camera cannot see: whether it brings a
        still view to compare with the game."""

    @abstractmethod
    def compare(self, following: F) -> tuple[Said | None, Said | None]:
        """The last still view compared with the game (which it may move on): the problem
        to fix, and why the camera waits."""

    @abstractmethod
    def confirmable(self, following: F) -> bool:
        """Something waits for CONFIRM (the LED says so)."""

    @abstractmethod
    def confirm(self, following: F) -> bool:
        """CONFIRM pressed: whether it answered something."""

    def undid(self, following: F, before: S) -> None:
        """The step taken back from `before` may still lie on the table: what the turn at
        the table must know of it."""
