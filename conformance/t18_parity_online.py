"""Item 18 for partial_fit (beyond the lectures): refml and refml_fast, fed the same random
chunks of random data (2 to 5 classes, duplicates, ties, string labels), predict the same
labels and the same decision values or probabilities, for the online learners (the
perceptron, one-vs-rest and multinomial; SGD logistic regression) and the estimators built
from statistics that add up (GaussianNB with random weights, histogram naive Bayes, LDA,
QDA).  A model that does not exist yet must be refused by both packages alike."""

from ._parity import parity_theorem, random_weights

ORDERS = ("cyclic", "batch", "random", "uniform")


def chunked(weighted=False, passes=1):
    """A ``learn`` that splits the rows into random consecutive chunks, ``passes`` times;
    with ``weighted``, random sample weights (the same for both packages)."""

    def learn(estimator, X, y, rng):
        classes = sorted(set(y))
        weights = random_weights(rng, len(y), scales=(1.0, 1e-3)) if weighted else None
        for _ in range(passes):
            start = 0
            while start < len(y):
                stop = min(len(y), start + 1 + rng.randbelow(max(1, len(y) // 2)))
                extra = {} if weights is None else {"sample_weight": weights[start:stop]}
                estimator.partial_fit(X[start:stop], y[start:stop], classes=classes, **extra)
                start = stop
        return estimator

    return learn


def make_perceptron(package, rng):
    return package.Perceptron(order=ORDERS[rng.randbelow(4)],
                              schedule=("constant", "decreasing")[rng.randbelow(2)],
                              learning_rate=(1.0, 0.5, 0.1)[rng.randbelow(3)],
                              fit_intercept=rng.random() < 0.5,
                              multi_class=("ovr", "multinomial")[rng.randbelow(2)],
                              random_state=rng.randbelow(2 ** 31))


def make_logistic(package, rng):
    return package.LogisticRegression(solver="sgd", alpha=(0.0, 0.1)[rng.randbelow(2)],
                                      fit_intercept=rng.random() < 0.5,
                                      random_state=rng.randbelow(2 ** 31))


def make_lda(package, rng):
    return package.LinearDiscriminantAnalysis(
        covariance=("pooled", "mle")[rng.randbelow(2)], reg_param=(0.0, 0.1)[rng.randbelow(2)])


def make_qda(package, rng):
    return package.QuadraticDiscriminantAnalysis(reg_param=(0.0, 0.05, 0.5)[rng.randbelow(3)])


THEOREMS = [
    parity_theorem("partial_fit, Perceptron (both multi-class rules)", make_perceptron,
                   learn=chunked(passes=3), extra_outputs=("decision_function",)),
    parity_theorem("partial_fit, LogisticRegression(solver='sgd')", make_logistic,
                   learn=chunked(passes=2), extra_outputs=("predict_proba",)),
    parity_theorem("partial_fit, GaussianNB with sample weights",
                   lambda package, rng: package.GaussianNB(), learn=chunked(weighted=True),
                   extra_outputs=("predict_proba",)),
    parity_theorem("partial_fit, NaiveBayes with histogram marginals",
                   lambda package, rng: package.NaiveBayes(marginal="histogram",
                                                           bins=1 + rng.randbelow(8)),
                   learn=chunked(), extra_outputs=("predict_proba",)),
    parity_theorem("partial_fit, LinearDiscriminantAnalysis", make_lda, learn=chunked(),
                   extra_outputs=("predict_proba",)),
    parity_theorem("partial_fit, QuadraticDiscriminantAnalysis", make_qda, learn=chunked(),
                   extra_outputs=("predict_proba",)),
]
