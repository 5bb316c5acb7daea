"""k nearest neighbours with Numba kernels: refml's neighbours, exactly, found fast.

In few dimensions an exact k-d tree finds them (``kdtree``); otherwise the tiled brute
force below.

``KNeighborsClassifier`` subclasses ``refml.neighbors.KNeighborsClassifier`` and overrides
only the hot methods: the training covariance (a kernel with refml's summation order; the
small d x d Cholesky inverse is refml's own code), the neighbour search, the vote count.

How the search is both fast and exact
-------------------------------------
refml orders neighbours by the squared distance *as it computes it*,
Q(x, z) = sum_j (x_j - z_j)^2 left to right (Mahalanobis: sum_j diff_j (sum_l P_jl diff_l),
P = Sigma^{-1}), then by training index.  Here, for each block of query rows:

1. Approximate pass.  With m subtracted (x' = x - m, z' = z - m; m is the mean of at most
   256 training rows spread over X: any m keeps the bound below) and, for
   Mahalanobis, the rows multiplied by R, the Cholesky factor of (P + P')/2 = R R'
   ("whitening"), the rows are rounded to float32 (x~, z~) and
   A(x, z) = ||x~||^2 + ||z~||^2 - 2 x~'z~, the norms in float64, the cross products in
   float32 by a kernel that streams training tiles past four queries at a time.
2. A rigorous error bound.  With u = 2^-24 (float32's unit roundoff, far above float64's,
   which the few float64 steps and refml's own rounding fit under),
   gamma_m = m u / (1 - m u), S = 1 (Euclidean) or S = max(||R||_F^2, ||P||_F)
   (Mahalanobis):

       |A(x, z) - Q(x, z)| <= alpha (||x'|| + ||z'||)^2 + beta (1 + ||x'|| + ||z'||)
                           <= epsilon (||x'||^2 + ||z'||^2) + 2 beta,
       alpha = 16 gamma_{2d+6} S,  beta = d 2^-120 (1 + S),  epsilon = 2 alpha + beta.

   Derivation (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., ch. 3
   and Thm 10.3), A and Q each against the exact real Q* = diff' P diff, M = ||x'|| + ||z'||:
   - a dot product in any order errs by at most gamma_d sum|a_j b_j|, so ||x~||^2, ||z~||^2,
     x~'z~ err by gamma_d (||x~|| + ||z~||)^2 together, and the two additions by 2u times
     the same; ||x~|| <= ||R||_2 ||x'|| (1 + gamma_d);
   - whitening x~ = R'x' errs by gamma_d |R'||x'|, which moves A by <= 2 gamma_d ||R||_F^2
     M^2; the computed R has R R' = (P + P')/2 + E, |E| <= gamma_{d+1} |R||R'|, so
     diff'R R'diff is within gamma_{d+1} ||R||_F^2 ||diff||^2 of Q* (and (P + P')/2 has
     the quadratic form of P);
   - centring, and rounding to float32, move each entry by u times itself, which moves
     Q* (or A) by <= 3u ||P||_2 M^2 (or 3u ||R||_2^2 M^2) each time;
   - refml's own Q errs by gamma_{2d+3} |diff|'|P||diff| <= gamma_{2d+3} ||P||_F ||diff||^2
     (Euclidean: gamma_{d+1} ||diff||^2), and ||diff|| <= (1 + u) M.
   Summed, |A - Q| <= (6d + 22) u S M^2 (1 + O(du)) against alpha M^2 ~ (32d + 96) u S M^2:
   a factor of four to spare for the few roundings of the bound and of the comparisons
   themselves.
   Euclidean rows need far less (the bound used there):
   epsilon = 4 (gamma_{m+8} + gamma64_{3d+8}) + beta, m = min(d, KC) + ceil(d / KC) and
   gamma64 float64's gamma (u = 2^-53).
   With P = ||x'||^2 + ||z'||^2 and v = u + 2^-53 + 2^-77 (centring in float64, then
   rounding to float32: x~_j = x'_j (1 + eta_j), |eta_j| <= v), the exact real
   A* = ||x~ - z~||^2 differs from Q* = ||x - z||^2 by e = x~ - z~ - (x - z),
   ||e|| <= v (||x'|| + ||z'||): |A* - Q*| <= 2 ||x - z|| ||e|| + ||e||^2 <= (4v + 2v^2) P.
   The norms of float32 rows are exact squares summed in float64 (gamma64_d each).  The
   float32 cross product is a blocked sum (``search.cross_tile``): each slice of at
   most KC features summed from zero, one rounding a step (fused), errs by gamma_KC times
   its sum|x~_j z~_j|, and the ceil(d / KC) slice sums added one after another by
   gamma_{ceil(d/KC)} of theirs (Higham, section 4.2: gamma_a + gamma_b + gamma_a gamma_b
   <= gamma_{a+b}): gamma_m sum|x~_j z~_j| <= gamma_m ||x~|| ||z~|| <= gamma_m (1 + v)^2
   P / 2, doubled in A; refml's Q is within gamma64_{d+2} of Q*, times ||x - z||^2 <= 2P.
   Summed, |A - Q| <= (m + 4) u P (1 + O(mu)) + (3d + 6) 2^-53 P (1 + O(d 2^-53)): the
   two gammas' "+ 8" cover the comparisons' own roundings, and the factor four spares the
   rest.  At d = 1,000 this is 2.1e-5 P (2.4e-4 P when the slices ran on in one sum, with
   m = d; 3.8e-3 P by the general bound): k-NN 4,154 x 1,000 in 8 classes, k = 50, kept
   62.6 -> 51.1 rows a query inside the bound, and the votes' search took 31.4 -> 25.9 ms
   (830 queries).  Before, with m = d, k-NN 1,105 x 1,000 (200 queries,
   k = 5) went from 83 to 6.6 rows a query inside the bound.  Underflow (float32 below
   2^-126) adds at most 2^-150 per entry and product, d times, which beta covers.  A query
   whose scale
   4 (1 + S)(1 + ||x'||^2 + max ||z'||^2) exceeds 1e30 (where float32 overflow could void
   the argument), or any query when whitening failed, skips the approximate pass: every
   training row is then a candidate.
3. Exact re-check.  Bracket each Q(x, z_i) by lower_i = A_i - e_i and upper_i = A_i + e_i
   (e_i the bound above).  The k rows with the smallest upper_i have Q <= U, the k-th
   smallest upper_i, so the k-th smallest Q is <= U; a row with lower_i > U has Q > U and
   can be neither among the k nearest nor tied with the k-th.  Every row with
   lower_i <= U is a candidate; each gets Q by refml's formula in refml's order (strict
   IEEE, no fastmath), and the k smallest by (Q, training index) are the answer: the same
   floats and the same ties as refml.  Euclidean candidates are first narrowed in float64
   (``exact.refine``: the same terms summed in lanes, within 4 (d + 1) 2^-53 of Q
   relatively), and their Q are summed four rows at a time, each sum still from the left.
   predict and predict_proba need the k nearest only as a set: there the rows whose
   brackets put them surely among the k are taken without their Q
   (``exact.set_aside_sure``), the rows left are bracketed again by their float64
   lane sums, and only those still undecided (ties) are summed (5,101 x 1,000 with k = 50,
   510 queries: the search 24.2 -> 19.1 ms).

One kernel does it all (``search``), blocks of up to 64 queries claimed by the cores
one at a time (``claims``: a core that shares its time with another library's spinning
thread does fewer; the blocks come in a multiple of the threads, of even sizes): each
tile of 512 training rows (stored transposed, tile by tile, each row padded to 528 floats)
meets the block 64 features at a time (KC).  Four queries by 64 rows of the tile keep
their sums in registers (``lanes``, sixteen float32 lanes) while the
features run, each product fused into its sum (one rounding instead of two: the bound above
still holds); the block's queries take their turns on those 64 rows while the slice, 16 KiB,
stays in the core's first cache.  Against sums loaded and stored once per four features, the
products of 2,000 x 2,000 at d = 400 went 99 -> 119 GMAC/s, most of it from the padding
(rows 2,048 bytes apart fell into the same sets of the cache and evicted each other); a
predict of 2,000 x 400 on one core 28.6 -> 20.9 ms, of 5,000 x 1,000 416 -> 315 ms.
Blocks of 64 queries instead of 32 (each tile read from the shared cache half as often) and
slices of 64 features instead of 128: the products of 5,101 x 1,000 by 510 queries on one
core 71.8 -> 89.6 GMAC/s, that search on two cores 27.6 -> 24.9 ms.  (Six queries a group,
24 sets of sums, was faster with the tile in the core's own caches, 92 -> 102 GMAC/s, and
slower in the search, where the tile comes from the shared cache: not kept.)
Then each query first lists the tile's
rows below its running threshold, eight at a time in lanes, and walks only those, keeping
the k smallest upper bounds and every row below the threshold (which only falls).  The
threshold starts at the first tile's bound, plus the gap: its rows split into k groups, the
largest of the groups' smallest upper bounds (k rows lie at or below it), then halved
toward the tile's k-th smallest (``kth_smallest.first_tile_bound``); so the first tile is
not walked with an infinite threshold (k-NN 12,000 x 20 on one core 118-126 -> 110-112 ms),
nor, for large k, with a third of its rows below it.  At the end, the exact pass goes over
those few rows, re-filtered with the final threshold.  A query with more than
max(1024, 16 k) such rows (many exact ties, duplicates) is simply checked exhaustively.
"""

