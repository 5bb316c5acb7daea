"""Benchmark runner: refml_fast against scikit-learn on the docs/design.md section 8 workloads.

    python -m benchmarks.run [NAME ...] [--repeat 5] [--scale 1.0] [--with-refml]
    python -m benchmarks.run --grid [CELL ...] [--repeat 5] [--scale 1.0] [--markdown FILE]
    python -m benchmarks.run --probe SEED [--cells 40]
    python -m benchmarks.run --cold [ESTIMATOR ...] [--markdown FILE]
    python -m benchmarks.run --grid --other | --onedal [CELL ...]
    python -m benchmarks.run --list [--grid [--other | --onedal]]

``--list`` names the workloads (or with ``--grid`` the cells) and exits; an unknown
workload name exits with status 2 and that list.  ``--markdown FILE`` writes the grid's
table as Markdown with the machine and the date (docs/benchmarks.md is written this way,
never by hand).

``--cold`` times each estimator's first fit + predict in fresh processes, with an empty
kernel cache and then a warm one (``benchmarks/cold.py``).

``--grid`` runs the shape grid of ``benchmarks/grid.py`` instead of the workloads, with a
scikit-learn-intelex column when it is installed; ``--probe`` runs cells of random shapes
drawn from a seed (``benchmarks/probe.py``) under the same rules.

Each workload is a module in ``benchmarks/workloads`` defining ``WORKLOAD``, a dict:
``name``, ``description``, ``make_data(scale) -> data``, ``fast(data)`` and
``sklearn(data)`` (each doing the whole fit + predict of the workload and returning
the predictions), and optionally ``refml(data)`` for the pure-Python package.
All timings are taken in this one process on the same data, each side's after a rest of
SETTLE_SECONDS (another library's threads still spinning from the call before otherwise
share the cores with it).  The Numba cache is turned off
here, so the first call of ``fast`` includes compilation: compile time is reported as
first call minus the median of the later calls, apart from run time.  The ratio is
refml_fast median / scikit-learn median (below 1.0: refml_fast is faster).
"""

import argparse
import datetime
import importlib
import os
import pkgutil
import platform
import statistics
import sys
import time

os.environ.setdefault("REFML_NUMBA_CACHE", "0")
# The kernels are measured, never refml's code answering while they are cold
# (refml_fast.runtime.spec_first); --cold measures both ways in its own processes.
os.environ["REFML_SPEC_FIRST"] = "0"


def discover():
    import benchmarks.workloads as package

    workloads = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"benchmarks.workloads.{info.name}")
        for workload in getattr(module, "WORKLOADS", [getattr(module, "WORKLOAD", None)]):
            if workload is not None:
                workloads[workload["name"]] = workload
    return workloads


def timed(function, data):
    start = time.perf_counter()
    result = function(data)
    return time.perf_counter() - start, result


# Seconds of rest before each side's first call.  OpenBLAS's threads spin on the cores for
# about 0.1 s after a BLAS call (scikit-learn's LogisticRegression makes many), and
# whichever side ran next shared the cores with them: on 2 cores, k-NN 1,165 x 784 (k = 1)
# and a linear SVC of 8,215 x 55 each took about twice their time right after scikit-learn's
# multinomial fit (probe seeds 19 and 24: 1.27 and 1.08, against 0.66-0.71 and 0.55 when
# run apart).  Both sides rest alike, so each is timed on its own work.
SETTLE_SECONDS = 0.25


def measure(function, data, repeat, settle=SETTLE_SECONDS):
    """(first call seconds, median of ``repeat`` later calls, last result, spread), after
    ``settle`` seconds of rest; the spread is (slowest - fastest) / median of those calls."""
    time.sleep(settle)
    first, result = timed(function, data)
    runs = []
    for _ in range(repeat):
        seconds, result = timed(function, data)
        runs.append(seconds)
    median = statistics.median(runs)
    return first, median, result, (max(runs) - min(runs)) / median if median > 0 else 0.0


