"""A turn's events in plain words, one line per turn, for the record's replay and the page.

English and Spanish: the rulebooks exist in both, and so do the families at the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion import cards
from companion.rules.state import (
    BANKED,
    BROKEN_TRACK,
    CANCELLED,
    CHAOS,
    DERAILED,
    FORGIVEN,
    GAME_OVER,
    LEFT_GAME,
    LOST,
    MOVED,
    PASSED,
    PLAYED,
    RESHUFFLED,
    ROLLED,
    TOOK,
    Event,
)

WORDS = {
    "en": {
        "turn": "turn {n} {name}",
        PASSED: "passes",
        PLAYED: "plays {cards}",
        ROLLED: "rolls {n} wheels",
        "rolled-one": "rolls 1 wheel",
        MOVED: "caboose {a} -> {b}",
        BROKEN_TRACK: "crosses broken track {cards}",
        DERAILED: "derails {n} short",
        TOOK: "takes {cards} from the {source}",
        RESHUFFLED: "the discard pile is shuffled into a new draw pile",
        FORGIVEN: "{n} penalty cards forgiven: none left to take",
        BANKED: "banks {cards}",
        CANCELLED: "{a} cancels {b}",
        CHAOS: "discards chaos {cards}",
        LEFT_GAME: "{cards} leaves the game",
        LOST: "the caboose derailed a {n}th time: the solo game is lost",
        GAME_OVER: "game over, won by {winners} ({decided_by})",
        "railway": "back of the railway",
        "draw": "draw pile",
        "reshuffled": "new draw pile",
        "nobody": "nobody",
    },
    "es": {
        "turn": "turno {n} {name}",
        PASSED: "pasa",
        PLAYED: "juega {cards}",
        ROLLED: "saca {n} ruedas",
        "rolled-one": "saca 1 rueda",
        MOVED: "furgón {a} -> {b}",
        BROKEN_TRACK: "pasa por la vía rota {cards}",
        DERAILED: "descarrila, le faltan {n}",
        TOOK: "toma {cards} del {source}",
        RESHUFFLED: "la pila de descartes se baraja como nuevo mazo",
        FORGIVEN: "{n} cartas de penalización perdonadas: no queda ninguna",
        BANKED: "deposita {cards}",
        CANCELLED: "{a} cancela {b}",
        CHAOS: "descarta caos {cards}",
        LEFT_GAME: "{cards} sale de la partida",
        LOST: "el tren descarriló {n} veces: partida en solitario perdida",
        GAME_OVER: "fin de la partida, gana {winners} ({decided_by})",
        "railway": "final de la vía",
        "draw": "mazo",
        "reshuffled": "mazo nuevo",
        "nobody": "nadie",
    },
}


def turn_line(number: int, name: str, events: Sequence[Event], lang: str = "en") -> str:
    """`turn 1 Ana plays 3, rolls 2 wheels, caboose 2 -> 4, ...` (the record spec's form)."""
    words = WORDS.get(lang, WORDS["en"])
    parts = [words["turn"].format(n=number, name=name)]
    took: list[str] = []
    source = ""

    def flush() -> None:
        if took:
            parts.append(words[TOOK].format(cards=", ".join(took), source=words[source]))
            took.clear()

    for event in events:
        if event.what == TOOK:
            if took and event.detail["source"] != source:
                flush()
            source = event.detail["source"]
            took.append(cards.base(event.cards[0]))
            continue
        text = _say(event, words)
        if text is None:
            continue
        if event.what not in (BANKED, CANCELLED):
            flush()
        parts.append(text)
    flush()
    head, *rest = parts
    return f"{head} {', '.join(rest)}" if rest else head


def _say(event: Event, words: dict[str, str]) -> str | None:
    what = event.what
    if what not in words:
        return None  # drew, piled: the line stays short; the hand is secret
    if what == MOVED:
        if event.detail["from"] == event.detail["to"]:
            return None
        return words[MOVED].format(a=event.detail["from"], b=event.detail["to"])
    if what == ROLLED and event.number == 1:
        return words["rolled-one"]
    if what == CANCELLED:
        return words[CANCELLED].format(a=cards.base(event.cards[0]), b=cards.base(event.cards[1]))
    if what == GAME_OVER:
        winners = " & ".join(event.detail["winners"]) or words["nobody"]
        return words[GAME_OVER].format(winners=winners, decided_by=event.detail["decided_by"])
    return words[what].format(cards=" ".join(map(cards.base, event.cards)), n=event.number)
