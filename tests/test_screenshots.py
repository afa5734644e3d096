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


def test_every_picture_of_the_readme_and_the_docs_is_made_by_tanbo_screenshots():
    import re
    from tanbo_tools.vm import REPO
    docs = [os.path.join(REPO, "README.md")] + [os.path.join(REPO, "docs", n)
                                                for n in sorted(os.listdir(os.path.join(REPO, "docs")))
                                                if n.endswith(".md")]
    shown = set()
    for path in docs:
        with open(path, encoding="utf-8") as f:
            shown.update(re.findall(r"img/([\w.-]+\.png)", f.read()))
    assert "analyse-blunder.png" in shown and len(shown) >= 8
    assert shown == set(screenshots.NAMES), sorted(shown ^ set(screenshots.NAMES))
    assert sorted(os.listdir(screenshots.DEFAULT_OUT)) == sorted(screenshots.NAMES)  # none left over


def test_the_analyse_picture_is_the_one_tanbo_analyse_draws_and_a_move_without_one_is_an_error(tmp_path,
                                                                                               monkeypatch):
    import pygame
    from tanbo import Game
    from tanbo_tools.games.analysis_png import PLAYED
    name = "analyse-blunder.png"
    screenshots.make_all(str(tmp_path), [name])
    image = pygame.image.load(str(tmp_path / name))
    assert image.get_size() == pygame.image.load(os.path.join(screenshots.DEFAULT_OUT, name)).get_size()
    position, move, _ = screenshots.ANALYSED[name]
    assert PLAYED in {tuple(image.get_at((x, y)))[:3] for x in range(0, 120) for y in range(200, 300)}  # A4's ring
    # Hard's own move is no mistake: analyse draws nothing, and the command says so.
    g = Game.from_position(position)
    monkeypatch.setitem(screenshots.ANALYSED, name, (position, "B4", "hard's move"))
    assert g.is_legal(g.variant.parse_point("B4"))
    with pytest.raises(RuntimeError, match="drew nothing .* for analyse-blunder.png"):
        screenshots.make_all(str(tmp_path / "again"), [name])
