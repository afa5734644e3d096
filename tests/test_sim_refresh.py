"""What the board pays for the screen: the simulator's displayio twin keeps CircuitPython 10's
rules (scale limit, one dirty rectangle per TileGrid), its events count the pixels a refresh
sends and the NVM writes, and the game keeps a stone and the computer's reply cheap.
"""

import json
import sys

import pytest
from tanbo import Game
from tanbo.ai import LEVELS

from tanbo_sim.simulator import DEVICE_DIR, Simulator
from tanbo_tools import cli

if DEVICE_DIR not in sys.path:
    sys.path.insert(0, DEVICE_DIR)
from app.store.settings import GAME_VARIANTS  # noqa: E402  (device/app: the variants offered)

BUDGET = 6000  # px a stone, or the computer's reply, may refresh (about 36 ms on a PicoSystem)


@pytest.fixture
def twin(tmp_path):
    """The simulator's ``displayio`` twin and a bare display (no app on it)."""
    s = Simulator("picosystem", nvm_path=str(tmp_path / "nvm"))
    import displayio
    yield displayio, s
    s.close()


def refresh(s):
    n = len(s.events)
    s.display.refresh()
    return [e["areas"] for e in s.events[n:] if e["kind"] == "refresh"][0]


def test_a_scale_of_128_or_more_is_refused_as_the_firmware_draws_nothing(twin):
    displayio, _ = twin
    displayio.Group(scale=127)
    with pytest.raises(ValueError, match="scale 128.*8 signed bits"):
        displayio.Group(scale=128)
    outer, inner = displayio.Group(scale=16), displayio.Group(scale=8)
    with pytest.raises(ValueError, match="scale 128"):
        outer.append(inner)  # the steps multiply
    g = displayio.Group(scale=2)
    g.append(displayio.Group(scale=2))
    g.scale = 63
    with pytest.raises(ValueError, match="scale 128"):
        g.scale = 64
    assert g.scale == 63
    with pytest.raises(AttributeError, match="bitmaptools.blit"):
        displayio.Bitmap(2, 2, 2).blit  # noqa: B018 (CircuitPython 10's Bitmap has none)


def test_refresh_areas_are_circuitpythons(twin):
    displayio, s = twin
    pal = displayio.Palette(2)
    bm = displayio.Bitmap(8, 4, 2)  # two 4x4 tiles
    grid = displayio.TileGrid(bm, pixel_shader=pal, width=10, height=10, tile_width=4, tile_height=4,
                              x=20, y=10)
    sprite = displayio.TileGrid(displayio.Bitmap(4, 4, 2), pixel_shader=pal, x=0, y=0)
    root, scaled = displayio.Group(), displayio.Group(scale=2, x=100)
    scaled.append(sprite)
    root.append(grid)
    root.append(scaled)
    s.display.root_group = root
    assert refresh(s) == [[0, 0, 240, 240]]  # a new root group: the whole screen
    assert refresh(s) == []
    grid[0, 0] = 1
    grid[9, 9] = 1
    assert refresh(s) == [[20, 10, 60, 50]]  # ONE rectangle around both tiles
    grid[3, 3] = 0  # the same tile again: still refreshed
    assert refresh(s) == [[32, 22, 36, 26]]
    pal[1] = 0xFF0000
    assert refresh(s) == [[100, 0, 108, 8], [20, 10, 60, 50]]  # every TileGrid on that palette
    pal[1] = 0xFF0000  # the colour it has: nothing
    assert refresh(s) == []
    sprite.x = 2  # 8x8 on screen (scale 2) moving 4 px: one rectangle around both places
    assert refresh(s) == [[100, 0, 112, 8]]
    sprite.y = 50  # far: old and new place apart
    assert refresh(s) == [[104, 100, 112, 108], [104, 0, 112, 8]]
    sprite.hidden = True
    assert refresh(s) == [[104, 100, 112, 108]]
    sprite.hidden = True
    assert refresh(s) == []
    sprite.hidden = False
    assert refresh(s) == [[104, 100, 112, 108]]
    sprite.hidden = False  # the firmware redraws on every hidden = False
    assert refresh(s) == [[104, 100, 112, 108]]
    root.remove(grid)
    assert refresh(s) == [[20, 10, 60, 50]]  # where the removed layer was
    bm[0, 0] = 1  # a pixel of a bitmap no longer shown: nothing
    assert refresh(s) == []
    e = s.events[-1]
    assert e["kind"] == "refresh" and e["pixels"] == 0 and isinstance(e["t_ms"], int)


