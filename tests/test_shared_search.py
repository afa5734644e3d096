"""A search that plays on the caller's game: app.shared_search.SharedSearch.

On a PyBadge the 4p variant's game, its search and its screen fit only
without the search's own copy of the game (11 KB of the board's heap):
there the search plays its plies on the app's game and takes them back
(app.screens.game.SHARE_ABOVE). It must leave the game exactly as it was
(the stones and every table, the history, and the order of each player's
legal list, which undo does not keep and on which the next search's move
order and every seeded pick depend), also when it is stopped or broken
off by a MemoryError; so a game searched many times searches on exactly
as the same position replayed afresh.
"""

import os
import sys

import pytest
from tanbo import Game
from tanbo.ai import Search
from tanbo.rng import Rng

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device"))
from app.shared_search import SharedSearch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_ai import LEVELS, MAX_ATTRIBUTES, most_attributes, pushes_and_pops  # noqa: E402


def state(g):
    """Everything of ``g`` a later move, search or undo reads (``root_of``, ``nxt``
    and ``legal_index`` where they are not stale: a stone's, a legal point's)."""
    legal = [list(g.legal_points[k][:g.legal_total[k]]) for k in g.pids]
    index = [[g.legal_index[k][p] for p in legal[k - 1]] for k in g.pids]
    tables = [list(t) for t in (g.board, g.head, g.space, g.alive, g.root_player)]
    tables += [list(t) for t in g.touch_count[1:] + g.space_root[1:]]
    roots = [(g.root_of[p], g.nxt[p]) if g.board[p] else None for p in range(g.variant.size)]
    history = (g._nh, list(g._moves[:g._nh]), g._nrem, list(g._rem[:g._nrem]))
    return (legal, index, tables, roots, history, list(g.legal_total), list(g.root_count), g.to_move,
            g.winner, g.ply)


def played(variant, seed, plies):
    """``variant`` after ``plies`` seeded random moves (fewer if it ends)."""
    g, r = Game(variant), Rng(seed)
    for _ in range(plies):
        if g.winner is not None:
            break
        g.play(g.legal_move_at(r.below(g.legal_count())))
    return g


def replayed(g):
    """A new game of ``g``'s moves: the position without the searches made on ``g``."""
    twin = Game(g.variant.name)
    for m in g.moves():
        twin.play(m)
    return twin


def result(s):
    return s.move, s.iterations, s.depth, s.score


@pytest.mark.parametrize("variant", ["4p", "9x9", "hexbo-6p"])
def test_a_shared_search_leaves_the_game_as_it_was_and_searches_as_on_a_fresh_one(variant):
    searches = 0
    for seed in range(3):
        g = played(variant, seed, 20 + 15 * seed)
        shared = SharedSearch(g, "hard", 0)
        assert shared.game is g  # no copy
        for _ in range(4):
            if g.winner is not None:
                break
            before = state(g)
            shared.start(g, g.ply)
            m = shared.run()
            assert state(g) == before and shared.kept[1] == -1
            fresh = SharedSearch(replayed(g), "hard", g.ply)
            fresh.run()
            assert result(shared) == result(fresh)
            g.play(m)
            searches += 1
    assert searches >= 10


@pytest.mark.parametrize("variant", ["4p", "hexbo-6p"])  # colours 1-4, 1-6
def test_its_hash_follows_every_push_and_undo(variant):
    # One row of words times the colour (SharedSearch.words), kept by XORs
    # through removals, equals one computed from the stones.
    removals = 0
    for seed in range(6):
        g = played(variant, seed, 150 + 40 * seed)
        s = SharedSearch(g, "hard", 0)

        def stones_hash():
            h = 0
            for p in range(g.variant.size):
                h ^= s.zob[p] * g.board[p]
            return h

        def check():
            # every key picks an entry of its half-sized table (SharedSearch.hashing)
            return s.h == stones_hash() and max((s.h ^ s.zob[-c]) & 0xFF for c in g.pids) < len(s.table[2]) == 128
        assert s.h == stones_hash() != 0
        removals += pushes_and_pops(s, Rng(seed), 300, check)
    assert removals >= 5


def test_it_holds_no_copy_and_a_quarter_of_the_words():
    g = played("4p", 2, 40)
    shared, own = SharedSearch(g, "hard", 0), Search(g, "hard", 0)
    assert shared.game is g and own.game is not g
    size = g.variant.size
    assert (len(shared.zob), len(own.zob)) == (size + 4, 4 * size + 4)


