"""`companion simulate`: the games it counts."""

from __future__ import annotations

from companion.games.caboose.simulate import simulate


def test_a_run_without_records_counts_the_games_a_run_with_them_does(tmp_path):
    for edition, players, variant in [("rollecate", 4, None), ("loknroll", 1, "solo-laura")]:
        kept = simulate(edition, players, 6, "same", records=tmp_path / edition, variant=variant)
        alone = simulate(edition, players, 6, "same", variant=variant)
        assert len(list((tmp_path / edition).glob("game-*.json"))) == 6
        mine, theirs = kept.as_json(), alone.as_json()
        del mine["games_per_second"], theirs["games_per_second"]
        assert mine == theirs
