"""The commands' worker processes (tanbo_tools.workers.mapping): results as
``map`` gives them, a worker's error raised in the command, nothing left
running (the signals' side is in test_hostile.py)."""

import os

import pytest

from tanbo_tools import workers


def square_slowly(n):
    # later items finish first, so unordered results come back out of order
    import time
    time.sleep(0.02 * (5 - n % 5))
    return n * n


def fail_on_three(n):
    if n == 3:
        raise ValueError("three is bad")
    return n


def die_on_two(n):
    if n == 2:
        os._exit(7)
    return n


def pid_of_worker(_):
    return os.getpid()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_come_in_order_as_map_gives_them(jobs):
    with workers.mapping(jobs) as mapper:
        assert list(mapper(square_slowly, range(12))) == [n * n for n in range(12)]
        # the same workers serve a second map
        assert list(mapper(square_slowly, [7, 1])) == [49, 1]


def test_unordered_results_are_all_there():
    with workers.mapping(3, unordered=True) as imap:
        got = list(imap(square_slowly, range(10)))
    assert sorted(got) == [n * n for n in range(10)]


def test_a_map_left_early_does_not_feed_the_next_one():
    with workers.mapping(2) as mapper:
        for n, value in zip(range(2), mapper(square_slowly, range(100, 110))):
            assert value == (100 + n) ** 2
        assert list(mapper(square_slowly, [3, 4])) == [9, 16]


def test_a_workers_exception_is_raised_in_the_command_and_the_workers_end():
    seen = []
    with pytest.raises(ValueError, match="three is bad"):
        with workers.mapping(2) as mapper:
            seen.append(set(mapper(pid_of_worker, range(8))))
            list(mapper(fail_on_three, range(6)))
    assert len(seen[0]) <= 2
    for pid in seen[0]:  # each worker was waited for: no process, no zombie
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_a_worker_that_dies_is_an_error_naming_its_exit_code():
    with pytest.raises(RuntimeError, match="worker process ended \\(exit code 7\\)"):
        with workers.mapping(2) as mapper:
            list(mapper(die_on_two, range(5)))
