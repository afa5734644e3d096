"""``tanbo match``: statistics, colour alternation, records, GTP opponents, errors."""

import argparse
import math
import os
import shlex
import sys

import pytest

from tanbo import Game
from tanbo_tools import match


def run_match(capsys, *argv):
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    rc = match.run(parser.parse_args(list(argv)))
    out, err = capsys.readouterr()
    return rc, out, err


def test_wilson_interval_matches_known_values():
    lo, hi = match.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = match.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = match.wilson(90, 100)
    assert round(lo, 4) == 0.8256 and round(hi, 4) == 0.9448


def test_elo_of_win_rates():
    assert match.elo(0.5) == 0
    assert round(match.elo(0.75), 1) == 190.8
    assert round(match.elo(0.25), 1) == -190.8
    assert match.elo(1.0) == math.inf and match.elo(0.0) == -math.inf


def test_seats_alternate_between_games():
    assert match.seats_of_a(0, 2) == (1,) and match.seats_of_a(1, 2) == (2,)
    assert match.seats_of_a(0, 4) == (1, 3) and match.seats_of_a(1, 4) == (2, 4)


def test_match_reports_and_records_every_game(tmp_path, capsys):
    rc, out, _ = run_match(capsys, "easy", "random", "--games", "4", "--record", str(tmp_path), "--seed", "3")
    assert rc == 0
    files = sorted(os.listdir(tmp_path))
    assert files == ["game-001.txt", "game-002.txt", "game-003.txt", "game-004.txt"]
    wins_a = 0
    for i, name in enumerate(files):
        text = (tmp_path / name).read_text()
        g = Game.from_record(text)
        assert g.over
        black = "easy" if i % 2 == 0 else "random"
        assert "Seats: B=%s W=" % black in text
        wins_a += (g.winner == 1) == (i % 2 == 0)
    assert "wins: A %d, B %d" % (wins_a, 4 - wins_a) in out
    assert "A = easy, B = random, 4 games" in out
    assert "A win rate: %.1f%%" % (25.0 * wins_a) in out
    assert "Elo A-B:" in out and "time per move: A " in out


def test_parallel_jobs_give_the_same_games(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    run_match(capsys, "medium", "easy", "--games", "4", "--record", str(one))
    run_match(capsys, "medium", "easy", "--games", "4", "--record", str(two), "--jobs", "2")
    for name in os.listdir(one):
        assert (one / name).read_text() == (two / name).read_text()


def test_four_player_match(capsys):
    rc, out, _ = run_match(capsys, "easy", "random", "--variant", "4p", "--games", "2")
    assert rc == 0 and "2 games" in out


def test_gtp_engine_as_a_player(tmp_path, capsys):
    cmd = "gtp:%s -m tanbo.gtp" % shlex.quote(sys.executable)
    rc, out, err = run_match(capsys, cmd, "easy", "--games", "2", "--record", str(tmp_path))
    assert rc == 0, err
    for name in os.listdir(tmp_path):
        assert Game.from_record((tmp_path / name).read_text()).over


def test_failing_gtp_engine_is_reported(capsys):
    cmd = "gtp:%s -c %s" % (shlex.quote(sys.executable), shlex.quote("print('? nope'); print()"))
    rc, _, err = run_match(capsys, cmd, "easy", "--games", "1")
    assert rc == 1 and "refused 'tanbo-variant 9x9': nope" in err


@pytest.mark.parametrize("argv, message", [
    (("easy", "brutal"), "'brutal': not a level"),
    (("gtp:", "easy"), "'gtp:': not a level"),
    (("easy", "random", "--variant", "8x8"), "'8x8': unknown variant"),
    (("easy", "random", "--games", "0"), "--games 0"),
])
def test_bad_arguments_are_refused(capsys, argv, message):
    rc, out, err = run_match(capsys, *argv)
    assert rc == 2 and message in err and out == ""
