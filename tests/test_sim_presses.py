"""Presses that replace the whole screen, on the simulator (issue 46: every press drawn within
0.45 s on a PicoSystem; tests/test_press_board_time.py counts their Python and pixels).

The game menu's box loads the code of the whole screens it leads to (Rules, Settings, the
title) while the player looks at it, on a board of large heap: those screens come whole at
once, where they said "Opening..." first. The settings read the free heap only where its
line has room; a label's text is read as bytes; the rules' first page shows no diagram, so
its tile strip is drawn with the first page that has one.
"""

import gc
import sys

import pytest
from tanbo import Game

from tanbo_sim.simulator import DEVICE_DIR, Simulator

if DEVICE_DIR not in sys.path:
    sys.path.insert(0, DEVICE_DIR)

WARMED = ("app.screens.title", "app.screens.rules", "app.screens.settings")
# The game menu's rows that lead to a whole screen: (DOWNs to it, the screen's class, its title).
WHOLE = ((3, "Help", "Tanbo  1/7"), (4, "Menu", "Settings"), (5, "Menu", "T A N B O"))


@pytest.fixture(params=("pybadge", "picosystem"))
def game(request, tmp_path):
    """A 9x9 game between people on ``request.param``'s simulator, its board on show."""
    s = Simulator(request.param, nvm_path=str(tmp_path / "nvm"))
    s.app.play(Game("9x9"), ())
    s.frames(300)
    yield s
    s.close()


def sent(s, keys):
    """The refreshes ``keys`` send (those with pixels)."""
    n = len(s.events)
    s.run_keys(keys)
    return [e for e in s.log.since(n, "refresh") if e["pixels"]]


@pytest.mark.parametrize("downs, kind, title", WHOLE)
def test_the_game_menus_whole_screens_come_at_once_where_its_box_loaded_their_code(game, downs, kind, title):
    s = game
    w, h = s.profile.width, s.profile.height
    s.run_keys("START,wait:300," + ",".join(["DOWN"] * downs))
    loaded = [m in sys.modules for m in WARMED]
    refreshes = sent(s, "A,wait:300")
    screen = s.app.screen
    assert type(screen).__name__ == kind and screen.title.text == title
    if s.app.small_heap:
        # A SAMD51's heap keeps its room for the game's search: "Opening..." first
        # (the footer's cells), then the screen.
        assert loaded == [False] * 3
        assert len(refreshes) == 2 and refreshes[0]["pixels"] < w * h // 8, refreshes
        refreshes = refreshes[1:]
    else:
        assert loaded == [True] * 3
    assert [e["areas"] for e in refreshes] == [[[0, 0, w, h]]]  # the screen, whole, once


def test_a_whole_screen_pressed_for_before_its_code_is_loaded_says_opening_first(game):
    s = game
    if s.app.small_heap:
        pytest.skip("a SAMD51's box loads nothing ahead (the test above)")
    from app import forget
    w, h = s.profile.width, s.profile.height
    s.run_keys("START,wait:300,DOWN*4")
    forget("app.screens.settings")  # as if the key came before the box loaded it
    refreshes = sent(s, "A,wait:300")
    assert s.app.screen.title.text == "Settings"
    assert len(refreshes) == 2 and refreshes[0]["pixels"] < w * h // 8
    assert refreshes[1]["areas"] == [[0, 0, w, h]]


def test_the_settings_read_the_free_heap_only_where_its_line_has_room(game, monkeypatch):
    s = game
    reads = []

    def mem_free():
        reads.append(1)
        return 1000
    monkeypatch.setattr(gc, "mem_free", mem_free, raising=False)
    s.run_keys("START,wait:300,DOWN*4,A,wait:300")
    settings = s.app.screen
    # Seven rows fill 160x128 and 240x240: no line under them, the heap's table not walked.
    assert settings.title.text == "Settings" and reads == []
    assert not [label for label in settings.shown.values() if label.text.startswith("free")]
    from app.screens.menu import Menu, Row
    s.app.show(Menu(s.app, "Few", [Row("Back", None)], after=lambda: ["free %d B" % gc.mem_free()]))
    assert "free 1000 B" in [label.text for label in s.app.screen.shown.values()] and reads == [1]


def test_a_labels_cells_follow_its_text_as_bytes(game):
    from app.view.font import FIRST
    from app.view.text import Label
    label = Label(0, 0, 8, 0xFFFFFF)
    for text, shown in (("ply 9", "ply 9"), ("ply 10", "ply 10"), ("", ""), ("Opening...", "Opening."),
                        ("a\u00e9b", "a??b"), ("~ }", "~ }")):
        label.text = text
        assert label.text == text
        cells = "".join(chr(label.grid[i] + FIRST) for i in range(8))
        assert cells == (shown + " " * 8)[:8], (text, cells)


