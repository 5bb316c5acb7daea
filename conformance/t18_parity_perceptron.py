"""Item 18 for the perceptron: refml and refml_fast predict the same labels and the same
decision values, for every order, schedule and fit_intercept, on random data (duplicates,
ties, one feature, string labels; mostly not separable, so the pass cap is hit) and on
separable data (where the runs end by convergence), and on data of 2 to 5 classes
(one-vs-rest, beyond the lectures)."""

from ._parity import parity_theorem, random_dataset
from .t04_perceptron import separable_dataset

ORDERS = ("cyclic", "batch", "random", "uniform")
SCHEDULES = ("constant", "decreasing")
STEPS = (1.0, 0.5, 0.1, 2.0)
TOLS = (None, 1e-3, 0.0, 0.1)


def make_perceptron(package, rng):
    return package.Perceptron(order=ORDERS[rng.randbelow(len(ORDERS))],
                              schedule=SCHEDULES[rng.randbelow(2)],
                              learning_rate=STEPS[rng.randbelow(len(STEPS))],
                              fit_intercept=rng.random() < 0.5,
                              max_iter=1 + rng.randbelow(20),
                              tol=TOLS[rng.randbelow(len(TOLS))],
                              n_iter_no_change=1 + rng.randbelow(5),
                              random_state=rng.randbelow(2 ** 31))


def binary_dataset(rng):
    return random_dataset(rng, binary=True)


def separable_with_queries(rng):
    X, y, _, _ = separable_dataset(rng)
    d = len(X[0])
    X_query = [[2.0 * rng.normal() for _ in range(d)] for _ in range(10)] + X[:5]
    return X, y, X_query


THEOREMS = [
    parity_theorem("Perceptron, random binary data", make_perceptron, binary_dataset,
                   extra_outputs=("decision_function",)),
    parity_theorem("Perceptron, separable data", make_perceptron, separable_with_queries,
                   extra_outputs=("decision_function",)),
    parity_theorem("Perceptron, 2 to 5 classes (one-vs-rest)", make_perceptron,
                   extra_outputs=("decision_function",)),
]
