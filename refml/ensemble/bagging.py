"""Bagging and random forests ([Yan], Yan: "Bootstrap aggregating (Bagging)",
"Insights", "Random forests").

Bagging.  From the training data Z_n = {(X_i, Y_i)}, draw B bootstrap samples Z^(*b) (n points
drawn uniformly with replacement), fit the learning algorithm on each to get f_b, and
predict by majority vote

    f_bag(x) = argmax_k sum_{b=1}^B 1{f_b(x) = k}.

Random forest.  Bagged trees where, before each split, only m << d randomly chosen
features are candidates (typically m = sqrt(d)): the "random dropout" that decorrelates the
trees, since the variance of an average of B identically distributed variables of
variance sigma^2 and pairwise correlation rho is rho sigma^2 + (1 - rho) sigma^2 / B, and a
larger B only shrinks the second term (conformance/t15_bagging_variance.py).

Randomness (docs/design.md section 4).  One master generator (``random_state``) draws a
64-bit seed s_b
for every member, b = 1..B, in order, before any member is fitted.  Member b then uses only
``Generator(s_b)``: first the n bootstrap indices, then one more draw seeds the member's own
``random_state`` (a forest tree's feature subsets).  So members can be fitted in any order or
in parallel (refml_fast fits them on threads) with identical results, and the first b
members of a B-member ensemble are exactly the b-member ensemble with the same seed.
"""

from refml.core import validation
from refml.core.linalg import argmax
from refml.core.random import Generator, check_random_state, validate_random_state
from refml.ensemble.committee import Committee, SingleClassVoter, accepts_sample_weight

# ----------------------------------------------------------------------------------------
# 1. The bootstrap and the vote.


def bootstrap(rng, population):
    """Z^(*b) as row indices: len(population) uniform draws, with replacement, from
    ``population`` (the rows of positive weight)."""
    size = len(population)
    return [population[rng.randbelow(size)] for _ in range(size)]


def draw_counts(drawn, n_rows):
    """c_i: how many times row i was drawn (a member fitted with weights c_i w_i sees the
    bootstrap sample itself)."""
    counts = [0] * n_rows
    for i in drawn:
        counts[i] += 1
    return counts


def votes(member_predictions, n_rows, n_classes):
    """votes[i][k] = sum_b 1{f_b(x_i) = k}, from each member's predicted codes."""
    table = [[0] * n_classes for _ in range(n_rows)]
    for predicted in member_predictions:
        for i, k in enumerate(predicted):
            table[i][k] += 1
    return table


def majority_vote(row):
    """f_bag(x) = argmax_k sum_b 1{f_b(x) = k}, ties to the first class in classes_."""
    return argmax(row)


# ----------------------------------------------------------------------------------------
# 2. The estimators.


