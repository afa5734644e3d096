"""Thinking on the opponent's time (issue 24): tanbo.ponder, tanbo.ai.step, the app's loop, tanbo match --ponder-ms."""

import subprocess
import sys

import pytest

from tanbo.ai import PLAYED_COST, PUSH_COST, REACH_EIGHTHS, REMOVAL_COST, WIN, Search, choose_move, nodes_in, step
from tanbo.perf import random_position
from tanbo import ponder
from tanbo.ponder import STEP_MS, WIDE, Ponder, expected, finish
from tanbo_tools.lab.match import think

import test_sim_games as sg

NEW_9X9_VS_HARD = "A,DOWN*2,RIGHT,DOWN*2,A"  # title -> new game; Level: medium -> hard; Start


def _positions():
    for variant, n in (("9x9", 6), ("13x13", 2), ("4p", 2), ("dense-11", 2)):
        for k in range(n):
            g = random_position(variant, 4 + 9 * k, k)
            if g.winner is None:
                yield variant, k, g


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_search_run_in_steps_plays_as_one_run_at_once(level):
    # The app's pondering steps a search; with pondering off the same Search
    # runs at once: same moves, same node counts, whatever the step size.
    for variant, k, g in _positions():
        whole = {}
        move = choose_move(g, level, seed=k, stats=whole)
        s = Search(g, level, k)
        steps = 0
        while not step(s, 5 + 7 * k):
            steps += 1
        assert (s.move, s.iterations, s.depth) == (move, whole["iterations"], whole["depth"]), (variant, k)
        assert level == "medium" or steps > 20


def test_a_step_overshoots_by_at_most_one_real_play_and_a_piece_of_reach():
    # The app's promise (20 ms from a press to its refresh on an RP2040)
    # rests on this bound: see app.screens.game.PONDER_STEP_MS.
    for variant in ("9x9", "dense-11", "13x13", "19x19"):
        for k in range(3):
            s = Search(random_position(variant, 5 + 11 * k, k), "hard", k)
            worst = 0
            while True:
                before = s.iterations
                done = step(s, 12)
                worst = max(worst, s.iterations - before)
                if done:
                    break
            assert worst <= 12 + PUSH_COST + REMOVAL_COST + REACH_EIGHTHS, (variant, k, worst)


RP2040 = 4.4  # a PicoSystem's slowness: hard's budget of ~6,000 nodes


@pytest.fixture
def fresh(monkeypatch):
    """Pondering without its searches again (EXTEND 0): each reply is then
    the move a fresh search of that position plays, which these tests check."""
    monkeypatch.setattr(ponder, "EXTEND", 0)


def _after_computer_move(seed=3, plies=10):
    """(search, game after its move, its move, the reply it expects)."""
    g = random_position("9x9", plies, seed)
    s = Search(g, "hard", g.ply, slowness=RP2040)
    move = s.run()
    after = g.copy()
    after.play(move)
    guess = expected(s)
    assert guess >= 0 and after.is_legal(guess)
    return s, after, guess


def test_each_candidate_searched_to_its_budget_gets_at_once_the_move_a_fresh_search_plays(fresh):
    # Ten seconds of the player's time on a PicoSystem: three budgets, the
    # expected reply's then the ranking's best two from the player's side.
    s, after, guess = _after_computer_move()
    for k in range(1 + WIDE):
        p = Ponder(s, after, guess, after.ply + 1)
        assert think(p, nodes_in(10000, RP2040)) and p.guesses[0] == guess and len(p.found) == len(p.guesses) == 1 + WIDE
        assert len(set(p.guesses)) == 1 + WIDE and all(after.is_legal(m) for m in p.guesses)
        assert (s.max_depth, s.noise, s.with_reach, s.tt) == (8, 2, True, True)  # hard's, after the ranking
        assert s.budget * (1 + WIDE) <= p.spent < s.budget * (2 + WIDE)
        replied = after.copy()
        replied.play(p.guesses[k])
        assert p.over(replied)
        want = choose_move(replied, "hard", seed=replied.ply, slowness=RP2040)
        n = s.iterations
        assert p.reply(replied) == want and s.iterations == n  # nothing searched after the player's stone
        assert expected(s) == p.found[k][1]  # the next pondering starts from that move's expected reply


