"""A game of Yardmaster Express being played at the table: the one object the shared writer
(`companion.table.Table`) drives for it (`companion.games.protocol.Match`).

The match keeps the game as the store does, on the skeleton every game shares
(companion/games/match.py): the record it started from and a journal of cards added and
taken back. Every command is checked against the rules before anything is journaled (a
refusal changes nothing), and the game at any instant is a `Snapshot` (snapshot.py), which
the view draws. The strategic variant's second game (Y-11) is a new
game in the store, its record carrying the first game's points.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games import match as base
from companion.games.lobby import Lobby
from companion.games.protocol import Refusal, Setting, Start
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
from companion.store import Store

# The kind of the journal's entries of its own (`Store.append`; the setting, how the table
# plays it, its edition, variant and whether the deal is a real table's, and the undo are
# every game's, companion/games/match.py): a card added.
ADD = "add"

# The start form's variants (`Option.id`s): (a caboose card in play, the strategic variant).
VARIANTS: dict[str | None, tuple[bool, bool]] = {
    None: (False, False),
    "caboose": (True, False),
    "strategic": (False, True),
    "strategic-caboose": (True, True),
}


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


# --- the store: how the game is kept ---------------------------------------------------------


def _setting(snap: Snapshot) -> dict[str, Any]:
    """How the table plays the game: the journal's first entry, which `fold` starts from."""
    return {"edition": snap.edition.id, "variant": snap.variant, "provisional": snap.provisional}


def _begin(record: Mapping[str, Any], setting: Mapping[str, Any]) -> Snapshot:
    """A kept game before its first card: the deal of the record it was kept with."""
    return Snapshot(load_edition(setting["edition"]), from_json(record).start,
                    variant=setting["variant"], provisional=setting["provisional"])  # fmt: skip


def _step(snap: Snapshot, kind: str, doc: Any) -> Snapshot:
    """A journal entry of a card added folded over the game, the card checked again."""
    if kind != ADD:
        raise KeyError(kind)
    unseen = snap.provisional and doc == {"add": cards.FACE_DOWN}
    return added(snap, None if unseen else to_add(doc, len(snap.adds) + 1))


KEEPING = base.Keeping(
    game=GAME_ID,
    setting=_setting,
    begin=_begin,
    step=_step,
    undone=undone,
    undo_doc=None,
    turn=lambda snap: len(snap.adds),
    over=_over,
    record=Snapshot.record,
)

# A kept game as it stands now: its journal folded over the record it started from, each
# card added checked again, or `RecordProblem` naming the entry that cannot be.
fold = KEEPING.fold


# --- the match at the table ------------------------------------------------------------------


@dataclass
class Following(base.Following[tuple[TrainSeen, ...]]):
    """The turn at a table a camera follows (besides every game's, `base.Following`): which
    train is whose (`owners`, by seat), the card it took last and whether CONFIRM has
    acknowledged it, and a card taken back in the game that still lies on the table."""

    owners: tuple[Point | None, ...] = ()
    last: tuple[str, str] | None = None  # (player, card as it lies)
    acknowledged: bool = True
    taken_back: tuple[int, str] | None = None  # (seat, card as it lay)


