"""Gallery: a tree's partition of the plane and the tree as a diagram; ensembles against
their number of members; AdaBoost's training error and its bound."""

import math

from refml.gallery import COLOURS, WIDE, Figure, finish, regions, scatter
from refml.tour.trees_ensembles import first_members

LIMITS = (-3.0, 4.2)


def _data(lib, n, seed, shift=1.2):
    classes = lib.GaussianClasses(priors=[0.5, 0.5], means=[[0.0, 0.0], [shift, shift]],
                                  covariances=[[[1.0, 0.0], [0.0, 1.0]]] * 2)
    return classes, classes.sample(n, random_state=seed)


def _splits(ax, tree, node, box):
    """Draw the split segment of ``node`` inside ``box`` = [x_lo, x_hi, y_lo, y_hi]."""
    left = int(tree.children_left[node])
    if left < 0:
        return
    feature, threshold = int(tree.feature[node]), float(tree.threshold[node])
    if feature == 0:
        ax.plot([threshold, threshold], box[2:], color="black", linewidth=2)
        _splits(ax, tree, left, [box[0], threshold] + box[2:])
        _splits(ax, tree, int(tree.children_right[node]), [threshold, box[1]] + box[2:])
    else:
        ax.plot(box[:2], [threshold, threshold], color="black", linewidth=2)
        _splits(ax, tree, left, box[:2] + [box[2], threshold])
        _splits(ax, tree, int(tree.children_right[node]), box[:2] + [threshold, box[3]])


def _diagram(ax, tree, classes):
    """The tree drawn top-down: leaves spread evenly, each parent above its children."""
    positions, next_leaf = {}, [0]

    def place(node, depth):
        left, right = int(tree.children_left[node]), int(tree.children_right[node])
        if left < 0:
            positions[node] = (next_leaf[0], -depth)
            next_leaf[0] += 1
        else:
            place(left, depth + 1)
            place(right, depth + 1)
            positions[node] = ((positions[left][0] + positions[right][0]) / 2, -depth)

    place(0, 0)
    for node, (x, y) in positions.items():
        left = int(tree.children_left[node])
        counts = [float(v) for v in tree.value[node]]
        if left >= 0:
            for child, side in ((left, "yes"), (int(tree.children_right[node]), "no")):
                cx, cy = positions[child]
                ax.plot([x, cx], [y, cy], color="grey", zorder=1)
                ax.text((x + cx) / 2, (y + cy) / 2, side, fontsize=9, color="grey",
                        ha="center", va="center", backgroundcolor="white")
            text = f"$x_{int(tree.feature[node]) + 1} \\leq {float(tree.threshold[node]):.2f}$"
            colour = "white"
        else:
            winner = counts.index(max(counts))
            text = f"class {classes[winner]}"
            colour = COLOURS[winner]
        text += f"\n{counts[0]:.0f} / {counts[1]:.0f}"
        ax.text(x, y, text, ha="center", va="center", fontsize=10, zorder=2,
                bbox={"boxstyle": "round", "facecolor": colour, "alpha": 0.85})
    ax.set_xlim(-0.7, next_leaf[0] - 0.3)
    ax.set_ylim(min(y for _, y in positions.values()) - 0.6, 0.6)
    ax.axis("off")


def tree_partition(plt, lib):
    _, (X, y) = _data(lib, 300, 1)
    model = lib.DecisionTreeClassifier(max_depth=3).fit(X, y)
    figure, (left, right) = plt.subplots(1, 2, figsize=(14.0, 6.0),
                                         gridspec_kw={"width_ratios": [1, 1.4]})
    regions(left, model, LIMITS, LIMITS, steps=150, alpha=0.25)
    _splits(left, model.tree_, 0, list(LIMITS) + list(LIMITS))
    scatter(left, X, y, classes=[0, 1], size=12)
    left.set_xlim(*LIMITS)
    left.set_ylim(*LIMITS)
    finish(left, "Axis-parallel cells of a depth-3 Gini tree")
    _diagram(right, model.tree_, list(model.classes_))
    right.set_title("The same tree (class counts class 0 / class 1 in each node)")
    return figure