def test_an_nvm_write_is_one_event(sim):
    n = len(sim.events)
    sim.nvm[0:3] = b"abc"
    sim.nvm[5] = 7
    assert [(e["kind"], e["start"], e["end"]) for e in sim.events[n:]] == [("nvm", 0, 3), ("nvm", 5, 6)]
    with pytest.raises(ValueError):
        sim.nvm[0:3] = b"ab"  # as CircuitPython: the lengths must match
    with pytest.raises(NotImplementedError):
        sim.nvm[0:4:2] = b"ab"
    assert len(sim.events) == n + 2


def test_the_backdrop_is_the_screen_colour_edge_to_edge(sim):
    from app.view import theme
    want = (theme.SCREEN >> 16, theme.SCREEN >> 8 & 255, theme.SCREEN & 255)
    w, h = sim.profile.width, sim.profile.height
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        assert all(abs(a - b) <= 8 for a, b in zip(sim.pixel(x, y), want)), (x, y)


def walk_to(s, gs, p):
    lay = gs.view.layout
    steps = []
    while gs.cursor != p:
        a, b = lay.cell_of[gs.cursor], lay.cell_of[p]
        dx, dy = b % lay.cols - a % lay.cols, b // lay.cols - a // lay.cols
        n = len(s.events)
        s.press("RIGHT" if dx > 0 else "LEFT" if dx < 0 else "DOWN" if dy > 0 else "UP")
        steps.append(sum(e["pixels"] for e in s.log.since(n, "refresh")))
    return steps


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))  # 160x128 and 240x240
@pytest.mark.parametrize("variant", ("9x9", "19x19"))
def test_a_stone_and_the_reply_each_refresh_at_most_6000_pixels(tmp_path, board, variant):
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        s.app.settings.level = LEVELS.index("easy")
        s.app.play(Game(variant), (2,))
        s.frames(100)
        gs = s.app.screen
        g = gs.game
        checked = 0
        for turn in range(6):
            moves = g.legal_moves()
            walk_to(s, gs, moves[(turn * 7) % len(moves)])
            stones = g.stones(1) + g.stones(2)
            n = len(s.events)
            s.press("A")
            s.frames(400)
            assert g.ply == 2 * turn + 2 and g.to_move == 1
            if g.stones(1) + g.stones(2) != stones + 2:
                continue  # a removal redraws the roots it takes: not a budget case
            pixels = [e["pixels"] for e in s.log.since(n, "refresh")]
            # The stone (and the thinking text), then the spinner's turns, then the reply.
            assert len(pixels) >= 2 and max(pixels) <= BUDGET, pixels
            checked += 1
        assert checked >= 4
    finally:
        s.close()


def test_cursor_steps_stay_cheap(tmp_path):
    s = Simulator("picosystem", nvm_path=str(tmp_path / "nvm"))
    try:
        s.app.play(Game("19x19"), (2,))
        s.frames(100)
        gs = s.app.screen
        steps = walk_to(s, gs, 0) + walk_to(s, gs, 360)
        sprite = 2 * (gs.view.layout.cell + 4) ** 2
        # Mostly the cursor sprite's two places; a root's highlight now and then.
        assert sorted(steps)[len(steps) // 2] <= sprite
        assert max(steps) <= 57600 // 4
    finally:
        s.close()


def test_events_file_has_one_json_line_per_refresh_and_nvm_write(tmp_path):
    out = tmp_path / "events.jsonl"
    rc = cli.main(["sim", "--headless", "--board", "pybadge", "--nvm", str(tmp_path / "nvm"),
                   "--keys", "A,DOWN*4,A,A", "--events", str(out)])
    assert rc == 0
    events = [json.loads(line) for line in out.read_text().splitlines()]
    kinds = {e["kind"] for e in events}
    assert kinds == {"refresh", "nvm"}
    assert events[0] == {"kind": "refresh", "t_ms": 0, "pixels": 160 * 128, "areas": [[0, 0, 160, 128]]}
    for e in events:
        if e["kind"] == "refresh":
            assert e["pixels"] == sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in e["areas"])
            assert all(0 <= x0 < x1 <= 160 and 0 <= y0 < y1 <= 128 for x0, y0, x1, y1 in e["areas"])
        else:
            assert 0 <= e["start"] < e["end"] <= 8192
    times = [e["t_ms"] for e in events]
    assert times == sorted(times)


