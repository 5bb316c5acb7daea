"""Numba kernels of the ensembles: bootstrap draws, and AdaBoost's sums in refml's order
(numpy's pairwise ``sum`` would round differently).

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
