"""``tanbo analyse`` (issue 36 items 4 and 5): every ply of a record judged by tanbo.coach, the
same verdicts as the handheld's coach; pictures of the marked plies; bad files named with
their line. Records come from ``tanbo match --record``, as a player's would from a board."""

import os
import re

import pytest

from tanbo import Game
from tanbo.coach import judge
from tanbo_tools.cli import main as cli_main

BUDGET = "1500"  # nodes a search: quick, and still hard's search
# White to move; A4 lets Black bound a White root (hard: B4): tests/test_coach.py's blunder.
BLUNDER_9X9 = "..O.OOXX./.OOOO..X./OO.O...X./.OXXXX.X./OOX..XXXX/.......X./....X..../XXXXXXX../......... O"
ROW = re.compile(r"^ *(\d+)  (\S+) +(\S+) +(\S+)  (\S+) +(\S+)(?:  (\S+))?$")


@pytest.fixture(scope="module")
def match_records(tmp_path_factory):
    """Two 9x9 records of hard against random from ``tanbo match --record``."""
    folder = tmp_path_factory.mktemp("match")
    assert cli_main(["match", "hard", "random", "--games", "2", "--variant", "9x9", "--quiet",
                     "--record", str(folder)]) == 0
    return sorted(str(folder / n) for n in os.listdir(folder))


def rows(out):
    return [ROW.match(line).groups() for line in out.splitlines() if ROW.match(line)]


def test_every_ply_of_match_records_with_the_coachs_own_verdicts(match_records, capsys):
    assert cli_main(["analyse", "--budget", BUDGET, "--quiet"] + match_records) == 0
    out = capsys.readouterr().out
    sections = out.split("\n\n")
    assert len(sections) == 2
    for path, section in zip(match_records, sections):
        game = Game.from_record(open(path).read())
        moves, fmt = game.moves(), game.variant.format_point
        header = section.splitlines()[0]
        assert header.startswith(path + ": 9x9 (") and "%d plies" % len(moves) in header
        assert "judged by hard, 1,500 nodes a search" in header
        table = rows(section)
        assert [int(r[0]) for r in table] == list(range(1, len(moves) + 1))
        assert [r[2] for r in table] == [fmt(m) if m >= 0 else "resign" for m in moves]
        # The coach, called here as the handheld's Review calls it (stepping back from the
        # end with undo, where analyse played forward), gives the same best moves and marks.
        while game.ply:
            m = game.undo()
            best, _, _, verdict = judge(game, m, budget=int(BUDGET))
            r = table[game.ply]
            assert (r[4], r[6]) == (fmt(best), verdict), "ply %d" % (game.ply + 1)
        counts = {}
        for r in table:
            if r[6]:
                counts[(r[1], r[6])] = counts.get((r[1], r[6]), 0) + 1
        for line in section.splitlines()[-2:]:
            who, _, rest = line.partition(": ")
            for n, word in re.findall(r"(\d+) (inaccurac|mistake|blunder)", rest):
                verdict = {"inaccurac": "inaccuracy"}.get(word, word)
                assert counts.get((who, verdict), 0) == int(n)


def blunder_record(tmp_path):
    g = Game.from_position(BLUNDER_9X9)
    g.play(g.variant.parse_point("A4"))
    path = tmp_path / "blunder.txt"
    path.write_text(g.record())
    return str(path)


def test_a_known_blunder_is_marked_and_drawn(tmp_path, capsys):
    import pygame
    from tanbo_tools.games.analysis_png import HARD, PLAYED
    record = blunder_record(tmp_path)
    pictures = tmp_path / "png"
    assert cli_main(["analyse", record, "--png", str(pictures)]) == 0
    captured = capsys.readouterr()
    (row,) = rows(captured.out)
    assert row[:3] == ("1", "White", "A4") and row[3] == "lost" and row[4] == "B4" and row[6] == "blunder"
    assert "White: 0 inaccuracies, 0 mistakes, 1 blunder" in captured.out
    assert "analyse  1/1" in captured.err  # progress on stderr, not in the table
    assert os.listdir(pictures) == ["blunder-ply-001.png"]
    image = pygame.image.load(str(pictures / "blunder-ply-001.png"))
    w, h = image.get_size()
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, w, 1) for y in range(0, h, 2)}
    assert PLAYED in colours and HARD in colours  # both rings, and the caption in their colours


def test_resignations_and_the_start_position_are_kept(tmp_path, capsys):
    g = Game.from_position(BLUNDER_9X9)
    g.play(g.variant.parse_point("B4"))
    g.resign()
    path = tmp_path / "resigned.txt"
    path.write_text(g.record())
    assert cli_main(["analyse", str(path), "--budget", BUDGET, "--quiet"]) == 0
    table = rows(capsys.readouterr().out)
    assert [(r[1], r[2], r[6]) for r in table][0] == ("White", "B4", None)
    assert table[1][1:3] == ("Black", "resign") and table[1][3] == "lost"


