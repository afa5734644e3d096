"""The positions ``tanbo train --data FILE`` keeps, so a refit does not replay its games.

The file is JSON lines, written whole or not at all (:mod:`tanbo_files`)::

    {"format": "tanbo train data", "version": 1, "variant": "9x9", "seed": 0, "games": 400,
     "label": "outcome", "players": null}      the games that made it (one line)
    {"cpu_seconds": 1234.5}                     the CPU time they took
    [[[0, 2], [11, 37], [20, 1]], 1, 0]          a position: its features (index, value;
    ...                                          indices rising), its label, 1 if held out
    {"positions": 18342}                        the end: how many positions there are

The first line is how the command knows a file as its own: a file whose
first line is not such a header (a log, a JSON document, an empty file)
was not written by it and is never written over. Files of earlier runs,
whose header lacks the ``format`` and whose positions no end line counts,
are read as well.

Reading checks every line as a careful reader must, since the fit
believes what it reads: a line that is not JSON, a row of the wrong shape,
a feature index outside the evaluation's terms or out of order, a value
that is no whole number or too large, a label outside 0-1 (0 or 1 for
outcome labels), a number that is not finite, a file cut short. Each is
:class:`BadData` naming the file and the line.
"""

import json
import math

import tanbo_files as files

FORMAT = "tanbo train data"
VERSION = 1
MAX_LINE = 4096  # bytes a line may take: a position's 21 features take about 250
# A feature counts roots or points of a board (a 19x19 board's room is below 400,000); far past
# that the fit's numbers would lose their precision, so a value past it is damage, not a position.
MAX_VALUE = 10 ** 6
MAX_CPU = 1e9  # CPU seconds a file may say its games took (30 CPU-years)
# The header's fields besides its format: the games (tanbo train's options) the file holds.
KEY = ("variant", "seed", "games", "label", "players")


class BadData(ValueError):
    """A data file refused; the message names the file and the line."""


class _Refused(ValueError):
    """What is wrong with one line (the reader adds the file and the line)."""


def _constant(name):
    raise _Refused("%s is not a number a position holds" % name)


def _number(text):
    value = float(text)
    if not math.isfinite(value):
        raise _Refused("%s is not a finite number" % text[:20])
    return value


def _whole(text):
    if len(text) > 20:  # no count of the file is that long (and int() of 5,000 digits is refused)
        raise _Refused("a number of %d digits" % len(text))
    return int(text)


def _json(line):
    try:
        return json.loads(line, parse_constant=_constant, parse_float=_number, parse_int=_whole)
    except RecursionError:
        raise _Refused("nested too deep")
    except _Refused:
        raise
    except ValueError as exc:  # JSONDecodeError included
        raise _Refused("not JSON (%s)" % str(exc).split(":")[0])


def _is_int(v):
    return type(v) is int


def header(key):
    """The first line of a file holding the games ``key`` (a dict of :data:`KEY`)."""
    head = {"format": FORMAT, "version": VERSION}
    head.update((k, key[k]) for k in KEY)
    return json.dumps(head)


def _key_of(head):
    """The games (a dict of :data:`KEY`) a first line ``head`` (parsed) names, and whether the
    file is of the current format; None when it is no header of this command's files."""
    if not isinstance(head, dict):
        return None
    if "format" in head:
        if head.get("format") != FORMAT or set(head) != set(KEY) | {"format", "version"}:
            return None
        if head["version"] != VERSION:
            raise _Refused("format version %r, this program reads %d" % (head["version"], VERSION))
        key, current = {k: head[k] for k in KEY}, True
    else:  # a file of an earlier run: its games, label and players only when they were not the defaults
        if set(head) not in ({"variant", "seed", "games"}, set(KEY)):
            return None
        key, current = dict(head), False
        key.setdefault("label", "outcome")
        key.setdefault("players", None)
    if not (isinstance(key["variant"], str) and _is_int(key["seed"]) and _is_int(key["games"])
            and isinstance(key["label"], str) and (key["players"] is None or isinstance(key["players"], str))):
        return None
    return key, current