def test_the_rules_draw_their_diagrams_tile_strip_with_the_first_page_that_has_one(game, monkeypatch):
    s = game
    from app.view import tile_art
    drawn = []
    real = tile_art.tile_bitmap
    monkeypatch.setattr(tile_art, "tile_bitmap", lambda *a: drawn.append(a) or real(*a))
    s.run_keys("START,wait:300,DOWN*3,A,wait:300")
    rules = s.app.screen
    assert rules.title.text == "Tanbo  1/7" and rules.diagram is None and drawn == []
    shown = s.screenshot()
    s.run_keys("RIGHT,wait:100")  # Placing: a diagram
    assert rules.diagram is not None and not rules.diagram.hidden and len(drawn) == 1
    s.run_keys("RIGHT,wait:100,RIGHT,wait:100,RIGHT,wait:100")  # Removal, then Players: none
    assert rules.title.text.startswith("Players") and rules.diagram.hidden and len(drawn) == 1
    s.run_keys("RIGHT,wait:100,RIGHT,wait:100,RIGHT,wait:100")  # round to the first page
    assert rules.title.text == "Tanbo  1/7"
    import pygame
    assert pygame.image.tobytes(s.screenshot(), "RGB") == pygame.image.tobytes(shown, "RGB")


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))
def test_the_games_list_loads_the_reviews_code_while_the_player_looks_at_it(tmp_path, board):
    """The list -> Review stays over 0.45 s (the game replayed, its board built: 0.9 / 1.7 s
    on a PicoSystem, 9x9 / 19x19): "Opening..." at once, then the review, whole, once."""
    from tanbo.rng import Rng
    from test_sim_library import finish, new_game
    from app import forget
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        new_game(s, "9x9")
        finish(s, Rng(5))
        s.run_keys("B,wait:300")  # the result's B: the title, Games among its rows
        forget("app.screens.review", "app.view.build", "app.view.cell_plan")
        s.run_keys("DOWN,A,wait:300")
        assert type(s.app.screen).__name__ == "GamesList"
        loaded = [m in sys.modules for m in ("app.screens.review", "app.view.build", "app.view.cell_plan")]
        assert loaded == [not s.app.small_heap] * 3
        w, h = s.profile.width, s.profile.height
        refreshes = sent(s, "A,wait:300")
        assert type(s.app.screen).__name__ == "ReviewScreen"
        assert len(refreshes) == 2 and refreshes[0]["pixels"] < w * h // 8
        assert refreshes[1]["areas"] == [[0, 0, w, h]]
    finally:
        s.close()


def two_games_in_the_library(s, monkeypatch, fail=False):
    """Two finished games (9x9, then 13x13) kept in the library, then the games list on
    show, the newest (13x13) selected; their moves, newest first, and the plies left
    after each step of the list's replays ahead (``fail``: each replay ahead fails)."""
    from tanbo.rng import Rng
    from test_sim_library import finish, new_game
    played = []
    for variant in ("9x9", "13x13"):
        new_game(s, variant)
        played.insert(0, finish(s, Rng(5)))
        s.run_keys("B,wait:300")  # the result's B: the title
    import app.screens.games as games_code
    real, steps = games_code.replay, []

    def replay(*args):
        if fail:
            raise MemoryError("memory allocation failed, allocating 1552 bytes")
        for left in real(*args):
            steps.append(left)
            yield left
    monkeypatch.setattr(games_code, "replay", replay)
    s.run_keys("DOWN,A")  # Games
    assert type(s.app.screen).__name__ == "GamesList"
    return played, steps


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))
def test_the_games_list_replays_the_selected_game_while_the_player_looks_at_it(tmp_path, board, monkeypatch):
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        played, steps = two_games_in_the_library(s, monkeypatch)
        games = s.app.screen
        s.frames(2000)
        if s.app.small_heap:
            assert games.ahead is None and steps == []  # a SAMD51's heap: replayed on A, as before
        else:
            end, game, _, left = games.ahead
            assert end == games.ends[0] and left == 0 and game.moves() == played[0]
            # AHEAD plies a step of the app's loop
            n = len(played[0])
            assert steps == list(range(n - 16, 0, -16)) + [0]
        s.run_keys("DOWN,wait:2000")  # the older game: replayed in its turn
        if not s.app.small_heap:
            assert games.ahead[0] == games.ends[1] and games.ahead[1].moves() == played[1]
            game = games.ahead[1]
        s.run_keys("A,wait:300")
        review = s.app.screen
        assert type(review).__name__ == "ReviewScreen" and review.game.moves() == played[1]
        assert s.app.small_heap or review.game is game  # not replayed again
    finally:
        s.close()


def test_a_replay_ahead_that_fails_leaves_the_press_to_meet_it(tmp_path, monkeypatch):
    """A MemoryError (or an illegal ply) in the replay ahead takes the player nowhere; A
    replays the game itself, as on a SAMD51, and meets what it meets there."""
    s = Simulator("picosystem", nvm_path=str(tmp_path / "nvm"))
    try:
        played, _ = two_games_in_the_library(s, monkeypatch, fail=True)
        games = s.app.screen
        s.frames(500)
        assert games.ahead[1] is None and s.app.screen is games
        s.run_keys("A,wait:300")
        assert type(s.app.screen).__name__ == "ReviewScreen" and s.app.screen.game.moves() == played[0]
    finally:
        s.close()
