"""Issue 36 on the handheld, in the headless simulator: the library of finished games across
resets (filled past full, resumed, reviewed, sent), the coach in Review, a damaged library."""

import contextlib
import io
import struct

import pytest

from tanbo import Game
from tanbo.record import SEND_BEGIN, SEND_END
from tanbo.rng import Rng
from tanbo_sim.simulator import Simulator

from test_coach import BLUNDER_9X9
from test_sim_games import NEW_9X9_VS_RANDOM, screen_is

TAIL = 9


def new_game(sim, variant):
    """From the title: a game of ``variant`` against the computer at random, the person Black."""
    from app.store.settings import GAME_VARIANTS
    s = sim.app.settings
    s.variant, s.opponent, s.level, s.seat = GAME_VARIANTS.index(variant), 0, 0, 1
    sim.run_keys("A,DOWN*4,A")  # New game, Start
    assert sim.app.screen.game.variant.name == variant


def finish(sim, rng):
    """Play the game on screen out with random moves for both sides; the app sees it end (OVER)."""
    g = sim.app.screen.game
    while g.winner is None:
        ms = g.legal_moves()
        g.play(ms[rng.below(len(ms))])
    sim.frames(300)
    assert screen_is(sim.app.screen, "Menu")  # the game-over menu
    return g.moves()


def game_in_progress(sim):
    """From the game-over menu: a 9x9 game with a move and the computer's reply, saved; its moves."""
    sim.run_keys("B,wait:300")
    new_game(sim, "9x9")
    sim.run_keys("A,wait:1000")
    return sim.app.screen.game.moves()


