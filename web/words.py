"""The words of the page's shell in English and Spanish, the two languages the rulebooks
are printed in, and the choice of language.

The shell (templates/index.html, static/shell.js) is every game's: the header and its PIN,
the toasts, the live stream's badge, the start form, importing, exporting and watching a
record, the log's frame. Its words are here; a game's own words (its table, its moves, its
refusals as `refusal_<key>`) are the game's (`Game.words`), and the page gets both in one
table (`page_words`), so the JavaScript never holds any text of its own.

The server picks the language (Accept-Language, or the player's choice kept in a cookie).
"""

from __future__ import annotations

from typing import Any

from companion.games.protocol import LANGUAGES, Game, Setting
from companion.games.words import ADVISOR_PREFIX

# A word whose count changes it has a second form, `<key>_one`, which the page says when the
# count `{n}` is 1; both languages have the same keys.
SHELL: dict[str, dict[str, str]] = {
    "en": {
        "title": "Caboose Companion",
        "language": "Español",
        "advisor": "Your hand's odds (on your phone)",
        "no_game": "No game yet: start one.",
        "start": "Start a game",
        "game": "Game",
        "edition": "Edition",
        "variant": "Variant",
        "none": "none",
        "names": "Players' names (one per line)",
        "seed": "Seed (empty: random)",
        "start_button": "Deal",
        "import": "Import a record",
        "import_continue": "Continue it here",
        "import_watch": "Watch it replayed",
        "export": "Export the game",
        "log": "Game log",
        "correction": "correction",
        "pin": "Table PIN",
        "pin_ask": "Enter the table's PIN to change the game",
        "pin_ok": "PIN accepted",
        "pin_wrong": "Wrong PIN",
        "pin_wait": "Too many tries from this phone: wait {n} s, then try again",
        # The PIN's refusals (web/app.py), said by the page as `refusal_<key>`.
        "refusal_pin_missing": "Changing the game needs the table's PIN: enter the PIN "
        "shown on the table's screen or log, at the top of this page",
        "refusal_pin_wrong": "Wrong PIN: the PIN is shown on the table's screen or log",
        "watch": "Watching a record",
        "watch_turn": "turn {n} of {total}",
        "watch_prev": "◀",
        "watch_next": "▶",
        "watch_stop": "Stop watching",
        "watch_other_game": "This record is of another game than this page's: start a game of "
        "it on the table first, then watch the record",
        "watch_play": "Play ▶▶ / pause",
        # a file chosen to import or watch that is no record: not JSON, no object, no format
        "record_not_json": "This file is not a game record: choose a record the companion "
        "saved (a .json file from Export the game or the history).",
        "refusal_not_a_record": "This file is not a game record: choose a record the "
        "companion saved (a .json file from Export the game or the history).",
        "refusal_record_of_no_game": "This record is of no game the companion plays (its format "
        "is {given}): choose a record the companion saved.",
        "new_game_confirm": "A game is being played: start a new one and end it?",
        "live": "live",
        "offline": "reconnecting…",
        "no_answer": "The table did not answer: check the Wi-Fi, look at the table, then try again",
        "refusal_storage_full": "The table's storage is full: nothing was changed. Free some "
        "space on the table's computer (its SD card), then try again",
        "import_confirm": "A game is being played: end it and go on with the record's game?",
        "hand_reveal": "Show my hand",
        "hand_hide": "Hide my hand",
        "hand_private": "Only {name} looks: the hand shows on this phone after a tap, and hides "
        "again after the move.",
        "hand_needs_pin": "Enter the table's PIN above to see the hand.",
        "choosing": "{name} is choosing a move",
        "log_empty": "No turn played yet.",
        "camera": "Camera",
        "camera_title": "What the camera sees",
        "camera_legend": "Green: what the game read. Pink: what it is unsure of, with its "
        "question. Blue: the table's markers. Yellow: the play area. Tap the picture to see "
        "it at full size.",
        "camera_close": "Close the camera",
        "camera_none": "No camera watches this table: the page alone referees the game.",
        "camera_waiting": "The camera has not given a picture yet.",
        "camera_needs_pin": "Enter the table's PIN above to see the camera.",
        # the history and the standings (web/static/history.js, issue 31)
        "history": "Games played",
        "history_recent": "Last results",
        "history_empty": "No game has ended yet.",
        "history_more": "Older games",
        "history_watch": "Watch it",
        "history_export": "Its record",
        "history_delete": "Delete",
        "history_delete_confirm": "Delete game {n} and its record for good?",
        "history_over": "finished",
        "history_left": "abandoned",
        "history_won": "Winners: {names}",
        "history_won_one": "Winner: {names}",
        "history_no_winner": "No winner",
        "history_minutes": "{n} minutes",
        "history_minutes_one": "1 minute",
        "history_turns": "{n} turns",
        "history_turns_one": "1 turn",
        "history_points": "{n} points",
        "history_points_one": "1 point",
        "history_penalty": "{n} penalty points",
        "history_penalty_one": "1 penalty point",
        "standings": "Players and standings",
        "standings_empty": "No game has been played to its end yet.",
        "standings_player": "Player",
        "standings_played": "{n} games",
        "standings_played_one": "1 game",
        "standings_wins": "{n} wins",
        "standings_wins_one": "1 win",
        "standings_average": "mean {n}",
        "standings_best": "best {n}",
        "standings_points": "(points: the most win)",
        "standings_penalty": "(penalty points: the fewest win)",
        "chart_of": "Results of",
        "chart_label": "Points, game after game",
        "chart_legend": "● won  ○ not won",
        "players_edit": "Rename or merge players (PIN)",
        "player_rename": "Rename",
        "player_new_name": "New name",
        "player_merge": "Same person as",
        "player_merge_button": "Merge",
        "player_merge_confirm": "{name} and {into} are the same person: merge them?",
        "refusal_player_taken": "{name} is another player's name: merge the two players instead",
        "refusal_delete_playing": "This game is being played: it can be deleted once it is over "
        "or another game has started",
        "refusal_merge_self": "Choose two different players to merge",
    },
    "es": {
        "title": "Caboose Companion",
        "language": "English",
        "advisor": "Las cuentas de tu mano (en tu teléfono)",
        "no_game": "Aún no hay partida: empieza una.",
        "start": "Empezar una partida",
        "game": "Juego",
        "edition": "Edición",
        "variant": "Variante",
        "none": "ninguna",
        "names": "Nombres de los jugadores (uno por línea)",
        "seed": "Semilla (vacía: al azar)",
        "start_button": "Repartir",
        "import": "Importar una partida",
        "import_continue": "Continuarla aquí",
        "import_watch": "Verla repetida",
        "export": "Exportar la partida",
        "log": "Registro de la partida",
        "correction": "corrección",
        "pin": "PIN de la mesa",
        "pin_ask": "Escribe el PIN de la mesa para cambiar la partida",
        "pin_ok": "PIN aceptado",
        "pin_wrong": "PIN incorrecto",
        "pin_wait": "Demasiados intentos desde este teléfono: espera {n} s y vuelve a probar",
        "refusal_pin_missing": "Para cambiar la partida hace falta el PIN de la mesa: "
        "escribe arriba en esta página el PIN que muestra la pantalla o el registro de la mesa",
        "refusal_pin_wrong": "PIN incorrecto: el PIN aparece en la pantalla o el registro de "
        "la mesa",
        "watch": "Viendo una partida",
        "watch_turn": "turno {n} de {total}",
        "watch_prev": "◀",
        "watch_next": "▶",
        "watch_stop": "Dejar de verla",
        "watch_other_game": "Este registro es de otro juego que el de esta página: empieza "
        "antes una partida de ese juego en la mesa y luego mira el registro",
        "watch_play": "Reproducir ▶▶ / pausa",
        "record_not_json": "Este archivo no es el registro de una partida: elige un registro "
        "que guardó el acompañante (un archivo .json de Exportar la partida o del historial).",
        "refusal_not_a_record": "Este archivo no es el registro de una partida: elige un "
        "registro que guardó el acompañante (un archivo .json de Exportar la partida o del "
        "historial).",
        "refusal_record_of_no_game": "Este registro no es de ningún juego del acompañante (su "
        "formato es {given}): elige un registro que guardó el acompañante.",
        "new_game_confirm": "Hay una partida en juego: ¿empezar otra y terminarla?",
        "live": "en directo",
        "offline": "reconectando…",
        "no_answer": "La mesa no contestó: revisa el wifi, mira la mesa y vuelve a probar",
        "refusal_storage_full": "El almacenamiento de la mesa está lleno: no se cambió nada. "
        "Libera espacio en el ordenador de la mesa (su tarjeta SD) y vuelve a probar",
        "import_confirm": "Hay una partida en juego: ¿terminarla y seguir con la del registro?",
        "hand_reveal": "Ver mi mano",
        "hand_hide": "Ocultar mi mano",
        "hand_private": "Solo mira {name}: la mano aparece en este teléfono al tocar, y se "
        "oculta tras la jugada.",
        "hand_needs_pin": "Escribe arriba el PIN de la mesa para ver la mano.",
        "choosing": "{name} está eligiendo jugada",
        "log_empty": "Aún no se ha jugado ningún turno.",
        "camera": "Cámara",
        "camera_title": "Lo que ve la cámara",
        "camera_legend": "Verde: lo que ha leído el juego. Rosa: lo que no tiene claro, con su "
        "pregunta. Azul: los marcadores de la mesa. Amarillo: la zona de juego. Toca la imagen "
        "para verla a tamaño completo.",
        "camera_close": "Cerrar la cámara",
        "camera_none": "Ninguna cámara vigila esta mesa: la página sola arbitra la partida.",
        "camera_waiting": "La cámara aún no ha dado ninguna imagen.",
        "camera_needs_pin": "Escribe arriba el PIN de la mesa para ver la cámara.",
        "history": "Partidas jugadas",
        "history_recent": "Últimos resultados",
        "history_empty": "Aún no ha terminado ninguna partida.",
        "history_more": "Partidas anteriores",
        "history_watch": "Verla",
        "history_export": "Su registro",
        "history_delete": "Borrar",
        "history_delete_confirm": "¿Borrar para siempre la partida {n} y su registro?",
        "history_over": "terminada",
        "history_left": "abandonada",
        "history_won": "Ganan: {names}",
        "history_won_one": "Gana: {names}",
        "history_no_winner": "Sin ganador",
        "history_minutes": "{n} minutos",
        "history_minutes_one": "1 minuto",
        "history_turns": "{n} turnos",
        "history_turns_one": "1 turno",
        "history_points": "{n} puntos",
        "history_points_one": "1 punto",
        "history_penalty": "{n} puntos de penalización",
        "history_penalty_one": "1 punto de penalización",
        "standings": "Jugadores y clasificación",
        "standings_empty": "Aún no se ha jugado ninguna partida hasta el final.",
        "standings_player": "Jugador",
        "standings_played": "{n} partidas",
        "standings_played_one": "1 partida",
        "standings_wins": "{n} victorias",
        "standings_wins_one": "1 victoria",
        "standings_average": "media {n}",
        "standings_best": "mejor {n}",
        "standings_points": "(puntos: gana quien más tiene)",
        "standings_penalty": "(puntos de penalización: gana quien menos tiene)",
        "chart_of": "Resultados de",
        "chart_label": "Puntos, partida tras partida",
        "chart_legend": "● ganada  ○ no ganada",
        "players_edit": "Renombrar o unir jugadores (PIN)",
        "player_rename": "Renombrar",
        "player_new_name": "Nombre nuevo",
        "player_merge": "Misma persona que",
        "player_merge_button": "Unir",
        "player_merge_confirm": "¿{name} y {into} son la misma persona? ¿Unirlos?",
        "refusal_player_taken": "{name} es el nombre de otro jugador: une los dos jugadores",
        "refusal_delete_playing": "Esta partida está en juego: se puede borrar cuando termine "
        "o empiece otra",
        "refusal_merge_self": "Elige dos jugadores distintos para unirlos",
    },
}


