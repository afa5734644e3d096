"""The plain UCT yardstick of tanbo match: legal, seeded, takes an obvious win."""

import pytest

from tanbo import Game
from tanbo.perf import random_position
from tanbo_tools import match, uct

WIN_IN_ONE = "OX......./........./X......../........./........./........./........./........./......... X"


def test_plays_legal_seeded_moves_and_leaves_the_game_alone():
    for variant in ("9x9", "4p", "1d"):
        g = random_position(variant, 12, 2)
        before = g.state_key()
        m = uct.choose_move(g, 60, seed=3)
        assert g.is_legal(m)
        assert uct.choose_move(g, 60, seed=3) == m
        assert g.state_key() == before


def test_finds_an_immediate_win():
    g = Game.from_position(WIN_IN_ONE)
    assert g.name(uct.choose_move(g, 300, seed=1)) == "A8"


@pytest.mark.parametrize("spec", ["uct:", "uct:0", "uct:x", "uct:-5", "uctx:5"])
def test_bad_specs_are_refused_quoting_them(spec):
    with pytest.raises(ValueError, match="'%s'" % spec):
        uct.parse_spec(spec)
    with pytest.raises(ValueError, match="'%s'" % spec):
        match.check_player(spec)


def test_a_match_game_against_uct_finishes():
    assert match.check_player("uct:20") == "uct:20"
    a_won, record, plies, clock, forfeit, _, seat = match.play_game("random", "uct:20", "9x9", 0, 0, None)
    assert plies > 0 and "uct:20" in record and clock[3] > 0 and forfeit is None
