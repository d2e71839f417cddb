"""`companion simulate`: whole games between bots, for balance figures and for tests.

Each game is dealt from its own seed and its dice come from their own generator, so one
game of a run can be replayed alone; `--records` keeps each game as a `caboose-record/1`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.games.caboose.bots import POLICIES
from companion.games.caboose.record import Record, record_of, save, to_turn
from companion.games.caboose.rules import chance
from companion.games.caboose.rules.edition import load
from companion.games.caboose.rules.engine import apply, deal, dice_to_roll
from companion.games.caboose.rules.scoring import final_ranking, score
from companion.games.caboose.rules.state import Action, Event, GameState, Play, make_play


@dataclass
class GameResult:
    record: Record
    state: GameState


def turns(
    state: GameState, policies: Sequence[Callable[[GameState], Action]], seed: int | str
) -> Iterator[tuple[GameState, Action, tuple[Event, ...]]]:
    """Yield (state after, action, events) turn after turn until the game is over: bots
    choose, a generator seeded by `seed` rolls the dice. The policies lay cards where
    `geometry.legal_placements` puts them, as the bots do, so `apply` does not check the
    poses again (`laid_by_rules`); the record of the game is checked whole when replayed."""
    dice = random.Random(f"{seed}/dice")
    faces = state.edition.die_faces
    while not state.over:
        action = policies[state.to_move % len(policies)](state)
        if isinstance(action, Play):
            roll = chance.roll(dice, faces, dice_to_roll(state, action.cards))
            # Not dataclasses.replace: several times cheaper, every turn.
            action = make_play(action.cards, roll, action.order, action.place, action.drawn)
        state, events = apply(state, action, laid_by_rules=True)
        yield state, action, events


def play_game(
    edition: str,
    names: Sequence[str],
    seed: int | str,
    policies: Sequence[Callable[[GameState], Action]],
    variant: str | None = None,
) -> GameResult:
    """One whole game, dealt from `seed`, and its record."""
    state = deal(edition, names, seed, variant)
    record = record_of(state)
    for after, action, events in turns(state, policies, seed):
        record.turns.append(to_turn(action, events))
        state = after
    return GameResult(record, state)


def final_state(
    edition: str,
    names: Sequence[str],
    seed: int | str,
    policies: Sequence[Callable[[GameState], Action]],
    variant: str | None = None,
) -> GameState:
    """The end of `play_game`'s game without its record: a run that keeps no records
    spends nothing on writing turns down (about a twentieth of a simulated game)."""
    state = deal(edition, names, seed, variant)
    for after, _, _ in turns(state, policies, seed):
        state = after
    return state


@dataclass
class Summary:
    edition: str
    players: int
    games: int
    seconds: float
    mean_score: list[float]
    wins: list[float]
    derailments_per_game: float
    turns_per_game: float
    policies: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def as_json(self) -> dict:
        return {
            "edition": self.edition,
            "players": self.players,
            "games": self.games,
            "policies": self.policies,
            "mean_score": [round(s, 3) for s in self.mean_score],
            "wins": [round(w, 3) for w in self.wins],
            "derailments_per_game": round(self.derailments_per_game, 3),
            "turns_per_game": round(self.turns_per_game, 3),
            "games_per_second": round(self.games_per_second, 1),
        }


def simulate(
    edition: str,
    players: int,
    games: int,
    seed: int | str,
    policy_names: Sequence[str] = ("cautious", "greedy"),
    records: Path | None = None,
    variant: str | None = None,
) -> Summary:
    """Play `games` games; seat i uses policy i modulo the list."""
    policies = [POLICIES[name] for name in policy_names]
    rules = load(edition).variants.get(variant) if variant is not None else None
    seats = rules.players if rules is not None else players  # a solo variant seats one bot
    names = [f"Bot {i + 1} ({policy_names[i % len(policy_names)]})" for i in range(seats)]
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    totals: list[float] = []
    wins: list[float] = []
    derailments = turns = 0
    started = time.perf_counter()
    for game in range(games):
        if records is None:
            state = final_state(edition, names, f"{seed}:{game}", policies, variant)
        else:
            result = play_game(edition, names, f"{seed}:{game}", policies, variant)
            state = result.state
            save(result.record, records / f"game-{game:05d}.json")
        if not totals:
            totals = [0.0] * len(state.seats)
            wins = [0.0] * len(state.seats)
        ranking = final_ranking(state)
        winners = ranking.order[: len(ranking.winners)]
        for i, seat in enumerate(state.seats):
            totals[i] += score(seat, True)
            if i in winners:
                wins[i] += 1 / len(winners)
        derailments += sum(seat.derailments for seat in state.seats)
        turns += state.turn
    seconds = time.perf_counter() - started
    n = max(games, 1)
    return Summary(
        edition=edition,
        players=seats,
        games=games,
        seconds=seconds,
        mean_score=[t / n for t in totals],
        wins=[w / n for w in wins],
        derailments_per_game=derailments / n,
        turns_per_game=turns / n,
        policies=list(policy_names),
    )