def _row(row, features, outcome):
    """``(features, label, held out)`` of a position line (parsed); _Refused saying what is wrong."""
    if not (isinstance(row, list) and len(row) == 3):
        raise _Refused("expected a position [features, label, held out], not %s" % _kind(row))
    x, y, h = row
    if not isinstance(x, list):
        raise _Refused("the features are %s, not a list of [index, value]" % _kind(x))
    out = []
    last = -1
    for pair in x:
        if not (isinstance(pair, list) and len(pair) == 2 and all(_is_int(v) for v in pair)):
            raise _Refused("feature %s is not [index, value] of whole numbers" % _short(pair))
        j, v = pair
        if not 0 <= j < features:
            raise _Refused("feature index %d outside 0-%d" % (j, features - 1))
        if j <= last:
            raise _Refused("feature index %d after %d: the indices rise" % (j, last))
        if not -MAX_VALUE <= v <= MAX_VALUE:
            raise _Refused("feature %d's value %d outside %d to %d" % (j, v, -MAX_VALUE, MAX_VALUE))
        out.append((j, v))
        last = j
    if type(y) not in (int, float) or not 0 <= y <= 1 or (outcome and y not in (0, 1)):
        raise _Refused("label %s: expected %s" % (_short(y), "0 or 1 (the side to move lost or won)"
                                                 if outcome else "a share from 0 to 1"))
    if not (_is_int(h) and h in (0, 1)):
        raise _Refused("held out %s: expected 0 or 1" % _short(h))
    return out, y, h


def _kind(v):
    if isinstance(v, list):
        return "a list of %d" % len(v)
    return _short(v)


def _short(v):
    text = json.dumps(v)
    return text if len(text) <= 24 else text[:20] + "..."


def _lines(f):
    """``(number, text)`` of each line of ``f``; _Refused for one too long, cut short or not UTF-8."""
    n = 0
    while True:
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            return
        n += 1
        if len(raw) > MAX_LINE:
            yield n, _Refused("more than %d bytes" % MAX_LINE)
            return
        if raw[-1:] != b"\n":
            yield n, _Refused("cut short: no end of line")
            return
        try:
            yield n, raw[:-1].decode("utf-8")
        except UnicodeError:
            yield n, _Refused("not UTF-8 text")
            return


def read(path, key, features):
    """``(training, held out, CPU seconds)`` of the data file at ``path`` when it holds the games
    ``key`` (a dict of :data:`KEY`): lists of (features, label) with ``features`` terms at most;
    None when there is no file or it is one of this command's with other games (it may be
    written over).

    BadData naming the file (and the line) when it is not this command's (it must be left as it
    is) or is damaged (it may not be fitted).
    """
    import os
    if not os.path.lexists(path):
        return None
    name = "--data %r" % path
    try:
        f = files.open_regular(path, "--data")
    except files.FileProblem as exc:
        raise BadData(str(exc))
    with f:
        lines = _lines(f)
        try:
            _, text = next(lines, (1, _Refused("it is empty")))
            if isinstance(text, _Refused):
                raise text
            found = _key_of(_json(text))
            why = "its first line is no header of tanbo train's data"
        except _Refused as exc:
            found, why = None, str(exc)
        if found is None:
            raise BadData("%s is not a data file of tanbo train (line 1: %s): it is left as it is; give "
                          "another file" % (name, why))
        theirs, current = found
        if theirs != key:
            return None
        return _positions(lines, name, features, key["label"] == "outcome", current)


def _positions(lines, name, features, outcome, current):
    """The positions after the header (``lines``: :func:`_lines` from line 2); BadData naming
    ``name`` and the line for the first damage."""
    train, held, cpu, end = [], [], 0.0, None
    number = 1
    try:
        for number, text in lines:
            if isinstance(text, _Refused):
                raise text
            if end is not None:
                raise _Refused("a line after the end line")
            row = _json(text)
            if isinstance(row, dict):
                if number == 2 and set(row) == {"cpu_seconds"}:
                    cpu = row["cpu_seconds"]
                    if type(cpu) not in (int, float) or not 0 <= cpu <= MAX_CPU:
                        raise _Refused("cpu_seconds %s: expected 0-%g" % (_short(cpu), MAX_CPU))
                    continue
                if current and set(row) == {"positions"}:
                    end = row["positions"]
                    if end != len(train) + len(held):
                        raise _Refused("the end line counts %s positions, the file holds %d"
                                       % (_short(end), len(train) + len(held)))
                    continue
                raise _Refused("an object where a position should be")
            x, y, h = _row(row, features, outcome)
            (held if h else train).append((x, y))
        if current and end is None:
            number += 1
            raise _Refused("cut short: no end line counting the positions")
    except _Refused as exc:
        raise BadData("%s line %d: %s; the file is damaged: remove it to play the games again"
                      % (name, number, exc))
    return train, held, cpu


def write(path, key, train, held, cpu):
    """Write the data file at ``path``: the games ``key``, ``cpu`` seconds, the positions.
    FileProblem naming it if it cannot be written (the file is then as it was)."""
    with files.replacing(path, "the data file", text=True) as f:
        f.write(header(key) + "\n")
        f.write(json.dumps({"cpu_seconds": round(cpu, 1)}) + "\n")
        for h, part in ((0, train), (1, held)):
            for x, y in part:
                f.write(json.dumps([x, y, h]) + "\n")
        f.write(json.dumps({"positions": len(train) + len(held)}) + "\n")
