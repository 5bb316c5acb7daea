"""Numba kernels of the ensembles: bootstrap draws, a member's share of one presort, and
AdaBoost's sums in refml's order (numpy's pairwise ``sum`` would round differently).

All are serial and release the GIL (``_config.kernel``), so a forest fits its members on
several threads.
"""

from ._config import kernel
from ._random import randbelow


@kernel
def bootstrap(state, population, drawn):
    """drawn[i] = population[randbelow(len(population))], i in order: refml's
    ``BaggingClassifier._bootstrap`` on the same SplitMix64 stream (``state`` advanced)."""
    size = population.shape[0]
    for i in range(drawn.shape[0]):
        drawn[i] = population[randbelow(state, size)]


@kernel
def kept_presort(sorted_rows, sorted_values, kept, new_index, out_rows, out_values):
    """The presort of the kept rows only, from the presort of all rows.

    ``sorted_rows[j]`` orders all rows by (value of feature j, index); keeping the rows with
    ``kept[row]`` in that order and renaming row -> new_index[row] (its rank among the kept
    rows, increasing with the index) orders the kept rows by (value, new index): exactly
    what sorting the kept rows' own columns gives.  O(d n) instead of O(d n log n).
    """
    for j in range(sorted_rows.shape[0]):
        write = 0
        for p in range(sorted_rows.shape[1]):
            row = sorted_rows[j, p]
            if kept[row]:
                out_rows[j, write] = new_index[row]
                out_values[j, write] = sorted_values[j, p]
                write += 1


@kernel
def sequential_sum(w):
    """sum_i w_i, left to right."""
    total = 0.0
    for i in range(w.shape[0]):
        total += w[i]
    return total


@kernel
def weighted_error(w, missed):
    """sum_i w_i 1{missed_i} / sum_i w_i, both sums left to right."""
    total = 0.0
    missed_total = 0.0
    for i in range(w.shape[0]):
        total += w[i]
        if missed[i]:
            missed_total += w[i]
    return missed_total / total
