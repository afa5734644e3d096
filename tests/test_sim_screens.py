"""What the game screen shows on every board: 3D layer captions, status chips that fit,
the thinking spinner during a search, the "too long to save" notice.

Runs the device app in the headless simulator; asserts on app state and pixels.
"""

import sys

import pytest
from tanbo import Game, get_variant

from tanbo_sim.simulator import DEVICE_DIR, Simulator

if DEVICE_DIR not in sys.path:
    sys.path.insert(0, DEVICE_DIR)
from app.view import theme  # noqa: E402  (device/app: the colours the screen shows)


def rgb(color):
    return (color >> 16, color >> 8 & 255, color & 255)

DISPLAYS = ((160, 128), (240, 240))
VARIANTS = ("9x9", "13x13", "19x19", "dense-11", "1d", "3d", "4p")


def start(sim, variant, ai=()):
    sim.app.play(Game(variant), ai)
    sim.frames(50)
    return sim.app.screen


@pytest.fixture(scope="module")
def layout_class():
    s = Simulator("pybadge")  # puts device/ on sys.path
    from app.view.layout import BoardLayout
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


@pytest.mark.parametrize("name", VARIANTS)
def test_status_chips_show_four_characters_on_screen(sim, name):
    gs = start(sim, name)
    st = gs.status
    W, H = sim.display.width, sim.display.height
    for label in st.chips:
        right = st.group.x + label.group.x + 6 * label.group.scale * 4 - label.group.scale
        bottom = st.group.y + label.group.y + 10 * label.group.scale  # glyph ink ends at row 9
        assert right <= W and bottom <= H
    for label in st.info:
        assert st.group.x + label.group.x + 6 * label.group.scale * label.width <= W


def test_long_status_text_wraps_at_spaces_and_never_cuts_numbers(sim):
    gs = start(sim, "9x9")
    st = gs.status
    from app import GAUGE
    st.say("ply 100")
    shown = [label.text for label in st.info if label.text]
    # The battery's gauge after it where there is room (not on 240x240's 7-column line).
    assert "".join(shown).replace(" ", "") in ("ply100" + GAUGE[0], "ply100")
    assert all(len(t) <= st.chars for t in shown)


def test_refused_move_says_why_in_words_that_fit(sim):
    gs = start(sim, "9x9")
    v = gs.game.variant
    h8 = v.parse_point("H8")  # Black's stone
    while gs.cursor != h8:
        dx, dy = h8 % 9 - gs.cursor % 9, h8 // 9 - gs.cursor // 9
        sim.press("RIGHT" if dx > 0 else "LEFT" if dx < 0 else "DOWN" if dy > 0 else "UP")
    sim.press("A")
    from app import GAUGE
    shown = " ".join(label.text for label in gs.status.info if label.text and label.text != GAUGE[0])
    assert shown in ("occupied", "taken")
    sim.press("LEFT")
    assert all(label.text in ("", GAUGE[0]) or label.text.startswith("ply") for label in gs.status.info)


def test_spinner_turns_during_a_search_while_virtual_time_stands_still(sim, monkeypatch):
    from app.screens import game as gs_module
    seen = []
    refreshes = []

    def fake_choose(screen, level, progress):
        # A search that reports progress like tanbo.ai (every 24 nodes) and takes no virtual time.
        game = screen.game
        now = sim.now
        for done in range(24, 24 * 400, 24):
            assert progress(done, 20000) is False
            seen.append(" ".join(label.text for label in sim.app.screen.status.info))
            refreshes.append(sim.display.refresh_count)
        assert sim.now == now
        return game.legal_moves()[0]

    monkeypatch.setattr(gs_module.GameScreen, "choose", fake_choose)
    gs = start(sim, "9x9", ai=(2,))
    sim.press("A")
    sim.frames(100)
    assert gs.game.ply == 2
    spinners = set(seen)
    assert len(spinners) == 4  # all four spinner phases were on screen
    assert all("B:now" in t for t in spinners)
    assert refreshes[-1] - refreshes[0] >= 10  # ~1.7 s of SAMD51 search: a turn every ~100 ms
    assert not gs.thinking and "B:now" not in " ".join(label.text for label in gs.status.info)


