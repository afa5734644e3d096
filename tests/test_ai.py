"""The computer opponent: legality, tactics, budgets, progress, determinism."""

import pytest

from tanbo import ai
from tanbo import VARIANTS, Game, Rng
from tanbo.ai import (CONTESTED, DEFAULT_SLOWNESS, KEY_MAX, LEVEL_TABLE, LEVELS, PLAYED_COST, PROGRESS_EVERY,
                      PUSH_COST, REACH_COST, REACH_EIGHTHS, REMOVAL_COST, SHIFT, SLOWNESS, WIN, Search,
                      choose_move, node_budget)
from tanbo.perf import random_position

SEARCHING = ("easy", "medium", "hard")

# X to move; O's only root (A9) has one point of root space, A8, which X can
# fill from A7 without bounding its own root: A8 wins at once.
WIN_IN_ONE = "OX......./........./X......../........./........./........./........./........./......... X"

# X to move; X's A9 root can only grow to A8, which is walled in by O, so A8
# removes that root; the E5 root has four safe moves.
SELF_REMOVAL = "XO......./.O......./O......../........./....X..../........./........./........./......... X"




def test_levels_are_ordered_and_tabled():
    assert LEVELS == ("random", "easy", "medium", "hard")
    assert set(LEVEL_TABLE) == set(LEVELS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_plays_only_legal_moves(variant):
    for seed in range(3):
        g = random_position(variant, 8 + 25 * seed, seed)
        for level in LEVELS:
            m = choose_move(g, level, seed=seed)
            assert g.is_legal(m), (variant, level, g.position(), m)


def test_whole_games_between_levels_are_legal_in_odd_variants():
    for variant in ("4p", "1d", "3d", "dense-7", "hexbo-5-3p", "hexbo-5-6p", "hexbo-4"):
        g = Game(variant)
        turn = 0
        while not g.over:
            level = LEVELS[turn % len(LEVELS)]
            m = choose_move(g, level, seed=turn)
            g.play(m)  # raises IllegalMove if the AI erred
            turn += 1
        assert g.winner is not None


def test_win_in_one_position_is_what_it_claims():
    g = Game.from_position(WIN_IN_ONE)
    assert g.roots(2) and len(g.roots(2)) == 1
    assert g.root_space(g.point("A9")) == [g.point("A8")]
    g.play_move("A8")
    assert g.winner == 1


@pytest.mark.parametrize("level", SEARCHING)
def test_finds_an_immediate_win(level):
    g = Game.from_position(WIN_IN_ONE)
    for seed in range(5):
        assert g.name(choose_move(g, level, seed=seed)) == "A8"


def test_self_removal_position_is_what_it_claims():
    g = Game.from_position(SELF_REMOVAL)
    assert [g.name(p) for p in g.legal_moves()] == ["A8", "E6", "D5", "F5", "E4"]
    g.play_move("A8")
    assert g.root_count[1] == 1 and g.board[g.point("A9")] == 0


def test_a_pushed_removal_counts_as_the_board_time_it_takes():
    # Search.push tells a removal from the engine's removal stack: A8
    # removes X's A9 root (and an undo takes it back), E6 removes nothing.
    g = Game.from_position(SELF_REMOVAL)
    s = Search(g, "hard")
    s.push(g.point("A8"))
    assert s.iterations == PUSH_COST + REMOVAL_COST and s.game.root_count[1] == 1
    s.game.undo()
    s.push(g.point("E6"))
    assert s.iterations == 2 * PUSH_COST + REMOVAL_COST and s.game.root_count[1] == 2


@pytest.mark.parametrize("level", SEARCHING)
def test_avoids_an_immediate_self_removal(level):
    g = Game.from_position(SELF_REMOVAL)
    for seed in range(8):
        assert g.name(choose_move(g, level, seed=seed)) != "A8"


@pytest.mark.parametrize("level", SEARCHING)
def test_never_removes_own_root_when_a_safe_move_exists(level):
    """Over random positions: whenever some move keeps all the mover's roots, the choice does."""
    checked = 0
    for seed in range(80):
        g = random_position("9x9", 35 + seed % 40, seed)
        me = g.to_move
        roots = len(g.roots(me))
        safe = []
        for m in g.legal_moves():
            g.play(m)
            if g.winner == me or len(g.roots(me)) == roots:
                safe.append(m)
            g.undo()
        if safe and len(safe) < g.legal_count():
            checked += 1
            assert choose_move(g, level, seed=seed) in safe, g.position()
    assert checked >= 5  # the sample really contains positions with a trap


@pytest.mark.parametrize("variant", ("9x9", "19x19", "4p", "hexbo-5", "hexbo-6p"))
@pytest.mark.parametrize("level", LEVELS)
def test_budget_is_respected_in_nodes(variant, level):
    g = random_position(variant, 30, 1)
    stats = {}
    choose_move(g, level, stats=stats)
    assert stats["iterations"] <= stats["budget"]
    if level == "random":
        assert stats["iterations"] == 0
    else:
        assert stats["iterations"] > 0


def test_hard_uses_its_whole_budget_on_a_big_board_and_no_more(monkeypatch):
    g = random_position("19x19", 40, 2)
    stats = {}
    monkeypatch.setattr(ai, "LAST_PASS", 0)  # every pass begun, whatever its cost
    choose_move(g, "hard", stats=stats)
    # the default board is the slowest, the RP2040
    assert stats["budget"] == LEVEL_TABLE["hard"][3] * 10 // 44
    # a real play is not started without the budget for it
    assert stats["budget"] - PLAYED_COST < stats["iterations"] <= stats["budget"]


def test_a_pass_the_budget_cannot_finish_is_not_begun(monkeypatch):
    # Where the last pass would stop within its first root move, it is not
    # begun: the same move and depth, the nodes it would have wasted saved.
    g = random_position("19x19", 40, 2)
    short, whole = {}, {}
    move = choose_move(g, "hard", stats=short)
    monkeypatch.setattr(ai, "LAST_PASS", 0)
    assert choose_move(g, "hard", stats=whole) == move
    assert short["depth"] == whole["depth"]
    assert short["iterations"] < whole["iterations"] - 200


def test_a_hexbo_node_costs_more_board_time_and_its_budget_is_smaller():
    from tanbo.hexbo import NODE_COST
    assert Game("9x9").variant.node_cost == Game("4p").variant.node_cost == 100
    assert Game("hexbo-5").variant.node_cost == Game("hexbo-3p").variant.node_cost == NODE_COST[0]
    assert Game("hexbo-6p").variant.node_cost == NODE_COST[1] > NODE_COST[0] > 100
    for name, size in (("hexbo-5", 61), ("hexbo", 217), ("hexbo-5-6p", 61), ("hexbo-6p", 217)):
        g = Game(name)
        cost = g.variant.node_cost
        for slowness in (1.0, 4.4):
            want = LEVEL_TABLE["hard"][2 if size <= 125 else 3] * 1000 // (int(slowness * 10 + 0.5) * cost)
            assert Search(g, "hard", 0, slowness=slowness).budget == want == node_budget("hard", size, slowness, cost)
            assert want < node_budget("hard", size, slowness)


def test_budgets_scale_with_the_boards_slowness():
    assert SLOWNESS == {"samd51": 1.0, "rp2040": 4.4} and DEFAULT_SLOWNESS == SLOWNESS["rp2040"]
    for level in LEVELS:
        for size in (81, 361):
            fast = node_budget(level, size, SLOWNESS["samd51"])
            assert fast == LEVEL_TABLE[level][2 if size == 81 else 3]
            assert node_budget(level, size) == node_budget(level, size, 4.4) == fast * 10 // 44
    g = random_position("9x9", 12, 7)
    stats = {}
    choose_move(g, "hard", slowness=1.0, stats=stats)
    assert stats["budget"] == node_budget("hard", 81, 1.0) >= stats["iterations"]
    for bad in (0, -1, "fast", None, 1000):
        with pytest.raises(ValueError, match="slowness %r" % (bad,)):
            choose_move(g, "hard", slowness=bad)


@pytest.mark.parametrize("variant", ("9x9", "19x19", "4p", "3d", "1d", "hexbo-5", "hexbo-5-3p", "hexbo-6p"))
def test_scan_values_every_move_as_the_evaluation_after_playing_it(variant):
    """The incremental values equal a full evaluation after a real play, for either side to move."""
    checked = 0
    for seed in range(12):
        g = random_position(variant, 5 + 4 * seed, seed)
        s = Search(g, "hard", 0)
        s.forcing = 0  # keep values, not ordering keys, in the buffer
        sg = s.game
        played = set()  # moves the scan values by really playing them
        real = s.played

        def spy(m, root, ply):
            played.add(m)
            return real(m, root, ply)

        s.played = spy
        for replies in (False, True):
            if replies:
                s.push(sg.legal_move_at(0))
                if sg.over:
                    break
            buf = s.bufs[0]
            played.clear()
            n = s.scan(buf, sg.legal_count(), None, False, 1)
            assert sorted(buf[i] & 0x3FF for i in range(n)) == sg.legal_moves()
            sign = 1 if sg.to_move == s.me else -1
            for i in range(n):
                e, key = buf[i] & 0x3FF, buf[i] >> SHIFT
                roots = sum(sg.root_count)
                sg.play(e)
                if sum(sg.root_count) < roots:
                    assert e in played, "a removal is played out"
                if sg.over:  # the search's depth: the scan is at depth 1, its moves at 2
                    v = WIN - 2 if sg.winner == s.me else -WIN + 2
                else:
                    v = s.evaluate(sg)
                sg.undo()
                assert key == max(-KEY_MAX, min(KEY_MAX, sign * v)), (variant, seed, sg.name(e))
                checked += 1
    assert checked > 40


def test_an_inner_nodes_beam_is_ranked_by_keys_without_playing():
    # X's A8 fills O's last root space, a removal: a scan that values its
    # moves plays it out; an inner node's ranks them by keys, playing none.
    g = Game.from_position(WIN_IN_ONE)
    s = Search(g, "hard", 0)
    played = []
    real = s.played
    s.played = lambda m, root, ply: played.append(m) or real(m, root, ply)
    buf = s.bufs[1]
    n = s.scan(buf, len(buf), None, False, 1)
    assert not played and s.iterations == g.legal_count()
    assert n == min(len(buf), g.legal_count())
    keys = [buf[i] >> SHIFT for i in range(n)]
    assert keys == sorted(keys, reverse=True)
    s.forcing = 0  # values instead of keys: A8 is played to be valued
    s.scan(buf, len(buf), None, False, 1)
    assert g.point("A8") in played


def test_the_last_refutation_at_a_depth_is_searched_first():
    g = random_position("9x9", 20, 6)
    s = Search(g, "hard", 0)
    s.tt = False  # (a table would answer the repeated search at once)
    buf = s.bufs[1]
    n = s.scan(buf, len(buf), None, False, 1)
    beam = [buf[i] & 0x3FF for i in range(n)]
    pushed = []
    real = s.push
    s.push = lambda m: pushed.append(m) or real(m)
    for killer in (beam[-1], beam[2], -1):
        s.frames[10][1] = killer  # (its killer move at ply 1)
        del pushed[:]
        s.minimax(2, -WIN - 1, WIN + 1, 1)
        assert pushed[0] == (beam[0] if killer < 0 else killer)
        assert sorted(pushed) == sorted(beam)  # the whole beam (no bound cuts it)
    assert s.game.position() == g.position()


def _stone_hash(s):
    g, size = s.game, s.game.variant.size
    h = 0
    for p in range(size):
        if g.board[p]:
            h ^= s.zob[(g.board[p] - 1) * size + p]
    return h


def test_the_search_hash_follows_every_push_and_pop():
    # The transposition table's key, kept by XORs, equals one computed from
    # the stones, through removals (each removed stone XORed out) and back.
    removals = 0
    for variant in ("9x9", "4p", "3d"):
        for seed in range(6):
            g = random_position(variant, 10 + 6 * seed, seed)
            s = Search(g, "hard", 0)
            assert s.h == _stone_hash(s)
            removals += pushes_and_pops(s, Rng(seed), 80, lambda: _stone_hash(s) == s.h)
    assert removals >= 5


def pushes_and_pops(s, rng, steps, check):
    """``steps`` random plies of ``s`` pushed (up to its depth) and taken back as a
    search does, ``check()`` asserted after each; the pushes that removed a root."""
    g, below, removals = s.game, [], 0  # below: the hashes below the plies pushed
    for _ in range(steps):
        if g.winner is None and len(below) < s.max_depth and (not below or rng.below(3)):
            roots = sum(g.root_count)
            below.append(s.h)
            s.push(g.legal_move_at(rng.below(g.legal_count())))
            removals += sum(g.root_count) < roots
        elif below:
            g.undo()
            s.h = below.pop()
        assert check(), s.h
    return removals


# Black's A9 is walled in by White (its one point A8 leads nowhere), E5 and
# White's G5 face each other across F5.
WALLED = "XO......./.O......./OO......./........./....X.O../........./........./........./........O X"


def test_reach_counts_the_points_a_root_gets_first():
    g = Game.from_position(WALLED)
    s = Search(g, "hard", 0)
    tail = s.label_reach(s.game)
    label, _, queue, counts = s.work  # (its label, dist, queue and per-root counts)
    reached = {p: counts[g.root_at(g.point(p))] for p in ("A9", "E5", "B9", "G5", "J1")}
    assert reached["A9"] == 1  # A8: White cannot play there (two white stones touch it)
    assert reached["E5"] > 15 and reached["G5"] > 15 and reached["J1"] > 2
    assert label[g.point("F5")] == CONTESTED  # both colours at distance 0
    assert label[g.point("A8")] == g.root_at(g.point("A9")) + 1
    # every empty point is labelled at most once: the counts add up
    labelled = [p for p in range(g.variant.size) if label[p]]
    assert sorted(queue[:tail]) == labelled
    assert sum(counts) == sum(1 for p in labelled if label[p] != CONTESTED)
    # reach() leaves every label cleared for the next call, as it finds them
    for p in labelled:
        label[p] = 0
    s.reach(s.game)
    assert not any(label)


@pytest.mark.parametrize("variant", ("9x9", "dense-11", "3d", "hexbo-5", "hexbo-5-6p"))  # boards hard values reach on
def test_reach_is_a_function_of_the_position(variant):
    # A play and its undo reorder the legal lists: the reach (ties
    # included) must not change.
    for seed in range(6):
        g = random_position(variant, 6 + 7 * seed, seed)
        s = Search(g, "hard", 0)
        s.budget = 10 ** 9
        sg = s.game
        first = s.reach(sg), list(s.work[3])
        for i in range(0, sg.legal_count(), 3):
            sg.play(sg.legal_move_at(i))
            sg.undo()
        assert (s.reach(sg), list(s.work[3])) == first



def test_reach_values_root_moves_on_small_boards_only():
    # On 19x19 a reach per root move would take most of an RP2040's budget.
    reach_max = LEVEL_TABLE["hard"][5]
    for variant in ("9x9", "3d", "13x13", "19x19"):
        g = Game(variant)
        assert Search(g, "hard", 0).with_reach == (g.variant.size <= reach_max)
        assert not Search(g, "medium", 0).with_reach
    assert 81 <= reach_max < 169

def test_progress_is_called_with_nodes_and_budget():
    g = random_position("9x9", 20, 3)
    calls = []
    stats = {}
    choose_move(g, "hard", progress=lambda done, total: calls.append((done, total)), stats=stats)
    assert calls, "progress never called"
    assert all(total == stats["budget"] for _, total in calls)
    dones = [d for d, _ in calls]
    # the largest single count: a played move, or a root move's reach on 81 points
    step = max(PLAYED_COST, REACH_COST + g.variant.size * REACH_EIGHTHS // 8)
    assert dones == sorted(dones) and PROGRESS_EVERY <= dones[0] < PROGRESS_EVERY + step
    # one call each time the count passes a multiple of PROGRESS_EVERY
    assert all(b - a < PROGRESS_EVERY + step for a, b in zip(dones, dones[1:]))
    assert len(calls) == stats["iterations"] // PROGRESS_EVERY


@pytest.mark.parametrize("level", ("medium", "hard"))
def test_progress_returning_true_stops_once_depth_2_is_searched_whole(level):
    # A stop from the first report on (the handheld's B) once played a move of
    # a depth-0 or depth-1 scan; now it waits for a full two-ply search.
    g = random_position("19x19", 30, 4)
    full, stats = {}, {}
    choose_move(g, level, stats=full)
    m = choose_move(g, level, progress=lambda done, total: True, stats=stats)
    assert g.is_legal(m)
    if level == "medium":  # two plies at most: nothing to cut
        assert stats == full and m == choose_move(g, level)
    else:
        assert full["depth"] > 2 and stats["depth"] == 2 and stats["iterations"] < full["iterations"] // 2


def test_zero_movetime_stops_at_the_first_check():
    g = random_position("19x19", 30, 5)
    stats = {}
    m = choose_move(g, "hard", movetime_ms=0, stats=stats)
    assert stats["depth"] <= 1 and stats["iterations"] <= PLAYED_COST * g.legal_count() and g.is_legal(m)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_move_and_game_untouched(level):
    g = random_position("13x13", 25, 6)
    before = g.state_key()
    history = g.moves()
    a = choose_move(g, level, seed=11)
    b = choose_move(g, level, seed=11)
    assert a == b
    assert g.state_key() == before and g.moves() == history


def test_seeds_vary_the_choice_among_equal_moves():
    g = Game("19x19")
    assert len({choose_move(g, "easy", seed=s) for s in range(10)}) > 1


def test_bad_requests_are_refused_clearly():
    g = Game("9x9")
    with pytest.raises(ValueError, match="'brutal': unknown level"):
        choose_move(g, "brutal")
    won = Game.from_position(WIN_IN_ONE)
    won.play_move("A8")
    with pytest.raises(ValueError, match="game is over"):
        choose_move(won, "hard")


def test_search_reports_depth_reached():
    s = Search(Game("9x9"), "hard", 0)
    s.run()
    assert 2 <= s.depth <= LEVEL_TABLE["hard"][0]


def test_every_level_has_a_description():
    # docs/ai.md's Levels table: a row per level, saying what it does.
    import os
    import re
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "ai.md")) as f:
        text = f.read()
    rows = dict(re.findall(r"^\| `(\w+)` \| (.+?) \|$", text.split("## Levels", 1)[1].split("\n## ", 1)[0], re.M))
    assert sorted(rows) == sorted(LEVELS) and all(rows[level].strip() for level in LEVELS)