def test_a_root_group_set_anew_refreshes_the_panel_once_the_same_one_nothing(twin):
    displayio, s = twin
    root, other = displayio.Group(), displayio.Group()
    root.append(displayio.TileGrid(displayio.Bitmap(4, 4, 2), pixel_shader=displayio.Palette(2)))
    s.display.root_group = root
    assert refresh(s) == [[0, 0, 240, 240]]
    s.display.root_group = root  # the group it shows: the firmware changes nothing
    assert refresh(s) == []
    s.display.root_group = None
    root.append(displayio.TileGrid(displayio.Bitmap(4, 4, 2), pixel_shader=displayio.Palette(2), x=8))
    s.display.root_group = root
    assert refresh(s) == [[0, 0, 240, 240]]  # one area, not one a new layer
    s.display.root_group = None
    other.append(root)
    with pytest.raises(ValueError, match="Group already used"):
        s.display.root_group = root  # a layer of another group


# Every screen change of the app, from the title: (key script, what comes up).
# The title lists Continue first once a game is saved (after the first game).
SCREEN_TOUR = [
    ("DOWN,A", "rules"), ("RIGHT", None), ("B", "title"),
    ("DOWN*2,A", "settings"), ("B", "title"),
    ("A", "new game"), ("DOWN*4,A", "game 9x9"),
    ("START", "game menu"), ("DOWN*3,A", "rules"), ("RIGHT", None), ("B", "game"),
    ("START", "game menu"), ("DOWN*4,A", "settings"), ("B", "game"),
    ("START", "game menu"), ("DOWN*2,A", "resign?"), ("A", "game"),
    ("START", "game menu"), ("A", "game"),
    ("START", "game menu"), ("DOWN*5,A", "title"),
    ("A", "game (continue)"), ("START", "game menu"), ("DOWN*5,A", "title"),
]
for _name in GAME_VARIANTS[1:]:
    SCREEN_TOUR += [("DOWN,A", "new game"), ("RIGHT", None), ("DOWN*4,A", "game " + _name),
                    ("START", "game menu"), ("DOWN*5,A", "title")]
SCREEN_TOUR += [("DOWN,A", "new game"), ("RIGHT", None), ("DOWN*4,A", "game 9x9"),  # 4p -> 9x9
                ("START", "game menu"), ("DOWN*2,A", "resign?"),
                ("DOWN,A", "game over"), ("DOWN,A", "review"), ("B", "game over"),
                ("DOWN*2,A", "title")]


MENUS = ("Menu", "PuzzleList")  # app.screens.menu.Menu and its subclass


def test_every_screen_change_sends_at_most_the_panel(sim):
    """CircuitPython sends every area of a refresh, overlaps twice: a screen change
    once sent 1.6-1.9 panels (Start -> 9x9 on a PicoSystem: 106,326 px of 57,600)."""
    panel = sim.profile.width * sim.profile.height
    shown = [sim.app.screen]
    for script, what in SCREEN_TOUR:
        *moves, last = script.split(",")
        sim.run_keys(",".join(moves))  # the selection moves: not a screen change
        before, n = sim.app.screen, len(sim.events)
        sim.run_keys(last)
        sim.frames(1000)  # a removal's flash too
        pixels = [e["pixels"] for e in sim.log.since(n, "refresh")]
        after = sim.app.screen
        changed = after is not before
        assert changed == (what is not None), (script, what)
        if not changed:
            assert sum(pixels) <= panel, (script, what, pixels)
            continue
        shown.append(after)
        if getattr(after, "over", None) is not None or after is getattr(before, "over", None):
            # A box over the board (the game menu, resign?, a PicoSystem's result) or
            # the board again as one goes: the box's area alone, the board in view.
            assert 0 < sum(pixels) < panel, (script, what, pixels)
        elif type(before).__name__ in MENUS and type(after).__name__ in MENUS and before.over is None:
            # a menu after a menu: the lines that changed, less than the panel
            # (game menu -> settings on a PicoSystem: 46,080 px of 57,600)
            assert 0 < sum(pixels) < panel, (script, what, pixels)
        else:
            if getattr(before, "over", None) is not None and before.title.text == "Game" and sim.app.small_heap:
                # From the game menu's box to a whole screen on a SAMD51's heap: its
                # footer says "Opening..." at once (a line's cells), then the screen
                # comes. (A PicoSystem's box loads the screens' code while the
                # player looks at it: the screen at once.)
                assert len(pixels) == 2 and 0 < pixels[0] < panel // 8, (script, what, pixels)
                pixels = pixels[1:]
            assert pixels == [panel], (script, what, pixels)  # the new screen, whole, once
    names = [type(s).__name__ for s in shown]
    assert "Help" in names and "ReviewScreen" in names and "Menu" in names
    assert sorted({s.game.variant.name for s in shown if type(s).__name__ == "GameScreen"}) == sorted(GAME_VARIANTS)


