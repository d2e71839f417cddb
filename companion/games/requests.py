"""A page's request as a game's command reads it: the shared check of its fields, so that
every game refuses a typo, an unknown field or a missing one the same way (`Malformed`,
with the keys `unknown_fields` and `missing_fields` the page says in its language), a value
of the wrong type or out of range naming its field (`fields`), and the start form's
request, the same for every game (`start`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.names import first_bad_name
from companion.games.protocol import Malformed, Start

Check = Callable[[Any, str], Any]


def fields(
    data: Mapping[str, Any], checks: Mapping[str, Check], required: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A request's fields, each checked; unknown or missing fields are refused naming them,
    so a typo never passes silently as a default."""
    unknown = sorted(set(data) - set(checks))
    if unknown:
        raise Malformed(
            "request",
            f"unknown fields {unknown}: this request takes {sorted(checks)}",
            fields=unknown,
            key="unknown_fields",
            params={"fields": ", ".join(unknown), "allowed": ", ".join(sorted(checks))},
        )
    missing = [name for name in required if name not in data]
    if missing:
        raise Malformed(
            "request",
            f"missing fields {missing}",
            fields=missing,
            key="missing_fields",
            params={"fields": ", ".join(missing)},
        )
    return {name: _checked(checks[name], value, name) for name, value in data.items()}


def _checked(check: Check, value: Any, name: str) -> Any:
    """One field checked; its refusal names the field (`fields`, as an unknown or missing
    field's does), so the page and a script know which value to fix whatever the check."""
    try:
        return check(value, name)
    except Malformed as refusal:
        refusal.extra.setdefault("fields", [name])
        raise


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise Malformed(
            "request", f"{name} must be true or false", key="bad_flag", params={"field": name}
        )
    return value


def text(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise Malformed(
            "request", f"{name} must be a short text", key="bad_text", params={"field": name}
        )
    return value


def _optional_text(value: Any, name: str) -> str | None:
    return None if value is None else text(value, name)


def _seed(value: Any, name: str) -> int | str | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return text(value, name)


def _any(value: Any, name: str) -> Any:
    return value


def start(data: Mapping[str, Any], most: int) -> Start:
    """A new game as the start form sends it (`POST /api/game`): the option (the API's
    `edition` field, whatever a game calls its options), the variant, one to `most` players'
    names (the game's rules may ask for more than one), a seed. Its optional `game`, the
    game's id, is the shared route's to check (the registry knows the games)."""

    def names(value: Any, name: str) -> list[str]:
        if not isinstance(value, list) or not 1 <= len(value) <= most:
            raise Malformed(
                "request",
                f"{name} must list 1 to {most} players' names",
                key="bad_names",
                params={"field": name},
            )
        bad = first_bad_name(value)
        if bad is not None:
            message, key, params = bad
            raise Malformed("request", f"{name}: {message}", key=key, params=params)
        return value

    got = fields(
        data,
        {
            "game": _any,
            "edition": text,
            "variant": _optional_text,
            "names": names,
            "seed": _seed,
        },
        ("edition", "names"),
    )
    return Start(tuple(got["names"]), got["edition"], got.get("variant"), got.get("seed"))


# A game's commands as its page sends them (`POST /api/command/<name>`) and the reader of
# each one's JSON.
Routes = Mapping[str, Callable[[Mapping[str, Any]], object]]


class UnknownCommand(Malformed):
    """A command the game does not have (the API answers 404): the message, and the key
    `unknown_command` the page says in its language, name the commands it has."""


def command(routes: Routes, route: str, data: Mapping[str, Any]) -> object:
    """The command a route's JSON object asks for (`Malformed` if it is not one)."""
    try:
        read = routes[route]
    except KeyError:
        raise UnknownCommand(
            "request",
            f"there is no command {route!r}: use {', '.join(routes)}",
            key="unknown_command",
            params={"name": route, "commands": ", ".join(routes)},
        ) from None
    return read(data)