def sent(sim, keys):
    """What the app prints (the console) while ``keys`` are pressed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        sim.run_keys(keys)
    return out.getvalue()


def records(text):
    """The records between the marker lines of console ``text``."""
    found = []
    for chunk in text.split(SEND_BEGIN + "\n")[1:]:
        assert SEND_END + "\n" in chunk
        found.append(chunk.split(SEND_END + "\n")[0])
    return found


def library_ends(path, size):
    """The end offsets of the games in NVM file ``path``, newest first (app.store.library's walk, read here)."""
    data = open(path, "rb").read()
    reach = 10 + struct.unpack("<H", data[4:6])[0]
    ends, end = [], size
    while end - TAIL >= reach:
        n = data[end - 6] | data[end - 5] << 8
        if n == 0xFFFF or end - TAIL - 2 * n < reach:
            break
        ends.append(end)
        end -= TAIL + 2 * n
    return ends


def test_the_library_fills_drops_the_oldest_and_survives_resets(tmp_path):
    # A PicoSystem's 4 KB: two 19x19 games of random moves and 9x9 ones fill it.
    path = str(tmp_path / "nvm.bin")
    rng = Rng(5)
    sim = Simulator("picosystem", nvm_path=path)
    played, counts, variants = [], [], []
    try:
        for k in range(60):
            sim.run_keys("B,wait:300")  # the game-over menu (or the title) -> the title
            assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "T A N B O"
            variants.append("19x19" if k % 3 == 0 else "9x9")
            new_game(sim, variants[-1])
            played.append(finish(sim, rng))
            counts.append(sim.app.games)
            if len(counts) > 3 and counts[-3] >= counts[-2] >= counts[-1]:
                break  # full: the oldest dropped for two games running
        # It grew a game each time until full, then dropped the oldest first:
        # the games it holds are the newest, newest first.
        assert counts[:3] == [1, 2, 3] and counts[-1] < len(played)
        from app.store.library import load_game, scan
        ends = scan(sim.app.saves.storage, sim.app.saves.reach)[0]
        assert len(ends) == counts[-1]
        for i, end in enumerate(ends):
            assert load_game(sim.app.saves.storage, end).moves() == played[-1 - i]
        kept = counts[-1]
        progress = game_in_progress(sim)
    finally:
        sim.close()
    again = Simulator("picosystem", nvm_path=path)
    try:
        # The game in progress rides before the library: its record may take the oldest game.
        assert kept - 1 <= again.app.games <= kept and again.app.saved_game.moves() == progress
        kept = again.app.games
        rows = [r.label for r in again.app.screen.rows]
        assert rows[:3] == ["Continue", "New game", "Games"]
        again.run_keys("DOWN*2,A")
        lst = again.app.screen
        assert screen_is(lst, "GamesList") and lst.title.text == "Games %d" % kept
        last = Game(variants[-1])
        for m in played[-1]:
            last.play(m)
        assert lst.labels[0].text.split() == [variants[-1], ("Black", "White")[last.winner - 1]]
        assert lst.goal.text == "random, %d plies" % len(played[-1])
        # The newest first: the second row is the game before.
        again.run_keys("DOWN,A")
        review = again.app.screen
        assert screen_is(review, "ReviewScreen") and review.game.moves() == played[-2]
        text = sent(again, "LEFT*3,START")
        (rec,) = records(text)
        assert Game.from_record(rec).moves() == played[-2]
        assert "Opponent: random (White)" in rec
        assert review.game.ply == len(played[-2]) - 3  # the ply on show kept
        again.run_keys("B")
        assert screen_is(again.app.screen, "GamesList")
        again.run_keys("B,A")  # the title, Continue: the game in progress
        assert again.app.screen.game.moves() == progress
    finally:
        again.close()


def test_a_damaged_game_is_reported_once_and_dropped_the_game_in_progress_kept(tmp_path):
    path = str(tmp_path / "nvm.bin")
    rng = Rng(7)
    sim = Simulator("pybadge", nvm_path=path)
    try:
        for _ in range(3):
            sim.run_keys("B,wait:300")
            new_game(sim, "9x9")
            finish(sim, rng)
        progress = game_in_progress(sim)
    finally:
        sim.close()
    ends = library_ends(path, 8192)
    assert len(ends) == 3
    with open(path, "r+b") as f:  # a byte of the second newest game's plies
        f.seek(ends[1] - TAIL - 3)
        b = f.read(1)
        f.seek(ends[1] - TAIL - 3)
        f.write(bytes((b[0] ^ 0x21,)))
    second = Simulator("pybadge", nvm_path=path)
    try:
        notes = [label.text for label in second.app.screen.notes]
        assert "Bad games: 1 kept." in notes
        assert second.app.games == 1 and second.app.saved_game.moves() == progress
    finally:
        second.close()
    third = Simulator("pybadge", nvm_path=path)
    try:
        assert "Bad games: 1 kept." not in [label.text for label in third.app.screen.notes]
        assert third.app.games == 1 and third.app.saved_game.moves() == progress
    finally:
        third.close()


def test_a_save_from_before_the_library_still_resumes(tmp_path):
    # A TNB3 record (the plies to the payload's end, no ply count, no library).
    from tanbo import VARIANTS
    import binascii
    g = Game("9x9")
    for _ in range(5):
        g.play(g.legal_moves()[0])
    payload = bytes((1, 1, 1, 0, 0, 1, 1, 0)) + bytes((0, VARIANTS.index("9x9")))
    for m in g.moves():
        payload += bytes((m & 255, m >> 8))
    fields = struct.pack("<H", len(payload))
    crc = binascii.crc32(payload, binascii.crc32(fields)) & 0xFFFFFFFF
    path = tmp_path / "nvm.bin"
    path.write_bytes((b"TNB3" + fields + struct.pack("<I", crc) + payload).ljust(8192, b"\xff"))
    sim = Simulator("pybadge", nvm_path=str(path))
    try:
        assert sim.app.saved_game.moves() == g.moves() and sim.app.games == 0
        assert "Games" not in [r.label for r in sim.app.screen.rows]
        sim.run_keys("A")  # Continue (the computer, White, replies)
        assert sim.app.screen.game.moves()[:5] == g.moves()
    finally:
        sim.close()


def blunder_game():
    """A 9x9 game whose ply 42 (White's A4) is a known blunder (test_coach.BLUNDER_9X9),
    from the setup: hard against random moves, seed 3, then played out."""
    from tanbo.ai import choose_move
    g = Game("9x9")
    r = Rng(3)
    while g.ply < 41:
        if g.to_move == 1:
            m = choose_move(g, "hard", seed=g.ply)
        else:
            ms = g.legal_moves()
            m = ms[r.below(len(ms))]
        g.play(m)
    assert g.position() == BLUNDER_9X9
    g.play(g.variant.parse_point("A4"))
    while g.winner is None:
        ms = g.legal_moves()
        g.play(ms[r.below(len(ms))])
    return g


@pytest.mark.parametrize("board", ["pybadge", "picosystem"])
def test_the_coach_in_review_names_the_blunder_and_marks_hards_move(tmp_path, board):
    sim = Simulator(board, nvm_path=str(tmp_path / "nvm.bin"))
    try:
        full = blunder_game()
        sim.run_keys(NEW_9X9_VS_RANDOM)
        g = sim.app.screen.game
        for m in full.moves():
            g.play(m)
        sim.frames(300)
        sim.run_keys("DOWN,A")  # the game-over menu's Review
        review = sim.app.screen
        assert screen_is(review, "ReviewScreen")
        sim.run_keys("LEFT*%d" % (g.ply - 41))
        assert g.ply == 41 and g.to_move == 2
        refreshes = sim.display.refresh_count
        sim.press("A")
        steps = 0
        while review.coach is not None and steps < 3000:
            sim.frames(20)
            steps += 1
        assert review.coach is None and steps > 2  # searched in steps, the spinner turning
        assert sim.display.refresh_count > refreshes + 2
        b4 = g.variant.parse_point("B4")
        # On 9x9 at 160x128 the status is 3 lines of 5 characters: the chess
        # sign "??" where "blunder" would break as "blund" "er" (issue 36).
        said = [label.text for label in review.status.info]
        words = " ".join(said).split()
        assert ("??" if board == "pybadge" else "blunder") in words, said
        assert "blund" not in words, said
        if board == "pybadge":  # (240x240's one info line after the chips: the word alone)
            assert words == ["??", "hard", "B4"], said
        assert not review.view.cursor.hidden
        from app.view import tiles
        x, y = review.view.layout.cell_xy(b4)
        assert (review.view.cursor.x, review.view.cursor.y) == (x - tiles.CURSOR_OUT, y - tiles.CURSOR_OUT)
        # B while the coach searches stops it at once; nothing else changes.
        sim.run_keys("LEFT*30")
        sim.press("A", hold_ms=10, gap_ms=0)
        assert review.coach is not None
        sim.press("B", hold_ms=10, gap_ms=10)
        assert review.coach is None and screen_is(sim.app.screen, "ReviewScreen") and g.ply == 11
        # DOWN from the start: White's first mistake or blunder, ply by ply.
        sim.run_keys("LEFT*11,RIGHT")
        assert g.to_move == 2
        sim.press("DOWN")
        steps = 0
        while review.coach is not None and steps < 20000:
            sim.frames(20)
            steps += 1
        words = " ".join(label.text for label in review.status.info).split()
        assert g.to_move == 2 and 1 < g.ply <= 41 and set(words) & {"mistake", "blunder", "?", "??"}, words
    finally:
        sim.close()


def test_send_at_end_prints_every_finished_game(tmp_path):
    sim = Simulator("pybadge", nvm_path=str(tmp_path / "nvm.bin"))
    try:
        sim.run_keys("DOWN*3,A,DOWN*4")  # Settings -> Send at end
        assert sim.app.screen.rows[4].label == "Send at end"
        sim.run_keys("A,DOWN*2,A")  # on; (Sleep;) Back (saved)
        assert sim.app.settings.send
        sim.run_keys(NEW_9X9_VS_RANDOM)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            moves = finish(sim, Rng(2))
        (rec,) = records(out.getvalue())
        assert Game.from_record(rec).moves() == moves
    finally:
        sim.close()
    again = Simulator("pybadge", nvm_path=str(tmp_path / "nvm.bin"))
    try:
        assert again.app.settings.send  # kept in the save
    finally:
        again.close()


def test_tanbo_sim_records_writes_the_console_to_a_file(tmp_path):
    # `tanbo sim --records FILE`: the console's twin; the board's other output (none here) around.
    import subprocess
    import sys
    path = str(tmp_path / "nvm.bin")
    sim = Simulator("pybadge", nvm_path=path)
    try:
        new_game(sim, "9x9")
        moves = finish(sim, Rng(9))
    finally:
        sim.close()
    out = tmp_path / "console.txt"
    proc = subprocess.run([sys.executable, "-m", "tanbo_tools.cli", "sim", "--headless", "--nvm", path,
                           "--keys", "B,DOWN,A,A,LEFT*4,START", "--records", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert SEND_BEGIN not in proc.stdout  # the file, not the terminal
    (rec,) = records(out.read_text())
    assert Game.from_record(rec).moves() == moves


def test_review_lets_the_game_screens_code_and_pondering_go_and_the_next_game_brings_them_back(tmp_path):
    # tests/test_device_memory.py: Review's coach within the game screen's heap
    # (issue 36), its code and the coach's in the place of the game screen's
    # and tanbo.ponder's. A PyBadge's small heap survives the game screen's
    # module imported again: the next 4p game still searches on itself.
    import sys
    sim = Simulator("pybadge", nvm_path=str(tmp_path / "nvm.bin"))
    try:
        sim.app.settings.ponder = True
        sim.run_keys(NEW_9X9_VS_RANDOM + ",A,wait:1000")
        import tanbo.ponder  # noqa: F401 (as the game's pondering would have)
        finish(sim, Rng(5))
        sim.run_keys("DOWN,A,LEFT*10")  # Review, ten plies back
        sim.press("A", hold_ms=10, gap_ms=0)  # the coach
        review = sim.app.screen
        assert screen_is(review, "ReviewScreen") and review.coach is not None
        for name in ("app.screens.game", "app.view.theme", "app.view.sizes", "tanbo.ponder", "app.screens.result", "app.screens.menu"):
            assert name not in sys.modules, name
        steps = 0
        while review.coach is not None and steps < 3000:
            sim.frames(20)
            steps += 1
        assert review.coach is None and review.said is not None
        sim.run_keys("B,wait:300")  # the game-over menu again
        sim.app.settings.level = 3
        sim.app.play(Game("4p"), (2, 3, 4))
        sim.frames(50)
        gs = sim.app.screen
        assert screen_is(gs, "GameScreen") and "app.screens.game" in sys.modules
        assert gs.small_heap and getattr(gs.search, "shared", False) and gs.search.game is gs.game
    finally:
        sim.close()
