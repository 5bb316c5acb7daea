"""python -m conformance: check the lectures' theorems on random instances, as a table."""

import argparse
import json
import sys
import textwrap
import time

import refml
from refml.core.command_line import run as run_command

from ._harness import discover, run

TITLE_WIDTH = 60
FOOTER = ("worst slack: over the instances tried, the smallest distance from violating the "
          "statement (b - a for an inequality a <= b; minus the discrepancy beyond the "
          "tolerance for an identity; minus the number of disagreeing predictions for "
          "parity).  0 or more on every instance means the statement held; inf means no "
          "instance came near.")


def format_row(cells, widths):
    return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()


def parse_numbers(text, known, parser):
    """The theorem numbers of --only, each checked against ``known``."""
    try:
        wanted = {int(n) for n in text.split(",") if n.strip()}
    except ValueError:
        parser.error(f"--only takes comma-separated theorem numbers, got {text!r}")
    unknown = sorted(wanted - known)
    if unknown:
        parser.error(f"no theorem numbered {', '.join(map(str, unknown))}; the numbers are "
                     f"{min(known)}-{max(known)} (see --help)")
    return wanted


def write_json(path, results, seed):
    """The rows as JSON: one object per check, with the module that defines it."""
    rows = [{"number": r.theorem.number, "title": r.theorem.title, "source": r.theorem.source,
             "module": r.theorem.module, "tried": r.tried, "held": r.held, "ok": r.ok,
             "worst_slack": f"{r.worst_slack:.3g}"} for r in results]
    document = {"version": refml.__version__, "seed": seed, "checks": rows,
                "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=1)


def main(argv=None):
    listing = "\n".join(f"  {t.number:2d}  {t.title}" for t in discover(include_fast=True)
                         if t.title)
    parser = argparse.ArgumentParser(
        prog="python -m conformance", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Check the lectures' theorems, and refml/refml_fast parity, on random\n"
                    "instances; prints one row per check and exits 1 if any failed.",
        epilog="theorems (numbers for --only):\n" + listing)
    parser.add_argument("--version", action="version",
                        version=f"conformance of refml {refml.__version__}")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help="thousands of instances each")
    size.add_argument("--quick", action="store_true", help="the pytest instance counts")
    parser.add_argument("--only", default="", metavar="N,M",
                        help="run only these theorem numbers (comma-separated)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of every theorem's instance generator (default 0); the "
                             "same seed replays the same instances")
    parser.add_argument("--no-fast", action="store_true", help="skip checks needing refml_fast")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the rows to FILE as JSON (the documentation site "
                             "shows them on each chapter's page)")
    args = parser.parse_args(argv)

    theorems = discover(include_fast=not args.no_fast)
    if args.only:
        wanted = parse_numbers(args.only, {t.number for t in theorems}, parser)
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

    headers = ["#", "theorem (lecture source)", "tried", "held", "worst slack"]
    widths = [2, TITLE_WIDTH, 7, 7, 11]
    print(format_row(headers, widths))
    print(format_row(["-" * w for w in widths], widths))
    for r in results:
        lines = textwrap.wrap(r.theorem.title, TITLE_WIDTH) + textwrap.wrap(
            f"({r.theorem.source})", TITLE_WIDTH, initial_indent="  ", subsequent_indent="  ")
        print(format_row([r.theorem.number, lines[0], r.tried, r.held,
                          f"{r.worst_slack:.3g}"], widths))
        for line in lines[1:]:
            print(format_row(["", line], widths))
    failed = [r for r in results if not r.ok]
    if args.json:
        write_json(args.json, results, args.seed)
    print(f"\n{len(results) - len(failed)} of {len(results)} checks held on every instance "
          f"({sum(r.tried for r in results)} instances, {time.perf_counter() - start:.1f} s)")
    print("\n".join(textwrap.wrap(FOOTER, 2 + TITLE_WIDTH + 7 + 7 + 11 + 8)))
    for r in failed:
        print(f"\nFAILED [{r.theorem.number}] {r.theorem.title}: smallest failing "
              f"{r.failure_text}")
        for error in r.errors[:3]:
            print(f"  {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run_command(main))
