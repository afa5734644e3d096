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
import os
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
    parent = os.getpid()

    def remember(signum, frame):
        if signum == signal.SIGTERM and os.getpid() != parent:
            raise Terminated()  # a worker forked in the block, before it set its own: it stops
        came.append(signum)
    old = {s: signal.signal(s, remember) for s in signums if signal.getsignal(s) is not signal.SIG_IGN}
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
    """A ``map`` for the block: ``jobs`` worker processes' lazy map (results in order, or as
    they finish if ``unordered``), or the built-in ``map`` in this process for 1.

    The workers are ended and waited for when the block ends, however it ends
    (the caller has the results it wanted; an early return or an interrupt
    leaves nothing running). A worker's exception is raised here, as ``map``
    would raise it.
    """
    if jobs <= 1:
        yield map
        return
    workers = None
    try:
        with _held() as came:
            workers = _Workers(jobs)
        _stop(came)
        yield workers.unordered if unordered else workers.ordered
    except BaseException:
        if workers is not None:
            workers.end(True)
        raise
    workers.end(False)


class _Workers:
    """``jobs`` processes, each with a pipe of its own and one task at a time.

    Not ``multiprocessing.Pool``: its workers share one task queue behind a
    lock and its results pass through threads of this process, and a stop
    signal at the wrong moment left that lock taken or a thread waiting, so
    its ``terminate`` waited forever (seen as a Ctrl-C that never ended
    ``tanbo book``). Here a worker holds nothing another needs, and ending
    one is a signal and a bounded wait.
    """

    END_WAIT = 5  # seconds a worker has to end on SIGTERM before it is killed

    def __init__(self, jobs):
        import multiprocessing
        self.procs, self.conns, self.ended = [], [], False
        try:
            for _ in range(jobs):
                mine, theirs = multiprocessing.Pipe()
                proc = multiprocessing.Process(target=_serve, args=(theirs,), daemon=True)
                self.procs.append(proc)
                self.conns.append(mine)
                proc.start()
                theirs.close()
        except BaseException:
            self.end(True)
            raise

    def ordered(self, func, iterable):
        ahead, given = {}, 0
        for index, value in self._run(func, iterable):
            ahead[index] = value
            while given in ahead:
                yield ahead.pop(given)
                given += 1

    def unordered(self, func, iterable):
        for _, value in self._run(func, iterable):
            yield value

    def _run(self, func, iterable):
        """(index, result) of ``func`` over ``iterable`` as the workers finish them."""
        from multiprocessing.connection import wait
        tasks = enumerate(iterable)
        idle, busy, more = list(self.conns), {}, True
        try:
            while True:
                while more and idle:
                    try:
                        index, item = next(tasks)
                    except StopIteration:
                        more = False
                        break
                    conn = idle.pop()
                    conn.send((func, item))
                    busy[conn] = index
                if not busy:
                    return
                for conn in wait(list(busy)):
                    index = busy.pop(conn)
                    value = self._receive(conn)
                    idle.append(conn)
                    yield index, value
        except GeneratorExit:  # a map left early: its tasks' results are not the next map's
            for conn in busy:
                self._receive(conn, True)
            raise

    def _receive(self, conn, dropped=False):
        try:
            ok, value = conn.recv()
        except (EOFError, OSError):
            if dropped or self.ended:
                return None
            proc = self.procs[self.conns.index(conn)]
            proc.join(self.END_WAIT)
            raise RuntimeError("a worker process ended (exit code %s)" % proc.exitcode) from None
        if not ok and not dropped:
            raise value
        return value

    def end(self, stopping):
        """Every worker ended and waited for, the stop signals held meanwhile (a second Ctrl-C
        cannot orphan them); then one that came is raised, unless ``stopping`` already."""
        with _held() as came:
            self.ended = True
            for conn in self.conns:
                try:
                    conn.send(None)  # an idle worker's way out; a busy one gets SIGTERM below
                except OSError:
                    pass
            for proc in self.procs:
                if proc.pid is not None:
                    proc.join(0 if stopping else 0.5)
                    if proc.exitcode is None:
                        proc.terminate()
                        proc.join(self.END_WAIT)
                    if proc.exitcode is None:
                        proc.kill()
                        proc.join()
            for conn in self.conns:
                conn.close()
        if not stopping:
            _stop(came)


def _serve(conn):
    """A worker: tasks from ``conn`` until ``None`` or the pipe's end, each answered with
    (True, result) or (False, exception)."""
    _worker_start()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the command is gone
            return
        if task is None:
            return
        func, item = task
        try:
            out = (True, func(item))
        except Exception as e:
            out = (False, e)
        try:
            conn.send(out)
        except Exception as e:  # a result or exception that does not pickle
            conn.send((False, RuntimeError("%s: %s" % (type(e).__name__, e))))
