"""Every screen fits every board in every state (issue 33): each screen's longest state is
rendered on all three boards and no label is drawn over another or off the screen.

A label with a background (a menu row) covers its whole box; one without (most text) covers
the ink of its characters, so the rules pages' lines, closer than their cells on 240x240, may
share cells but never a pixel. The title holds its rows, more of them too (a "Games" row),
and a notice: its credits make room (app.screens.menu.fits).
"""

import pytest
from tanbo import Game
from tanbo.puzzles import PuzzleBook

from test_sim_games import screen_is
from test_sim_puzzles import BOOK

NOTICES = ("Low memory: saved.", "Bad save discarded.", "Error: saved.", "Bad games: 99 kept.")


def tile_grids(group, out):
    for layer in group:
        if getattr(layer, "hidden", False):
            continue
        if hasattr(layer, "tile_width"):
            out.append(layer)
        else:
            tile_grids(layer, out)
    return out


def labels_drawn(app):
    """[(box, ink)] of the text on screen: ``box`` (x1, y1, x2, y2) when the label paints
    its background, else None; ``ink``: the set of pixels its characters draw."""
    from app.view.text import glyph_bitmap
    glyphs = glyph_bitmap()
    out = []
    # A box menu over a board covers what it is drawn over (opaque): its own lines are what
    # must fit (tests/test_sim_refresh.py checks what the box leaves in view).
    top = app.screen.group if getattr(app.screen, "over", None) is not None else app.root
    for tg in tile_grids(top, []):
        if tg.bitmap is not glyphs:
            continue
        x1, y1, x2, y2 = tg._cp_area()
        step = (x2 - x1) // (tg.width * tg.tile_width)
        ink = set()
        for i in range(tg.width):
            c = tg[i]
            for gy in range(tg.tile_height):
                for gx in range(tg.tile_width):
                    if glyphs[c * tg.tile_width + gx, gy]:
                        px, py = x1 + step * (i * tg.tile_width + gx), y1 + step * gy
                        ink.update((px + dx, py + dy) for dx in range(step) for dy in range(step))
        box = None if tg.pixel_shader.is_transparent(0) else (x1, y1, x2, y2)
        if box or ink:
            text = "".join(chr(32 + tg[i]) for i in range(tg.width)).rstrip()
            out.append((text, box, ink))
    return out


def inside(box, ink):
    x1, y1, x2, y2 = box
    return any(x1 <= x < x2 and y1 <= y < y2 for x, y in ink)


def assert_fits(app, what):
    """No label off the screen, none drawn over another."""
    drawn = labels_drawn(app)
    W, H = app.display.width, app.display.height
    for text, box, ink in drawn:
        xs = [x for x, _ in ink] + ([box[0], box[2] - 1] if box else [])
        ys = [y for _, y in ink] + ([box[1], box[3] - 1] if box else [])
        assert min(xs) >= 0 and min(ys) >= 0 and max(xs) < W and max(ys) < H, (what, text)
    for i, (t1, b1, k1) in enumerate(drawn):
        for t2, b2, k2 in drawn[i + 1:]:
            if b1 and b2:
                over = b1[0] < b2[2] and b2[0] < b1[2] and b1[1] < b2[3] and b2[1] < b1[3]
            else:
                over = (b1 and inside(b1, k2)) or (b2 and inside(b2, k1)) or bool(k1 & k2)
            assert not over, "%s on %s: %r over %r" % (what, app.hw.name, t1, t2)
    return [text for text, _, _ in drawn]


def title_with(app, extra_rows=0, notice=NOTICES[0], saved=True):
    """The title with Continue (``saved``), ``notice`` and ``extra_rows`` more rows (another
    helper adds "Games"), as built by app.screens.title."""
    from app.screens import title as menus
    from app.screens.menu import Menu, Row
    app.saved_game = Game("9x9") if saved else None
    app.notice = (notice,) if notice else None

    class More(Menu):
        def __init__(self, app, title, rows, *args, **kwargs):
            rows[1:1] = [Row("Games %d" % i) for i in range(extra_rows)]
            Menu.__init__(self, app, title, rows, *args, **kwargs)

    real = menus.Menu
    menus.Menu = More
    try:
        app.title()
    finally:
        menus.Menu = real
    return app.screen


def test_the_title_holds_continue_games_and_a_notice_on_every_board(sim):
    from app.screens.menu import fits
    app = sim.app
    assert fits(app) >= 7  # Continue, Games, New game, Puzzles, Rules, Settings and the notice
    for notice in NOTICES + (None,):
        for extra in range(0, fits(app) - 5 - (notice is not None) + 1):
            title = title_with(app, extra, notice)
            assert title.title.text == "T A N B O" and len(title.labels) == 5 + extra
            texts = assert_fits(app, "title +%d rows, %r" % (extra, notice))
            assert "Settings" in texts and "Continue" in texts
            assert any(t.startswith("A:choose ") and t.endswith("%") for t in texts)  # the battery gauge
            if notice:
                assert notice in texts
            elif extra == 0:
                assert "by Mark Steere" in texts  # room for the credits


def test_each_menu_and_screen_fits_in_its_longest_state(sim):
    app = sim.app
    assert_fits(app, "title")
    title_with(app, 0, NOTICES[1], saved=False)
    assert_fits(app, "title, a damaged save")
    from boards.common import RIGHT  # (the module: its package leaves with a screen's change, app.held)
    app.go("new_game")
    app.settings.variant = 0
    for _ in range(10):  # every board's name in the row
        app.screen.key(RIGHT)
        assert_fits(app, "new game")
    app.go("settings", app.title)
    assert_fits(app, "settings")
    from app.screens.rules import PAGES
    app.go("rules", app.title)
    for n in range(len(PAGES)):
        app.screen.show(n)
        assert_fits(app, "rules page %d" % (n + 1))
    app.go("puzzles")
    assert_fits(app, "puzzle list")
    with PuzzleBook(BOOK) as book:
        ps = [book.load(i) for i in range(len(book))]
    for p in (max(ps, key=lambda p: len(p.why)), max(ps, key=lambda p: len(p.goal))):
        app.go("puzzle", p.number)
        screen = app.screen
        assert_fits(app, "puzzle %d" % p.number)
        screen.solved = True
        screen.show_status()
        assert_fits(app, "puzzle %d solved" % p.number)
        app.go("puzzle_menu", screen)
        assert_fits(app, "puzzle menu")
    sim.app.last_stand()
    assert_fits(app, "last resort")
    from tanbo import VARIANTS
    for name in VARIANTS:
        g = Game(name)
        for _ in range(12):
            g.play(g.legal_moves()[-1])
        app.play(g, (2,))
        sim.frames(50)
        screen = app.screen
        screen.notify("game too long to save", "not saved", "unsaved")
        assert_fits(app, name)
        app.go("game_menu", screen)
        assert_fits(app, name + " game menu")
        g.resign()
        app.go("result", g)
        assert_fits(app, name + " game over")