def _minimax(search, g, depth, ply):
    """Plain full-width minimax with the search's own evaluation (the reference)."""
    if g.over:
        return WIN - ply if g.winner == search.me else -WIN + ply
    if depth == 0:
        return search.evaluate(g)
    values = []
    for m in g.legal_moves():
        g.play(m)
        values.append(_minimax(search, g, depth - 1, ply + 1))
        g.undo()
    return max(values) if g.to_move == search.me else min(values)


def test_full_width_search_finds_the_minimax_value(monkeypatch):
    # depth 3, no beam, no noise, no budget limit: alpha-beta with the
    # incremental last ply must give exactly the plain minimax value
    monkeypatch.setitem(LEVEL_TABLE, "hard", (3, 0, 10 ** 8, 10 ** 8, 0, 0))
    for seed in range(4):
        g = random_position("9x9", 12 + 8 * seed, seed)
        s = Search(g, "hard", 0)
        m = s.run()
        assert s.depth == 3
        me, roots = g.to_move, g.root_count[g.to_move]
        best = None
        for move in g.legal_moves():
            g.play(move)
            safe = g.winner == me or g.root_count[me] == roots
            v = _minimax(s, g, 2, 1)
            g.undo()
            if safe and (best is None or v > best):
                best = v
        assert s.score == best, (seed, g.position())
        g.play(m)
        assert _minimax(s, g, 2, 1) == best
        g.undo()