def agreement(a, b):
    import numpy as np

    return float(np.mean(np.asarray(a) == np.asarray(b)))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run")
    parser.add_argument("names", nargs="*", help="workloads to run (default: all)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed runs after the first (default 5)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply the sample counts (1.0 = the workload sizes)")
    parser.add_argument("--with-refml", action="store_true",
                        help="also time pure-Python refml (slow: use a small --scale)")
    parser.add_argument("--grid", action="store_true",
                        help="run the shape grid (benchmarks/grid.py) instead")
    parser.add_argument("--other", action="store_true",
                        help="with --grid: the second grid of 43 other shapes")
    parser.add_argument("--onedal", action="store_true",
                        help="with --grid: the shapes where scikit-learn-intelex was ahead")
    parser.add_argument("--probe", type=int, default=None, metavar="SEED",
                        help="run cells of random shapes drawn from SEED (benchmarks/probe.py)")
    parser.add_argument("--cells", type=int, default=40, help="with --probe: how many cells")
    parser.add_argument("--settle", type=float, default=SETTLE_SECONDS, metavar="SECONDS",
                        help="rest before each side's first call (default %(default)s; 0 times "
                             "each side right after the other, as a user's script would)")
    parser.add_argument("--no-intelex", action="store_true",
                        help="leave out the scikit-learn-intelex column")
    parser.add_argument("--list", action="store_true",
                        help="list the workloads (with --grid: the cells) and exit")
    parser.add_argument("--cold", action="store_true",
                        help="each estimator's first fit + predict in fresh processes, cold "
                             "and warm cache (names: python -m refml_fast compile --list)")
    parser.add_argument("--markdown", metavar="FILE", default=None,
                        help="with --grid, --probe or --cold: also write the table as Markdown "
                             "to FILE")
    args = parser.parse_args(argv)
    if args.list:
        return list_names(args)
    if args.cold:
        return run_cold(args, parser)
    if args.grid or args.probe is not None:
        args.repeat = args.repeat or 5
        return run_grid(args, parser)
    args.repeat = args.repeat or 5

    try:
        import sklearn
        have_sklearn = True
    except ImportError:
        have_sklearn = False
        print("scikit-learn is not installed (pip install -e '.[bench]'): no ratios")

    workloads = discover()
    unknown = [name for name in args.names if name not in workloads]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; the workloads are: "
                     f"{', '.join(sorted(workloads))} (see --list)")
    intelex = have_sklearn and not args.no_intelex and intelex_patch() is not None
    names = args.names or sorted(workloads)
    header = (f"{'workload':10s} {'refml_fast s':>12s} {'compile s':>9s} {'sklearn s':>9s} "
              f"{'ratio':>6s}" + (f" {'intelex s':>9s} {'ratio':>6s}" if intelex else "")
              + f" {'agree':>6s}" + (f" {'refml s':>9s}" if args.with_refml else ""))
    print(header)
    print("-" * len(header))
    for name in names:
        workload = workloads[name]
        data = workload["make_data"](args.scale)
        first, fast_median, fast_result, _ = measure(workload["fast"], data, args.repeat,
                                                     args.settle)
        line = f"{name:10s} {fast_median:12.4f} {max(0.0, first - fast_median):9.2f}"
        if have_sklearn:
            _, sk_median, sk_result, _ = measure(workload["sklearn"], data, args.repeat,
                                                 args.settle)
            line += f" {sk_median:9.4f} {fast_median / sk_median:6.2f}"
            if intelex:
                with intelex_patch():
                    _, ex_median, _, _ = measure(workload["sklearn"], data, args.repeat,
                                                 args.settle)
                line += f" {ex_median:9.4f} {fast_median / ex_median:6.2f}"
            line += f" {agreement(fast_result, sk_result):6.3f}"
        else:
            line += f" {'-':>9s} {'-':>6s} {'-':>6s}"
        if args.with_refml and "refml" in workload:
            seconds, _ = timed(workload["refml"], data)
            line += f" {seconds:9.2f}"
        print(line, flush=True)
    print(f"\nratio = refml_fast / scikit-learn (median of {args.repeat} runs after a first "
          f"call); compile = first call - median; agree = fraction of equal predictions; "
          f"{os.cpu_count()} cores, scikit-learn {sklearn.__version__ if have_sklearn else '-'}"
          + ("; intelex: the same scikit-learn code with sklearnex.patch_sklearn()"
             if intelex else ""))
    return 0


def intelex_patch():
    """A context manager that runs scikit-learn patched by scikit-learn-intelex (its oneDAL
    estimators where it has them, scikit-learn's own elsewhere), or None without it."""
    try:
        import sklearnex
    except ImportError:
        return None
    import contextlib

    @contextlib.contextmanager
    def patched():
        sklearnex.patch_sklearn(verbose=False)
        try:
            yield
        finally:
            sklearnex.unpatch_sklearn()

    return patched()


def run_cold(args, parser):
    """--cold: benchmarks/cold.py's table, and with --markdown the same as Markdown."""
    from benchmarks import cold
    from refml_fast.__main__ import estimators

    unknown = [name for name in args.names if name not in estimators()]
    if unknown:
        parser.error(f"unknown estimator(s) {', '.join(unknown)}; the estimators are: "
                     f"{', '.join(estimators())}")
    rows = cold.run(args.names or None)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(cold.markdown(rows, machine_line()))
    return 0


def chosen_grid(grid, args):
    """The cells of --grid: the first grid, --other's or --onedal's."""
    if args.onedal:
        return grid.onedal_cells()
    return grid.other_cells() if args.other else grid.cells()


