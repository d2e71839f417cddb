"""The switching-track game's words in English and Spanish (`LANGUAGES`): what its page
(page/) and its view (view.py) say, and every refusal of its rules, its match and the shared
checks as `refusal_<key>`. The page's script holds no text of its own: it asks `t(key)` for
these (web/words.py joins them to the shell's).

A train is named by its colour (a player's three trains look alike) and the space it stands
on; Start, Finish, dead end, bump, panel, slot, depot and repair tile are the rulebook's
words, the same everywhere. A word whose count changes it has a `_one` form, said when the
count `{n}` is 1; both languages have the same keys with the same {parameters}.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.protocol import LANGUAGES

TEXT: dict[str, dict[str, str]] = {
    "en": {
        # The start form's variants (the shell asks for `variant_<id>`).
        "variant_short": "Short game: two trains to win",
        "variant_repair": "Bonus level: repair tiles",
        "variant_short-repair": "Short game with repair tiles",
        # Colours: the players' trains, then the panels and the colour die.
        "colour_red": "red",
        "colour_blue": "blue",
        "colour_yellow": "yellow",
        "colour_green": "green",
        "colour_purple": "purple",
        "colour_cyan": "cyan",
        "colour_orange": "orange",
        # The letter on a train, so it reads without its colour.
        "letter_red": "R",
        "letter_blue": "B",
        "letter_yellow": "Y",
        "letter_green": "G",
        # Whose turn, the players.
        "to_move": "{name} to move",
        "game_over": "Game over",
        "full_game": "Three trains to Finish wins",
        "short_game": "Short game: two trains to Finish wins",
        "repair_variant": "with repair tiles",
        "depot": "{n} trains in the depot",
        "depot_one": "1 train in the depot",
        "on_board": "{n} on the board",
        "waiting": "{n} waiting to start",
        "repair_tiles": "{n} repair tiles",
        "repair_tiles_one": "1 repair tile",
        # The roll.
        "roll": "Roll",
        "colour_die": "colour die",
        "number_die": "number die",
        "white_die": "White die",
        "black_die": "Black die",
        "total": "{n} spaces",
        "total_one": "1 space",
        "doubles": "Doubles!",
        "roll_ask": "{name}: what did the dice show? Tap the colour die and each number die",
        "roll_wait": "Waiting for {name}'s roll",
        "send_roll": "Roll these",
        "repair_ask": "Or play a repair tile: move any panel instead of the colour die",
        "repair_to": "into {slot}",
        "repair_played": "Repair tile: the {panel} panel moved",
        # The moves.
        "moves": "Every move for this roll",
        "no_move": "No move is possible with this roll",
        "play_move": "Play this move",
        "pass": "Pass: no move possible",
        "doubles_again": "Doubles: roll again?",
        "doubles_again_help": "Roll again and move the same train, or end your turn",
        "end_turn": "End the turn",
        "undo": "Take the last turn back",
        "undo_no": "Nothing to take back",
        # The board.
        "board": "Board",
        "board_ours": "the companion's own board",
        "legend_start": "▢ Start",
        "legend_finish": "■ Finish",
        "legend_dead_end": "✖ dead end",
        # The end.
        "ranking": "Ranking",
        "winner": "{name} wins",
        # The turn at the table, when a camera follows it.
        "session": "At the table",
        "session_camera": "The camera cannot see",
        "session_help": "CONFIRM when the move is done, PASS when no move is possible, hold "
        "CONFIRM to take the last turn back",
    },
    "es": {
        "variant_short": "Partida corta: gana quien lleve dos trenes",
        "variant_repair": "Nivel extra: fichas de reparación",
        "variant_short-repair": "Partida corta con fichas de reparación",
        "colour_red": "rojo",
        "colour_blue": "azul",
        "colour_yellow": "amarillo",
        "colour_green": "verde",
        "colour_purple": "morado",
        "colour_cyan": "cian",
        "colour_orange": "naranja",
        "letter_red": "R",
        "letter_blue": "Az",
        "letter_yellow": "Am",
        "letter_green": "V",
        "to_move": "Le toca a {name}",
        "game_over": "Fin de la partida",
        "full_game": "Gana quien lleve tres trenes a la meta",
        "short_game": "Partida corta: gana quien lleve dos trenes a la meta",
        "repair_variant": "con fichas de reparación",
        "depot": "{n} trenes en el depósito",
        "depot_one": "1 tren en el depósito",
        "on_board": "{n} en el tablero",
        "waiting": "{n} esperando para salir",
        "repair_tiles": "{n} fichas de reparación",
        "repair_tiles_one": "1 ficha de reparación",
        "roll": "Tirada",
        "colour_die": "dado de color",
        "number_die": "dado de número",
        "white_die": "Dado blanco",
        "black_die": "Dado negro",
        "total": "{n} casillas",
        "total_one": "1 casilla",
        "doubles": "¡Dobles!",
        "roll_ask": "{name}: ¿qué han sacado los dados? Toca el dado de color y cada dado de "
        "número",
        "roll_wait": "Esperando la tirada de {name}",
        "send_roll": "Tirar esto",
        "repair_ask": "O juega una ficha de reparación: mueve cualquier panel en vez del dado "
        "de color",
        "repair_to": "a {slot}",
        "repair_played": "Ficha de reparación: se ha movido el panel {panel}",
        "moves": "Todas las jugadas con esta tirada",
        "no_move": "Con esta tirada no hay jugada posible",
        "play_move": "Hacer esta jugada",
        "pass": "Pasar: no hay jugada posible",
        "doubles_again": "Dobles: ¿tirar otra vez?",
        "doubles_again_help": "Tira otra vez y mueve el mismo tren, o termina tu turno",
        "end_turn": "Terminar el turno",
        "undo": "Deshacer el último turno",
        "undo_no": "No hay nada que deshacer",
        "board": "Tablero",
        "board_ours": "el tablero propio del compañero",
        "legend_start": "▢ Salida",
        "legend_finish": "■ Meta",
        "legend_dead_end": "✖ vía muerta",
        "ranking": "Clasificación",
        "winner": "Gana {name}",
        "session": "En la mesa",
        "session_camera": "La cámara no ve",
        "session_help": "CONFIRM cuando hayas movido, PASS si no hay jugada posible; mantén "
        "CONFIRM para deshacer el último turno",
    },
}

# Why the rules, the match or a request's check refused something, by the refusal's key
# (rules.py, match.py, commands.py, companion/games/names.py and requests.py), with its
# parameters and its English `message`: the English words are that message, the Spanish say
# it anew. The page says them as `refusal_<key>`.
REFUSALS: dict[str, dict[str, str]] = {
    "es": {
        "bad_turn": "{field} debe ser el número de turnos jugados hasta ahora, como lo "
        "muestra la página",
        "bad_flag": "{field} debe ser true o false",
        "bad_text": "{field} debe ser un texto corto",
        "bad_names": "{field} debe listar los nombres de los jugadores",
        "unknown_fields": "campos desconocidos: {fields}; esta petición admite {allowed}",
        "missing_fields": "faltan campos: {fields}",
        "name_not_text": "el nombre del jugador {player} debe ser un texto",
        "name_too_long": "el nombre del jugador {player} tiene {length} caracteres: un "
        "nombre tiene como mucho {most}",
        "name_control": "el nombre del jugador {player} tiene un carácter de control (un "
        "salto de línea, un tabulador…): escríbelo en una línea",
        "name_invisible": "el nombre del jugador {player} no muestra nada (solo espacios o "
        "caracteres invisibles): escribe un nombre que se pueda leer",
    },
}
REFUSALS["en"] = dict.fromkeys(REFUSALS["es"], "{message}")
TEXT = {
    lang: TEXT[lang] | {f"refusal_{key}": words for key, words in REFUSALS[lang].items()}
    for lang in LANGUAGES
}


def say(lang: str, key: str, **params: Any) -> str:
    """A word of the page in `lang` with its parameters, as the page's `t` says it: its
    `_one` form when the count `n` is 1."""
    words: Mapping[str, str] = TEXT[lang]
    template = words.get(f"{key}_one", words[key]) if params.get("n") == 1 else words[key]
    return template.format_map(params)
