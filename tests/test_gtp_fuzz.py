"""Seeded fuzzing of the text protocol: a few hundred mixed valid and invalid
lines (bytes that are not UTF-8, control characters, huge numbers, Unicode
digits, ids, comments) must each get exactly one framed answer, a ``?``
must change nothing, and the engine must still answer at the end. The same
byte stream through ``python -m tanbo.gtp`` and the MicroPython unix port
must give the same answers as the engine in this process.

Also: property tests of the ``tanbo gtp`` and ``tanbo match`` options (no
traceback for any value of a documented option).
"""

import io
import random
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tanbo import VARIANTS
from tanbo.gtp import COMMANDS, GtpEngine, serve
from tanbo_tools import cli
from tanbo_tools.lab import match
from test_gtp import run_bytes

# Digits str.isdigit takes but the protocol does not: superscripts,
# Arabic-Indic, Devanagari, full-width.
UNICODE_DIGITS = ["\u00b2", "\u0661\u0669", "\u0967\u096f", "\uff11\uff13", "\u2079", "1\u00b9"]
JUNK_BYTES = [b"\xff", b"\xfe\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf8\x88\x80\x80\x80",
              b"\x80", b"\xf4\x90\x80\x80"]
CONTROLS = [b"\x00", b"\x01", b"\x07", b"\x08", b"\t", b"\x0b", b"\x0c", b"\r", b"\x1b", b"\x7f"]
WORDS = ["b", "w", "black", "white", "3", "x", "B", "pass", "resign", "PASS", "random", "easy", "none", "0",
         "-1", "nan", "", "#", "=", "?", "\u00e9", "\u200b", "\u3000", "\u00a0", "name\u3000", "D4", "h7", "b8", "a1", "z9", "j10", "151", "333", "17"]
NUMBERS = ["9", "13", "19", "7", "11", "15", "0019", "00", "1" + "0" * 5000, "9" * 40, "4294967296", "-9",
           "1e3", "0x13", "+19", " 19"]


def random_token(rng, variant):
    """One argument: a word, a point of the board, a number or junk."""
    kind = rng.randrange(10)
    if kind < 3:
        return rng.choice(WORDS)
    if kind < 6:
        g = variant
        return g.format_point(rng.randrange(g.size)).lower() if rng.random() < 0.3 else \
            g.format_point(rng.randrange(g.size))
    if kind < 8:
        return rng.choice(NUMBERS + UNICODE_DIGITS)
    return rng.choice(["Q99", "A" * rng.randrange(1, 300), "tanbo-" + str(rng.randrange(99)), "\u0661",
                       "X.O/.../... X", "........./" * 8 + "......... O"])


def random_line(rng, engine):
    """One input line as bytes: mostly commands (some right, most wrong), then junk around them."""
    variant = engine.game.variant
    pick = rng.randrange(20)
    if pick < 3 and engine.game.winner is None:  # a legal move, so games go on and undo has work
        words = ["play", "bw34"[engine.game.to_move - 1], variant.format_point(rng.choice(engine.game.legal_moves()))]
    elif pick < 5:
        words = ["genmove", rng.choice(["b", "w", "1", "2", "3", "4", "x"])]
    elif pick < 6:
        words = ["tanbo-position", engine.game.position()]  # a real position text, maybe mangled below
    elif pick < 7:
        words = [rng.choice(["boardsize", "tanbo-variant"]), rng.choice(NUMBERS + list(VARIANTS) + UNICODE_DIGITS)]
    else:
        words = [rng.choice(COMMANDS + ("bogus", "NAME", "komi", "final_score"))]
        words += [random_token(rng, variant) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))]
    if rng.random() < 0.2:
        words.insert(0, rng.choice(["1", "42", "007", "9" * 30, "\u00b2", "-3", "1.5"]))
    line = " ".join(words).encode()
    mangle = rng.randrange(12)
    if mangle == 0:  # bytes that are not UTF-8, anywhere
        at = rng.randrange(len(line) + 1)
        line = line[:at] + rng.choice(JUNK_BYTES) + line[at:]
    elif mangle == 1:  # control characters inside
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(line) + 1)
            line = line[:at] + rng.choice(CONTROLS) + line[at:]
    elif mangle == 2:
        line = rng.choice([b"", b"   ", b"\t", b"# a comment", b"#", b"\x00\x01", b"\r"]) + \
            (b" # " + line if rng.random() < 0.5 else b"")
    elif mangle == 3:
        line = line + b" # trailing \xff comment"
    elif mangle == 4:
        line = line.replace(b" ", b"\t" * rng.randrange(1, 3))
    elif mangle == 5:
        line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b"")  # one line
    return line + rng.choice([b"\n", b"\n", b"\r\n"])


