"""No exception a screen raises reaches CircuitPython's traceback console (issue 34): an error
in any screen's ``key`` or ``tick`` is reported in one line by the app's loop, which returns to
the title, saying so, with the game saved to continue.
"""

import sys

import pytest
from tanbo import Game

from tanbo_sim.simulator import Simulator
from test_sim_games import NEW_9X9_VS_RANDOM, game_screen, screen_is


def on_title(s):
    pass


def review(s):
    from app.screens.review import ReviewScreen
    g = Game("9x9")
    for _ in range(3):
        g.play(g.legal_moves()[0])
    s.app.show(ReviewScreen(g, s.app.display.width, s.app.display.height, s.app.title))
    s.frames(50)


def a_game(s):
    s.run_keys(NEW_9X9_VS_RANDOM + ",A")
    s.frames(300)


# Each screen of the app, reached as a player does (the review: as game over's Review does).
SCREENS = {
    "Menu": on_title,
    "new game Menu": lambda s: s.run_keys("A"),
    "settings Menu": lambda s: s.run_keys("DOWN*3,A"),
    "Help": lambda s: s.run_keys("DOWN*2,A"),
    "PuzzleList": lambda s: s.run_keys("DOWN,A"),
    "PuzzleScreen": lambda s: s.run_keys("DOWN,A,A"),
    "GameScreen": a_game,
    "ReviewScreen": review,
    "LowMemory": lambda s: s.app.last_stand() or s.frames(50),
}


@pytest.mark.parametrize("method", ("key", "tick"))
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_an_exception_in_any_screens_key_or_tick_returns_to_the_title_with_the_game(tmp_path, capsys,
                                                                                   monkeypatch, name, method):
    s = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"))
    try:
        SCREENS[name](s)
        screen = s.app.screen
        assert screen_is(screen, name.split()[-1])
        game = game_screen(s) and screen.game
        if game is not None and getattr(screen, "puzzle", None) is not None:
            game = None  # a puzzle's position is no game to continue
        moves = game.moves() if game is not None else None
        real = getattr(type(screen), method)
        raised = []

        def once(*args):
            if not raised:
                raised.append(args)
                raise RuntimeError("a bug in %s.%s" % (name, method))
            return real(*args)
        monkeypatch.setattr(type(screen), method, once)
        capsys.readouterr()
        if method == "key":
            s.press("SELECT")
        else:
            s.frames(50)
        assert raised
        said = capsys.readouterr().out
        assert said.count("\n") == 1 and "RuntimeError" in said and name in said  # one line
        title = s.app.screen
        assert screen_is(title, "Menu") and title.title.text == "T A N B O"
        notes = [label.text for label in title.notes]
        if moves is None:
            assert notes[-1] in ("Error.", "Error: saved.")
            return
        assert notes[-1] == "Error: saved." and title.labels[0].text == "Continue"
        s.close()
        s = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"))  # saved: also across a reset
        s.press("A")
        assert game_screen(s).game.moves() == moves
    finally:
        monkeypatch.undo()
        s.close()


def test_a_game_screen_module_that_fails_to_load_after_a_review_returns_to_the_title(tmp_path, capsys,
                                                                                    monkeypatch):
    # Review drops the game screen's code and the next game imports it again
    # (app.between.play): a damaged file then (CircuitPython: "ValueError:
    # incompatible .mpy file") is reported in one line at the title, and the
    # next try, the file good again, plays.
    s = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"))
    try:
        from app.screens.review import ReviewScreen
        g = Game("9x9")
        for _ in range(3):
            g.play(g.legal_moves()[0])
        s.app.show(ReviewScreen(g, s.app.display.width, s.app.display.height, None, s.app))  # as game over's Review
        s.frames(20)
        assert "app.screens.game" not in sys.modules  # dropped under the review
        failed = []

        class Damaged:
            """The game screen's file, unreadable once (an importer before the real ones)."""

            def find_spec(self, name, path=None, target=None):
                if name == "app.screens.game" and not failed:
                    failed.append(True)
                    raise ValueError("incompatible .mpy file")
                return None
        monkeypatch.setattr(sys, "meta_path", [Damaged()] + sys.meta_path)
        s.app.title()
        s.frames(20)
        capsys.readouterr()
        s.run_keys(NEW_9X9_VS_RANDOM)
        s.frames(50)
        said = capsys.readouterr().out
        assert failed and said.count("\n") == 1 and "incompatible .mpy file" in said
        title = s.app.screen
        assert screen_is(title, "Menu") and title.title.text == "T A N B O"
        assert title.notes[-1].text in ("Error.", "Error: saved.")
        s.run_keys(NEW_9X9_VS_RANDOM)
        s.frames(50)
        assert game_screen(s) and game_screen(s).game.variant.name == "9x9"
    finally:
        monkeypatch.undo()
        s.close()


@pytest.mark.parametrize("module", ("tanbo.game_make", "tanbo.point_text"))
def test_a_damaged_engine_module_loaded_at_a_games_start_returns_to_the_title(tmp_path, capsys, monkeypatch,
                                                                               module):
    # What sets a game up (tanbo.game_make) leaves a board's heap under each
    # game and is loaded again at the next one, through tanbo.variants.loaded,
    # as point notation's reader (tanbo.point_text) is when a puzzle first
    # reads its record: a damaged file then fails at that load, inside the
    # app's loop, which says so in one line, at the title (the game) or on
    # the puzzle list (the puzzle marked damaged, "copy the game again", as
    # a damaged puzzle file is); then a game, the file good again, plays.
    import tanbo.game
    import tanbo.variants
    s = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"))
    try:
        real, failed = tanbo.variants.loaded, []

        def damaged(name):
            if name == module and not failed:
                failed.append(True)
                raise ValueError("incompatible .mpy file")
            return real(name)
        monkeypatch.setattr(tanbo.game, "loaded", damaged)
        monkeypatch.setattr(tanbo.variants, "loaded", damaged)
        s.frames(20)
        capsys.readouterr()
        s.run_keys(NEW_9X9_VS_RANDOM if module == "tanbo.game_make" else "DOWN,A,A")  # a game; a puzzle
        s.frames(50)
        said = capsys.readouterr().out
        assert failed and said.count("\n") == 1 and "incompatible .mpy file" in said
        on_show = s.app.screen
        if module == "tanbo.game_make":
            assert screen_is(on_show, "Menu") and on_show.title.text == "T A N B O"
            assert on_show.notes[-1].text in ("Error.", "Error: saved.")
        else:
            assert screen_is(on_show, "PuzzleList") and on_show.goal.text == "Copy the game again"
            assert on_show.labels[on_show.index].text.split()[:2] == ["1", "damaged"]
            s.run_keys("B")
            s.frames(20)
            assert screen_is(s.app.screen, "Menu")
        s.run_keys(NEW_9X9_VS_RANDOM)
        s.frames(50)
        assert game_screen(s) and game_screen(s).game.variant.name == "9x9"
    finally:
        monkeypatch.undo()
        s.close()
