"""A game of Yardmaster Express being played at the table: the one object the shared writer
(`companion.table.Table`) drives for it (`companion.games.protocol.Match`).

The match keeps the game as the store does: the record it started from and a journal of
cards added and taken back. Every command is checked against the rules before anything is
journaled (a refusal changes nothing), and the game at any instant is a `Snapshot`
(snapshot.py), which the view draws. The strategic variant's second game (Y-11) is a new
game in the store, its record carrying the first game's points.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games.lobby import Lobby
from companion.games.protocol import (
    LED_ERROR,
    LED_NEEDS_CONFIRMATION,
    LED_WAITING,
    RecordProblem,
    Refusal,
    Setting,
    Start,
)
from companion.games.said import Said
from companion.games.yardmaster import cards, rules, view
from companion.games.yardmaster.commands import AddCard, NextGame, Press, Seen, Undo
from companion.games.yardmaster.edition import EDITIONS, Edition
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.follow import Point, TrainSeen, compare
from companion.games.yardmaster.record import (
    GAME_ID,
    STRATEGIC_SECOND,
    from_json,
    replay,
    to_add,
    turn_json,
)
from companion.games.yardmaster.rules import Add, RuleError, Yard
from companion.games.yardmaster.snapshot import STRATEGIC, Snapshot, provisional_start
from companion.store import Kept, Store

# The kinds of the journal's entries (`Store.append`): how the table plays this game (its
# edition, variant, whether the deal is a real table's), a card added, the last one taken
# back.
SETTING, ADD, UNDO = "setting", "add", "undo"

# The start form's variants (`Option.id`s): (a caboose card in play, the strategic variant).
VARIANTS: dict[str | None, tuple[bool, bool]] = {
    None: (False, False),
    "caboose": (True, False),
    "strategic": (False, True),
    "strategic-caboose": (True, True),
}


@dataclass
class Following:
    """The turn at a table a camera follows: which train is whose (`owners`, by seat), the
    last still view of the trains, what disagrees with the game or keeps the camera from
    telling, what it cannot see, the card it took last and whether CONFIRM has
    acknowledged it, and a card taken back in the game that still lies on the table."""

    owners: tuple[Point | None, ...]
    seen: tuple[TrainSeen, ...] | None = None
    problem: Said | None = None
    waiting: Said | None = None
    camera: tuple[Said, ...] = ()
    last: tuple[str, str] | None = None  # (player, card as it lies)
    acknowledged: bool = True
    taken_back: tuple[int, str] | None = None  # (seat, card as it lay)


class Match:
    """One game of Yardmaster Express at the table."""

    def __init__(self, store: Store, number: int, snap: Snapshot, setting: Setting) -> None:
        self.store = store
        self.number = number
        self.snap = snap
        self.setting = setting
        self.following: Following | None = None  # the turn at the table, when a camera follows
        if setting.camera is not None:
            self.following = Following((None,) * len(snap.start.players))

    # --- the protocol --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return _over(self.snap)

    @property
    def id(self) -> int:
        return self.number

    def handle(self, command: object) -> bool:
        """Apply one command, journaled before this returns; a `Refusal` changes nothing."""
        if isinstance(command, AddCard):
            self._add(command)
        elif isinstance(command, Undo):
            self._undo(command.turn)
        elif isinstance(command, NextGame):
            self._next()
        elif isinstance(command, Press):
            self._press(command.button)
        elif isinstance(command, Seen):
            return self._seen(command)
        else:
            raise Refusal(
                "request", f"a Yardmaster Express table takes no {type(command).__name__}"
            )
        self._follow()
        return True

    def view(self, lang: str) -> dict[str, Any]:
        return view.build(self.snap, lang) | {"session": self._session(lang)}

    def record(self) -> Mapping[str, Any]:
        return self.snap.record()

    def hand(self, lang: str) -> dict[str, Any] | None:
        """The mover's hidden hand with its ways (`view.hand`), for their phone alone."""
        return view.hand(self.snap, lang)

    def hint(self) -> Snapshot:
        """What the camera must look for: the trains as the game has them."""
        return self.snap

    # --- the commands --------------------------------------------------------------------

    def _add(self, command: AddCard) -> None:
        self._fresh(command.turn)
        yard = self.snap.yard
        if yard.to_move is not None and command.seat != yard.to_move:
            mover = yard.players[yard.to_move]
            raise Refusal(
                "Y-6", f"it is {mover}'s turn: only the player holding the hand adds a card",
                key="not_your_turn", params={"name": mover},
            )  # fmt: skip
        if command.card is None and not self.snap.provisional:
            raise Refusal(
                "Y-6", "name the card added: the companion dealt this game and knows the hand",
                key="name_the_card",
            )  # fmt: skip
        if self.snap.provisional and command.face_down:
            seen = None  # nobody sees it: whatever was named is not kept
        else:
            assert command.card is not None
            seen = Add(command.card, command.turned, command.face_down)
        self._keep_added(added(self.snap, seen), seen)

    def _keep_added(self, snap: Snapshot, seen: Add | None) -> None:
        """Journal a card added, then make it the game's. The card that ends the game
        finishes it in the store (a restart no longer resumes it); the strategic variant's
        first game stays open until its second is dealt."""
        self.store.append(self.number, ADD, _turn_doc(seen), finished=_over(snap))
        self.snap = snap

    def _undo(self, turn: int | None) -> None:
        if turn is not None:
            self._fresh(turn)
        snap = undone(self.snap)
        self.store.append(self.number, UNDO, finished=_over(snap))  # the last card: open again
        seat = snap.yard.to_move
        if self.following is not None and seat is not None:
            # the card still lies on the table: the camera must not take it again
            self.following.taken_back = (seat, self.snap.yard.trains[seat][-1])
            self.following.acknowledged = True
        self.snap = snap

    def _next(self) -> None:
        """The strategic variant's second game (Y-11), kept in the store as a new game whose
        record carries the first game's points."""
        if not self.snap.second_game_due:
            raise Refusal(
                "Y-11", "the second game is dealt once the strategic variant's first has ended",
                key="no_second_game", conflict=True,
            )  # fmt: skip
        first = self.snap
        if first.provisional:
            scores = rules.score(first.yard)
            order = rules.second_game_order(first.yard.players, [s.score for s in scores])
            points = {s.name: s.score for s in scores}
            carried = [points[name] for name in order]
            start, _ = provisional_start(first.edition, order, [], first.start.caboose, carried)
        else:
            start = rules.deal_second(first.edition, first.yard, f"{self.number}:second")
        snap = Snapshot(
            first.edition, start, variant=STRATEGIC_SECOND, provisional=first.provisional
        )
        self.number = _keep(self.store, snap)
        self.snap = snap
        if self.following is not None:  # new seats in a new order: whose train is learnt anew
            self.following = Following((None,) * len(start.players))

    def _press(self, button: str) -> None:
        """Hold CONFIRM: the last card taken back. CONFIRM: the card the camera took is
        acknowledged. PASS: nobody passes in this game."""
        if button == "undo":
            self._undo(None)
            return
        following = self.following
        if following is None:
            raise Refusal(
                "session", "no camera follows this table: add each card on the page",
                key="no_camera",
            )  # fmt: skip
        if button == "confirm" and not following.acknowledged:
            following.acknowledged = True
            return
        raise Refusal(
            "session", "nothing to confirm: add your card to your train; hold CONFIRM to "
            "take the last card back", key="nothing_to_confirm",
        )  # fmt: skip

    # --- the camera ----------------------------------------------------------------------

    def _seen(self, command: Seen) -> bool:
        """A frame's news: what the camera cannot see, and a still view of the trains,
        which is compared with the game (a card the player to move added is taken, checked
        by the rules; anything else that disagrees is a problem, buzzed once, and nothing
        counts until it is fixed). Whether what the page shows changed."""
        following = self.following
        if following is None:
            raise Refusal(
                "session", "no camera follows this table: the turn at the table is not known"
            )
        before = self._session("en")
        following.camera = command.camera
        if command.trains is not None:
            following.seen = command.trains
            self._follow()
        return self._session("en") != before

    def _follow(self) -> None:
        """Compare the last still view with the game as it now stands (after a frame, and
        after the page or a button changed the game): take the mover's new card, or say
        what is wrong."""
        following = self.following
        if following is None or following.seen is None:
            return
        yard = self.snap.yard
        reading = compare(yard.players, yard.trains, yard.to_move, following.seen, following.owners)
        following.owners = reading.owners
        problem, waiting = reading.problem, reading.waiting
        if reading.added is not None and problem is None and waiting is None:
            seat = yard.to_move
            assert seat is not None
            if following.taken_back == (seat, reading.added):
                name = yard.players[seat]
                waiting = Said(
                    "take_back", f"{reading.added} was taken back: take it off {name}'s train",
                    (("name", name), ("card", reading.added)),
                )  # fmt: skip
            else:
                problem = self._take(seat, reading.added)
        elif reading.added is None and problem is None:
            following.taken_back = None  # the table agrees with the game again
        fresh = problem is not None and problem != following.problem
        if fresh and self.setting.outputs is not None:
            self.setting.outputs.illegal()  # once a problem: the buzzer does not nag
        following.problem, following.waiting = problem, waiting
        if self.setting.outputs is not None:
            self.setting.outputs.show(self._led())

    def _take(self, seat: int, laid: str) -> Said | None:
        """The card the mover was seen adding, as it lies: added to the game and journaled,
        or the refusal said as the problem to fix."""
        assert self.following is not None
        seen = _as_added(laid, self.snap.edition.deck_for(len(self.snap.start.players)))
        try:
            snap = added(self.snap, seen)
        except Refusal as refusal:
            params = tuple(refusal.params.items())
            return Said(refusal.key or refusal.rule, refusal.message, params)
        self._keep_added(snap, seen)
        self.following.last = (self.snap.start.players[seat], laid)
        self.following.acknowledged = False
        self.following.taken_back = None
        return None

    def _led(self) -> str:
        following = self.following
        assert following is not None
        if following.problem is not None or following.camera:
            return LED_ERROR
        return LED_WAITING if following.acknowledged else LED_NEEDS_CONFIRMATION

    def _session(self, lang: str) -> dict[str, Any] | None:
        """The turn at the table, as the page shows it in `lang` (None when no camera
        follows): the cards and trains the referee names said in words (`said_json`)."""
        following = self.following
        if following is None:
            return None
        yard = self.snap.yard
        return {
            "mover": None if yard.to_move is None else yard.players[yard.to_move],
            "round": yard.round,
            "rounds": yard.rounds,
            "awaiting": "card" if following.acknowledged else "confirm",
            "last": None
            if following.last is None
            else {
                "name": following.last[0],
                "card": following.last[1],
                "said": view.laid_words(self.snap.edition, following.last[1], lang),
            },
            "problem": self._said(following.problem, lang),
            "waiting": self._said(following.waiting, lang),
            "camera": [self._said(said, lang) for said in following.camera],
        }

    def _said(self, said: Said | None, lang: str) -> dict[str, Any] | None:
        """What the referee says, in JSON, with `said`: its words in `lang`, the cards and
        trains it names (written as codes in `params` and the English `text`) in words."""
        if said is None:
            return None
        doc = said.as_json()
        return doc | {"said": view.said_words(self.snap.edition, doc, lang)}

    def _fresh(self, turn: int) -> None:
        """A command made on a page that saw `turn` cards added: refused if the table has
        moved on since (another phone, the camera)."""
        now = len(self.snap.adds)
        if turn != now:
            raise Refusal(
                "stale", f"the table has moved on: {now} cards are added now, the page saw "
                f"{turn}; look at the table again", conflict=True, key="stale",
                params={"turn": now},
            )  # fmt: skip


