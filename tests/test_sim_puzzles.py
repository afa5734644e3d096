"""Puzzles on the handheld, played by keys in the headless simulator on every board: the list,
a lesson and a puzzle solved, a wrong move said and taken back, the hint, the progress kept
across a reset with one NVM write per solved puzzle, and what each move refreshes.
"""

import os

import pytest
from tanbo.puzzles import PuzzleBook, encode_book

from tanbo_sim.simulator import DEVICE_DIR, Simulator
from test_sim_games import move_cursor_to, screen_is

BOOK = os.path.join(DEVICE_DIR, "app", "puzzles.txt")
BUDGET = 6000  # px a move may refresh (tests/test_sim_refresh.py)



def progress_of(app):
    """The app's puzzle progress, unpacked from its record bytes."""
    from app.store.progress import Progress
    return Progress.unpacked(app.puzzle_record)

def entries():
    """The shipped collection's puzzles, in order."""
    with PuzzleBook(BOOK) as book:
        return [book.load(i) for i in range(len(book))]


def first_lesson_and_puzzle():
    """Numbers (from 1) of the first lesson and of the first puzzle with a wrong first move to try."""
    ps = entries()
    lesson = next(p.number for p in ps if p.band == 0)
    puzzle = next(p.number for p in ps if p.band > 0 and len(p.game().legal_moves()) > 1)
    return lesson, puzzle


def info(screen):
    return [label.text for label in screen.status.info if label.text]


def band(screen):
    return [label.text for label in screen.text]


def nvm_writes(sim, since):
    return len(sim.log.since(since, "nvm"))


def settle(sim, ms=2000):
    sim.frames(ms)  # flashes, the pause before a reply, the replies


def solve(sim, screen):
    """Play the line's moves by keys until the screen says solved."""
    line = screen.puzzle.line
    while not screen.solved:
        step = screen.step()
        assert screen.game.to_move == screen.player, step
        move_cursor_to(sim, line[step])
        sim.press("A")
        settle(sim)
        assert screen.step() >= step + 1  # never taken back


def open_from_list(sim, n):
    """From the puzzle list: select puzzle ``n`` (from 1) by keys and open it."""
    lst = sim.app.screen
    assert screen_is(lst, "PuzzleList")
    delta = n - 1 - lst.selected()
    for _ in range(abs(delta)):
        sim.press("DOWN" if delta > 0 else "UP")
    sim.press("A")
    screen = sim.app.screen
    assert screen_is(screen, "PuzzleScreen") and screen.puzzle.number == n
    return screen


def test_a_lesson_and_a_puzzle_by_keys_a_wrong_move_taken_back_and_the_progress_kept(sim):
    lesson, puzzle = first_lesson_and_puzzle()
    sim.run_keys("DOWN,A")  # title: New game, Puzzles
    lst = sim.app.screen
    assert screen_is(lst, "PuzzleList") and lst.title.text.startswith("Puzzles 0/")
    assert lst.labels[0].text.split()[:2] == ["1", "lesson"]  # lessons first
    mark = len(sim.events)

    # The lesson: its goal under the board, solved, its why said.
    screen = open_from_list(sim, lesson)
    p = screen.puzzle
    assert band(screen)[0] == p.goal and screen.game.position() == p.position
    solve(sim, screen)
    text = " ".join(band(screen))
    assert text.startswith("Solved!") and p.why in text
    assert nvm_writes(sim, mark) == 1  # the one write a solved puzzle costs
    assert progress_of(sim.app).solved(lesson)

    # The puzzle, from the list (the puzzle menu's "Puzzle list"): a wrong move first.
    sim.run_keys("START,DOWN*3,A")  # Resume, Start again, Next puzzle, Puzzle list
    screen = open_from_list(sim, puzzle)
    p = screen.puzzle
    g = screen.game
    start = g.position()
    mark = len(sim.events)
    sim.press("B")  # no hint before a try
    assert screen.region is None and "after a try" in band(screen)[1]
    wrong = next(q for q in g.legal_moves() if q != p.line[0])
    move_cursor_to(sim, wrong)
    sim.press("A")
    assert g.ply == screen.start_ply + 1 and g.board[wrong]  # shown
    assert band(screen)[1].startswith("No:") and band(screen)[1] == p.wrong(g)
    said = band(screen)[1]
    settle(sim)
    assert g.ply == screen.start_ply and g.position() == start  # taken back
    assert band(screen) == [p.goal, said] and "B:hint" in " ".join(info(screen))
    # The hint: a frame of 3 x 3 cells holding the solution's first move.
    sim.press("B")
    lay = screen.view.layout
    r = screen.region
    assert r is not None and not r.hidden
    x, y = lay.cell_xy(p.line[0])
    assert r.x + 2 <= x and x + lay.cell <= r.x + 2 + 3 * lay.cell
    assert r.y + 2 <= y and y + lay.cell <= r.y + 2 + 3 * lay.cell
    assert nvm_writes(sim, mark) == 0  # opening, trying, hints: nothing written
    solve(sim, screen)
    assert band(screen)[0].startswith("Solved!") and r.hidden
    assert nvm_writes(sim, mark) == 1
    assert g.ply == screen.start_ply + p.plies  # the defender's forced replies were played
    # A offers the next one.
    sim.press("A")
    assert screen_is(sim.app.screen, "PuzzleScreen") and sim.app.screen.puzzle.number == puzzle + 1
    assert nvm_writes(sim, mark) == 1

    # A reset: the progress and the puzzle to resume at come back.
    sim.close()
    again = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        assert progress_of(again.app).solved(lesson) and progress_of(again.app).solved(puzzle)
        assert progress_of(again.app).count() == 2
        again.run_keys("DOWN,A")
        lst = again.app.screen
        assert lst.title.text.startswith("Puzzles 2/")
        assert lst.selected() == puzzle  # the next one after the last solved (0-based: puzzle + 1)
        rows = {int(t.split()[0]): t for t in (label.text for label in lst.labels) if t.strip()}
        if lesson in rows:
            assert rows[lesson].endswith("solved")
        assert rows[puzzle].endswith("solved") and not rows[puzzle + 1].endswith("solved")
    finally:
        again.close()


