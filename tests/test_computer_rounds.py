"""A round of the computer's replies shares one budget (tanbo.ai.ROUND_MS).

In 6-player Hexbo against five computer players at hard the person waited
7.3-8.9 s on a PicoSystem for a round of replies (each 1.2-2.7 s). The
searches of a round now share ROUND_MS of board time, counted in nodes (a
node budget is a time budget: tanbo.ai.NODE_US, each variant's node_cost),
each move getting a share of what the round has left; each reply is still
played and drawn on its own. Counted through the app in the simulator.
"""

import pytest
from tanbo import Game, ai

from test_sim_games import game_screen

ROUNDS = 3


def record_searches(monkeypatch):
    """Each search's (mover, ply, its nodes cap, nodes searched, budget), as the app runs it."""
    real = ai.choose_move
    seen = []

    def choose_move(game, level, seed, progress=None, **kwargs):
        stats = {}
        mover, cap = game.to_move, kwargs["search"].held[10]  # (Search.limit's, for this search)
        move = real(game, level, seed, progress, stats=stats, **kwargs)
        seen.append((mover, game.ply, cap or None, stats["iterations"], stats["budget"]))
        return move

    monkeypatch.setattr(ai, "choose_move", choose_move)  # GameScreen.choose imports it per move
    return seen


def rounds_of(seen):
    """The searches grouped by round: those between two moves of the person (player 1)."""
    out, last = [], None
    for s in seen:
        if last is None or s[1] != last + 1:
            out.append([])
        out[-1].append(s)
        last = s[1]
    return out


def ms(nodes, slowness, cost):
    """Board time (ms) of ``nodes`` search nodes, as tanbo.ai budgets it."""
    return nodes * ai.NODE_US * slowness * cost / 100 / 1000


def test_a_round_of_five_hard_replies_shares_one_budget_and_shows_each_move(sim, monkeypatch):
    app = sim.app
    app.settings.level = 3  # hard
    app.settings.ponder = False
    seen = record_searches(monkeypatch)
    app.play(Game("hexbo-6p"), (2, 3, 4, 5, 6))
    sim.frames(300)
    gs = game_screen(sim)
    g = gs.game
    slowness, cost = app.hw.slowness, g.variant.node_cost
    refreshes = []
    real_refresh = app.refresh

    def refresh():
        refreshes.append(g.ply)
        real_refresh()

    monkeypatch.setattr(app, "refresh", refresh)
    for _ in range(ROUNDS):
        assert g.to_move == 1
        gs.cursor = g.legal_move_at(g.legal_count() // 3)
        sim.press("A")
        for _ in range(40):
            sim.frames(200)
            if g.to_move == 1 or g.winner is not None:
                break
    rounds = rounds_of(seen)
    assert len(rounds) == ROUNDS and all(len(r) == 5 for r in rounds), rounds
    share = ai.round_nodes(slowness, cost)
    for r in rounds:
        used = sum(s[3] for s in r)
        # the round within its nodes (a search may pass its cap by a real play), each move capped
        assert used <= share + 5 * ai.PLAYED_COST, (r, share)
        assert all(s[2] is not None and s[2] <= s[4] for s in r), r
        assert ms(used, slowness, cost) <= ai.ROUND_MS * 1.02, r
        print("round: nodes %s of %d, %.1f s of search" % ([s[3] for s in r], share,
                                                           ms(used, slowness, cost) / 1000))
    # each reply drawn as it is played: a refresh after each of the round's plies
    for r in rounds:
        for s in r:
            assert s[1] + 1 in refreshes, (s, refreshes)


def test_one_reply_keeps_its_levels_budget(sim, monkeypatch):
    app = sim.app
    app.settings.level = 3
    app.settings.ponder = False
    seen = record_searches(monkeypatch)
    app.play(Game("hexbo"), (2,))  # one computer player: no round to share
    sim.frames(300)
    gs = game_screen(sim)
    gs.cursor = gs.game.legal_move_at(0)
    sim.press("A")
    sim.frames(2000)
    assert len(seen) == 1 and seen[0][2] is None, seen
