"""refml_fast's plumbing under every kernel (issue 12): the scans over the float bits (the
finiteness check behind every estimator's validation and the largest magnitude behind the
solvers' stopping rules give the answers of the plain float loops they replaced, NaN,
infinities and signed zeros included), and the kernel cache, dropped whole when any source
changes."""

import pytest

pytestmark = pytest.mark.fast


def plain_non_finite(X):
    import numpy as np

    return bool(np.isnan(X).any()), bool(np.isinf(X).any())


def plain_largest(X):
    import numpy as np

    largest = 0.0
    for value in np.asarray(X).ravel():
        if abs(value) > largest:   # False for NaN: NaN entries are passed over
            largest = abs(value)
    return largest


def arrays():
    import numpy as np

    rng = np.random.default_rng(3)
    base = rng.normal(size=(37, 11)) * 10.0 ** rng.integers(-300, 300, size=(37, 11))
    yield base
    for specials in ([np.inf], [-np.inf], [np.nan], [np.nan, np.inf], [-0.0, np.nan],
                     [np.finfo(float).max, -np.finfo(float).tiny]):
        X = base.copy()
        for value in specials:
            X[rng.integers(37), rng.integers(11)] = value
        yield X
    yield np.full((3, 2), np.nan)
    yield np.array([[-0.0, 0.0]])
    yield base[:, 2:9]                                   # not C-contiguous


def test_non_finite_tells_nan_and_infinity_apart_like_numpy():
    import numpy as np

    from refml_fast.core.arrays import non_finite

    for X in arrays():
        has_nan, has_infinity = non_finite(np.ascontiguousarray(X))
        expected_nan, expected_infinity = plain_non_finite(X)
        assert has_nan == expected_nan
        if not has_nan:          # the scan stops at the first NaN
            assert has_infinity == expected_infinity


@pytest.mark.fast
def test_integer_labels_are_encoded_as_numpys_unique_encodes_them():
    """``encode_integer_labels``: the same classes (the same Python values and types) and
    codes as np.unique, for every integer width, signed and unsigned, ranges counted in
    O(n) and ranges too wide for it (and uint64 labels past int64), and bools."""
    import numpy as np

    from refml_fast.core.arrays import encode_integer_labels

    rng = np.random.default_rng(12)
    dtypes = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64, np.bool_]
    for trial in range(900):
        dtype, n = dtypes[trial % len(dtypes)], int(rng.integers(1, 200))
        if dtype == np.bool_:
            y = rng.integers(0, 2, size=n).astype(bool)
        else:
            info = np.iinfo(dtype)
            spread = int(rng.choice([1, 3, 100, 10 ** 6, 2 ** 62]))
            lowest, highest = max(int(info.min), -2 ** 62), min(int(info.max), 2 ** 62)
            base = int(rng.integers(lowest, max(lowest + 1, highest - spread)))
            y = np.clip(base + rng.integers(0, spread, size=n), info.min, info.max).astype(dtype)
            if dtype == np.uint64 and trial % 2:
                y = y + np.uint64(2 ** 63)                  # past int64: np.unique's path
        classes, codes = encode_integer_labels(y)
        expected, inverse = np.unique(y, return_inverse=True)
        assert classes == expected.tolist()
        assert [type(c) for c in classes] == [type(c) for c in expected.tolist()]
        assert codes.dtype == np.int64 and np.array_equal(codes, inverse.reshape(-1))


def test_largest_magnitude_is_the_plain_loops_maximum():
    from refml_fast.linear.least_squares import largest_magnitude

    for X in arrays():
        assert largest_magnitude(X) == plain_largest(X)
        assert largest_magnitude(X[0]) == plain_largest(X[0])


def test_a_change_of_any_source_drops_every_cached_kernel(tmp_path):
    """Numba checks a cached kernel against its own file only; refml_fast drops its whole
    cache when the digest of the sources changes (a kernel inlines kernels of other
    modules), and keeps it while the digest is the same."""
    from refml_fast.runtime import cache as _config

    ours = tmp_path / "refml_fast" / "__pycache__"
    theirs = tmp_path / "other" / "__pycache__"
    for folder in (ours, theirs):
        folder.mkdir(parents=True)
        (folder / "m.f-1.py311.nbi").write_text("index")
        (folder / "m.f-1.py311.1.nbc").write_text("code")
    _config.drop_stale_kernels(places=[str(tmp_path)], digest="first")
    assert sorted(p.name for p in ours.iterdir()) == []
    assert len(list(theirs.iterdir())) == 2                 # not this package's
    assert (tmp_path / _config.SOURCES_MARK).read_text() == "first"
    (ours / "m.g-2.py311.nbi").write_text("index")          # compiled since
    _config.drop_stale_kernels(places=[str(tmp_path)], digest="first")
    assert [p.name for p in ours.iterdir()] == ["m.g-2.py311.nbi"]
    _config.drop_stale_kernels(places=[str(tmp_path)], digest="second")
    assert list(ours.iterdir()) == []