def pick(requested: str | None, accept: str | None) -> str:
    """The player's explicit choice if it is one we speak, else the browser's best match."""
    if requested in LANGUAGES:
        return requested
    return accept if accept in LANGUAGES else "en"


def page_words(game: Game, lang: str) -> dict[str, str]:
    """Every word the page says in `lang` with `game` at the table: the shell's, then the
    game's (a test keeps the two apart, so neither hides a word of the other)."""
    return (SHELL[lang] | JOIN[lang] | SETUP[lang] | TEACH_BOARD[lang] | TEACH_PIPS[lang]
            | dict(game.words(lang)))  # fmt: skip


def named_game(game: Game, lang: str, setting: Setting | None = None) -> dict[str, Any]:
    """A game as the start form lists it (`GET /api/games`): its id, record format and
    options (with those the table set up as `setting` adds, `Game.own_options`), each
    name in `lang` where the game has words for it (`game_name`, `option_<id>`,
    `variant_<id>`), else as the game names it (an edition's own name)."""
    words = game.words(lang)
    own = game.own_options(setting) if setting is not None and game.own_options else ()

    def named(kind: str, entry: dict[str, Any]) -> dict[str, Any]:
        return entry | {
            "name": words.get(f"{kind}_{entry['id']}", entry["name"]),
            "variants": [named("variant", v) for v in entry.get("variants", [])],
        }

    return {
        "id": game.id,
        "name": words.get("game_name", game.name),
        "record_format": game.record_format,
        "options": [named("option", option.as_json()) for option in (*game.options, *own)],
    }


