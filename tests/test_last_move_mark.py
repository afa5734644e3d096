"""The last move's mark shows on every player's stones, on every board's screen.

One orange mark read 1.2:1 against a yellow stone (Hexbo's fifth player) on
the PicoSystem: the mark now takes a colour per player (app.view.theme.MARK_COLORS),
checked here by its contrast with each stone and by the pixels the simulator
draws.
"""

import sys

from tanbo import Game
from tanbo_sim.simulator import DEVICE_DIR

from test_sim_games import game_screen

if DEVICE_DIR not in sys.path:
    sys.path.insert(0, DEVICE_DIR)
from app.view import theme  # noqa: E402  (device/app: the colours the screen shows)


def luminance(rgb):
    """WCAG 2 relative luminance of 0xRRGGBB."""
    out = 0.0
    for shift, weight in ((16, 0.2126), (8, 0.7152), (0, 0.0722)):
        v = ((rgb >> shift) & 255) / 255
        out += weight * (v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
    return out


def contrast(a, b):
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# WCAG 2.1's least contrast for the parts of a picture one must see (1.4.11): 3:1.
LEAST = 3.0


def test_the_mark_contrasts_with_every_players_stones():
    assert len(theme.MARK_COLORS) == len(theme.PLAYER_COLORS)
    ratios = [contrast(m, p) for m, p in zip(theme.MARK_COLORS, theme.PLAYER_COLORS)]
    assert min(ratios) >= LEAST, ratios
    # the one orange of before would not: 1.2:1 on yellow
    assert contrast(theme.BOARD_COLORS[theme.LAST], theme.PLAYER_COLORS[4]) < LEAST


def test_the_mark_is_drawn_in_its_players_colour_on_each_stone(sim):
    sim.app.play(Game("hexbo-6p"), ())  # six people: each places one stone
    sim.frames(300)
    gs = game_screen(sim)
    g = gs.game
    for player in range(1, 7):
        assert g.to_move == player
        gs.cursor = g.legal_move_at(g.legal_count() // 2)
        sim.press("A")
        sim.frames(200)
        p = g.last_move()
        assert g.board[p] == player
        mark = gs.view.mark
        assert not mark.hidden
        x, y = mark.x + gs.view.group.x, mark.y + gs.view.group.y  # the mark's top-left pixel
        seen, beside = sim.pixel(x, y), sim.pixel(x - 1, y)  # the mark, and its stone just left of it
        assert near(seen, theme.MARK_COLORS[player - 1]), (player, seen)
        assert near(beside, theme.PLAYER_COLORS[player - 1]), (player, beside)
        assert contrast(packed(seen), packed(beside)) >= LEAST, (player, seen, beside)


def near(seen, colour):
    """The screen's pixel ``seen`` is ``colour`` as the panel's 16 bits draw it."""
    return all(abs(a - ((colour >> s) & 255)) <= 8 for a, s in zip(seen, (16, 8, 0)))


def packed(rgb):
    return rgb[0] << 16 | rgb[1] << 8 | rgb[2]
