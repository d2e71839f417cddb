"""`phrases` on the changes a table goes through between two views: what a family hears
when a turn is corrected, the camera asks, a move breaks a rule or the camera only waits."""

from __future__ import annotations

from typing import Any

from companion.app.speech import phrases


def view(log: list[dict[str, Any]], session: dict[str, Any] | None = None) -> dict[str, Any]:
    """A view as every game's page gets it: its log newest first, the player to move, and
    the turn in progress when a camera follows."""
    players = [{"name": "Ana", "to_move": True}, {"name": "Ben", "to_move": False}]
    return {"log": log, "players": players, "over": False, "session": session or {}}


def test_a_turn_said_before_whose_line_changes_is_said_as_a_correction() -> None:
    first = {"turn": 1, "text": "Ben plays 4, takes 1, 3 from the draw pile"}
    fixed = {"turn": 1, "text": "Ben plays 4, takes 3, 1 from the draw pile"}
    before = view([first])
    assert phrases(before, view([fixed])) == [f"Corrected: {fixed['text']}"]
    assert phrases(before, view([fixed]), "es") == [f"Corregido: {fixed['text']}"]
    # a new turn is not a correction, and a note marked as one is said as it is
    second = {"turn": 2, "text": "turn 2: Ana passes"}
    note = {"turn": 1, "text": "order corrected by Ben", "correction": True}
    assert phrases(before, view([second, note, first])) == ["order corrected by Ben", "Ana passes"]


def test_the_cameras_question_and_a_broken_rule_are_said_once_its_waiting_never() -> None:
    log = [{"turn": 1, "text": "Ana plays 2"}]
    asking = {
        "question": {"prompt": "Which card is this? The camera is 20% sure", "options": []},
        "problem": "4 cannot follow 2: take it back (R-3)",
        "camera": ["something covers 6% of the table (a hand?)"],
        "mismatch": "the caboose belongs on card 4; the camera sees it on card 2",
    }
    said = phrases(view(log), view(log, asking))
    assert said == ["4 cannot follow 2: take it back", "Which card is this? The camera is 20% sure"]
    # the same question with another figure, the same problem: nothing new to say
    again = asking | {"question": {"prompt": "Which card is this? The camera is 25% sure"}}
    assert phrases(view(log, asking), view(log, again)) == []


def test_a_message_is_said_in_its_words_never_by_the_codes_its_data_keeps() -> None:
    """Issue 27: a referee's message of the Yardmaster or switching page carries its
    English `text` (codes kept, as the API gives it) and `said`, its words in the view's
    language: the voice says `said`."""
    taken = {
        "key": "take_back",
        "params": {"name": "Cleo", "card": "G2-B3"},
        "text": "G2-B3 was taken back: take it off Cleo's train",
        "said": "verde 2 · azul 3 se ha quitado: quítala del tren de Cleo",
    }
    log = [{"turn": 1, "text": "turno 1: Cleo pone verde 2 · azul 3"}]
    heard = phrases(view(log), view(log, {"waiting": None, "problem": taken}), "es")
    assert heard == [taken["said"]]