def expected_id(line):
    """The id an answer must echo, or None for a line that gets no answer (independent of tanbo.gtp)."""
    data = bytes(c for c in line.split(b"#")[0] if c >= 32 and c != 127 or c == 9)
    words = data.split()
    if not words:
        return None
    first = words[0]
    return first.decode() if all(48 <= c <= 57 for c in first) else ""


def snapshot(engine):
    """Everything a ``?`` must leave alone."""
    g = engine.game
    return (g.variant.name, engine.handle("tanbo-position"), engine.handle("tanbo-record"), g.winner,
            engine.level, engine.movetime_ms, engine.done)


def fuzz_lines(seed, count):
    """``count`` random lines (bytes) from ``seed``, driven by an engine so many moves are legal."""
    rng = random.Random(seed)
    shadow = GtpEngine("9x9", level="random", seed=seed)
    lines = []
    while len(lines) < count:
        line = random_line(rng, shadow)
        if b"quit" in line:
            continue  # quit would end the session early: it is tested in test_gtp.py
        shadow.handle(line)
        lines.append(line)
    return lines + [b"name\n"]


def check_session(seed, count):
    """Feed the lines one at a time, checking framing and state; returns (lines, answered, refused, transcript)."""
    engine = GtpEngine("9x9", level="random", seed=seed)
    lines = fuzz_lines(seed, count)
    answered = refused = 0
    transcript = []
    for line in lines:
        before = snapshot(engine)
        answer = engine.handle(line)
        want_id = expected_id(line)
        if want_id is None:
            assert answer is None, (line, answer)
            continue
        answered += 1
        transcript.append(answer)
        assert answer[0] in "=?" and answer.endswith("\n\n"), (line, answer)
        assert "\n\n" not in answer[:-2], (line, answer)
        assert answer[1:1 + len(want_id)] == want_id and answer[1 + len(want_id)] in " \n", (line, want_id, answer)
        assert "internal error" not in answer and "int()" not in answer and "Traceback" not in answer, (line, answer)
        if answer[0] == "?":
            refused += 1
            assert snapshot(engine) == before, (line, answer)
    assert transcript[-1] == "= Tanbo\n\n"  # still alive
    return lines, answered, refused, "".join(transcript)


SEEDS = (1, 2, 3)


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzzed_lines_get_one_framed_answer_and_refusals_change_nothing(seed):
    lines, answered, refused, _ = check_session(seed, 300)
    # The mix really is mixed: most lines answered, many refused, many accepted.
    assert answered > 200 and 80 < refused < answered - 40
    assert sum(1 for line in lines if any(j in line for j in JUNK_BYTES)) > 10


def run_fuzz(exe, seed, lines, heap=None, **extra):
    proc = run_bytes(exe, ["--variant", "9x9", "--level", "random", "--seed", str(seed)], b"".join(lines), heap,
                     **extra)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr[-2000:]
    return proc.stdout.decode()


def test_fuzzed_bytes_through_python_m_tanbo_gtp():
    lines, _, _, want = check_session(SEEDS[0], 300)
    assert run_fuzz(sys.executable, SEEDS[0], lines, LC_ALL="en_US.UTF-8") == want