# The private advisor's page (templates/advisor.html, static/advisor.js): the words of the
# shell's part of it, and its refusals (`error_<key>`: the keys of the games' `advise`
# refusals, `request` for a request of the wrong shape, `slow` over the rate limit), in
# both languages with the same keys. A game's own advice is said in its words
# (`advisor_<key>`, `advisor_words`).
ADVISOR: dict[str, dict[str, str]] = {
    "en": {
        "title": "Advisor",
        "back": "Back to the table",
        "private": "Only this phone sees your hand: it is kept here, and sent only to ask.",
        "seat": "Who are you?",
        "hand": "Your hand",
        "tap": "Tap your cards to add them; tap a card of the hand to take it out.",
        "empty_hand": "Clear the hand",
        "no_game": "No game is being played: start one on the table's page.",
        "no_hidden_hand": "This game has no hidden hand: the table's page shows every move.",
        "your_turn": "Your turn.",
        "not_your_turn": "{mover} is to move: this is for the table as it is now.",
        "best": "Best",
        "tied": "as good: {plays}",
        "error_request": "The request was not understood: reload the page and ask again.",
        "error_slow": "Too many questions from this phone: wait {n} s, then ask again.",
        "error_hand_list": "The hand must be a list of cards: clear it and tap it again.",
        "error_not_a_card": "{code} is not a card: clear the hand and tap it again.",
        "error_not_in_edition": "{edition} has no {card}: take it out of the hand.",
        "error_too_many": "{name} holds at most {most} cards now, not {given}: take out the "
        "extra cards.",
        "error_all_seen": "{card}: the box has {box} and {seen} lie on the table: your "
        "hand cannot hold {given}. Check the card and take it out.",
        "error_seat": "Pick who you are in the list.",
        "error_no_game": "No game is being played: start one on the table's page.",
        "error_over": "The game is over: no more moves to advise on.",
    },
    "es": {
        "title": "Consejero",
        "back": "Volver a la mesa",
        "private": "Solo este teléfono ve tu mano: se guarda aquí y solo se envía para preguntar.",
        "seat": "¿Quién eres?",
        "hand": "Tu mano",
        "tap": "Toca tus cartas para añadirlas; toca una carta de la mano para quitarla.",
        "empty_hand": "Vaciar la mano",
        "no_game": "No hay partida en juego: empieza una en la página de la mesa.",
        "no_hidden_hand": "Este juego no tiene mano oculta: la página de la mesa muestra "
        "cada jugada.",
        "your_turn": "Es tu turno.",
        "not_your_turn": "Le toca a {mover}: esto es para la mesa tal como está ahora.",
        "best": "La mejor",
        "tied": "igual de buenas: {plays}",
        "error_request": "No se entendió la petición: recarga la página y vuelve a preguntar.",
        "error_slow": "Demasiadas preguntas desde este teléfono: espera {n} s y vuelve a "
        "preguntar.",
        "error_hand_list": "La mano debe ser una lista de cartas: vacíala y vuelve a tocarla.",
        "error_not_a_card": "{code} no es una carta: vacía la mano y vuelve a tocarla.",
        "error_not_in_edition": "{edition} no tiene {card}: quítala de la mano.",
        "error_too_many": "{name} tiene como mucho {most} cartas ahora, no {given}: quita las "
        "que sobran.",
        "error_all_seen": "{card}: la caja tiene {box} y {seen} están en la mesa: "
        "tu mano no puede tener {given}. Revisa la carta y quítala.",
        "error_seat": "Elige quién eres en la lista.",
        "error_no_game": "No hay partida en juego: empieza una en la página de la mesa.",
        "error_over": "La partida ha terminado: no quedan jugadas que aconsejar.",
    },
}


def advisor_words(game: Game, lang: str) -> dict[str, str]:
    """Every word the advisor's page says in `lang` with `game` at the table: the shell's,
    then the game's own advice (its words named `advisor_<key>`, said as `<key>`)."""
    own = game.words(lang)
    return ADVISOR[lang] | {
        key.removeprefix(ADVISOR_PREFIX): own[key] for key in own if key.startswith(ADVISOR_PREFIX)
    }


def advisor_says(game: Game, lang: str, key: str, **params: object) -> str:
    """One of the advisor's refusals in `lang` (`error_<key>`, the shell's or `game`'s),
    its parameters filled in; a key the advisor has no words for is said as a request it
    did not understand."""
    words = advisor_words(game, pick(lang, None))
    template = words.get(f"error_{key}", words["error_request"])
    try:
        return template.format(**params)
    except (KeyError, IndexError):  # a refusal without the parameters its words name
        return words["error_request"]


# Joining from a phone (web/join.py, web/seats.py, static/seats.js): the page's address as
# a QR code, and each seat's code for its player's own phone; in both languages with the
# same keys, the page's words too (`page_words`).
JOIN: dict[str, dict[str, str]] = {
    "en": {
        "join_title": "Join from your phone",
        "join_scan": "Scan with a phone's camera, or type this address:",
        "join_no_network": "Phones cannot reach the table yet: join the table's computer to the "
        "home's Wi-Fi, then start it again.",
        "join_only_here": "Phones cannot reach the table: it listens on this machine only. "
        "Start it with --host 0.0.0.0 to open it to the table's phones.",
        "seats_title": "Seats on phones",
        "seats_help": "Each player scans their seat's code with their own phone: that phone "
        "alone then shows their hand.",
        "seat_code": "Code for {name}'s phone",
        "seat_code_for": "{name}: scan this with your phone's camera (good once, for 10 minutes).",
        "seat_forget": "Forget {name}'s phone",
        "seat_has_phone": "{name}'s hand is on {name}'s phone.",
        "seat_no_phone": "{name}: no phone yet (this phone shows the hand).",
        "hand_on_phone": "{name}'s hand is on {name}'s phone",
        "seat_yours": "This phone is {name}'s seat",
        "seat_leave": "This is not my phone: leave the seat",
        "seat_waiting": "Your hand will show here; the odds of your plays come on your turn.",
        "seat_not_your_turn": "Your cards (the odds of your plays come on your turn):",
        "your_turn_hand": "Your turn, {name}: your hand shows with the move, with the odds of "
        "your plays.",
        "seat_none": "The companion holds no hand of yours to show now.",
        "seat_no_game": "No game is being played: start one first, then give each seat its code.",
        "seat_unknown": "No player sits there in this game: pick a seat of the list.",
        "seat_no_hand": "This game has no hidden hand: every phone shows every move, so no seat "
        "needs a phone of its own.",
        "seat_code_used": "This code was already used or is too old: ask the PIN holder to "
        "show your seat's code again, then scan it.",
        "seat_forgotten": "This phone no longer holds a seat of this game (it was forgotten, "
        "or a new game began): scan your seat's code again on the PIN holder's phone.",
    },
    "es": {
        "join_title": "Únete desde tu teléfono",
        "join_scan": "Escanéalo con la cámara de un teléfono, o escribe esta dirección:",
        "join_no_network": "Los teléfonos aún no llegan a la mesa: conecta el ordenador de la "
        "mesa al wifi de casa y vuelve a arrancarlo.",
        "join_only_here": "Los teléfonos no llegan a la mesa: solo escucha en este ordenador. "
        "Arráncala con --host 0.0.0.0 para abrirla a los teléfonos de la mesa.",
        "seats_title": "Asientos en teléfonos",
        "seats_help": "Cada jugador escanea el código de su asiento con su propio teléfono: "
        "solo ese teléfono muestra entonces su mano.",
        "seat_code": "Código para el teléfono de {name}",
        "seat_code_for": "{name}: escanéalo con la cámara de tu teléfono (vale una vez, "
        "durante 10 minutos).",
        "seat_forget": "Olvidar el teléfono de {name}",
        "seat_has_phone": "La mano de {name} está en el teléfono de {name}.",
        "seat_no_phone": "{name}: aún sin teléfono (este teléfono muestra la mano).",
        "hand_on_phone": "La mano de {name} está en el teléfono de {name}",
        "seat_yours": "Este teléfono es el asiento de {name}",
        "seat_leave": "No es mi teléfono: dejar el asiento",
        "seat_waiting": "Tu mano aparecerá aquí; las probabilidades de tus jugadas llegan "
        "en tu turno.",
        "seat_not_your_turn": "Tus cartas (las probabilidades de tus jugadas llegan en tu turno):",
        "your_turn_hand": "Tu turno, {name}: tu mano aparece con la jugada, con las "
        "probabilidades de tus jugadas.",
        "seat_none": "El acompañante no tiene ahora ninguna mano tuya que mostrar.",
        "seat_no_game": "No hay partida en juego: empieza una y luego da a cada asiento su código.",
        "seat_unknown": "Nadie se sienta ahí en esta partida: elige un asiento de la lista.",
        "seat_no_hand": "Este juego no tiene mano oculta: todos los teléfonos muestran cada "
        "jugada, así que ningún asiento necesita su propio teléfono.",
        "seat_code_used": "Este código ya se usó o es demasiado viejo: pide a quien tiene el "
        "PIN que vuelva a mostrar el código de tu asiento y escanéalo.",
        "seat_forgotten": "Este teléfono ya no tiene un asiento de esta partida (se olvidó, o "
        "empezó otra partida): vuelve a escanear el código de tu asiento en el teléfono de "
        "quien tiene el PIN.",
    },
}


