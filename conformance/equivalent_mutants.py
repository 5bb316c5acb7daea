"""Mutants judged equivalent: faults ``python -m conformance.mutants`` can draw that change
no answer of refml, so no check can catch them.  The run reports them apart (not run) and
gives the share caught both with them and without them.

Each key is a mutant's identity, (module, function, fault, the mutated expression as
Python writes it; ``conformance.mutants.mutant_of``), so an entry survives edits elsewhere
in the module and stops matching when the expression itself changes.  Each value says why
the mutant is equivalent; add an entry only with that argument.
"""

_LABELS = "the labels are coded +1 and -1 there, so y_s / y_t equals y_s * y_t exactly"
_LINEAR = "gamma, degree and coef0 enter the rbf and poly kernels only; this is the linear one"
_LAST_BLOCK = ("unreachable: the loop's block of size len(Sigma) is Sigma itself, factored and "
               "tested as factor_covariance did before it raised, so the loop returns there")
_SIGNED_ZERO = ("at margin 0 it returns 0.0 where the original returns -0.0, which compare "
                "equal and add alike to any sum")
_NONZERO_LABELS = "the labels are coded +1 and -1 there, never 0"
_MU2 = "int x^2 K is 1 for both kernels (the Epanechnikov is scaled to variance 1)"
_PAIRS = ("every pair's decisions hold one value per row, and these run for K >= 3 classes only "
          "(three pairs or more), so decisions[1] has decisions[0]'s length")
_SAME_LENGTH = ("every row x~_i has the same length, d (+ 1), and there are at least two (both "
                "classes, signed_rows)")
_NO_HIT = ("``hit`` names no position of F either way: the caller only compares it with "
           "positions (0, 1, ...)")