def list_names(args):
    """Print the workloads, or the grid's cells, one a line."""
    if args.grid or args.probe is not None:
        from benchmarks import grid, probe

        if args.probe is not None:
            chosen = probe.cells(args.probe, args.cells)
        else:
            chosen = chosen_grid(grid, args)
        for cell in chosen:
            print(cell["name"])
        return 0
    for name, workload in sorted(discover().items()):
        print(f"{name:12s} {' '.join(workload['description'].split())}")
    return 0


def machine_line():
    """The processor, the cores and the library versions, for a table's caption."""
    import numba
    import numpy
    import sklearn

    processor = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    processor = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        intelex = f", scikit-learn-intelex {version('scikit-learn-intelex')}"
    except ImportError:
        intelex = ""
    return (f"{processor}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"numpy {numpy.__version__}, numba {numba.__version__}, scikit-learn "
            f"{sklearn.__version__}{intelex}")


def write_markdown(path, title, header, rows, footer):
    """The table as Markdown: a title, the machine and date, the rows, a footer line."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# {title}", "", f"Measured {when} on {machine_line()}.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    lines += ["", footer, ""]
    with open(path, "w") as out:
        out.write("\n".join(lines))


def run_grid(args, parser):
    import sklearn

    import refml_fast
    from benchmarks import grid

    if args.probe is not None:
        from benchmarks import probe

        chosen = probe.cells(args.probe, args.cells)
    else:
        chosen = chosen_grid(grid, args)
    cells = {cell["name"]: cell for cell in chosen}
    names = [name for name in cells if not args.names or any(
        part in name for part in args.names)]
    if not names:
        parser.error(f"no cell matches {', '.join(args.names)}; the cells are listed by "
                     "--list --grid")
    sides = {"sklearn": grid.sklearn_classes()}
    try:
        import sklearnex  # noqa: F401 (optional)
        if not args.no_intelex:
            sides["sklearnex"] = grid.sklearn_classes(intelex=True)
    except ImportError:
        pass
    header = (f"{'cell':46s} {'refml_fast s':>12s} {'spread':>6s} {'compile s':>9s} "
              f"{'sklearn s':>9s} {'ratio':>6s}")
    if "sklearnex" in sides:
        header += f" {'intelex s':>9s} {'ratio':>6s}"
    header += f" {'agree':>6s}"
    print(header)
    print("-" * len(header))
    worst, worst_name = 0.0, "-"
    rows = []
    for name in names:
        cell = cells[name]
        data = cell["make_data"](args.scale)
        first, fast_median, fast_result, spread = measure(
            lambda data: cell["fast"](data, refml_fast), data, args.repeat, args.settle)
        line = (f"{name:46s} {fast_median:12.4f} {spread:6.0%} "
                f"{max(0.0, first - fast_median):9.2f}")
        agree = None
        row = [name, f"{fast_median:.4f}", f"{spread:.0%}",
               f"{max(0.0, first - fast_median):.2f}"]
        for side, classes in sides.items():
            _, median, result, _ = measure(lambda data: cell["sklearn"](data, classes), data,
                                           args.repeat, args.settle)
            line += f" {median:9.4f} {fast_median / median:6.2f}"
            row += [f"{median:.4f}", f"{fast_median / median:.2f}"]
            if side == "sklearn":
                if fast_median / median > worst:
                    worst, worst_name = fast_median / median, name
                agree = agreement(fast_result, result)
        print(line + f" {agree:6.3f}", flush=True)
        rows.append(row + [f"{agree:.3f}"])
    footer = (f"worst ratio {worst:.2f} ({worst_name}); ratio = refml_fast / scikit-learn "
              f"(median of {args.repeat} runs after a first call; spread = (slowest - "
              f"fastest) / median of refml_fast's runs); {os.cpu_count()} cores, "
              f"scikit-learn {sklearn.__version__}" + ("" if "sklearnex" in sides else
                                                       "; scikit-learn-intelex not run"))
    print("\n" + footer)
    if args.markdown:
        header = ["cell", "refml_fast s", "spread", "compile s", "scikit-learn s", "ratio"]
        if "sklearnex" in sides:
            header += ["intelex s", "ratio vs intelex"]
        title = ("Benchmarks: the probe cells of seed " + str(args.probe)
                 if args.probe is not None else
                 "Benchmarks: the second grid" if args.other else "Benchmarks: the shape grid")
        write_markdown(args.markdown, title, header + ["equal predictions"], rows,
                       footer + ". Written by `python -m benchmarks.run --grid --markdown "
                       "FILE`; not edited by hand.")
    return 0


if __name__ == "__main__":
    from refml.core.command_line import run as run_command

    sys.exit(run_command(main))