def test_a_guess_reached_early_spends_what_is_left_of_its_budget_and_plays_as_a_fresh_search(fresh):
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    think(p, 1500)
    done = s.iterations
    replied = after.copy()
    replied.play(guess)
    assert not p.over(replied) and not p.over(replied, "medium")
    fresh = {}
    want = choose_move(replied, "hard", seed=replied.ply, stats=fresh, slowness=RP2040)
    assert p.reply(replied) == want and s.iterations > done  # the rest of its budget, no more
    assert s.iterations == fresh["iterations"]


def test_a_missed_guess_gets_a_reply_from_a_full_budget(fresh):
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    think(p, nodes_in(5000, RP2040))  # past the first candidate: the second's search under way
    assert len(p.found) == 1 and len(p.guesses) == 1 + WIDE
    other = next(m for m in after.legal_moves() if m not in p.guesses)
    replied = after.copy()
    replied.play(other)
    assert not p.over(replied)
    fresh = {}
    want = choose_move(replied, "hard", seed=replied.ply, slowness=RP2040, stats=fresh)
    assert p.reply(replied) == want  # a fresh search's move: an empty table, the ply's seed
    assert s.iterations == fresh["iterations"]  # a fresh search's nodes, all from the player's stone on
    assert s.game.ply == replied.ply and s.me == replied.to_move


def test_a_guess_being_searched_when_the_player_moves_finishes_its_budget(fresh):
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    think(p, nodes_in(4000, RP2040))  # the first candidate done, the ranking too, the second's under way
    second = p.guesses[1]
    done = s.iterations
    replied = after.copy()
    replied.play(second)
    assert not p.over(replied)
    assert p.reply(replied) == choose_move(replied, "hard", seed=replied.ply, slowness=RP2040)
    assert done < s.iterations and s.budget - PLAYED_COST < s.iterations <= s.budget


def test_a_miss_after_the_searches_again_is_searched_afresh_from_a_full_budget():
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    think(p, 10 ** 6)  # every candidate searched, then each again (EXTEND)
    other = next(m for m in after.legal_moves() if m not in p.guesses)
    replied = after.copy()
    replied.play(other)
    assert p.done and not p.over(replied)
    fresh = {}
    move = choose_move(replied, "hard", seed=replied.ply, slowness=RP2040, stats=fresh)
    assert p.reply(replied) == move and s.iterations == fresh["iterations"] <= s.budget  # all of it after the stone


def test_a_move_played_before_the_first_step_is_searched_afresh():
    # The app makes the pondering after its move and steps it from its loop:
    # a player quick enough meets no search set up yet, guess or not.
    s, after, guess = _after_computer_move()
    for m in (guess, next(m for m in after.legal_moves() if m != guess)):
        p = Ponder(s, after, guess, after.ply + 1)
        replied = after.copy()
        replied.play(m)
        assert p.hit(replied) == -1 and not p.over(replied)
        assert p.reply(replied) == choose_move(replied, "hard", seed=replied.ply, slowness=RP2040)


def _extending(p):
    """True while ``p`` searches a candidate again (see tanbo.ponder.EXTEND)."""
    return not p.done and 0 <= p.current < len(p.found)


def _deeper(replied, budgets):
    """Hard's move in ``replied`` searched afresh to ``budgets`` budgets (a PicoSystem's)."""
    t = Search(replied, "hard", replied.ply, slowness=RP2040)
    t.end = budgets * t.budget - PLAYED_COST + 1
    return t.run()


def test_once_every_candidate_is_done_each_is_searched_again_deeper_and_a_hit_is_answered_at_once(monkeypatch):
    monkeypatch.setattr(ponder, "EXTEND", 3)  # (whatever the shipped value: the mechanism)
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    while not (p.turn > 1 and p.current != -2 and len(p.found) == len(p.guesses)):  # ranked, each searched
        p.step(50)
    depths, spent = [f[2] for f in p.found], p.spent
    assert len(p.guesses) == 1 + WIDE and think(p, 10 ** 6)
    again = [f[2] for f in p.found]
    assert all(d >= e for d, e in zip(again, depths)) and sum(again) > sum(depths)
    assert p.spent - spent <= len(p.guesses) * (3 * s.budget + ponder.SETUP)
    for k, m in enumerate(p.guesses):
        replied = after.copy()
        replied.play(m)
        n = s.iterations
        assert p.over(replied) and p.reply(replied) == p.found[k][0] == _deeper(replied, 3) and s.iterations == n


