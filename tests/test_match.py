"""``tanbo match``: statistics, colour alternation, records, GTP opponents, errors."""

import argparse
import math
import os
import shlex
import sys

import pytest

from tanbo import Game, ai, player_name
from tanbo_tools.lab import match


def run_match(capsys, *argv):
    """``(exit status, stdout, stderr)``: argparse's refusals included (status 2)."""
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    try:
        rc = match.run(parser.parse_args(list(argv)))
    except SystemExit as exc:
        rc = exc.code
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
    assert match.seats_of_a(0, 6) == (1, 3, 5) and match.seats_of_a(1, 6) == (2, 4, 6)


def test_three_seats_go_round_in_six_games():
    rounds = [match.seats_of_a(i, 3) for i in range(6)]
    assert rounds == [(1,), (2,), (3,), (2, 3), (1, 3), (1, 2)]
    assert [match.seats_of_a(i + 6, 3) for i in range(6)] == rounds
    # over a round each side held each seat three times: alone once and in company twice, or the other way
    for seat in (1, 2, 3):
        assert sum(seat in r for r in rounds) == 3
    assert match.round_of("hexbo-5-3p") == 6 and match.round_of("hexbo-6p") == match.round_of("9x9") == 2


@pytest.mark.parametrize("variant", ["hexbo-5-3p", "hexbo-5-6p", "hexbo-5"])
def test_hexbo_matches_report_wins_by_seat(variant, tmp_path, capsys):
    games = 6 if variant.endswith("3p") else 2
    rc, out, err = run_match(capsys, "easy", "random", "--variant", variant, "--games", str(games),
                             "--record", str(tmp_path))
    assert rc == 0, err
    wins = [int(w) for w in out.split("wins: A ")[1].split("\n")[0].split(", B ")]
    assert sum(wins) == games
    players = Game(variant).players
    if players == 2:
        assert "wins by the winner's seat" not in out
        return
    line = [x for x in out.splitlines() if x.startswith("wins by the winner's seat: ")][0]
    seats = line.split(": ", 1)[1].split(", ")
    assert [x.split(":")[0] for x in seats] == [player_name(k) for k in range(1, players + 1)]
    by_seat = [[int(n) for n in x.split(": A ")[1].split(" B ")] for x in seats]
    assert sum(a for a, _ in by_seat) == wins[0] and sum(b for _, b in by_seat) == wins[1]
    for i, name in enumerate(sorted(os.listdir(tmp_path))):
        g = Game.from_record((tmp_path / name).read_text())
        assert g.over and g.variant.name == variant
        held = match.seats_of_a(i, players)
        assert "Seats: " + " ".join("%s=%s" % (player_name(k), "easy" if k in held else "random")
                                    for k in range(1, players + 1)) in (tmp_path / name).read_text()


def test_a_level_at_a_board_searches_with_that_boards_budget(monkeypatch):
    # The default is the slowest board's budget, as choose_move's; @samd51 is 4.4 times larger.
    asked = []
    monkeypatch.setattr(match, "choose_move", lambda game, level, **kw: asked.append((level, kw["slowness"])) or 0)
    game = Game("9x9")
    for spec in ("hard", "hard@samd51", "medium@rp2040", "hard@2.2", "easy@12"):
        match.make_player(spec, 0, None).genmove(game)
    assert asked == [("hard", ai.DEFAULT_SLOWNESS), ("hard", ai.SLOWNESS["samd51"]), ("medium", ai.SLOWNESS["rp2040"]),
                     ("hard", 2.2), ("easy", 12.0)]
    # hard@2.2 searches twice a PicoSystem's nodes (to the node: integer division): a point on the
    # strength-against-nodes curve
    assert 0 <= ai.node_budget("hard", 81, 2.2) - 2 * ai.node_budget("hard", 81, ai.SLOWNESS["rp2040"]) <= 1
    assert ai.node_budget("hard", 81, ai.SLOWNESS["samd51"]) > ai.node_budget("hard", 81, ai.DEFAULT_SLOWNESS)


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
        assert "Seats: Black=%s White=" % black in text
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