import math

import numba
import numpy as np

from refml.neighbors import knn as reference
from refml_fast.core.arrays import aligned_empty
from refml_fast.core.base import FastMixin
from refml_fast.core.derived import Derived
from refml_fast.neighbors import kdtree as _kdtree
from refml_fast.neighbors.distance_sums import EUCLIDEAN, MAHALANOBIS
from refml_fast.neighbors.rows import SCALE_LIMIT, prepare_rows
from refml_fast.neighbors.search import KC, TILE, TILE_PAD, nearest_blocks
from refml_fast.runtime import spec_first
from refml_fast.runtime.helpers import run_claimed
from refml_fast.runtime.options import kernel

FLOAT32_ROUNDOFF = 2.0 ** -24
FLOAT64_ROUNDOFF = 2.0 ** -53
CHUNK = 64 * TILE               # training rows per block when the tiles are prepared
CENTRE_ROWS = 256               # rows averaged for the centre m
# A search's serial time (``search_seconds``) is about, a query, n (d + 25) x 0.0148 ns for
# the products and the screen (it costs about 25 features' products a pair), plus about
# k (1 + ln(n / k)) candidates (the rows the running threshold admits) x (30 + 0.1 d) ns
# for their exact sums and their place among the k best (d^2 / 3 more under the
# Mahalanobis metric).  One core, measured: within 20% from d = 2 to 784 and k = 1 to 50
# (2,333 x 32 with k = 50, 233 queries: 2.4 ms, 2.3 estimated; 20,000 x 2 with k = 5, 2,000
# queries: 16.2, 18.8); the model before, n (d + 32) x 0.03 ns a query, was 2-2.8x high for
# k <= 5 and 2.3x low for that k = 50 search.  From 1.2 ms of it a search is shared with
# the helper threads (``helpers.run_claimed``).
PAIRS_SECONDS = 0.0012


