"""What the page shows of a game of Yardmaster Express, computed from one `Snapshot`: plain
JSON in the page's language, no rules in the page's script.

Everything a family would otherwise work out at the end (each train's value, the longest
cargo run and which railcars make it, who gains the bonus, the caboose card met or not,
the ranking and what decided it, the strategic variant's totals) and during the game (whose
turn, which ways each card of the hand may be added, and why a way does not join) comes
from the rules' own functions here, so the page, the API and the tests see the same
numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from companion.games.yardmaster import cards, rules
from companion.games.yardmaster.edition import Caboose, Edition
from companion.games.yardmaster.record import GAME_ID, STRATEGIC_SECOND
from companion.games.yardmaster.rules import Add, Yard
from companion.games.yardmaster.snapshot import STRATEGIC, Snapshot
from companion.games.yardmaster.words import TEXT, caboose_name, say

Spot = tuple[int, int]  # a railcar in a train: (the card's index, engine 0; 0 left, 1 right)


def colour_name(edition: Edition, letter: str, lang: str) -> str:
    """A colour letter in words: the page's word for the edition's colour, or the
    edition's own name for a colour the page has no word for (a table's added letter)."""
    name = edition.colours.get(letter, letter)
    return TEXT[lang].get(f"colour_{name}", name)


def colour_initial(edition: Edition, letter: str, lang: str) -> str:
    """The initial a railcar shows for its colour in `lang` (a colour-blind player reads it):
    the page's initial for the edition's colour ("Az" for azul), else the card's letter."""
    name = edition.colours.get(letter, letter)
    return TEXT[lang].get(f"initial_{name}", letter)


def _railcar(edition: Edition, railcar: cards.Railcar, lang: str) -> dict[str, Any]:
    colour, value = railcar
    return {"colour": colour, "value": value, "name": colour_name(edition, colour, lang),
            "initial": colour_initial(edition, colour, lang)}  # fmt: skip


def _said(edition: Edition, railcar: cards.Railcar, lang: str) -> str:
    return say(lang, "railcar", colour=colour_name(edition, railcar[0], lang), value=railcar[1])


def card_words(edition: Edition, code: str, lang: str) -> str:
    """A railcar card as a person says it, its two railcars left to right ("red 1 · blue
    3"), as the page's buttons say it; never its code ("R1-B3")."""
    return " · ".join(_said(edition, railcar, lang) for railcar in cards.railcars(code))


def laid_words(edition: Edition, code: str, lang: str) -> str:
    """A card of a train as it lies, in words: the engine, a card face down (unnamed), a
    railcar card, or one the camera could not read."""
    if code == cards.ENGINE:
        return say(lang, "engine_said")
    if code == cards.FACE_DOWN:
        return say(lang, "face_down_said")
    try:
        return card_words(edition, code, lang)
    except cards.CardCodeError:
        return say(lang, "unread")


def train_words(edition: Edition, codes: str, lang: str) -> str:
    """A train written as codes apart by spaces, engine first ("E R1-R1 W"), in words:
    "engine, red 1 · red 1, a card face down"."""
    return ", ".join(laid_words(edition, code, lang) for code in codes.split())


# The parameters of what the referee says that name a card or a train by codes.
CARD_PARAMS = frozenset({"card", "last"})
TRAIN_PARAMS = frozenset({"seen", "game"})


def said_words(edition: Edition, said: dict[str, Any], lang: str) -> str:
    """Something the referee or the camera says (`Said.as_json`) in `lang`, as the page's
    `said` would (its `session_<key>` or `refusal_<key>`, else its English), with the
    cards and trains it names in words."""
    params: dict[str, Any] = {"message": said["text"]}
    for name, value in said["params"].items():
        if name in CARD_PARAMS and isinstance(value, str):
            with suppress(cards.CardCodeError):
                value = card_words(edition, value, lang)
        elif name == "hand" and isinstance(value, str):
            with suppress(cards.CardCodeError):
                value = ", ".join(card_words(edition, code, lang) for code in value.split(", "))
        elif name in TRAIN_PARAMS and isinstance(value, str):
            value = train_words(edition, value, lang)
        params[name] = value
    for key in (f"session_{said['key']}", f"refusal_{said['key']}"):
        if key in TEXT[lang]:
            return say(lang, key, **params)
    return said["text"]


