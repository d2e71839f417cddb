"""The Caboose design's words in English and Spanish (`LANGUAGES`): what its page (page/),
its view and its referee at the table say. The page's shell has its own (web/words.py: the
PIN, the start form, records, the live stream); the server hands the page both in one table
of words, so the JavaScript never holds any text of its own. The game log's lines come
from `turn_log.py`, in the words of `LOG` below. What the referee at the table says
(`companion.games.caboose.follow`), what the camera could not see (`vision/problems.py`)
and why the engine or the table refused something (`RuleError`, `TableError`) are kept as
keys and parameters, and said here in the page's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.follow_messages import MESSAGES, say
from companion.games.caboose.rules.state import (
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
)
from companion.games.caboose.vision.problems import PROBLEMS
from companion.games.protocol import LANGUAGES
from companion.games.words import with_advisor

# A word whose count changes it has a second form, `<key>_one`, which the page says when the
# count `{n}` is 1 ("1 card", "1 carta", "1 punto"); both languages have the same keys.
TEXT: dict[str, dict[str, str]] = {
    "en": {
        "railway": "Railway",
        "schematic": "schematic: where the cards lie is not known",
        "back": "back",
        "front": "front",
        "to_move": "{name} to move",
        "draw_left": "{n} cards left to draw",
        "draw_left_one": "1 card left to draw",
        "hand_size": "{n} in hand",
        "game_over": "Game over",
        "variant_solo": "Solo",
        "variant_solo-hard": "Solo, hard: the 4th derailment loses",
        "variant_solo-laura": "Solo against Laura",
        "your_turn": "{name}: what happened?",
        "hand": "Cards in hand, with the card drawn this turn",
        "plays": "Plays you can make",
        "pass": "Pass",
        "chaos": "Discard {cards}",
        "laura": "Laura's turn: {action}",
        "laura_do": "Do it",
        "laura_pass": "she passes",
        "laura_play": "she plays {cards}",
        "laura_chaos": "she discards {cards}",
        "dice_to_roll": "Roll {n} dice",
        "dice_to_roll_one": "Roll 1 die",
        "final_hand": "hand, counted at the end",
        "derail_chance": "Chance to derail",
        "n_in_d": "about {n} in {d}",
        "never": "never",
        "always": "always",
        "expected": "Expected penalty cards: {x}",
        "k_cards": "{n} cards",
        "k_cards_one": "1 card",
        "penalty_chart": "Penalty cards this play may cost",
        "placement": "Where the card goes",
        "placement_n": "Place {n}",
        "enter_dice": "Wheels on each die",
        "roll_done": "Enter the roll",
        "cancel": "Cancel",
        "last_turn": "Last turn",
        "moved": "The caboose moved {n} cards forward, to card {b}",
        "moved_one": "The caboose moved 1 card forward, to card {b}",
        "stayed": "The caboose stayed on card {a}",
        "now_card": "(with the cards taken from the back gone, that is now card {b})",
        "derailed": "Derailed: {n} short",
        "derailed_one": "Derailed: 1 short",
        "no_derail": "No derailment",
        "broken": "Broken track crossed: {cards}",
        "took": "{name} takes {card} from the {source} ({cause})",
        "banked": "{card} banked (face down, never cancels)",
        "cancelled": "{a} cancels {b}: both leave the game",
        "piled": "{card} goes on the pile",
        "reshuffled": "The discard pile became a new draw pile",
        "forgiven": "{n} penalty cards forgiven: none left",
        "forgiven_one": "1 penalty card forgiven: none left",
        "order": "Discard order",
        "order_choose": "Choose another order",
        "order_result": "pile {pile} · {n} points",
        "order_result_one": "pile {pile} · 1 point",
        "order_current": "chosen",
        "correct_roll": "Correct the roll",
        "correct_confirm": "Change the roll of turn {n} from {a} to {b}? The log keeps it.",
        "undo": "Undo",
        "undo_no": "A dice roll once seen is not undone",
        "piles": "Penalty piles",
        "pile": "pile (bottom → top)",
        "pile_empty": "no penalty cards",
        "banked_cards": "banked",
        "score": "score {n}",
        "score_one": "score 1",
        "derailments": "{n} derailments",
        "derailments_one": "1 derailment",
        "ranking": "Final ranking",
        "winners": "Won by {names}",
        "decided_by": "decided by {how}",
        "cause_broken": "broken track",
        "cause_derail": "derailment",
        "cause_pass": "pass",
        "source_railway": "back of the railway",
        "source_draw": "draw pile",
        "source_reshuffled": "new draw pile",
        "by_score": "the lowest score",
        "by_cards": "the fewest cards",
        "by_4s": "the fewest 4s",
        "by_3s": "the fewest 3s",
        "by_2s": "the fewest 2s",
        "by_1s": "the fewest 1s",
        "by_shared": "a tie: the victory is shared",
        "by_lost": "the solo game was lost",
        "by_solo": "a solo game",
        "nobody": "nobody",
        "fits_nowhere": "no room on the table",
        "session": "At the table",
        "session_mismatch": "Not yet as computed",
        "session_choose": "The camera is unsure: tap the card it is",
        "session_choose_die": "The camera is unsure: tap what the die shows",
        "session_no_die": "There is no die here",
        "session_no_die_hint": "The camera may take a card's number, a crumb or a bead for a die",
        "session_die_where": "Ringed: die {n}, where it lies beside the railway",
        "die_wheels": "{n} wheels",
        "die_wheels_one": "1 wheel",
        "session_laid": "Laid at the front",
        "session_roll": "Dice seen: {seen} of {n}",
        "session_camera": "The camera cannot see",
        "show_taken": "{name}: the {n} cards taken from the draw pile",
        "show_taken_one": "{name}: the card taken from the draw pile",
        "show_hand": "{name}: the {n} cards left in the hand",
        "show_hand_one": "{name}: the card left in the hand",
        "show_button": "Show",
        # A card said in words (`card_words`), never by its record code.
        "card_track": "{value}",
        "card_broken": "broken {value}",
        "card_chaos": "chaos card {value}",
        "and": "{most} and {last}",
        "derail_percent": "{p}% chance to derail",
        "dice_hint": "Tap a die until it shows the wheels rolled.",
        # the camera's picture (caboose/drawing.py): the token, a card it is unsure of
        "camera_caboose": "caboose",
        "camera_pips": "{n} pips",
        "camera_pips_one": "1 pip",
        "camera_unsure": "{card}?",
    },
    "es": {
        "railway": "Vía",
        "schematic": "esquema: no se sabe dónde están las cartas",
        "back": "final",
        "front": "frente",
        "to_move": "Le toca a {name}",
        "draw_left": "quedan {n} cartas en el mazo",
        "draw_left_one": "queda 1 carta en el mazo",
        "hand_size": "{n} en la mano",
        "game_over": "Fin de la partida",
        "variant_solo": "En solitario",
        "variant_solo-hard": "En solitario, difícil: el 4.º descarrilamiento pierde",
        "variant_solo-laura": "En solitario contra Laura",
        "your_turn": "{name}: ¿qué ha pasado?",
        "hand": "Cartas en la mano, con la robada en este turno",
        "plays": "Jugadas posibles",
        "pass": "Pasar",
        "chaos": "Descartar {cards}",
        "laura": "Turno de Laura: {action}",
        "laura_do": "Hacerlo",
        "laura_pass": "pasa",
        "laura_play": "juega {cards}",
        "laura_chaos": "descarta {cards}",
        "dice_to_roll": "Tira {n} dados",
        "dice_to_roll_one": "Tira 1 dado",
        "final_hand": "mano, cuenta al final",
        "derail_chance": "Probabilidad de descarrilar",
        "n_in_d": "más o menos {n} de cada {d}",
        "never": "nunca",
        "always": "siempre",
        "expected": "Cartas de penalización esperadas: {x}",
        "k_cards": "{n} cartas",
        "k_cards_one": "1 carta",
        "penalty_chart": "Cartas de penalización que puede costar",
        "placement": "Dónde va la carta",
        "placement_n": "Posición {n}",
        "enter_dice": "Ruedas de cada dado",
        "roll_done": "Anotar la tirada",
        "cancel": "Cancelar",
        "last_turn": "Último turno",
        "moved": "El furgón avanzó {n} cartas, hasta la carta {b}",
        "moved_one": "El furgón avanzó 1 carta, hasta la carta {b}",
        "stayed": "El furgón se queda en la carta {a}",
        "now_card": "(sin las cartas tomadas del final, ahora es la carta {b})",
        "derailed": "Descarrila: le faltan {n}",
        "derailed_one": "Descarrila: le falta 1",
        "no_derail": "No descarrila",
        "broken": "Vía rota cruzada: {cards}",
        "took": "{name} toma {card} del {source} ({cause})",
        "banked": "{card} depositada (boca abajo, nunca se cancela)",
        "cancelled": "{a} cancela {b}: las dos salen de la partida",
        "piled": "{card} va a la pila",
        "reshuffled": "La pila de descartes es un mazo nuevo",
        "forgiven": "{n} cartas de penalización perdonadas: no queda ninguna",
        "forgiven_one": "1 carta de penalización perdonada: no queda ninguna",
        "order": "Orden de descarte",
        "order_choose": "Elegir otro orden",
        "order_result": "pila {pile} · {n} puntos",
        "order_result_one": "pila {pile} · 1 punto",
        "order_current": "elegido",
        "correct_roll": "Corregir la tirada",
        "correct_confirm": "¿Cambiar la tirada del turno {n} de {a} a {b}? El registro lo guarda.",
        "undo": "Deshacer",
        "undo_no": "Una tirada ya vista no se deshace",
        "piles": "Pilas de penalización",
        "pile": "pila (abajo → arriba)",
        "pile_empty": "ninguna carta de penalización",
        "banked_cards": "depositadas",
        "score": "{n} puntos",
        "score_one": "1 punto",
        "derailments": "{n} descarrilamientos",
        "derailments_one": "1 descarrilamiento",
        "ranking": "Clasificación final",
        "winners": "Gana {names}",
        "decided_by": "decidido por {how}",
        "cause_broken": "vía rota",
        "cause_derail": "descarrilamiento",
        "cause_pass": "pase",
        "source_railway": "final de la vía",
        "source_draw": "mazo",
        "source_reshuffled": "mazo nuevo",
        "by_score": "la puntuación más baja",
        "by_cards": "menos cartas",
        "by_4s": "menos cuatros",
        "by_3s": "menos treses",
        "by_2s": "menos doses",
        "by_1s": "menos unos",
        "by_shared": "un empate: la victoria se comparte",
        "by_lost": "la partida en solitario se perdió",
        "by_solo": "una partida en solitario",
        "nobody": "nadie",
        "fits_nowhere": "no cabe en la mesa",
        "session": "En la mesa",
        "session_mismatch": "Aún no está como se calculó",
        "session_choose": "La cámara duda: toca la carta que es",
        "session_choose_die": "La cámara duda: toca lo que muestra el dado",
        "session_no_die": "Aquí no hay ningún dado",
        "session_no_die_hint": "La cámara puede tomar por un dado el número de una carta, una "
        "miga o una cuenta",
        "session_die_where": "En el círculo: el dado {n}, en su sitio junto a la vía",
        "die_wheels": "{n} ruedas",
        "die_wheels_one": "1 rueda",
        "session_laid": "Puestas al frente",
        "session_roll": "Dados vistos: {seen} de {n}",
        "session_camera": "La cámara no ve",
        "show_taken": "{name}: las {n} cartas tomadas del mazo",
        "show_taken_one": "{name}: la carta tomada del mazo",
        "show_hand": "{name}: las {n} cartas que quedan en la mano",
        "show_hand_one": "{name}: la carta que queda en la mano",
        "show_button": "Mostrar",
        "card_track": "{value}",
        "card_broken": "{value} rota",
        "card_chaos": "carta de caos {value}",
        "and": "{most} y {last}",
        "derail_percent": "{p}% de probabilidad de descarrilar",
        "dice_hint": "Toca cada dado hasta que muestre las ruedas que salieron.",
        "camera_caboose": "furgón",
        "camera_pips": "{n} puntos",
        "camera_pips_one": "1 punto",
        "camera_unsure": "¿{card}?",
    },
}


# What the turn at the table says (`follow_messages.MESSAGES`), in each language, with
# the same keys and the same {parameters} (a test checks both). `detail` of `refused` and
# `cannot_play` is the refusal of the table or the engine, said in `REFUSALS` below. Card
# codes are the same in both.
SESSION: dict[str, dict[str, str]] = {
    "en": MESSAGES,
    "es": {
        "no_game": "empieza una partida en la página",
        "to_move": "le toca a {name}: pon cartas al frente, enseña cartas de caos o pulsa PASS",
        "roll_one": "{name}: tira 1 dado",
        "roll": "{name}: tira {n} dados",
        "confirm": "la mesa muestra la jugada calculada: pulsa CONFIRM",
        "over": "la partida ha terminado",
        "show_taken_one": "{name}: enseña en la zona marcada la carta tomada del mazo",
        "show_taken": "{name}: enseña en la zona marcada las {n} cartas tomadas del mazo",
        "show_hand_one": "fin de la partida: {name}, enseña tu mano (1 carta) en la zona marcada",
        "show_hand": "fin de la partida: {name}, enseña tu mano ({n} cartas) en la zona marcada",
        "ask_unknown": "carta {n} puesta: la cámara lee {code}, pero no está en la mano; "
        "¿qué carta es?",
        "ask_unsure": "carta {n} puesta: la cámara lee {code}, pero no está segura "
        "({percent} %); ¿qué carta es?",
        "ask_die": "dado {n}: ¿es un {face}? la cámara no está segura ({percent} %); "
        "elegid lo que muestra",
        "ask_die_wheels": "dado {n}: ¿ruedas que muestra: {face}? la cámara no está segura "
        "({percent} %); elegid lo que muestra",
        "railway_differs": "la vía no está como la tiene la partida: debería ser {want} "
        "desde el final, la cámara ve {seen}",
        "cannot_play": "{cards} no se puede jugar así: {detail}",
        "pip_dice": "se ha tirado un dado de puntos, pero la mesa no sabe cuántas ruedas vale "
        "cada cara (pip_wheels en la configuración): tirad los dados del juego",
        "die_face": "un dado muestra {face} ruedas: estos dados muestran {faces}",
        "too_many_dice_one": "se han tirado {n} dados, pero falta 1: tira 1",
        "too_many_dice": "se han tirado {n} dados, pero faltan {left}: tira {left}",
        "pass_laid": "hay cartas puestas al frente: retíralas para pasar",
        "pass_not_now": "PASS es para el jugador al que le toca, antes de poner nada",
        "not_yet": "aún no: {why}",
        "not_seen": "la cámara aún no ha visto la mesa quieta",
        "take_one": "toma 1 carta más del final de la vía",
        "take": "toma {n} cartas más del final de la vía",
        "railway_should": "la vía debería ser {want} desde el final; la cámara ve {seen}",
        "railway_unseen": "la vía debería ser {want} desde el final; la cámara no ve ninguna",
        "caboose_unseen": "el furgón va en la carta {n} desde el final ({code}); "
        "la cámara no lo ve en ninguna",
        "caboose_elsewhere": "el furgón va en la carta {n} desde el final ({code}); "
        "la cámara lo ve en la carta {seen}",
        "undo_nothing": "no hay nada que deshacer: aún no se ha jugado ningún turno",
        "undo_roll": "una tirada ya vista no se deshace; si se anotó mal, corrige la tirada",
        "refused": "no se puede: {detail}",
    },
}


# The refusals of the engine (`RuleError`) and the table (`TableError`) by their keys, with
# the refusal's parameters and its English `message`, which the API has always given: the
# English words are that message, the others say it anew. A refusal whose key is missing
# here is said in its English in every language. The page has them as `refusal_<key>`.
REFUSALS: dict[str, dict[str, str]] = {
    "es": {
        # the engine (rules/engine.py, rules/geometry.py)
        "not_in_hand": "{code} no está en la mano (la mano tiene {hand})",
        "not_in_empty_hand": "{code} no está en la mano (la mano no tiene cartas)",
        "game_over": "la partida ha terminado: no hay más turnos",
        "play_empty": "una jugada necesita al menos una carta",
        "chaos_as_track": "las cartas de caos se descartan en la pila, nunca se juegan como vía",
        "mixed_values": "las cartas jugadas juntas deben tener todas el mismo valor",
        "values_differ": "un {new} no puede unirse a un {front}: los valores contiguos no "
        "pueden diferir en {gap}",
        "placement_count": "{positions} posiciones para {cards} cartas jugadas",
        "placement_crooked": "la carta {number} jugada ({code}) está a {degrees} grados: "
        "ponla recta a lo largo de la mesa",
        "placement_apart": "la carta {number} jugada ({code}) no se une al extremo abierto de "
        "la carta del frente: pon uno de sus extremos de vía contra él",
        "placement_on_top": "la carta {number} jugada ({code}) no puede ir ahí: quedaría "
        "encima de la carta {other} de la vía ({other_code})",
        "placement_loop": "la carta {number} jugada ({code}) no puede ir ahí: cerraría un "
        "bucle con la carta {other} de la vía ({other_code})",
        "dice_count": "esta jugada tira {dice} dados, pero se han dado {given} resultados",
        "dice_face": "{face} no es una cara de los dados: cada dado muestra una de {faces}",
        "no_chaos_cards": "{edition} no tiene cartas de caos",
        "chaos_empty": "para descartar cartas de caos hace falta al menos una",
        "chaos_only": "así solo se pueden descartar cartas de caos",
        "order_unneeded": "se ha dado un orden, pero no se ha tomado ninguna carta de penalización",
        "order_cards": "el orden debe incluir exactamente las cartas tomadas en este turno: "
        "{cards}",
        "laura_rolls": "Laura nunca tira: avanza según el valor de su carta",
        "laura_no_order": "Laura no elige orden: pone todas las cartas de penalización en su "
        "pila a la vez y siempre combina; no des orden en sus turnos",
        "no_order": "{edition} no tiene orden de descarte: cada carta de penalización va a la "
        "pila al tomarla y cancela enseguida; el orden de descarte es solo para Rollecate y "
        "LOK'n'ROLL: no lo des",
        "names_missing": "cada jugador necesita un nombre",
        "variant_players_one": "esta variante es para 1 jugador",
        "variant_players": "esta variante es para {players} jugadores",
        "edition_players": "{edition} es para 2 a {most} jugadores, no {given}",
        "no_variant": "{edition} no tiene la variante {variant} (variantes: {allowed})",
        "no_variants": "{edition} no tiene la variante {variant}: no tiene variantes",
        "rival_seats": "{variant} tiene {seats} asientos: primero {rival}, luego tú",
        "laura_must_pass": "Laura debe pasar en este turno",
        "laura_must_play": "Laura debe jugar {cards} en este turno",
        "laura_must_discard": "Laura debe descartar {cards} en este turno",
        # the table (match.py, refusals.py)
        "not_your_turn": "le toca a {name}, no a {other}",
        "no_seat": "no hay ningún asiento {seat}",
        "game_over_start": "la partida ha terminado: empieza una nueva",
        "stale": "esto era para el turno {turn}, pero el último turno ahora es el {played}: no "
        "se ha cambiado nada; mira la mesa otra vez y vuelve a probar si aún hace falta",
        "stale_none": "esto era para el turno {turn}, pero ahora no se ha jugado ningún "
        "turno: no se ha cambiado nada; mira la mesa otra vez y vuelve a probar si aún hace "
        "falta",
        "confirm_roll": "cambiar la tirada de {before} a {after} hay que confirmarlo",
        "no_game_yet": "no se está jugando ninguna partida: empieza una primero",
        "no_question": "no hay ninguna pregunta que contestar",
        "choose_one": "elige una de estas: {options}",
        "hand_count": "{name} acaba con {held} cartas, no {shown}: enseña todas las cartas de "
        "la mano",
        "hand_count_one": "{name} acaba con 1 carta, no {shown}: enseña todas las cartas de la "
        "mano",
        "unknown_edition": "no existe la edición {edition}: usa una de {editions}",
        "correct_nothing": "todavía no se ha jugado ningún turno: no hay nada que cambiar",
        "correct_none": "todavía no hay ningún turno que corregir",
        "correct_no_roll": "el último turno no tiró dados: no hay ninguna tirada que corregir",
        "chaos_no_order": "un descarte de caos no tiene cartas de penalización que ordenar",
        "not_held": "{codes} no es lo que tiene este jugador",
        "deal_known_railway": "esta mesa conoce su reparto: su vía ya está repartida",
        "deal_known_hands": "esta mesa conoce su reparto: las manos ya se conocen",
        "show_nothing": "la mesa no espera que se enseñe ninguna carta",
        "show_no_taken": "ninguna carta tomada del mazo espera a que se enseñe",
        "hands_after_game": "las manos se enseñan cuando la partida ha terminado",
        # a player's name (names.py), wherever it enters
        "name_not_text": "el nombre del jugador {player} debe ser un texto",
        "name_too_long": "el nombre del jugador {player} tiene {length} caracteres: un nombre "
        "tiene como mucho {most}",
        "name_control": "el nombre del jugador {player} tiene un carácter de control (un salto "
        "de línea, un tabulador…): escribe el nombre en una sola línea",
        "name_invisible": "el nombre del jugador {player} no muestra nada (solo espacios o "
        "caracteres invisibles): escribe un nombre que se pueda leer",
        # a request of the wrong shape (commands.py)
        "bad_seat": "{field} debe ser un número de asiento (0 para el primer jugador)",
        "bad_card": "{field} debe ser un código de carta",
        "bad_card_code": "{field}: {code} no es un código de carta",
        "bad_cards": "{field} debe ser una lista de códigos de carta",
        "bad_roll": "{field} debe ser la lista de las ruedas que muestra cada dado",
        "bad_face": "{field} debe ser la cara de un dado, de 0 a 6",
        "answer_both": "una respuesta es una sola cosa: el código de una carta, la cara de un "
        "dado o que no es un dado",
        "bad_no_die": "{field} debe ser true: dice que lo que la cámara toma por un dado no es "
        "un dado (quítalo para elegir una cara)",
        "no_die_card": "la cámara pregunta por una carta, no por un dado: elige una de estas: "
        "{options}",
        "bad_place": "{field} debe ser una lista de [x, y, giro]",
        "bad_flag": "{field} debe ser true o false",
        "bad_text": "{field} debe ser un texto corto",
        "bad_names": "{field} debe ser la lista de los nombres de 1 a 4 jugadores",
        "bad_last_turn": "{field} debe ser el número del último turno tal como lo muestra la "
        "página (0 antes del primer turno)",
        "unknown_fields": "campos desconocidos: {fields}; esta petición admite {allowed}",
        "missing_fields": "faltan campos: {fields}",
        "unknown_command": "este juego no tiene la orden {name}: sus órdenes son {commands}",
        # a record refused on import (record.py)
        "record_not_object": "un registro es un objeto JSON",
        "record_format": "el formato debe ser {format}, no {given}",
        "record_unknown_fields": "campos desconocidos: {fields}; un registro tiene {allowed}",
        "record_edition": "la edición debe ser una de {editions}, no {given}",
        "record_players": "players debe ser una lista de nombres",
        "record_variant": "variant debe ser un texto",
        "record_setup": "setup debe ser un objeto con railway, caboose, hands y draw",
        "record_turns": "turns debe ser una lista",
        "record_too_long": "un registro tiene como mucho {most} turnos",
        # a provisional deal (deal.py): what a real table shows, fixed in the deal
        "deal_unseen": "ninguna carta que nadie haya visto puede ser {code}: todas las {code} "
        "de la baraja están contadas. Revisa la carta (puede que la cámara la leyera mal) o la "
        "lista de cartas de la edición",
        "deal_railway_count": "la mesa muestra {shown} cartas de vía; el reparto tiene {dealt}",
        "deal_taken_count": "el último turno tomó {taken} cartas del mazo, no {shown}",
        "deal_railway_fixed": "la vía inicial queda fijada en cuanto se juega un turno",
        "deal_nothing_taken": "no se ha jugado ningún turno: no se ha tomado nada",
        # the table's undo limit, said as the session says it when held CONFIRM meets it
        "undo_nothing": SESSION["es"]["undo_nothing"],
        "undo_roll": SESSION["es"]["undo_roll"],
    },
}
# English says a refusal's own message, but where the message holds a rule id inside it,
# said anew without it (the id stays in the answer's `rule`).
REFUSALS["en"] = dict.fromkeys(REFUSALS["es"], "{message}") | {
    "laura_no_order": "Laura chooses no order: she puts every penalty card on her pile at "
    "once and always combines; leave order out of her turns",
    "no_order": "{edition} has no discard order: each penalty card goes onto the pile as it "
    "is taken and cancels at once; the discard order is for Rollecate and LOK'n'ROLL only: "
    "leave order out",
    "laura_must_pass": "Laura must pass this turn",
    "laura_must_play": "Laura must play {cards} this turn",
    "laura_must_discard": "Laura must discard {cards} this turn",
    # and where it names cards by their codes, said anew with the cards' words
    "not_in_hand": "{code} is not in the hand (the hand holds {hand})",
    "not_in_empty_hand": "{code} is not in the hand (the hand holds no cards)",
    "placement_crooked": "card {number} played ({code}) is laid at {degrees} degrees: lay "
    "it straight along the table",
    "placement_apart": "card {number} played ({code}) does not join the open end of the "
    "front card: put one of its track ends against it",
    "placement_on_top": "card {number} played ({code}) cannot lie there: it would lie on top "
    "of railway card {other} ({other_code})",
    "placement_loop": "card {number} played ({code}) cannot lie there: it would close a loop "
    "with railway card {other} ({other_code})",
    "order_cards": "the order must list exactly the cards taken this turn: {cards}",
    "not_held": "{codes} is not what this player holds",
}
TEXT = {
    lang: TEXT[lang] | {f"refusal_{key}": words for key, words in REFUSALS[lang].items()}
    for lang in LANGUAGES
}

# The private advisor's words for a Caboose hand (page/advisor.js draws the advice): the
# page gets them as `advisor_<key>` (`with_advisor`), the advisor's page as `<key>`.
ADVISOR: dict[str, dict[str, str]] = {
    "en": {
        "track": "Track cards",
        "broken": "Broken tracks",
        "chaos": "Chaos cards",
        "front": "Front card: {card}",
        "pile": "Your penalty pile: {points} points",
        "plays": "Plays",
        "no_plays": "No card of this hand can be laid on the front card.",
        "dice": "{n} dice",
        "dice_one": "1 die",
        "derail": "derails: {num}/{den} ({percent} %)",
        "expected": "expected penalty: {value} cards",
        "fits_nowhere": "fits nowhere on the table",
        "reason_least_penalty": "the fewest penalty cards expected",
        "reason_no_risk": "no risk: nothing to pay whatever the dice show",
        "reason_only_play": "the only play",
        "reason_pass_cheaper": "passing costs less than any play is expected to",
        "reason_must_pass": "no card can be laid: pass",
        "pass": "Pass",
        "pass_cost": "costs {n} penalty cards",
        "pass_cost_one": "costs 1 penalty card",
        "pass_broken": "(the caboose reaches a broken track)",
        "pass_pile": "your pile then: {points} points",
        "pass_pile_cancels": "your pile then: {points} points, the card taken cancelling one of "
        "yours",
        "chaos_cards": "Chaos cards",
        "chaos_combines": "{card} combines with your top card {top}: {change} points",
        "chaos_lies": "{card} lies on top of your pile: +{change} points",
        "chaos_all": "All of them in the order {order}: {change} points",
        "penalties": "If it costs penalty cards",
        "taken": "{n} cards ({chance}): {cards}",
        "taken_one": "1 card ({chance}): {cards}",
        "order": "order {order} leaves {points} points",
        "order_best": "best order: {order}, leaves {points} points",
        "cancel_at_once": "Each penalty card cancels as it comes: no order to choose.",
        "error_laura": "Laura holds no hand: pick one of the people at the table.",
    },
    "es": {
        "track": "Cartas de vía",
        "broken": "Vías rotas",
        "chaos": "Cartas de caos",
        "front": "Carta del frente: {card}",
        "pile": "Tu pila de penalización: {points} puntos",
        "plays": "Jugadas",
        "no_plays": "Ninguna carta de esta mano puede ponerse en la carta del frente.",
        "dice": "{n} dados",
        "dice_one": "1 dado",
        "derail": "descarrila: {num}/{den} ({percent} %)",
        "expected": "penalización esperada: {value} cartas",
        "fits_nowhere": "no cabe en ninguna parte de la mesa",
        "reason_least_penalty": "la menor penalización esperada",
        "reason_no_risk": "sin riesgo: nada que pagar salga lo que salga en los dados",
        "reason_only_play": "la única jugada",
        "reason_pass_cheaper": "pasar cuesta menos de lo que se espera de cualquier jugada",
        "reason_must_pass": "ninguna carta puede ponerse: pasa",
        "pass": "Pasar",
        "pass_cost": "cuesta {n} cartas de penalización",
        "pass_cost_one": "cuesta 1 carta de penalización",
        "pass_broken": "(el furgón llega a una vía rota)",
        "pass_pile": "tu pila entonces: {points} puntos",
        "pass_pile_cancels": "tu pila entonces: {points} puntos, pues la carta tomada anula una "
        "de las tuyas",
        "chaos_cards": "Cartas de caos",
        "chaos_combines": "{card} se combina con tu carta de arriba {top}: {change} puntos",
        "chaos_lies": "{card} queda encima de tu pila: +{change} puntos",
        "chaos_all": "Todas en el orden {order}: {change} puntos",
        "penalties": "Si cuesta cartas de penalización",
        "taken": "{n} cartas ({chance}): {cards}",
        "taken_one": "1 carta ({chance}): {cards}",
        "order": "el orden {order} deja {points} puntos",
        "order_best": "mejor orden: {order}, deja {points} puntos",
        "cancel_at_once": "Cada carta de penalización se cancela al llegar: no hay orden que "
        "elegir.",
        "error_laura": "Laura no tiene mano: elige a una de las personas de la mesa.",
    },
}

TEXT = with_advisor(TEXT, ADVISOR)


def card_words(code: str, lang: str) -> str:
    """A card as a person says it ("broken 3", "chaos card 2"), never its record code
    ("3x", "C2"); its shape (`/s`, `/c`) only matters where it lies, which the page draws,
    and a `!` (do not combine, in an order) is what the order's chips show."""
    value, kind, _ = cards.parse(code.removesuffix("!"))
    return TEXT[lang][f"card_{kind}"].format(value=value)


