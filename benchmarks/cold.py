"""Cold start: each refml_fast estimator's first fit + predict in a fresh process.

    python -m benchmarks.run --cold [NAME ...] [--markdown FILE]

For each estimator of ``python -m refml_fast compile --list`` (the ensembles at their default
sizes here), four fresh processes:

- **cold**: an empty kernel cache (a new NUMBA_CACHE_DIR), as a user meets it: refml's
  specification answers while the kernels are cold and the work is small
  (``refml_fast.runtime.spec_first``);
- **compile**: an empty kernel cache with REFML_SPEC_FIRST=0, so the first call compiles;
- **warm**: the cache the compile process filled;
- **scikit-learn**: its estimator of the same name where it has one, for reference.

Each child imports its library, builds 1,000 rows x 10 features of three classes, and times
one fit + predict; the parent times the whole process (interpreter start and imports
included).  Last, one process fits all the estimators in turn, cold and compiling: the wait
of a first script that uses them all.  Nothing here runs in the parent but the clock.
"""

import os
import subprocess
import sys
import tempfile
import time

# The child: argv = [library, name]; prints the seconds of the first fit + predict.
CHILD = r"""
import sys, time, warnings
library, names = sys.argv[1], sys.argv[2].split(",")
start = time.perf_counter()
import numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(1000, 10))
y = np.arange(1000) % 3
X[:, :3] += y[:, None]
if library == "refml_fast":
    import refml_fast
    from refml_fast.__main__ import estimators
    table = estimators()
    defaults = {"RandomForestClassifier", "BaggingClassifier", "AdaBoostClassifier"}
    table["RandomForestClassifier(max_bins)"] = (
        lambda: refml_fast.RandomForestClassifier(max_bins=256),)   # 100 trees, as the default's
    makers = [getattr(refml_fast, name) if name in defaults else table[name][0]
              for name in names]
else:
    import importlib
    places = {"GaussianNB": "naive_bayes", "LinearDiscriminantAnalysis": "discriminant_analysis",
              "QuadraticDiscriminantAnalysis": "discriminant_analysis",
              "LogisticRegression": "linear_model", "Perceptron": "linear_model",
              "KNeighborsClassifier": "neighbors", "SVC": "svm",
              "DecisionTreeClassifier": "tree", "RandomForestClassifier": "ensemble",
              "BaggingClassifier": "ensemble", "AdaBoostClassifier": "ensemble"}
    makers = [getattr(importlib.import_module("sklearn." + places[name]), name)
              for name in names]
imported = time.perf_counter()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for make in makers:
        make().fit(X, y).predict(X)
print(f"{time.perf_counter() - imported:.3f} {imported - start:.3f}")
"""

SKLEARN_TWINS = {"GaussianNB", "LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis",
                 "LogisticRegression", "Perceptron", "KNeighborsClassifier", "SVC",
                 "DecisionTreeClassifier", "RandomForestClassifier", "BaggingClassifier",
                 "AdaBoostClassifier"}


def fresh_process(library, names, cache, spec_first=True):
    """(process seconds, first fit + predict seconds, import seconds) of a new process;
    ``spec_first``: refml_fast's default, refml answering while the kernels are cold."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, REFML_NUMBA_CACHE="1",
               REFML_SPEC_FIRST="1" if spec_first else "0")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, library, ",".join(names)], env=env,
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{library} {names}: {done.stderr.strip()[-2000:]}")
    first, imported = (float(v) for v in done.stdout.split()[-2:])
    return elapsed, first, imported


def run(names=None, show=print):
    """The cold, warm and scikit-learn rows, then the all-together row; returns the rows."""
    from refml_fast.__main__ import estimators

    chosen = names or list(estimators())
    rows = []
    header = (f"{'estimator':30s} {'cold first':>10s} {'cold proc':>9s} {'compile first':>13s} "
              f"{'warm first':>10s} {'warm proc':>9s} {'sklearn proc':>12s}")
    show(header)
    show("-" * len(header))
    for name in chosen:
        rows.append((name, *three_caches("refml_fast", [name]),
                     fresh_process("sklearn", [name], tempfile.gettempdir())
                     if name in SKLEARN_TWINS else None))
        show(line(rows[-1]))
    if names is None:
        rows.append(("all together", *three_caches("refml_fast", chosen), None))
        show(line(rows[-1]))
    show("\nfirst = the first fit + predict of 1,000 x 10, 3 classes, after the imports; "
         "proc = the whole fresh process (interpreter, imports, data, fit + predict). cold: "
         "an empty kernel cache (refml answers while the kernels are cold); compile: an empty "
         "cache and REFML_SPEC_FIRST=0; warm: the cache the compile process filled.")
    return rows


def three_caches(library, names):
    """(cold, compile, warm) fresh processes: each with an empty cache, the second compiling,
    then again with the cache the second filled."""
    with tempfile.TemporaryDirectory(prefix="refml-cold-") as cache:
        cold = fresh_process(library, names, cache)
    with tempfile.TemporaryDirectory(prefix="refml-cold-") as cache:
        compiling = fresh_process(library, names, cache, spec_first=False)
        warm = fresh_process(library, names, cache)
    return cold, compiling, warm


def line(row):
    name, cold, compiling, warm, twin = row
    return (f"{name:30s} {cold[1]:10.2f} {cold[0]:9.2f} {compiling[1]:13.2f} {warm[1]:10.2f} "
            f"{warm[0]:9.2f} {twin[0] if twin else float('nan'):12.2f}")


def markdown(rows, machine):
    """The rows as a Markdown table with its caption."""
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {machine}.",
             "", "| estimator | cold first call s | cold process s | compiling first call s | "
             "warm first call s | warm process s | scikit-learn process s |",
             "|---|---|---|---|---|---|---|"]
    for name, cold, compiling, warm, twin in rows:
        lines.append(f"| {name} | {cold[1]:.2f} | {cold[0]:.2f} | {compiling[1]:.2f} | "
                     f"{warm[1]:.2f} | {warm[0]:.2f} | {f'{twin[0]:.2f}' if twin else '-'} |")
    return "\n".join(lines) + "\n"