def test_a_guess_played_once_its_search_again_went_deeper_gets_the_deeper_move_at_once(monkeypatch):
    monkeypatch.setattr(ponder, "EXTEND", 3)
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    while not (_extending(p) and s.depth > p.found[p.current][2]):
        assert not p.done
        p.step(50)
    replied = after.copy()
    replied.play(p.guesses[p.current])
    move, n = s.move, s.iterations
    assert move != p.found[p.current][0] or s.depth > p.found[p.current][2]
    assert p.over(replied) and p.reply(replied) == move and s.iterations == n and expected(s) >= 0


# A 9x9 game of hard@rp2040 against uct:5000 (tanbo match --seed 0, game 1) up
# to hard's 25th move: its reply to the player's second candidate once
# differed from a fresh search's (H9 for F7), the candidate set up on the
# search's copy of the game after the first was taken back, whose legal
# lists then came in another order.
GAME_1 = ("C2 H3 G8 G3 D2 H1 E2 C8 F8 G4 E8 F4 D8 C7 D7 C9 D6 E4 C6 D4 B6 C4 F2 G5 E6 G6 A6 B4 A7 C5 A8 J2 "
          "D9 G1 H7 H6 J7 J6 A5 F1 E5 E1 A4 B3 A9 A3 A2 D1")


def test_every_candidate_is_searched_from_the_position_itself(fresh):
    from tanbo import Game
    g = Game("9x9")
    for name in GAME_1.split():
        g.play(g.point(name))
    s = Search(g, "hard", g.ply, slowness=RP2040)
    after = g.copy()
    after.play(finish(s))
    p = Ponder(s, after, expected(s), after.ply + 1)
    while len(p.found) < 1 or p.current != 1 or s.iterations < 1000:  # the first candidate done, the second's under way
        p.step(50)
    assert len(p.found) == 1 and p.current == 1
    for k, m in enumerate(p.guesses[:2]):
        replied = after.copy()
        replied.play(m)
        assert p.hit(replied) == k
    replied = after.copy()
    replied.play(p.guesses[1])
    assert p.reply(replied) == choose_move(replied, "hard", seed=replied.ply, slowness=RP2040)


def test_the_ranking_is_the_root_scan_of_the_players_side():
    # Its ~10 nodes instead of medium's ~100 let a second candidate finish
    # within 0.3 s of a 5 s move (docs/ai.md): its best are the scan's.
    s, after, guess = _after_computer_move()
    p = Ponder(s, after, guess, after.ply + 1)
    while len(p.found) < 1:
        p.step(50)
    p.step(1)  # the ranking's set-up
    assert p.current == -2  # (the ranking)
    spent = p.spent
    while p.current == -2:
        p.step(50)
    assert p.spent - spent <= len(after.legal_moves())
    scan = Search(after, "hard", after.ply + 1)
    scan.max_depth, scan.with_reach = 1, False
    scan.run()
    best = [m for m in (scan.move,) if m != guess]
    assert p.guesses[1:1 + len(best)] == best


def test_a_single_legal_reply_needs_no_search():
    g = random_position("9x9", 59, 1)  # (found by trying seeds: one legal move left)
    assert g.winner is None and len(g.legal_moves()) == 1
    s = Search(g, "hard", 0)
    assert step(s, WIN) and s.iterations == 0 and s.move == g.legal_moves()[0]


def test_a_win_at_once_ends_the_search_after_the_root_scan():
    # A guessed reply that leaves a win: the pondering search is done at once.
    from tanbo import Game
    from test_ai import WIN_IN_ONE
    g = Game.from_position(WIN_IN_ONE)
    s = Search(g, "hard", 0)
    assert step(s, WIN) and g.name(s.move) == "A8"
    assert s.depth == 1 and s.iterations < s.budget // 10  # the root scan and its reach: no deeper pass


# -- the app -------------------------------------------------------------------------


def _pondering(sim):
    """True while the screen on the app has a pondering with something left to search."""
    p = getattr(sim.app.screen, "ponder", None)
    return p is not None and not p.done and sim.app.screen.game.winner is None


def _hard_game(sim):
    sim.app.settings.ponder = True  # (off by default on the SAMD51 boards: see the test below)
    sim.run_keys(NEW_9X9_VS_HARD)
    gs = sg.game_screen(sim)
    gs.cursor = gs.game.legal_moves()[0]
    sim.press("A")
    sim.frames(200)  # the computer's reply and its drawing
    assert gs.game.ply == 2 and gs.ponder is not None and not gs.ponder.done
    return gs


