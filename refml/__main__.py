"""The refml command line: ``python -m refml tour [--fast] [--section NAME]``."""

import argparse
import sys
import time


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m refml")
    commands = parser.add_subparsers(dest="command", required=True)
    tour = commands.add_parser("tour", help="a walk through the lectures, printed as tables")
    tour.add_argument("--fast", action="store_true", help="run the tour on refml_fast")
    tour.add_argument("--section", action="append", default=[],
                      help="run only this section (repeatable)")
    args = parser.parse_args(argv)

    from . import tour as tour_module

    if args.fast:
        import refml_fast as lib
    else:
        import refml as lib
    sections = tour_module.available_sections()
    if args.section:
        sections = [(name, module) for name, module in sections if name in args.section]
    print(f"refml tour on {lib.__name__}: {len(sections)} sections\n")
    for number, (name, module) in enumerate(sections, start=1):
        start = time.perf_counter()
        print(f"{number}. {module.TITLE}")
        print("=" * (len(module.TITLE) + len(str(number)) + 2))
        module.run(lib, print)
        print(f"({time.perf_counter() - start:.1f} s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
