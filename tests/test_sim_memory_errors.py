"""A MemoryError never reaches CircuitPython's traceback console (issue 22).

On a PyBadge's heap the firmware raised MemoryError in the search's set-up,
and where a screen builds its tile strip, though the free memory was there
(no block that big). The app catches it in its loop: the computer's move
falls back to a lighter search (then to a legal move without the AI), a
screen that cannot be built sends the player to the title with the game
saved. Errors are injected here where those blocks are allocated.
"""

import pytest
from tanbo import Game

from test_sim_games import NEW_9X9_VS_RANDOM, game_screen, screen_is


def once(fail):
    """A wrapper of ``fail``'s target raising MemoryError on its first call only."""
    calls = []

    def wrap(real):
        def f(*args, **kwargs):
            calls.append(args)
            if len(calls) == 1:
                raise MemoryError("memory allocation failed, allocating 12384 bytes")
            return real(*args, **kwargs)
        return f
    return wrap, calls


def status(gs):
    return " ".join(label.text for label in gs.status.info)


@pytest.fixture
def hard_game(sim):
    """A 9x9 game against hard on screen, the person to move."""
    sim.app.settings.level = 3
    sim.app.play(Game("9x9"), (2,))
    sim.frames(50)
    return game_screen(sim)


def levels_searched(monkeypatch, fail):
    """Record each search's level; ``fail(level, progress)`` may raise inside it."""
    from tanbo import ai
    real = ai.choose_move
    seen = []

    def choose_move(game, level, seed, progress=None, **kwargs):
        seen.append((level, seed))

        def watched(done, total):
            fail(level, done)
            return progress(done, total)
        return real(game, level, seed, watched, **kwargs)

    monkeypatch.setattr(ai, "choose_move", choose_move)  # GameScreen.choose imports it per move
    return seen


def test_a_memory_error_in_the_search_set_up_plays_an_easy_move_with_the_same_seed(sim, hard_game, monkeypatch):
    from tanbo import ai
    from tanbo.ai import choose_move
    real_start = ai.Search.start

    def start(search, *args, **kwargs):
        if search.level == "hard":  # as the firmware's: no block that big for the move's set-up
            raise MemoryError("memory allocation failed, allocating 4332 bytes")
        return real_start(search, *args, **kwargs)

    monkeypatch.setattr(ai.Search, "start", start)
    seen = levels_searched(monkeypatch, lambda level, done: None)
    gs, g = hard_game, hard_game.game
    sim.press("A")
    after_mine = g.copy()
    after_mine.undo()
    sim.frames(300)
    assert seen == [("hard", 1), ("easy", 1)] and g.ply == 2 and screen_is(sim.app.screen, "GameScreen")
    want = g.copy()
    want.undo()
    assert g.last_move() == choose_move(want, "easy", 1, slowness=sim.app.hw.slowness)
    assert "easy" in status(gs) or "low RAM" in status(gs)  # said, in what fits
    sim.press("LEFT")  # the notice goes with the next key; the next move is hard again
    gs.cursor = g.legal_moves()[0]
    sim.press("A")
    sim.frames(300)
    assert seen[2:] == [("hard", 3), ("easy", 3)] and g.ply == 4


def test_a_game_whose_search_cannot_be_made_at_its_start_still_starts(sim, monkeypatch):
    # The search's arena is made when the game starts (App.play): without a
    # block for it the game starts anyway, and the computer's first move
    # tries again, playing easy if it fails there too.
    from tanbo import ai
    real_init = ai.Search.__init__

    def init(search, game, level, *args, **kwargs):
        if level == "hard":
            raise MemoryError("memory allocation failed, allocating 4332 bytes")
        real_init(search, game, level, *args, **kwargs)

    monkeypatch.setattr(ai.Search, "__init__", init)
    seen = levels_searched(monkeypatch, lambda level, done: None)
    sim.app.settings.level = 3
    sim.app.play(Game("9x9"), (2,))
    sim.frames(50)
    gs = game_screen(sim)
    assert sim.app.search is None and gs.game.ply == 0
    sim.press("A")
    sim.frames(300)
    assert seen == [("easy", 1)] and gs.game.ply == 2 and screen_is(sim.app.screen, "GameScreen")


