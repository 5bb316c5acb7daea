"""Bagging, random forests and AdaBoost over numpy arrays: refml.ensemble with members from
refml_fast.tree and the loops over rows as numpy operations or kernels
(``kernels``).  Identical members, votes, weights and predictions to refml's
(conformance/t18_parity_ensemble.py).

What is faster here, and why it gives the same numbers:
- One ranking for the whole fit.  The training set's columns are ranked once (the tree's
  ``all_ranks``); every tree member orders its rows by those ranks with linear sorts
  (presorted segments, or sorting at each node when it searches a fraction of the
  features, as a forest does: ``grow``) instead of sorting values again: the same
  order and the same ties as its own ranking would give, so the same tree.  AdaBoost's
  rounds all reuse them (scikit-learn sorts again in every round).  Extra memory: the
  ranks (half the size of X) plus, per thread, one member's presort (X's size times the
  kept fraction) or, sorting at nodes, five row-sized arrays.
- Bagging and forests fit members on ``n_jobs`` threads (None: every core; members
  below MEMBER_WORK_FOR_THREADS on one thread).  Member b depends only on its seed
  s_b, drawn from the master generator before any fitting, and the tree kernels release
  the GIL, so threads give the members that refml fits in order.  Tree members of this
  package go from their seeds to their grown trees in one kernel call a batch
  (``tree_members``), where its steps apply; the shared ranks are made on the same
  threads.  Inside ``joblib.parallel_config(backend=...)`` (dask's, on a cluster) the
  members go to that backend instead, the same members for the same seeds.
- Bootstrap draws run in a kernel on the same SplitMix64 stream; AdaBoost's weighted error
  and weight total are summed left to right in kernels, as refml sums them; elementwise
  numpy products and quotients are the same IEEE operations as refml's.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numba
import numpy as np

import refml.ensemble
from refml_fast.core import linalg as _linalg
from refml_fast.core.base import FastMixin
from refml_fast.core.derived import Derived
from refml_fast.core.random import state_array, store_state
from refml_fast.ensemble import kernels, sorted_votes
from refml_fast.ensemble.tree_members import TreeMembers
from refml_fast.runtime import spec_first
from refml_fast.runtime.threads import run_parallel
from refml_fast.tree.classifier import DecisionTreeClassifier, all_ranks, few_values
from refml_fast.tree.grow_binned import MOST_BINS

PARALLEL_VOTES = 200_000   # rows x trees from which the votes are counted on every core
PARALLEL_SORTED_VOTES = 200_000    # and those of trees on one feature (``sorted_votes``)
MOST_PACKED = 2 ** 31 - 1  # nodes of all trees in the votes' table (``kernels.pack_tree``)
# A member's work (``member_work``) from which members are fitted on threads.  Below it a
# member's kernel takes well under a millisecond and the threads mostly wait for the GIL
# that each member's Python steps hold.  Median fits, one thread against two: 100 trees on
# 100 x 5 (work 1,300) 11.0 and 22.9 ms; 10 trees on 1,000 x 5 (19,900) 4.4 and 4.6-5.5;
# 20 trees on 1,000 x 10 (29,900) 10.7 and 8.7; on 1,500 x 10 (47,500) 15.5 and 11.5.
MEMBER_WORK_FOR_THREADS = 25_000


class CommitteeMixin(FastMixin):
    """numpy weights, the shared feature ranks for tree members, and numpy votes."""

    _tree_class = DecisionTreeClassifier

    def _fit(self, X, codes, weights):
        try:
            super()._fit(X, codes, weights)
        finally:
            self.__dict__.pop("_ranks", None)
            self.__dict__.pop("_bins_bytes", None)

    def _members_matrix(self, X, weights):
        """If the members are trees, rank the members' matrix once for the whole fit (at
        the first member that asks: a histogram tree counting its bins does not); if it
        holds at most 256 bin codes, keep them as bytes too (``grow_binned``)."""
        X = super()._members_matrix(X, weights)
        if isinstance(self._template(X), DecisionTreeClassifier):
            self._ranks = SharedRanks(X, n_threads_of(getattr(self, "n_jobs", None)))
            edges = getattr(self, "_member_edges", None)
            if edges is not None and 1 + max(map(len, edges), default=0) <= MOST_BINS:
                self._bins_bytes = DecisionTreeClassifier._bins_matrix(X)
        return X

    def _fit_member(self, member, X, codes, weights):
        ranks = getattr(self, "_ranks", None)
        if ranks is None or not isinstance(member, DecisionTreeClassifier):
            return super()._fit_member(member, X, codes, weights)
        member._ranks = ranks
        member._few_values = ranks.few_values
        bins = getattr(self, "_bins_bytes", None)
        if bins is not None:
            member._bins_matrix = lambda X: bins
        try:
            fitted = super()._fit_member(member, X, codes, weights)
        finally:
            del member._ranks, member._few_values
            member.__dict__.pop("_bins_matrix", None)
        pieces = self.__dict__.get("_pieces")
        if pieces is not None and self._native(fitted):
            pieces[id(fitted)] = (fitted, *pack_one(fitted.tree_))
        return fitted


def pack_one(tree):
    """One tree's rows of the votes' table (``kernels.pack_tree``), its root row 0:
    (links, thresholds)."""
    size = tree.children_left.shape[0]
    links = np.empty(size, dtype=np.int64)
    thresholds = np.empty(size)
    kernels.pack_tree(tree.children_left, tree.children_right, tree.feature, tree.threshold,
                      tree.value, links, thresholds)
    return links, thresholds


class SharedRanks:
    """The ranks of a committee's matrix (``all_ranks``, on the committee's ``n_threads``)
    and its ``few_values``, made by the first member that asks (members fit on several
    threads) and given to every member as its ``_ranks`` and ``_few_values``."""

    _n_threads = 1

    def __init__(self, X, n_threads=1):
        self._X, self._ranks, self._few, self._few_known = X, None, None, False
        self._n_threads = n_threads
        self._lock = threading.Lock()

    def __call__(self, X, needed):
        with self._lock:
            if self._ranks is None:
                self._ranks = all_ranks(self._X, self._n_threads)
        return self._ranks

    def few_values(self, X, ranks):
        with self._lock:
            if not self._few_known:
                self._few, self._few_known = few_values(self._X, ranks), True
        return self._few

    def __getstate__(self):
        """What it holds, without its lock: the members' fits sent to joblib's backend (a
        Dask cluster) carry the committee, and a lock cannot be pickled."""
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()


class PackedTrees(Derived):
    """A committee's trees in one table and the members it was made from, filled by the
    first call that needs it (``refml_fast.core.derived``): a loaded model's first answer
    by refml, in a fresh process, then compiles no packing kernel."""

    members = None
    table = None


@spec_first.tiered
class BaggingClassifier(CommitteeMixin, refml.ensemble.BaggingClassifier):
    __doc__ = refml.ensemble.BaggingClassifier.__doc__

    def _fit(self, X, codes, weights):
        self.__dict__.pop("_packed", None)
        self._pieces = {}   # each tree member packed by its own thread, while in its cache
        try:
            super()._fit(X, codes, weights)
            self._restore_derived()
            self._packed_trees()        # packed now, as a fit measured against scikit-learn's
        finally:
            del self._pieces

    def _fit_members(self, X, codes, weights, template, seeds, population):
        backend = chosen_joblib_backend()
        if backend is not None and self.n_jobs not in (None, 1):
            # The user chose joblib's backend (parallel_config(backend="dask"), say): the
            # members go there, each from its own seed, so the forest is the same.
            from joblib import Parallel, delayed

            fit_one = delayed(self._fit_one)
            return Parallel(n_jobs=self.n_jobs)(
                fit_one(X, codes, weights, template, seed, population) for seed in seeds)
        n_threads = min(n_threads_of(self.n_jobs), len(seeds))
        if member_work(template, population.shape[0], X.shape[1]) < MEMBER_WORK_FOR_THREADS:
            n_threads = 1
        members = TreeMembers.plan(self, X, codes, weights, template, population)
        if members is not None:
            batches = members.batches(
                seeds, n_threads, member_work(template, population.shape[0], X.shape[1]))
            fit_batch = partial(self._fit_tree_members, members)
            if n_threads == 1:
                return [m for batch in batches for m in fit_batch(batch)]
            with ThreadPoolExecutor(max_workers=n_threads) as pool:
                return [m for fitted in pool.map(fit_batch, batches) for m in fitted]
        if n_threads == 1:
            return super()._fit_members(X, codes, weights, template, seeds, population)
        fit_one = partial(self._fit_one, X, codes, weights, template, population=population)
        with ThreadPoolExecutor(max_workers=n_threads) as pool:
            return list(pool.map(fit_one, seeds))

    def _fit_tree_members(self, members, seeds):
        """Members of seeds s_b grown in one kernel call (``tree_members``), made estimators
        and packed for the votes by the thread that grew them (while the other threads
        grow theirs: one-feature forest of 50 trees, 43.6 ms so, 61.5 made after all)."""
        fitted = members.members(members.grow(seeds))
        pieces = self.__dict__.get("_pieces")
        if pieces is not None:
            for member in fitted:
                pieces[id(member)] = (member, *pack_one(member.tree_))
        return fitted

    @staticmethod
    def _population(weights):
        return np.flatnonzero(weights > 0.0).astype(np.int64)

    @staticmethod
    def _has_weights_besides_0_1(weights):
        return bool(((weights != 0.0) & (weights != 1.0)).any())

    @staticmethod
    def _bootstrap(rng, population):
        state = state_array(rng)
        drawn = np.empty(population.shape[0], dtype=np.int64)
        kernels.bootstrap(state, population, drawn)
        store_state(rng, state)
        return drawn

    @staticmethod
    def _counts(drawn, n_rows):
        return np.bincount(drawn, minlength=n_rows)

    @staticmethod
    def _member_weights(counts, weights):
        return counts * weights  # c_i converted to float64, then one product, as in refml

    @staticmethod
    def _rows(X, drawn):
        return X[drawn]

    @staticmethod
    def _take(codes, drawn):
        return codes[drawn]

    def _votes(self, X):
        votes = np.zeros((X.shape[0], len(self.classes_)), dtype=np.int64)
        packed = self._packed_trees()
        if packed is not None and X.shape[1] == 1:
            return self._sorted_votes(X, packed)
        if packed is not None:
            run_parallel(kernels.forest_votes_parallel, kernels.forest_votes,
                         X.shape[0] * len(self.estimators_) / PARALLEL_VOTES, X,
                         *packed, numba.get_num_threads(), votes)
            return votes
        rows = np.arange(X.shape[0])
        for member in self.estimators_:
            votes[rows, self._member_codes(member, X)] += 1
        return votes

    def _sorted_votes(self, X, packed):
        """The votes of trees on one feature from the queries in ascending order
        (``sorted_votes``), given back to the queries' own rows."""
        order = np.argsort(X[:, 0], kind="stable")
        x = np.ascontiguousarray(X[order, 0])
        in_order = np.zeros((X.shape[0], len(self.classes_)), dtype=np.int64)
        run_parallel(sorted_votes.sorted_votes_parallel, sorted_votes.sorted_votes,
                     X.shape[0] * len(self.estimators_) / PARALLEL_SORTED_VOTES, x, *packed,
                     numba.get_num_threads(), in_order)
        votes = np.empty_like(in_order)
        votes[order] = in_order
        return votes

    def _packed_trees(self):
        """The table of ``kernels.pack_tree`` (links, split_threshold, roots) for members
        that are this package's trees over the ensemble's classes; None otherwise (or
        when the trees hold more than MOST_PACKED nodes, a link's 32-bit half).  Kept in
        ``_packed`` (a ``PackedTrees``, made empty by fit, by loading a model file or a
        pickle) with the members it was made from, by the first call that needs it;
        members put in ``estimators_`` afterwards are packed afresh on each call (the
        holder names the members themselves, so a new member is never taken for an old
        one)."""
        members = tuple(self.estimators_)
        holder = self.__dict__.get("_packed")
        if holder is not None and holder.members is not None:
            if len(holder.members) == len(members) and all(
                    a is b for a, b in zip(holder.members, members)):
                return holder.table
            return self._pack_members()
        table = self._pack_members()
        if holder is not None:
            holder.members, holder.table = members, table
        return table

    _derived_state = ("_packed", "_ranks")          # rebuilt on load from a model file

    def _restore_derived(self):
        self._packed = PackedTrees()

    def _pack_members(self):
        classes = list(self.classes_)
        if not self.estimators_ or not all(
                isinstance(m, DecisionTreeClassifier) and self._native(m)
                and list(m.classes_) == classes for m in self.estimators_):
            return None
        sizes = [len(m.tree_.children_left) for m in self.estimators_]
        roots = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        if sum(sizes) > MOST_PACKED:
            return None
        pieces = self.__dict__.get("_pieces", {})
        links = np.empty(sum(sizes), dtype=np.int64)
        split_threshold = np.empty(sum(sizes))
        for member, root, size in zip(self.estimators_, roots, sizes):
            piece = pieces.get(id(member))
            if piece is None or piece[0] is not member:
                piece = (member, *pack_one(member.tree_))
            # Its links as they are: a child's row counts from the tree's root row.
            links[root:root + size], split_threshold[root:root + size] = piece[1:]
        return links, split_threshold, roots

    def _predict_codes(self, X):
        return np.argmax(self._votes(X), axis=1)  # the first maximum on ties

    def _vote_fractions(self, X):
        return self._votes(X) / len(self.estimators_)


