"""The text rendering of a fitted tree (``DecisionTreeClassifier.to_text``)."""

from refml.core.linalg import argmax
from refml.tree.split import LEAF


def render(tree, names, classes, decimals, show_weights, max_depth):
    """One line per branch and leaf, depth first, left branch first."""
    depths = node_depths(tree)
    lines = []
    pending = [(0, 0)]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            lines.append(item)
            continue
        node, depth = item
        indent = "|   " * depth + "|--- "
        if tree.children_left[node] == LEAF:
            lines.append(indent + leaf_text(tree, node, classes, decimals, show_weights))
        elif max_depth is not None and depth > max_depth:
            height = subtree_depth(tree, node, depths)
            lines.append(indent + f"truncated branch of depth {height}")
        else:
            name = names[int(tree.feature[node])]
            threshold = f"{float(tree.threshold[node]):.{decimals}f}"
            pending.append((int(tree.children_right[node]), depth + 1))
            pending.append(f"{indent}{name} >  {threshold}")
            pending.append((int(tree.children_left[node]), depth + 1))
            pending.append(f"{indent}{name} <= {threshold}")
    return "\n".join(lines)


def leaf_text(tree, node, classes, decimals, show_weights):
    counts = [float(c) for c in tree.value[node]]
    text = f"class: {classes[argmax(counts)]}"
    if show_weights:
        shown = ", ".join(f"{c:.{decimals}f}" for c in counts)
        text = f"weights: [{shown}] {text}"
    return text


def node_depths(tree):
    """The depth of every node (root 0); preorder ids put children after their parent."""
    depths = [0] * tree.node_count
    for node in range(tree.node_count):
        left, right = int(tree.children_left[node]), int(tree.children_right[node])
        if left != LEAF:
            depths[left] = depths[right] = depths[node] + 1
    return depths


def subtree_depth(tree, node, depths):
    """The height of the subtree below ``node``: preorder ids of a subtree are contiguous."""
    end = node + 1
    while end < tree.node_count and depths[end] > depths[node]:
        end += 1
    return max(depths[node:end]) - depths[node]