def test_a_memory_error_during_the_search_plays_a_lighter_move(sim, hard_game, monkeypatch):
    def fail(level, done):
        if level == "hard" and done >= 240:
            raise MemoryError

    seen = levels_searched(monkeypatch, fail)
    sim.press("A")
    sim.frames(300)
    assert seen == [("hard", 1), ("easy", 1)] and hard_game.game.ply == 2
    assert not hard_game.thinking and sim.app.searching is None and sim.app.fallback is None


def test_when_even_the_easy_search_fails_a_legal_move_is_played_without_the_ai(sim, hard_game, monkeypatch):
    def fail(level, done):
        raise MemoryError  # at the first progress report of each

    seen = levels_searched(monkeypatch, fail)
    g = hard_game.game
    sim.press("A")
    sim.frames(300)
    assert seen == [("hard", 1), ("easy", 1)] and g.ply == 2
    # said in words: a random move, and why (the longest form that fits)
    assert ("rand" in status(hard_game) or "rnd" in status(hard_game)) and "RAM" in status(hard_game)
    assert screen_is(sim.app.screen, "GameScreen")


def test_a_game_screen_that_finds_no_room_beside_its_search_is_made_before_it(sim, monkeypatch):
    # Issue 33: on a PyBadge the game's search is made first, and on a
    # fragmented heap its blocks left the board's screen none (dense-11 and
    # hexbo-3p at 123,000 B free): the screen is made without it, the search
    # once the board is drawn, and the game plays (app.between.play).
    if not sim.app.small_heap:
        pytest.skip("the search is made once the board is drawn (app.between.play)")
    from app.view import board as board_view
    wrap, calls = once(None)
    monkeypatch.setattr(board_view.BoardView, "__init__", wrap(board_view.BoardView.__init__))
    sim.run_keys(NEW_9X9_VS_RANDOM)  # Start: the board's tile strip fails once
    gs = game_screen(sim)
    assert gs is not None and len(calls) == 2
    sim.frames(5)
    assert gs.search is not None and sim.app.search is gs.search
    sim.press("A")
    sim.frames(300)
    assert gs.game.ply == 2 and game_screen(sim) is gs


def test_a_game_screen_that_cannot_be_built_sends_to_the_title_with_the_game_saved(sim, monkeypatch):
    from app.view import board as board_view
    tries = 2 if sim.app.small_heap else 1  # beside its search, then without it (a PyBadge)
    wrap, calls = failing(tries)
    monkeypatch.setattr(board_view.BoardView, "__init__", wrap(board_view.BoardView.__init__))
    sim.run_keys(NEW_9X9_VS_RANDOM)  # Start: the board's tile strip fails
    title = sim.app.screen
    assert screen_is(title, "Menu") and title.title.text == "T A N B O"
    assert [n.text for n in title.notes][-1] == "Low memory: saved."
    assert title.labels[0].text.startswith("Continue")
    sim.press("A")  # Continue: the game saved is played on
    gs = game_screen(sim)
    assert gs is not None and gs.game.ply == 0 and len(calls) == tries + 1


def test_start_opens_the_game_menu_without_a_block_for_it_by_letting_the_search_go(sim, hard_game, monkeypatch):
    # On the firmware with ~124 KB free, START found no block for the game
    # menu and sent the player to the title: the menu now takes the search's
    # blocks and its code's (the computer's next move loads and makes it
    # again, at the level set).
    import sys
    from app.view import text
    g = hard_game.game
    sim.press("A")
    sim.frames(300)
    assert g.ply == 2 and sim.app.search is not None and "tanbo.ai" in sys.modules
    wrap, calls = once(None)
    monkeypatch.setattr(text.Label, "__init__", wrap(text.Label.__init__))
    sim.press("START")  # the game menu: its first label fails once
    menu = sim.app.screen
    assert screen_is(menu, "Menu") and menu.title.text == "Game"
    assert hard_game.search is None and sim.app.search is None  # its blocks were the menu's room
    assert "tanbo.ai" not in sys.modules  # and its code's
    sim.press("A")  # Resume
    assert game_screen(sim) is hard_game
    seen = levels_searched(monkeypatch, lambda level, done: None)  # (on the module loaded again)
    hard_game.cursor = [p for p in g.legal_moves()][0]
    sim.press("A")
    sim.frames(300)
    assert seen == [("hard", 3)] and g.ply == 4 and hard_game.search is not None  # made again: hard
    assert hard_game.search.level == "hard" and "low" not in status(hard_game)