def longest_spots(train: Sequence[str]) -> set[Spot]:
    """The railcars of the train's longest runs (Y-8: along the train, across card
    boundaries, a wild card ending a run): every run as long as the train's longest, so the
    page highlights each one that could earn the bonus (Y-9)."""
    found: list[list[Spot]] = []
    colour: str | None = None
    for index, laid in enumerate(train):
        if cards.is_wild(laid):
            colour = None
            continue
        for side, (railcar_colour, _) in enumerate(cards.railcars(laid)):
            if railcar_colour == colour:
                found[-1].append((index, side))
            else:
                found.append([(index, side)])
            colour = railcar_colour
    longest = max((len(run) for run in found), default=0)
    return {spot for run in found if len(run) == longest for spot in run}


def _card(
    edition: Edition, laid: str, add: Add | None, spots: set[Spot], index: int, lang: str
) -> dict[str, Any]:
    """One card of a train as it lies: the engine, a card face down (which card it is is
    not shown: nobody at the table sees it), or a railcar card with its railcars left to
    right as they lie, turned or not, each marked when it is in the train's longest run."""
    if laid == cards.ENGINE:
        return {"kind": "engine", "code": laid}
    if laid == cards.FACE_DOWN:
        return {"kind": "face_down", "code": laid}
    railcars = [
        _railcar(edition, railcar, lang) | {"run": (index, side) in spots}
        for side, railcar in enumerate(cards.railcars(laid))
    ]
    printed = add.card if add is not None else laid
    turned = add is not None and add.turned
    return {"kind": "railcar", "code": laid, "printed": printed, "turned": turned,
            "railcars": railcars}  # fmt: skip


def _caboose_met(yard: Yard, train: tuple[str, ...]) -> bool | None:
    return None if yard.caboose is None else rules.meets(yard.caboose.condition, train)


def players(snap: Snapshot, lang: str) -> list[dict[str, Any]]:
    """Every player's train as it lies and their score now with its parts, in turn order
    (the start player first)."""
    yard = snap.yard
    n = len(yard.players)
    newest = len(snap.adds) - 1  # the card added last: seat newest % n, card newest // n + 1
    rows = []
    for seat, score in enumerate(rules.score(yard)):
        spots = longest_spots(score.train)
        train = []
        for index, laid in enumerate(score.train):
            add = snap.adds[(index - 1) * n + seat] if index else None
            card = _card(snap.edition, laid, add, spots, index, lang)
            card["newest"] = index > 0 and (index - 1) * n + seat == newest
            train.append(card)
        rows.append(
            {
                "seat": seat,
                "name": score.name,
                "start": seat == 0,
                "to_move": seat == yard.to_move,
                "train": train,
                "train_value": score.train_value,
                "longest_run": score.longest_run,
                "run_bonus": score.run_bonus,
                "caboose_met": _caboose_met(yard, score.train),
                "caboose_bonus": score.caboose_bonus,
                "carried": score.carried,
                "score": score.score,
            }
        )
    return rows


def condition_words(edition: Edition, condition: Mapping[str, Any], lang: str) -> str:
    """A caboose card's condition (Y-12) in words."""
    kind = condition["kind"]
    colour = condition.get("colour")
    named = colour_name(edition, colour, lang) if colour is not None else None
    if kind == "run":
        key = "cond_run_colour" if named is not None else "cond_run"
        return say(lang, key, n=condition["length"], colour=named)
    if kind == "colours":
        return say(lang, "cond_colours", n=condition["count"])
    if kind == "cargo":
        return say(lang, "cond_cargo", n=condition["count"], colour=named)
    if kind == "value":
        return say(lang, "cond_value", n=condition["min"])
    least, most = condition.get("min"), condition.get("max")
    if least is not None and most is not None:
        return say(lang, "cond_face_down_between", min=least, max=most)
    if most == 0:
        return say(lang, "cond_no_face_down")
    if most is not None:
        return say(lang, "cond_face_down_max", n=most)
    return say(lang, "cond_face_down_min", n=least)