def test_the_computer_thinks_on_the_players_turn_and_keys_still_move_the_cursor(sim):
    gs = _hard_game(sim)
    s = gs.ponder.search
    before = s.iterations
    sim.frames(100)
    assert s.iterations > before  # pondering on the player's time
    cursor = gs.cursor
    sim.press("RIGHT")
    assert gs.cursor != cursor and not gs.thinking
    # each app step searched one bounded piece
    mid = s.iterations
    sim.app.step()
    assert 0 <= s.iterations - mid <= max(1, nodes_in(STEP_MS, gs.slowness)) + PUSH_COST + REMOVAL_COST + REACH_EIGHTHS  # (0: a set-up)


def test_no_nvm_write_while_pondering_and_undo_stops_it(sim):
    gs = _hard_game(sim)
    mark = len(sim.events)
    sim.frames(1000)
    assert gs.ponder is not None and not sg.nvm_writes(sim, mark)
    sim.press("B")  # undo: the player's move and the computer's reply
    assert gs.game.ply == 0 and gs.ponder is None
    assert not _pondering(sim)


def test_the_menu_pauses_pondering_and_resume_continues_it(sim):
    gs = _hard_game(sim)
    s = gs.ponder.search
    sim.press("START")
    assert sg.screen_is(sim.app.screen, "Menu")
    paused = s.iterations
    sim.frames(500)
    assert s.iterations == paused  # nothing searched while the menu is shown
    sim.press("A")  # Resume
    assert sim.app.screen is gs
    sim.frames(200)
    assert s.iterations > paused


def test_a_guessed_move_is_answered_at_once_and_a_missed_one_after_a_search(sim):
    gs = _hard_game(sim)
    p = gs.ponder
    while not p.done:  # the player takes long enough: the pondering search is done
        sim.app.step()
    gs.cursor = p.guesses[1]  # the ranking's best, pondered second
    spins = []
    real = gs.start_thinking
    gs.start_thinking = lambda now: spins.append(now) or real(now)
    searched = []  # nodes of the search behind each of the computer's moves
    play = gs.play
    gs.play = lambda q: (searched.append(gs.search.iterations) if gs.game.to_move in gs.ai else None) or play(q)
    sim.press("A")
    sim.frames(100)
    assert gs.game.ply == 4 and not spins  # replied with no spinner: nothing left to search
    # The next guess missed: a search with the spinner, from a full budget.
    while not gs.ponder.done:
        sim.app.step()
    gs.cursor = next(m for m in gs.game.legal_moves() if m not in gs.ponder.guesses)
    sim.press("A")
    sim.frames(100)
    assert gs.game.ply == 6 and len(spins) == 1
    before = gs.game.copy()
    before.undo()
    fresh = {}
    choose_move(before, "hard", before.ply, slowness=gs.slowness, stats=fresh)
    assert searched[-1] == fresh["iterations"]  # a fresh search's nodes, all after the stone


def test_pondering_off_plays_the_same_moves_and_searches_nothing_on_the_players_turn(sim):
    sim.app.settings.ponder = False
    sim.run_keys(NEW_9X9_VS_HARD)
    gs = sg.game_screen(sim)
    gs.cursor = gs.game.legal_moves()[0]
    sim.press("A")
    sim.frames(200)
    assert gs.game.ply == 2 and not _pondering(sim)
    nodes = gs.search.iterations
    sim.frames(1000)
    assert gs.search.iterations == nodes
    g = gs.game.copy()
    g.undo()
    assert choose_move(g, "hard", seed=g.ply, slowness=sim.app.hw.slowness) == gs.game.last_move()


def test_the_setting_is_saved_and_old_saves_keep_the_boards_default():
    from app.store.save_load import unpack
    from app.store.settings import SIZE, Settings
    for on in (False, True):
        s = Settings()
        s.ponder = on
        t = Settings()
        t.ponder = not on
        unpack(t, s.pack())
        assert t.ponder == on and len(s.pack()) == SIZE
        old = bytes((1, 1, 3, 0, 0, 1, 0, 0))  # a save made before the setting
        u = Settings()
        u.ponder = on  # the board's default
        unpack(u, old)
        assert u.ponder == on


def test_think_on_my_time_is_on_by_default_only_where_the_heap_holds_it(sim):
    # app.start.SMALL_HEAP: a PyBadge's or PyGamer's heap has no room for the
    # pondering next to a game screen (tests/test_device_memory.py).
    from app.start import SMALL_HEAP
    assert sim.app.settings.ponder == (sim.app.hw.name not in SMALL_HEAP)
    assert sim.app.hw.name in SMALL_HEAP or sim.app.hw.name == "picosystem"