def test_a_game_menu_that_cannot_be_built_even_without_the_search_keeps_the_game(sim, monkeypatch):
    from app.view import text
    sim.run_keys(NEW_9X9_VS_RANDOM + ",A")
    sim.frames(300)
    g = game_screen(sim).game
    assert g.ply == 2
    wrap, calls = failing(2)
    monkeypatch.setattr(text.Label, "__init__", wrap(text.Label.__init__))
    sim.press("START")  # the game menu: its first label fails, and again without the search
    title = sim.app.screen
    assert screen_is(title, "Menu") and "Low memory: saved." in [n.text for n in title.notes]
    sim.press("A")  # Continue
    assert game_screen(sim).game.position() == g.position()


def test_rules_whose_diagram_cannot_be_built_say_so_on_the_title(sim, monkeypatch):
    from app.view import tile_art
    wrap, calls = once(None)
    monkeypatch.setattr(tile_art, "tile_bitmap", wrap(tile_art.tile_bitmap))
    sim.run_keys("DOWN,DOWN,A")  # Rules (below New game and Puzzles): its first page has no diagram
    assert screen_is(sim.app.screen, "Help") and not calls
    sim.run_keys("RIGHT")  # the second has: its diagram's tile strip fails
    title = sim.app.screen
    assert screen_is(title, "Menu") and [n.text for n in title.notes][-1] == "Low memory."
    assert calls and sim.app.saved_game is None


def failing(times):
    """A wrapper raising MemoryError on its first ``times`` calls, and the calls seen."""
    calls = []

    def wrap(real):
        def f(*args, **kwargs):
            calls.append(args)
            if len(calls) <= times:
                raise MemoryError("memory allocation failed, allocating 1552 bytes")
            return real(*args, **kwargs)
        return f
    return wrap, calls


def start_again(sim):
    """The app's start-up run again on the simulator's board (as code.py's ``start``
    does, before the app's loop and its MemoryError handler run)."""
    from app.start import set_up
    set_up(sim.app, sim.app.hw, sim.clock, sim._sleep)
    sim.app.step()  # as the simulator's start-up: the presses queued meanwhile are dropped


def test_a_title_that_fails_once_at_start_is_built_again_after_a_collection(sim, monkeypatch):
    from app.screens import title as menus
    wrap, calls = failing(1)
    monkeypatch.setattr(menus, "screen", wrap(menus.screen))
    start_again(sim)
    assert len(calls) == 2
    title = sim.app.screen
    assert screen_is(title, "Menu") and title.title.text == "T A N B O"
    sim.press("A")  # New game: the app runs on
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "New game"


def test_a_title_that_cannot_be_built_at_start_says_so_in_one_line_and_a_key_tries_again(sim, monkeypatch):
    from app.screens import title as menus
    from app.view import text
    wrap, calls = failing(2)  # the title, then again after the collection
    monkeypatch.setattr(menus, "screen", wrap(menus.screen))
    labels = []
    real_label = text.Label.__init__
    monkeypatch.setattr(text.Label, "__init__", lambda *a, **k: labels.append(a) or real_label(*a, **k))
    start_again(sim)
    notice = sim.app.screen
    # The one made at start (issue 33): nothing was built to show it.
    assert screen_is(notice, "LowMemory") and len(calls) == 2 and notice is sim.app.last_resort
    assert len(labels) == 1  # its own line, made at start before the title
    shown = sim.app.root[-1] is notice.group and len(sim.app.root) == 2
    assert shown and notice.label.text == "Low memory. Press A"
    assert len(notice.label.text) * 6 * sim.app.scale + notice.label.group.x <= sim.app.display.width
    sim.frames(100)  # the loop runs on it
    sim.press("A")  # the title, now that the heap has room
    title = sim.app.screen
    assert screen_is(title, "Menu") and title.title.text == "T A N B O"