def _over(snap: Snapshot) -> bool:
    """Over once its last card is added; the strategic variant's first game is not (its
    second game is still to be played)."""
    return snap.yard.over and snap.variant != STRATEGIC


def added(snap: Snapshot, seen: Add | None) -> Snapshot:
    """The game with one more card added by the player to move (None: at a real table, a
    card added face down, which nobody sees), or a `Refusal` saying which rule it breaks.
    A real table's deal is made again around the cards seen (`provisional_start`)."""
    if not snap.provisional:
        assert seen is not None
        _check(snap.yard, seen)
        return replace(snap, adds=(*snap.adds, seen))
    laid = _laid(snap)
    if seen is not None and seen.card in {a.card for a in laid if a is not None}:
        raise Refusal(
            "Y-1", f"{seen.card} is already in a train: each card is in the deck once; look "
            "at the card again", key="card_twice", params={"card": seen.card},
        )  # fmt: skip
    after = _provisional(snap, [*laid, seen])
    try:
        after.yard  # noqa: B018 - the replay checks the new card: the end, Y-5
    except RuleError as error:
        raise _refusal(error, snap.yard, after.adds[-1]) from None
    return after


def undone(snap: Snapshot) -> Snapshot:
    """The game with its last card taken back (the log keeps it as a correction)."""
    if not snap.adds:
        raise Refusal("undo", "no card has been added yet: nothing to take back",
                      key="nothing_to_undo")  # fmt: skip
    taken = (*snap.undone, (len(snap.adds), snap.adds[-1]))
    if snap.provisional:
        return replace(_provisional(snap, _laid(snap)[:-1]), undone=taken)
    return replace(snap, adds=snap.adds[:-1], undone=taken)