def join_words(lang: str) -> dict[str, str]:
    """The words of joining from a phone in `lang` (English for a language not spoken)."""
    return JOIN[pick(lang, None)]


# Setting up the table from the PIN holder's phone (web/setup.py, static/setup.js): the
# page's own words beside what `companion check` says (companion/vision/setup_words.py);
# in both languages with the same keys, the page's words too (`page_words`). The button
# names are printed on the buttons, the same in both languages.
SETUP: dict[str, dict[str, str]] = {
    "en": {
        "setup_open": "Set up the table",
        "setup_title": "Setting up the table",
        "setup_close": "Close the setup",
        "setup_help": "Put the camera in place over the table: what it sees is checked here "
        "once a second.",
        "setup_ready": "The table is ready.",
        "setup_not_ready": "First fix this:",
        "setup_all": "Everything checked",
        "setup_checking": "Checking what the camera sees…",
        "setup_needs_pin": "Enter the table's PIN above to set up the table.",
        "setup_none": "No camera watches this table: the page alone referees the game, so "
        "there is nothing to aim. Start the companion with its camera (companion run) to set "
        "it up.",
        "setup_waiting": "The camera has not given a picture yet: what it sees is checked "
        "from its first picture.",
        "setup_buttons": "The buttons",
        "setup_press": "Press {button} on the table: it shows here when the companion gets it.",
        "setup_pressed": "{button}: pressed {ago} s ago. It works.",
        "setup_playing": "A game is being played: a press of a button is a move in it too.",
        "setup_no_buttons": "This table has no buttons, LED or buzzer to try (no GPIO pins).",
        "setup_outputs": "Light and sound",
        "setup_led": "Blink the LED",
        "setup_buzzer": "Sound the buzzer",
        "setup_speaker": "Say a sentence",
        "setup_no_voice": "The table's voice is off: set on = true in the [speech] section of "
        "the configuration, then start the companion again.",
        "setup_save": "Save as the configuration",
        "setup_save_help": "Keeps the table's size measured from its markers and the camera's "
        "picture size in the companion's configuration file, so nothing needs typing there.",
        "setup_no_file": "This table was started without a configuration file (a demo, or "
        "companion serve), so there is nothing to save to: companion check --config FILE "
        "--save saves what it measures.",
        "setup_save_fix": "Press “Save as the configuration” below to keep what was measured.",
        "setup_restart": "The companion uses it from its next start.",
        "refusal_setup_none": "No camera watches this table: there is nothing to set up here.",
        "refusal_setup_no_pins": "This table has no buttons, LED or buzzer to try (no GPIO pins).",
        "refusal_setup_no_voice": "The table's voice is off: set on = true in the [speech] "
        "section of the configuration, then start the companion again.",
        "refusal_setup_no_file": "This table was started without a configuration file, so "
        "there is nothing to save to.",
        "refusal_setup_no_picture": "The camera has given no picture to measure yet.",
        "refusal_setup_not_saved": "Nothing was saved: {problem}. The file is as it was.",
    },
    "es": {
        "setup_open": "Preparar la mesa",
        "setup_title": "Preparando la mesa",
        "setup_close": "Cerrar la preparación",
        "setup_help": "Coloca la cámara sobre la mesa: lo que ve se comprueba aquí una vez "
        "por segundo.",
        "setup_ready": "La mesa está lista.",
        "setup_not_ready": "Primero arregla esto:",
        "setup_all": "Todo lo comprobado",
        "setup_checking": "Comprobando lo que ve la cámara…",
        "setup_needs_pin": "Escribe arriba el PIN de la mesa para prepararla.",
        "setup_none": "Ninguna cámara vigila esta mesa: la página sola arbitra la partida, así "
        "que no hay nada que orientar. Arranca el acompañante con su cámara (companion run) "
        "para prepararla.",
        "setup_waiting": "La cámara aún no ha dado ninguna imagen: lo que ve se comprueba desde "
        "su primera imagen.",
        "setup_buttons": "Los botones",
        "setup_press": "Pulsa {button} en la mesa: aparece aquí cuando el acompañante lo recibe.",
        "setup_pressed": "{button}: pulsado hace {ago} s. Funciona.",
        "setup_playing": "Hay una partida en juego: pulsar un botón también es una jugada en ella.",
        "setup_no_buttons": "Esta mesa no tiene botones, LED ni zumbador que probar (no hay "
        "pines GPIO).",
        "setup_outputs": "Luz y sonido",
        "setup_led": "Hacer parpadear el LED",
        "setup_buzzer": "Hacer sonar el zumbador",
        "setup_speaker": "Decir una frase",
        "setup_no_voice": "La voz de la mesa está apagada: pon on = true en la sección [speech] "
        "de la configuración y vuelve a arrancar el acompañante.",
        "setup_save": "Guardar como configuración",
        "setup_save_help": "Guarda el tamaño de la mesa medido con sus marcadores y el tamaño de "
        "imagen de la cámara en el archivo de configuración del acompañante, para no tener que "
        "escribirlos allí.",
        "setup_no_file": "Esta mesa se arrancó sin archivo de configuración (una demo, o "
        "companion serve), así que no hay dónde guardar: companion check --config ARCHIVO "
        "--save guarda lo que mide.",
        "setup_save_fix": "Pulsa «Guardar como configuración» abajo para guardar lo medido.",
        "setup_restart": "El acompañante lo usa desde su próximo arranque.",
        "refusal_setup_none": "Ninguna cámara vigila esta mesa: aquí no hay nada que preparar.",
        "refusal_setup_no_pins": "Esta mesa no tiene botones, LED ni zumbador que probar (no "
        "hay pines GPIO).",
        "refusal_setup_no_voice": "La voz de la mesa está apagada: pon on = true en la sección "
        "[speech] de la configuración y vuelve a arrancar el acompañante.",
        "refusal_setup_no_file": "Esta mesa se arrancó sin archivo de configuración, así que no "
        "hay dónde guardar.",
        "refusal_setup_no_picture": "La cámara aún no ha dado ninguna imagen que medir.",
        "refusal_setup_not_saved": "No se guardó nada: {problem}. El archivo sigue como estaba.",
    },
}


