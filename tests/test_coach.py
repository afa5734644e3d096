"""The coach's verdicts (issue 36): tanbo.coach, shared by the handheld's Review and tanbo analyse."""

import pytest
from hypothesis import given, strategies as st

from tanbo import Game
from tanbo.ai import WIN, Search
from tanbo.coach import BLUNDER, INACCURACY, MISTAKE, Coach, judge, verdict

# White to move; A4 lets Black bound a White root (hard: B4). Found by the
# coach in a game of hard against random moves, seed 3, ply 41.
BLUNDER_9X9 = "..O.OOXX./.OOOO..X./OO.O...X./.OXXXX.X./OOX..XXXX/.......X./....X..../XXXXXXX../......... O"


def test_a_known_blunder_is_a_blunder_and_hards_move_is_good():
    g = Game.from_position(BLUNDER_9X9)
    before = g.position()
    a4, b4 = g.variant.parse_point("A4"), g.variant.parse_point("B4")
    best, best_score, played_score, v = judge(g, a4)
    assert v == "blunder"
    assert best == b4
    assert played_score <= -WIN + 10000 < best_score  # A4 walks into a lost game
    assert judge(g, b4) == (b4, best_score, best_score, None)
    assert g.position() == before  # never mutated


def test_a_resignation_with_a_position_not_lost_is_a_blunder():
    g = Game.from_position(BLUNDER_9X9)
    best, best_score, played_score, v = judge(g, -g.to_move)
    assert (played_score, v) == (-WIN, "blunder")


def test_stepped_judges_as_at_once_and_leaves_a_reused_search_as_found():
    g = Game("9x9")
    for _ in range(6):
        g.play(g.legal_moves()[0])
    move = g.legal_moves()[-1]
    whole = judge(g, move, budget=3000)
    s = Search(g, "hard", 0)
    kept = (s.noise, s.max_depth, s.budget)
    c = Coach(g, move, budget=3000, search=s)
    steps = 0
    while not c.step(37):
        steps += 1
        done, total = c.progress()
        assert 0 <= done <= total
    assert steps > 10
    assert (c.best, c.best_score, c.played_score, c.verdict) == whole
    assert c.search is s and (s.noise, s.max_depth, s.budget) == kept
    assert "safe" not in s.__dict__


@given(st.integers(-3 * BLUNDER, 3 * BLUNDER), st.sampled_from([2, 3, 4]))
def test_verdicts_scale_with_the_players_and_grow_with_the_loss(loss, players):
    v = verdict(loss, 0, players)
    unit = players - 1
    order = (None, "inaccuracy", "mistake", "blunder")
    expect = (3 if loss >= BLUNDER * unit else 2 if loss >= MISTAKE * unit
              else 1 if loss >= INACCURACY * unit else 0)
    assert v == order[expect]
    assert order.index(verdict(loss + 100, 0, players)) >= expect


def test_bad_input_is_refused_clearly():
    g = Game.from_position(BLUNDER_9X9)
    taken = g.variant.parse_point("H9")
    with pytest.raises(ValueError, match="H9 is not legal"):
        Coach(g, taken)
    with pytest.raises(ValueError, match="unknown level"):
        Coach(g, g.legal_moves()[0], level="expert")
    with pytest.raises(ValueError, match="budget"):
        Coach(g, g.legal_moves()[0], budget=0)
    g.resign()
    with pytest.raises(ValueError, match="game is over"):
        Coach(g, 0)
