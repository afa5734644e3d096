"""Whole games in the headless simulator, on every board profile: the same device/ code runs.

Asserts on the app's state and on screenshot pixels at known board cells.
"""

import os

import pytest

from tanbo_sim.simulator import Simulator, parse_script

SIZES = {"pybadge": (160, 128), "pygamer": (160, 128), "picosystem": (240, 240)}
BLACK, WHITE = (0x14, 0x14, 0x14), (0xF8, 0xF8, 0xF8)
# title -> new game; rows: Board, Opponent, Level, You play, Start. Level medium -> random.
NEW_9X9_VS_RANDOM = "A,DOWN*2,LEFT*2,DOWN*2,A"


def screen_is(screen, name):
    """Whether ``screen`` is of the app's class ``name``; by name, as the app
    drops its menu modules during a game and imports them again (new classes)
    afterwards (app.forget)."""
    return type(screen).__name__ == name


def near(c1, c2, tol=12):
    return all(abs(a - b) <= tol for a, b in zip(c1, c2))


def game_screen(s):
    from app.screens.game import GameScreen
    return s.app.screen if isinstance(s.app.screen, GameScreen) else None


def cell_centre(s, p):
    x, y = game_screen(s).view.layout.cell_xy(p)
    c = game_screen(s).view.layout.cell
    return x + c // 2, y + c // 2


def cell_edge(s, p):
    """A pixel inside the stone at p but off its centre mark (last-move marker, dots)."""
    x, y = game_screen(s).view.layout.cell_xy(p)
    c = game_screen(s).view.layout.cell
    return x + c // 2, y + max(1, c // 2 - c // 4 - 1) + (1 if c >= 9 else 0)


def move_cursor_to(s, p):
    gs = game_screen(s)
    lay = gs.view.layout
    keys = []
    a, b = lay.cell_of[gs.cursor], lay.cell_of[p]
    dx = b % lay.cols - a % lay.cols
    dy = b // lay.cols - a // lay.cols
    keys += ["RIGHT"] * dx if dx > 0 else ["LEFT"] * -dx
    keys += ["DOWN"] * dy if dy > 0 else ["UP"] * -dy
    for k in keys:
        s.press(k)
    assert gs.cursor == p


def test_screenshot_has_the_device_resolution(sim):
    assert sim.screenshot().get_size() == SIZES[sim.profile.name]


