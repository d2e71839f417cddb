"""Yardmaster Express's words in English and Spanish (`LANGUAGES`): what its page (page/)
and its view say, the game log's lines, the caboose cards' conditions, and why the rules or
the table refused something (`refusal_<key>`, the keys of match.py, commands.py and the
shared checks of names and fields). The page's shell has its own (web/words.py); the server
hands the page both in one table, so the JavaScript holds no text of its own.

The view (view.py) says some sentences itself (the log, a way that does not join, what
decided the ranking, a caboose card's condition) with `say`, which picks a word's `_one`
form when its count is 1, as the page's `t` does.
"""

from __future__ import annotations

from typing import Any

from companion.games.words import say as say_in
from companion.games.words import with_advisor, with_refusals

# A word whose count `{n}` changes it has a second form, `<key>_one`, said when the count
# is 1; both languages have the same keys and the same {parameters} (a test checks both).
TEXT: dict[str, dict[str, str]] = {
    "en": {
        "variant_caboose": "With a caboose card",
        "variant_strategic": "Strategic: two games",
        "variant_strategic-caboose": "Strategic, with a caboose card",
        "trains": "Trains",
        "to_move": "{name} to move",
        "game_over": "Game over",
        "round_of": "Round {round} of {rounds}",
        "rounds_after": "{n} more rounds after this one",
        "rounds_after_one": "1 more round after this one",
        "last_round": "last round",
        "draw_left": "{n} cards left to draw",
        "draw_left_one": "1 card left to draw",
        "start_player": "start player",
        "engine": "Engine",
        "face_down": "face down",
        "turned": "turned",
        "newest": "added last",
        "score": "{n} points",
        "score_one": "1 point",
        "train_value": "train {n}",
        "longest_run": "longest run {n}",
        "run_bonus": "longest-run bonus +{n}",
        "no_run_bonus": "no longest-run bonus",
        "caboose_met": "caboose +{n}",
        "caboose_not_met": "caboose not met",
        "carried": "first game +{n}",
        "longest_in_game": "Longest run in the game: {n}",
        "longest_in_game_none": "No run yet: no train shows a railcar",
        "caboose": "Caboose card",
        "caboose_points": "+{n} points to every train that has",
        "caboose_points_one": "+1 point to every train that has",
        "hand": "{name}'s hand, with the card drawn: tap a way to add it",
        "choices": "Which card did {name} add? Tap the way it lies",
        "add_face_down": "A card face down",
        "way_printed": "As printed",
        "way_turned": "Turned",
        "way_face_down": "Face down",
        "draw_empty": "The draw deck is empty: a card must be drawn first",
        "undo": "Take back the last card",
        "undo_no": "No card to take back",
        "ranking": "Ranking",
        "winner": "{name} wins",
        "strategic": "Strategic variant: game {n} of 2",
        "totals": "Totals of the two games",
        "first_game": "Game 1",
        "second_game": "Game 2",
        "total": "Total",
        "second_due": "The first game is over: {name} starts the second, and the hand goes "
        "the other way round",
        "next_game": "Deal the second game",
        # A railcar said in words: colour and value.
        "railcar": "{colour} {value}",
        # A train in words (`train_words`): its engine, then each card, a card face down
        # unnamed, one the camera cannot read as a question mark.
        "engine_said": "engine",
        "face_down_said": "a card face down",
        "unread": "a card the camera cannot read",
        # the camera's picture (drawing.py), written on cards a few centimetres wide: a
        # railcar card as its colours' initials and values ("R1 · B3")
        "camera_railcar": "{initial}{value}",
        "camera_face_down": "face down",
        "camera_unread": "?",
        "colour_red": "red",
        "colour_blue": "blue",
        "colour_yellow": "yellow",
        "colour_green": "green",
        "colour_purple": "purple",
        # The initial a railcar shows for its colour (the colour's word's first letters).
        "initial_red": "R",
        "initial_blue": "B",
        "initial_yellow": "Y",
        "initial_green": "G",
        "initial_purple": "P",
        # Why a way is greyed (Y-5), as the view says it.
        "why_no_join": "does not join: {left} after {right}, neither colour nor value matches",
        # What decided the ranking (Y-10, Y-11).
        "decided_score": "decided by the most points",
        "decided_seat": "a tie on {points} points: {name} moves latest in a round, and wins it",
        # A caboose card's condition (Y-12).
        "cond_run": "a run of at least {n} railcars of one colour",
        "cond_run_one": "at least 1 railcar",
        "cond_run_colour": "a run of at least {n} {colour} railcars",
        "cond_run_colour_one": "at least 1 {colour} railcar",
        "cond_colours": "railcars of at least {n} different colours",
        "cond_colours_one": "at least 1 railcar",
        "cond_cargo": "at least {n} {colour} railcars",
        "cond_cargo_one": "at least 1 {colour} railcar",
        "cond_face_down_max": "at most {n} cards face down",
        "cond_face_down_max_one": "at most 1 card face down",
        "cond_no_face_down": "no card face down",
        "cond_face_down_min": "at least {n} cards face down",
        "cond_face_down_min_one": "at least 1 card face down",
        "cond_face_down_between": "between {min} and {max} cards face down",
        "cond_value": "a train worth at least {n} points",
        "cond_value_one": "a train worth at least 1 point",
        # The game log, newest first.
        "log_add": "turn {n}: {name} adds {card}",
        "log_add_turned": "turn {n}: {name} adds {card}, turned",
        "log_add_face_down": "turn {n}: {name} adds a card face down",
        "log_taken_back": "turn {n} taken back: {name}'s {card}",
        "log_taken_back_face_down": "turn {n} taken back: {name}'s card face down",
        "log_over": "game over, won by {name} ({decided})",
        "log_first_over": "the first game is over: {name} starts the second",
        # The turn at the table, when a camera follows it (the view's "session"); what the
        # camera says as a key, `session_<key>`, or a refusal's key, `refusal_<key>`.
        "session": "At the table",
        "session_add": "{name}: add your card to your train",
        "session_taken": "The camera took {name}'s {card}: press CONFIRM",
        "session_camera": "The camera cannot see",
        "session_help": "Add your card to your train; CONFIRM acknowledges it, hold CONFIRM "
        "to take the last card back",
        "session_lay_engines": "the camera sees {seen} trains for {players} players: lay "
        "every player's engine card in front of them",
        "session_too_many_trains": "the camera sees {seen} trains for {players} players: take "
        "away what is not a player's train",
        "session_camera_unsure": "the camera is not sure of a card in {name}'s train: "
        "straighten it or move hands and shadows away",
        "session_not_the_movers_train": "a card lies in a train that is not the player to "
        "move's: take it back",
        "session_train_longer": "{name}'s train shows {seen}, the game has {game}: take back "
        "the cards the game does not have",
        "session_train_shorter": "{name}'s train shows {seen}, the game has {game}: lay the "
        "missing cards back, or hold CONFIRM to take the last card back in the game",
        "session_train_differs": "{name}'s train shows {seen}, the game has {game}: lay the "
        "train as the game has it",
        "session_take_back": "{card} was taken back: take it off {name}'s train",
        "session_loose_cards": "{n} cards lie apart from every train: lay each card against "
        "the end of its train",
        "session_loose_cards_one": "1 card lies apart from every train: lay it against the "
        "end of its train",
        # What the camera could not see in a frame (vision/reader.py's problems).
        "session_no_image": "the camera gives no picture that can be used",
        "session_frame_tiny": "the picture is only {width}x{height} pixels",
        "session_too_dark": "the picture is almost black: is there light, and is the lens "
        "uncovered?",
        "session_overexposed": "the picture is overexposed: lower the light or the camera's "
        "exposure",
        "session_glare": "a reflection hides part of the table: move the lamp or tilt the camera",
        "session_markers_hidden": "table markers not seen ({markers}): is something lying on them?",
        "session_no_table": "cannot place the table: fewer than two markers are visible",
        "session_too_coarse": "the camera sees the table too coarsely ({per_cm} pixels a "
        "centimetre, at least {least} are needed): bring the camera nearer the table or "
        "choose a larger picture size",
        "session_frame_unread": "this picture could not be read ({error})",
        "session_cards_unsure": "{n} cards could not be read surely: is something lying on them?",
        "session_cards_unsure_one": "1 card could not be read surely: is something lying on it?",
        "session_no_colour": "the picture has no colour, and a railcar's cargo is told by its "
        "colour: switch the camera's colour on or use a colour camera",
    },
    "es": {
        "variant_caboose": "Con una carta de furgón",
        "variant_strategic": "Estratégica: dos partidas",
        "variant_strategic-caboose": "Estratégica, con una carta de furgón",
        "trains": "Trenes",
        "to_move": "Le toca a {name}",
        "game_over": "Fin de la partida",
        "round_of": "Ronda {round} de {rounds}",
        "rounds_after": "quedan {n} rondas después de esta",
        "rounds_after_one": "queda 1 ronda después de esta",
        "last_round": "última ronda",
        "draw_left": "quedan {n} cartas en el mazo",
        "draw_left_one": "queda 1 carta en el mazo",
        "start_player": "jugador inicial",
        "engine": "Locomotora",
        "face_down": "boca abajo",
        "turned": "girada",
        "newest": "la última puesta",
        "score": "{n} puntos",
        "score_one": "1 punto",
        "train_value": "tren {n}",
        "longest_run": "carga más larga {n}",
        "run_bonus": "bonus de carga más larga +{n}",
        "no_run_bonus": "sin bonus de carga más larga",
        "caboose_met": "furgón +{n}",
        "caboose_not_met": "furgón no cumplido",
        "carried": "primera partida +{n}",
        "longest_in_game": "Carga más larga de la partida: {n}",
        "longest_in_game_none": "Aún no hay cargas: ningún tren muestra un vagón",
        "caboose": "Carta de furgón",
        "caboose_points": "+{n} puntos para cada tren que tenga",
        "caboose_points_one": "+1 punto para cada tren que tenga",
        "hand": "Mano de {name}, con la carta robada: toca una forma de ponerla",
        "choices": "¿Qué carta ha puesto {name}? Toca cómo está",
        "add_face_down": "Una carta boca abajo",
        "way_printed": "Tal cual",
        "way_turned": "Girada",
        "way_face_down": "Boca abajo",
        "draw_empty": "El mazo está vacío: primero hay que robar una carta",
        "undo": "Quitar la última carta",
        "undo_no": "No hay ninguna carta que quitar",
        "ranking": "Clasificación",
        "winner": "Gana {name}",
        "strategic": "Variante estratégica: partida {n} de 2",
        "totals": "Totales de las dos partidas",
        "first_game": "Partida 1",
        "second_game": "Partida 2",
        "total": "Total",
        "second_due": "La primera partida ha terminado: {name} empieza la segunda, y la mano "
        "va en el otro sentido",
        "next_game": "Repartir la segunda partida",
        "railcar": "{colour} {value}",
        "engine_said": "locomotora",
        "face_down_said": "una carta boca abajo",
        "unread": "una carta que la cámara no lee",
        "camera_railcar": "{initial}{value}",
        "camera_face_down": "boca abajo",
        "camera_unread": "?",
        "colour_red": "rojo",
        "colour_blue": "azul",
        "colour_yellow": "amarillo",
        "colour_green": "verde",
        "colour_purple": "morado",
        "initial_red": "R",
        "initial_blue": "Az",
        "initial_yellow": "Am",
        "initial_green": "V",
        "initial_purple": "M",
        "why_no_join": "no encaja: {left} tras {right}, no coincide ni el color ni el valor",
        "decided_score": "decidido por la puntuación más alta",
        "decided_seat": "empate a {points} puntos: {name} juega el último de la ronda, y gana",
        "cond_run": "una carga de al menos {n} vagones de un mismo color",
        "cond_run_one": "al menos 1 vagón",
        "cond_run_colour": "una carga de al menos {n} vagones de color {colour}",
        "cond_run_colour_one": "al menos 1 vagón de color {colour}",
        "cond_colours": "vagones de al menos {n} colores distintos",
        "cond_colours_one": "al menos 1 vagón",
        "cond_cargo": "al menos {n} vagones de color {colour}",
        "cond_cargo_one": "al menos 1 vagón de color {colour}",
        "cond_face_down_max": "como mucho {n} cartas boca abajo",
        "cond_face_down_max_one": "como mucho 1 carta boca abajo",
        "cond_no_face_down": "ninguna carta boca abajo",
        "cond_face_down_min": "al menos {n} cartas boca abajo",
        "cond_face_down_min_one": "al menos 1 carta boca abajo",
        "cond_face_down_between": "entre {min} y {max} cartas boca abajo",
        "cond_value": "un tren que valga al menos {n} puntos",
        "cond_value_one": "un tren que valga al menos 1 punto",
        "log_add": "turno {n}: {name} pone {card}",
        "log_add_turned": "turno {n}: {name} pone {card}, girada",
        "log_add_face_down": "turno {n}: {name} pone una carta boca abajo",
        "log_taken_back": "se deshace el turno {n}: {card} de {name}",
        "log_taken_back_face_down": "se deshace el turno {n}: la carta boca abajo de {name}",
        "log_over": "fin de la partida, gana {name} ({decided})",
        "log_first_over": "la primera partida ha terminado: {name} empieza la segunda",
        "session": "En la mesa",
        "session_add": "{name}: pon tu carta en tu tren",
        "session_taken": "La cámara ha visto {card} en el tren de {name}: pulsa CONFIRM",
        "session_camera": "La cámara no ve",
        "session_help": "Pon tu carta en tu tren; CONFIRM la da por buena, mantén CONFIRM "
        "para quitar la última carta",
        "session_lay_engines": "la cámara ve {seen} trenes para {players} jugadores: pon la "
        "locomotora de cada jugador delante de él",
        "session_too_many_trains": "la cámara ve {seen} trenes para {players} jugadores: "
        "quita lo que no sea el tren de un jugador",
        "session_camera_unsure": "la cámara no está segura de una carta del tren de {name}: "
        "enderézala o aparta manos y sombras",
        "session_not_the_movers_train": "hay una carta en un tren que no es el del jugador al "
        "que le toca: quítala",
        "session_train_longer": "el tren de {name} muestra {seen}, la partida tiene {game}: "
        "quita las cartas que la partida no tiene",
        "session_train_shorter": "el tren de {name} muestra {seen}, la partida tiene {game}: "
        "vuelve a poner las cartas que faltan, o mantén CONFIRM para quitar la última carta "
        "de la partida",
        "session_train_differs": "el tren de {name} muestra {seen}, la partida tiene {game}: "
        "pon el tren como lo tiene la partida",
        "session_take_back": "{card} se ha quitado: quítala del tren de {name}",
        "session_loose_cards": "hay {n} cartas sueltas, fuera de los trenes: pon cada una al "
        "final de su tren",
        "session_loose_cards_one": "hay 1 carta suelta, fuera de los trenes: ponla al final "
        "de su tren",
        "session_no_image": "la cámara no da ninguna imagen útil",
        "session_frame_tiny": "la imagen solo tiene {width}x{height} píxeles",
        "session_too_dark": "la imagen está casi negra: ¿hay luz y está destapado el objetivo?",
        "session_overexposed": "la imagen está sobreexpuesta: baja la luz o la exposición de "
        "la cámara",
        "session_glare": "un reflejo tapa parte de la mesa: mueve la lámpara o inclina la cámara",
        "session_markers_hidden": "no se ven marcadores de la mesa ({markers}): ¿hay algo encima?",
        "session_no_table": "no se puede situar la mesa: se ven menos de dos marcadores",
        "session_too_coarse": "la cámara ve la mesa con muy poco detalle ({per_cm} píxeles por "
        "centímetro, hacen falta al menos {least}): acerca la cámara a la mesa o elige un "
        "tamaño de imagen mayor",
        "session_frame_unread": "esta imagen no se ha podido leer ({error})",
        "session_cards_unsure": "{n} cartas no se han podido leer con seguridad: ¿hay algo encima?",
        "session_cards_unsure_one": "1 carta no se ha podido leer con seguridad: ¿hay algo encima?",
        "session_no_colour": "la imagen no tiene color, y la carga de un vagón se distingue por "
        "su color: activa el color de la cámara o usa una cámara en color",
    },
}