# The setup page's "teach your board" step (static/teach.js, web/board_teach.py), for a
# game whose own box's board the camera learns; in both languages with the same keys.
TEACH_BOARD: dict[str, dict[str, str]] = {
    "en": {
        "board_title": "Teach your board to the camera",
        "board_help": "Lay your board square among the table's four markers, its top towards "
        "markers 0 and 1, the panels at home the right way up and a red, blue, yellow and green "
        "train on its first Starts, each facing along its track. Give its size and look.",
        "board_width": "Board's width, mm",
        "board_height": "Board's height, mm",
        "board_look": "Look at the board",
        "board_looking": "Looking at the board…",
        "board_pick": "Tap a space to choose it.",
        "board_chosen": "{chain}, space {number}: tap where it is on your board to move it "
        "there, or mark it below.",
        "board_track": "Track {number}",
        "board_piece": "{panel}, piece {number}",
        "board_panel_purple": "Purple panel",
        "board_panel_cyan": "Cyan panel",
        "board_panel_orange": "Orange panel",
        "board_mode_spaces": "Spaces",
        "board_mode_slots": "Slots and panels",
        "board_new_track": "Add a track",
        "board_undo": "Undo",
        "board_building_track": "New track {number}: tap its spaces in order, from its Start "
        "end (so far {count}), then tap “That is all its spaces”.",
        "board_building_piece": "{panel}, new piece: tap its spaces in order, from the slot's "
        "edge (so far {count}), then tap “That is all its spaces”.",
        "board_build_done": "That is all its spaces",
        "board_build_cancel": "Cancel",
        "board_track_short": "A track has at least two spaces, so its order shows: tap where "
        "its next space is.",
        "board_piece_short": "Tap where the piece's first space is on the panel.",
        "board_no_free_port": "Every edge of this panel is used by a piece already: remove a "
        "piece first.",
        "board_track_added": "Track {number} added. Mark its ends: its first space is chosen "
        "(Start, dead end or joins a slot's edge); then choose its last.",
        "board_piece_added": "{piece} added, joined to the slot's edge nearest its first "
        "space. Check its ends.",
        "board_join": "Joins a slot's edge",
        "board_joining": "Tap the edge of the slot this end runs into, where the track crosses it.",
        "board_no_port": "No slot's edge is there: tap on a slot's edge, where the track "
        "crosses it (the small circles).",
        "board_port_used": "Another track or piece already joins that edge: choose another "
        "edge, or change that one's end first.",
        "board_piece_one_edge": "A panel's piece joins its slot's edge at one end at least: "
        "join its other end to the edge first.",
        "board_remove_chain": "Remove its whole track or piece",
        "board_only_track": "The board keeps at least one track.",
        "board_only_piece": "A panel keeps at least one piece.",
        "board_slot": "Slot {number}",
        "board_slot_pick": "Tap a slot to choose it.",
        "board_slot_chosen": "{slot}, at home: {holds}. Tap where its middle is on your board "
        "to move it there, or choose below what lies in it at home.",
        "board_slot_empty": "empty",
        "board_here_purple": "Purple panel here",
        "board_here_cyan": "Cyan panel here",
        "board_here_orange": "Orange panel here",
        "board_here_empty": "Empty here",
        "board_add_piece": "Add a piece to its panel",
        "board_slot_width": "Slots' width, mm",
        "board_slot_height": "Slots' height, mm",
        "board_slot_resize": "Set every slot's size",
        "board_slot_no_size": "Give the slots' width and height in mm: nothing changed.",
        "board_reverse": "Turn its order round",
        "board_reverse_marked": "A Start stays a track's first space and a Finish its last: "
        "mark that end a dead end first, then turn the track round.",
        "board_slot_outside": "The slot would lie off the board there: nothing moved. Tap "
        "nearer the board's middle.",
        "board_slot_overlap": "The slot would cover another slot there: nothing moved. Tap "
        "where it lies on your board.",
        "board_adding": "Tap where the new space goes, after the chosen one.",
        "board_start": "Start",
        "board_finish": "Finish",
        "board_dead_end": "Dead end",
        "board_as_proposed": "End as proposed",
        "board_add": "Add a space after",
        "board_remove": "Remove",
        "board_done": "Done",
        "board_not_end": "Start, Finish and dead end mark a track's end: choose a track's first "
        "or last space.",
        "board_start_first": "A Start is a track's first space: choose the first space of a track.",
        "board_finish_last": "A Finish is a track's last space: choose the last space of a track.",
        "board_panel_end": "A panel's piece ends at its slot's edge or a dead end: it has no "
        "Start or Finish.",
        "board_last_space": "A track keeps at least two spaces, a panel's piece one.",
        "board_save": "Check and save the board",
        "board_key": "Green: Start. Red: Finish. Black bar: dead end. Dashed line: joins a "
        "slot's edge. Yellow: chosen.",
        "board_fitted": "Your board's panels were found: our layout is fitted to them. Check "
        "every space and correct what differs, then save.",
        "board_unfitted": "Your board's panels are not where our layout puts them: move the "
        "slots and spaces onto your board's, add the tracks it has and ours has not, mark its "
        "Starts and Finishes, then save.",
        "board_off": "A highlighted space lies off the board (or off its panel): move it onto it.",
        "board_no_start": "No track begins at a Start: choose a track's first space and mark it "
        "Start.",
        "board_no_finish": "No track ends at a Finish: choose a track's last space and mark it "
        "Finish.",
        "board_start_finish": "The highlighted track has one space, so it cannot be both Start "
        "and Finish: add a space to it.",
        "board_twice": "The highlighted space is named twice: remove one of them.",
        "board_slot_off": "A highlighted slot lies off the board: move it onto it.",
        "board_slots_overlap": "The highlighted slots overlap: move one of them onto its place "
        "on your board.",
        "board_wrong": "The board does not pass the check where it is highlighted: correct it "
        "there.",
        "board_not_taught": "The board passed the check, but the camera could not learn your "
        "box with it ({problem}). Lay it as the help says and look again.",
        "board_not_written": "Nothing was saved: the folder could not be written ({problem}).",
        # why the camera could not learn the box (taught.py's TeachError), said in
        # board_not_taught: the colours by their names in the game's words
        "board_teach_markers": "the table's four markers are not all seen: uncover them",
        "board_teach_outline": "the board's outline is not seen: lay it square to the table, "
        "inside the markers, nothing over its edges",
        "board_teach_picture": "the camera gave no usable picture",
        "board_teach_starts": "a train of each colour needs a Start of its own to stand on",
        "board_teach_panel": "the {colour} panel is not seen in its ringed home slot: lay it "
        "there, the right way up",
        "board_teach_train": "the {colour} train is not seen on the ringed Start: put it there",
        "board_teach_whole": "the {colour} train is not seen whole on the ringed Start: put it "
        "there, facing along its track",
        "board_teach_alike": "the {a} and the {b} pieces look alike to the camera: their "
        "colours cannot be told apart under this light",
        "board_teach_unfound": "the board is not found among the table's markers: lay it "
        "there, uncovered",
        "board_teach_die": "the colour die is not seen alone beside the board showing {colour}: "
        "lay it there, that face up, nothing else beside the board",
        "board_saved": "Your board is taught and saved in {folder}, the configured "
        "catalogue folder: start a new game and choose it.",
        "refusal_board_size": "Give the board's width and height in mm, from 100 to 3000.",
        "refusal_board_object": "The board to save is a board file: look at the board again.",
        "refusal_board_unseen": "The board's outline is not seen: lay it square to the table, "
        "inside the markers, nothing over its edges, and give its size.",
        "refusal_board_none": "Look at the board first.",
        "refusal_board_no_folder": "The configuration names no catalogue folder to save the "
        "board in: set table.catalogue in it, then start the companion again.",
        "refusal_board_waiting": "The camera has not given a picture yet: look again in a moment.",
        "refusal_board_no_camera": "No camera watches this table, so there is no board to look at.",
        "refusal_board_no_game": "This game has no board of its own to teach.",
        # the colour die's step (static/teach_die.js, web/die_teach.py), once the board is
        # taught: the colours by their names in the game's words
        "die_title": "Teach your colour die to the camera",
        "die_help": "Once your board is saved, leave it where it lies and lay your colour "
        "die alone beside it, a hand's breadth from its edge and away from its corners, with "
        "each colour up in turn: look at each.",
        "die_face": "With the {colour} up",
        "die_look": "Look",
        "die_looking": "Looking at the die…",
        "die_learnt": "Learnt: the die with the {colour} up.",
        "die_progress": "{done} of {total} colours learnt.",
        "die_save": "Save the colour die",
        "die_saved": "Your colour die is taught and saved with your board in {folder}: the "
        "camera reads it by these colours from now on.",
        "die_no_box": "Teach and save your board first: the die is looked at beside it.",
        "die_not_taught": "The camera could not learn this colour ({problem}).",
        "die_like_train": "the die with the {colour} up looks too like the {other} train to "
        "the camera under this light",
        "die_like_face": "the die with the {colour} up looks too like it with the {other} up "
        "to the camera under this light",
        "refusal_die_unfinished": "Show every colour first (still to show: {missing}).",
        "refusal_die_face": "Choose one of the die's colours.",
        "refusal_die_no_game": "This game has no colour die to teach.",
        "refusal_die_no_folder": "The configuration names no catalogue folder to save the "
        "die in: set table.catalogue in it, then start the companion again.",
        "refusal_die_waiting": "The camera has not given a picture yet: look again in a moment.",
        "refusal_die_no_camera": "No camera watches this table, so there is no die to look at.",
    },
    "es": {
        "board_title": "Enseña tu tablero a la cámara",
        "board_help": "Pon tu tablero recto entre los cuatro marcadores de la mesa, su parte "
        "de arriba hacia los marcadores 0 y 1, los paneles en su sitio y derechos, y un tren "
        "rojo, azul, amarillo y verde en sus primeras Salidas, cada uno mirando a lo largo de su "
        "vía. Indica su tamaño y míralo.",
        "board_width": "Ancho del tablero, mm",
        "board_height": "Alto del tablero, mm",
        "board_look": "Mirar el tablero",
        "board_looking": "Mirando el tablero…",
        "board_pick": "Toca una casilla para elegirla.",
        "board_chosen": "{chain}, casilla {number}: toca dónde está en tu tablero para "
        "moverla allí, o márcala abajo.",
        "board_track": "Vía {number}",
        "board_piece": "{panel}, pieza {number}",
        "board_panel_purple": "Panel morado",
        "board_panel_cyan": "Panel cian",
        "board_panel_orange": "Panel naranja",
        "board_mode_spaces": "Casillas",
        "board_mode_slots": "Huecos y paneles",
        "board_new_track": "Añadir una vía",
        "board_undo": "Deshacer",
        "board_building_track": "Vía nueva {number}: toca sus casillas en orden, desde su "
        "extremo de Salida (van {count}), y luego toca «Ya están todas sus casillas».",
        "board_building_piece": "{panel}, pieza nueva: toca sus casillas en orden, desde el "
        "borde del hueco (van {count}), y luego toca «Ya están todas sus casillas».",
        "board_build_done": "Ya están todas sus casillas",
        "board_build_cancel": "Cancelar",
        "board_track_short": "Una vía tiene al menos dos casillas, para que se vea su orden: "
        "toca dónde va la siguiente.",
        "board_piece_short": "Toca dónde está la primera casilla de la pieza en el panel.",
        "board_no_free_port": "Cada borde de este panel ya lo usa una pieza: quita antes una "
        "pieza.",
        "board_track_added": "Vía {number} añadida. Marca sus extremos: su primera casilla "
        "está elegida (Salida, vía muerta o se une al borde de un hueco); luego elige la última.",
        "board_piece_added": "{piece} añadida, unida al borde del hueco más cercano a su "
        "primera casilla. Revisa sus extremos.",
        "board_join": "Se une al borde de un hueco",
        "board_joining": "Toca el borde del hueco al que llega este extremo, donde la vía lo "
        "cruza.",
        "board_no_port": "Ahí no hay borde de ningún hueco: toca el borde de un hueco, donde "
        "la vía lo cruza (los circulitos).",
        "board_port_used": "Otra vía o pieza ya se une a ese borde: elige otro borde, o cambia "
        "antes el extremo de la otra.",
        "board_piece_one_edge": "La pieza de un panel se une al borde de su hueco al menos por "
        "un extremo: une antes su otro extremo al borde.",
        "board_remove_chain": "Quitar toda su vía o pieza",
        "board_only_track": "El tablero conserva al menos una vía.",
        "board_only_piece": "Un panel conserva al menos una pieza.",
        "board_slot": "Hueco {number}",
        "board_slot_pick": "Toca un hueco para elegirlo.",
        "board_slot_chosen": "{slot}, en su sitio: {holds}. Toca dónde está su centro en tu "
        "tablero para moverlo allí, o elige abajo qué hay en él.",
        "board_slot_empty": "vacío",
        "board_here_purple": "Panel morado aquí",
        "board_here_cyan": "Panel cian aquí",
        "board_here_orange": "Panel naranja aquí",
        "board_here_empty": "Vacío aquí",
        "board_add_piece": "Añadir una pieza a su panel",
        "board_slot_width": "Ancho de los huecos, mm",
        "board_slot_height": "Alto de los huecos, mm",
        "board_slot_resize": "Poner ese tamaño a cada hueco",
        "board_slot_no_size": "Indica el ancho y el alto de los huecos en mm: no cambió nada.",
        "board_reverse": "Dar la vuelta a su orden",
        "board_reverse_marked": "Una Salida sigue siendo la primera casilla de una vía y una "
        "Meta la última: marca antes ese extremo como vía muerta y luego da la vuelta a la vía.",
        "board_slot_outside": "Ahí el hueco quedaría fuera del tablero: no se movió nada. Toca "
        "más cerca del centro del tablero.",
        "board_slot_overlap": "Ahí el hueco taparía otro hueco: no se movió nada. Toca donde "
        "está en tu tablero.",
        "board_adding": "Toca dónde va la casilla nueva, después de la elegida.",
        "board_start": "Salida",
        "board_finish": "Meta",
        "board_dead_end": "Vía muerta",
        "board_as_proposed": "Extremo como se propuso",
        "board_add": "Añadir una casilla después",
        "board_remove": "Quitar",
        "board_done": "Hecho",
        "board_not_end": "Salida, Meta y vía muerta marcan el extremo de una vía: elige la "
        "primera o la última casilla de una vía.",
        "board_start_first": "Una Salida es la primera casilla de una vía: elige la primera "
        "casilla de una vía.",
        "board_finish_last": "Una Meta es la última casilla de una vía: elige la última "
        "casilla de una vía.",
        "board_panel_end": "La pieza de un panel acaba en el borde de su hueco o en una vía "
        "muerta: no tiene Salida ni Meta.",
        "board_last_space": "Una vía conserva al menos dos casillas, y la pieza de un panel una.",
        "board_save": "Comprobar y guardar el tablero",
        "board_key": "Verde: Salida. Rojo: Meta. Barra negra: vía muerta. Línea discontinua: "
        "se une al borde de un hueco. Amarillo: elegida.",
        "board_fitted": "Se encontraron los paneles de tu tablero y nuestro diseño se ajustó a "
        "ellos. Revisa cada casilla y corrige lo que difiera; luego guarda.",
        "board_unfitted": "Los paneles de tu tablero no están donde los pone nuestro diseño: "
        "mueve los huecos y las casillas sobre los de tu tablero, añade las vías que tiene y el "
        "nuestro no, marca sus Salidas y Metas y guarda.",
        "board_off": "Una casilla resaltada queda fuera del tablero (o de su panel): muévela "
        "dentro.",
        "board_no_start": "Ninguna vía empieza en una Salida: elige la primera casilla de una "
        "vía y márcala Salida.",
        "board_no_finish": "Ninguna vía acaba en una Meta: elige la última casilla de una "
        "vía y márcala Meta.",
        "board_start_finish": "La vía resaltada tiene una sola casilla y no puede ser Salida y "
        "Meta a la vez: añádele una casilla.",
        "board_twice": "La casilla resaltada tiene un nombre repetido: quita una de las dos.",
        "board_slot_off": "Un hueco resaltado queda fuera del tablero: muévelo dentro.",
        "board_slots_overlap": "Los huecos resaltados se solapan: mueve uno a su sitio en tu "
        "tablero.",
        "board_wrong": "El tablero no pasa la comprobación donde está resaltado: corrígelo allí.",
        "board_not_taught": "El tablero pasa la comprobación, pero la cámara no pudo aprender "
        "tu caja con él ({problem}). Colócalo como dice la ayuda y vuelve a mirarlo.",
        "board_not_written": "No se guardó nada: no se pudo escribir la carpeta ({problem}).",
        "board_teach_markers": "no se ven los cuatro marcadores de la mesa: destápalos",
        "board_teach_outline": "no se ve el contorno del tablero: ponlo recto en la mesa, "
        "dentro de los marcadores, sin nada sobre sus bordes",
        "board_teach_picture": "la cámara no dio ninguna imagen útil",
        "board_teach_starts": "cada color de tren necesita una Salida propia donde estar",
        "board_teach_panel": "no se ve el panel {colour} en su hueco, el marcado con un "
        "círculo: ponlo allí, derecho",
        "board_teach_train": "no se ve el tren {colour} en la Salida marcada con un círculo: "
        "ponlo allí",
        "board_teach_whole": "no se ve entero el tren {colour} en la Salida marcada con un "
        "círculo: ponlo allí, mirando a lo largo de su vía",
        "board_teach_alike": "las piezas de color {a} y las de color {b} se parecen demasiado "
        "para la cámara: con esta luz no distingue sus colores",
        "board_teach_unfound": "no se encuentra el tablero entre los marcadores de la mesa: "
        "ponlo allí, destapado",
        "board_teach_die": "no se ve el dado de colores solo junto al tablero mostrando "
        "{colour}: ponlo allí, con esa cara arriba, sin nada más junto al tablero",
        "board_saved": "Tu tablero está enseñado y guardado en {folder}, la carpeta del "
        "catálogo de la configuración: empieza una partida nueva y elígelo.",
        "refusal_board_size": "Indica el ancho y el alto del tablero en mm, de 100 a 3000.",
        "refusal_board_object": "El tablero que se guarda es un archivo de tablero: vuelve a "
        "mirar el tablero.",
        "refusal_board_unseen": "No se ve el contorno del tablero: ponlo recto en la mesa, "
        "dentro de los marcadores, sin nada sobre sus bordes, e indica su tamaño.",
        "refusal_board_none": "Primero mira el tablero.",
        "refusal_board_no_folder": "La configuración no indica ninguna carpeta de catálogo "
        "donde guardar el tablero: pon table.catalogue en ella y vuelve a arrancar el "
        "acompañante.",
        "refusal_board_waiting": "La cámara aún no ha dado ninguna imagen: vuelve a mirar en un "
        "momento.",
        "refusal_board_no_camera": "Ninguna cámara vigila esta mesa, así que no hay tablero que "
        "mirar.",
        "refusal_board_no_game": "Este juego no tiene un tablero propio que enseñar.",
        "die_title": "Enseña tu dado de colores a la cámara",
        "die_help": "Cuando hayas guardado tu tablero, déjalo donde está y pon tu dado de "
        "colores solo a su lado, a un palmo del borde y lejos de las esquinas, con cada color "
        "arriba por turno: míralo en cada uno.",
        "die_face": "Con el {colour} arriba",
        "die_look": "Mirar",
        "die_looking": "Mirando el dado…",
        "die_learnt": "Aprendido: el dado con el {colour} arriba.",
        "die_progress": "{done} de {total} colores aprendidos.",
        "die_save": "Guardar el dado de colores",
        "die_saved": "Tu dado de colores está enseñado y guardado con tu tablero en {folder}: "
        "desde ahora la cámara lo lee por estos colores.",
        "die_no_box": "Enseña y guarda primero tu tablero: el dado se mira a su lado.",
        "die_not_taught": "La cámara no pudo aprender este color ({problem}).",
        "die_like_train": "con esta luz, el dado con el {colour} arriba se parece demasiado "
        "al tren {other} para la cámara",
        "die_like_face": "con esta luz, el dado con el {colour} arriba se parece demasiado a "
        "como se ve con el {other} arriba para la cámara",
        "refusal_die_unfinished": "Muestra primero cada color (falta mostrar: {missing}).",
        "refusal_die_face": "Elige uno de los colores del dado.",
        "refusal_die_no_game": "Este juego no tiene dado de colores que enseñar.",
        "refusal_die_no_folder": "La configuración no indica ninguna carpeta de catálogo "
        "donde guardar el dado: pon table.catalogue en ella y vuelve a arrancar el "
        "acompañante.",
        "refusal_die_waiting": "La cámara aún no ha dado ninguna imagen: vuelve a mirar en "
        "un momento.",
        "refusal_die_no_camera": "Ninguna cámara vigila esta mesa, así que no hay dado que mirar.",
    },
}


