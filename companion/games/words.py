"""What every game's words module does the same way: its refusals' words joined to its
page's words (`refusal_<key>`, the English being the refusal's own message), and a word
said with its parameters, its `_one` form when the count is one, as the page's `t` says
it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.protocol import LANGUAGES


def with_refusals(
    text: Mapping[str, Mapping[str, str]], refusals: Mapping[str, Mapping[str, str]]
) -> dict[str, dict[str, str]]:
    """A game's words in every language with its refusals as `refusal_<key>`: `refusals`
    holds the other languages' words; in English a refusal says its own message."""
    every = {"en": dict.fromkeys(refusals["es"], "{message}")} | dict(refusals)
    return {
        lang: dict(text[lang]) | {f"refusal_{key}": words for key, words in every[lang].items()}
        for lang in LANGUAGES
    }


def say(words: Mapping[str, str], key: str, **params: Any) -> str:
    """One of a game's words with its parameters: its `_one` form when the count `n` is 1."""
    template = words.get(f"{key}_one", words[key]) if params.get("n") == 1 else words[key]
    return template.format_map(params)