def test_fuzzed_bytes_through_micropython(micropython_exe):
    lines, _, _, want = check_session(SEEDS[1], 120)
    # The session's switch to 19x19 needs its tables in one piece; with
    # the resumable search's code (tanbo.ai, issue 24: 1.2 KB more of this
    # port's heap at rest) 192K ran out there (the old code needed 182K).
    # This port compiles tanbo.ai from source here, so even its comments
    # move the need: at 2b196fb it passes at 200K and fails at 198K (the
    # same in any checkout since run_bytes's path is relative). With the
    # search's root lists and the position reader's byte table (issue 33)
    # 208K fails and 212K passes. 224K leaves room for the collector's
    # noise, which moves with the environment on the stack, and for the
    # next lines of the engine.
    assert run_fuzz(micropython_exe, SEEDS[1], lines, "224K") == want


def test_serve_takes_bytes_streams():
    out = io.StringIO()
    serve(GtpEngine("9x9"), io.BytesIO(b"1 name\n\xff\n2 name"), out)
    assert out.getvalue() == "=1 Tanbo\n\n? '\\xff': not ASCII (commands, colours, points and numbers are)\n\n=2 Tanbo\n\n"


# -- command-line options: no traceback for any value -----------------------------------
def run_cli(argv):
    try:
        return cli.main(argv)
    except SystemExit as e:  # argparse's own refusals
        return e.code


# Any text but NUL-free paths for --record (created relative to a temp folder).
VALUES = st.one_of(st.text(max_size=30), st.sampled_from(UNICODE_DIGITS + NUMBERS + ["nan", "inf", "-inf", "1e400"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["--variant", "--level", "--seed", "--movetime"]), value=VALUES)
def test_tanbo_gtp_options_never_give_a_traceback(monkeypatch, capsys, option, value):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"name\n")))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO()))
    rc = run_cli(["gtp", "%s=%s" % (option, value)])
    assert rc in (0, 2)
    assert "Traceback" not in capsys.readouterr().err


def unplayed_game(task):
    """What match's _play_task returns, without playing (module level: --jobs pickles it)."""
    return task[3], True, "", 10, [0.0, 1, 0.0, 1], None, [0] * (2 * match.STATS), 1


def match_games(value):
    try:
        return int(value)
    except ValueError:
        return 0


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["A", "B", "--variant", "--games", "--seed", "--movetime", "--record", "--jobs",
                               "--timeout", "--ponder-ms"]),
       value=VALUES)
def test_tanbo_match_options_never_give_a_traceback(monkeypatch, tmp_path, capsys, option, value):
    # Games are not played: the option checks are under test, not the engine.
    monkeypatch.setattr(match, "_play_task", unplayed_game)
    monkeypatch.chdir(tmp_path)
    if option == "--record":
        value = value.replace("/", "_").replace("..", "__") or "_"
    players = ["random", "random"]
    argv = ["match"]
    if option == "--games":
        assume(match_games(value) <= 100)  # a valid huge count would only take long
    if option in ("A", "B"):
        players["AB".index(option)] = "gtp:" + value if value.startswith("g") else value
        argv += ["--"] + players + ["--games", "1"]
    else:
        argv += players + ["--games", "1", "%s=%s" % (option, value)] if option != "--games" else \
            players + ["%s=%s" % (option, value)]
    rc = run_cli(argv)
    assert rc in (0, 2)
    assert "Traceback" not in capsys.readouterr().err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.lists(st.one_of(st.sampled_from(["--variant", "--level", "--seed", "--movetime", "--colour"]), VALUES),
                     max_size=5))
def test_python_m_tanbo_gtp_arguments_never_give_a_traceback(monkeypatch, capsys, argv):
    from tanbo import gtp
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"name\n")))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO()))
    assert gtp.main(argv) in (0, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err and (err == "" or err.startswith("tanbo.gtp: "))


def test_serve_survives_a_text_stream_that_cannot_decode():
    """CircuitPython's stdin has no .buffer: its readline raises on bytes that are not UTF-8."""
    class Strict:
        lines = ["1 name\n", UnicodeError, "2 name\n", ""]

        def readline(self):
            line = self.lines.pop(0)
            if line is UnicodeError:
                raise UnicodeError()
            return line

    out = io.StringIO()
    serve(GtpEngine("9x9"), Strict(), out)
    assert out.getvalue() == ("=1 Tanbo\n\n? '\\xff': not ASCII (commands, colours, points and numbers are)\n\n"
                              "=2 Tanbo\n\n")
