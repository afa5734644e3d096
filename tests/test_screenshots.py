"""The README's pictures (docs/img) are what the simulator draws now: ``tanbo screenshots``
regenerates them, and these tests fail, naming that command, when someone forgot to."""

import os
import shutil

import pytest

from tanbo_tools.play import screenshots
from tanbo_tools.cli import main


def test_the_readme_screenshots_match_the_simulator():
    bad = screenshots.stale(screenshots.DEFAULT_OUT)
    assert not bad, ("stale pictures in docs/img: %s (the screens changed); regenerate with: %s"
                     % (", ".join(bad), screenshots.REGENERATE))


@pytest.mark.parametrize("name", sorted(screenshots.SHOTS))
def test_each_picture_is_the_device_screen_scaled_twice(name):
    from tanbo_sim.profiles import get_profile
    (w, h), rgb = screenshots.pixels(os.path.join(screenshots.DEFAULT_OUT, name))
    p = get_profile(screenshots.SHOTS[name][0])
    assert (w, h) == (2 * p.width, 2 * p.height)
    row = 3 * w
    for y in range(0, h, 2):  # every screen pixel is a 2x2 block
        line = rgb[y * row:(y + 1) * row]
        assert line == rgb[(y + 1) * row:(y + 2) * row]
        assert all(line[3 * x:3 * x + 3] == line[3 * x + 3:3 * x + 6] for x in range(0, w, 2))


def test_a_changed_picture_is_named_and_the_check_says_how_to_regenerate(tmp_path, capsys):
    name = "title-pybadge.png"
    shutil.copy(os.path.join(screenshots.DEFAULT_OUT, name), tmp_path / name)
    assert screenshots.stale(str(tmp_path), [name]) == []
    import pygame
    image = pygame.image.load(str(tmp_path / name))
    image.set_at((0, 0), (255, 0, 0))
    pygame.image.save(image, str(tmp_path / name))
    assert screenshots.stale(str(tmp_path), [name]) == [name]
    assert main(["screenshots", "--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert name in err and "game-9x9-pybadge.png" in err  # missing counts as stale
    assert "regenerate with: tanbo screenshots" in err


def test_the_game_picture_shows_a_game_in_progress(tmp_path):
    """The key script still plays its eight stones (a menu change would leave it elsewhere)."""
    from tanbo_sim.simulator import Simulator
    sim = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"))
    try:
        sim.run_keys(screenshots.GAME_9X9)
        game = sim.app.screen.game
        assert type(sim.app.screen).__name__ == "GameScreen"
        assert game.ply == 16 and game.winner is None
        assert [game.name(m) for m in game.moves()[::2]] == "G8 G7 C2 G6 C3 F6 D3 F5".split()
    finally:
        sim.close()