def test_a_title_whose_every_label_fails_still_leaves_a_screen_and_no_traceback(sim, monkeypatch):
    from app.view import text
    wrap, calls = failing(10 ** 6)
    # Rules (a menu after a menu would take over its labels and make none)
    assert [r.label for r in sim.app.screen.rows].index("Rules") == 2
    sim.run_keys("DOWN,DOWN,A")
    assert screen_is(sim.app.screen, "Help")
    monkeypatch.setattr(text.Label, "__init__", wrap(text.Label.__init__))
    sim.press("B")  # back: the title cannot be built
    assert screen_is(sim.app.screen, "LowMemory") and calls
    sim.press("A")  # the title fails again: the notice again, the loop runs on
    assert screen_is(sim.app.screen, "LowMemory") and len(sim.app.root) == 2
    monkeypatch.undo()
    sim.press("B")
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "T A N B O"


def test_a_screen_whose_title_then_fails_too_ends_on_the_one_line_notice(sim, monkeypatch):
    # out_of_memory's way to the title: a game screen that cannot be built,
    # then a title that cannot be built either, twice (its first label; the
    # menus' module is imported anew after a game screen, so the label fails).
    from app.view import board as board_view, text
    real_view, real_label = board_view.BoardView.__init__, text.Label.__init__
    left = [0]
    views = [2 if sim.app.small_heap else 1]  # beside its search, then without it (app.between.play)

    def view_init(*args, **kwargs):
        if views[0]:
            views[0] -= 1
            if not views[0]:
                left[0] = 2  # the title's two tries
            raise MemoryError("memory allocation failed, allocating 12384 bytes")
        return real_view(*args, **kwargs)

    def label_init(*args, **kwargs):
        if left[0]:
            left[0] -= 1
            raise MemoryError("memory allocation failed, allocating 160 bytes")
        return real_label(*args, **kwargs)
    monkeypatch.setattr(board_view.BoardView, "__init__", view_init)
    monkeypatch.setattr(text.Label, "__init__", label_init)
    sim.run_keys(NEW_9X9_VS_RANDOM)
    notice = sim.app.screen
    assert screen_is(notice, "LowMemory") and notice.label is not None and left[0] == 0
    assert sim.app.saved_game is not None
    sim.press("A")  # the title, with the game saved to continue
    title = sim.app.screen
    assert screen_is(title, "Menu") and title.labels[0].text.startswith("Continue")
    assert "Low memory: saved." in [n.text for n in title.notes]
    sim.press("A")  # Continue
    assert game_screen(sim).game.ply == 0


class Injector:
    """Raises MemoryError at the ``k``-th call, once armed, of any function it wraps
    (issue 33: every step of the app's way back to the title)."""

    def __init__(self, k):
        self.k, self.calls, self.armed, self.fired = k, 0, False, None

    def wrap(self, name, real):
        def f(*args, **kwargs):
            if self.armed:
                self.calls += 1
                if self.calls == self.k:
                    self.fired = name
                    raise MemoryError("memory allocation failed, allocating 232 bytes")
            return real(*args, **kwargs)
        return f


def arm_the_way_back(monkeypatch, inject):
    """Wrap what the app calls between a failure in a screen and the title on show."""
    from app import main
    from app.store import save
    from app.view import text
    # (Not gc.collect: a collection allocates nothing and raises no MemoryError.)
    monkeypatch.setattr(main, "print", inject.wrap("print", print), raising=False)
    monkeypatch.setattr(main, "low_memory", inject.wrap("import low_memory", main.low_memory))
    for name in ("save_game", "drop_screen", "go", "show", "title", "out_of_memory"):
        monkeypatch.setattr(main.App, name, inject.wrap(name, getattr(main.App, name)))
    monkeypatch.setattr(save.Saves, "save", inject.wrap("Saves.save", save.Saves.save))
    monkeypatch.setattr(text.Label, "__init__", inject.wrap("Label", text.Label.__init__))