def stop_after(calls):
    """A progress callback asking the search to stop at its ``calls``-th report."""
    seen = []

    def progress(done, total):
        seen.append(done)
        return len(seen) >= calls
    return progress


def test_a_stopped_shared_search_leaves_the_game_as_it_was():
    g = played("4p", 5, 60)
    before = state(g)
    s = SharedSearch(g, "hard", 7, stop_after(40))
    s.run()
    assert s.stopped and state(g) == before
    fresh = SharedSearch(replayed(g), "hard", 7, stop_after(40))
    fresh.run()
    assert result(s) == result(fresh)


@pytest.mark.parametrize("at", [1, 30, 100])
def test_a_shared_search_broken_off_by_a_memory_error_leaves_the_game_as_it_was(at):
    # The app's handler (App.out_of_memory) then searches the same move
    # lighter, on this game: the error came at a node deep in the tree,
    # with plies of the search on the game.
    g = played("4p", 3, 50)
    before = state(g)
    plies = []

    def progress(done, total):
        plies.append(g._nh)
        if len(plies) == at:
            raise MemoryError
    s = SharedSearch(g, "hard", 4, progress)
    with pytest.raises(MemoryError):
        s.run()
    assert at == 1 or max(plies) > before[4][0]  # plies of the search were on the game
    assert state(g) == before and s.kept[1] == -1
    # and the game searches on as if nothing had happened
    s.start(g, 4)
    s.run()
    fresh = SharedSearch(replayed(g), "hard", 4)
    fresh.run()
    assert result(s) == result(fresh)


@pytest.mark.parametrize("at", [1, 5, 12])
def test_a_shared_search_whose_ply_broke_off_midway_leaves_the_game_as_it_was(at):
    # A removal's records that find no block for their next step (a board's
    # full heap) break the ply off with its tables half changed, which undo
    # cannot read: the game is played again to the search's base.
    g = played("4p", 3, 200)  # (the search removes roots 12 times)
    before = state(g)
    real, calls = g._check_winner, []

    def check():  # (a removing ply's last step: its stones are off the board)
        calls.append(g._nh)
        if len(calls) == at:
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        return real()
    g._check_winner = check
    s = SharedSearch(g, "hard", 4)
    with pytest.raises(MemoryError):
        s.run()
    del g._check_winner
    assert calls[at - 1] > before[4][0]  # broken off in a ply of the search (then the replay's)
    assert not g.broken() and state(g) == before and s.kept[1] == -1
    s.start(g, 4)
    s.run()
    fresh = SharedSearch(replayed(g), "hard", 4)
    fresh.run()
    assert result(s) == result(fresh)


def test_a_released_search_holds_no_game_and_takes_the_next():
    g = played("4p", 1, 30)
    s = SharedSearch(g, "hard", 0)
    s.release()
    assert s.game is None
    nxt = Game("4p")
    assert s.fits(nxt) and not s.fits(Game("19x19"))
    s.start(nxt, 0)
    assert s.game is nxt and s.run() in nxt.legal_moves()


def test_an_order_buffer_too_small_for_the_lists_grows_to_their_bound():
    from app.shared_search import ORDER_CELLS, order_cells
    g = played("4p", 4, 80)
    s = SharedSearch(g, "hard", 0)
    assert len(s.kept[2]) == ORDER_CELLS < order_cells(g) == 4 * 361 // 2 + 1
    s.kept[2] = s.zeros("H", 3)  # as if the lists held more than it
    before = state(g)
    s.run()
    assert len(s.kept[2]) == order_cells(g) and state(g) == before
    fresh = SharedSearch(replayed(g), "hard", 0)
    fresh.run()
    assert result(s) == result(fresh)


@pytest.mark.parametrize("variant,cell", [("hexbo-6p", 1), ("hexbo-3p", 1), ("4p", 2)])
def test_the_lists_order_takes_a_byte_a_point_up_to_256_points(variant, cell):
    # Hexbo's 217 cells fit a byte (256 B of a board's heap less); 4p's 361 need two.
    g = played(variant, 5, 30)
    s = SharedSearch(g, "hard", 0)
    assert (s.kept[2].itemsize if hasattr(s.kept[2], "itemsize") else 1) == cell
    before = state(g)
    s.run()
    assert state(g) == before and max(s.kept[2]) < g.variant.size
    fresh = SharedSearch(replayed(g), "hard", 0)
    fresh.run()
    assert result(s) == result(fresh)