def test_pondering_in_the_app_fits_the_smallest_pystack(sim):
    import test_pystack as tp
    from tanbo_tools.play import pystack
    root = tp.ROOT
    sizes = pystack.app_sizes(root)
    base = pystack.app_base(sizes, root)
    gs = _hard_game(sim)
    with pystack.Meter(sizes, base=base, limit=tp.LIMIT) as m:
        sim.frames(3000)
        gs.cursor = gs.ponder.guesses[0]
        sim.press("A")
        sim.frames(300)
    print("pondering: pystack peak %d bytes: %s" % (m.peak, " ".join(m.chain)))
    assert m.peak <= tp.LIMIT, (m.peak, m.chain)


# -- tanbo match --ponder-ms -----------------------------------------------------------


def test_match_ponder_ms_is_deterministic_for_a_seed():
    cmd = [sys.executable, "-m", "tanbo_tools.cli", "match", "hard", "medium", "--games", "2", "--seed", "4",
           "--ponder-ms", "3000", "--quiet"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, timeout=600) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    lines = [[l for l in r.stdout.splitlines() if not l.startswith("time per move")] for r in runs]
    assert lines[0] == lines[1]
    assert any(l.startswith("pondering 3000 ms: A guessed") for l in lines[0])

    # Hard against hard, only B pondering (issue 24: hard with pondering against hard without).
    cmd[4:6] = ["hard", "hard"]
    both = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    only = subprocess.run(cmd + ["--ponder-only", "B"], capture_output=True, text=True, timeout=600)
    assert both.returncode == only.returncode == 0, both.stderr + only.stderr
    assert "A guessed" in both.stdout and "B guessed" in both.stdout
    assert "A guessed" not in only.stdout and "B guessed" in only.stdout


def test_match_refuses_a_negative_ponder_time(capsys):
    from tanbo_tools import cli
    with pytest.raises(SystemExit) as refused:  # argparse's refusal, naming the option and its range
        cli.main(["match", "hard", "medium", "--ponder-ms", "-5"])
    assert refused.value.code == 2
    assert "--ponder-ms: '-5': expected a whole number of milliseconds from 0 to" in capsys.readouterr().err
    assert cli.main(["match", "hard", "medium", "--ponder-only", "A"]) == 2
    assert "--ponder-only A without --ponder-ms" in capsys.readouterr().err


def test_a_level_changed_in_the_settings_drops_the_pondering(sim):
    from app.store.settings import LEVELS
    gs = _hard_game(sim)
    guess = gs.ponder.guesses[0]
    sim.app.settings.level = LEVELS.index("medium")  # as the settings menu sets it
    spins = []
    real = gs.start_thinking
    gs.start_thinking = lambda now: spins.append(now) or real(now)
    gs.cursor = guess
    sim.press("A")
    sim.frames(100)
    assert gs.game.ply == 4 and spins and gs.search.level == "medium" and gs.ponder is None


def test_leaving_the_game_screen_forgets_the_pondering_code(sim):
    gs = _hard_game(sim)
    assert "tanbo.ponder" in sys.modules and gs.ponder is not None
    sim.press("START")  # the game menu: no pondering, its code's heap given back
    assert sg.screen_is(sim.app.screen, "Menu") and "tanbo.ponder" not in sys.modules
    sim.press("A")  # Resume: the pondering goes on with the code it holds
    sim.frames(200)
    assert sim.app.screen is gs and _pondering(sim)


def test_a_memory_error_while_pondering_ends_the_pondering_only(sim, monkeypatch):
    # A fragmented heap on the player's turn (a board's MemoryError in a
    # step of the search): the game goes on, and the computer's reply is
    # then searched afresh (the app's own handler would have left the game).
    gs = _hard_game(sim)

    def no_block(search, nodes):
        raise MemoryError("memory allocation failed, allocating 1444 bytes")
    import tanbo.ponder
    monkeypatch.setattr(tanbo.ponder, "step", no_block)
    sim.frames(5)
    assert sim.app.screen is gs and gs.ponder.done and not _pondering(sim)
    gs.cursor = gs.game.legal_moves()[0]
    sim.press("A")
    sim.frames(200)
    assert sim.app.screen is gs and gs.game.ply == 4 and gs.search.iterations > 0  # the computer replied