class BaggingClassifier(Committee):
    """Bootstrap aggregating: B members fitted on bootstrap samples, majority vote.

    Parameters
    ----------
    estimator : estimator or None
        The learning algorithm, cloned for every member.  None: a fully grown
        ``DecisionTreeClassifier`` of the same package.
    n_estimators : int >= 1
        B, the number of bootstrap samples and members.
    random_state : int, numpy RandomState or Generator, or None
        Seed of the master generator (see the module docstring); None: fresh entropy.
    n_jobs : non-zero int or None
        Threads fitting members in refml_fast (-1: every core, -2: all but one, as joblib
        counts; None: every core, where scikit-learn's None is one).  refml fits its
        members in order whatever n_jobs is; the result is the same.

    Attributes
    ----------
    estimators_ : the B fitted members, in order b = 1..B.
    estimator_ : the unfitted template they were cloned from.
    classes_, n_features_in_.

    Notes
    -----
    A bootstrap sample is represented by its counts: member b is fitted on all n rows with
    sample weights c_i w_i, where c_i is the number of times row i was drawn (w_i the
    sample weight, 1 by default).  For the trees of this package with the default n0 = 2
    this is exactly the lecture's fit on Z^(*b): the weights count in the impurities and
    votes as repeated rows would, and a node can be split only if it holds two distinct
    rows either way; with a larger n0 a node counts its distinct rows, as scikit-learn's
    forests do.  It also keeps every class in each member's ``classes_``.  A base estimator
    whose ``fit`` takes no ``sample_weight`` is fitted on the drawn rows themselves, in the
    order drawn (fit then refuses sample weights other than 0 and 1, which it could not
    apply); a sample drawn with a single class gives a member that always votes for it.
    The weights are first divided by the smallest positive one, so that uniform weights of
    any scale are the unweighted fit exactly.

    Rows of weight 0 are absent: the bootstrap draws n+ points from the n+ rows of positive
    weight.

    Votes: ``predict`` is the majority vote, ties to the first class in ``classes_``;
    ``predict_proba`` is the fraction of members voting for each class, so its argmax is
    ``predict``.  (scikit-learn averages the members' probabilities instead; for fully
    grown trees, whose leaves are nearly always pure, the two agree.)

    Invariances (conformance item 20): the features' common scale and uniform weights of any
    scale change no prediction (with trees as members).  The rows' order and every row
    twice can (the bootstrap draws row indices), and so can the classes' names (members'
    votes tie, and a tie goes to the first class); for a forest, the features' order too
    (it draws feature indices).

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]
    >>> model = BaggingClassifier(n_estimators=5, random_state=0).fit(X, [0, 0, 0, 1, 1, 1])
    >>> model.predict([[0.5], [4.5]])
    [0, 1]
    """

    # The one scikit-learn common check that does not apply (scikit-learn declares it for
    # its own bagging and forests too): with weights, row i enters a bootstrap once with
    # weight w_i times its count, which is not the same random model as repeating row i.
    _expected_failed_checks = {
        "check_sample_weight_equivalence_on_dense_data":
            "a bootstrap of weighted rows is not a bootstrap of repeated rows",
    }

    def __init__(self, estimator=None, n_estimators=10, *, random_state=None, n_jobs=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _check_params(self, X):
        super()._check_params(X)
        check_n_jobs(self.n_jobs)
        validate_random_state(self.random_state)

    # --- fitting ----------------------------------------------------------------------------
    def _fit(self, X, codes, weights):
        template = self._template(X)
        self.estimator_ = template
        master = check_random_state(self.random_state)
        seeds = [master.next_u64() for _ in range(self.n_estimators)]  # s_1, ..., s_B first
        weights = self._relative_weights(weights)     # uniform weights of any scale: 1.0
        population = self._population(weights)
        if not accepts_sample_weight(template) and self._has_weights_besides_0_1(weights):
            raise ValueError(f"sample_weight other than 0 and 1 needs a base estimator whose "
                             f"fit takes sample_weight; {type(template).__name__} does not")
        X = self._members_matrix(X, weights)
        try:
            self.estimators_ = self._fit_members(X, codes, weights, template, seeds, population)
        finally:
            self.__dict__.pop("_member_edges", None)

    def _fit_members(self, X, codes, weights, template, seeds, population):
        """Member b from seed s_b, for b = 1..B in order (refml_fast: on n_jobs threads)."""
        return [self._fit_one(X, codes, weights, template, seed, population) for seed in seeds]

    def _fit_one(self, X, codes, weights, template, seed, population):
        """Draw Z^(*b) from Generator(seed), then fit one member on it."""
        rng = Generator(seed)
        drawn = self._bootstrap(rng, population)
        member = self._new_member(template, rng.next_u64())
        if accepts_sample_weight(member):
            member_weights = self._member_weights(self._counts(drawn, len(codes)), weights)
            return self._fit_member(member, X, codes, member_weights)
        rows, labels = self._rows(X, drawn), self._labels_from_codes(self._take(codes, drawn))
        if len(set(labels)) < 2:
            return SingleClassVoter(labels[0])
        return member.fit(rows, labels)

    @staticmethod
    def _population(weights):
        """The rows of positive weight, in index order."""
        return [i for i, w in enumerate(weights) if w > 0.0]

    @staticmethod
    def _has_weights_besides_0_1(weights):
        return any(w not in (0.0, 1.0) for w in weights)

    @staticmethod
    def _bootstrap(rng, population):
        return bootstrap(rng, population)

    @staticmethod
    def _counts(drawn, n_rows):
        return draw_counts(drawn, n_rows)

    @staticmethod
    def _member_weights(counts, weights):
        """c_i w_i: the bootstrap counts times the sample weights."""
        return [c * w for c, w in zip(counts, weights)]

    @staticmethod
    def _rows(X, drawn):
        return [X[i] for i in drawn]

    @staticmethod
    def _take(codes, drawn):
        return [codes[i] for i in drawn]

    # --- prediction -------------------------------------------------------------------------
    def _votes(self, X):
        predictions = (self._member_codes(member, X) for member in self.estimators_)
        return votes(predictions, len(X), len(self.classes_))

    def _predict_codes(self, X):
        return [majority_vote(row) for row in self._votes(X)]

    def predict_proba(self, X):
        """The fraction of the B members voting for each class (columns in classes_ order)."""
        X = self._validate_predict(X)
        return self._as_output(self._vote_fractions(X))

    def _vote_fractions(self, X):
        n_members = len(self.estimators_)
        return [[v / n_members for v in row] for row in self._votes(X)]


class RandomForestClassifier(BaggingClassifier):
    """Bagged classification trees with m randomly drawn candidate features per split.

    Parameters
    ----------
    n_estimators : int >= 1
        B, the number of trees.
    max_features : "sqrt", "log2", int, float in (0, 1] or None
        m, the number of candidate features drawn afresh before every split: "sqrt" is the
        lecture's typical m = floor(sqrt(d)) (at least 1); None: all d (plain bagging).
    criterion, max_depth, min_samples_split, min_samples_leaf : as in
        ``DecisionTreeClassifier`` (default: Gini, fully grown, n0 = 2, leaves of 1 row).
        n0 counts a node's distinct rows: a row drawn m times into a bootstrap sample is
        one row of weight m, as in scikit-learn's forests, and sample weights of any common
        scale give the same forest.
    random_state, n_jobs : as in ``BaggingClassifier``.
    max_bins : int >= 2 or None, default None
        None: exact CART trees.  An integer B: histogram trees (beyond the lectures,
        ``refml.tree.histogram``): the forest cuts each feature once into at most B bins at
        quantiles of its training rows (of positive weight), and every tree splits between
        those bins only.

    Attributes: ``estimators_`` (the B trees), ``estimator_`` (their template),
    ``classes_``, ``n_features_in_``.  Votes, ``predict_proba`` and the bootstrap are those
    of ``BaggingClassifier``; each tree's feature draws come from its own seed, so a forest
    fitted on threads equals the forest fitted in order.

    Examples
    --------
    >>> X = [[0.0, 5.0], [1.0, 3.0], [2.0, 4.0], [3.0, 0.0], [4.0, 2.0], [5.0, 1.0]]
    >>> forest = RandomForestClassifier(n_estimators=7, random_state=1).fit(X, list("aaabbb"))
    >>> forest.predict([[0.5, 4.5], [4.5, 0.5]])
    ['a', 'b']
    """

    def __init__(self, n_estimators=100, *, max_features="sqrt", criterion="gini",
                 max_depth=None, min_samples_split=2, min_samples_leaf=1, random_state=None,
                 n_jobs=None, max_bins=None):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.max_bins = max_bins

    def _template(self, X):
        tree = self._tree_class(criterion=self.criterion, max_depth=self.max_depth,
                                min_samples_split=self.min_samples_split,
                                min_samples_leaf=self.min_samples_leaf,
                                max_features=self.max_features, max_bins=self.max_bins)
        tree._check_params(X)  # a bad tree hyper-parameter fails here, naming itself
        return tree

    def _members_matrix(self, X, weights):
        """With ``max_bins``: the edges, computed once for all the trees, and X's codes."""
        X = super()._members_matrix(X, weights)
        if self.max_bins is None:
            return X
        self._member_edges = self._tree_class._bin_edges(X, weights, int(self.max_bins))
        return self._tree_class._bins.binned(X, self._member_edges)


def check_n_jobs(n_jobs):
    """None, a positive number of threads, or joblib's negative counts: -1 every core, -2
    every core but one, and so on (at least one).  0 is refused."""
    if n_jobs is None:
        return n_jobs
    validation.check_scalar(n_jobs, "n_jobs", "int")
    if n_jobs == 0:
        raise ValueError("Invalid parameter n_jobs=0: must be a non-zero integer or None "
                         "(-1 for every core, -2 for every core but one)")
    return n_jobs
