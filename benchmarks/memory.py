"""Peak extra memory of every refml_fast estimator, as a multiple of the training input.

    python -m benchmarks.memory [NAME ...] [--rows 2000000] [--features 50] [--markdown]

Each estimator runs in a fresh process: the data are made (float64, ``--rows`` x
``--features``, three classes or two for the binary-only estimators), the kernels are
compiled on the first 2,000 rows, and only then is the peak memory reset and the fit on all
rows measured; then the same for ``predict`` (or ``score_samples``) on a batch of rows.

Memory is the process's resident set: the peak (Linux's VmHWM, reset through
``/proc/self/clear_refs``) minus the resident size just before the call, so that it counts
numpy's arrays, the kernels' own allocations (which Python's tracemalloc does not see)
and any BLAS workspace.  Where /proc is not writable, tracemalloc's peak is used instead
(column "how").  Columns, all as multiples of the size of the training X:
- fit: the peak extra memory during ``fit``;
- kept: what the fitted model still holds after ``fit`` (resident growth);
- predict: the peak extra memory of predicting ``batch`` rows.

Estimators whose cost is quadratic in n (the SVC's solver; the predictions of k-NN and the
kernel densities, which visit every training row per query) are measured at the sizes
given in the table, which says so; memory, not time, is what is measured here.
"""

import argparse
import gc
import json
import os
import subprocess
import sys
import time

N_ROWS, N_FEATURES = 2_000_000, 50

# name -> (constructor source, rows fitted (None: all), rows predicted, method, binary)
ESTIMATORS = {
    "GaussianNB": ("GaussianNB()", None, None, "predict", False),
    "NaiveBayes(kde)": ("NaiveBayes(marginal='kde')", None, 50, "predict", False),
    "LinearDiscriminantAnalysis": ("LinearDiscriminantAnalysis()", None, None, "predict",
                                   False),
    "QuadraticDiscriminantAnalysis": ("QuadraticDiscriminantAnalysis()", None, None,
                                      "predict", False),
    "LogisticRegression": ("LogisticRegression()", None, None, "predict", False),
    "LeastSquaresClassifier": ("LeastSquaresClassifier()", None, None, "predict", True),
    "Perceptron": ("Perceptron(max_iter=5, tol=None)", None, None, "predict", True),
    "SVC(linear)": ("SVC(kernel='linear')", 20_000, None, "predict", True),
    "SVC(rbf)": ("SVC(kernel='rbf')", 20_000, None, "predict", True),
    "KNeighborsClassifier": ("KNeighborsClassifier(n_neighbors=5)", None, 10_000, "predict",
                             False),
    "KernelDensity": ("KernelDensity()", None, 200, "score_samples", False),
    "KernelDensityClassifier": ("KernelDensityClassifier()", None, 200, "predict", False),
    "Histogram": ("Histogram(bins=4)", None, None, "score_samples", False),
    "DecisionTreeClassifier": ("DecisionTreeClassifier(max_depth=8)", None, None, "predict",
                               False),
    "RandomForestClassifier": ("RandomForestClassifier(n_estimators=10, max_depth=8, "
                               "random_state=0)", None, None, "predict", False),
    "BaggingClassifier": ("BaggingClassifier(n_estimators=5, random_state=0)", 500_000, None,
                          "predict", False),
    "AdaBoostClassifier": ("AdaBoostClassifier(n_estimators=10, random_state=0)", None, None,
                           "predict", False),
}


def make_data(n_rows, n_features, binary):
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, n_features))
    score = X[:, 0] - X[:, 1] + 0.5 * rng.normal(size=n_rows)
    y = (score > 0).astype(np.int64) if binary else np.digitize(score, [-0.7, 0.7])
    return X, y


def _status(key):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    raise OSError(key)


class Peak:
    """The extra memory of one call: resident-set peak where Linux lets us reset it,
    tracemalloc's peak otherwise."""

    def __enter__(self):
        gc.collect()
        try:
            with open("/proc/self/clear_refs", "w") as clear:
                clear.write("5")  # reset VmHWM to the current resident size
            self.how, self.before = "rss", _status("VmRSS")
        except OSError:
            import tracemalloc

            self.how, self.before = "traced", 0
            tracemalloc.start()
        return self

    def __exit__(self, *exc):
        if self.how == "rss":
            self.peak = _status("VmHWM") - self.before
            gc.collect()
            self.kept = _status("VmRSS") - self.before
        else:
            import tracemalloc

            self.kept, self.peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()


def child(name, n_rows, n_features):
    import warnings

    import refml_fast

    warnings.simplefilter("ignore")
    source, fit_rows, predict_rows, method, binary = ESTIMATORS[name]
    n_fit = min(n_rows, fit_rows or n_rows)
    X, y = make_data(n_fit, n_features, binary)
    names = {name: getattr(refml_fast, name) for name in refml_fast.__all__}
    make = lambda: eval(source, names)  # noqa: E731 (the table holds source)
    warm = make().fit(X[:2000], y[:2000])
    getattr(warm, method)(X[:100])
    model = make()
    with Peak() as fit_peak:
        start = time.perf_counter()
        model.fit(X, y)
        fit_seconds = time.perf_counter() - start
    queries = X[:min(n_fit, predict_rows or n_fit)]
    with Peak() as predict_peak:
        getattr(model, method)(queries)
    return {"name": name, "rows": n_fit, "features": n_features, "how": fit_peak.how,
            "fit": fit_peak.peak / X.nbytes, "kept": fit_peak.kept / X.nbytes,
            "batch": len(queries), "predict": predict_peak.peak / X.nbytes,
            "seconds": fit_seconds}


def run_one(name, n_rows, n_features):
    command = [sys.executable, "-m", "benchmarks.memory", "--child", name,
               "--rows", str(n_rows), "--features", str(n_features)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"name": name, "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(results, markdown):
    header = ["estimator", "rows fitted", "fit", "kept", "predict batch", "predict", "fit s"]
    rows = []
    for r in results:
        if "error" in r:
            rows.append([r["name"], "error", "", "", "", "", ""])
            print(f"{r['name']}: {' '.join(r['error'])}", file=sys.stderr)
            continue
        rows.append([r["name"], f"{r['rows']:,}", f"{r['fit']:.2f}x", f"{max(r['kept'], 0):.2f}x",
                     f"{r['batch']:,}", f"{r['predict']:.2f}x", f"{r['seconds']:.1f}"])
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    else:
        widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(header, widths))]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) for row in rows]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory")
    parser.add_argument("names", nargs="*", help=f"estimators (default: all): "
                                                 f"{', '.join(ESTIMATORS)}")
    parser.add_argument("--rows", type=int, default=N_ROWS)
    parser.add_argument("--features", type=int, default=N_FEATURES)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.rows, args.features)))
        return 0
    unknown = [name for name in args.names if name not in ESTIMATORS]
    if unknown:
        parser.error(f"unknown estimator(s) {', '.join(unknown)}; "
                     f"choose from {', '.join(ESTIMATORS)}")
    results = []
    for name in args.names or list(ESTIMATORS):
        results.append(run_one(name, args.rows, args.features))
        print(f"  {name}: done", file=sys.stderr, flush=True)
    print(table(results, args.markdown))
    n_cores = os.cpu_count()
    print(f"\nExtra memory as a multiple of the fitted X ({args.features} float64 columns); "
          f"measured as {results[0].get('how', '-')}; {n_cores} cores.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
