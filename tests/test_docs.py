"""README.md and docs/ cannot drift from the code: every ``tanbo`` command line they show
parses with the CLI's own parser (and the quick, safe ones run), every ```python block runs,
and every link to a file of the project (and its #heading) exists."""

import argparse
import os
import re
import shlex

import pytest

from tanbo_tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(os.path.join("docs", n) for n in os.listdir(os.path.join(ROOT, "docs"))
                              if n.endswith(".md"))
# Linked from README.md, written on another branch (the lead merges it).
ELSEWHERE = {"docs/puzzles.md"}
# A usage line (choices, placeholders like DIR or N), not a command to run as written.
SYNOPSIS = re.compile(r"\[|\||\.\.\.|…|(^| )[A-Z][A-Z_]*( |$)")


def text(doc):
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        return f.read()


def fences(doc):
    """``(language, body)`` of each fenced block of ``doc``."""
    return re.findall(r"^ *```(\w*)\n(.*?)^ *```", text(doc), re.S | re.M)


def commands(doc):
    """The ``tanbo`` command lines of ``doc``: code-block lines and inline code spans,
    split at ``&&``, each a token list after ``tanbo``. A bare ``tanbo match`` inline
    names the command in a sentence; in a code block it is a command line."""
    found = []
    lines = []
    for lang, body in fences(doc):
        if lang in ("", "sh", "console"):  # not python, nor ```text (a command's output)
            lines += [(line, 1) for line in body.splitlines()]
    outside = re.sub(r"^ *```.*?^ *```", "", text(doc), flags=re.S | re.M)
    lines += [(span, 2) for span in re.findall(r"`(tanbo [^`]+)`", outside)]
    for line, least in lines:
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:
            continue  # not shell: a table cell, a GTP line
        part = []
        for t in tokens + ["&&"]:
            if t == "&&":
                if part[:1] == ["tanbo"] and len(part) > least and part[1] in cli.COMMANDS:
                    found.append(part[1:])
                part = []
            else:
                part.append(t)
    return found


ALL = [(doc, argv) for doc in DOCS for argv in commands(doc)]


def test_the_documents_show_every_command():
    shown = {argv[0] for _, argv in ALL}
    assert shown == set(cli.COMMANDS), "not shown in README.md or docs/: %s" % (set(cli.COMMANDS) - shown)


def options_of(parser, command):
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {s for a in sub.choices[command]._actions for s in a.option_strings}


@pytest.mark.parametrize("doc, argv", ALL, ids=["%s: %s" % (d, " ".join(a)) for d, a in ALL])
def test_each_command_line_parses(doc, argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # argument checks look at output paths relative to here
    parser = cli.make_parser(argv)
    line = " ".join(argv)
    if SYNOPSIS.search(line):
        unknown = {t.split("=")[0] for t in argv if t.startswith("--")} - options_of(parser, argv[0])
        assert not unknown, "%s: tanbo %s has no %s" % (doc, argv[0], ", ".join(sorted(unknown)))
        return
    try:
        parser.parse_args(argv)
    except SystemExit:
        pytest.fail("%s: `tanbo %s` is refused: %s" % (doc, line, capsys.readouterr().err.strip()))


def quick(argv):
    """Whether running ``argv`` is safe and takes seconds: headless simulator runs and a
    short CPython-only bench (nothing touches a drive, a board or the repository)."""
    if argv[0] == "sim":
        return "--headless" in argv
    if argv[0] == "bench":
        return "--no-micropython" in argv and "--no-ai" in argv and "--out" not in argv
    return False


RUN = [(doc, argv) for doc, argv in ALL if quick(argv)]


@pytest.mark.parametrize("doc, argv", RUN, ids=["%s: %s" % (d, " ".join(a)) for d, a in RUN])
def test_quick_command_lines_run(doc, argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    if argv[0] == "sim" and "--nvm" not in argv:
        argv = argv + ["--nvm", str(tmp_path / "board.nvm")]  # a fresh board, not the user's saves
    assert cli.main(argv) == 0, capsys.readouterr().err
    if "--screenshot" in argv:
        assert os.path.getsize(argv[argv.index("--screenshot") + 1]) > 0


PYTHON = [(doc, i, body) for doc in DOCS for i, (lang, body) in enumerate(fences(doc)) if lang == "python"]


@pytest.mark.parametrize("doc, index, body", PYTHON, ids=["%s block %d" % (d, i) for d, i, _ in PYTHON])
def test_each_python_example_runs(doc, index, body):
    exec(compile(body, "%s (block %d)" % (doc, index), "exec"), {"__name__": "__doc_example__"})


def anchors(doc):
    """GitHub's ids of the headings of ``doc`` (a repeated heading's with -1, -2, ...)."""
    out = set()
    for heading in re.findall(r"^#+ (.*)$", text(doc), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = 0
        while (slug + "-%d" % n if n else slug) in out:
            n += 1
        out.add(slug + "-%d" % n if n else slug)
    return out


def links(doc):
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", text(doc))
            if not re.match(r"[a-z]+:", target)]


LINKS = [(doc, target) for doc in DOCS for target in links(doc)]


@pytest.mark.parametrize("doc, target", LINKS, ids=["%s -> %s" % lt for lt in LINKS])
def test_each_link_leads_somewhere(doc, target):
    path, _, anchor = target.partition("#")
    full = os.path.normpath(os.path.join(ROOT, os.path.dirname(doc), path)) if path else os.path.join(ROOT, doc)
    rel = os.path.relpath(full, ROOT).replace(os.sep, "/")
    if rel in ELSEWHERE and not os.path.exists(full):
        return  # not merged yet; checked like any other once it is
    assert os.path.exists(full), "%s links to %s: no such file" % (doc, target)
    if anchor:
        assert anchor in anchors(rel), "%s links to %s: no such heading" % (doc, target)


def test_the_readme_stays_short():
    """The front page a newcomer reads in minutes; the depth goes to docs/."""
    assert len(text("README.md").splitlines()) < 200
