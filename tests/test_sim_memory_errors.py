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
    assert "low" in status(hard_game) or "RAM" in status(hard_game)
    assert screen_is(sim.app.screen, "GameScreen")


def test_a_game_screen_that_cannot_be_built_sends_to_the_title_with_the_game_saved(sim, monkeypatch):
    from app import board_view
    wrap, calls = once(None)
    monkeypatch.setattr(board_view.BoardView, "__init__", wrap(board_view.BoardView.__init__))
    sim.run_keys(NEW_9X9_VS_RANDOM)  # Start: the board's tile strip fails
    title = sim.app.screen
    assert screen_is(title, "Menu") and title.title.text == "T A N B O"
    assert [n.text for n in title.notes][-1] == "Low memory: saved."
    assert title.labels[0].text.startswith("Continue")
    sim.press("A")  # Continue: the game saved is played on
    gs = game_screen(sim)
    assert gs is not None and gs.game.ply == 0 and len(calls) == 2


def test_a_menu_or_tile_strip_that_cannot_be_built_during_a_game_keeps_the_game(sim, monkeypatch):
    from app import text
    sim.run_keys(NEW_9X9_VS_RANDOM + ",A")
    sim.frames(300)
    g = game_screen(sim).game
    assert g.ply == 2
    wrap, calls = once(None)
    monkeypatch.setattr(text.Label, "__init__", wrap(text.Label.__init__))
    sim.press("START")  # the game menu: its first label fails
    title = sim.app.screen
    assert screen_is(title, "Menu") and "Low memory: saved." in [n.text for n in title.notes]
    sim.press("A")  # Continue
    assert game_screen(sim).game.position() == g.position()


def test_rules_whose_diagram_cannot_be_built_say_so_on_the_title(sim, monkeypatch):
    from app import tile_art
    wrap, calls = once(None)
    monkeypatch.setattr(tile_art, "tile_bitmap", wrap(tile_art.tile_bitmap))
    sim.run_keys("DOWN,DOWN,A")  # Rules (below New game and Puzzles): its diagram's tile strip fails
    title = sim.app.screen
    assert screen_is(title, "Menu") and [n.text for n in title.notes][-1] == "Low memory."
    assert calls and sim.app.saved_game is None