@pytest.mark.parametrize("board", ("pybadge", "pygamer", "picosystem"))
def test_tanbo_sim_events_show_no_refresh_past_the_panel(tmp_path, board):
    # Title, rules, settings, new game, the 19x19 board, its menu, rules, back,
    # settings, back, the title: as `tanbo sim --events` writes them.
    out = tmp_path / "events.jsonl"
    keys = ("DOWN,A,RIGHT,B,DOWN*2,A,B,A,RIGHT*2,DOWN*4,A,wait:300,"
            "START,DOWN*3,A,B,START,DOWN*4,A,B,START,DOWN*5,A")
    assert cli.main(["sim", "--headless", "--board", board, "--nvm", str(tmp_path / "nvm"),
                     "--keys", keys, "--events", str(out)]) == 0
    refreshes = [json.loads(line) for line in out.read_text().splitlines() if '"refresh"' in line]
    w, h = (240, 240) if board == "picosystem" else (160, 128)
    assert max(e["pixels"] for e in refreshes) <= w * h
    whole = [e for e in refreshes if e["areas"] == [[0, 0, w, h]]]
    # The title at boot and the 8 screen changes to or from a screen that is not a
    # menu (rules, the board, a whole menu after the game menu's box), each the
    # panel once; a menu after a menu sends its changed lines only, and the game
    # menu, a box over the board, its own area (3 times).
    assert len(whole) == 9