def search_seconds(queries, n, d, k, mahalanobis):
    """About the serial seconds of a search (see PAIRS_SECONDS's note)."""
    candidates = k * (1.0 + math.log(max(1.0, n / k)))
    per_candidate = 30.0 + 0.1 * d + (d * d / 3.0 if mahalanobis else 0.0)
    return queries * (n * (d + 25) * 0.0148 + candidates * per_candidate) * 1e-9


class SearchStructure(Derived):
    """What the search derives from a k-NN model's training rows (the k-d tree, or the
    approximate pass's centre, tiles and bounds), filled by its first search
    (``refml_fast.core.derived``)."""

    built = False
    trial = False   # the tree is on trial: its first timed queries choose the search


@spec_first.tiered
class KNeighborsClassifier(FastMixin, reference.KNeighborsClassifier):
    __doc__ = reference.KNeighborsClassifier.__doc__

    # What the search derives from the training rows alone: never saved in a model file,
    # made again on load (refml.core.model_files).
    _derived_state = ("_fit_method", "_search")

    def _fit(self, X, codes):
        # X is the caller's array itself when it already was C-contiguous float64: no copy,
        # as scikit-learn keeps it (changing that array afterwards changes the model).
        super()._fit(X, codes)
        self._restore_derived()
        self._search_structure()    # built now, as a fit measured against scikit-learn's

    def _restore_derived(self):
        """How the search will run over ``_fit_X``, and an empty ``SearchStructure``: the
        fit fills it at once; a model loaded from a file (refml's twin's among them,
        ``refml_fast.runtime.spec_first``) at its first search, so that a model only
        answered by the twin or only saved compiles none of it.  Built in the fit, the
        k-d tree search of 100,000 x 6 took 69 ms fit + predict; built in the predict,
        82 (I did not find why)."""
        X = self._fit_X
        shape = (self.algorithm, self.metric, X.shape[0], X.shape[1], self.n_neighbors)
        self._fit_method = _kdtree.search_method(*shape)
        self._search = SearchStructure()
        if _kdtree.on_trial(*shape):
            self._fit_method, self._search.trial = "kd_tree", True

    def _search_structure(self):
        """The filled ``_search``: the k-d tree, or the approximate pass's tiles."""
        if not self._search.built:
            if self._fit_method == "kd_tree":
                self._search.kd_tree = _kdtree.build(self._fit_X)
            else:
                self._prepare_search()
            self._search.built = True
        return self._search

    @staticmethod
    def _mean_covariance(X):
        mu = np.zeros(X.shape[1])
        Sigma = np.zeros((X.shape[1], X.shape[1]))
        mean_covariance_kernel(X, mu, Sigma)
        return mu.tolist(), Sigma.tolist()

    def _prepare_search(self):
        """The training side of the approximate pass: the centred (and whitened) rows in
        float32, transposed; their squared norms widened by the error bound; S."""
        search = self._search
        # m only shifts the rows (any m keeps the bound); a mean of at most CENTRE_ROWS rows
        # spread over X centres them as well as the mean of all (5,033 x 1,000: 1.4 ms):
        # the squared norms ||x - m||^2 grow by tr(Sigma) / 256 on average, 0.4% of theirs.
        search.center = self._fit_X[::-(-self._fit_X.shape[0] // CENTRE_ROWS)].mean(axis=0)
        search.whitener, search.bound_scale = None, 1.0
        search.precision_array = np.zeros((1, 1))
        if self.metric == "mahalanobis":
            P = np.array(self._precision, dtype=np.float64)
            search.precision_array = P
            try:
                search.whitener = np.linalg.cholesky((P + P.T) / 2.0)
                search.bound_scale = max(float(np.sum(search.whitener ** 2)),
                                        float(np.linalg.norm(P)))
            except np.linalg.LinAlgError:
                search.bound_scale = np.inf  # no approximate pass: every row checked exactly
        n, d = self._fit_X.shape
        # Every tile's rows are written below, but the last tile's columns past the last
        # row: the cross products read them (the padding after TILE columns is never read).
        tiles = aligned_empty((-(-n // TILE), d, TILE + TILE_PAD), np.float32)
        tiles[-1] = 0.0
        centred_norms = np.empty(n)
        norms = np.empty(n)
        if search.whitener is None:  # one pass over X, straight into the tiles
            prepare_rows(self._fit_X, search.center, 1.0 + search.bound_scale, tiles,
                        np.empty((0, d), dtype=np.float32), centred_norms, norms)
        else:  # block by block (CHUNK rows), so that the temporaries stay small
            for start in range(0, n, CHUNK):   # CHUNK is a multiple of TILE
                stop = min(start + CHUNK, n)
                T, centred_norms[start:stop], _ = self._approximate_rows(
                    self._fit_X[start:stop])
                wide = T.astype(np.float64)
                norms[start:stop] = np.einsum("ij,ij->i", wide, wide)
                padded = np.zeros((-(-(stop - start) // TILE) * TILE, d), dtype=np.float32)
                padded[:stop - start] = T
                first = start // TILE
                tiles[first:first + padded.shape[0] // TILE, :, :TILE] = \
                    padded.reshape(-1, TILE, d).transpose(0, 2, 1)
        search.fit_tiles = tiles
        epsilon, _ = self._bound_constants()
        search.fit_upper = norms + epsilon * centred_norms
        search.fit_lower = norms - epsilon * centred_norms
        search.fit_centred_norm_max = float(centred_norms.max())

    def _approximate_rows(self, X):
        """(x~ in float32, ||x'||^2, whether each row is in float32's safe range)."""
        search = self._search
        if search.whitener is None:
            T = np.empty(X.shape, dtype=np.float32)
            centred_norms = np.empty(X.shape[0])
            prepare_rows(X, search.center, 1.0 + search.bound_scale,
                        np.empty((0, X.shape[1], TILE), dtype=np.float32), T, centred_norms,
                        np.empty(X.shape[0]))
            with np.errstate(all="ignore"):
                safe = (1.0 + search.bound_scale) * (1.0 + centred_norms) <= SCALE_LIMIT
            return T, centred_norms, safe
        with np.errstate(all="ignore"):
            centred = X - search.center
            centred_norms = np.einsum("ij,ij->i", centred, centred)
            T = centred if search.whitener is None else centred @ search.whitener
            safe = (1.0 + search.bound_scale) * (1.0 + centred_norms) <= SCALE_LIMIT
            T = np.where(safe[:, None], T, 0.0).astype(np.float32)
        return T, centred_norms, safe

    def _bound_constants(self):
        """(epsilon, beta): |A - Q| <= epsilon (||x'||^2 + ||z'||^2) + 2 beta."""
        search = self._search
        d = self.n_features_in_
        S = search.bound_scale
        beta = d * 2.0 ** -120 * (1.0 + S)
        if search.whitener is None and self.metric != "mahalanobis":
            m = (min(d, KC) + -(-d // KC) + 8) * FLOAT32_ROUNDOFF
            f = (3 * d + 8) * FLOAT64_ROUNDOFF
            return 4.0 * (m / (1.0 - m) + f / (1.0 - f)) + beta, beta
        m = (2 * d + 6) * FLOAT32_ROUNDOFF
        alpha = 16.0 * m / (1.0 - m) * S
        return 2.0 * alpha + beta, beta

    def _kneighbors_squared(self, X, votes_only=False):
        search = self._search_structure()
        k = self.n_neighbors
        squared = np.empty((X.shape[0], k), dtype=np.float64)
        indices = np.empty((X.shape[0], k), dtype=np.int64)
        if self._fit_method == "kd_tree":
            other = self._brute_seconds if search.trial else None
            answered = _kdtree.query(X, *search.kd_tree, squared, indices, other)
            # The tree answered all: a trial stays open only if no query was left over
            # to compare the two searches on.
            if answered == X.shape[0]:
                search.trial = search.trial and answered <= _kdtree.TIMED_QUERIES
                return squared, indices
            self._leave_the_tree()       # the trial went to the brute force
            rest = self._kneighbors_squared(X[answered:], votes_only)
            squared[answered:], indices[answered:] = rest
            return squared, indices
        T, centred_norms, _ = self._approximate_rows(X)
        epsilon, beta = self._bound_constants()
        with np.errstate(all="ignore"):
            gap = 2.0 * epsilon * centred_norms + 4.0 * beta  # q_up - q_lo
            scale = 4.0 * (1.0 + search.bound_scale) * (
                1.0 + centred_norms + search.fit_centred_norm_max)
            exhaustive = ~(scale <= SCALE_LIMIT)
        metric = MAHALANOBIS if self.metric == "mahalanobis" else EUCLIDEAN
        seconds = search_seconds(X.shape[0], self._fit_X.shape[0], X.shape[1], k,
                                 metric == MAHALANOBIS)
        slots = numba.get_num_threads() if seconds >= PAIRS_SECONDS else 1
        run_claimed(nearest_blocks, slots, T, search.fit_tiles, search.fit_upper,
                    search.fit_lower, gap, exhaustive, X, self._fit_X, search.precision_array,
                    metric, votes_only, np.zeros(1, dtype=np.int64), slots, squared, indices)
        return squared, indices

    def _brute_seconds(self, n_queries):
        """The brute force's estimated serial seconds for n_queries (``search_seconds``)."""
        n, d = self._fit_X.shape
        return search_seconds(n_queries, n, d, self.n_neighbors, False)

    def _leave_the_tree(self):
        """End a trial for the brute force: this search's rest and every later one."""
        self._fit_method = "brute"
        self._search.trial = False
        self._search.kd_tree = None
        self._prepare_search()

    def _neighbour_indices(self, X):
        # The votes need the k nearest as a set: the rows surely among them keep NaN for
        # their distances, never summed (``exact.set_aside_sure``).
        return self._kneighbors_squared(X, votes_only=True)[1]

    def _vote_counts(self, indices):
        counts = np.zeros((indices.shape[0], len(self.classes_)), dtype=np.int64)
        vote_kernel(self._fit_codes, indices, counts)
        return counts

    @staticmethod
    def _distances_from_squared(squared):
        return np.sqrt(np.maximum(squared, 0.0))

    @staticmethod
    def _winning_codes(counts):
        return np.argmax(counts, axis=1)  # the first maximum: the first class in classes_

    def _vote_fractions(self, counts):
        return counts / float(self.n_neighbors)  # count / k, correctly rounded, as refml


# ----------------------------------------------------------------------------------------
# Kernels.


@kernel
def mean_covariance_kernel(X, mu, Sigma):
    """refml.neighbors.mean_covariance: the same sums in the same order."""
    n, d = X.shape
    for i in range(n):
        for j in range(d):
            mu[j] += X[i, j]
    for j in range(d):
        mu[j] = mu[j] / n
    for j in range(d):
        for l in range(j, d):
            total = 0.0
            for i in range(n):
                total += (X[i, j] - mu[j]) * (X[i, l] - mu[l])
            Sigma[j, l] = total / n
            Sigma[l, j] = Sigma[j, l]


@kernel
def vote_kernel(codes, indices, counts):
    """counts[q, c] += 1 for each neighbour of query q with class code c."""
    for q in range(indices.shape[0]):
        for t in range(indices.shape[1]):
            counts[q, codes[indices[q, t]]] += 1
