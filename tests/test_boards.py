"""The board registries agree: adding a board to one and not the others fails here.

A board's facts live in three places because each is read where the
others cannot be imported (README "Layout"): ``tanbo_tools.ship.boards`` (build,
deploy, flash), ``tanbo_sim.profiles`` (the simulator's twins) and
``device/boards/__init__.py``'s ``MODULES`` (on the handheld, which has no
tools). This test ties them together.
"""

import ast
import os

import pytest

from tanbo_sim.profiles import PROFILES
from tanbo_tools.ship.boards import BOARDS

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE_BOARDS = os.path.join(REPO, "device", "boards")


def device_modules():
    """``MODULES`` of device/boards/__init__.py, read without importing CircuitPython modules."""
    with open(os.path.join(DEVICE_BOARDS, "__init__.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["MODULES"]:
            return ast.literal_eval(node.value)
    raise AssertionError("device/boards/__init__.py has no MODULES")


def test_the_same_boards_everywhere():
    assert set(BOARDS) == set(PROFILES)
    assert set(device_modules()) == {i for b in BOARDS.values() for i in b.board_ids}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_one_board_agrees_with_itself(name):
    board, profile = BOARDS[name], PROFILES[name]
    assert profile.board_id in board.board_ids
    assert board.display.startswith("%dx%d " % (profile.width, profile.height))
    for board_id in board.board_ids:
        assert device_modules()[board_id] == board.module
    assert os.path.isfile(os.path.join(DEVICE_BOARDS, board.module + ".py"))