def test_the_transposition_table_changes_no_value(monkeypatch):
    # depth 4, no beam, no noise: alpha-beta with and without the table
    # must find the same value, the table in fewer nodes overall
    monkeypatch.setitem(LEVEL_TABLE, "hard", (4, 0, 10 ** 8, 10 ** 8, 0, 0))
    with_table = without = 0
    for variant, seed in (("9x9", 0), ("9x9", 3), ("dense-7", 2), ("dense-7", 3), ("4p", 1)):
        g = random_position(variant, 20 + 5 * seed, seed)
        a, b = Search(g, "hard", 0), Search(g, "hard", 0)
        b.tt = False
        a.run()
        b.run()
        assert a.depth == b.depth == 4 and a.score == b.score, (variant, seed)
        with_table += a.iterations
        without += b.iterations
    assert with_table < without


@pytest.mark.parametrize("variant", ["19x19", "4p", "3d", "1d", "dense-11", "hexbo-5-3p", "hexbo-6p"])
def test_a_reused_search_plays_as_fresh_ones_on_every_kind_of_board(variant):
    # One Search a game, started again for each move (its arrays allocated
    # once), against a fresh one each move: the same moves, nodes, depths
    # and values, over a game's first moves at a reduced budget.
    from subset.check_ai import same_as_fresh
    same_as_fresh(variant, "hard", 4, 20.0)


