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

from typing import Any

from companion.games.words import say as say_in
from companion.games.words import with_refusals

TEXT: dict[str, dict[str, str]] = {
    "en": {
        # The start form's names (`web.words.named_game`): the game, its board, variants.
        "game_name": "Switching tracks",
        "option_ours": "Our switching board (the companion's own)",
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
        # the camera's picture (drawing.py): a train, the dice beside the board
        "camera_train": "{colour} train",
        "camera_dice": "Dice: {colour} · {numbers}",
        "number_die": "number die",
        "first_die": "First die",
        "second_die": "Second die",
        "total": "{n} spaces",
        "total_one": "1 space",
        "doubles": "Doubles!",
        "roll_ask": "{name}: what did the dice show? Tap the colour die and each number die",
        "send_roll": "Roll these",
        "roll_by_hand": "The camera cannot read the dice? Type the roll in",
        "repair_ask": "Or play a repair tile instead of the colour die: slide one of these panels",
        "repair_panel": "repair tile: {panel}",
        # The moves.
        "moves": "Every move for this roll",
        "no_move": "No move is possible with this roll",
        "play_move": "Play this move",
        "pass": "Pass: no move possible",
        "doubles_again": "Doubles: roll again?",
        "reroll_train": "{name} may roll again and must move the train on {space} again; "
        "or end the turn",
        "reroll_enter": "{name} may roll again and enter the train that started over at a free "
        "Start; or end the turn",
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
        # The slide the roll makes (view.slide_text).
        "slide_repair": "{name} plays a repair tile.",
        "slide_slid": "The {panel} panel slides from {origin} into {slot}.",
        "slide_turned": "The {n} trains on it turn round to face Finish.",
        "slide_turned_one": "The train on it turns round to face Finish.",
        "slide_stayed": "The {panel} panel is not next to the empty slot: it stays.",
        # Where a train is, as a player finds it on the board (view.place): a panel by its
        # colour, a fixed track by the Start or Finish at its end and the board's side.
        "place_panel": "the {panel} panel",
        "place_start": "the {side} Start",
        "place_start_track": "the {side} Start track",
        "place_finish": "the {side} Finish",
        "place_finish_track": "the {side} Finish track",
        "place_track": "a track",
        "side_top": "top",
        "side_bottom": "bottom",
        "side_left": "left",
        "side_right": "right",
        # A slot of the board's middle by where it lies (a board's own slot ids otherwise).
        "slot_NW": "the top left slot",
        "slot_NE": "the top right slot",
        "slot_SW": "the bottom left slot",
        "slot_SE": "the bottom right slot",
        # A slot's mark on the drawn board: its compass point.
        "slot_mark_NW": "NW",
        "slot_mark_NE": "NE",
        "slot_mark_SW": "SW",
        "slot_mark_SE": "SE",
        # A move's bump chain, step by step, and the move in one sentence: each train, how
        # many spaces it goes, from where to where it stops.
        "step_moved": "{train} moves {n} spaces, from {origin} to {to}",
        "step_moved_one": "{train} moves 1 space, from {origin} to {to}",
        "step_moved_along": "{train} moves {n} spaces along {origin}",
        "step_moved_along_one": "{train} moves 1 space along {origin}",
        "step_stays": "{train} stays on {origin}: the train right ahead takes the count",
        "step_entered": "{train} enters at {origin} and runs {n} spaces to {to}",
        "step_entered_one": "{train} enters at {origin} and runs 1 space to {to}",
        "step_entered_stays": "{train} enters at {origin}",
        "step_bumped": "{train} is bumped {n} spaces, from {origin} to {to}",
        "step_bumped_one": "{train} is bumped 1 space, from {origin} to {to}",
        "step_bumped_along": "{train} is bumped {n} spaces along {origin}",
        "step_bumped_along_one": "{train} is bumped 1 space along {origin}",
        "move_bumps": "bumps {train} {n} spaces, from {origin} to {to}",
        "move_bumps_one": "bumps {train} 1 space, from {origin} to {to}",
        "move_bumps_along": "bumps {train} {n} spaces along {origin}",
        "move_bumps_along_one": "bumps {train} 1 space along {origin}",
        "fate_finished": "{train} reaches {space}: into the depot",
        "fate_dead_end": "{train} hits the dead end on {space} and starts over",
        "fate_off_track": "{train} runs off the track past {space} and starts over",
        "fate_finish": "{train} is bumped into {space} and starts over",
        "move_repair_taken": "{name} takes a repair tile",
        "move_may_roll_again": "doubles: {name} may roll again with this train",
        "move_won": "{name} wins!",
        "move_turn_lost": "no train can move: {name} loses the turn",
        # The game log, newest first.
        "log_roll": "turn {n}: {name} rolls {roll}",
        "log_roll_dice": "{colour}, {white} and {black}",
        "log_roll_repair": "a repair tile for the {panel} panel, {white} and {black}",
        "log_move": "turn {n}: {name}: {slide} Then {move}",
        "log_stop": "turn {n}: {name} does not roll again",
        "log_undone_roll": "turn {n} taken back: {player}'s roll ({roll})",
        "log_undone_move": "turn {n} taken back: {player}'s move from {from}",
        "log_undone_pass": "turn {n} taken back: {player}'s lost turn",
        "log_undone_stop": "turn {n} taken back: {player} not rolling again",
        # The turn at the table, when a camera follows it.
        "session": "At the table",
        "session_camera": "The camera cannot see",
        "session_help": "CONFIRM when the move is done, PASS when no move is possible, hold "
        "CONFIRM to take the last turn back",
        "session_dice": "{name}: throw the three dice beside the board",
        "session_dice_or_pass": "{name}: doubles! Throw again to move the same train, or "
        "press PASS",
        "session_move": "{name}: slide the panel, then move your train",
        "session_confirm": "The camera sees {name}'s move from {origin}: press CONFIRM",
        "session_panel_elsewhere": "the {panel} panel should lie in {slot}",
        "session_train_missing": "{name}'s {colour} train should stand on {space}",
        "session_train_extra": "a {colour} train stands on {space}, where the game has none",
        "session_train_facing": "the train on {space} faces the wrong way: turn it towards Finish",
        "session_moves_alike": "the board looks the same after the moves from {moves}: tap "
        "the one played on the page",
        # What the camera could not see in a frame (vision/reader.py's problems).
        "session_no_image": "no usable image came from the camera",
        "session_frame_tiny": "the frame is only {width}x{height} pixels",
        "session_too_dark": "the picture is almost black: is the light on and the lens uncovered?",
        "session_overexposed": "the picture is overexposed: dim the light or lower the "
        "camera's exposure",
        "session_markers_hidden_one": "board marker {markers} not seen: is something lying on it?",
        "session_markers_hidden": "board markers {markers} not seen: is something lying on them?",
        "session_no_board": "cannot place the board: fewer than two of its corner markers "
        "are visible",
        "session_table_markers_hidden_one": "table marker {markers} not seen: is something "
        "lying on it?",
        "session_table_markers_hidden": "table markers {markers} not seen: is something "
        "lying on them?",
        "session_no_table": "cannot place the table: fewer than two of its markers are visible",
        "session_board_unfound": "the board is not found among the table's markers: is it on "
        "the table, uncovered?",
        "session_frame_unread": "this frame could not be read ({error})",
        "session_panels_unsure": "the panels could not all be read: is a hand over them?",
        "session_spaces_unseen": "{n} spaces could not be seen: is something lying on them?",
        "session_spaces_unseen_one": "1 space could not be seen: is something lying on it?",
        "session_dice_unsure": "the dice could not be read: are all three beside the board, "
        "apart, with no hand over them?",
        "session_no_colour": "the picture has no colour, and the panels, trains and dice are "
        "told by their colour: switch the camera's colour on or use a colour camera",
        "session_glare": "a reflection hides part of the table: move the lamp or tilt the camera",
        "session_box_untaught": "the box taught at this table is not the one this game is "
        "played on: teach this board again in “Set up the table”, or start a new game",
    },
    "es": {
        "game_name": "Cambio de vías",
        "option_ours": "Nuestro tablero de cambio de vías (el del compañero)",
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
        "camera_train": "tren {colour}",
        "camera_dice": "Dados: {colour} · {numbers}",
        "number_die": "dado de número",
        "first_die": "Primer dado",
        "second_die": "Segundo dado",
        "total": "{n} casillas",
        "total_one": "1 casilla",
        "doubles": "¡Dobles!",
        "roll_ask": "{name}: ¿qué han sacado los dados? Toca el dado de color y cada dado de "
        "número",
        "send_roll": "Tirar esto",
        "roll_by_hand": "¿La cámara no lee los dados? Escribe la tirada",
        "repair_ask": "O juega una ficha de reparación en vez del dado de color: desliza uno "
        "de estos paneles",
        "repair_panel": "ficha de reparación: {panel}",
        "moves": "Todas las jugadas con esta tirada",
        "no_move": "Con esta tirada no hay jugada posible",
        "play_move": "Hacer esta jugada",
        "pass": "Pasar: no hay jugada posible",
        "doubles_again": "Dobles: ¿tirar otra vez?",
        "reroll_train": "{name} puede tirar otra vez y debe mover otra vez el tren que está "
        "en {space}; o terminar el turno",
        "reroll_enter": "{name} puede tirar otra vez y sacar el tren que volvió a empezar por una "
        "salida libre; o terminar el turno",
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
        "slide_repair": "{name} juega una ficha de reparación.",
        "slide_slid": "El panel {panel} se desliza desde {origin} hasta {slot}.",
        "slide_turned": "Los {n} trenes que lleva se giran hacia la meta.",
        "slide_turned_one": "El tren que lleva se gira hacia la meta.",
        "slide_stayed": "El panel {panel} no está junto al hueco vacío: se queda.",
        "place_panel": "el panel {panel}",
        "place_start": "la Salida de {side}",
        "place_start_track": "la vía de la Salida de {side}",
        "place_finish": "la Meta de {side}",
        "place_finish_track": "la vía de la Meta de {side}",
        "place_track": "una vía",
        "side_top": "arriba",
        "side_bottom": "abajo",
        "side_left": "la izquierda",
        "side_right": "la derecha",
        "slot_NW": "el hueco de arriba a la izquierda",
        "slot_NE": "el hueco de arriba a la derecha",
        "slot_SW": "el hueco de abajo a la izquierda",
        "slot_SE": "el hueco de abajo a la derecha",
        "slot_mark_NW": "NO",
        "slot_mark_NE": "NE",
        "slot_mark_SW": "SO",
        "slot_mark_SE": "SE",
        "step_moved": "el {train} avanza {n} casillas, desde {origin} hasta {to}",
        "step_moved_one": "el {train} avanza 1 casilla, desde {origin} hasta {to}",
        "step_moved_along": "el {train} avanza {n} casillas por {origin}",
        "step_moved_along_one": "el {train} avanza 1 casilla por {origin}",
        "step_stays": "el {train} se queda en {origin}: el tren de delante se lleva la cuenta",
        "step_entered": "el {train} sale en {origin} y avanza {n} casillas hasta {to}",
        "step_entered_one": "el {train} sale en {origin} y avanza 1 casilla hasta {to}",
        "step_entered_stays": "el {train} sale en {origin}",
        "step_bumped": "el {train} es empujado {n} casillas, desde {origin} hasta {to}",
        "step_bumped_one": "el {train} es empujado 1 casilla, desde {origin} hasta {to}",
        "step_bumped_along": "el {train} es empujado {n} casillas por {origin}",
        "step_bumped_along_one": "el {train} es empujado 1 casilla por {origin}",
        "move_bumps": "empuja al {train} {n} casillas, desde {origin} hasta {to}",
        "move_bumps_one": "empuja al {train} 1 casilla, desde {origin} hasta {to}",
        "move_bumps_along": "empuja al {train} {n} casillas por {origin}",
        "move_bumps_along_one": "empuja al {train} 1 casilla por {origin}",
        "fate_finished": "el {train} llega a {space}: al depósito",
        "fate_dead_end": "el {train} choca con la vía muerta en {space} y vuelve a empezar",
        "fate_off_track": "el {train} se sale de la vía tras {space} y vuelve a empezar",
        "fate_finish": "el {train} entra empujado en {space} y vuelve a empezar",
        "move_repair_taken": "{name} se lleva una ficha de reparación",
        "move_may_roll_again": "dobles: {name} puede tirar otra vez con este tren",
        "move_won": "¡gana {name}!",
        "move_turn_lost": "ningún tren puede moverse: {name} pierde el turno",
        "log_roll": "turno {n}: {name} tira {roll}",
        "log_roll_dice": "{colour}, {white} y {black}",
        "log_roll_repair": "una ficha de reparación para el panel {panel}, {white} y {black}",
        "log_move": "turno {n}: {name}: {slide} Después, {move}",
        "log_stop": "turno {n}: {name} no vuelve a tirar",
        "log_undone_roll": "se deshace el turno {n}: la tirada de {player} ({roll})",
        "log_undone_move": "se deshace el turno {n}: la jugada de {player} desde {from}",
        "log_undone_pass": "se deshace el turno {n}: el turno perdido de {player}",
        "log_undone_stop": "se deshace el turno {n}: {player} no volvía a tirar",
        "session": "En la mesa",
        "session_camera": "La cámara no ve",
        "session_help": "CONFIRM cuando hayas movido, PASS si no hay jugada posible; mantén "
        "CONFIRM para deshacer el último turno",
        "session_dice": "{name}: tira los tres dados junto al tablero",
        "session_dice_or_pass": "{name}: ¡dobles! Tira otra vez para mover el mismo tren, o "
        "pulsa PASS",
        "session_move": "{name}: desliza el panel y mueve tu tren",
        "session_confirm": "La cámara ve la jugada de {name} desde {origin}: pulsa CONFIRM",
        "session_panel_elsewhere": "el panel {panel} debería estar en {slot}",
        "session_train_missing": "el tren {colour} de {name} debería estar en {space}",
        "session_train_extra": "hay un tren {colour} en {space}, donde la partida no tiene ninguno",
        "session_train_facing": "el tren que está en {space} mira al revés: gíralo hacia la meta",
        "session_moves_alike": "el tablero queda igual tras las jugadas desde {moves}: toca "
        "en la página la que se ha hecho",
        "session_no_image": "la cámara no da ninguna imagen útil",
        "session_frame_tiny": "la imagen solo tiene {width}x{height} píxeles",
        "session_too_dark": "la imagen está casi negra: ¿hay luz y está destapado el objetivo?",
        "session_overexposed": "la imagen está sobreexpuesta: baja la luz o la exposición de "
        "la cámara",
        "session_markers_hidden_one": "no se ve el marcador {markers} del tablero: ¿hay algo "
        "encima?",
        "session_markers_hidden": "no se ven los marcadores {markers} del tablero: ¿hay algo "
        "encima?",
        "session_no_board": "no se puede situar el tablero: se ven menos de dos de sus "
        "marcadores de esquina",
        "session_table_markers_hidden_one": "no se ve el marcador {markers} de la mesa: ¿hay "
        "algo encima?",
        "session_table_markers_hidden": "no se ven los marcadores {markers} de la mesa: ¿hay "
        "algo encima?",
        "session_no_table": "no se puede situar la mesa: se ven menos de dos de sus marcadores",
        "session_board_unfound": "no se encuentra el tablero entre los marcadores de la mesa: "
        "¿está sobre la mesa, destapado?",
        "session_frame_unread": "esta imagen no se ha podido leer ({error})",
        "session_panels_unsure": "no se han podido leer todos los paneles: ¿hay una mano encima?",
        "session_spaces_unseen": "no se han podido ver {n} casillas: ¿hay algo encima?",
        "session_spaces_unseen_one": "no se ha podido ver 1 casilla: ¿hay algo encima?",
        "session_dice_unsure": "no se han podido leer los dados: ¿están los tres junto al "
        "tablero, separados y sin ninguna mano encima?",
        "session_no_colour": "la imagen no tiene color, y los paneles, los trenes y los dados "
        "se distinguen por su color: activa el color de la cámara o usa una cámara en color",
        "session_glare": "un reflejo tapa parte de la mesa: mueve la lámpara o inclina la cámara",
        "session_box_untaught": "la caja enseñada en esta mesa no es aquella con la que se "
        "juega esta partida: vuelve a enseñar este tablero en «Preparar la mesa», o empieza "
        "una partida nueva",
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
        "stale": "la mesa ha seguido: ya van {turn} pasos; vuelve a mirar la mesa",
        "players_count": "el juego es para 2 a 4 jugadores, no {n}",
        "no_board": "no existe el tablero {board}",
        "box_unreadable": "no se puede jugar en el tablero de la caja enseñada: {error}",
        "no_variant": "no existe la variante {variant}: usa {variants}",
        "no_camera": "ninguna cámara sigue esta mesa: escribe los dados y la jugada en la página",
        "nothing_to_confirm": "no hay nada que confirmar: tira los dados, desliza el panel y "
        "mueve tu tren; mantén CONFIRM para deshacer el último paso",
        "nothing_to_undo": "aún no se ha jugado nada: no hay nada que deshacer",
        "roll_first": "primero tira los dados: la jugada se cuenta con los dados de número",
        "rolled_already": "los dados ya están leídos: mueve un tren, o deshaz la tirada para "
        "leerla otra vez",
        "bad_dice": "{field} debe listar los dos dados de número, cada uno de 1 a 6, como [3, 4]",
        "colour_or_repair": "indica el color del dado de color o el panel que desliza una "
        "ficha de reparación (repair), no los dos",
        "not_a_panel": "{panel} no es el color de un panel: los paneles son morado, cian y naranja",
        # The rules' (rules.RuleError): the parameters that name a colour are the rules'
        # English ids, so the Spanish does without them.
        "no_colour": "{colour} no es un color de tren: los colores son rojo, azul, amarillo "
        "y verde",
        "same": "dos jugadores tienen el mismo color: dale a cada uno el suyo",
        "no_panel": "{panel} no es un panel: los paneles son morado, cian y naranja",
        "to_win": "una partida se gana con 1 a 3 trenes",
        "over": "la partida ha terminado: ya hay un ganador",
        "bad_die": "cada dado de número muestra de 1 a 6",
        "bad_colour": "el dado de color muestra el color de un panel (morado, cian o "
        "naranja), no {colour}",
        "no_repairs": "esta partida se juega sin fichas de reparación (el nivel extra)",
        "no_repair_tile": "no te queda ninguna ficha de reparación: tira el dado de color",
        "repair_and_colour": "la ficha de reparación se juega en vez del dado de color: tira "
        "solo los dados de número",
        "repair_not_slidable": "ese panel no está junto al hueco vacío: una ficha de "
        "reparación mueve un panel que esté junto a él",
        "no_space": "este tablero no tiene la casilla {space}",
        "reroll_same_train": "tras los dobles se vuelve a mover el mismo tren (o, si volvió a "
        "empezar, se saca por una salida libre)",
        "not_yours": "el tren de {space} no es tuyo: mueve uno de los tuyos",
        "no_train": "no hay ningún tren en {space}: mueve uno de tus trenes o saca uno por "
        "una salida libre",
        "none_to_enter": "no te queda ningún tren por sacar: los tres están en el tablero o "
        "en la meta",
        "may_move": "aún se puede mover un tren: solo se pierde el turno cuando ningún tren "
        "puede moverse ni salir",
        "no_reroll": "no hay ninguna tirada extra que rechazar: tira los dados",
    },
}
TEXT = with_refusals(TEXT, REFUSALS)


def say(lang: str, key: str, **params: Any) -> str:
    """A word of the page in `lang` with its parameters, as the page's `t` says it."""
    return say_in(TEXT[lang], key, **params)