# -- engines that misbehave ------------------------------------------------------
FAKE_ENGINE = r'''
import sys, time
from tanbo.gtp import GtpEngine

mode = sys.argv[1]
engine = GtpEngine("9x9", level="random")
out = sys.stdout.buffer
for raw in sys.stdin.buffer:
    words = raw.decode().split()
    command = words[0] if words else ""
    if command == "genmove" or (command == "play" and mode == "refuse-play"):
        if mode == "silent":
            time.sleep(3600)
        if mode == "exit":
            sys.exit(0)
        answer = {"Q99": b"= Q99", "pass": b"= pass", "refuse-play": b"? no such move",
                  "garbage": b"\xff\xfe?", "occupied": b"= H8", "wordy": b"=" + b"x" * 200000}.get(mode)
        if answer is not None:
            out.write(answer + b"\n\n")
            out.flush()
            continue
    out.write(engine.handle(raw.decode()).encode())
    out.flush()
    if command == "quit" and mode == "linger":
        time.sleep(3600)
    if engine.done:
        break
'''


@pytest.fixture
def fake(tmp_path):
    """``gtp:`` spec of a small engine misbehaving as ``mode`` (else tanbo.gtp at level random)."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    return lambda mode: "gtp:%s %s %s" % (shlex.quote(sys.executable), shlex.quote(str(script)), mode)


@pytest.mark.parametrize("mode, message", [
    ("Q99", "answered 'Q99' to 'genmove %s': 'Q99': not on the 9x9 board (A1-J9)"),
    ("pass", "passed for %s: there is no passing in Tanbo"),
    ("occupied", "played 'H8' for %s, an illegal move: H8 is occupied"),
    ("silent", "gave no answer to 'genmove %s' within 3 s (see --timeout)"),
    ("exit", "exited after 'genmove %s'"),
    ("garbage", "answered '\ufffd\ufffd?' to 'genmove %s': not a GTP answer (= or ?)"),
    ("wordy", "answered more than 100000 characters to 'genmove %s'"),
])
def test_a_bad_move_or_no_answer_forfeits_the_game(fake, tmp_path, capsys, mode, message):
    # The timeout also covers the engine's start-up: 3 s, not less, on a busy machine.
    games = 1 if mode == "silent" else 2
    rc, out, err = run_match(capsys, fake(mode), "random", "--games", str(games), "--timeout", "3",
                             "--record", str(tmp_path / "games"))
    assert rc == 0, err
    assert "wins: A 0, B %d" % games in out and "forfeits (included above): A %d, B 0" % games in out
    for game, colour in ((1, "Black"), (2, "White"))[:games]:
        why = message % colour
        assert "A (%s) forfeits game %d: GTP engine %r %s" % (fake(mode), game, fake(mode)[4:], why) in err
        record = (tmp_path / "games" / ("game-%03d.txt" % game)).read_text()
        assert "\nForfeit: A (" in record and why in record
        g = Game.from_record(record)
        assert g.winner == (1 if game == 2 else 2)  # B's seat: White in game 1, Black in game 2
    assert "Traceback" not in err


def test_a_refused_play_forfeits_the_refusing_engine(fake, capsys):
    rc, out, err = run_match(capsys, "random", fake("refuse-play"), "--games", "2")
    assert rc == 0 and "wins: A 2, B 0" in out and "forfeits (included above): A 0, B 2" in out
    assert "refused 'play Black " in err and ": no such move" in err


def test_an_engine_that_lingers_after_quit_is_killed(fake, capsys):
    rc, out, err = run_match(capsys, fake("linger"), "random", "--games", "1", "--timeout", "3")
    assert rc == 0 and "1 games" in out and "forfeit" not in out + err


def test_forfeits_in_parallel_jobs(fake, capsys):
    rc, out, err = run_match(capsys, "random", fake("Q99"), "--games", "2", "--jobs", "2")
    assert rc == 0 and "forfeits (included above): A 0, B 2" in out


@pytest.mark.parametrize("spec, message", [
    ("gtp:cat", "GTP engine 'cat' answered 'tanbo-variant 9x9' to 'tanbo-variant 9x9': not a GTP answer"),
    ("gtp:true", "GTP engine 'true' exited "),  # before or after the write: a race
    ("gtp:yes", "GTP engine 'yes' answered 'y' to 'tanbo-variant 9x9': not a GTP answer (= or ?)"),
    ("gtp:yes ''", "GTP engine \"yes ''\" answered more than 100000 characters to 'tanbo-variant 9x9'"),
    ("gtp:%s -c %s" % (shlex.quote(sys.executable), shlex.quote("while 1: print('=' * 1000, end='')")),
     "answered more than 100000 characters to 'tanbo-variant 9x9'"),  # no newline, ever
])
def test_an_engine_that_cannot_set_up_stops_the_match(capsys, spec, message):
    rc, out, err = run_match(capsys, spec, "random", "--games", "3", "--timeout", "5")
    assert rc == 1 and message in err and out == "" and "Traceback" not in err


def test_an_engine_that_cannot_start_stops_the_match(tmp_path, capsys):
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o644)
    rc, _, err = run_match(capsys, "gtp:%s" % script, "random", "--games", "1")
    # which() skips files without the execute bit: refused with the arguments
    assert rc == 2 and "no program" in err


@pytest.mark.parametrize("argv, message", [
    (("easy", "brutal"), "'brutal': not a level"),
    (("hard@pybadge", "easy"), "'hard@pybadge': no board 'pybadge' (boards: rp2040, samd51;"),
    (("hard@", "easy"), "'hard@': no board ''"),
    (("hard@0.05", "easy"), "'hard@0.05': slowness 0.05: must be a number from 0.1 to 100"),
    (("hard@101", "easy"), "'hard@101': slowness 101.0: must be a number from 0.1 to 100"),
    (("hard@x1", "easy"), "'hard@x1': no board 'x1' (boards: rp2040, samd51; or a slowness such as 1.7"),
    (("hard@1.234", "easy"), "'hard@1.234': no board '1.234'"),
    (("hard@1e1", "easy"), "'hard@1e1': no board '1e1'"),
    (("hard@-2", "easy"), "'hard@-2': no board '-2'"),
    (("hard@.5", "easy"), "'hard@.5': no board '.5'"),
    (("hard@\u0663", "easy"), "no board '\u0663'"),
    (("brutal@samd51", "easy"), "'brutal@samd51': not a level"),
    (("gtp:", "easy"), "'gtp:': not a level"),
    (("easy", "random", "--variant", "8x8"), "'8x8': unknown variant"),
    (("easy", "random", "--games", "0"), "--games: '0': expected a whole number of games from 1 to 100000"),
    (("gtp:/nonexistent", "easy"), "'gtp:/nonexistent': no program '/nonexistent' found"),
    (("gtp:'unclosed", "easy"), "\"gtp:'unclosed\": No closing quotation"),
    (("easy", "random", "--timeout", "0"), "--timeout: '0': expected a number of seconds above 0, at most 86400"),
    (("easy", "random", "--timeout", "nan"), "--timeout: 'nan': expected a number of seconds above 0, at most 86400"),
    (("easy", "random", "--timeout", "inf"), "--timeout: 'inf': expected a number of seconds above 0, at most 86400"),
    (("easy", "random", "--jobs", "0"), "--jobs: '0': expected a whole number of processes from 1 to 256"),
    (("easy", "random", "--jobs", "100000"), "--jobs: '100000': expected a whole number of processes from 1 to 256"),
    (("easy", "random", "--movetime", "0"), "--movetime: '0': expected a whole number of milliseconds from 1 to "
                                            "86400000"),
    (("easy", "random", "--movetime", "99999999999"), "--movetime: '99999999999': expected a whole number of "
                                                      "milliseconds from 1 to 86400000"),
])
def test_bad_engines_and_options_are_refused_before_playing(capsys, argv, message):
    rc, out, err = run_match(capsys, *argv)
    assert rc == 2 and message in err and out == ""


def test_record_to_a_file_or_below_one_is_refused(tmp_path, capsys):
    afile = tmp_path / "file.txt"
    afile.write_text("x")
    for path, why in ((afile, "is a file: give a folder"), (afile / "sub", "cannot create the folder")):
        rc, out, err = run_match(capsys, "easy", "random", "--games", "1", "--record", str(path))
        assert rc == 2 and "argument --record: %r" % str(path) in err and why in err and out == ""
    assert afile.read_text() == "x"


def test_a_refused_command_line_leaves_no_record_folder(tmp_path, capsys):
    record = tmp_path / "new" / "games"
    rc, out, err = run_match(capsys, "easy", "random", "--record", str(record), "--jobs", "0")
    assert rc == 2 and "--jobs: '0'" in err and not (tmp_path / "new").exists()
    rc, out, err = run_match(capsys, "easy", "random", "--games", "1", "--record", str(record))
    assert rc == 0 and os.listdir(str(record)) == ["game-001.txt"]


def test_openings_are_random_legal_plies_shared_by_each_pair_of_games():
    # The same seed and pair: the same opening; another pair or seed: another one.
    one = match.opening("9x9", 6, 5, 0)
    assert one == match.opening("9x9", 6, 5, 0) and len(one) == 6
    assert match.opening("9x9", 6, 5, 1) != one and match.opening("9x9", 6, 6, 0) != one
    g = Game("9x9")
    for m in one:
        assert g.is_legal(m)
        g.play(m)
    assert not g.over
    assert match.opening("9x9", 0, 5, 0) == []


def test_an_opening_never_ends_the_game():
    # 1d's 24 points end games within a few plies often: every drawn opening leaves it going.
    for pair in range(40):
        g = Game("1d")
        for m in match.opening("1d", match.max_opening("1d"), 3, pair):
            g.play(m)
        assert not g.over


def test_a_match_with_openings_swaps_colours_over_each_opening(tmp_path, capsys):
    rc, out, err = run_match(capsys, "medium", "easy", "--games", "4", "--opening", "5", "--seed", "2",
                             "--record", str(tmp_path))
    assert rc == 0, err
    games = [Game.from_record((tmp_path / ("game-%03d.txt" % i)).read_text()) for i in (1, 2, 3, 4)]
    texts = [(tmp_path / ("game-%03d.txt" % i)).read_text() for i in (1, 2, 3, 4)]
    for k in (0, 2):
        first, second = games[k].moves()[:5], games[k + 1].moves()[:5]
        assert first == second == match.opening("9x9", 5, 2, k // 2)
        assert "Seats: Black=medium White=easy" in texts[k] and "Seats: Black=easy White=medium" in texts[k + 1]
        assert "Opening: 5 random plies" in texts[k]
    assert games[0].moves()[:5] != games[2].moves()[:5]
    # the same command replays the same games
    again = tmp_path / "again"
    run_match(capsys, "medium", "easy", "--games", "4", "--opening", "5", "--seed", "2", "--record", str(again))
    for i in (1, 2, 3, 4):
        assert (again / ("game-%03d.txt" % i)).read_text() == texts[i - 1]


def test_a_gtp_engine_is_told_the_opening(tmp_path, capsys):
    # Told, it plays on the same board: no forfeit for an illegal move.
    cmd = "gtp:%s -m tanbo.gtp" % shlex.quote(sys.executable)
    rc, out, err = run_match(capsys, cmd, "easy", "--games", "2", "--opening", "8", "--record", str(tmp_path))
    assert rc == 0 and "forfeit" not in out + err, err
    for name in os.listdir(tmp_path):
        assert Game.from_record((tmp_path / name).read_text()).over


@pytest.mark.parametrize("argv, message", [
    (("--opening", "-1"), "--opening: '-1': expected a whole number of plies from 0 to 180"),
    (("--opening", "181"), "--opening: '181': expected a whole number of plies from 0 to 180"),
    (("--opening", "41"), "--opening 41: expected 0-40 random plies on 9x9"),
    (("--opening", "16", "--variant", "1d"), "--opening 16: expected 0-15 random plies on 1d"),
])
def test_a_bad_opening_is_refused_before_playing(tmp_path, capsys, argv, message):
    rc, out, err = run_match(capsys, "easy", "random", "--record", str(tmp_path / "rec"), *argv)
    assert rc == 2 and message in err and out == "" and not (tmp_path / "rec").exists()