def caboose(edition: Edition, card: Caboose | None, lang: str) -> dict[str, Any] | None:
    if card is None:
        return None
    return {
        "name": caboose_name(card.name, lang),
        "points": card.points,
        "condition": condition_words(edition, card.condition, lang),
    }


def _ways(yard: Yard, card: str, edition: Edition, lang: str) -> list[dict[str, Any]]:
    """Every way `card` (as printed) could be added by the mover: as printed, turned (when
    that lies otherwise) and face down, each legal or not (`rules.ways` says which) and,
    when not, why: the railcars that do not match (Y-5), or the empty deck (Y-6)."""
    last = yard.trains[yard.to_move][-1]  # type: ignore[index]  # asked only while playing
    legal = set(rules.ways(last, card)) if yard.draw else set()
    ways = [Add(card)]
    if cards.turned(card) != card:
        ways.append(Add(card, turned=True))
    ways.append(Add(card, face_down=True))
    found = []
    for add in ways:
        way = "face_down" if add.face_down else "turned" if add.turned else "printed"
        entry: dict[str, Any] = {"way": way, "laid": add.laid, "legal": add in legal}
        if not add.face_down:
            entry["railcars"] = [_railcar(edition, r, lang) for r in cards.railcars(add.laid)]
        if add in legal:
            entry["why"] = None
        elif not yard.draw:
            entry["why"] = say(lang, "draw_empty")
        else:
            left = cards.railcars(add.laid)[0]
            right = cards.railcars(last)[1]
            entry["why"] = say(
                lang, "why_no_join", left=_said(edition, left, lang),
                right=_said(edition, right, lang),
            )  # fmt: skip
        found.append(entry)
    return found


def hand(snap: Snapshot, lang: str) -> dict[str, Any] | None:
    """The mover's hidden hand once they have drawn (Y-6), each card with its ways, for
    their phone alone (`GET /api/hand`, behind the PIN: the view, which every page and the
    screen beside the table read, holds none); None when the hand is not known (a real
    table's deal) or the game is over."""
    yard = snap.yard
    if snap.provisional or yard.over:
        return None
    return {
        "seat": yard.to_move,
        "name": yard.players[yard.to_move],
        "turn": len(snap.adds),
        "hand": [
            {
                "card": card,
                "said": card_words(snap.edition, card, lang),
                "ways": _ways(yard, card, snap.edition, lang),
            }
            for card in dict.fromkeys(yard.in_hand)
        ],
    }


def choices(snap: Snapshot, lang: str) -> list[dict[str, Any]] | None:
    """At a real table (a provisional deal) the hand is the players' own: what the mover
    may have added is any card of the deck not seen in a train, each with its face-up ways,
    or a card face down, which names none. None when the hand is known or the game over."""
    yard = snap.yard
    if not snap.provisional or yard.over:
        return None
    seen = {add.card for add in snap.adds if not add.face_down}
    unseen = [c for c in dict.fromkeys(snap.edition.deck_for(len(yard.players))) if c not in seen]
    found = [
        {"card": card, "said": card_words(snap.edition, card, lang),
         "ways": [w for w in _ways(yard, card, snap.edition, lang) if w["way"] != "face_down"]}
        for card in unseen
    ]  # fmt: skip
    face_down = {"way": "face_down", "laid": cards.FACE_DOWN, "legal": bool(yard.draw)}
    face_down["why"] = None if yard.draw else say(lang, "draw_empty")
    return [*found, {"card": None, "said": None, "ways": [face_down]}]


def ranking(yard: Yard, lang: str, first_of_two: bool = False) -> dict[str, Any] | None:
    """The end (Y-10): everyone by points, a tie in the order Y-10 breaks it (the tied
    player moving latest in a round first), the winner and what decided it, in words. The
    strategic variant's first game has no winner (`first_of_two`): the totals decide."""
    if not yard.over:
        return None
    scores = rules.score(yard)
    winners, decided_by = rules.ranking(yard)
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat].score, -seat))
    rows = [
        {"place": place, "seat": seat, "name": scores[seat].name, "score": scores[seat].score}
        for place, seat in enumerate(order, 1)
    ]
    if first_of_two:
        return {"rows": rows, "winners": [], "decided_by": None, "said": None}
    if decided_by == "seat":
        said = say(lang, "decided_seat", points=scores[order[0]].score, name=winners[0])
    else:
        said = say(lang, "decided_score")
    return {"rows": rows, "winners": winners, "decided_by": decided_by, "said": said}