def a_game_screen_that_cannot_be_built(s, monkeypatch, inject):
    from app.view import board as board_view
    real = board_view.BoardView.__init__
    tries = [2 if s.app.small_heap else 1]  # beside its search, then without it (app.between.play)

    def init(*args, **kwargs):
        if tries[0] and not inject.armed and inject.fired is None:
            tries[0] -= 1
            inject.armed = not tries[0]
            raise MemoryError("memory allocation failed, allocating 12384 bytes")
        return real(*args, **kwargs)
    monkeypatch.setattr(board_view.BoardView, "__init__", init)
    s.run_keys(NEW_9X9_VS_RANDOM)
    return 0


def a_game_screens_key_that_raises(s, monkeypatch, inject):
    from app.screens import game as game_screen
    s.run_keys(NEW_9X9_VS_RANDOM + ",A")
    s.frames(300)
    real = game_screen.GameScreen.key

    def key(*args):
        if not inject.armed and inject.fired is None:
            inject.armed = True
            raise RuntimeError("a bug")
        return real(*args)
    monkeypatch.setattr(game_screen.GameScreen, "key", key)
    s.press("LEFT")
    return 2


@pytest.mark.parametrize("failure", (a_game_screen_that_cannot_be_built, a_game_screens_key_that_raises))
def test_a_memory_error_at_every_step_of_the_way_back_ends_at_the_title_with_the_game(tmp_path, failure):
    # Issue 33: at 117 KB free a 4p board could not be built, the title
    # failed twice and the import of the low-memory screen failed too: the
    # console. Here the k-th call on the way back fails, for every k.
    from tanbo_sim.simulator import Simulator
    k, fired = 0, []
    while True:
        k += 1
        s = Simulator("pybadge", nvm_path=str(tmp_path / ("nvm%d" % k)))
        mp = pytest.MonkeyPatch()
        try:
            inject = Injector(k)
            arm_the_way_back(mp, inject)
            ply = failure(s, mp, inject)  # no exception leaves the app's loop
            inject.armed = False
            mp.undo()
            screen = s.app.screen
            assert screen_is(screen, "Menu") or screen is s.app.last_resort, (k, inject.fired, screen)
            if screen is s.app.last_resort:
                assert s.app.root[-1] is screen.group
                s.press("A")  # the title, the heap whole again
            title = s.app.screen
            assert screen_is(title, "Menu") and title.title.text == "T A N B O", (k, inject.fired)
            assert title.labels[0].text == "Continue", (k, inject.fired)
            s.press("A")
            assert game_screen(s).game.ply == ply, (k, inject.fired)
        finally:
            mp.undo()
            s.close()
        if inject.fired is None:
            break  # the way back made fewer than k calls: each one failed once
        fired.append(inject.fired)
    print(failure.__name__, len(fired), "steps:", " ".join(fired))
    assert len(fired) > 10 and {"go", "Label", "show", "save_game"} <= set(fired)


def test_a_menu_loading_a_games_code_ahead_without_room_stays_and_start_still_plays(tmp_path, monkeypatch):
    # On a PicoSystem the new-game menu loads what Start runs while it waits
    # (Menu.warm): a MemoryError there is no failure of the menu's, so no trip
    # to the title; Start loads what is missing.
    import builtins
    from tanbo_sim.simulator import Simulator
    s = Simulator("picosystem", nvm_path=str(tmp_path / "nvm"))
    try:
        real = builtins.__import__
        failed = []

        def short_import(name, *args, **kwargs):
            if name == "app.view.build" and not failed:
                failed.append(name)
                raise MemoryError("memory allocation failed, allocating 464 bytes")
            return real(name, *args, **kwargs)
        monkeypatch.setattr(builtins, "__import__", short_import)
        s.press("A")  # New game
        s.frames(300)  # the menu waits: its loads run, one fails
        monkeypatch.undo()
        menu = s.app.screen
        assert menu.title.text == "New game" and failed
        assert menu.warm == () and s.app.notice is None  # the rest not tried; no notice
        s.run_keys("UP,A,wait:300")  # Start
        assert screen_is(s.app.screen, "GameScreen")
    finally:
        s.close()


