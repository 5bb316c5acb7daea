"""refml_fast on a Dask cluster: throughput, the driver's memory, worker start-up and threads.

    python -m benchmarks.cluster [SECTION ...] [--rows 2000000] [--features 20]
                                 [--block 250000] [--stream-gb 0.3]

Needs the dask extra.  Every section starts its own ``LocalCluster`` of worker processes
(``threads_per_worker=1`` unless it says otherwise), so the numbers include what a real
cluster pays: pickling the model, moving blocks, a task per block.  Sections:

- ``incremental``: rows a second for dask-ml's ``Incremental`` over a dask array in blocks
  (one ``partial_fit`` a block, in order) against the same loop in memory and against
  ``fit`` on all rows in memory;
- ``postfit``: rows a second for ``ParallelPostFit.predict`` over the blocks against
  ``predict`` in memory;
- ``memory``: the driver's peak resident memory while a stream of ``--stream-gb`` and of
  ten times as much is learned with ``Incremental`` and every row predicted (a count of
  predictions per class comes back): it must not grow with the data;
- ``startup``: the seconds until a cluster of two worker processes answers, and each
  estimator's first prediction on a fresh worker against its later ones (kernels loaded
  from the cache on disk, which must be warm: run the section twice after a source change);
- ``threads``: one worker of four threads predicting four blocks at once against one
  worker of one thread (the four threads run the serial twins of the kernels side by side:
  ``refml_fast.runtime.threads``);
- ``knn``: the partitioned k-NN (training rows in blocks) against the in-memory one.

The numbers of docs/scale.md come from this script.  The driver's memory is its resident
set's peak (Linux's VmHWM, reset through /proc/self/clear_refs) minus its resident size
before the section, as in ``benchmarks.memory``.
"""

import argparse
import os
import time

import numpy as np

from benchmarks.memory import Peak

SECTIONS = ("incremental", "postfit", "memory", "startup", "threads", "knn")


def lazy_stream(rows, features, block, seed=0):
    """``rows`` x ``features`` drawn lazily by dask, block by block where each block is
    needed, and three classes from a noisy linear rule of the first three features."""
    import dask.array as da

    X = da.random.default_rng(seed).normal(size=(rows, features), chunks=(block, features))
    noise = da.random.default_rng(seed + 1).normal(size=rows, chunks=block)
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.3 * noise > 0).astype(np.int64) + (X[:, 2] > 1.0)
    return X, y.astype(np.int64)


def cluster(workers=2, threads=1, memory="1.5GB"):
    from distributed import Client, LocalCluster

    local = LocalCluster(n_workers=workers, threads_per_worker=threads, memory_limit=memory,
                         dashboard_address=None)
    return local, Client(local)


def seconds(function, repeat=1):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def online_models():
    import refml_fast

    return {"GaussianNB": (refml_fast.GaussianNB, True),
            "Perceptron (multinomial)":
                (lambda: refml_fast.Perceptron(multi_class="multinomial"), False),
            "LogisticRegression (sgd)":
                (lambda: refml_fast.LogisticRegression(solver="sgd"), False),
            "LinearDiscriminantAnalysis": (refml_fast.LinearDiscriminantAnalysis, True)}


