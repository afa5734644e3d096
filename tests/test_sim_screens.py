"""What the game screen shows on every board: 3D layer captions.

Runs the device app in the headless simulator; asserts on app state and pixels.
"""

import pytest
from tanbo import Game, get_variant

from tanbo_sim.simulator import Simulator

BOARDS = ("pybadge", "pygamer", "picosystem")
DISPLAYS = ((160, 128), (240, 240))
VARIANTS = ("9x9", "13x13", "19x19", "dense-11", "1d", "3d", "4p")


@pytest.fixture(params=BOARDS)
def sim(request, tmp_path):
    s = Simulator(request.param, nvm_path=str(tmp_path / "nvm.bin"))
    yield s
    s.close()


def start(sim, variant, ai=()):
    sim.app.play(Game(variant), ai)
    sim.frames(50)
    return sim.app.screen


@pytest.fixture(scope="module")
def layout_class():
    s = Simulator("pybadge")  # puts device/ on sys.path
    from app.layout import BoardLayout
    s.close()
    return BoardLayout


@pytest.mark.parametrize("size", DISPLAYS, ids=lambda d: "%dx%d" % d)
def test_3d_layers_are_captioned_in_empty_cells_above_each_slice(layout_class, size):
    v = get_variant("3d")
    lay = layout_class(v, *size)
    assert [t for t, _, _ in lay.labels] == ["Z=1", "Z=2", "Z=3", "Z=4", "Z=5"]
    for z, (text, x, y) in enumerate(lay.labels):
        top_left = lay.cell_xy(z * 25)  # point x=0, y=0 of layer z
        assert (x, y) == (top_left[0], top_left[1] - lay.cell)  # the cell row above the slice
        i = (y - lay.y0) // lay.cell * lay.cols + (x - lay.x0) // lay.cell
        assert lay.point_at[i] == 0xFFFF  # a caption never covers a point
        assert 0 <= y and y + lay.cell <= (lay.status_y if not lay.side else size[1])
        assert len(text) * 6 <= 5 * lay.cell  # fits over its slice
    assert lay.cell >= 8  # the caption's 8 px of ink fit the row


def test_3d_captions_are_drawn(sim):
    gs = start(sim, "3d")
    lay = gs.view.layout
    for text, x, y in lay.labels:
        back = sim.pixel(x + 20, y + 1)  # the gap row right of the caption
        ink = [(px, py) for px in range(x, x + 18) for py in range(y, y + lay.cell)
               if sim.pixel(px, py) != back]
        assert len(ink) > 10, text
        assert all(sim.pixel(px, py)[2] > 0x80 for px, py in ink)  # light grey on the dark gap