@pytest.mark.parametrize("variant", ["9x9", "4p"])
def test_the_roots_lists_are_made_once_a_game_and_grow_to_their_bound_at_most_once(variant):
    # The root's moves, noise and scores live on the Search from the game's
    # start (a block a search made late in a game was what a PyBadge's
    # fragmented heap lacked): each search cuts them to its moves in place.
    # A root with more moves than they have room for makes them at their
    # bound (the board's points) once; either way the same moves, nodes,
    # depths and scores as a fresh search's.
    from tanbo import ai
    fresh = []
    g = Game(variant)
    for i in range(6):
        s = ai.Search(g, "hard", seed=g.ply, slowness=40.0)
        fresh.append((s.run(), s.iterations, s.depth, s.score))
        g.play(fresh[-1][0])
        g.play(g.legal_moves()[g.ply % g.legal_count()])
    for room in (None, 1):
        g = Game(variant)
        s = ai.Search(g, "hard", seed=0, slowness=40.0)
        if room:  # lists with room for one root move: the first search's root has more
            s.bufs[-2], s.bufs[-1], s.bufs[0] = [0], ai.array("i", [0]), [0]
        made = (s.bufs[-2], s.bufs[-1], s.bufs[0])
        assert room or len(s.bufs[-1]) == {"9x9": 26, "4p": 98}[variant]
        most = 0  # the most root moves a search met
        for i in range(6):
            most = max(most, g.legal_count())
            s.start(g, g.ply)
            m = s.run()
            assert (m, s.iterations, s.depth, s.score) == fresh[i], (room, i)
            g.play(m)
            g.play(g.legal_moves()[g.ply % g.legal_count()])
        if room:
            # grown to the root's moves and 8 more, within the board's points
            assert most <= len(s.bufs[-1]) <= min(most + 8, g.variant.size)
        else:
            assert all(
                a is b for a, b in zip((s.bufs[-2], s.bufs[-1], s.bufs[0]), made))
        assert len(s.bufs[-2]) <= len(s.bufs[-1]) and len(s.bufs[0]) <= len(s.bufs[-1])