def test_make_room_makes_room_so_a_ply_grows_no_stack():
    g = Game("19x19")
    g.make_room(90, 300)  # 64 plies and 64 cells of removals without it
    assert g._room >= 90 and len(g._rem) - 2 >= 300
    cells = len(g._moves), len(g._rem)
    r = Rng(2)
    for _ in range(90):
        if g.winner is not None:
            break
        g.play(g.legal_move_at(r.below(g.legal_count())))
    assert g.ply == 90 and (len(g._moves), len(g._rem)) == cells


# -- in the app ---------------------------------------------------------------------


def test_on_a_small_heap_4p_and_19x19_search_the_games_own_state_and_do_not_ponder(sim):
    # app.screens.game.SHARE_ABOVE: 4p (1,444 points x players) and 19x19 (722),
    # only on a SAMD51's heap; elsewhere, and 13x13 (338) there, the search keeps
    # its copy and ponders.
    from app.start import SMALL_HEAP
    from test_sim_games import game_screen
    small = sim.app.hw.name in SMALL_HEAP
    sim.app.settings.level = 3
    sim.app.settings.ponder = True  # the player turned "Use my time" on
    for variant, shares in (("4p", small), ("19x19", small), ("13x13", False)):
        sim.app.play(Game(variant), (2, 3, 4) if variant == "4p" else (2,))
        sim.frames(50)
        gs = game_screen(sim)
        assert getattr(gs.search, "shared", False) == shares and (gs.search.game is gs.game) == shares
        said = " ".join(label.text for label in gs.status.info)
        # the player is told "Use my time" does not apply (the longest form that fits)
        assert (variant + ":" in said or "no ponder" in said) == shares, said
        gs.cursor = gs.game.legal_moves()[0]
        sim.press("A")
        sim.frames(400 if variant == "4p" else 200)  # the computer's replies and their drawing
        g = gs.game
        assert g.ply == (4 if variant == "4p" else 2) and g.to_move == 1
        assert (gs.ponder is None) == shares
        if shares:
            # the game the screen shows is the game its moves make, legal lists in their order
            assert state(g) == state(replayed(g))


@pytest.mark.parametrize("variant", ["9x9", "3d", "4p", "hexbo-3p", "hexbo-6p"])
def test_restart_is_a_fresh_game_in_the_same_tables(variant):
    g = Game(variant)
    tables = [id(t) for t in g._tables()[:3]] + [id(t) for t in g.legal_index[1:]] + [id(g._moves), id(g._rem)]
    rng = Rng(4)
    while g.winner is None:  # a whole game: removals, its stacks grown
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    if variant == "4p":
        g.undo()
        g.resign(g.to_move)
    room = g._room
    again, fresh = g.restart(), Game(variant)
    assert again is g and g._room == room  # the same tables, the stacks' room kept
    assert [id(t) for t in g._tables()[:3]] + [id(t) for t in g.legal_index[1:]] + [id(g._moves), id(g._rem)] == tables
    assert g.state_key() == fresh.state_key() and g.moves() == [] and g.start is None
    for name in ("touch_count", "space_root", "legal_points"):
        assert [list(t) for t in getattr(g, name)[1:]] == [list(t) for t in getattr(fresh, name)[1:]], name
    # the same seeded game afterwards, undo included
    a, b = Rng(9), Rng(9)
    for _ in range(60):
        if g.winner is not None:
            break
        assert g.play(g.legal_move_at(a.below(g.legal_count()))) == fresh.play(fresh.legal_move_at(b.below(fresh.legal_count())))
    for _ in range(20):
        g.undo()
        fresh.undo()
        assert g.state_key() == fresh.state_key()


@pytest.mark.parametrize("variant", ("9x9", "19x19", "dense-11", "4p", "hexbo-6p"))
def test_a_shared_search_keeps_its_attributes_in_a_37_slot_table(variant):
    # Search's and this class's three (see test_ai's MAX_ATTRIBUTES).
    for level in LEVELS:
        assert most_attributes(SharedSearch, variant, level) <= MAX_ATTRIBUTES, level


def test_the_pause_cell_is_the_searchs():
    # app.shared_search names Search.held's pause cell itself (a folded const
    # on a board, no import): the same cell as tanbo.ai's.
    import tanbo.ai
    import app.shared_search
    assert app.shared_search._PAUSE_AT == tanbo.ai._PAUSE_AT