@spec_first.tiered
class RandomForestClassifier(BaggingClassifier, refml.ensemble.RandomForestClassifier):
    __doc__ = refml.ensemble.RandomForestClassifier.__doc__


@spec_first.tiered
class AdaBoostClassifier(CommitteeMixin, refml.ensemble.AdaBoostClassifier):
    __doc__ = refml.ensemble.AdaBoostClassifier.__doc__

    @staticmethod
    def _mean_one(weights):
        total = kernels.sequential_sum(weights)
        if total == weights.shape[0] and (weights == 1.0).all():
            return weights.copy()
        return (weights / total) * weights.shape[0]

    @staticmethod
    def _misses(predicted, codes):
        return np.asarray(predicted) != codes

    @staticmethod
    def _weighted_error(w, missed):
        return kernels.weighted_error(w, missed)

    def _reweighted(self, w, missed, factor):
        return self._mean_one(np.where(missed, w * factor, w))

    def _scores(self, X):
        n_rows = X.shape[0]
        if self.n_classes_ == 2:
            scores = np.zeros(n_rows)
            for alpha, member in zip(self.estimator_weights_, self.estimators_):
                signs = np.where(self._member_codes(member, X) == 1, 1.0, -1.0)
                scores += alpha * signs
            return scores
        scores = np.zeros((n_rows, self.n_classes_))
        rows = np.arange(n_rows)
        for alpha, member in zip(self.estimator_weights_, self.estimators_):
            scores[rows, self._member_codes(member, X)] += alpha
        return scores

    def _predict_codes(self, X):
        scores = self._scores(X)
        if self.n_classes_ == 2:
            return (scores > 0.0).astype(np.int64)
        return np.argmax(scores, axis=1)

    def _samme_probabilities(self, scores):
        total = kernels.sequential_sum(np.asarray(self.estimator_weights_, dtype=np.float64))
        total = total if total > 0.0 else 1.0
        probabilities = np.empty((scores.shape[0], self.n_classes_))
        if self.n_classes_ == 2:
            _linalg.logistic_posterior(scores / total, probabilities)
        else:
            _linalg.softmax_posterior((scores / total) / float(self.n_classes_ - 1),
                                      probabilities)
        return probabilities


def member_work(template, n_rows, n_features):
    """A member's work in rows x log2(rows) x features searched per split (a tree's
    ``max_features``; every feature for other members)."""
    searched = n_features
    if isinstance(template, DecisionTreeClassifier):
        searched = template._n_candidates(n_features)
    return n_rows * max(1.0, np.log2(max(n_rows, 1))) * searched


def chosen_joblib_backend():
    """joblib's active backend when the caller chose one (``joblib.parallel_config``), else
    None: joblib is never imported here, and its default (loky processes) is not taken as a
    choice, since n_jobs threads serve one machine better."""
    import sys

    parallel = sys.modules.get("joblib.parallel")
    if parallel is None:
        return None
    backend, _ = parallel.get_active_backend()
    name = type(backend).__name__
    return None if name in ("LokyBackend", "SequentialBackend") else backend


def n_threads_of(n_jobs):
    """None -> Numba's threads (every core unless the user set fewer, as refml_fast's other
    kernels), k > 0 -> k, and as joblib counts: -1 -> every core, -2 -> every core but
    one, ... (at least one)."""
    if n_jobs is None:
        return numba.get_num_threads()
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))
    return int(n_jobs)
