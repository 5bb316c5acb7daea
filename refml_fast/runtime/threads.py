"""When a kernel runs on the threads: ``run_parallel`` picks the parallel or the serial twin
of a kernel by the size of the work and by whether the cores are free right now.

The two twins compute the same values (each output entry by one thread, in the same
order), so this choice changes only the time.  What "free" means is measured: empty
launches time a core's hand-over, and /proc/self/task/*/schedstat tells whether a thread
outside Numba's pool (another library's spinning worker) is running.
"""

import ctypes
import os
import threading
import time

import numba
import numpy as np

from refml_fast.runtime.options import kernel

_LAUNCH = threading.Lock()
# After another library's parallel call (OpenBLAS's threads spin for ~0.1 s after each
# BLAS call) a launch waits for a time slice on a busy core: 4-8 ms on the AMD machine of
# earlier measurements, 2.9 ms on the Intel one, where the launches right after it took
# 0.01 ms (the spinning thread had lost its core).  Empty launches tell: PROBES faster than
# PROBE_SLOW, or one slower and then a quick one (the core handed over), the cores are taken
# as free for QUIET_FOR seconds; two slower, every launch runs serial for BUSY_FOR seconds.
# Serial work of SURE_SECONDS or more saves more than the wait costs: no probe (k-NN,
# 2,000 x 400: 29.6 ms on one core, 15.5 on two, 20-24 when the launch waited; on the Intel
# machine, right after scikit-learn's k-NN, 3,516 x 784 with k = 50: 21.2 ms serial, 12.9
# launched; SURE_SECONDS was 40 ms, and that search, about 30, had gone serial).  A size of
# 1 (the caller's threshold) is about UNIT_SECONDS of serial work unless the caller says so:
# a caller whose threshold is a fraction of a millisecond must, or it would launch without
# a probe at a few milliseconds of work and could wait longer than that (the Hessian of
# binary logistic 10,000 x 40, 8.4 times its 0.35 ms threshold, launched unprobed just
# after scikit-learn's fit: 4.6 ms instead of 0.5).
PROBE_SLOW, QUIET_FOR, BUSY_FOR, SLOW_LAUNCH_BUSY_FOR = 0.001, 0.02, 0.15, 0.03
SURE_SECONDS, UNIT_SECONDS = 0.012, 0.005
PROBES = 3                       # a spinning thread is off-core at times: up to three looks
_QUIET_UNTIL = [0.0]
_BUSY_UNTIL = [0.0]
_CHECKED_UNTIL = [0.0]
_SHARED = [False]                # the last look found a thread outside the pool running
_HELD_UNTIL = [0.0]              # other threads held cores during a launch: serial until then
HELD_FOR = 0.05
CHECK_EVERY, SHARED_SECONDS = 0.002, 0.005
MAX_THREADS_READ = 64            # about 5 us a thread
_WARM = [False]                  # the empty launch compiled (or loaded) and the threads up
WARMING = [False]                # filling the cache ahead: compile parallel twins of small work
_FASTEST = {}                    # (parallel kernel, size) -> fastest seconds per unit seen
MAX_SIZES_KEPT = 4096


def run_parallel(parallel, serial, size, *args, unit_seconds=UNIT_SECONDS):
    """``parallel(*args)`` for large work, ``serial(*args)`` otherwise; the two twins compute
    the same values (each output entry by one thread, in the same order).  ``size``: the
    work over the caller's threshold, where two threads start to pay, and ``unit_seconds``
    the serial seconds of a size of 1 (about).  Below 1 it runs serial; from SURE_SECONDS
    of serial work on, in parallel even if it must wait for a busy core; in between in
    parallel when ``cores_free``.

    One parallel launch at a time: Numba's workqueue threading layer (the one that is always
    available) aborts the whole process when two Python threads launch parallel kernels at
    once, as refml_fast's ensembles would with members such as GaussianNB or
    LogisticRegression fitted on threads.  A thread that finds a launch under way runs the
    serial twin instead of waiting.  So does a launch while the cores are busy
    (``cores_free``), and all work, however large, while another library's threads hold
    cores (``note_held_cores``).

    Work claimed piece by piece needs no twin and no probe: ``helpers.run_claimed``.
    """
    if size >= 1 and _LAUNCH.acquire(blocking=False):
        try:
            seconds = size * unit_seconds
            held = time.perf_counter() < _HELD_UNTIL[0]
            if not held and (seconds >= SURE_SECONDS or cores_free(seconds)):
                before = foreign_run_seconds() if seconds >= SHARED_SECONDS else None
                start = time.perf_counter()
                result = parallel(*args)
                elapsed = time.perf_counter() - start
                note_launch(parallel, size, elapsed)
                if before is not None and note_held_cores(before, foreign_run_seconds(),
                                                          elapsed):
                    compile_twin(serial, args)   # the next calls run it: compile it now
                return result
        finally:
            _LAUNCH.release()
        compile_twin(parallel, args)
    elif WARMING[0]:
        compile_twin(parallel, args)     # ``python -m refml_fast compile``: both twins
    return serial(*args)