class Match(base.FollowedMatch[Snapshot, Following]):
    """One game of Yardmaster Express at the table."""

    keeping = KEEPING
    press_command, undo_command, seen_command = Press, Undo, Seen
    table_kind = "Yardmaster Express"
    steps_taken = "cards are added"
    by_hand = "add each card on the page"
    to_do = "add your card to your train; hold CONFIRM to take the last card back"

    def actions(self) -> Mapping[type, Callable[[Any], None]]:
        return {AddCard: self._add, NextGame: self._next}

    def hand(self, lang: str, seat: int | None = None) -> dict[str, Any] | None:
        """The mover's hidden hand with its ways (`view.hand`), for their phone alone; any
        other `seat` holds none (Y-6: the one hand passes to the next mover)."""
        if seat is not None and seat != self.snap.yard.to_move:
            return None
        return view.hand(self.snap, lang)

    # --- the commands --------------------------------------------------------------------

    def _add(self, command: AddCard) -> None:
        self.fresh(command.turn)
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
        self.keep(added(self.snap, seen), ADD, _turn_doc(seen))

    def _next(self, command: NextGame) -> None:
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
        self.number = self.keeping.keep(self.store, snap)
        self.snap = snap
        if self.following is not None:  # new seats in a new order: whose train is learnt anew
            self.following = self.new_following()

    # --- the turn at the table -----------------------------------------------------------

    def new_following(self) -> Following:
        return Following(owners=(None,) * len(self.snap.start.players))

    def undid(self, following: Following, before: Snapshot) -> None:
        """The card taken back still lies on the table: the camera must not take it again."""
        seat = self.snap.yard.to_move
        if seat is not None:
            following.taken_back = (seat, before.yard.trains[seat][-1])
            following.acknowledged = True

    def confirm(self, following: Following) -> bool:
        """CONFIRM: the card the camera took is acknowledged."""
        if following.acknowledged:
            return False
        following.acknowledged = True
        return True

    def confirmable(self, following: Following) -> bool:
        return not following.acknowledged

    def saw(self, following: Following, command: Seen) -> bool:
        """A still view of the trains, when the frame brings one."""
        if command.trains is None:
            return False
        following.seen = command.trains
        return True

    def compare(self, following: Following) -> tuple[Said | None, Said | None]:
        """Take the mover's new card (checked by the rules), or say what is wrong: anything
        else that disagrees with the game is a problem, and nothing counts until it is
        fixed."""
        assert following.seen is not None
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
                problem = self._take(following, seat, reading.added)
        elif reading.added is None and problem is None:
            following.taken_back = None  # the table agrees with the game again
        return problem, waiting

    def _take(self, following: Following, seat: int, laid: str) -> Said | None:
        """The card the mover was seen adding, as it lies: added to the game and journaled,
        or the refusal said as the problem to fix."""
        seen = _as_added(laid, self.snap.edition.deck_for(len(self.snap.start.players)))
        try:
            snap = added(self.snap, seen)
        except Refusal as refusal:
            params = tuple(refusal.params.items())
            return Said(refusal.key or refusal.rule, refusal.message, params)
        self.keep(snap, ADD, _turn_doc(seen))
        following.last = (self.snap.start.players[seat], laid)
        following.acknowledged = False
        following.taken_back = None
        return None

    # --- its words -----------------------------------------------------------------------

    def game_view(self, lang: str) -> dict[str, Any]:
        return view.build(self.snap, lang)

    def following_fields(self, following: Following, lang: str) -> dict[str, Any]:
        """Whose turn, the round, what the table waits for and the card taken last, said in
        words (`view.laid_words`)."""
        yard = self.snap.yard
        last = following.last
        return {
            "mover": None if yard.to_move is None else yard.players[yard.to_move],
            "round": yard.round,
            "rounds": yard.rounds,
            "awaiting": "card" if following.acknowledged else "confirm",
            "last": None
            if last is None
            else {
                "name": last[0],
                "card": last[1],
                "said": view.laid_words(self.snap.edition, last[1], lang),
            },
        }

    def said_words(self, doc: Mapping[str, Any], lang: str) -> str:
        """The cards and trains it names (codes in `params` and the English `text`) in
        words."""
        return view.said_words(self.snap.edition, doc, lang)


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
    return Match.kept(store, snap, setting)


def load(store: Store, doc: Mapping[str, Any], setting: Setting) -> Match:
    """The game of a record continued (an import): every card added is checked first, and
    the record's deal is the game's (it is not a provisional one)."""
    played = from_json(doc)
    snap = Snapshot(load_edition(), played.start, played.adds, variant=played.variant)
    replay(played)  # every card added is checked: RecordProblem names the first that breaks
    steps = [(ADD, turn_json(add)) for add in played.adds]
    return Match.kept(store, snap, setting, replace(snap, adds=()), steps)


# The store's game after a restart, back on the same turn.
resume = Match.resume


def hand(match: Match | Lobby, lang: str, seat: int | None = None) -> dict[str, Any] | None:
    """The game's `hand` entry (`GET /api/hand`, `GET /api/seat/hand`): the mover's hidden
    hand, to the mover's seat (or None: whoever moves) alone; None in the lobby."""
    return match.hand(lang, seat) if isinstance(match, Match) else None