def test_two_player_hexbo_weighs_a_roots_first_points_of_space_twice_and_the_other_boards_as_before():
    # tanbo.hexbo.SPACE_WEIGHT (docs/ai.md, Hexbo): hard then beat medium on hexbo-5.
    from tanbo.weights import ROOM, ROOT, SPACE
    for name, weight in (("9x9", 100), ("19x19", 100), ("4p", 100), ("hexbo-5", 200), ("hexbo", 200),
                         ("hexbo-5-3p", 100), ("hexbo-6p", 100)):
        g = Game(name)
        value = Search(g, "hard", 0).terms[0]
        assert g.variant.space_weight == weight
        for s in (0, 1, 2, 5, 11, 40):
            if s < len(value):
                assert value[s] == ROOT + SPACE[min(s, len(SPACE) - 1)] * weight // 100 + ROOM * s


# MicroPython keeps an instance's attributes in a hash table that grows, only
# when full, through 29, 37, 47, 59, 73 slots (8 bytes each on a board, 16 on
# the unix port): a search's table of 73 (584 B, and the 59 one freed as it
# grew) was a block a 6-player Hexbo game's second search found no room for
# at 123,000 B free. 37 attributes keep it at 37 slots (296 B), and an
# attribute more grows it to 47 (376 B more, at a search's start): group it
# with those read together (see Search.__init__'s end).
MAX_ATTRIBUTES = 37


def most_attributes(make, variant, level, seed=1):
    """The most instance attributes a search that ``make(game, level, seed)``
    makes holds in its life: made, paused at each step of a walk (minimax's,
    the scans' and the reach's pause states; a search that plays on the
    game itself, never stepped, run at once), run to its end, started again
    for the next move and run."""
    g = random_position(variant, 6 + seed, seed)
    s = make(g, level, seed)
    most = len(s.__dict__)
    if getattr(s, "shared", False):
        s.run()
    else:
        while not ai.step(s, 41):
            most = max(most, len(s.__dict__))
    g.play(s.move)
    s.start(g, seed + 1)
    s.run()
    return max(most, len(s.__dict__))


@pytest.mark.parametrize("variant", ("9x9", "19x19", "dense-11", "3d", "4p", "hexbo-6p"))
def test_a_search_keeps_its_attributes_in_a_37_slot_table(variant):
    # hard with and without reach (9x9 and 19x19), each level below it.
    for level in LEVELS:
        assert most_attributes(Search, variant, level) <= MAX_ATTRIBUTES, level