def _as_added(laid: str, deck: Sequence[str]) -> Add | None:
    """A card seen lying in a train as an addition: face down (None: nobody sees which
    card), as printed, or turned end for end when only its other way round is a card of
    the deck (a card not in the deck at all is taken as printed: Y-13)."""
    if laid == cards.FACE_DOWN:
        return None
    if laid not in deck and cards.turned(laid) in deck:
        return Add(cards.turned(laid), turned=True)
    return Add(laid)


def _laid(snap: Snapshot) -> list[Add | None]:
    """A real table's additions as seen: a card added face down is None (its card in the
    snapshot is only the one the provisional deal gave it)."""
    return [None if a.face_down else a for a in snap.adds]


def _turn_doc(seen: Add | None) -> dict[str, Any]:
    """A journal entry of an addition: at a real table, a face-down card is `{"add": "W"}`."""
    return {"add": cards.FACE_DOWN} if seen is None else turn_json(seen)


def _provisional(snap: Snapshot, laid: Sequence[Add | None]) -> Snapshot:
    """A real table's game with the additions `laid` (as seen), dealt again around them."""
    start, adds = provisional_start(
        snap.edition, snap.start.players, laid, snap.start.caboose, snap.start.carried
    )
    return replace(snap, start=start, adds=adds)


