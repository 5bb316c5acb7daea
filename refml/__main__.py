"""The refml command line.

    python -m refml tour [--fast] [--section N|NAME ...] [--list]
    python -m refml gallery DIR [--fast] [--only NAME ...]
    python -m refml gallery --list
    python -m refml --version

``tour`` prints the lectures' numbers as tables; ``gallery`` draws them as PNG figures with
an index page (needs matplotlib: the ``plot`` extra).  Unknown sections or figures, or a
missing matplotlib, end with a message and exit status 2.
"""

import argparse
import sys
import time


def _library(fast):
    """refml, or with ``--fast`` the package registered under the entry point
    ``refml.backends`` (refml_fast, when installed): refml never imports it by name."""
    if not fast:
        import refml
        return refml
    from importlib.metadata import entry_points

    found = list(entry_points(group="refml.backends", name="fast"))
    if not found:
        raise SystemExit("python -m refml: --fast needs refml_fast, installed with the fast "
                         "extra: pip install -e '.[fast]'")
    try:
        library, notice = found[0].load()()
    except ImportError as error:
        raise SystemExit(f"python -m refml: --fast needs numba and numpy ({error}); "
                         "pip install -e '.[fast]'") from None
    if notice:
        print(notice, flush=True)
    return library


def _tour(args, parser):
    from refml import tour as tour_module

    sections = tour_module.available_sections()
    if args.list:
        for number, (name, module) in enumerate(sections, start=1):
            print(f"{number}  {name:18s} {module.TITLE}")
        return 0
    chosen = sections
    if args.section:
        names = [name for name, _ in sections]
        chosen = []
        for wanted in args.section:
            if wanted.isdigit() and 1 <= int(wanted) <= len(sections):
                chosen.append(sections[int(wanted) - 1])
            elif wanted in names:
                chosen.append(sections[names.index(wanted)])
            else:
                parser.error(f"unknown section {wanted!r}: choose a number 1-{len(sections)} "
                             f"or a name ({', '.join(names)}); see --list")
    lib = _library(args.fast)
    print(f"refml tour on {lib.__name__}: {len(chosen)} section(s)\n")
    for name, module in chosen:
        number = [n for n, _ in sections].index(name) + 1
        start = time.perf_counter()
        print(f"{number}. {module.TITLE}")
        print("=" * (len(module.TITLE) + len(str(number)) + 2))
        module.run(lib, print)
        print(f"({time.perf_counter() - start:.1f} s)\n")
    return 0


def _gallery(args, parser):
    from refml import gallery

    figures = gallery.figures()
    if args.list:
        for figure in figures:
            print(f"{figure.name:26s} {figure.title}")
        return 0
    names = [figure.name for figure in figures]
    unknown = [name for name in args.only if name not in names]
    if unknown:
        parser.error(f"unknown figure(s) {', '.join(unknown)}: choose from "
                     f"{', '.join(names)}")
    if args.directory is None:
        parser.error("say where to write the figures: python -m refml gallery DIR")
    try:
        gallery.pyplot()
    except ImportError as error:
        print(f"python -m refml gallery: {error}", file=sys.stderr)
        return 2
    lib = _library(args.fast)
    start = time.perf_counter()
    paths = gallery.write(args.directory, lib, names=args.only or None)
    print(f"{len(paths)} figure(s) and index.md in {args.directory} "
          f"({time.perf_counter() - start:.0f} s)")
    return 0


def main(argv=None):
    import refml

    parser = argparse.ArgumentParser(prog="python -m refml",
                                     description="refml: the classification lectures, run.")
    parser.add_argument("--version", action="version", version=f"refml {refml.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{tour,gallery}")
    tour = commands.add_parser("tour", help="a walk through the lectures, printed as tables")
    tour.add_argument("--fast", action="store_true", help="run the tour on refml_fast")
    tour.add_argument("--section", action="append", default=[], metavar="N|NAME",
                      help="run only this section, by number or name (repeatable)")
    tour.add_argument("--list", action="store_true", help="list the sections and exit")
    gallery = commands.add_parser("gallery", help="draw the lectures' figures as PNG files")
    gallery.add_argument("directory", nargs="?", metavar="DIR",
                         help="where to write the PNG files and index.md (required unless "
                              "--list)")
    gallery.add_argument("--fast", action="store_true",
                         help="compute with refml_fast (faster; needs the fast extra)")
    gallery.add_argument("--only", action="append", default=[], metavar="NAME",
                         help="draw only this figure (repeatable); see --list")
    gallery.add_argument("--list", action="store_true", help="list the figures and exit")
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    run = _tour if args.command == "tour" else _gallery
    return run(args, commands.choices[args.command])


if __name__ == "__main__":
    from refml.core.command_line import run as run_command

    sys.exit(run_command(main))