@pytest.mark.parametrize("name", VARIANTS + ("dense-7", "dense-19"))
def test_the_status_says_b_stops_the_search_on_every_board(sim, name):
    # "think -" alone on the PicoSystem's 9x9: its "B:now" did not fit the line.
    gs = start(sim, name, ai=(2,))
    gs.start_thinking(sim.now)
    shown = [label.text for label in gs.status.info]
    words = " ".join(shown).split()
    assert "B:now" in words and gs.spin_cell is not None, shown
    label, i = gs.spin_cell
    assert label.text[i] == "-"  # the spinner, whole, not a letter of a word


def test_b_stops_the_search_and_a_does_not(sim, monkeypatch):
    from app.screens import game as gs_module
    from app.main import STOP_AFTER_MS
    answers = []

    def fake_choose(screen, level, progress):
        game = screen.game
        t0 = sim.now
        for done in range(24, 24 * 100, 24):
            sim.now = t0 + done  # 1 ms a node
            if done == 240:  # the player lets go of A (their move) and presses it again
                sim.wiring.set("A", False)
                sim.wiring.set("A", True)
            if done == 24 * 20:  # ... and B, after the first moments
                sim.wiring.set("B", True)
            r = progress(done, 10000)
            answers.append(r)
            if r:
                break
        return game.legal_moves()[0]

    monkeypatch.setattr(gs_module.GameScreen, "choose", fake_choose)
    start(sim, "9x9", ai=(2,))
    sim.press("A")
    sim.wiring.set("A", False)
    sim.wiring.set("B", False)
    assert 24 * 20 >= STOP_AFTER_MS and answers[-1] is True and answers.count(True) == 1 and len(answers) == 20


def test_game_too_long_to_save_is_said_once_on_the_game_screen(sim):
    gs = start(sim, "9x9")
    saves = sim.app.saves
    saves.capacity = 8 + 1 + 1 + 2 + 2 * 3  # room for 3 plies only (no puzzle progress; the ply count)
    lines = []
    for _ in range(6):
        p = gs.game.legal_moves()[0]
        gs.cursor = p
        sim.press("A")
        lines.append(" ".join(label.text for label in gs.status.info if label.text))
    assert gs.game.ply == 6
    assert [("save" in t) for t in lines] == [False, False, False, True, False, False]
    assert sim.app.saved_game is gs.game
    # The title screen does not mistake it for a damaged save.
    sim.app.title()
    assert all("damaged" not in label.text for label in sim.app.screen.notes)


def test_rules_pages_fit_and_say_the_rules():
    s = Simulator("pybadge")
    try:
        from app.screens.rules import CHARS, PAGES, WIDE
    finally:
        s.close()
    for title, lines, diagram in PAGES:
        assert len(lines) <= 8, title
        width = CHARS if diagram else WIDE
        assert all(len(line) <= width for line in lines), title
    text = " ".join(" ".join(lines) for _, lines, _ in PAGES)
    for phrase in ("By Mark Steere.", "EXACTLY ONE of your stones", "last player with stones wins",
                   "If the root you grew is bounded, only it is taken off; else every bounded root"):
        assert phrase in text, phrase


def test_rules_pages_turn_with_left_and_right(sim):
    sim.run_keys("DOWN*2,A")  # title: New game, Puzzles, Rules
    from app.screens.rules import PAGES, Help
    h = sim.app.screen
    assert isinstance(h, Help) and h.title.text.startswith("Tanbo")
    sim.run_keys("RIGHT*2")
    assert h.title.text.startswith("Roots") and h.lines[0].text == PAGES[2][1][0]
    assert not h.diagram.hidden
    sim.run_keys("LEFT*3")
    assert h.page == len(PAGES) - 1 and h.diagram.hidden
    sim.press("B")
    assert not isinstance(sim.app.screen, Help)