def test_the_sources_digest_changes_with_any_source_file(tmp_path):
    from refml_fast.runtime import cache as _config

    fast, reference = tmp_path / "refml_fast", tmp_path / "refml"
    for folder in (fast, reference):
        folder.mkdir()
        (folder / "a.py").write_text("A = 1\n")
    (reference / "notes.txt").write_text("not a source")
    folders = [str(fast), str(reference)]
    before = _config.sources_digest(folders)
    (reference / "notes.txt").write_text("changed, still not a source")
    assert _config.sources_digest(folders) == before
    (reference / "a.py").write_text("A = 2\n")               # e.g. a constant a kernel reads
    assert _config.sources_digest(folders) != before
    assert len(_config.sources_digest()) == 64                # the installed packages


@pytest.mark.fast
def test_the_parallel_and_serial_twins_give_the_same_answers(monkeypatch):
    """Every estimator whose kernels have a parallel twin, run with every size threshold at
    0 (all parallel) and at infinity (all serial): the same floats."""
    import numpy as np

    import refml_fast
    from refml_fast.density import kernels as _kernels
    from refml_fast.ensemble import committees as ensemble
    from refml_fast.linear import logistic_binary as binary
    from refml_fast.linear import logistic_hessian as hessian
    from refml_fast.linear import logistic_multinomial as multinomial
    from refml_fast.neighbors import kdtree as _kdtree
    from refml_fast.neighbors import knn as neighbors
    from refml_fast.neighbors import rows as _knn_rows
    from refml_fast.runtime import threads
    from refml_fast.svm import kernel_rows as _kernel_rows
    from refml_fast.svm import svc as svm

    rng = np.random.default_rng(3)
    X = rng.normal(size=(700, 6))
    y = (X[:, 0] + rng.normal(size=700) > 0).astype(int)
    y3 = np.digitize(X[:, 1] + 0.5 * rng.normal(size=700), [-0.5, 0.5])
    wide = rng.normal(size=(1000, 40))           # rows of 40,000 products: SVC's threads
    wide_y = (wide[:, 0] + wide[:, 1] + rng.normal(size=1000) > 0).astype(int)

    def answers():
        knn = refml_fast.KNeighborsClassifier(n_neighbors=5, algorithm="brute").fit(X, y)
        tree = refml_fast.KNeighborsClassifier(n_neighbors=5, algorithm="kd_tree")
        tree.fit(X[:, :2], y)
        found = [
            refml_fast.SVC(kernel="rbf").fit(X, y).decision_function(X),
            refml_fast.SVC(kernel="poly", C=10.0).fit(wide, wide_y).dual_coef_,
            refml_fast.GaussianNB().fit(X, y3).predict_proba(X),
            refml_fast.KernelDensity(bandwidth=0.7).fit(X).score_samples(X),
            *knn.kneighbors(X), *tree.kneighbors(X[:, :2]),
            refml_fast.RandomForestClassifier(n_estimators=8, random_state=0)
            .fit(X, y).predict_proba(X),
            refml_fast.LogisticRegression().fit(X, y).coef_,
            refml_fast.LogisticRegression(solver="newton").fit(X, y).coef_,
            refml_fast.LogisticRegression().fit(X, y3).coef_,
        ]
        return [np.asarray(a).tolist() for a in found]

    sizes = [(_kernels, "PARALLEL_WORK"), (svm, "SCORES_FROM"),
             (multinomial, "PARALLEL_UNITS"), (hessian, "PARALLEL_WORK"),
             (binary, "PARALLEL_ENTRIES"), (_knn_rows, "PARALLEL_ENTRIES"),
             (ensemble, "PARALLEL_VOTES"), (_kdtree, "LAUNCH_SECONDS"),
             (_kernel_rows, "THREADS_FROM"), (_kernel_rows, "TRANSPOSE_THREADS_FROM")]
    for module, name in sizes:
        monkeypatch.setattr(module, name, 10 ** 15)
    monkeypatch.setattr(neighbors, "search_seconds", lambda *shape: 0.0)
    serial = answers()
    for module, name in sizes:
        monkeypatch.setattr(module, name, 1e-9)      # every size far above the sure one
    monkeypatch.setattr(neighbors, "search_seconds", lambda *shape: 1e3)
    monkeypatch.setattr(_kdtree, "TIMED_QUERIES", 1)  # the rest, timed: launched unprobed
    monkeypatch.setattr(threads, "SURE_SECONDS", 0.0)
    assert answers() == serial


