"""``python -m refml tour``: a walk through the lectures, printed as tables.

Each section is a module here with ``TITLE`` and ``run(lib, show)``: ``lib`` is the package
to demonstrate (refml, or refml_fast with ``--fast``) and ``show`` prints one line.
SECTIONS lists them in lecture order.
"""

import importlib

SECTIONS = [
    "pass_fail",            # [Wainwright-L2]: Bayes rule, Bayes risk, plug-in
    "perceptron",           # [Wainwright-L2], [MATH412], [NN-Notes], [IML-L5]: the perceptron
    "nearest_neighbors",    # [IML-L5]: 1-NN against the Bayes risk (Cover-Hart)
    "gaussian_pictures",    # [IML-L5]: the four Gaussian cases, LDA/QDA/logistic/LS/1-NN
    "max_margin",           # [Yan]: separability, hard and soft margin SVM
    "densities",            # [Yan]: histogram, KDE, bandwidths, density classifiers
    "trees_ensembles",      # [Yan]: CART, bagging, random forests, AdaBoost
]


def available_sections():
    """The (name, module) pairs of the sections present, in order."""
    found = []
    for name in SECTIONS:
        try:
            found.append((name, importlib.import_module(f"{__name__}.{name}")))
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    return found


def format_table(headers, rows):
    """Rows of cells as aligned text lines (floats with 4 significant digits)."""
    def cell(value):
        return f"{value:.4g}" if isinstance(value, float) else str(value)

    text = [[cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in text + [headers]) for i in range(len(headers))]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in text]
    return lines
