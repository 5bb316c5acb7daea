"""Claimed work shared with helper threads that the calling thread never waits to wake.

A Numba parallel launch ends at a barrier: the calling thread returns only when every
thread of the pool has run its part, so one thread whose core wakes late holds the whole
launch up.  On the 2-core machine of docs/performance.md (a virtual machine: the host
must schedule an idle core again) that wake took 8-30 ms in stretches; a k-NN brute-force
search of 7.1 ms on one core took 4.4-5.2 ms launched after 0.25 s idle, and 18.7, 21.2
and 32.7 ms in three calls of fourteen; back to back, 9.6-9.9 ms for a while.

Work that claims its pieces from a counter (``refml_fast.runtime.claims``) needs no
barrier.  ``run_claimed`` hands it to helper threads (Python threads, each calling the
same kernel, which releases the GIL) and runs it on the calling thread at once.  Whoever
claims a piece runs it; the calling thread then waits only for the pieces a helper took,
never for a helper that had not started: a late helper finds the job closed and sleeps
again.  A launch so lasts about its serial time at worst (plus the piece a helper is on),
and half of it plus a wake when the helper comes in time.  Each piece writes only its own
outputs, so the values do not depend on who ran which piece.
"""

import os
import threading

import numba

_LOCK = threading.Lock()          # one shared launch at a time; a second caller runs alone
_COND = threading.Condition()     # guards _STATE and every job's counts
_STATE = {"helpers": 0, "generation": 0, "job": None}


class Job:
    """One shared launch: ``work(*args)``, taken by at most ``wanted`` helpers."""

    def __init__(self, work, args, wanted):
        self.work, self.args, self.wanted = work, args, wanted
        self.taken = 0         # helpers that took it
        self.active = 0        # helpers running it now
        self.closed = False    # the caller has run out of pieces: no helper starts any more
        self.error = None


def run_claimed(work, slots, *args):
    """``work(*args)`` on the calling thread and on ``slots - 1`` helper threads at once;
    ``work`` claims its pieces from a counter among ``args``, so each piece runs once,
    whoever runs it.  Returns when every piece is done, without waiting for a helper that
    had not started.  Alone on the calling thread when ``slots`` is 1, when another shared
    launch is under way, or when the kernels run as Python (``NUMBA_DISABLE_JIT``: the
    Python ``claim`` is not atomic)."""
    if slots <= 1 or numba.config.DISABLE_JIT or not _LOCK.acquire(blocking=False):
        return work(*args)
    try:
        job = Job(work, args, slots - 1)
        with _COND:
            start_helpers(slots - 1)
            _STATE["generation"] += 1
            _STATE["job"] = job
            _COND.notify_all()
        try:
            work(*args)
        finally:
            with _COND:
                job.closed = True
                while job.active:
                    _COND.wait()
                _STATE["job"] = None
        if job.error is not None:
            raise job.error
    finally:
        _LOCK.release()


def start_helpers(count):
    """Start helper threads until there are ``count`` (called holding _COND)."""
    while _STATE["helpers"] < count:
        thread = threading.Thread(target=helper_loop, args=(_STATE["generation"], _STATE),
                                  name=f"refml_fast-helper-{_STATE['helpers']}", daemon=True)
        thread.start()
        _STATE["helpers"] += 1


def helper_loop(seen, state):
    """A helper: sleep until ``state`` holds a new job; take it unless it closed or has its
    helpers."""
    while True:
        with _COND:
            while state["generation"] == seen:
                _COND.wait()
            seen = state["generation"]
            job = state["job"]
            if job is None or job.closed or job.taken >= job.wanted:
                continue
            job.taken += 1
            job.active += 1
        try:
            job.work(*job.args)
        except BaseException as error:   # handed to the caller, which raises it
            job.error = error
        finally:
            with _COND:
                job.active -= 1
                _COND.notify_all()


def forget_helpers():
    """In a forked child: the helper threads did not come along, nor may the locks."""
    global _LOCK, _COND
    _LOCK = threading.Lock()
    _COND = threading.Condition()
    _STATE.update(helpers=0, generation=0, job=None)


os.register_at_fork(after_in_child=forget_helpers)
