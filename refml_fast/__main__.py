"""python -m refml_fast compile: fill the kernel cache ahead, for CI, images and workers.

    python -m refml_fast compile [--only NAME,...] [--list]

Each estimator is fitted and asked for its answers on small data, two classes and three,
so that the kernels a first call compiles are compiled now and kept on disk (the package's
__pycache__ folders, or NUMBA_CACHE_DIR); the parallel twins of kernels are compiled too,
although small work runs the serial ones (``refml_fast.runtime.threads.WARMING``).  One
progress line per estimator with its seconds.  A later process loads them; a source change
drops them (``refml_fast.runtime.cache``).
"""

import argparse
import os
import sys
import time


def estimators():
    """name -> (constructor, more than two classes, answering methods[, rows[, columns]]).
    Rows and columns: the sizes of the data it is warmed on (default 120 x 4; a forest's
    or bagging's on one column too, whose votes come from the sorted queries,
    ``refml_fast.ensemble.sorted_votes``).  A forest's or bagging's trees on
    120 rows grow from bin counts (every feature takes fewer than 256 values), on 300 in
    kernel calls that grow members from their seeds (``refml_fast.ensemble.tree_members``):
    both are warmed."""
    import refml_fast as rf

    return {
        "GaussianNB": (rf.GaussianNB, True, ("predict", "predict_proba")),
        "NaiveBayes": (rf.NaiveBayes, True, ("predict", "predict_proba")),
        "LinearDiscriminantAnalysis": (rf.LinearDiscriminantAnalysis, True,
                                       ("predict", "predict_proba")),
        "QuadraticDiscriminantAnalysis": (rf.QuadraticDiscriminantAnalysis, True,
                                          ("predict", "predict_proba")),
        "LogisticRegression": (rf.LogisticRegression, True, ("predict", "predict_proba")),
        "LogisticRegression(sgd)": (lambda: rf.LogisticRegression(solver="sgd", max_iter=3),
                                    True, ("predict",)),
        "LeastSquaresClassifier": (rf.LeastSquaresClassifier, True, ("predict",)),
        "Perceptron": (rf.Perceptron, True, ("predict",)),
        "KNeighborsClassifier": (rf.KNeighborsClassifier, True,
                                 ("predict", "predict_proba")),
        "SVC": (rf.SVC, True, ("predict", "decision_function")),
        "SVC(rbf)": (lambda: rf.SVC(kernel="rbf"), True, ("predict",)),
        "KernelDensityClassifier": (rf.KernelDensityClassifier, True, ("predict",)),
        "DecisionTreeClassifier": (rf.DecisionTreeClassifier, True,
                                   ("predict", "predict_proba")),
        "RandomForestClassifier": (lambda: rf.RandomForestClassifier(n_estimators=4),
                                   True, ("predict", "predict_proba"), (120, 300), (4, 1)),
        "RandomForestClassifier(max_bins)": (
            lambda: rf.RandomForestClassifier(n_estimators=4, max_bins=256), True,
            ("predict",)),
        "BaggingClassifier": (lambda: rf.BaggingClassifier(n_estimators=4), True,
                              ("predict", "predict_proba"), (120, 300), (4, 1)),
        "AdaBoostClassifier": (lambda: rf.AdaBoostClassifier(n_estimators=4), True,
                               ("predict", "predict_proba")),
    }


def warm(make, multiclass, methods, rows=(120,), columns=(4,)):
    import warnings

    import numpy as np

    rng = np.random.default_rng(0)
    for n_classes, n, d in ((k, n, d) for k in ((2, 3) if multiclass else (2,))
                            for n in rows for d in columns):
        X = rng.normal(size=(n, d))
        y = np.arange(n) % n_classes
        X += y[:, None]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = make().fit(X, y)
            for method in methods:
                getattr(model, method)(X)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m refml_fast",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    compile_ = commands.add_parser("compile", help="compile every estimator's kernels ahead")
    compile_.add_argument("--only", help="comma-separated names (see --list)")
    compile_.add_argument("--list", action="store_true", help="name the estimators")
    args = parser.parse_args(argv)

    from refml_fast.runtime import cache, threads

    table = estimators()
    if args.list:
        print("\n".join(table))
        return 0
    names = list(table) if not args.only else args.only.split(",")
    unknown = [name for name in names if name not in table]
    if unknown:
        parser.error(f"unknown estimator(s) {', '.join(unknown)}; --list names them")
    threads.WARMING[0] = True
    cache.QUIET[0] = True
    os.environ["REFML_SPEC_FIRST"] = "0"     # compile: refml's code must not answer first
    start = time.perf_counter()
    for i, name in enumerate(names, 1):
        began = time.perf_counter()
        print(f"[{i:2d}/{len(names)}] {name} ...", end="", flush=True)
        warm(*table[name])
        print(f" {time.perf_counter() - began:.1f} s", flush=True)
    print(f"compiled (or loaded) in {time.perf_counter() - start:.1f} s; later processes "
          "load them from the cache")
    return 0


if __name__ == "__main__":
    sys.exit(main())