def break_a_ply_of(g, mover):
    """Have the next removing ply of player ``mover`` on ``g`` break off midway, as a
    removal's records that find no block for their next step on a board would: its
    stones placed and removed, the turn not passed on. The calls seen."""
    calls = []
    real = g._check_winner

    def check():
        if not calls and g.to_move == mover:  # (the mover's: the turn passes after this)
            calls.append(g.last_move())
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        return real()
    g._check_winner = check
    return calls


def continue_after_low_memory(sim):
    title = sim.app.screen
    assert screen_is(title, "Menu") and "Low memory: saved." in [n.text for n in title.notes]
    assert title.labels[0].text.startswith("Continue")
    sim.press("A")
    sim.frames(50)
    return game_screen(sim)


def test_a_persons_move_broken_off_by_a_memory_error_is_played_whole_in_the_game_kept(sim):
    # Between people: a removing move of Black's, its ply broken off.
    from app.store.settings import OPPONENTS
    sim.app.settings.opponent = OPPONENTS.index("Person")  # (Continue's seats)
    g = Game("9x9")
    rng = __import__("tanbo").Rng(3)
    while not any(g.copy().play(m) for m in g.legal_moves() if g.to_move == 1):
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    move = [m for m in g.legal_moves() if g.copy().play(m)][0]
    whole = g.copy()
    whole.play(move)
    sim.app.play(g, ())
    sim.frames(50)
    calls = break_a_ply_of(g, 1)
    game_screen(sim).cursor = move
    sim.press("A")
    assert calls == [move] and not g.broken()  # mended on the way to the title
    del g._check_winner
    gs = continue_after_low_memory(sim)
    assert gs.game.state_key() == whole.state_key() and gs.game.to_move == 2
    start_again(sim)  # the NVM's game too
    assert sim.app.saved_game.state_key() == whole.state_key()


def test_a_computer_move_broken_off_is_no_search_to_retry_lighter(sim):
    # The move was chosen; its ply broke off. Retried as a search's failure, the
    # computer would move again on a half-changed game (the person's turn).
    sim.app.settings.level = 0  # random: a move a step, no search's copy
    sim.app.play(Game("9x9"), (2,))
    sim.frames(50)
    gs = game_screen(sim)
    g = gs.game
    calls = break_a_ply_of(g, 2)
    rng = __import__("tanbo").Rng(4)
    while not calls and g.winner is None:
        assert not g.broken() and game_screen(sim) is gs
        if g.to_move == 1:  # a move that removes nothing, so that the game goes on
            quiet = [m for m in g.legal_moves() if not g.copy().play(m)] or g.legal_moves()
            gs.cursor = quiet[rng.below(len(quiet))]
            sim.press("A")
        sim.frames(100)
    assert calls, "no removing move of the computer's in the game"
    del g._check_winner
    whole = Game("9x9")
    for m in g.moves():
        whole.play(m)
    assert g.state_key() == whole.state_key() and g.last_move() == calls[0]  # no second move after it
    gs = continue_after_low_memory(sim)
    assert gs.game.state_key() == whole.state_key() and gs.game.to_move == 1


def test_a_games_end_without_room_for_its_write_makes_its_search_again_after_it(sim, hard_game, monkeypatch):
    # The write tried again without the search (its blocks the library's room),
    # the search is made again once the library's code is off the heap: the next
    # game takes it over, where one made at its start finds the result's holes.
    from app.store import library
    g = hard_game.game
    sim.press("A")
    sim.frames(300)
    old, games = sim.app.search, sim.app.games
    assert old is not None and g.ply == 2
    wrap, calls = once(None)
    monkeypatch.setattr(library, "keep", wrap(library.keep))  # (the module loaded again has none)
    g.resign(1)
    __import__("app.between").between.keep_game(sim.app, g, (2,))
    assert len(calls) == 1 and sim.app.games == games + 1  # kept at the second try
    new = sim.app.search
    assert new is not None and new is not old and (new.level, new.slowness) == (old.level, old.slowness)
    assert new.fits(Game("9x9"))