def incremental(args):
    from dask_ml.wrappers import Incremental

    print(f"\n## Incremental: {args.rows:,} x {args.features} in blocks of {args.block:,}, "
          "rows a second (best of 2)\n")
    print("Each repeat learns a stream of its own (dask would otherwise hand back the "
          "result it computed for the same blocks before); the blocks are in the workers' "
          "memory before the clock starts.  Fit in memory only for the estimators whose fit "
          "is the same one pass over sufficient statistics.\n")
    print("| estimator | Incremental on the cluster | partial_fit loop in memory | "
          "fit in memory |")
    print("|---|---|---|---|")
    warm_X, warm_y = lazy_stream(4 * args.block // 10, args.features, args.block // 10, 99)
    streams = []
    for seed in (1, 2):
        X, y = lazy_stream(args.rows, args.features, args.block, seed)
        X, y = X.persist(), y.persist()
        streams.append((X, y, X.compute(), y.compute()))
    for name, (make, one_pass) in online_models().items():
        Incremental(make(), shuffle_blocks=False).fit(warm_X, warm_y, classes=[0, 1, 2])
        make().partial_fit(warm_X[:1000].compute(), warm_y[:1000].compute(), classes=[0, 1, 2])
        times = [[], [], []]
        for X, y, Xm, ym in streams:
            times[0].append(seconds(lambda: Incremental(make(), shuffle_blocks=False).fit(
                X, y, classes=[0, 1, 2])))

            def looped():
                model = make()
                for start in range(0, args.rows, args.block):
                    model.partial_fit(Xm[start:start + args.block],
                                      ym[start:start + args.block], classes=[0, 1, 2])

            times[1].append(seconds(looped))
            if one_pass:
                times[2].append(seconds(lambda: make().fit(Xm, ym)))
        cells = [f"{args.rows / min(t):,.0f}" if t else "-" for t in times]
        print(f"| {name} | " + " | ".join(cells) + " |")


def predictors():
    import refml_fast

    return {"GaussianNB": (refml_fast.GaussianNB, None),
            "LogisticRegression": (refml_fast.LogisticRegression, None),
            "LinearDiscriminantAnalysis": (refml_fast.LinearDiscriminantAnalysis, None),
            "KNeighborsClassifier": (refml_fast.KNeighborsClassifier, 20_000),
            "SVC (rbf)": (refml_fast.SVC, 3_000),
            "RandomForestClassifier (20 trees)":
                (lambda: refml_fast.RandomForestClassifier(n_estimators=20, random_state=0),
                 20_000)}


def postfit(args):
    from dask_ml.wrappers import ParallelPostFit

    X, y = lazy_stream(args.rows, args.features, args.block)
    X = X.persist()
    Xm = X.compute()
    sample = 50_000
    Xs, ys = Xm[:sample], y[:sample].compute()
    print(f"\n## ParallelPostFit: predicting {args.rows:,} x {args.features} in blocks of "
          f"{args.block:,}, rows a second (best of 2; two workers of one thread)\n")
    print("| estimator (fitted on) | ParallelPostFit | predict in memory |")
    print("|---|---|---|")
    for name, (make, fit_rows) in predictors().items():
        rows = fit_rows or sample
        post = ParallelPostFit(make()).fit(Xs[:rows], ys[:rows])
        rows_predicted = args.rows if fit_rows is None else args.rows // 10
        Xp, Xpm = X[:rows_predicted], Xm[:rows_predicted]
        post.predict(Xp).compute(), post.estimator.predict(Xpm[:1000])
        on_cluster = seconds(lambda: post.predict(Xp).compute(), 2)
        in_memory = seconds(lambda: post.estimator.predict(Xpm), 2)
        print(f"| {name} ({rows:,} rows; {rows_predicted:,} predicted) | "
              f"{rows_predicted / on_cluster:,.0f} | {rows_predicted / in_memory:,.0f} |")


def driver_memory(args):
    from dask_ml.wrappers import Incremental, ParallelPostFit

    import refml_fast

    print(f"\n## The driver's memory while a stream is learned and predicted (blocks of "
          f"{args.block:,}, two workers of 1.5 GB)\n")
    print("| stream | rows | seconds | driver's peak extra memory |")
    print("|---|---|---|---|")
    for gigabytes in (args.stream_gb, 10 * args.stream_gb):
        rows = int(gigabytes * 1e9 / (8 * args.features))
        X, y = lazy_stream(rows, args.features, args.block)
        start = time.perf_counter()
        with Peak() as peak:
            learner = Incremental(refml_fast.GaussianNB(), shuffle_blocks=False)
            learner.fit(X, y, classes=[0, 1, 2])
            post = ParallelPostFit(learner.estimator_)
            counts = post.predict(X).map_blocks(
                lambda labels: np.bincount(labels, minlength=3)[None, :],
                chunks=(1, 3), dtype=np.int64).sum(axis=0).compute()
        elapsed = time.perf_counter() - start
        assert counts.sum() == rows
        print(f"| {X.nbytes / 1e9:.2f} GB | {rows:,} | {elapsed:.1f} | "
              f"{peak.peak / 2**20:.1f} MiB |")


def startup(args):
    from dask_ml.wrappers import ParallelPostFit

    X, y = lazy_stream(100_000, 10, 25_000)
    Xm, ym = X.compute(), y.compute()
    start = time.perf_counter()
    local, client = cluster()
    client.wait_for_workers(2)
    print(f"\n## Start-up: a LocalCluster of two worker processes answered in "
          f"{time.perf_counter() - start:.2f} s\n")
    print("First prediction of 100,000 x 10 in four blocks on fresh workers, then the "
          "later ones (best of 3):\n")
    print("| estimator | first call | later calls |")
    print("|---|---|---|")
    Xd = client.persist(X)
    try:
        for name, (make, fit_rows) in predictors().items():
            rows = min(fit_rows or 20_000, 20_000)
            post = ParallelPostFit(make()).fit(Xm[:rows], ym[:rows])
            first = seconds(lambda: post.predict(Xd).compute())
            later = seconds(lambda: post.predict(Xd).compute(), 3)
            print(f"| {name} | {first:.2f} s | {later:.3f} s |")
    finally:
        client.close(), local.close()


def threads(args):
    from dask_ml.wrappers import ParallelPostFit

    X, y = lazy_stream(200_000, 10, 50_000)
    Xm, ym = X.compute(), y.compute()
    print(f"\n## A threaded worker: four blocks of 50,000 x 10 predicted at once "
          f"(this machine: {os.cpu_count()} cores; best of 3)\n")
    print("| estimator | one worker, 1 thread | one worker, 4 threads | 4 threads / 1 |")
    print("|---|---|---|---|")
    times = {}
    for count in (1, 4):
        local, client = cluster(workers=1, threads=count, memory="4GB")
        try:
            Xd = client.persist(X)
            for name, (make, fit_rows) in predictors().items():
                rows = min(fit_rows or 20_000, 20_000)
                post = ParallelPostFit(make()).fit(Xm[:rows], ym[:rows])
                post.predict(Xd).compute()
                times[name, count] = seconds(lambda: post.predict(Xd).compute(), 3)
        finally:
            client.close(), local.close()
    for name in predictors():
        one, four = times[name, 1], times[name, 4]
        print(f"| {name} | {one:.3f} s | {four:.3f} s | {four / one:.2f} |")


def knn(args):
    from refml_fast import KNeighborsClassifier
    from refml_fast.neighbors.partitions import PartitionedKNeighborsClassifier

    X, y = lazy_stream(args.rows // 10, 10, args.rows // 80)
    Xm, ym = X.compute(), y.compute()
    queries = np.random.default_rng(5).normal(size=(2_000, 10))
    partitioned = PartitionedKNeighborsClassifier(n_neighbors=5).fit(X, y)
    in_memory = KNeighborsClassifier(n_neighbors=5).fit(Xm, ym)
    assert np.array_equal(partitioned.predict(queries), in_memory.predict(queries))
    on_cluster = seconds(lambda: partitioned.predict(queries), 3)
    local_time = seconds(lambda: in_memory.predict(queries), 3)
    print(f"\n## Partitioned k-NN: {args.rows // 10:,} x 10 in 8 blocks, 2,000 queries, "
          f"k = 5 (identical predictions)\n")
    print(f"partitioned on two workers {on_cluster * 1e3:.0f} ms, in memory "
          f"{local_time * 1e3:.0f} ms (best of 3)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=SECTIONS, default=[])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--block", type=int, default=250_000)
    parser.add_argument("--stream-gb", type=float, default=0.3)
    args = parser.parse_args(argv)
    chosen = args.sections or SECTIONS
    run = {"incremental": incremental, "postfit": postfit, "memory": driver_memory,
           "knn": knn}
    for section in chosen:
        if section in run:
            local, client = cluster()
            try:
                run[section](args)
            finally:
                client.close(), local.close()
        else:
            {"startup": startup, "threads": threads}[section](args)


if __name__ == "__main__":
    main()
