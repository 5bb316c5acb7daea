"""The order in which a sum over samples is added, where a float depends on it.

Floating-point addition is not associative: (a + b) + c and a + (b + c) can differ in the
last bit, and a decision (a line search's test, a stopping rule, an argmax) can turn on that
bit. The lectures write sum_i; code must pick an order, and refml and refml_fast must pick
the same one to give identical answers. Most sums simply run over the samples in order from
0.0 (``linalg.total``, ``linalg.dot``; never the builtin ``sum``, which compensates its
rounding from Python 3.12 on). The long sums of logistic regression (the objective, its
gradient and the Hessian) run in blocks instead:

    the samples in consecutive blocks of ``block`` samples, each block summed from 0.0 in
    sample order, then the blocks' totals added in block order.

The block size is part of that order, hence of the floats: BINARY_SUM_BLOCK samples in the
objective of two classes, SUM_BLOCK otherwise (docs/performance.md says why these sizes).
"""

SUM_BLOCK = 2048
BINARY_SUM_BLOCK = 128


def objective_block(n_classes):
    """The block size of the logistic objective's sums over samples, for ``n_classes``."""
    return BINARY_SUM_BLOCK if n_classes == 2 else SUM_BLOCK


def blocks(n_samples, block):
    """The consecutive ranges [start, stop) of ``block`` samples that cover 0..n_samples - 1
    (the last one shorter when ``block`` does not divide n_samples)."""
    return [(start, min(n_samples, start + block)) for start in range(0, n_samples, block)]
