"""No request, however strange, gets a 500 or changes the game when refused."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import HEADERS, record

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 10)
    | st.sampled_from(["1", "2x", "C3", "4/s", "3!", "", "x", "pass"])
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=12)
turns = st.lists(
    st.dictionaries(
        st.sampled_from(["pass", "play", "roll", "chaos", "order", "place", "drawn", "jump"]),
        values,
        max_size=3,
    ),
    max_size=3,
)
setups = st.fixed_dictionaries(
    {"railway": values, "caboose": values, "hands": values, "draw": values}
)

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(turns=turns, setup=st.none() | setups)
def test_strange_records_are_refused_cleanly(client, dealt, turns, setup):
    doc = record(turns=turns) if setup is None else record(turns=turns, setup=setup)
    before = json.dumps(dealt.record()[2])
    answer = client.post("/api/import", json={"record": doc}, headers=HEADERS)
    assert answer.status_code in (200, 400, 422), answer.json
    if answer.status_code != 200:
        assert json.dumps(dealt.record()[2]) == before
    watched = client.post("/api/replay", json={"record": doc, "turn": 3})
    assert watched.status_code in (200, 400, 422), watched.json


@FUZZ
@given(
    path=st.sampled_from(["pass", "play", "chaos", "stage", "order", "correct"]),
    body=st.dictionaries(
        st.sampled_from(["seat", "cards", "roll", "place", "order", "confirm"]), values, max_size=4
    ),
)
def test_strange_turns_are_refused_cleanly(client, dealt, path, body):
    answer = client.post(f"/api/{path}", json=body, headers=HEADERS)
    assert answer.status_code in (200, 400, 409, 422), answer.json