@pytest.mark.parametrize("content,match", [
    (b"hello\n", r"hello.txt: not a game record: record line 1: expected 'Key: value'"),
    (b"Variant: 9x9\nMoves:\n1. G8 G8\n", r"hello.txt: not a game record: record line 3: move 2 \(G8\)"),
    (b"Variant: 9x9\n\x89PNG\n", r"hello.txt: line 2: not a game record \(not UTF-8 text\)"),
    (b"Variant: 12x12\n", r"hello.txt: not a game record: record line 1: .*12x12"),
])
def test_a_file_that_is_not_a_record_is_one_line_naming_it_and_its_line(tmp_path, capsys, content, match):
    good = blunder_record(tmp_path)
    bad = tmp_path / "hello.txt"
    bad.write_bytes(content)
    assert cli_main(["analyse", good, str(bad), "--png", str(tmp_path / "png")]) == 1
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and re.search(match, err[0]) and err[0].startswith("tanbo analyse: ")
    assert captured.out == "" and not (tmp_path / "png").exists()  # checked before any work


@pytest.mark.parametrize("given,match", [("missing", "there is no such file"), ("", "an empty file name"),
                                         (".", "is a folder, not a regular file")])
def test_missing_or_odd_files(tmp_path, capsys, given, match):
    arg = str(tmp_path / given) if given == "missing" else given
    try:
        rc = cli_main(["analyse", arg])
    except SystemExit as exc:
        rc = exc.code
    assert rc in (1, 2) and match in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "99", "-5", "1e6", "100000001", "lots", ""])
def test_a_bad_budget_is_a_usage_error(tmp_path, capsys, value):
    with pytest.raises(SystemExit) as exc:
        cli_main(["analyse", blunder_record(tmp_path), "--budget", value])
    assert exc.value.code == 2 and "--budget" in capsys.readouterr().err


def test_the_picture_is_reviews_screen_with_hards_move_under_the_cursor_and_a_ring_on_the_move_played(tmp_path):
    import pygame
    from tanbo_tools.games.analysis_png import HARD, PLAYED, SCALE, Painter
    g = Game.from_position(BLUNDER_9X9)
    a4, b4, e5 = (g.variant.parse_point(t) for t in ("A4", "B4", "E5"))
    before = g.position()
    painter = Painter()
    try:
        layout = painter.draw(g, a4, b4, "blunder", str(tmp_path / "p.png"))
    finally:
        painter.close()
    assert g.position() == before
    image = pygame.image.load(str(tmp_path / "p.png"))

    def colours_at(p):
        x, y = layout.cell_xy(p)
        c = layout.cell
        return {tuple(image.get_at((i, j)))[:3] for i in range((x - 2) * SCALE, (x + c + 2) * SCALE)
                for j in range((y - 2) * SCALE, (y + c + 2) * SCALE)}
    def near(colour, colours):  # (the display's 16-bit colours: a few units off)
        return any(max(abs(a - b) for a, b in zip(colour, c)) <= 8 for c in colours)
    assert near(PLAYED, colours_at(a4)) and near(HARD, colours_at(b4))
    assert not near(PLAYED, colours_at(e5)) and not near(HARD, colours_at(e5))
    assert image.get_size() == (240 * SCALE, 240 * SCALE)  # no caption asked: the screen alone


def test_records_of_the_same_name_never_overwrite_each_others_pictures(tmp_path, capsys):
    """``a/game.txt b/game.txt`` (and a ``Game.txt``, one name in any case on FAT or macOS) draw
    into files of their own: a picture a marked ply, none written over another."""
    record = open(blunder_record(tmp_path)).read()
    paths = []
    for folder, name in (("a", "game.txt"), ("b", "game.txt"), ("c", "game-2.txt"), ("d", "Game.txt")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_text(record)
        paths.append(str(tmp_path / folder / name))
    pictures = tmp_path / "pics"
    assert cli_main(["analyse"] + paths + ["--png", str(pictures), "--quiet"]) == 0
    drawn = [line.split("picture: ")[1] for line in capsys.readouterr().out.splitlines() if "picture: " in line]
    assert len(drawn) == 4 and len(set(drawn)) == 4
    assert sorted(os.listdir(pictures)) == sorted(os.path.basename(p) for p in drawn) == [
        "Game-3-ply-001.png", "game-2-2-ply-001.png", "game-2-ply-001.png", "game-ply-001.png"]