def _check(yard: Yard, add: Add) -> None:
    try:
        rules.check(yard, add)
    except RuleError as error:
        raise _refusal(error, yard, add) from None


def _refusal(error: RuleError, yard: Yard, add: Add) -> Refusal:
    """A rule's refusal with the key and parameters the page says it with."""
    key, params = "game_over", {}
    if error.rule == "Y-5":
        key, params = "no_join", {"card": add.laid, "last": yard.trains[yard.to_move][-1]}
    elif error.rule == "Y-4":
        key = "face_down_turned"
    elif error.rule == "Y-6" and not yard.draw:
        key = "draw_empty"
    elif error.rule == "Y-6":
        key, params = "not_in_hand", {"card": add.card, "hand": ", ".join(yard.in_hand)}
    return Refusal(error.rule, error.message, key=key, params=params)


# --- the store: keeping a game, folding its journal ------------------------------------------


def _keep(store: Store, snap: Snapshot) -> int:
    """Keep a new game (which finishes the one left unfinished): its record, and how the
    table plays it as the first journal entry."""
    setting = {
        "edition": snap.edition.id,
        "variant": snap.variant,
        "provisional": snap.provisional,
    }
    return store.start(GAME_ID, snap.record(), [(SETTING, setting)])


def fold(kept: Kept) -> Snapshot:
    """A kept game as it stands now: its journal folded over the record it started from,
    each card added checked again, or `RecordProblem` naming what cannot be."""
    if kept.game != GAME_ID:
        raise RecordProblem(0, "store", f"game {kept.number} is one of {kept.game!r}")
    entries = list(kept.journal)
    setting = entries[0].doc if entries and entries[0].kind == SETTING else None
    if not isinstance(setting, dict):
        raise RecordProblem(0, "store", f"game {kept.number} does not say how it is played")
    try:
        edition = load_edition(setting["edition"])
    except KeyError as error:
        raise RecordProblem(0, "store", str(error.args[0])) from None
    kept_start = from_json(kept.record).start
    snap = Snapshot(edition, kept_start, variant=setting["variant"],
                    provisional=setting["provisional"])  # fmt: skip
    for entry in entries[1:]:
        try:
            if entry.kind == ADD:
                unseen = snap.provisional and entry.doc == {"add": cards.FACE_DOWN}
                snap = added(snap, None if unseen else to_add(entry.doc, len(snap.adds) + 1))
            elif entry.kind == UNDO:
                snap = undone(snap)
            else:
                raise RecordProblem(0, "store", f"game {kept.number} holds an entry {entry.kind!r}")
        except Refusal as refusal:
            raise RecordProblem(len(snap.adds) + 1, refusal.rule, refusal.message) from None
    return snap