# Why the rules, the match or a request's check refused something, by the refusal's key
# (match.py, commands.py, companion/games/names.py and requests.py), with its parameters
# and its English `message`: the English words are that message, the Spanish say it anew.
# The page says them as `refusal_<key>`.
REFUSALS: dict[str, dict[str, str]] = {
    # English: the refusals whose message names cards by their codes, said anew in words.
    "en": {
        "not_in_hand": "{card} is not in the hand: the hand holds {hand}",
        "no_join": "{card} does not join {last}: its left railcar must match the last card's "
        "right railcar in colour or value; turn it, lay it face down or add another card",
        "card_twice": "{card} is already in a train: each card is in the deck once; look at "
        "the card again",
    },
    "es": {
        "bad_seat": "{field} debe ser un número de asiento, 0 para el primer jugador",
        "bad_turn": "{field} debe ser el número de cartas puestas hasta ahora, como lo "
        "muestra la página (0 antes de la primera)",
        "bad_card": '{field} debe ser el código de una carta tal como está impresa, como "R3-B2"',
        "stale": "la mesa ha seguido: ya hay {turn} cartas puestas; vuelve a mirar la mesa",
        "not_your_turn": "le toca a {name}: solo pone carta quien tiene la mano",
        "game_over": "la partida ha terminado: ya se han jugado todas las rondas",
        "not_in_hand": "{card} no está en la mano: la mano tiene {hand}",
        "no_join": "{card} no encaja con {last}: su vagón izquierdo debe coincidir en color "
        "o en valor con el vagón derecho de la última carta; gírala, ponla boca abajo o pon "
        "otra carta",
        "face_down_turned": "una carta boca abajo no tiene lados que girar: ponla boca abajo "
        "o girada",
        "draw_empty": "el mazo está vacío: primero hay que robar una carta",
        "card_twice": "{card} ya está en un tren: cada carta está una sola vez en el mazo; "
        "vuelve a mirar la carta",
        "name_the_card": "di qué carta se ha puesto: el compañero repartió esta partida y "
        "conoce la mano",
        "nothing_to_undo": "aún no se ha puesto ninguna carta: no hay nada que quitar",
        "no_second_game": "la segunda partida se reparte cuando termina la primera de la "
        "variante estratégica",
        "players_count": "Yardmaster Express es para {least} a {most} jugadores, no {n}",
        "no_edition": "no existe la edición {edition} de Yardmaster Express",
        "no_variant": "no existe la variante {variant}: elige ninguna o {variants}",
        "no_camera": "ninguna cámara sigue esta mesa: pon cada carta en la página",
        "nothing_to_confirm": "no hay nada que confirmar: pon tu carta en tu tren; mantén "
        "CONFIRM para quitar la última carta",
    },
}
TEXT = with_refusals(TEXT, REFUSALS)

