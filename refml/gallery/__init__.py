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


def class_scores(model, points):
    """Continuous scores, one row per point and one column per class of ``classes_``, whose
    argmax is (up to ties) the prediction: the decision function (two classes: its value f
    gives [-f, f]) or the class probabilities; None for a model with neither."""
    if hasattr(model, "decision_function"):
        values = list(model.decision_function(points))
        if values and not hasattr(values[0], "__len__"):
            return [[-float(v), float(v)] for v in values]
        return [[float(v) for v in row] for row in values]
    if hasattr(model, "predict_proba"):
        return [[float(v) for v in row] for row in list(model.predict_proba(points))]
    return None


def margins(scores, k):
    """For class k, its score less the best other class's: >= 0 where k is predicted."""
    return [row[k] - max(v for j, v in enumerate(row) if j != k) for row in scores]


def level_sets(model, xlim, ylim, steps):
    """The grid and, per class, a field that is >= 0 exactly where the class is predicted.
    Contouring a continuous field at 0 draws a smooth boundary where a field of class codes
    draws a staircase of grid cells; models without scores fall back to the codes."""
    xs, ys, points = grid(xlim, ylim, steps)
    scores = class_scores(model, points)
    if scores is None:
        predicted = list(model.predict(points))
        fitted = getattr(model, "classes_", None)
        classes = list(fitted) if fitted is not None else sorted(set(predicted))
        codes = [classes.index(label) for label in predicted]
        fields = [[0.5 - abs(code - k) for code in codes] for k in range(len(classes))]
    else:
        fields = [margins(scores, k) for k in range(len(scores[0]))]
    return xs, ys, [as_rows(field, steps) for field in fields]


def regions(ax, model, xlim, ylim, steps=150, alpha=0.22, outline=None):
    """Shade the plane by the class ``model`` predicts (colours in classes_ order); with
    ``outline`` = (colour, label), also draw a two-class model's boundary, from the same
    predictions."""
    xs, ys, fields = level_sets(model, xlim, ylim, steps)
    for k, field in enumerate(fields):
        ax.contourf(xs, ys, field, levels=[0.0, 1e300], colors=[COLOURS[k]], alpha=alpha)
    if outline is not None:
        ax.contour(xs, ys, fields[1], levels=[0.0], colors=[outline[0]], linewidths=2)
        ax.plot([], [], color=outline[0], linewidth=2, label=outline[1])


def boundary(ax, model, xlim, ylim, colour, label, steps=150, style="-"):
    """Draw the boundary of a two-class ``model``: where its second class's field is 0."""
    xs, ys, fields = level_sets(model, xlim, ylim, steps)
    ax.contour(xs, ys, fields[1], levels=[0.0], colors=[colour], linestyles=[style],
               linewidths=2)
    ax.plot([], [], color=colour, linestyle=style, linewidth=2, label=label)


def nearest_neighbour_boundary(ax, lib, X, y, xlim, ylim, colour, label, steps=100,
                               style="-"):
    """The 1-NN rule's boundary on the sample (X, y) of two classes, drawn smooth: where the
    nearest point of one class is as far as the nearest of the other (the library's k-NN,
    fitted on each class alone, measures the distances).  The rule's prediction is a step
    function, whose contour on a grid is a staircase; this field is continuous."""
    xs, ys, points = grid(xlim, ylim, steps)
    rows, labels = [list(map(float, row)) for row in list(X)], list(y)
    nearest = []
    for label_ in sorted(set(labels)):
        own = [row for row, v in zip(rows, labels) if v == label_]
        # kneighbors reads the rows only; the labels are any two (fit asks for two classes).
        model = lib.KNeighborsClassifier(n_neighbors=1).fit(own, [i % 2 for i in
                                                                  range(len(own))])
        nearest.append([float(row[0]) for row in list(model.kneighbors(points)[0])])
    field = [first - second for first, second in zip(*nearest)]
    ax.contour(xs, ys, as_rows(field, steps), levels=[0.0], colors=[colour],
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


def finish(ax, title, xlabel="$x_1$", ylabel="$x_2$", legend=True):
    """Title and labels; the legend goes under the axes, where it covers no data."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend:
        entries = len(ax.get_legend_handles_labels()[1])
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=min(entries, 3),
                  frameon=False)