def test_a_wrong_move_is_taken_back_at_the_next_key_too(sim):
    _, puzzle = first_lesson_and_puzzle()
    sim.run_keys("DOWN,A")
    screen = open_from_list(sim, puzzle)
    g = screen.game
    wrong = next(q for q in g.legal_moves() if q != screen.puzzle.line[0])
    move_cursor_to(sim, wrong)
    sim.press("A")
    sim.frames(200)
    assert g.ply == screen.start_ply + 1
    sim.press("LEFT")  # taken back at once; this key does nothing else
    assert g.ply == screen.start_ply and screen.cursor == wrong
    assert band(screen)[1].startswith("No:")
    sim.press("LEFT")  # the next key clears the verdict
    assert band(screen)[1] == ""


def test_the_list_scrolls_over_a_long_collection_reading_one_entry_at_a_time(sim, tmp_path, monkeypatch):
    from app.store import progress as puzzle_menus
    ps = entries()
    many = []
    for i in range(40):
        p = ps[i % len(ps)]
        p.number = i + 1
        many.append(p)
    path = tmp_path / "many.txt"
    path.write_bytes(encode_book(many))
    monkeypatch.setattr(puzzle_menus, "book_path", lambda: str(path))
    loads = []
    real = PuzzleBook.load
    monkeypatch.setattr(PuzzleBook, "load", lambda self, n: loads.append(n) or real(self, n))
    sim.run_keys("DOWN,A")
    lst = sim.app.screen
    shown = len(lst.labels)
    assert 5 <= shown < 40 and lst.title.text == "Puzzles 0/40"
    assert max(loads) < shown + 1  # the rows on screen only
    sim.run_keys("UP")  # wraps to the last
    assert lst.selected() == 39 and lst.labels[lst.index].text.split()[0] == "40"
    assert lst.labels[-1].text.split()[0] == "40"
    sim.run_keys("LEFT")  # a page up
    assert lst.selected() == 39 - shown
    assert lst.goal.text == many[39 - shown].goal
    sim.run_keys("B")
    assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "T A N B O"


def test_a_missing_collection_is_said_not_a_crash(sim, tmp_path, monkeypatch):
    from app.store import progress as puzzle_menus
    monkeypatch.setattr(puzzle_menus, "book_path", lambda: str(tmp_path / "none.txt"))
    sim.run_keys("DOWN,A")
    menu = sim.app.screen
    assert screen_is(menu, "Menu") and "cannot read the" in [label.text for label in menu.notes]
    sim.run_keys("A")
    assert sim.app.screen.title.text == "T A N B O"