@pytest.mark.fast
def test_no_function_is_compiled_twice_under_different_options():
    """Numba's cache keys a compiled kernel by its function and signature, not by options
    such as parallel=True: two dispatchers of one function share cache entries, and a
    serial twin could run the parallel code.  Every kernel of refml_fast has its own."""
    import importlib
    import pkgutil

    import numba.core.registry

    import refml_fast

    owners = {}
    for info in pkgutil.walk_packages(refml_fast.__path__, "refml_fast."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, numba.core.registry.CPUDispatcher):
                owners.setdefault(value.py_func, set()).add(id(value))
    assert len(owners) > 50
    assert [f.__qualname__ for f, dispatchers in owners.items() if len(dispatchers) > 1] == []


@pytest.mark.fast
def test_launches_run_serial_for_a_while_when_an_empty_launch_is_slow(monkeypatch):
    """``run_parallel``: size < 1 serial; from SURE_SECONDS of work parallel; in between
    parallel only when an empty launch is quick (the cores are free), else serial for
    BUSY_FOR seconds.  The work is size x unit_seconds (the caller's threshold's seconds)."""
    import time

    from refml_fast.runtime import threads as _config

    ran = []

    def twin(name):
        return lambda: ran.append(name)

    def launch(size, unit_seconds=_config.UNIT_SECONDS):
        _config.run_parallel(twin("parallel"), twin("serial"), size,
                             unit_seconds=unit_seconds)
        return ran.pop()

    monkeypatch.setattr(_config, "_QUIET_UNTIL", [0.0])
    monkeypatch.setattr(_config, "_BUSY_UNTIL", [0.0])
    monkeypatch.setattr(_config, "_WARM", [False])
    monkeypatch.setattr(_config, "foreign_threads_running", lambda: [])
    # A quick empty launch: the cores are free (the real one is slow while other jobs hold
    # the cores, and this test is about the decision taken from it).
    monkeypatch.setattr(_config, "empty_launch", lambda: None)
    assert launch(0.5) == "serial"
    assert launch(2.0) == "parallel"
    monkeypatch.setattr(_config, "_QUIET_UNTIL", [0.0])
    monkeypatch.setattr(_config, "empty_launch", lambda: time.sleep(0.003))
    assert launch(2.0) == "serial"                             # slow: the cores are busy
    assert _config._BUSY_UNTIL[0] > time.perf_counter()
    assert launch(2.0) == "serial"                             # and stay so, no new probe
    sure = _config.SURE_SECONDS / _config.UNIT_SECONDS
    assert launch(sure) == "parallel"                          # unless the work is large
    assert launch(sure, unit_seconds=_config.UNIT_SECONDS / 10) == "serial"   # by seconds
    monkeypatch.setattr(_config, "_BUSY_UNTIL", [0.0])
    monkeypatch.setattr(_config, "empty_launch", lambda: None)
    assert launch(2.0) == "parallel"


@pytest.mark.fast
def test_claimed_work_runs_every_piece_once_whoever_claims_it():
    """``helpers.run_claimed``: 1 to 4 slots, helpers taking part or not, every piece of
    a claimed kernel is run exactly once (each counts its runs and writes its number),
    and a helper's error reaches the caller."""
    import time

    import numpy as np

    from refml_fast.runtime import helpers
    from refml_fast.runtime.claims import claim
    from refml_fast.runtime.options import kernel

    @kernel
    def pieces(counter, runs, out):
        while True:
            piece = claim(counter)
            if piece >= out.shape[0]:
                break
            for _ in range(200):          # some work, so that helpers come in
                out[piece, 1] += 1.0
            out[piece, 0] = piece
            runs[piece] += 1

    for slots in (1, 2, 3, 4):
        for _ in range(20):
            out = np.zeros((5000, 2))
            runs = np.zeros(5000, dtype=np.int64)
            helpers.run_claimed(pieces, slots, np.zeros(1, dtype=np.int64), runs, out)
            assert runs.tolist() == [1] * 5000
            assert out[:, 0].tolist() == list(range(5000))
            assert out[:, 1].tolist() == [200.0] * 5000

    def failing(seen):
        seen.append(1)
        if len(seen) == 2:
            raise ValueError("a helper's error")
        time.sleep(0.2)                   # the caller's part: the helper starts meanwhile

    with pytest.raises(ValueError, match="a helper's error"):
        helpers.run_claimed(failing, 2, [])


