"""``python -m conformance [--full | --quick] [--only N,M] [--seed S]``: the theorem table."""

import argparse
import sys
import time

from ._harness import discover, run


def format_row(cells, widths):
    return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance", description=__doc__)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help="thousands of instances each")
    size.add_argument("--quick", action="store_true", help="the pytest instance counts")
    parser.add_argument("--only", default="", help="comma-separated theorem numbers")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-fast", action="store_true", help="skip checks needing refml_fast")
    args = parser.parse_args(argv)

    theorems = discover(include_fast=not args.no_fast)
    if args.only:
        wanted = {int(n) for n in args.only.split(",")}
        theorems = [t for t in theorems if t.number in wanted]

    def progress(theorem, done, total):
        if done == total or done % 10 == 0:
            sys.stderr.write(f"\r[{theorem.number:2d}] {theorem.title[:50]:50s} {done}/{total}")
            sys.stderr.flush()

    results = []
    start = time.perf_counter()
    for theorem in theorems:
        n = theorem.full if args.full else theorem.quick if args.quick else theorem.default
        results.append(run(theorem, n, seed=args.seed, progress=progress))
    sys.stderr.write("\r" + " " * 80 + "\r")

    headers = ["#", "theorem", "lecture source", "tried", "held", "worst slack"]
    rows = [[r.theorem.number, r.theorem.title, r.theorem.source, r.tried, r.held,
             f"{r.worst_slack:.3g}"] for r in results]
    widths = [max(len(str(row[i])) for row in rows + [headers]) for i in range(len(headers))]
    print(format_row(headers, widths))
    print(format_row(["-" * w for w in widths], widths))
    for row in rows:
        print(format_row(row, widths))
    failed = [r for r in results if not r.ok]
    print(f"\n{len(results) - len(failed)} of {len(results)} checks held on every instance "
          f"({sum(r.tried for r in results)} instances, {time.perf_counter() - start:.1f} s)")
    for r in failed:
        print(f"\nFAILED [{r.theorem.number}] {r.theorem.title}: smallest failing "
              f"{r.failure_text}")
        for error in r.errors[:3]:
            print(f"  {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