EQUIVALENT = {
    ("refml/tree/prune.py", "prune", "constant 1 -> 2",
     "pending.append((tree.children_right[old], node, 2))"):
        "side is read only as side == 0 (the left child); 1 and 2 both mean the right one",
    ("refml/ensemble/boosting.py", "_scores", "Mult -> Div",
     "alpha / (1.0 if k == 1 else -1.0)"):
        "dividing by 1.0 or -1.0 gives exactly what multiplying by it gives",
    ("refml/discriminant/analysis.py", "_fit_statistics", "Lt -> LtE",
     "len(kept) <= len(Sigma)"):
        "with every feature kept, kept is 0, 1, ..., d - 1 in order and _spread writes each "
        "coefficient back at its own place: the same lists",
    ("refml/svm/smo.py", "smo", "Mult -> Div", "C * (y[s] / y[t] * row_s[t])"): _LABELS,
    ("refml/svm/smo.py", "newton_step", "Mult -> Div",
     "[[y[s] / y[t] * row(s)[t] for t in free] for s in free]"): _LABELS,
    ("refml/svm/smo.py", "newton_step", "Mult -> Div",
     "at_bound[t] + C * (y[s] / y[t] * row_s[t])"): _LABELS,
    ("refml/svm/smo.py", "rebuild_gradient", "Mult -> Div",
     "alpha[s] * (y[s] / y[t] * row_s[t])"): _LABELS,
    ("refml/svm/smo.py", "exact_hard_margin", "Mult -> Div",
     "[[y[s] / y[t] * kernel_value(kernel, a, c, gamma, degree, coef0) for t, c in "
     "zip(support, vectors)] + [y[s]] for s, a in zip(support, vectors)]"): _LABELS,
    ("refml/svm/smo_newton.py", "newton_length", "constant 1 -> 2", "(1.0, -2)"): _NO_HIT,
    ("refml/svm/smo_newton.py", "newton_length", "constant 1 -> 2", "(0.0, -2)"): _NO_HIT,
    ("refml/density/bandwidth.py", "kde_amise", "Mult -> Div",
     "h ** 4 / 4.0 * mu2 / mu2 * roughness_f2 + _kernels.roughness(kernel) / (n * h)"):
        _MU2,
    ("refml/linear/logistic.py", "_store", "constant 1 -> 2",
     "[theta[k * p:(k + 2) * p] for k in range(len(theta) // p)]"):
        "each block is read at its first p entries only (block[:d], and block[d] with an "
        "intercept)",
    ("refml/perceptron/perceptron.py", "mistake_loss", "Gt -> GtE",
     "0.0 if margin >= 0.0 else -margin"):
        _SIGNED_ZERO,
    ("refml/linear/logistic_solvers.py", "scores", "constant 1 -> 2",
     "[linalg.dot(theta[k * p:(k + 2) * p], x_tilde) for k in range(n_free)]"):
        "linalg.dot pairs the entries with zip, which stops at x~'s p entries: the longer "
        "slice adds nothing",
    ("refml/svm/smo.py", "smo", "Gt -> GtE",
     "(C if y[i] >= 0 else 0.0) if step == room_i else alpha[i] + y[i] * step"): _LABELS,
    ("refml/svm/smo.py", "smo", "Gt -> GtE",
     "(0.0 if y[j] >= 0 else C) if step == room_j else alpha[j] - y[j] * step"):
        _NONZERO_LABELS,
    ("refml/perceptron/patience.py", "no_improvement", "Lt -> LtE", "loss <= self.best"):
        "at loss == best it stores best again as the same float; the count is decided above",
    ("refml/svm/svc.py", "_raw_scores", "constant 0.0 -> 1.0",
     "[_smo.kernel_value('linear', self.coef_, x, 1.0, 0, 0.0) for x in X]"): _LINEAR,
    ("refml/svm/svc.py", "_raw_scores", "constant 0 -> 1",
     "[_smo.kernel_value('linear', self.coef_, x, 0.0, 1, 0.0) for x in X]"): _LINEAR,
    ("refml/svm/svc.py", "_raw_scores", "constant 0.0 -> 1.0",
     "[_smo.kernel_value('linear', self.coef_, x, 0.0, 0, 1.0) for x in X]"): _LINEAR,
    ("refml/perceptron/multiclass.py", "rival", "constant 1 -> 2", "(-2, 0.0)"):
        "-1 and -2 both mean no rival yet: the loop only asks whether it is negative",
    ("refml/svm/svc.py", "dual_objective", "Mult -> Div",
     "alpha[i] * alpha[j] * y[i] / y[j] * K[i][j]"): _LABELS,
    ("refml/density/bandwidth.py", "kde_optimal_bandwidth", "constant 0.4 -> 0.8",
     "mu2 ** (-0.8) * _kernels.roughness(kernel) ** 0.2 * roughness_f2 ** (-0.2) / n ** 0.2"):
        _MU2,
    ("refml/svm/one_vs_one.py", "votes", "constant 0 -> 1", "len(decisions[1])"): _PAIRS,
    ("refml/svm/svc.py", "_ovo_values", "constant 0 -> 1",
     "[[-values[r] for values in decisions] for r in range(len(decisions[1]))]"): _PAIRS,
    ("refml/svm/svc.py", "kkt_violations", "Add -> Sub", "abs(g - 1.0 - xi)"):
        "the value is stored only when |g - 1 + xi| > slackness >= 0, so with xi = 0, where "
        "g - 1 - xi is g - 1 + xi: for g < 1 and a finite C, xi = fl(1 - g) = -fl(g - 1) "
        "(rounding is symmetric) and g - 1 + xi is exactly 0",
    ("refml/tree/text.py", "subtree_depth", "constant 1 -> 2", "2"):
        "subtree_depth is asked about split nodes only, whose left child is node + 1 "
        "(preorder): the walk that starts past it would pass it anyway",
    ("refml/tree/text.py", "subtree_depth", "constant 1 -> 2", "node + 2"):
        "subtree_depth is asked about split nodes only, whose left child is node + 1 "
        "(preorder), deeper than node: the walk from node + 2 ends where the walk from node "
        "+ 1 ends, and the maximum over depths[node:end] reads node + 1 either way",
    ("refml/linear/least_squares.py", "_fit", "constant 0 -> 1",
     "self._column_means(X) if self.fit_intercept else [0.0] * len(X[1])"):
        "a fit has two classes, so two rows or more, and as_matrix refuses ragged rows: "
        "X[1] has X[0]'s length",
    ("refml/svm/svc.py", "beta_norm_squared", "Mult -> Div", "alpha[i] / y[i] * scores[i]"):
        "the labels are coded +1 and -1 there, so alpha_i / y_i equals alpha_i * y_i exactly",
    ("refml/svm/svc.py", "_signed_multipliers", "Mult -> Div",
     "[alpha[i] / y[i] for i in support]"):
        "y is signs_from_codes(codes) there, +1 and -1, so alpha_i / y_i equals alpha_i * y_i "
        "exactly",
    ("refml/svm/smo.py", "second_index", "Gt -> GtE", "b >= 0.0"):
        "a candidate with b = 0 scores -0.0, above every candidate with b > 0, and one with "
        "b > 0 exists whenever j is asked for (m - M > tol >= 0: M's own point)",
    ("refml/perceptron/multiclass.py", "loss", "Gt -> GtE", "0.0 if margin >= 0.0 else -margin"):
        _SIGNED_ZERO,
    ("refml/svm/svc.py", "kkt_violations", "Gt -> GtE", "-a > dual or a - C >= dual"):
        "at equality the update stores max(-a, a - C), which is then dual itself",
    ("refml/tree/classifier.py", "grow", "constant 200 -> 201",
     "sys.setrecursionlimit(max(limit, len(X) + 201))"):
        "a recursion limit of n + 201 instead of n + 200 frames: either covers the n - 1 "
        "nested calls of the deepest tree",
    ("refml/svm/separator.py", "_max_margin_separator", "constant 0 -> 1",
     "all((s * _smo.kernel_value('linear', theta, r, 0.0, 1, 0.0) > 0.0 "
     "for r, s in zip(rows, signs)))"): _LINEAR,
    ("refml/svm/smo.py", "maximal_violation", "constant 1 -> 2", "(-2, -math.inf, math.inf)"):
        "i keeps its start value only when no active point is in I_up; then m = -inf, "
        "m - M <= tol, and the callers return or shrink without reading i",
    ("refml/svm/smo.py", "scale_gamma", "constant 0 -> 1", "(len(X), len(X[1]))"):
        "every row of X has d entries, and an SVC's X has two rows at least (two classes), "
        "so X[1] exists and has X[0]'s length",
    ("refml/density/bandwidth.py", "kde_amise", "Mult -> Div",
     "h ** 4 / 4.0 / mu2 * mu2 * roughness_f2 + _kernels.roughness(kernel) / (n * h)"):
        _MU2,
    ("refml/svm/smo_newton.py", "newton_direction", "Mult -> Div",
     "[[Q[a][b] - y0 * signs[b] * Q[a][0] - y0 / signs[a] * Q[0][b] + signs[a] * signs[b] "
     "* Q[0][0] + (ridge if a == b else 0.0) for b in range(1, size)] for a in range(1, size)]"):
        _LABELS,
    ("refml/svm/smo_newton.py", "newton_direction", "Mult -> Div",
     "[[Q[a][b] - y0 / signs[b] * Q[a][0] - y0 * signs[a] * Q[0][b] + signs[a] * signs[b] "
     "* Q[0][0] + (ridge if a == b else 0.0) for b in range(1, size)] for a in range(1, size)]"):
        _LABELS,
    ("refml/tree/split.py", "midpoint", "Lt -> LtE", "t <= a or t >= b"):
        "when t == a the branch sets t = a, which it already is",
    ("refml/discriminant/statistics.py", "_first_dependent_feature", "Sub -> Add",
     "len(Sigma) + 1"): _LAST_BLOCK,
    ("refml/discriminant/statistics.py", "_first_dependent_feature", "constant 1 -> 2",
     "range(1, len(Sigma) + 2)"): _LAST_BLOCK,
    ("refml/discriminant/statistics.py", "_first_dependent_feature", "constant 1 -> 2",
     "len(Sigma) - 2"): _LAST_BLOCK,
    ("refml/linear/logistic.py", "sigmoid", "GtE -> Gt", "z > 0.0"):
        "the two branches differ only at z = 0 (or -0.0), where both give 1 / (1 + 1) = 0.5 "
        "exactly",
    ("refml/linear/separability.py", "bland_leaving", "constant 0.0 -> 1.0", "(None, 1.0)"):
        "best_ratio is read only once best is set, and the row that sets best sets it too",
    ("refml/svm/smo.py", "pair_step", "Gt -> GtE",
     "C - alpha[i] if y[i] >= 0 else alpha[i]"): _NONZERO_LABELS,
    ("refml/svm/smo.py", "pair_step", "Gt -> GtE",
     "alpha[j] if y[j] >= 0 else C - alpha[j]"): _NONZERO_LABELS,
    ("refml/svm/smo.py", "in_up", "Gt -> GtE", "alpha_t < C if y_t >= 0 else alpha_t > 0.0"):
        _NONZERO_LABELS,
    ("refml/svm/smo_newton.py", "newton_direction", "Mult -> Div",
     "[[Q[a][b] - y0 * signs[b] * Q[a][0] - y0 * signs[a] * Q[0][b] + signs[a] / signs[b] * "
     "Q[0][0] + (ridge if a == b else 0.0) for b in range(1, size)] for a in range(1, size)]"):
        "the signs are the labels y_F, coded +1 and -1, so signs[a] / signs[b] equals "
        "signs[a] * signs[b] exactly",
    ("refml/linear/separability.py", "initial_tableau", "constant 0 -> 1",
     "[Fraction(1)] * (n + m + 1)"):
        "every entry of cost is assigned by the loop that follows, before it is read",
    ("refml/svm/smo.py", "in_low", "Gt -> GtE", "alpha_t > 0.0 if y_t >= 0 else alpha_t < C"):
        _NONZERO_LABELS,
    ("refml/svm/smo.py", "exact_hard_margin", "Gt -> GtE",
     "new_alpha if any((value >= 0.0 for value in new_alpha)) else None"):
        "no value of new_alpha is negative (refused just above), so the two differ only when "
        "every value is 0; then f is the intercept alone on training rows of both classes, "
        "the caller's margin test fails (the lowest y_i f(x_i) is at most 0) and it stores "
        "SMO's alpha again, as after None",
    ("refml/perceptron/theorem.py", "multiclass_mistake_bound", "constant 0 -> 1",
     "len(theta) != len(classes) or len(theta[1]) != len(rows[0])"):
        "theta has len(classes) >= 2 rows there (two classes are checked first), all of one "
        "length (as_matrix refuses ragged rows), so theta[1] has theta[0]'s length",
    ("refml/linear/least_squares.py", "normal_equations", "Mult -> Div", "value / y[i]"):
        "its only caller hands it one_vs_rest_targets' columns, whose entries are -1.0 and "
        "+1.0, and value / y equals value * y exactly for those",
    ("refml/svm/smo.py", "newton_step", "Gt -> GtE", "C if delta[a] >= 0.0 else 0.0"):
        "newton_length names as hit only a position whose delta is above or below 0 (a "
        "delta of 0, or -0.0, is skipped there), so delta[a] >= 0 and > 0 agree at the hit",
    ("refml/svm/svc.py", "kkt_violations", "Lt -> LtE",
     "1.0 - g if C < math.inf and g <= 1.0 else 0.0"):
        "at g = 1 both give xi = 0 (1.0 - 1.0 is 0.0)",
    ("refml/svm/svc.py", "kkt_violations", "Gt -> GtE", "a < C and xi >= slackness"):
        "where xi equals slackness the assignment leaves slackness as it was",
    ("refml/tree/classifier.py", "grow_node", "constant 0 -> 1",
     "candidate_features(X, rows, len(X[1]), settings['n_candidates'], rng)"):
        "candidate_features runs only past is_leaf, at a node of at least min_samples_split "
        ">= 2 rows, so X has a second row, of X[0]'s length (as_matrix refuses ragged rows)",
    ("refml/tree/split.py", "is_constant", "constant 0 -> 1", "X[rows[1]][j]"):
        "is_constant runs only at nodes that passed is_leaf, so of at least min_samples_split "
        ">= 2 rows, and the loop compares every row, rows[0] included: all equal to the "
        "second row's value or to the first's is the same statement",
    ("refml/linear/separability.py", "bland_leaving", "Lt -> LtE",
     "best is None or ratio < best_ratio or (ratio == best_ratio and tableau['basis'][r] "
     "<= tableau['basis'][best])"):
        "each row has its own basic variable, so basis[r] == basis[best] only for r == best, "
        "which the loop never compares with itself",
    ("refml/ensemble/boosting.py", "_samme_probabilities", "constant 1.0 -> 2.0",
     "total if total > 0.0 else 2.0"):
        "a member is kept only with err < 1 - 1/K, whose alpha = log((1 - err) / err) + "
        "log(K - 1) is positive (but for rounding at that very boundary), so the total is "
        "not positive only without members, when every score is 0: 0 / 1 = 0 / 2",
    ("refml/bayes/distributions.py", "threshold_risk", "LtE -> Lt", "tau < 0.0"):
        "the two forms agree at tau = 0 (and -0.0), the one point they split differently: "
        "(0 + 1) e^0 + e^-7 (0 - 32.5) is 1.0 + (-(32.5 e^-7)), and 1.0 + (-x) is 1.0 - x "
        "exactly, the first form's 1.0 - 32.5 e^-7",
    ("refml/svm/svc.py", "dual_objective", "Mult -> Div",
     "alpha[i] * alpha[j] / y[i] * y[j] * K[i][j]"): _LABELS,
    ("refml/linear/sgd.py", "_project", "LtE -> Lt", "length < radius"):
        "at length == radius the scaled vector is theta * (radius / length) = theta * 1.0, "
        "theta itself value for value (signed zeros included), a new list the caller "
        "takes as it takes the old one",
    ("refml/svm/smo.py", "smo", "Lt -> LtE", "m - M <= tol and len(active) <= n"):
        "with every point active rebuild_gradient returns the active list as it is and "
        "changes no gradient, so the second maximal_violation repeats the first",
    ("refml/linear/least_squares.py", "_largest_magnitude", "constant 0.0 -> 1.0", "1.0"):
        "max|x_ij| is only compared with sqrt(GRAM_LIMIT / n) = sqrt(1e308 / n), above 1 for "
        "any n below 1e308 rows, so max(1, max|x_ij|) passes or fails that test alike",
    ("refml/bayes/distributions.py", "make_separable", "Lt -> LtE",
     "[1 if generator.random() <= 0.5 else -1 for _ in range(n)]"):
        "the two differ only for a draw of exactly 1/2, one of the 2^53 equally likely "
        "values k / 2^53 of random() (probability 2^-53 per label): an answer changes "
        "only on a seed no check can be expected to meet",
    ("refml/bayes/known.py", "check_probability_vector", "Gt -> GtE",
     "abs(total - 1.0) >= PROBABILITY_TOLERANCE"):
        "|total - 1| is never exactly 1e-9: for total in [0.5, 2) the difference is exact "
        "and a multiple of 2^-53, which 1e-9 (4835703278458517 / 2^82 as a float) is not, "
        "and elsewhere it is at least 1/2",
    ("refml/bayes/gaussian.py", "_equal_covariance_risk", "constant 0 -> 1",
     "linalg.solve_lower(self._cholesky[1], difference)"):
        "the method runs only when the two covariances are equal (==), and equal matrices "
        "give the same Cholesky factor but for the sign of zeros, which Delta^2, a sum of "
        "squares, does not see",
    ("refml/linear/separability.py", "initial_tableau", "constant 0 -> 1",
     "(len(columns), len(columns[1]))"):
        "every column has d + 2 entries (one per row of [A' ; 1']), and there are at least "
        "two (linear_separability needs both classes)",
    ("refml/svm/smo.py", "smo", "constant 0 -> 1",
     "n_iter > 1 and n_iter % shrink_period(n) == 0"):
        "the two tests differ only at n_iter = 1 with a shrinking period of 1, which is "
        "min(n, 1000) = 1 for n = 1, and an SVC needs two classes",
    ("refml/bayes/gaussian.py", "_crossings", "range(n) -> range(n - 1)",
     "range(len(priors) - 1)"):
        "the last j has no k > j, so its inner loop adds no root",
    ("refml/bayes/gaussian.py", "_crossings", "Add -> Sub", "range(j - 1, len(priors))"):
        "the pairs it adds are (j, j), where A = B = 0 gives no root, and (j, k) with k < j "
        "(k = -1: the last class), whose equation is (k, j)'s negated, A and B exactly and C "
        "(the logarithm of the reciprocal) to rounding: the cuts gain points a few ulps from "
        "cuts already there, and the risk moves by rounding alone (at most 1.3e-15 relative "
        "over 3,000 random one-feature problems of 2-4 classes)",
    ("refml/svm/svc.py", "kkt_violations", "Mult -> Div", "a / y[i]"):
        "the labels are coded +1 and -1 there (the SVC's signs), so a / y_i equals a * y_i "
        "exactly",
    ("refml/density/naive_bayes.py", "_gaussian_statistics", "constant 1 -> 2",
     "check_finite_moments(overall[2], overall[2])"):
        "a variance is finite only where its mean is: a mean of inf or NaN makes every "
        "deviation x_i - mean of the class, x_i finite, infinite or NaN, so the variance, "
        "a sum of w_i times their squares over the class's rows, is inf or NaN too; "
        "checking the variances twice refuses what the original refuses",
    ("refml/linear/logistic_solvers.py", "lbfgs", "Lt -> LtE", "slope <= 0.0"):
        "the two differ only at a slope g'delta of exactly 0: delta = -H g with H positive "
        "definite (H_0 = gamma P, P = I + 11' per feature, gamma > 0, pairs kept only with "
        "y's > 0), so the slope is negative unless every product g_i delta_i underflows; "
        "26,152 directions of 120 fits with tol = 0 (features scaled by 1e-100 to 1e100, "
        "alpha 0 and 1e-3, two and three classes) never gave 0",
    ("refml/bayes/gaussian.py", "bayes_line", "constant 0 -> 1",
     "linalg.cholesky(distribution.covariances[1])"):
        "the function returns None unless the two covariances are equal (==), and equal "
        "matrices give the same Cholesky factor but for the sign of zeros, so w and b are "
        "equal (==) floats",
    ("refml/perceptron/perceptron.py", "perceptron_criterion", "constant 0 -> 1",
     "len(theta) != len(rows[1])"): _SAME_LENGTH,
    ("refml/perceptron/theorem.py", "mistake_bound", "constant 0 -> 1",
     "len(theta) != len(rows[1])"): _SAME_LENGTH,
    ("refml/bayes/distributions.py", "_codes_of", "constant 1 -> 2",
     "[code.get(label, -2) for label in predictions]"):
        "its one caller, risk_of_predictions, reads a code only as codes[i] < 0 (no class) "
        "and k != codes[i] over class indices k >= 0: -2 and -1 answer both alike",
    ("refml/svm/separator.py", "_max_margin_separator", "constant 0.0 -> 1.0",
     "all((s * _smo.kernel_value('linear', theta, r, 1.0, 0, 0.0) > 0.0 for r, s in "
     "zip(rows, signs)))"): _LINEAR,
    ("refml/bayes/distributions.py", "threshold_risk", "LtE -> Lt", "tau < 7.0"):
        "the two branches differ only at tau = 7.0, where both give 24.5 e^-7 = "
        "0.022341108156085646, bit for bit (the risk is continuous there and both roundings "
        "land on the same float)",
    ("refml/svm/smo_newton.py", "newton_direction", "Mult -> Div",
     "linalg.cholesky_solve(L, [-(G_F[a] - y0 / signs[a] * G_F[0]) for a in range(1, size)])"):
        "signs are the free points' labels +1 and -1 (y_F), so y_0 / y_a equals y_0 y_a "
        "exactly",
    ("refml/perceptron/multiclass.py", "rival", "constant 0.0 -> 1.0", "(-1, 1.0)"):
        "best is read only once a rival was found: the first k != c_i meets rival < 0, "
        "which short-circuits the comparison and sets best, and ClassesRule serves only "
        "K > 2 classes (two take BinaryRule), so some k != c_i always comes",
    ("refml/perceptron/perceptron.py", "correct", "Mult -> Div",
     "update(theta, self.rows[i], gamma / self.y[i])"):
        "the binary rule's labels are the signs +1.0 and -1.0 (signs_from_codes), so "
        "gamma / y_i equals gamma * y_i exactly",
}
