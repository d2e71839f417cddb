"""A turn's events in plain words, one line per turn, for the record's replay and the page.

English and Spanish (their words are `words.LOG`): the rulebooks exist in both, and so do
the families at the table. Outside `rules/`: the rules return events, and this is how the
game says them (the English lines are the replay's log, exactly as
shared/spec/game-record.md prints them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.games.caboose import cards
from companion.games.caboose.rules.state import (
    CANCELLED,
    GAME_OVER,
    MOVED,
    TOOK,
    Event,
)
from companion.games.caboose.words import LOG, NOTATION, cards_words


def turn_line(number: int, name: str, events: Sequence[Event], lang: str | None = None) -> str:
    """One turn in words. Without `lang`, the record's own notation, exactly as
    `shared/spec/game-record.md` prints it (`turn 1 Ana plays 3, rolls 2 wheels, caboose
    2 -> 4`): English, railway cards by their index as the record's `caboose` counts them
    (from 0), and the ranking's `decided_by` as its id, because other tools read it.
    With `lang` ("en", "es"), the words for people (the page's log, the demo's terminal):
    cards in words ("broken 3", "chaos card 2"), railway cards counted from 1, from the
    back, as the page draws them, and how the game was decided in words.

    Either way the line says the events in the engine's order, so a cancel or a banked card
    follows the take that caused it; cards taken one after another from one source are said
    together."""
    people = lang is not None
    words = LOG[lang] if lang is not None else NOTATION

    def said(codes: Sequence[str]) -> str:
        return cards_words(codes, lang) if lang is not None else " ".join(map(cards.base, codes))

    parts = [words["turn"].format(n=number, name=name)]
    took: list[str] = []
    source = ""

    def flush() -> None:
        if took:
            listed = said(took) if people else ", ".join(took)
            parts.append(words[TOOK].format(cards=listed, source=words[source]))
            took.clear()

    for event in events:
        if event.what == TOOK:
            if took and event.detail["source"] != source:
                flush()
            source = event.detail["source"]
            took.append(event.cards[0] if people else cards.base(event.cards[0]))
            continue
        text = _say(event, words, people, said)
        if text is None:
            continue
        flush()
        parts.append(text)
    flush()
    head, *rest = parts
    return f"{head} {', '.join(rest)}" if rest else head


def _say(
    event: Event, words: dict[str, str], people: bool, said: Callable[[Sequence[str]], str]
) -> str | None:
    what = event.what
    if what not in words:
        return None  # drew, piled: the line stays short; the hand is secret
    if what == MOVED:
        if event.detail["from"] == event.detail["to"]:
            return None
        first = 1 if people else 0
        return words[MOVED].format(a=event.detail["from"] + first, b=event.detail["to"] + first)
    if what == CANCELLED:
        return words[CANCELLED].format(a=said(event.cards[:1]), b=said(event.cards[1:2]))
    if what == GAME_OVER:
        winners = event.detail["winners"]
        if not people:
            said = " & ".join(winners) or "nobody"
            return words[GAME_OVER].format(winners=said, decided_by=event.detail["decided_by"])
        how = words[f"by-{event.detail['decided_by']}"]
        if not winners:
            return words[f"{GAME_OVER}-nobody"].format(decided_by=how)
        key = f"{GAME_OVER}-shared" if len(winners) > 1 else GAME_OVER
        return words[key].format(winners=" & ".join(winners), decided_by=how)
    # A count of one has words of its own ("rolls 1 wheel", "le falta 1").
    template = words.get(f"{what}-one", words[what]) if event.number == 1 else words[what]
    listed = said(event.cards) if "{cards}" in template else ""  # a roll's faces are no cards
    return template.format(cards=listed, n=event.number)