def compile_twin(parallel, args):
    """Compile (or load) ``parallel`` for ``args`` now, when work that may use it ran serial
    before it ever ran: else its first launch, a later call's, pays the compilation (0.6 s
    for the k-NN search, inside a timed call of the benchmark, whose first call had run
    serial because the cores were busy)."""
    if isinstance(parallel, numba.core.dispatcher.Dispatcher) and not parallel.signatures:
        parallel.compile(tuple(numba.typeof(argument) for argument in args))
        if not _WARM[0]:         # and the empty launch that ``cores_free`` times
            empty_launch()
            _WARM[0] = True


def note_launch(parallel, size, seconds):
    """Keep the fastest seconds per unit of ``size`` seen for this kernel; a launch more
    than twice that slow (plus PROBE_SLOW) waited for a time slice, so the cores are taken
    as busy for SLOW_LAUNCH_BUSY_FOR seconds (empty launches do not always show it: a thread
    spinning on the other core yields to a short launch but shares its slice with a longer
    one).  Not BUSY_FOR: one slow launch in a run of quick ones (k-NN 1,467 x 784 right
    after scikit-learn's: 3.6 ms launched, 9.6 at worst, 6.4 serial) had sent the next ten
    calls, 150 ms of a benchmark's loop, to the serial twin.

    Kept per kernel and size: a size is an estimate, and the same kernel's seconds per unit
    differ from shape to shape (the k-NN search with k = 50 at d = 100 against k = 1 at
    d = 400: its launches, compared with the other shape's best, read as slow, and the
    search ran serial, 8.4-9.3 ms against 4.8-5.0)."""
    if len(_FASTEST) > MAX_SIZES_KEPT:
        _FASTEST.clear()
    per_unit = seconds / size
    best = _FASTEST.get((parallel, size))
    if best is None or per_unit < best:
        _FASTEST[(parallel, size)] = per_unit
    elif seconds > 2.0 * best * size + PROBE_SLOW:
        _BUSY_UNTIL[0] = time.perf_counter() + SLOW_LAUNCH_BUSY_FOR


def note_held_cores(before, after, elapsed):
    """After a launch of ``elapsed`` seconds: when threads outside Numba's pool ran for more
    than (threads - 1.5) x ``elapsed`` seconds meanwhile (``before`` and ``after``: their
    run times), they held the cores that the pool's threads were meant to have, and every
    launch runs serial for HELD_FOR seconds (True then).

    Seen on 2 cores: OpenBLAS's thread of scipy spins on one core for ~0.1 s after each
    BLAS call (scikit-learn's LogisticRegression makes such calls) without giving it up; a
    woken pool thread then joins the calling thread on the other core, and the two share
    it.  k-NN 9,502 x 32 right after that fit: 16-23 ms launched, 7.8 serial (4.5 launched
    on free cores).  A thread that spins but hands its core over (numpy's OpenBLAS after a
    matrix product, as measured here) runs little during the launch and holds nothing."""
    shared = sum(after[tid] - before[tid] for tid in after if tid in before)
    if shared <= (numba.get_num_threads() - 1.5) * elapsed:
        return False
    _HELD_UNTIL[0] = time.perf_counter() + HELD_FOR
    return True


def foreign_run_seconds():
    """{thread id: seconds on a core so far} for the threads ``foreign_thread_ids`` names
    (/proc/self/task/*/schedstat)."""
    seconds = {}
    for tid in foreign_thread_ids():
        try:
            with open("/proc/self/task/" + tid + "/schedstat", "rb") as stats:
                seconds[tid] = int(stats.read().split()[0]) * 1e-9
        except (OSError, ValueError, IndexError):
            pass
    return seconds