def test_cursor_is_cyan_ringed_with_dark_on_a_white_stone(sim):
    gs = start(sim, "9x9")
    v = gs.game.variant
    gs.cursor = v.parse_point("B8")  # a White setup stone
    gs.update()
    sim.app.refresh()
    x, y = gs.view.layout.cell_xy(gs.cursor)
    c = gs.view.layout.cell
    for px, py in ((x - 1, y + c // 2), (x + c, y + c // 2), (x + c // 2, y - 1)):
        r, g, b = sim.pixel(px, py)
        assert r < 0x20 and g > 0xC0 and b > 0xC0, (px, py)  # cyan
    for px, py in ((x - 2, y + c // 2), (x + c + 1, y + c // 2), (x + c // 2, y + c + 1)):
        assert sum(sim.pixel(px, py)) < 0x30, (px, py)  # its dark outer ring


WOOD, LINE = rgb(theme.BOARD_COLORS[theme.WOOD]), rgb(theme.BOARD_COLORS[theme.LINE])


def shade(rgb):
    """"wood", "line" or "other" for a screen pixel (RGB565 rounding tolerated)."""
    for name, want in (("wood", WOOD), ("line", LINE)):
        if all(abs(a - b) <= 12 for a, b in zip(rgb, want)):
            return name
    return "other"


def empty_line_tile_points(sim, gs):
    """Points whose cell shows bare lines (no stone, hint, highlight) after a render."""
    from app.view import tiles
    gs.view.cursor.hidden = True  # it reaches 2 px into the cells around it
    sim.app.refresh()
    return [p for p in range(gs.game.variant.size)
            if gs.view.shown[p] == tiles.tile_of(tiles.T_EMPTY, gs.view.layout.arm_set[p])]


@pytest.mark.parametrize("name", ("9x9", "19x19", "3d"))
def test_grid_lines_stop_at_the_outer_points(sim, name):
    sim.app.settings.hints = False
    gs = start(sim, name)
    lay, v = gs.view.layout, gs.game.variant
    c, mid = lay.cell, lay.cell // 2
    seen = set()
    for p in empty_line_tile_points(sim, gs):
        x, y = lay.cell_xy(p)
        px, py = p % v.width, p // v.width % v.height
        # Towards the board's edge: wood; inwards: the line.
        left = shade(sim.pixel(x, y + mid))
        right = shade(sim.pixel(x + c - 1, y + mid))
        top = shade(sim.pixel(x + mid, y))
        bottom = shade(sim.pixel(x + mid, y + c - 1))
        assert left == ("wood" if px == 0 else "line"), (name, v.format_point(p))
        assert right == ("wood" if px == v.width - 1 else "line"), (name, v.format_point(p))
        assert top == ("wood" if py == 0 else "line"), (name, v.format_point(p))
        assert bottom == ("wood" if py == v.height - 1 else "line"), (name, v.format_point(p))
        seen.add((px in (0, v.width - 1), py in (0, v.height - 1)))
    assert {(False, False), (True, False), (False, True)} <= seen  # 19x19 has stones in its corners
    if name != "19x19":
        assert (True, True) in seen


def test_1d_line_has_no_loose_ends_and_turns_into_its_links(sim):
    sim.app.settings.hints = False
    gs = start(sim, "1d")
    lay, n = gs.view.layout, gs.game.variant.size
    c, mid = lay.cell, lay.cell // 2
    assert lay.links  # the line snakes on every display
    for p in empty_line_tile_points(sim, gs):
        x, y = lay.cell_xy(p)
        i = lay.cell_of[p]
        arms = {"left": shade(sim.pixel(x, y + mid)) == "line",
                "right": shade(sim.pixel(x + c - 1, y + mid)) == "line",
                "up": shade(sim.pixel(x + mid, y)) == "line", "down": shade(sim.pixel(x + mid, y + c - 1)) == "line"}
        want = set()
        for q in (p - 1, p + 1):
            if 0 <= q < n:
                j = lay.cell_of[q]
                if j // lay.cols == i // lay.cols:
                    want.add("left" if j < i else "right")
                else:
                    want.add("down" if j > i else "up")
        assert {k for k, on in arms.items() if on} == want, p


SCREEN_BG = rgb(theme.SCREEN)


def has_ink(sim, xs, ys):
    """True if any pixel at columns ``xs`` and rows ``ys`` differs from the screen's background."""
    surf = sim.screenshot()
    return any(any(abs(a - b) > 12 for a, b in zip(surf.get_at((x, y))[:3], SCREEN_BG))
               for x in xs for y in ys)


def test_menus_keep_a_margin_at_both_edges(sim):
    sim.run_keys("A")  # the new game menu: its selected row has a coloured background
    menu = sim.app.screen
    s = sim.app.scale
    w, h = sim.screenshot().get_size()
    edges = list(range(3 * s)) + list(range(w - 3 * s, w))
    assert not has_ink(sim, edges, range(h))
    x0 = menu.labels[0].group.x
    assert x0 >= 3 * s and has_ink(sim, [x0], range(h))  # the selected row's background
    for row in menu.rows:
        assert len(row.text(menu.cols)) <= menu.cols  # choices end inside the row


def test_rules_text_stays_clear_of_the_footer(sim):
    from app.screens.rules import PAGES
    sim.run_keys("DOWN*2,A")  # title rows: New game, Puzzles, Rules
    h = sim.app.screen
    s = sim.app.scale
    w, height = sim.screenshot().get_size()
    foot_top = height - 12 * s + 2 * s  # the footer's first ink row (glyph row 2)
    for n in range(len(PAGES)):
        bottom = h.lines[-1].group.y + 12 * s  # under the last line's descenders
        assert bottom <= foot_top - 2 * s, n
        # and on screen: the rows just above the footer's ink are empty, and the left margin
        assert not has_ink(sim, range(w), range(foot_top - 2 * s, foot_top)), n
        assert not has_ink(sim, range(2 * s), range(height)), n
        sim.press("RIGHT")


@pytest.mark.parametrize("size", DISPLAYS, ids=lambda d: "%dx%d" % d)
@pytest.mark.parametrize("name", VARIANTS)
def test_status_under_the_board_keeps_off_the_screen_edges(layout_class, size, name):
    lay = layout_class(get_variant(name), *size)
    if lay.side:
        assert lay.status_x > lay.x0 + lay.cols * lay.cell - 1
    else:
        margin = 2 * lay.scale  # the status's text scale (1 where 2x would shrink the board)
        assert lay.status_x >= margin and lay.status_x + lay.status_w <= size[0] - margin


@pytest.mark.parametrize("size", DISPLAYS, ids=lambda d: "%dx%d" % d)
@pytest.mark.parametrize("name", VARIANTS + ("dense-7",))
def test_layout_maps_cells_and_points_both_ways_and_2d_arms_follow_the_grid(layout_class, size, name):
    from app.view.sizes import NO_POINT
    v = get_variant(name)
    lay = layout_class(v, *size)
    assert len(lay.point_at) == lay.cols * lay.rows
    for i, p in enumerate(lay.point_at):
        assert p == NO_POINT or lay.cell_of[p] == i
    assert sorted(p for p in lay.point_at if p != NO_POINT) == list(range(v.size))
    assert lay.arm_masks[0] == (15 if v.dims != 1 else 3) and len(set(lay.arm_masks)) == len(lay.arm_masks)
    if v.dims == 2:
        for p in range(v.size):
            col, row = p % lay.cols, p // lay.cols
            want = (col > 0) | (col < lay.cols - 1) << 1 | (row > 0) << 2 | (row < lay.rows - 1) << 3
            assert lay.arm_masks[lay.arm_set[p]] == want, p