def setup_said(lang: str, key: str, **params: object) -> str:
    """A word of setting up the table in `lang`, its parameters filled in."""
    return SETUP[pick(lang, None)][key].format(**params)


# The setup page's "teach your own dice" step (static/teach_pips.js, web/pips_teach.py),
# for a game whose camera reads the family's own pip dice; in both languages, the same keys.
TEACH_PIPS: dict[str, dict[str, str]] = {
    "en": {
        "pips_title": "Teach your own dice to the camera",
        "pips_help": "Playing with dice of your own, with pips? Lay one of them alone on the "
        "table, inside the four markers, showing each number in turn, and look each time, so "
        "that the camera learns what your dice look like.",
        "pips_face_one": "Showing 1 pip",
        "pips_face": "Showing {n} pips",
        "pips_look": "Look",
        "pips_looking": "Looking at the die…",
        "pips_learnt": "Learnt: the die showing {n} pips.",
        "pips_learnt_one": "Learnt: the die showing 1 pip.",
        "pips_progress": "{done} of 6 faces learnt.",
        "pips_save": "Save these dice",
        "pips_saved": "Your dice are taught and saved in {folder}, the configured catalogue "
        "folder: the camera reads them from now on.",
        "pips_not_written": "Nothing was saved: the folder could not be written ({problem}).",
        "refusal_pips_markers": "The table's four markers are not all seen: uncover them and "
        "look again.",
        "refusal_pips_many": "{n} dice are seen: lay only one die on the table, alone, and "
        "look again.",
        "refusal_pips_none": "No die is seen: lay one of your dice alone on the table, inside "
        "the markers, and look again.",
        "refusal_pips_face": "Choose a face from 1 to 6 pips.",
        "refusal_pips_unfinished": "Show every face from 1 to 6 first (still to show: {missing}).",
        "refusal_pips_no_game": "This game does not read dice with pips.",
        "refusal_pips_no_camera": "No camera watches this table, so there is no die to look at.",
        "refusal_pips_no_folder": "The configuration names no catalogue folder to save the "
        "dice in: set table.catalogue in it, then start the companion again.",
        "refusal_pips_waiting": "The camera has not given a picture yet: look again in a moment.",
    },
    "es": {
        "pips_title": "Enseña tus propios dados a la cámara",
        "pips_help": "¿Jugáis con dados vuestros, de puntos? Pon uno solo en la mesa, dentro "
        "de los cuatro marcadores, mostrando cada número por turno, y míralo cada vez, para "
        "que la cámara aprenda cómo son tus dados.",
        "pips_face_one": "Mostrando 1 punto",
        "pips_face": "Mostrando {n} puntos",
        "pips_look": "Mirar",
        "pips_looking": "Mirando el dado…",
        "pips_learnt": "Aprendido: el dado mostrando {n} puntos.",
        "pips_learnt_one": "Aprendido: el dado mostrando 1 punto.",
        "pips_progress": "{done} de 6 caras aprendidas.",
        "pips_save": "Guardar estos dados",
        "pips_saved": "Tus dados están enseñados y guardados en {folder}, la carpeta del "
        "catálogo de la configuración: la cámara los lee desde ahora.",
        "pips_not_written": "No se guardó nada: no se pudo escribir la carpeta ({problem}).",
        "refusal_pips_markers": "No se ven los cuatro marcadores de la mesa: destápalos y "
        "vuelve a mirar.",
        "refusal_pips_many": "Se ven {n} dados: deja en la mesa un solo dado, aparte, y vuelve "
        "a mirar.",
        "refusal_pips_none": "No se ve ningún dado: pon uno de tus dados solo en la mesa, "
        "dentro de los marcadores, y vuelve a mirar.",
        "refusal_pips_face": "Elige una cara de 1 a 6 puntos.",
        "refusal_pips_unfinished": "Muestra primero cada cara de 1 a 6 (falta mostrar: {missing}).",
        "refusal_pips_no_game": "Este juego no lee dados de puntos.",
        "refusal_pips_no_camera": "Ninguna cámara vigila esta mesa, así que no hay dado que mirar.",
        "refusal_pips_no_folder": "La configuración no indica ninguna carpeta de catálogo "
        "donde guardar los dados: pon table.catalogue en ella y vuelve a arrancar el "
        "acompañante.",
        "refusal_pips_waiting": "La cámara aún no ha dado ninguna imagen: vuelve a mirar en "
        "un momento.",
    },
}


def pips_said(lang: str, key: str, **params: object) -> str:
    """A word of teaching pip dice in `lang`, its parameters filled in (`_one` for one)."""
    words = TEACH_PIPS[pick(lang, None)]
    if params.get("n") == 1 and f"{key}_one" in words:
        key = f"{key}_one"
    return words[key].format(**params)


def teach_said(lang: str, key: str, **params: object) -> str:
    """A word of teaching a board in `lang`, its parameters filled in."""
    return TEACH_BOARD[pick(lang, None)][key].format(**params)
