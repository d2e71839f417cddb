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

from companion.games.protocol import LANGUAGES, Game

# A word whose count changes it has a second form, `<key>_one`, which the page says when the
# count `{n}` is 1; both languages have the same keys.
SHELL: dict[str, dict[str, str]] = {
    "en": {
        "title": "Caboose Companion",
        "language": "Español",
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
        "watch": "Watching a record",
        "watch_turn": "turn {n} of {total}",
        "watch_prev": "◀",
        "watch_next": "▶",
        "watch_stop": "Stop watching",
        "watch_other_game": "This record is of another game than this page's: start a game of "
        "it on the table first, then watch the record",
        "watch_play": "Play ▶▶ / pause",
        "new_game_confirm": "A game is being played: start a new one and end it?",
        "live": "live",
        "offline": "reconnecting…",
        "no_answer": "The table did not answer: check the Wi-Fi, look at the table, then try again",
    },
    "es": {
        "title": "Caboose Companion",
        "language": "English",
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
        "watch": "Viendo una partida",
        "watch_turn": "turno {n} de {total}",
        "watch_prev": "◀",
        "watch_next": "▶",
        "watch_stop": "Dejar de verla",
        "watch_other_game": "Este registro es de otro juego que el de esta página: empieza "
        "antes una partida de ese juego en la mesa y luego mira el registro",
        "watch_play": "Reproducir ▶▶ / pausa",
        "new_game_confirm": "Hay una partida en juego: ¿empezar otra y terminarla?",
        "live": "en directo",
        "offline": "reconectando…",
        "no_answer": "La mesa no contestó: revisa el wifi, mira la mesa y vuelve a probar",
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
    return SHELL[lang] | dict(game.words(lang))