def ensembles(plt, lib):
    classes, (X, y) = _data(lib, 300, 1)
    X_test, y_test = classes.sample(2000, random_state=2)
    members = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120]
    models = [("bagging (full trees)", lib.BaggingClassifier(n_estimators=120, random_state=0)),
              ("random forest", lib.RandomForestClassifier(n_estimators=120, random_state=0)),
              ("AdaBoost (stumps)", lib.AdaBoostClassifier(n_estimators=120))]
    figure, ax = plt.subplots(figsize=(9.0, 6.0))
    for (name, model), colour in zip(models, COLOURS):
        model.fit(X, y)
        errors = [1.0 - first_members(model, b).score(X_test, y_test) for b in members]
        ax.plot(members, errors, "o-", color=colour, linewidth=2, label=name)
    single = 1.0 - lib.DecisionTreeClassifier().fit(X, y).score(X_test, y_test)
    ax.axhline(single, color="grey", linestyle=":", linewidth=2,
               label=f"one full tree ({single:.3f})")
    ax.axhline(classes.bayes_risk(), color="black", linestyle="--", linewidth=2,
               label=f"Bayes risk R* = {classes.bayes_risk():.3f}")
    ax.set_xscale("log")
    finish(ax, "Test error against the number of members B (n = 300, 2,000 test points)",
           "B (log scale)", "test error")
    return figure


def adaboost_bound(plt, lib):
    _, (X, y) = _data(lib, 300, 1, shift=2.5)
    model = lib.AdaBoostClassifier(n_estimators=200).fit(X, y)
    errors = [float(e) for e in model.estimator_errors_]
    rounds = list(range(1, len(errors) + 1))
    bound, product = [], 1.0
    for e in errors:
        product *= 2.0 * math.sqrt(e * (1.0 - e))
        bound.append(product)
    training = [1.0 - first_members(model, b).score(X, y) for b in rounds]
    figure, (left, right) = plt.subplots(1, 2, figsize=WIDE)
    left.semilogy(rounds, bound, color="black", linewidth=2,
                  label=r"bound $\prod_{b \leq B} 2\sqrt{\epsilon_b(1 - \epsilon_b)}$")
    shown = [(b, t) for b, t in zip(rounds, training) if t > 0.0]
    left.semilogy([b for b, _ in shown], [t for _, t in shown], color=COLOURS[0],
                  linewidth=2, label="training error (where > 0)")
    zero_from = next((b for b in rounds if not any(training[b - 1:])), None)
    if zero_from is not None:
        left.axvline(zero_from, color=COLOURS[0], linestyle=":", linewidth=2,
                     label=f"training error 0 from B = {zero_from} on")
    finish(left, "AdaBoost's training error under its bound", "round B", "error (log scale)")
    right.plot(rounds, errors, color=COLOURS[1], linewidth=1.5,
               label=r"weighted error $\epsilon_b$ of stump b")
    right.axhline(0.5, color="grey", linestyle="--", label="1/2: no better than chance")
    finish(right, "Each stump is a weak learner", "round b", r"$\epsilon_b$")
    figure.suptitle("AdaBoost with stumps on two Gaussian classes, means (0, 0) and (2.5, 2.5), "
                    "n = 300")
    return figure


FIGURES = [
    Figure("tree_partition", "A classification tree: its cells and its diagram",
           "A depth-3 tree grown by Gini impurity cuts the plane into axis-parallel cells, "
           "each voting for its majority class; the diagram shows the same splits and the "
           "class counts in every node.  [Yan] classification trees; "
           "refml.tree.DecisionTreeClassifier.", tree_partition),
    Figure("ensembles_vs_members", "Bagging, random forests and AdaBoost against B",
           "Test error of the first B members of each ensemble.  Averaging bootstrapped "
           "trees cuts the single tree's variance and levels off; the random forest "
           "decorrelates its trees further; AdaBoost starts from one stump and removes bias "
           "round by round.  [Yan] bagging, random forests, AdaBoost; refml.ensemble.",
           ensembles),
    Figure("adaboost_training_bound", "AdaBoost's training error and its bound",
           "The training error of AdaBoost after B rounds never exceeds "
           "prod_b 2 sqrt(eps_b (1 - eps_b)): every factor is below 1 while the stump beats "
           "chance (eps_b < 1/2), so the bound falls geometrically as long as the stumps stay "
           "better than chance by a margin; later stumps, fitted to the hard points, come "
           "close to 1/2 and the bound flattens.  [Yan] AdaBoost; "
           "refml.ensemble.AdaBoostClassifier.",
           adaboost_bound),
]
