"""What the referee at the table says, as keys and parameters rather than sentences:
`MESSAGES` (the English of every key), `Message`, `say` (a message in any language's
words), and the messages made of a table's refusal and of what it waits to be shown.

The turn at the table (follow.py) decides when to say what; the words are here so that
the page's other languages (words.py) and the API's English share one list of keys, and a
reader looking for a sentence the page showed finds it without reading the turn flow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.caboose.refusals import TableError
from companion.games.caboose.rules.state import GameState

# What the turn at the table says, in English. The page's other languages have the same keys in
# words.py (a test keeps them complete); a count that changes the words has a key of its
# own per form (`roll_one`, `roll`), as the page's own words do.
MESSAGES: dict[str, str] = {
    "no_game": "start a game on the page",
    "to_move": "{name} to move: lay cards at the front, show chaos cards, or press PASS",
    "roll_one": "{name}: roll 1 die",
    "roll": "{name}: roll {n} dice",
    "confirm": "the table shows the computed move: press CONFIRM",
    "over": "the game is over",
    "show_taken_one": "{name}: show the card taken from the draw pile in the marked zone",
    "show_taken": "{name}: show the {n} cards taken from the draw pile in the marked zone",
    "show_hand_one": "game over: {name}, show your hand (card) in the marked zone",
    "show_hand": "game over: {name}, show your hand ({n} cards) in the marked zone",
    "ask_unknown": "card {n} laid: the camera reads {code} but is not in the hand; "
    "which card is it?",
    "ask_unsure": "card {n} laid: the camera reads {code} but is unsure ({percent}%); "
    "which card is it?",
    "ask_die": "die {n}: is it a {face}? the camera is unsure ({percent}%); choose what it shows",
    "ask_die_wheels": "die {n}: wheels shown: {face}? the camera is unsure "
    "({percent}%); choose what it shows",
    "railway_differs": "the railway does not look as the game has it: it should read {want} "
    "from the back, the camera sees {seen}",
    "cannot_play": "{cards} cannot be played so: {detail}",
    "pip_dice": "a pip die was rolled but the table has no face map for pip dice "
    "(pip_wheels in the config): roll the game's own dice",
    "die_face": "a die shows {face} wheels: these dice show {faces}",
    "too_many_dice_one": "{n} dice were rolled but 1 is wanted: roll 1",
    "too_many_dice": "{n} dice were rolled but {left} are wanted: roll {left}",
    "pass_laid": "cards are laid at the front: take them back to pass",
    "pass_not_now": "PASS is for the player to move, before anything is laid",
    "not_yet": "not yet: {why}",
    "not_seen": "the camera has not seen the table still yet",
    "take_one": "take 1 more card from the back of the railway",
    "take": "take {n} more cards from the back of the railway",
    "railway_should": "the railway should read {want} from the back; the camera sees {seen}",
    "railway_unseen": "the railway should read {want} from the back; the camera sees none",
    "caboose_unseen": "the caboose belongs on card {n} from the back ({code}); "
    "the camera sees it nowhere",
    "caboose_elsewhere": "the caboose belongs on card {n} from the back ({code}); "
    "the camera sees it on card {seen}",
    "undo_nothing": "there is nothing to undo: no turn has been played",
    "undo_roll": "a dice roll once seen is not undone; if it was entered wrongly, "
    "correct the roll instead",
    "refused": "{detail}",
}


@dataclass(frozen=True)
class Message:
    """Something the turn at the table says, kept as its key in `MESSAGES` and its parameters rather
    than as English, so that each page can say it in its own language. A parameter may be a
    Message itself: a CONFIRM refused says why in the words of the mismatch."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        params = {
            name: value.as_json() if isinstance(value, Message) else value
            for name, value in self.params.items()
        }
        return {"key": self.key, "params": params}

    @property
    def text(self) -> str:
        """In English, as the API gives it."""
        return say(MESSAGES, self.as_json())


def say(words: Mapping[str, str], said: Mapping[str, Any]) -> str:
    """A message in JSON (`Message.as_json`) in the language of `words`, a table with every
    key of `MESSAGES`: a message among the parameters is said first, in the same words. A
    refusal among them (`refusal`) whose key the words do not know is said in the English
    of its `message`."""
    params = {
        name: say(words, value) if isinstance(value, Mapping) else value
        for name, value in said["params"].items()
    }
    template = words.get(said["key"])
    if template is None and "message" in params:
        return params["message"]
    return words[said["key"]].format_map(params)


def refused(error: TableError) -> Message:
    """A refusal by the table or the engine, after a lead-in in the page's language."""
    return Message("refused", {"detail": refusal(error)})


def refusal(error: TableError) -> Message | str:
    """The words of a refusal: its key and parameters when it has them, with its English
    `message`, what the page says when its words do not know the key (words.REFUSALS); the
    English alone when it has no key."""
    if error.key is None:
        return error.message
    return Message(error.key, {**error.params, "message": error.message})


def show_words(state: GameState, wanted: tuple[str, int, int]) -> Message:
    """What to show the camera in the marked zone (or enter on the page)."""
    what, seat, count = wanted
    name = state.seats[seat].name
    key = "show_taken" if what == "taken" else "show_hand"
    return Message(key + "_one" if count == 1 else key, {"name": name, "n": count})
