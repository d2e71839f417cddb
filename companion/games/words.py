"""What every game's words module does the same way: its refusals' words joined to its
page's words (`refusal_<key>`, the English being the refusal's own message), and a word
said with its parameters, its `_one` form when the count is one, as the page's `t` says
it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.protocol import LANGUAGES

# The shared checks' refusals (a request's fields, a player's name, no game yet: requests.py,
# names.py, lobby.py) in the languages other than English, which every game says alike.
CHECKS: dict[str, dict[str, str]] = {
    "es": {
        "bad_flag": "{field} debe ser true o false",
        "bad_text": "{field} debe ser un texto corto",
        "bad_names": "{field} debe listar los nombres de los jugadores",
        "unknown_fields": "campos desconocidos: {fields}; esta petición admite {allowed}",
        "missing_fields": "faltan campos: {fields}",
        "unknown_command": "este juego no tiene la orden {name}: sus órdenes son {commands}",
        "name_not_text": "el nombre del jugador {player} debe ser un texto",
        "name_too_long": "el nombre del jugador {player} tiene {length} caracteres: un "
        "nombre tiene como mucho {most}",
        "name_control": "el nombre del jugador {player} tiene un carácter de control (un "
        "salto de línea, un tabulador…): escríbelo en una línea",
        "name_invisible": "el nombre del jugador {player} no muestra nada (solo espacios o "
        "caracteres invisibles): escribe un nombre que se pueda leer",
        "no_game_yet": "no hay ninguna partida en juego: empieza una primero",
        "same_names": "dos jugadores tienen el mismo nombre: dale a cada uno el suyo",
    },
}


def with_refusals(
    text: Mapping[str, Mapping[str, str]], refusals: Mapping[str, Mapping[str, str]]
) -> dict[str, dict[str, str]]:
    """A game's words in every language with its refusals as `refusal_<key>`: `refusals`
    holds the other languages' words (the shared checks' `CHECKS` are added, a game's own
    word for one of them winning); in English a refusal says its own message, but where
    `refusals["en"]` words it anew (a refusal whose message names cards by their codes)."""
    merged = {lang: CHECKS.get(lang, {}) | dict(refusals[lang]) for lang in refusals}
    every = merged | {"en": dict.fromkeys(merged["es"], "{message}") | merged.get("en", {})}
    return {
        lang: dict(text[lang]) | {f"refusal_{key}": words for key, words in every[lang].items()}
        for lang in LANGUAGES
    }


# A game's words of its advice on the private advisor's page, among its page's words.
ADVISOR_PREFIX = "advisor_"


def with_advisor(
    text: Mapping[str, Mapping[str, str]], advisor: Mapping[str, Mapping[str, str]]
) -> dict[str, dict[str, str]]:
    """A game's words in every language with the private advisor's words of its advice as
    `advisor_<key>`: the advisor's page says them as `<key>`, beside its own (web/words.py)."""
    return {
        lang: dict(text[lang])
        | {ADVISOR_PREFIX + key: words for key, words in advisor[lang].items()}
        for lang in LANGUAGES
    }


def say(words: Mapping[str, str], key: str, **params: Any) -> str:
    """One of a game's words with its parameters: its `_one` form when the count `n` is 1."""
    template = words.get(f"{key}_one", words[key]) if params.get("n") == 1 else words[key]
    return template.format_map(params)
