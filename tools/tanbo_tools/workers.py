"""Worker processes that stop with their command, and the signals that stop it.

A long command (``train``, ``book``, ``match``, ``puzzles``) stops at once
on Ctrl-C (SIGINT: KeyboardInterrupt, exit 130) or SIGTERM
(:class:`Terminated`, exit 143): 128 plus the signal's number, as a shell
reports a process the signal ended and as the simulator's headless run
exits. Its files are written whole or not at all (:mod:`tanbo_files`),
so a stop leaves what was there before.

`mapping` is the one way the commands start worker processes. A worker
ignores SIGINT (a terminal's Ctrl-C reaches the whole process group: the
command decides for its workers) and raises :class:`Terminated` on SIGTERM,
so its ``finally`` blocks run (a match's engines are ended with it). The
block, however it ends, terminates the workers and waits for them,
the stop signals held off meanwhile, so a second Ctrl-C cannot orphan them.
"""

import contextlib
import signal
import threading

STOPS = (signal.SIGINT, signal.SIGTERM)


class Terminated(SystemExit):
    """SIGTERM came: the command stops, exit 143."""

    def __init__(self):
        super().__init__(128 + signal.SIGTERM)


def _terminate(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def stop_on_sigterm():
    """SIGTERM raises :class:`Terminated` while the block runs (the main thread only; a SIGTERM
    this process was started ignoring stays ignored, as Python leaves an ignored SIGINT)."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.getsignal(signal.SIGTERM) if main else None
    if old is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _worker_start():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminate)


@contextlib.contextmanager
def _held(signums=STOPS):
    """``signums`` remembered, not acted on, while the block runs: it gets the list of those that
    came (the caller raises the first, see :func:`_stop`, unless it is stopping already)."""
    came = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return
    old = {s: signal.signal(s, lambda signum, frame: came.append(signum)) for s in signums
           if signal.getsignal(s) is not signal.SIG_IGN}
    try:
        yield came
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def _stop(came):
    """Raise what the first stop signal in ``came`` (if any) raises."""
    if came:
        if came[0] == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated()


@contextlib.contextmanager
def mapping(jobs, unordered=False):
    """A ``map`` for the block: ``jobs`` worker processes' ``imap`` (``imap_unordered`` if
    ``unordered``: results as they finish), or the built-in ``map`` in this process for 1.

    The workers are terminated and waited for when the block ends, however it
    ends (the caller has the results it wanted; an early return or an
    interrupt leaves nothing running).
    """
    if jobs <= 1:
        yield map
        return
    import multiprocessing
    # Workers are forked with SIGINT only remembered: one that a Ctrl-C reached before its
    # initializer ran could die holding the task queue's lock, and the pool's end wait forever.
    with _held((signal.SIGINT,)) as came:
        workers = multiprocessing.Pool(jobs, initializer=_worker_start)
    try:
        _stop(came)
        yield workers.imap_unordered if unordered else workers.imap
    except BaseException:
        _end(workers, True)
        raise
    _end(workers, False)


def _end(workers, stopping):
    with _held() as came:
        workers.terminate()
        workers.join()
    if not stopping:
        _stop(came)
