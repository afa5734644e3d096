"""`tanbo sim --headless`: key scripts in, PNG screenshots of the device's true resolution out."""

import pygame
import pytest

from tanbo_tools import cli


@pytest.mark.parametrize("board,size", [("pybadge", (160, 128)), ("picosystem", (240, 240))])
def test_headless_script_writes_screenshots(tmp_path, board, size):
    out = tmp_path / "end.png"
    steps = tmp_path / "steps"
    rc = cli.main(["sim", "--headless", "--board", board, "--nvm", str(tmp_path / "nvm"),
                   "--keys", "A,DOWN*4,A,wait:200", "--screenshot", str(out),
                   "--screenshot-every", str(steps)])
    assert rc == 0
    assert pygame.image.load(str(out)).get_size() == size
    shots = sorted(p.name for p in steps.iterdir())
    assert shots[0] == "step-0000.png" and len(shots) == 1 + 1 + 4 + 1 + 1
    # The title and the game screen differ; the last step (a wait) changes nothing.
    first = pygame.image.load(str(steps / shots[0]))
    last = pygame.image.load(str(steps / shots[-1]))
    assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(last, "RGB")
    assert pygame.image.tobytes(last, "RGB") == pygame.image.tobytes(pygame.image.load(str(out)), "RGB")


@pytest.mark.parametrize("args,words", [
    (["--keys", "A,JUMP"], "'JUMP'"),
    (["--board", "gameboy"], "'gameboy'"),
    (["--scale", "0"], "--scale 0"),
])
def test_bad_arguments_are_named(tmp_path, capsys, args, words):
    rc = cli.main(["sim", "--headless", "--nvm", str(tmp_path / "nvm")] + args)
    assert rc == 2
    assert words in capsys.readouterr().err
