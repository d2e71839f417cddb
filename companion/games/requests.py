"""A page's request as a game's command reads it: the shared check of its fields, so that
every game refuses a typo, an unknown field or a missing one the same way (`Malformed`,
with the keys `unknown_fields` and `missing_fields` the page says in its language).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.protocol import Malformed

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
    return {name: checks[name](value, name) for name, value in data.items()}