# The private advisor's words for a Yardmaster Express hand (page/advisor.js draws the
# advice): the page gets them as `advisor_<key>` (`with_advisor`), the advisor's page as
# `<key>`.
ADVISOR: dict[str, dict[str, str]] = {
    "en": {
        "railcars": "Railcar cards",
        "train_value": "your train now: {score} points, longest run {run}",
        "reason_most_points": "the most points for your train",
        "reason_longest_run": "the most points, and the longer cargo run",
        "score": "score {before} → {after}",
        "run": "longest cargo run {before} → {after}",
        "way_up": "face up",
        "way_turned": "turned",
        "way_down": "face down",
    },
    "es": {
        "railcars": "Cartas de vagones",
        "train_value": "tu tren ahora: {score} puntos, fila más larga {run}",
        "reason_most_points": "los más puntos para tu tren",
        "reason_longest_run": "los más puntos y la fila de carga más larga",
        "score": "puntos {before} → {after}",
        "run": "fila de carga más larga {before} → {after}",
        "way_up": "boca arriba",
        "way_turned": "girada",
        "way_down": "boca abajo",
    },
}

TEXT = with_advisor(TEXT, ADVISOR)

# Our edition's caboose cards by the name its file and the records give them, in the other
# languages; a family's own card (an edition file of theirs) keeps the name it was given.
CABOOSE_NAMES: dict[str, dict[str, str]] = {
    "es": {
        "Oil baron": "Barón del petróleo",
        "Long haul": "Largo recorrido",
        "Express run": "Carga exprés",
        "Red line": "Línea roja",
        "Blue line": "Línea azul",
        "Green line": "Línea verde",
        "Oil line": "Línea del petróleo",
        "Mixed freight": "Mercancías variadas",
        "Every colour": "Todos los colores",
        "Open cars": "Vagones abiertos",
        "Sealed wagons": "Vagones precintados",
        "Heavy load": "Carga pesada",
    },
}


def caboose_name(name: str, lang: str) -> str:
    """A caboose card's name as the page in `lang` says it."""
    return CABOOSE_NAMES.get(lang, {}).get(name, name)


def say(lang: str, key: str, **params: Any) -> str:
    """A word of the page in `lang` with its parameters, as the page's `t` says it."""
    return say_in(TEXT[lang], key, **params)