@pytest.mark.fast
def test_claimed_work_never_waits_for_a_helper_that_has_not_started(monkeypatch):
    """A helper that wakes late (here: never) costs nothing: the caller runs every piece
    and returns; a helper that wakes after the caller finished finds the job closed and
    runs nothing.  A second caller while a shared launch is under way runs alone."""
    import threading
    import time

    import numpy as np

    from refml_fast.runtime import helpers

    calls = []

    def work(counter):
        calls.append(threading.get_ident())
        counter[0] += 1

    monkeypatch.setattr(helpers, "start_helpers", lambda count: None)   # no helper wakes
    monkeypatch.setattr(helpers, "_STATE", {"helpers": 0, "generation": 0, "job": None})
    counter = np.zeros(1, dtype=np.int64)
    start = time.perf_counter()
    helpers.run_claimed(work, 2, counter)
    assert time.perf_counter() - start < 0.5
    assert calls == [threading.get_ident()] and counter[0] == 1
    job = helpers.Job(work, (counter,), 1)
    job.closed = True                     # a late helper finds it so
    state = {"generation": 0, "job": None}
    late = threading.Thread(target=helpers.helper_loop, args=(0, state), daemon=True)
    late.start()
    with helpers._COND:
        state.update(generation=1, job=job)
        helpers._COND.notify_all()
    time.sleep(0.2)
    assert job.taken == 0 and calls == [threading.get_ident()]
    assert helpers._LOCK.acquire(blocking=False)    # a launch under way: the next runs alone
    try:
        helpers.run_claimed(work, 2, counter)
        assert calls[-1] == threading.get_ident() and counter[0] == 2
    finally:
        helpers._LOCK.release()


@pytest.mark.fast
def test_the_k_d_tree_times_its_first_queries_and_shares_the_rest(monkeypatch):
    """``kdtree.query`` answers TIMED_QUERIES queries on the calling thread, then hands the
    rest to ``run_claimed``: alone when their serial seconds, estimated from that time,
    are below LAUNCH_SECONDS, else with every thread; the answers are the brute force's."""
    import numpy as np

    import refml_fast
    from refml_fast.neighbors import kdtree

    rng = np.random.default_rng(5)
    X, Q = rng.normal(size=(3000, 3)), rng.normal(size=(900, 3))
    y = (X[:, 0] > 0).astype(int)
    brute = refml_fast.KNeighborsClassifier(n_neighbors=4, algorithm="brute").fit(X, y)
    expected = [a.tolist() for a in brute.kneighbors(Q)]
    launches = []
    real = kdtree.run_claimed

    def recording(work, slots, *args):
        launches.append((args[0].shape[0], slots))
        return real(work, slots, *args)

    monkeypatch.setattr(kdtree, "run_claimed", recording)
    monkeypatch.setattr(kdtree.numba, "get_num_threads", lambda: 2)
    tree = refml_fast.KNeighborsClassifier(n_neighbors=4, algorithm="kd_tree").fit(X, y)
    for launch_seconds, slots in ((1e3, 1), (1e-9, 2)):
        monkeypatch.setattr(kdtree, "LAUNCH_SECONDS", launch_seconds)
        assert [a.tolist() for a in tree.kneighbors(Q)] == expected
        assert launches.pop() == (900 - kdtree.TIMED_QUERIES, slots)