MENU_KEYS = [("DOWN", "move"), ("UP", "move"), ("A", "change"), ("DOWN", "move"), ("B", "change"),
             ("DOWN*3", "move"), ("A", "change"), ("DOWN*6", "move"), ("A", "change")]  # Settings, its Back


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))
def test_menus_refresh_what_changes(tmp_path, board):
    """Issue 33: the panel alone took 386-442 ms of a menu change on an RP2040. Moving
    the selection sends its two rows; going from a menu to another (title -> new
    game -> title -> settings -> title) the lines that differ, less than the panel."""
    out = tmp_path / "events.jsonl"
    keys = ",".join(k for k, _ in MENU_KEYS)
    assert cli.main(["sim", "--headless", "--board", board, "--nvm", str(tmp_path / "nvm"),
                     "--keys", keys, "--events", str(out)]) == 0
    events = [json.loads(line) for line in out.read_text().splitlines()]
    refreshes = [e for e in events if e["kind"] == "refresh" and e["pixels"]]
    w, h = (240, 240) if board == "picosystem" else (160, 128)
    s = 2 if board == "picosystem" else 1
    row = min(20, (w - 6 * s) // (6 * s)) * 6 * s * 12 * s  # a row: its character cells (app.screens.menu)
    assert refreshes[0]["pixels"] == w * h  # the title at boot
    kinds = [kind for k, kind in MENU_KEYS for _ in range(int((k + "*1").split("*")[1]))]
    sent = [e["pixels"] for e in refreshes[1:]]
    assert len(sent) == len(kinds), sent
    for kind, px in zip(kinds, sent):
        if kind == "move":
            assert px == 2 * row, (kind, px)  # the row left and the row selected
        else:
            assert row < px < w * h, (kind, px)  # (PicoSystem: 34,272-49,248 px)
    print("%s: a move %d px, menu changes %s px of %d" % (
        board, 2 * row, [px for k, px in zip(kinds, sent) if k == "change"], w * h))


# From the title with a game in the library: (keys, what comes up, what the press sends):
# "lines" a menu over the last one's lines, each area a line high (its changed cells),
# "panel" the whole panel once. Every press sends one refresh: no screen twice.
# (kind "opened": the list's "Opening..." line at once, then the review's panel)
LIBRARY_TOUR = [("DOWN", None, "lines"), ("A", "GamesList", "lines"), ("A", "ReviewScreen", "opened"),
                ("LEFT", None, None), ("B", "GamesList", "panel"), ("B", "Menu", "lines"),
                ("A", "Menu", "lines"), ("B", "Menu", "lines")]


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))
def test_the_library_sends_each_screen_once_and_a_menu_only_its_lines(tmp_path, board):
    """Issue 46 on the firmware: title -> Games 460 ms on a PicoSystem, of which 51,264 px
    (313 ms) on the wire: the title's rows that the list has not were removed from the
    menu's group, and CircuitPython sends a group's removed layers as ONE area around
    all of them. They are blanked now, each sending its old text's cells (35,712 px)."""
    from tanbo.rng import Rng
    from test_sim_library import finish, new_game
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        new_game(s, "9x9")
        finish(s, Rng(5))
        s.run_keys("B,wait:300")  # the result's B: the title, Games among its rows
        assert [r.label for r in s.app.screen.rows][:3] == ["New game", "Games", "Puzzles"]
        w, h = s.profile.width, s.profile.height
        line = 12 * (2 if board == "picosystem" else 1)
        sent = []
        for keys, what, kind in LIBRARY_TOUR:
            before, n = s.app.screen, len(s.events)
            s.run_keys(keys + ",wait:300")
            refreshes = [e for e in s.log.since(n, "refresh") if e["pixels"]]
            assert type(s.app.screen).__name__ == (what or type(before).__name__), keys
            if kind == "opened":
                answer, board_sent = refreshes
                assert all(y1 - y0 <= line for x0, y0, x1, y1 in answer["areas"]), answer
                assert board_sent["areas"] == [[0, 0, w, h]], board_sent
                refreshes = [answer]
            assert len(refreshes) == 1, (keys, what, refreshes)  # one refresh a press
            px, areas = refreshes[0]["pixels"], refreshes[0]["areas"]
            if kind == "panel":
                assert areas == [[0, 0, w, h]], (keys, what, areas)
            elif kind == "lines":
                assert all(y1 - y0 <= line for x0, y0, x1, y1 in areas), (keys, what, areas)
                assert px < w * h, (keys, what, px)
            sent.append(px)
        # title -> Games, Games -> title (PicoSystem: 51,264 px each before)
        title_games, games_title = sent[1], sent[5]
        assert title_games <= (35712 if board == "picosystem" else 9216), title_games
        assert games_title <= (50400 if board == "picosystem" else 13176), games_title
        print("%s: title -> Games %d px, Games -> title %d px of %d" % (board, title_games, games_title, w * h))
    finally:
        s.close()


def same(a, b):
    import pygame
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))
def test_back_to_the_game_from_its_menu_sends_the_panel_once_and_redraws_only_what_changed(tmp_path, board):
    """Issue 46: Settings -> a 19x19 game took 471 ms on a PicoSystem, the board rendered
    again before the panel went (43 ms of an RP2040's board time). Back from the game's
    menu the board is rendered again only when the hints changed, or after an undo."""
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        s.app.settings.hints = True
        s.app.play(Game("9x9"), ())  # between people: A places a stone
        s.frames(300)
        gs, panel = s.app.screen, [[0, 0, s.profile.width, s.profile.height]]

        def back(keys):
            s.run_keys("START,wait:200," + keys)
            n = len(s.events)
            s.run_keys("B,wait:300")
            assert s.app.screen is gs
            return [e["areas"] for e in s.log.since(n, "refresh") if e["pixels"]]

        shown = s.screenshot()
        assert back("DOWN*4,A") == [panel]  # Settings, nothing changed: the game as it was
        assert same(s.screenshot(), shown)
        assert back("DOWN*4,A,DOWN,A") == [panel]  # Hints off: the dots go
        assert not gs.hints and not same(s.screenshot(), shown)
        shown = s.screenshot()
        s.run_keys("A,wait:300")  # a stone
        assert gs.game.ply == 1 and not same(s.screenshot(), shown)
        s.run_keys("START,wait:200,DOWN,A,wait:300")  # Undo: the board as before the stone
        assert s.app.screen is gs and gs.game.ply == 0
        assert same(s.screenshot(), shown)
    finally:
        s.close()