def cores_free(seconds=0.0):
    """Whether a parallel launch of about ``seconds`` of serial work gets every thread at
    once; called with ``_LAUNCH`` held.

    Below SHARED_SECONDS of work, not while a thread outside Numba's pool holds a core
    (``foreign_threads_running``, looked at once per CHECK_EVERY seconds).  After another
    library's call that is the check that matters: OpenBLAS's threads spin ~0.1 s after
    each BLAS call (numpy's after a matrix product), and a short launch whose thread must
    share a core with one took 2-4x its time, while the serial twin on this thread's own
    core ran at full speed (measured on 2 cores).  Longer work still launches: half of the
    shared core pays for one wait.  Then not when an empty launch, timed at most once per
    QUIET_FOR seconds, is slow (PROBE_SLOW)."""
    now = time.perf_counter()
    if now < _BUSY_UNTIL[0]:
        return False
    if not _WARM[0]:
        empty_launch()           # not timed: compiling and starting the threads take ms
        _WARM[0] = True
    if seconds < SHARED_SECONDS:
        if now >= _CHECKED_UNTIL[0]:
            _CHECKED_UNTIL[0] = now + CHECK_EVERY
            _SHARED[0] = bool(foreign_threads_running())
        if _SHARED[0]:
            return False
    if now < _QUIET_UNTIL[0]:
        return True
    slow = 0
    for _ in range(PROBES):
        start = time.perf_counter()
        empty_launch()
        finished = time.perf_counter()
        if finished - start > PROBE_SLOW:
            slow += 1
            if slow == 2:
                _BUSY_UNTIL[0] = finished + BUSY_FOR
                return False
        elif slow:
            break                # one slow launch, then a quick one: the core was handed over
    _QUIET_UNTIL[0] = finished + QUIET_FOR
    return True


def thread_id_function():
    """The C library's gettid (a thread's id as /proc/self/task names it), callable from a
    kernel, or None where there is none (then no thread is taken as foreign)."""
    try:
        gettid = ctypes.CDLL(None).gettid
    except (OSError, AttributeError, TypeError):
        return None
    gettid.restype, gettid.argtypes = ctypes.c_int, ()
    return gettid


THREAD_ID = thread_id_function()
_POOL = set()                    # ids of the threads that ran empty launches: Numba's pool


def empty_launch():
    """A trivial launch on every thread of Numba's pool, which it records in _POOL."""
    slots = np.zeros(numba.get_num_threads(), dtype=np.int64)
    if THREAD_ID is None:
        launch_on_every_thread(slots)
    else:
        launch_recording_threads(slots, THREAD_ID)
        _POOL.update(str(tid) for tid in slots)


@kernel(parallel=True)
def launch_on_every_thread(slots):
    """One trivial iteration per thread: the launch waits until every thread has run."""
    for t in numba.prange(slots.shape[0]):
        slots[t] = t


@kernel(parallel=True)
def launch_recording_threads(slots, thread_id):
    """``launch_on_every_thread``, each iteration writing its thread's id."""
    for t in numba.prange(slots.shape[0]):
        slots[t] = thread_id()


def foreign_threads_running():
    """The ids of this process's threads, other than this one and Numba's pool, that are
    running or waiting for a core (state R in /proc/self/task/*/stat): a spinning thread of
    another library's pool, or the caller's own busy threads."""
    return [tid for tid in foreign_thread_ids() if running(tid)]


def foreign_thread_ids():
    """The ids of this process's threads other than this one and Numba's pool.  Empty
    without /proc or gettid, before the pool is known, or in a process of more than
    MAX_THREADS_READ threads (reading every thread's state would cost more than a wait)."""
    if not _POOL:                     # stays empty without gettid
        return []
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return []
    if len(tids) > MAX_THREADS_READ:
        return []
    me = str(threading.get_native_id())
    return [tid for tid in tids if tid != me and tid not in _POOL]


def running(tid):
    """Whether thread ``tid`` of this process is in state R (False once it has ended)."""
    try:
        stat = os.open("/proc/self/task/" + tid + "/stat", os.O_RDONLY)
        try:
            text = os.read(stat, 1024)
        finally:
            os.close(stat)
    except OSError:
        return False
    end = text.rindex(b")")               # the name, in parentheses, may hold anything
    return text[end + 2:end + 3] == b"R"