@pytest.mark.fast
def test_one_slow_empty_launch_then_a_quick_one_means_the_core_was_handed_over(monkeypatch):
    """After another library's call, the first launch waits for its spinning thread's time
    slice (2.9 ms measured after scikit-learn's k-NN, then 0.01 ms launches): a slow probe
    followed by a quick one takes the cores as free; two slow probes as busy."""
    import time

    from refml_fast.runtime import threads as _config

    def probes(*seconds):
        queue = list(seconds)
        return lambda: time.sleep(queue.pop(0))

    ran = []
    for delays, expected in (((0.003, 0.0), "parallel"), ((0.003, 0.003), "serial"),
                             ((0.0, 0.003, 0.0), "parallel"), ((0.0, 0.003, 0.003), "serial")):
        monkeypatch.setattr(_config, "_QUIET_UNTIL", [0.0])
        monkeypatch.setattr(_config, "_BUSY_UNTIL", [0.0])
        monkeypatch.setattr(_config, "_WARM", [True])
        monkeypatch.setattr(_config, "foreign_threads_running", lambda: [])
        monkeypatch.setattr(_config, "empty_launch", probes(*delays))
        _config.run_parallel(lambda: ran.append("parallel"), lambda: ran.append("serial"), 2.0)
        assert ran.pop() == expected, delays


@pytest.mark.fast
def test_a_serial_run_of_large_work_compiles_the_parallel_twin(monkeypatch):
    """When work large enough for two threads runs serial (the cores busy) before the
    parallel twin ever ran, the twin is compiled then, in that call, so that its first
    launch later does not pay the compilation; small work compiles nothing more."""
    import time

    import numba
    import numpy as np

    from refml_fast.runtime import threads as _config

    def total(x):
        result = 0.0
        for i in numba.prange(x.shape[0]):
            result += x[i]
        return result

    parallel, serial = numba.njit(parallel=True)(total), numba.njit(total)
    monkeypatch.setattr(_config, "_BUSY_UNTIL", [time.perf_counter() + 60.0])
    x = np.arange(10.0)
    assert _config.run_parallel(parallel, serial, 0.5, x) == 45.0
    assert parallel.signatures == []
    assert _config.run_parallel(parallel, serial, 2.0, x) == 45.0
    assert serial.signatures != [] and len(parallel.signatures) == 1
    assert parallel.signatures[0][0] == numba.typeof(x)


@pytest.mark.fast
def test_a_thread_outside_numbas_pool_holding_a_core_sends_launches_to_the_serial_twin(
        monkeypatch):
    """``foreign_threads_running``: a thread of this process that is running and not one of
    Numba's pool (here a nogil kernel spinning on its own thread) is found while it runs,
    and ``run_parallel`` then takes the serial twin for work below SHARED_SECONDS; the
    pool's own threads (which may spin a while after a launch) never count."""
    import os
    import threading
    import time

    import numba
    import numpy as np

    from refml_fast.runtime import threads as _config

    if _config.THREAD_ID is None or not os.path.isdir("/proc/self/task"):
        pytest.skip("needs Linux's /proc/self/task and gettid")
    if numba.config.DISABLE_JIT:
        pytest.skip("the spinning thread must run without the GIL (compiled)")
    _config.empty_launch()
    assert str(threading.get_native_id()) not in _config.foreign_threads_running()
    assert not set(_config.foreign_threads_running()) & _config._POOL

    @numba.njit(nogil=True)
    def spin(stop, thread_id):
        calls = 0
        while stop[0] == 0.0:             # re-read after each opaque call of thread_id
            calls += thread_id() > 0
        return calls

    stop = np.ones(1)
    spin(stop, _config.THREAD_ID)                              # compiled before the thread
    stop[0] = 0.0
    spinner = threading.Thread(target=spin, args=(stop, _config.THREAD_ID))
    spinner.start()
    seen, deadline = [], time.perf_counter() + 2.0
    while str(spinner.native_id) not in seen and time.perf_counter() < deadline:
        seen = _config.foreign_threads_running()
    stop[0] = 1.0
    spinner.join()
    spinner_id = str(spinner.native_id)
    assert spinner_id in seen
    ran = []
    monkeypatch.setattr(_config, "_BUSY_UNTIL", [0.0])
    monkeypatch.setattr(_config, "_QUIET_UNTIL", [time.perf_counter() + 60.0])
    monkeypatch.setattr(_config, "_CHECKED_UNTIL", [0.0])
    monkeypatch.setattr(_config, "_SHARED", [False])
    monkeypatch.setattr(_config, "foreign_threads_running", lambda: [spinner_id])
    unit = _config.SHARED_SECONDS / 4                       # 2 units: half the limit

    def launch(size):
        _config.run_parallel(lambda: ran.append("parallel"), lambda: ran.append("serial"),
                             size, unit_seconds=unit)
        return ran.pop()

    assert launch(2.0) == "serial"                          # short work: not on a shared core
    assert launch(8.0) == "parallel"                        # longer work still launches
    monkeypatch.setattr(_config, "foreign_threads_running", lambda: [])
    assert launch(2.0) == "serial"                          # the look is kept CHECK_EVERY s
    monkeypatch.setattr(_config, "_CHECKED_UNTIL", [0.0])
    assert launch(2.0) == "parallel"                        # the next look: nothing running


