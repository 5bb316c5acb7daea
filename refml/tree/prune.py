"""Minimal cost-complexity pruning (Breiman, Friedman, Olshen and Stone, CART, 1984, ch. 3;
ESL section 9.2.2), the "Pruning" remedy of [Yan] ("Insights" of the tree slides).

For a subtree T of the grown tree, with leaves |T|,

    R_alpha(T) = R(T) + alpha |T|,     R(T) = sum over leaves t of R(t),
    R(t) = |R_t| gamma(R_t) / |R_root|   (the node's weighted impurity sum, over the root's
                                          total weight, as scikit-learn's ``ccp_alpha``).

For each alpha >= 0 there is a unique smallest subtree T(alpha) minimising R_alpha.  It is
computed here in one bottom-up pass: the best cost below node t is
    best(t) = R(t) + alpha                                 if t is a leaf,
    best(t) = min(R(t) + alpha, best(left) + best(right))  otherwise,
and t is collapsed into a leaf whenever R(t) + alpha <= best(left) + best(right) (on a tie
the smaller tree wins, hence "smallest").  This is the same tree that weakest-link pruning
reaches by repeatedly collapsing the node of smallest g(t) = (R(t) - R(T_t)) / (|T_t| - 1)
while g(t) <= alpha.  ``ccp_alpha = 0`` prunes nothing: the grown tree is kept as grown
(a zero-gain split, as in XOR, has R(t) = R(T_t) and would otherwise be removed).

Pruning is not a hot path, so refml_fast runs this same code on its arrays' contents.
"""

from refml.tree.split import LEAF, Tree


def leaf_risks(tree, impurity):
    """R(t) = |R_t| gamma(R_t) / |R_root| for every node t (``impurity``: |R| gamma(R))."""
    root_weight = tree.weighted_n_node_samples[0]
    return [impurity(tree.value[t], tree.weighted_n_node_samples[t]) / root_weight
            for t in range(tree.node_count)]


def collapsed_nodes(tree, impurity, alpha):
    """The set of internal nodes that T(alpha) turns into leaves (bottom-up pass)."""
    risk = leaf_risks(tree, impurity)
    best = [0.0] * tree.node_count
    collapse = set()
    for t in reversed(range(tree.node_count)):  # preorder ids: children after parents
        as_leaf = risk[t] + alpha
        left, right = tree.children_left[t], tree.children_right[t]
        if left == LEAF:
            best[t] = as_leaf
            continue
        below = best[left] + best[right]
        if as_leaf <= below:
            collapse.add(t)
            best[t] = as_leaf
        else:
            best[t] = below
    return collapse


def prune(tree, impurity, alpha):
    """T(alpha) as a new ``Tree`` (ids renumbered in preorder); ``tree`` if alpha == 0."""
    if alpha == 0.0:
        return tree
    collapse = collapsed_nodes(tree, impurity, alpha)
    pruned = Tree(tree.n_classes)
    pending = [(0, LEAF, 0)]
    while pending:
        old, parent, side = pending.pop()
        node = pruned.add_node(tree.value[old], tree.n_node_samples[old], tree.impurity[old])
        pruned.weighted_n_node_samples[node] = tree.weighted_n_node_samples[old]
        if parent != LEAF:
            (pruned.children_left if side == 0 else pruned.children_right)[parent] = node
        if tree.children_left[old] == LEAF or old in collapse:
            continue
        pruned.feature[node] = tree.feature[old]
        pruned.threshold[node] = tree.threshold[old]
        pending.append((tree.children_right[old], node, 1))
        pending.append((tree.children_left[old], node, 0))
    return pruned