def test_new_game_shows_setup_stones_at_their_cells(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    assert gs is not None and gs.game.variant.name == "9x9" and gs.ai == (2,)
    v = gs.game.variant
    for name, colour in (("H8", BLACK), ("B2", BLACK), ("B8", WHITE), ("H2", WHITE)):
        assert near(sim.pixel(*cell_centre(sim, v.parse_point(name))), colour), name
    # The cursor starts on a legal point for Black.
    assert gs.game.is_legal(gs.cursor)


def test_game_to_the_end_against_the_computer(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    g = gs.game
    clicks = 0
    while g.winner is None:
        assert g.to_move == 1
        p = min(g.legal_moves(), key=lambda q: abs(q % 9 - gs.cursor % 9) + abs(q // 9 - gs.cursor // 9))
        move_cursor_to(sim, p)
        before = len(sim.audio.played)
        sim.press("A")
        sim.frames(1000)  # removal flash, the computer's reply
        clicks += len(sim.audio.played) > before
        if g.winner is None:
            stone = g.board[p]
            if stone:
                assert near(sim.pixel(*cell_edge(sim, p)), BLACK)
    assert clicks > 0
    assert screen_is(sim.app.screen, "Menu")
    names = {1: "Black", 2: "White"}
    assert sim.app.screen.title.text == names[g.winner] + " wins!"
    assert g.ply > 4
    # No game left to resume once it is over.
    assert sim.app.saved_game is None


def test_undo_takes_back_the_computer_reply_too(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    start = gs.game.position()
    p = gs.cursor
    sim.press("A")
    sim.frames(1000)
    assert gs.game.ply == 2
    sim.press("B")
    assert gs.game.ply == 0 and gs.game.position() == start
    assert near(sim.pixel(*cell_centre(sim, p)), BLACK) is False


def test_resign_asks_first_and_a_double_press_does_not_resign(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    # Game menu rows: Resume, Undo, Resign. A,A opens the question and answers "No".
    sim.run_keys("START,DOWN*2,A")
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "Resign?"
    assert not gs.game.over
    sim.run_keys("A")
    assert sim.app.screen is gs and not gs.game.over and gs.game.ply == 0
    # B on the question goes back to the game menu, not out of the game.
    sim.run_keys("START,DOWN*2,A,B")
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "Game"
    assert not gs.game.over
    # "Yes, resign" ends the two-player game: White wins.
    sim.run_keys("B,START,DOWN*2,A,DOWN,A")
    assert gs.game.winner == 2
    sim.frames(5)
    assert sim.app.screen.title.text == "White wins!"


def test_resume_after_reset(sim, tmp_path):
    sim.run_keys(NEW_9X9_VS_RANDOM + ",A,wait:1000,RIGHT,A,wait:1000")
    history = game_screen(sim).game.moves()
    assert len(history) >= 2
    sim.close()
    again = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        assert again.app.saved_game is not None
        again.press("A")  # "Continue" is the first row
        gs = game_screen(again)
        assert gs.game.moves() == history and gs.ai == (2,)
        p = history[0]
        assert near(again.pixel(*cell_edge(again, p)), BLACK)
    finally:
        again.close()


@pytest.mark.parametrize("where", [20, 1])  # a byte of the first ply; of the magic (neither record nor blank)
def test_corrupt_save_is_reported_once_and_discarded(sim, where):
    sim.run_keys(NEW_9X9_VS_RANDOM + ",A,wait:1000")
    sim.close()
    with open(sim.nvm_path, "r+b") as f:
        f.seek(where)
        b = f.read(1)
        f.seek(where)
        f.write(bytes((b[0] ^ 0x5A,)))
    second = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        notes = [label.text for label in second.app.screen.notes]
        assert "Bad save discarded." in notes
    finally:
        second.close()
    third = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        assert "Bad save discarded." not in [label.text for label in third.app.screen.notes]
    finally:
        third.close()


def test_garbage_nvm_never_crashes(tmp_path):
    path = str(tmp_path / "junk.bin")
    with open(path, "wb") as f:
        f.write(b"TNB1" + os.urandom(8188))
    s = Simulator("pybadge", nvm_path=path)
    try:
        assert s.app is not None and s.app.saved_game is None
    finally:
        s.close()


def test_screen_refreshes_only_on_change(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    n = sim.display.refresh_count
    sim.frames(2000)
    assert sim.display.refresh_count == n
    sim.press("RIGHT")
    assert sim.display.refresh_count > n


def test_held_dpad_repeats(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    lay = gs.view.layout
    col = lay.cell_of[gs.cursor] % lay.cols
    sim.press("LEFT", hold_ms=1000)
    assert lay.cell_of[gs.cursor] % lay.cols == 0 and col > 1


def test_keypad_overflow_recovers(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    for _ in range(100):  # far more events than the queue holds, with no scan in between
        sim.wiring.set("SELECT", True)
        sim.wiring.set("SELECT", False)
    sim.frames(100)
    gs = game_screen(sim)
    before = gs.cursor
    sim.press("RIGHT")
    assert gs.cursor != before
    assert sim.app.hw.buttons.held == 0


def test_mute_silences_placement(sim):
    sim.run_keys("DOWN*3,A,A")  # title: New game, Puzzles, Rules, Settings -> Sound off
    assert sim.app.settings.sound is False
    sim.run_keys("B," + NEW_9X9_VS_RANDOM + ",A,wait:1000")
    assert game_screen(sim).game.ply == 2
    assert sim.audio.played == []


def search_with_presses(sim, monkeypatch, presses):
    """Start a 9x9 game against hard, place a stone with A and let the computer search
    (tanbo.ai itself) while ``presses`` happen: ``[(ms after the search began,
    button, down), ...]``. Board time passes with the nodes (0.1 ms a node
    times the board's slowness: the simulator's clock stands still in a
    search otherwise). Returns (the search's stats, the same search's stats
    without any press)."""
    from app.screens import game as gs_module
    from tanbo import ai
    stats, alone = {}, {}
    plan = sorted(presses)

    def choose(screen, level, progress):
        # ~0.1 ms of SAMD51 time a hard node (tanbo bench --ai: 2.68 s for
        # 26,484 on 9x9), so the full budget stays under the move's 3 s cap
        # (game_screen.NODE_MS, the spinner's bound, would pass it at 15,000).
        t0, ms = sim.now, 0.1 * screen.slowness
        ai.choose_move(screen.game, "hard", screen.game.ply, None, stats=alone, slowness=screen.slowness)

        def timed(done, total):
            sim.now = t0 + int(done * ms)
            while plan and plan[0][0] <= sim.now - t0:
                _, button, down = plan.pop(0)
                sim.wiring.set(button, down)
            return progress(done, total)
        return ai.choose_move(screen.game, "hard", screen.game.ply, timed, stats=stats,
                              slowness=screen.slowness)

    monkeypatch.setattr(gs_module.GameScreen, "choose", choose)
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    sim.wiring.set("A", True)  # the placing A, held as the search starts
    sim.frames(16)
    assert gs.thinking or gs.game.ply == 2
    sim.frames(500)
    for button in ("A", "B"):
        sim.wiring.set(button, False)
    sim.frames(100)
    assert gs.game.ply == 2 and not [p for p in plan if p[2]]  # the reply is on the board, every press made
    return stats, alone


def test_a_double_tap_or_a_bounce_never_stops_the_search(sim, monkeypatch):
    # On the firmware a second A 100 ms after the placing A stopped hard at depth 0.
    from app.main import STOP_AFTER_MS
    presses = [(20, "A", False), (100, "A", True), (150, "A", False),  # a double tap of A
               (200, "A", True), (202, "A", False), (204, "A", True), (240, "A", False),  # bouncing
               (STOP_AFTER_MS - 100, "B", True), (STOP_AFTER_MS - 60, "B", False),  # B too soon
               (STOP_AFTER_MS + 100, "A", True), (STOP_AFTER_MS + 150, "A", False)]  # A later: not a stop
    stats, alone = search_with_presses(sim, monkeypatch, presses)
    assert stats == alone and stats["depth"] > 2  # the whole search, as without a press


def test_b_after_the_first_moments_stops_the_search_after_depth_2(sim, monkeypatch):
    from app.main import STOP_AFTER_MS
    presses = [(20, "A", False), (STOP_AFTER_MS + 20, "B", True), (STOP_AFTER_MS + 80, "B", False)]
    stats, alone = search_with_presses(sim, monkeypatch, presses)
    assert stats["depth"] >= 2 and stats["iterations"] < alone["iterations"] and alone["depth"] > stats["depth"]


def test_unknown_board_shows_a_message(tmp_path):
    s = Simulator("pybadge", nvm_path=str(tmp_path / "n"), board_id="feather_m0_express")
    try:
        assert s.app is None and "feather_m0_express" in s.message
        assert "pybadge" in s.message
        shot = s.screenshot()
        assert any(shot.get_at((x, 6))[:3] != shot.get_at((0, 0))[:3] for x in range(2, 60))
    finally:
        s.close()


def test_key_script_parsing():
    assert parse_script("UP, a*3 ,wait:250") == [("key", "UP"), ("key", "A"), ("key", "A"),
                                                  ("key", "A"), ("wait", 250)]
    for bad in ("JUMP", "A*0", "A*x", "wait:-5", "wait:soon"):
        with pytest.raises(ValueError) as e:
            parse_script(bad)
        assert repr(bad) in str(e.value)


def test_removed_root_flashes_then_vanishes(sim):
    from tanbo import Game
    text = "OX......./........./X......../........./........./........./........./........./........O X"
    sim.app.play(Game.from_position(text), ())
    sim.frames(50)
    gs = game_screen(sim)
    v = gs.game.variant
    move_cursor_to(sim, v.parse_point("A8"))
    a9 = v.parse_point("A9")
    chords = len(sim.audio.played)
    sim.press("A", hold_ms=16, gap_ms=16)
    assert gs.game.board[a9] == 0  # removed by the engine at once...
    assert near(sim.pixel(*cell_centre(sim, a9)), (0xFF, 0x40, 0xFF))  # ...but shown flashing
    from boards.common import CHORD
    assert sim.audio.played[chords:] == [sim.app.hw.sound.samples[CHORD]]
    sim.frames(1000)
    assert not near(sim.pixel(*cell_centre(sim, a9)), (0xFF, 0x40, 0xFF))
    assert not near(sim.pixel(*cell_centre(sim, a9)), WHITE)


# -- NVM wear: one write per full turn, none while nothing changed (issue 12) --------------

NEW_9X9_VS_PERSON = "A,DOWN,RIGHT,DOWN*3,A"  # title -> new game; Opponent: Person; Start


def nvm_writes(s, since=0):
    """The NVM writes since event index ``since`` (each one sector erase on the boards)."""
    return s.log.since(since, "nvm")


def test_one_nvm_write_per_full_turn_against_the_computer(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    assert len(nvm_writes(sim)) == 1  # the new game
    for turn in range(3):
        mark = len(sim.events)
        gs.cursor = gs.game.legal_moves()[0]
        sim.press("A")
        sim.frames(1000)  # the computer's reply
        assert gs.game.ply == 2 * (turn + 1)
        writes = nvm_writes(sim, mark)
        assert len(writes) == 1 and writes[0]["start"] == 0  # one slice: one erase
    mark = len(sim.events)
    sim.run_keys("RIGHT,DOWN,LEFT,UP,wait:2000")  # the cursor moves, nothing to save
    assert nvm_writes(sim, mark) == []
    sim.close()
    again = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        assert again.app.saved_game.moves() == gs.game.moves()
        mark = len(again.events)
        again.press("A")  # Continue: the NVM already holds this game
        assert nvm_writes(again, mark) == []
    finally:
        again.close()


def test_one_nvm_write_per_move_between_people(sim):
    sim.run_keys(NEW_9X9_VS_PERSON)
    gs = game_screen(sim)
    assert gs.ai == ()
    for ply in range(1, 5):
        mark = len(sim.events)
        gs.cursor = gs.game.legal_moves()[0]
        sim.press("A")
        assert gs.game.ply == ply and len(nvm_writes(sim, mark)) == 1


def test_hints_and_settings_are_saved_with_the_next_write_only_if_changed(sim):
    sim.run_keys(NEW_9X9_VS_PERSON)
    gs = game_screen(sim)
    mark = len(sim.events)
    sim.run_keys("SELECT,SELECT,SELECT")  # hints off, on, off
    assert nvm_writes(sim, mark) == []
    gs.cursor = gs.game.legal_moves()[0]
    sim.press("A")
    assert len(nvm_writes(sim, mark)) == 1
    # Sound off and on again in the settings menu: nothing changed, nothing written.
    mark = len(sim.events)
    sim.run_keys("START,DOWN*4,A,A,A,B,A")  # game menu: Settings; Sound twice; leave; Resume
    assert sim.app.screen is gs and nvm_writes(sim, mark) == []
    sim.run_keys("START,DOWN*4,A,A,B,A")  # sound off, leave: one write
    assert sim.app.settings.sound is False and len(nvm_writes(sim, mark)) == 1


def test_a_whole_game_costs_one_write_per_turn(sim):
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    g = gs.game
    mark = len(sim.events)
    turns = 0
    while g.winner is None:
        gs.cursor = g.legal_moves()[0]
        sim.press("A")
        sim.frames(1000)
        turns += 1
    assert len(nvm_writes(sim, mark)) == turns  # the last one records "no game to resume"
    sim.close()
    again = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        assert again.app.saved_game is None and again.app.notice is None
    finally:
        again.close()


# -- stale keys: presses queued while the app is busy do not act later (issue 12) --------

def press_during_next_refresh(s, *buttons):
    """Queue a press and release of each of ``buttons`` while the next refresh draws
    (a button still held from the press being handled is let go first: a double tap)."""
    def hook():
        s.frame_hook = None
        for name in buttons:
            s.wiring.set(name, False)
            s.wiring.set(name, True)
            s.wiring.set(name, False)
    s.frame_hook = hook


def test_a_press_queued_while_a_menu_loads_does_not_act_on_it(sim):
    press_during_next_refresh(sim, "A", "DOWN")
    sim.press("A")  # title: New game
    sim.frames(200)
    menu = sim.app.screen
    assert screen_is(menu, "Menu") and menu.title.text == "New game"
    assert menu.index == 0 and sim.app.settings.variant == 0  # the queued A, DOWN were dropped
    sim.press("DOWN")  # a press after the screen is up acts
    assert menu.index == 1


def test_a_press_queued_while_the_board_loads_places_no_stone(sim):
    sim.run_keys("A,DOWN*4")  # the new game menu, on Start
    press_during_next_refresh(sim, "A")
    sim.press("A")
    sim.frames(500)
    gs = game_screen(sim)
    assert gs is not None and gs.game.ply == 0


def test_only_a_press_made_during_the_search_stops_it(sim, monkeypatch):
    from tanbo import ai as ai_module
    answers = []

    def search(game, level, seed, progress, slowness, search=None):
        for done in range(24, 24 * 40, 24):
            answers.append(progress(done, 2000))
        return game.legal_moves()[0]

    monkeypatch.setattr(ai_module, "choose_move", search)  # GameScreen.choose imports it per move
    sim.run_keys(NEW_9X9_VS_RANDOM)
    gs = game_screen(sim)
    press_during_next_refresh(sim, "B")  # pressed while the player's stone is drawn
    sim.press("A")
    sim.frames(300)
    assert gs.game.ply == 2 and answers and not any(answers)  # the search ran to its end
    assert gs.game.ply == 2  # and the queued B did not undo afterwards


def test_the_search_gets_the_boards_slowness_and_the_spinner_turns_every_150_ms_of_board_time(sim, monkeypatch):
    from app.screens import game as gs_module
    from tanbo import ai as ai_module
    from tanbo.ai import PROGRESS_EVERY
    got = []
    turns = []  # nodes searched at each turn of the spinner

    def search(game, level, seed, progress, slowness, search=None):
        got.append(slowness)
        for done in range(PROGRESS_EVERY, 20000, PROGRESS_EVERY):
            before = sim.display.refresh_count
            progress(done, 20000)
            if sim.display.refresh_count > before:
                turns.append(done)
        return game.legal_moves()[0]

    monkeypatch.setattr(ai_module, "choose_move", search)  # GameScreen.choose imports it per move
    sim.run_keys(NEW_9X9_VS_RANDOM + ",A")
    assert got == [sim.app.hw.slowness] and got[0] == {"picosystem": 4.4}.get(sim.profile.name, 1.0)
    gaps = [b - a for a, b in zip([0] + turns, turns)]
    worst_ms = max(gaps) * gs_module.NODE_MS * got[0]
    assert 50 <= worst_ms <= 150  # board time between turns: never silent, not a refresh per report


def test_review_steps_through_the_game_and_leaves_it_whole(sim):
    sim.run_keys(NEW_9X9_VS_PERSON + ",START,DOWN*2,A,DOWN,A")  # Black resigns at once
    sim.frames(50)
    result = sim.app.screen
    assert screen_is(result, "Menu") and result.title.text == "White wins!"
    mark = len(sim.events)
    sim.run_keys("DOWN,A")  # Review
    review = sim.app.screen
    assert screen_is(review, "ReviewScreen") and review.game.winner == 2
    sim.run_keys("LEFT")
    assert review.game.ply == 0 and review.game.winner is None
    assert "ply 0" in " ".join(label.text for label in review.status.info)
    sim.run_keys("B")
    # The game-over menu again (made anew: none stays on the heap under the review).
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "White wins!"
    assert review.game.winner == 2  # replayed to its end on leaving
    assert nvm_writes(sim, mark) == []


def test_the_game_screen_asks_the_app_by_events_and_never_calls_it(sim):
    from tanbo import Game
    from app.screens import game as gsm
    from boards.common import A, B, RIGHT, SELECT, START
    gs = gsm.GameScreen(Game("9x9"), (2,), sim.app.display.width, sim.app.display.height)  # no App anywhere
    assert not hasattr(gs, "app")
    assert gs.key(RIGHT) == gsm.CHANGED
    gs.cursor = gs.game.legal_moves()[0]
    assert gs.key(A) == gsm.PLACED and not gs.person_to_move()
    assert gs.tick(0) == gsm.THINK
    gs.play(gs.game.legal_moves()[0])  # the app plays the computer's choice
    assert gs.person_to_move() and gs.tick(0) == 0
    assert gs.key(SELECT) == gsm.HINTS and gs.hints is False
    assert gs.key(B) == gsm.UNDONE and gs.game.ply == 0
    assert gs.key(B) == gsm.CHANGED  # nothing to undo: said on screen
    assert gs.key(START) == gsm.MENU
    gs.game.resign()
    assert gs.tick(0) == gsm.OVER


@pytest.mark.parametrize("variant_keys,limit_ms", [(NEW_9X9_VS_RANDOM, 3000),
                                                   ("A,RIGHT*2,DOWN*2,LEFT*2,DOWN*2,A", 6000)])  # 19x19
def test_a_board_slower_than_its_slowness_stops_the_search_at_the_moves_time_limit(sim, monkeypatch, variant_keys,
                                                                                  limit_ms):
    # The simulator's clock stands still during a search (its moves are the
    # node budget's); here it runs 40 ms a progress report, as on a chip
    # several times slower than measured: the app's wall-clock cap stops
    # the search at the limit, and the computer plays its best move so far.
    from app.screens import game as gs_module
    real = gs_module.GameScreen.choose
    seen = []

    def slow_board(screen, level, progress):
        start = sim.now

        def wrapped(done, total):
            sim.now += 40
            r = progress(done, total)
            seen.append((sim.now - start, done, total, r))
            return r
        return real(screen, "hard", wrapped)

    monkeypatch.setattr(gs_module.GameScreen, "choose", slow_board)
    sim.run_keys(variant_keys + ",A")
    assert game_screen(sim).game.variant.name == ("9x9" if limit_ms == 3000 else "19x19")
    elapsed, done, total, stopped = seen[-1]
    assert stopped and elapsed == limit_ms and done < total
    assert not any(r for _, _, _, r in seen[:-1])  # nothing else stopped it
    assert game_screen(sim).game.ply == 2


def test_the_search_and_the_tile_strip_are_kept_from_game_to_game_of_one_kind(sim):
    # Made once for a kind of game (issue 22: their blocks are then not
    # allocated again on a heap the last game fragmented), made anew for
    # another kind, and the game starts only after the menu has left.
    from app.view import board as board_view
    sim.run_keys(NEW_9X9_VS_RANDOM)
    app = sim.app
    search, strip = app.search, board_view.KEPT_TILES[1]
    assert search is not None and game_screen(sim).search is search and strip is not None
    before = app.screen
    app.play_next("9x9", (2,))
    assert app.screen is before  # started by the next step, once the key that asked is handled
    app.step()
    assert app.search is search and board_view.KEPT_TILES[1] is strip and game_screen(sim).game.ply == 0
    app.play_next("13x13", (2,))
    app.step()
    assert app.search is not search and app.search.fits(game_screen(sim).game)
    assert board_view.KEPT_TILES[1] is not strip
    app.play_next("9x9", ())  # between people: no search is kept
    app.step()
    assert app.search is None and game_screen(sim).search is None


@pytest.mark.parametrize("board,same", [("9x9", True), ("13x13", False)])
def test_a_new_game_from_the_result_takes_over_the_finished_games_tables(sim, board, same):
    # Where a board's heap is most fragmented (a game's end), a next game of the
    # same board makes no block for its tables and stacks: they are the last one's.
    from app.store.settings import GAME_VARIANTS, OPPONENTS
    from tanbo import Game, Rng
    g, rng = Game("9x9"), Rng(2)
    while g.winner is None:
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    tables = (g.board, g._moves, g._rem)
    s = sim.app.settings
    s.variant, s.opponent = GAME_VARIANTS.index(board), OPPONENTS.index("Person")
    sim.app.go("result", g)
    sim.frames(50)
    sim.press("A")  # New game
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "New game"
    sim.press("UP")  # Start
    sim.press("A")
    sim.frames(50)
    new = game_screen(sim).game
    assert (new is g) == same and new.ply == 0 and new.position() == Game(board).position()
    assert [t is u for t, u in zip((new.board, new._moves, new._rem), tables)] == [same] * 3
