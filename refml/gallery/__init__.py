"""``python -m refml gallery [DIR]``: the lectures' pictures, drawn by the library itself.

Every figure is computed by refml's own estimators (or refml_fast's with ``--fast``) and
drawn with matplotlib, which only this subpackage imports (the ``plot`` extra).  Each module
here lists its figures in FIGURES as ``Figure`` records: the file stem, a title, a caption
citing the lecture (bibliography keys of docs/lectures.md) and the module, and
``draw(plt, lib)`` returning a matplotlib figure.  ``write`` saves them as PNG files with an
index page, ``index.md``, that shows each figure above its caption.
"""

import importlib
import os
import time
from collections import namedtuple

Figure = namedtuple("Figure", "name title caption draw")

MODULES = ["bayes", "linear", "margin", "densities", "trees", "neighbors"]

# Class colours (colour-blind safe: Okabe-Ito) and the size of a slide figure, in inches.
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]
WIDE, TALL = (12.0, 5.0), (7.0, 6.0)


def figures():
    """Every Figure, in lecture order."""
    found = []
    for name in MODULES:
        found.extend(importlib.import_module(f"{__name__}.{name}").FIGURES)
    return found


def pyplot():
    """matplotlib.pyplot on the Agg backend (files only, no window), with slide-sized text;
    ImportError with the install command when matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError("the gallery draws with matplotlib, which is not installed: "
                          "pip install 'refml[plot]' (or pip install matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12,
                         "legend.fontsize": 10, "figure.dpi": 100, "savefig.dpi": 100})
    return plt


def write(directory, lib, names=None, show=print):
    """Draw the figures (all, or those whose stems are in ``names``) into ``directory`` and
    write ``index.md``; returns the paths of the PNG files."""
    plt = pyplot()
    os.makedirs(directory, exist_ok=True)
    chosen = [f for f in figures() if names is None or f.name in names]
    paths, entries = [], []
    for number, figure in enumerate(chosen, start=1):
        start = time.perf_counter()
        drawing = figure.draw(plt, lib)
        path = os.path.join(directory, f"{figure.name}.png")
        drawing.savefig(path, bbox_inches="tight")
        plt.close(drawing)
        paths.append(path)
        entries.append(f"## {number}. {figure.title}\n\n![{figure.title}]({figure.name}.png)\n\n"
                       f"{figure.caption}\n")
        show(f"{path}  ({time.perf_counter() - start:.1f} s)")
    with open(os.path.join(directory, "index.md"), "w", encoding="utf-8") as index:
        index.write(f"# The refml gallery\n\nDrawn by `python -m refml gallery` with "
                    f"{lib.__name__}'s estimators.  Lecture keys: docs/lectures.md in the "
                    f"refml repository.\n\n" + "\n".join(entries))
    return paths


# --- drawing helpers shared by the modules ---------------------------------------------------

def grid(xlim, ylim, steps):
    """The steps x steps points of the rectangle, as rows [x1, x2], x1 varying fastest."""
    xs = [xlim[0] + (xlim[1] - xlim[0]) * i / (steps - 1) for i in range(steps)]
    ys = [ylim[0] + (ylim[1] - ylim[0]) * i / (steps - 1) for i in range(steps)]
    return xs, ys, [[x, y] for y in ys for x in xs]


def as_rows(values, steps):
    values = [float(v) for v in values]
    return [values[i * steps:(i + 1) * steps] for i in range(steps)]


def regions(ax, model, xlim, ylim, steps=90, alpha=0.22):
    """Shade the plane by the class ``model`` predicts (class codes in classes_ order)."""
    xs, ys, points = grid(xlim, ylim, steps)
    classes = list(model.classes_)
    codes = [classes.index(label) for label in list(model.predict(points))]
    from matplotlib.colors import ListedColormap

    ax.contourf(xs, ys, as_rows(codes, steps), levels=[i - 0.5 for i in range(len(classes) + 1)],
                cmap=ListedColormap(COLOURS[:len(classes)]), alpha=alpha)
    return xs, ys, codes


def boundary(ax, model, xlim, ylim, colour, label, steps=90, style="-"):
    """Draw the boundary of a two-class ``model`` (where its prediction changes)."""
    xs, ys, points = grid(xlim, ylim, steps)
    predicted = list(model.predict(points))
    fitted = getattr(model, "classes_", None)
    classes = list(fitted) if fitted is not None else sorted(set(predicted))
    codes = [classes.index(label_) for label_ in predicted]
    ax.contour(xs, ys, as_rows(codes, steps), levels=[0.5], colors=[colour],
               linestyles=[style], linewidths=2)
    ax.plot([], [], color=colour, linestyle=style, linewidth=2, label=label)


def scatter(ax, X, y, classes=None, size=18, names=None):
    """The sample, one colour per class, with a legend entry per class."""
    X, y = [list(map(float, row)) for row in list(X)], list(y)
    classes = classes if classes is not None else sorted(set(y))
    for k, label in enumerate(classes):
        rows = [x for x, v in zip(X, y) if v == label]
        name = names[k] if names else f"class {label}"
        ax.scatter([r[0] for r in rows], [r[1] for r in rows], s=size, color=COLOURS[k],
                   edgecolors="white", linewidths=0.4, label=name, zorder=3)


def finish(ax, title, xlabel="$x_1$", ylabel="$x_2$", legend=True, loc="best"):
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend:
        ax.legend(loc=loc, framealpha=0.9)