def strategic(snap: Snapshot) -> dict[str, Any] | None:
    """The strategic variant (Y-11): which of its two games this is, each player's points
    of each game and their total, and, once the first has ended, who starts the second."""
    if snap.variant not in (STRATEGIC, STRATEGIC_SECOND):
        return None
    second = snap.variant == STRATEGIC_SECOND
    scores = rules.score(snap.yard)
    totals = [
        {
            "name": s.name,
            "first": s.carried if second else s.score,
            "second": s.score - s.carried if second else None,
            "total": s.score,
        }
        for s in scores
    ]
    starts = None
    if snap.second_game_due:
        order = rules.second_game_order(snap.yard.players, [s.score for s in scores])
        starts = order[0]
    return {"game": 2 if second else 1, "totals": totals, "second_game_due":
            snap.second_game_due, "second_starts": starts}  # fmt: skip


def log(snap: Snapshot, lang: str) -> list[dict[str, Any]]:
    """The game told card by card, newest first, in `lang`; a card taken back stands just
    before the card that took its turn, so the story reads in order."""
    players_ = snap.start.players
    n = len(players_)

    def line(number: int, add: Add, taken: bool) -> dict[str, Any]:
        name = players_[(number - 1) % n]
        key = "log_taken_back" if taken else "log_add"
        if add.face_down:
            key += "_face_down"
        elif add.turned and not taken:
            key += "_turned"
        # a card face down is not named: nobody at the table saw it
        card = "" if add.face_down else card_words(snap.edition, add.laid, lang)  # as it lies
        return {"turn": number, "text": say(lang, key, n=number, name=name, card=card),
                "correction": taken}  # fmt: skip

    story: list[dict[str, Any]] = []
    undone = list(snap.undone)
    for number, add in enumerate(snap.adds, 1):
        story += [line(k, a, True) for k, a in undone if k == number]
        story.append(line(number, add, False))
    story += [line(k, a, True) for k, a in undone if k > len(snap.adds)]
    if snap.yard.over:
        strategic_ = strategic(snap)
        if strategic_ is not None and strategic_["second_game_due"]:
            text = say(lang, "log_first_over", name=strategic_["second_starts"])
        else:
            end = ranking(snap.yard, lang)
            assert end is not None  # the game is over: it has a ranking
            text = say(lang, "log_over", name=end["winners"][0], decided=end["said"])
        story.append({"turn": len(snap.adds), "text": text, "correction": False})
    story.reverse()
    return story


def build(snap: Snapshot, lang: str = "en", *, light: bool = False) -> dict[str, Any]:
    """The whole page's data. `light` leaves out what may be tapped (the choices, undo): a
    record's frame being watched."""
    yard = snap.yard
    rows = players(snap, lang)
    longest = max((row["longest_run"] for row in rows), default=0)
    return {
        "game": GAME_ID,
        "edition": {
            "id": snap.edition.id,
            "name": snap.edition.name,
            "colours": [
                {
                    "letter": letter,
                    "name": colour_name(snap.edition, letter, lang),
                    "initial": colour_initial(snap.edition, letter, lang),
                }
                for letter in snap.edition.colours
            ],
        },
        "variant": snap.variant,
        "provisional": snap.provisional,
        # the whole match: the strategic variant's first game is not, its second to come
        "over": yard.over and not snap.second_game_due,
        "ended": yard.over,  # this game's last card is added
        "round": yard.round,
        "rounds": yard.rounds,
        "rounds_after": 0 if yard.over else yard.rounds - yard.round,
        "turn": len(snap.adds),
        "to_move": yard.to_move,
        "players": rows,
        "longest_run": longest,
        "caboose": caboose(snap.edition, yard.caboose, lang),
        "choices": None if light else choices(snap, lang),
        "draw": len(yard.draw),
        "ranking": ranking(yard, lang, snap.variant == STRATEGIC),
        "strategic": strategic(snap),
        "undo": {"possible": bool(snap.adds) and not light},
        "log": log(snap, lang),
    }