@pytest.mark.fast
def test_the_look_for_running_threads_is_skipped_in_a_process_of_many_threads(monkeypatch):
    """More than MAX_THREADS_READ threads: no thread's state is read, none is reported."""
    from refml_fast.runtime import threads as _config

    if _config.THREAD_ID is None:
        pytest.skip("needs gettid")
    _config.empty_launch()
    many = [str(10**7 + t) for t in range(_config.MAX_THREADS_READ + 1)]
    monkeypatch.setattr(_config.os, "listdir", lambda path: many)
    read = []
    monkeypatch.setattr(_config, "running", lambda tid: read.append(tid) or True)
    assert _config.foreign_threads_running() == [] and read == []
    monkeypatch.setattr(_config.os, "listdir", lambda path: many[:3])
    assert _config.foreign_threads_running() == many[:3] and read == many[:3]


@pytest.mark.fast
def test_a_launch_far_slower_than_its_best_marks_the_cores_busy(monkeypatch):
    """``note_launch``: the fastest seconds per unit of size is kept per kernel and size; a
    launch more than twice as slow (plus PROBE_SLOW) sends the next launches to the serial
    twin, and a launch of another size is not compared with it."""
    import time

    from refml_fast.runtime import threads as _config

    monkeypatch.setattr(_config, "_FASTEST", {})
    monkeypatch.setattr(_config, "_BUSY_UNTIL", [0.0])

    def kernel():
        pass

    _config.note_launch(kernel, 2.0, 0.004)            # 2 ms per unit: the first, the best
    _config.note_launch(kernel, 2.0, 0.003)            # faster: the new best, 1.5 ms
    assert _config._FASTEST[(kernel, 2.0)] == 0.0015 and _config._BUSY_UNTIL[0] == 0.0
    _config.note_launch(kernel, 3.0, 0.03)             # another size: its own best
    assert _config._FASTEST[(kernel, 3.0)] == 0.01 and _config._BUSY_UNTIL[0] == 0.0
    _config.note_launch(kernel, 2.0, 0.006 + 0.0009)   # within 2 x best + PROBE_SLOW
    assert _config._BUSY_UNTIL[0] == 0.0
    _config.note_launch(kernel, 2.0, 0.0075)           # beyond it: busy for a while
    assert _config._BUSY_UNTIL[0] > time.perf_counter() + 0.5 * _config.SLOW_LAUNCH_BUSY_FOR


@pytest.mark.fast
def test_threads_that_held_the_cores_during_a_launch_send_all_work_serial(monkeypatch):
    """``note_held_cores``: threads outside the pool that ran more than (threads - 1.5) x
    the launch's seconds meanwhile held the cores; every launch, large work included, then
    runs the serial twin for HELD_FOR seconds, and that twin is compiled at once."""
    import time

    import numba

    from refml_fast.runtime import threads as _config

    monkeypatch.setattr(_config, "_HELD_UNTIL", [0.0])
    monkeypatch.setattr(_config, "_BUSY_UNTIL", [0.0])
    threads = numba.get_num_threads()
    limit = (threads - 1.5) * 0.010
    assert not _config.note_held_cores({"7": 1.0}, {"7": 1.0 + 0.9 * limit}, 0.010)
    assert _config._HELD_UNTIL[0] == 0.0
    assert not _config.note_held_cores({"7": 1.0}, {"8": 5.0}, 0.010)   # 7 ended, 8 is new
    assert _config.note_held_cores({"7": 1.0, "8": 2.0},
                                   {"7": 1.0 + 0.6 * limit + 0.001, "8": 2.0 + 0.5 * limit},
                                   0.010)
    assert _config._HELD_UNTIL[0] > time.perf_counter() + 0.5 * _config.HELD_FOR

    ran, compiled = [], []
    monkeypatch.setattr(_config, "compile_twin", lambda twin, args: compiled.append(twin))
    parallel, serial = (lambda: ran.append("parallel")), (lambda: ran.append("serial"))
    sure = 2 * _config.SURE_SECONDS / _config.UNIT_SECONDS
    _config.run_parallel(parallel, serial, sure)
    assert ran.pop() == "serial"                                # held: even large work
    monkeypatch.setattr(_config, "_HELD_UNTIL", [0.0])
    reads = iter([{"7": 0.0}, {"7": 10.0}])                     # 7 ran throughout
    monkeypatch.setattr(_config, "foreign_run_seconds", lambda: next(reads))
    compiled.clear()
    _config.run_parallel(parallel, serial, sure)
    assert ran.pop() == "parallel" and compiled == [serial]
    assert _config._HELD_UNTIL[0] > time.perf_counter()
    _config.run_parallel(parallel, serial, sure)
    assert ran.pop() == "serial"