# --- the game's entries in its `Game` (game.py) ----------------------------------------------


def _edition(option: str) -> Edition:
    try:
        return load_edition(option)
    except KeyError:
        raise Refusal(
            "request", f"there is no Yardmaster Express edition {option!r}: use "
            f"{', '.join(EDITIONS)}", key="no_edition", params={"edition": option},
        ) from None  # fmt: skip


def start(store: Store, wanted: Start, setting: Setting) -> Match:
    """A new game as the start form asks for it: dealt by the companion from the seed, or
    at a real table (`setting.provisional`) from the players' own shuffle, the names then in
    turn order, the start player first."""
    edition = _edition(wanted.option)
    if wanted.variant not in VARIANTS:
        names = ", ".join(str(v) for v in VARIANTS if v)
        raise Refusal(
            "request", f"there is no variant {wanted.variant!r}: use none or {names}",
            key="no_variant", params={"variant": wanted.variant, "variants": names},
        )  # fmt: skip
    with_caboose, strategic = VARIANTS[wanted.variant]
    n, (least, most) = len(wanted.names), edition.players
    if not least <= n <= most:
        raise Refusal(
            "Y-7", f"Yardmaster Express is for {least} to {most} players, not {n}",
            key="players_count", params={"n": n, "least": least, "most": most},
        )  # fmt: skip
    if len(set(wanted.names)) != n:
        raise Refusal("setup", "two players have the same name: give each their own",
                      key="same_names")  # fmt: skip
    seed = wanted.seed if wanted.seed is not None else secrets.randbelow(10**9)
    dealt = rules.deal(edition, wanted.names, seed, with_caboose)
    if setting.provisional:
        dealt, _ = provisional_start(edition, wanted.names, [], dealt.caboose)
    variant = STRATEGIC if strategic else None
    snap = Snapshot(edition, dealt, variant=variant, provisional=setting.provisional)
    return Match(store, _keep(store, snap), snap, setting)


def load(store: Store, doc: Mapping[str, Any], setting: Setting) -> Match:
    """The game of a record continued (an import): every card added is checked first, and
    the record's deal is the game's (it is not a provisional one)."""
    played = from_json(doc)
    snap = Snapshot(load_edition(), played.start, played.adds, variant=played.variant)
    replay(played)  # every card added is checked: RecordProblem names the first that breaks
    number = store.start(
        GAME_ID,
        snap.record() | {"turns": []},
        [(SETTING, {"edition": snap.edition.id, "variant": snap.variant, "provisional": False})]
        + [(ADD, turn_json(add)) for add in played.adds],
    )
    return Match(store, number, snap, setting)


def resume(store: Store, number: int, setting: Setting) -> Match:
    """The store's game `number`, after a restart: back on the same turn."""
    return Match(store, number, fold(store.kept(number)), setting)


def hand(match: Match | Lobby, lang: str) -> dict[str, Any] | None:
    """The game's `hand` entry (`GET /api/hand`): the mover's hidden hand, None in the
    lobby."""
    return match.hand(lang) if isinstance(match, Match) else None