def test_a_save_of_the_version_before_puzzles_resumes_on_the_board(sim):
    # The record before puzzles (TNB2: no progress section) of a game under way.
    sim.run_keys("A,DOWN*2,LEFT*2,DOWN*2,A,A,wait:1000")
    history = sim.app.screen.game.moves()
    sim.close()
    with open(sim.nvm_path, "r+b") as f:
        data = bytearray(f.read())
    from app.store import save
    n = data[4] | data[5] << 8
    payload = bytes(data[10:10 + n])
    assert payload[8] == 0  # no progress yet: drop its length byte
    # TNB4 then has the variant, the ply count N and the plies (then zeros): TNB2 had no N.
    plies = payload[10] | payload[11] << 8
    old = payload[:8] + payload[9:10] + payload[12:12 + 2 * plies]
    import struct
    fields = struct.pack("<H", len(old))
    rec = b"TNB2" + fields + struct.pack("<I", save.checksum(old, save.checksum(fields))) + old
    data[:len(rec)] = rec
    with open(sim.nvm_path, "wb") as f:
        f.write(data)
    again = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        title = again.app.screen
        assert "Bad save discarded." not in [label.text for label in title.notes]
        assert again.app.saved_game.moves() == history
        assert title.labels[0].text == "Continue"
    finally:
        again.close()


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))  # 160x128 and 240x240
def test_each_move_of_a_puzzle_refreshes_at_most_6000_pixels(tmp_path, board):
    # As on the game screen (tests/test_sim_refresh.py), a removal's flash
    # redraws the roots it takes and is no budget case; the stone, the
    # verdict, the take-back, the hint and "Solved!" are.
    _, first = first_lesson_and_puzzle()
    longer = [p.number for p in entries() if p.plies > 1][:1]  # one with forced replies
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        for puzzle in [first] + longer:
            worst = moves_cost(s, puzzle)
            print(board, puzzle, worst)
            assert max(worst.values()) <= BUDGET, (puzzle, worst)
    finally:
        s.close()


def removes(g, moves):
    """Whether each of ``moves``, played in turn from ``g``, removes a root (``g`` unchanged)."""
    out = []
    for q in moves:
        out.append(bool(g.play(q)))
    for _ in moves:
        g.undo()
    return out


def moves_cost(s, puzzle):
    """The most pixels one refresh sent, by what was done, solving ``puzzle`` after a wrong try."""
    s.app.go("puzzle", puzzle)
    s.frames(100)
    screen = s.app.screen
    g = screen.game
    seen = {}

    def cost(name, keys_then, removal):
        n = len(s.events)
        keys_then()
        if not removal:
            seen[name] = max(e["pixels"] for e in s.log.since(n, "refresh"))

    line = screen.puzzle.line
    wrong = next(q for q in g.legal_moves() if q != line[0] and removes(g, [q]) == [False])
    move_cursor_to(s, wrong)
    cost("wrong move", lambda: s.press("A"), False)
    cost("taken back", lambda: settle(s), False)
    cost("hint", lambda: s.press("B"), False)
    for step in range(0, len(line), 2):
        move_cursor_to(s, line[step])
        mine, *reply = removes(g, line[step:step + 2])
        cost("move %d" % step, lambda: s.press("A"), mine)
        cost("reply %d" % step, lambda: settle(s), mine or (reply and reply[0]))  # flashes go on
    assert screen.solved
    seen["solved"] = s.log.since(0, "refresh")[-1]["pixels"]  # its text, the last refresh
    return seen


def test_progress_of_another_collection_starts_afresh_with_this_one(sim):
    with PuzzleBook(BOOK) as book:
        ident = book.ident
    p = progress_of(sim.app)
    p.of("%08x" % (int(ident, 16) ^ 1))  # the progress of an older collection
    for n in (1, 2, 5):
        p.mark(n)
    p.resume = 6
    sim.app.puzzle_record = p.pack()
    sim.run_keys("DOWN,A")
    lst = sim.app.screen
    assert lst.title.text.startswith("Puzzles 0/") and lst.selected() == 0
    assert not any(label.text.endswith("solved") for label in lst.labels)
    assert progress_of(sim.app).ident == int(ident, 16)


def test_a_puzzles_forced_replies_make_no_search(sim):
    # The defender's replies are the puzzle's line: the computer's turn on a
    # puzzle screen neither loads tanbo.ai's search nor allocates its arena.
    lesson, puzzle = first_lesson_and_puzzle()
    sim.run_keys("DOWN,A")
    screen = open_from_list(sim, puzzle)
    assert screen.puzzle.plies >= 2  # a line with a reply in it
    solve(sim, screen)
    assert screen.solved and sim.app.search is None and screen.search is None