@pytest.mark.fast
def test_foreign_run_seconds_reads_the_run_time_of_a_busy_thread():
    """``foreign_run_seconds`` reads each foreign thread's time on a core from
    /proc/self/task/*/schedstat: a thread that spins for 50 ms shows about that much."""
    import os
    import threading
    import time

    from refml_fast.runtime import threads as _config

    if not os.path.exists("/proc/self/task") or _config.THREAD_ID is None:
        pytest.skip("no /proc or gettid: nothing is read (the rule is then off)")
    _config.empty_launch()
    started, stop = threading.Event(), threading.Event()

    def spin():
        started.set()
        while not stop.is_set():
            pass

    worker = threading.Thread(target=spin)
    worker.start()
    started.wait()
    try:
        before = _config.foreign_run_seconds()
        time.sleep(0.05)
        after = _config.foreign_run_seconds()
    finally:
        stop.set()
        worker.join()
    tid = str(worker.native_id)
    assert tid in before and str(threading.get_native_id()) not in before
    assert 0.01 < after[tid] - before[tid] < 1.0
    assert not set(before) & _config._POOL


@pytest.mark.fast
def test_openmp_is_numbas_first_threading_layer_unless_the_user_chose_one():
    """Importing refml_fast puts OpenMP first among Numba's threading layers (TBB, which
    scikit-learn-intelex brings, left the pool's worker unrecorded), and leaves the order
    alone when NUMBA_THREADING_LAYER or NUMBA_THREADING_LAYER_PRIORITY says otherwise; the
    first launch then runs on OpenMP's threads, each recorded in the pool."""
    from tests.helpers import run_python

    code = ("import numba, refml_fast.runtime.threads as c\n"
            "print(numba.config.THREADING_LAYER_PRIORITY)\n"
            "c.empty_launch()\n"
            "print(numba.threading_layer(), len(c._POOL) == numba.get_num_threads())\n")
    default = run_python(code).stdout.splitlines()
    assert default == ["['omp', 'tbb', 'workqueue']", "omp True"]
    chosen = run_python(code, NUMBA_THREADING_LAYER_PRIORITY="workqueue omp tbb").stdout
    assert chosen.splitlines()[0] == "['workqueue', 'omp', 'tbb']"
    assert chosen.splitlines()[1].startswith("workqueue")


def test_read_only_arrays_reach_the_kernels_as_writable_copies():
    """A dask block or a memory-mapped file arrives read-only; the kernels see a writable
    copy, so no second specialisation of any kernel is compiled for it (and the caller's
    array stays as it was)."""
    import numpy as np

    import refml_fast
    from refml_fast.core import arrays

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = rng.integers(0, 3, size=300)
    X.flags.writeable = False
    y.flags.writeable = False
    checked = arrays.as_matrix(X)
    assert checked.flags.writeable and np.array_equal(checked, X) and not X.flags.writeable
    model = refml_fast.KNeighborsClassifier(n_neighbors=3).fit(X, y)
    assert np.array_equal(model.predict(X), refml_fast.KNeighborsClassifier(n_neighbors=3)
                          .fit(X.copy(), y.copy()).predict(X.copy()))
    big_X, big_y = np.repeat(X, 240, axis=0), np.repeat(y, 240)   # past NUMPY_CHECK_UP_TO:
    big_X.flags.writeable = big_y.flags.writeable = False           # checked by the kernels
    assert np.array_equal(arrays.as_matrix(big_X), big_X)
    assert arrays.encode_integer_labels(big_y)[0] == [0, 1, 2]
    assert arrays.non_finite.signatures
    assert not any("readonly" in str(signature) for signature in arrays.non_finite.signatures)