def cards_words(codes: Sequence[str], lang: str) -> str:
    """Cards in words, joined as a sentence joins them: "1, 2 and broken 3"."""
    said = [card_words(code, lang) for code in codes]
    if len(said) < 2:
        return "".join(said)
    return TEXT[lang]["and"].format(most=", ".join(said[:-1]), last=said[-1])


# The parameters of the session's messages and of the refusals that hold card codes: a
# code, or codes apart by spaces (`railway_should`'s "2 3 4", `cannot_play`'s "3 3").
CARD_PARAMS = frozenset({"code", "codes", "cards", "want", "seen", "hand", "other_code"})


def _in_words(said: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A message in JSON with its card codes said in words, messages among its parameters
    too, so the page and the voice never read a code."""
    params = {}
    for name, value in said.get("params", {}).items():
        if isinstance(value, Mapping) and "key" in value:
            value = _in_words(value, lang)
        elif name in CARD_PARAMS and isinstance(value, str) and value:
            with suppress(cards.CardCodeError):  # not codes after all: said as it is
                value = cards_words(value.split(), lang)
        params[name] = value
    return {**said, "params": params}


def session_words(said: Mapping[str, Any] | None, lang: str) -> str | None:
    """A message of the session (`Message.as_json`) in `lang`, the refusals among its
    parameters too, cards in words; None stays None."""
    return None if said is None else say(REFUSALS[lang] | SESSION[lang], _in_words(said, lang))


# What the camera could not see (`vision.problems.PROBLEMS`), in each language, with the
# same keys and the same {parameters} (a test checks both).
CAMERA: dict[str, dict[str, str]] = {
    "en": PROBLEMS,
    "es": {
        "no_image": "la cámara no da ninguna imagen útil",
        "frame_tiny": "la imagen solo tiene {width}x{height} píxeles",
        "frame_channels": "la imagen tiene {channels} canales de color, no 3",
        "frame_size": "la imagen es de {width}x{height}, no de los {want_width}x{want_height} "
        "configurados: revisa el modo de la cámara",
        "too_dark": "la imagen está casi negra: ¿hay luz y está destapado el objetivo?",
        "overexposed": "la imagen está sobreexpuesta: baja la luz o la exposición de la cámara",
        "no_colour": "la imagen no tiene color, y el furgón y los dados se encuentran por su "
        "color: activa el color de la cámara o usa una cámara en color",
        "markers_hidden_one": "no se ve el marcador {markers} de la mesa: ¿hay algo encima?",
        "markers_hidden": "no se ven los marcadores {markers} de la mesa: ¿hay algo encima?",
        "no_table": "no se puede situar la mesa: se ven menos de dos marcadores",
        "too_coarse": "la cámara ve la mesa con muy poco detalle ({per_cm} píxeles por "
        "centímetro, hacen falta al menos {least}): acerca la cámara a la mesa o elige un tamaño "
        "de imagen mayor",
        "frame_unread": "esta imagen no se ha podido leer ({error})",
        "cards_unread_one": "1 carta no se ha podido leer: ¿hay algo encima?",
        "cards_unread": "{n} cartas no se han podido leer: ¿hay algo encima?",
        "caboose_unseen": "no se ve el furgón",
        "caboose_off": "el furgón no está sobre una carta de la vía",
        "covered": "algo tapa el {percent} % de la mesa (¿una mano?): no se ve lo que hay debajo",
        "glare": "un reflejo tapa parte de la mesa: mueve la lámpara o inclina la cámara",
    },
}


def camera_words(said: Mapping[str, Any], lang: str) -> str:
    """A camera problem (`Problem.as_json`) in `lang`."""
    return CAMERA[lang][said["key"]].format_map(said["params"])


# The record's own notation for a turn's events (`turn_line` without a language), exactly as
# shared/spec/game-record.md prints it: card codes, railway cards counted from 0, the
# ranking's `decided_by` by its id. Other tools read it; people read `LOG`.
NOTATION = {
    "turn": "turn {n} {name}",
    PASSED: "passes",
    PLAYED: "plays {cards}",
    ROLLED: "rolls {n} wheels",
    f"{ROLLED}-one": "rolls 1 wheel",
    MOVED: "caboose {a} -> {b}",
    BROKEN_TRACK: "crosses broken track {cards}",
    DERAILED: "derails {n} short",
    TOOK: "takes {cards} from the {source}",
    RESHUFFLED: "the discard pile is shuffled into a new draw pile",
    FORGIVEN: "{n} penalty cards forgiven: none left to take",
    f"{FORGIVEN}-one": "1 penalty card forgiven: none left to take",
    BANKED: "banks {cards}",
    CANCELLED: "{a} cancels {b}",
    CHAOS: "discards chaos {cards}",
    LEFT_GAME: "{cards} leaves the game",
    LOST: "the caboose derailed a {n}th time: the solo game is lost",
    GAME_OVER: "game over, won by {winners} ({decided_by})",
    f"{GAME_OVER}-shared": "game over, won by {winners} ({decided_by})",
    f"{GAME_OVER}-nobody": "game over, nobody wins ({decided_by})",
    "railway": "back of the railway",
    "draw": "draw pile",
    "reshuffled": "new draw pile",
}

# A turn's events as people read them (turn_log.py): the page's log, the demo's terminal
# lines, in the page's language; cards in words (`cards_words`).
LOG = {
    # English as the notation says it, but a card in words and no code beside it
    "en": NOTATION
    | {
        BROKEN_TRACK: "crosses {cards}",
        CHAOS: "discards {cards}",
        # How the ranking was decided (`Ranking.decided_by`), as the page's ranking says it.
        "by-score": "the lowest score",
        "by-cards": "the fewest cards",
        "by-4s": "the fewest 4s",
        "by-3s": "the fewest 3s",
        "by-2s": "the fewest 2s",
        "by-1s": "the fewest 1s",
        "by-shared": "a tie: the victory is shared",
        "by-lost": "the solo game was lost",
        "by-solo": "a solo game",
    },
    "es": {
        "turn": "turno {n} {name}",
        PASSED: "pasa",
        PLAYED: "juega {cards}",
        ROLLED: "saca {n} ruedas",
        f"{ROLLED}-one": "saca 1 rueda",
        MOVED: "furgón {a} -> {b}",
        BROKEN_TRACK: "cruza {cards}",
        DERAILED: "descarrila, le faltan {n}",
        f"{DERAILED}-one": "descarrila, le falta 1",
        TOOK: "toma {cards} del {source}",
        RESHUFFLED: "la pila de descartes se baraja como nuevo mazo",
        FORGIVEN: "{n} cartas de penalización perdonadas: no queda ninguna",
        f"{FORGIVEN}-one": "1 carta de penalización perdonada: no queda ninguna",
        BANKED: "deposita {cards}",
        CANCELLED: "{a} cancela {b}",
        CHAOS: "descarta {cards}",
        LEFT_GAME: "{cards} sale de la partida",
        LOST: "el tren descarriló {n} veces: partida en solitario perdida",
        GAME_OVER: "fin de la partida, gana {winners} ({decided_by})",
        f"{GAME_OVER}-shared": "fin de la partida, ganan {winners} ({decided_by})",
        f"{GAME_OVER}-nobody": "fin de la partida, no gana nadie ({decided_by})",
        "railway": "final de la vía",
        "draw": "mazo",
        "reshuffled": "mazo nuevo",
        "by-score": "la puntuación más baja",
        "by-cards": "menos cartas",
        "by-4s": "menos cuatros",
        "by-3s": "menos treses",
        "by-2s": "menos doses",
        "by-1s": "menos unos",
        "by-shared": "un empate: la victoria se comparte",
        "by-lost": "la partida en solitario se perdió",
        "by-solo": "una partida en solitario",
    },
}
