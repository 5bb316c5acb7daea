"""The perceptron's four orders: which mistake is corrected next.

An order does not care what a mistake is.  It asks a *rule* (the binary perceptron's
``perceptron.BinaryRule``, the multi-class perceptron's ``multiclass.ClassesRule``):

    rule.n                               the number of points;
    rule.mistake(theta, i)               is point i a mistake under theta?
    rule.loss(theta, i)                  its perceptron loss (0 when correct);
    rule.correct(theta, i, gamma)        the update with step gamma, in place.

The orders ([MATH412], [NN-Notes], [Wainwright-L2]; see ``refml.perceptron.perceptron``):
"cyclic" corrects every mistake of a pass over i = 1..n; "batch" corrects the first mistake
of a scan from i = 1, then scans again; "random" draws among the current mistakes;
"uniform" draws among all points and corrects the point drawn if it is a mistake.

Each order starts from ``theta`` (the zero vector for ``fit``; the state so far for
``partial_fit``, beyond the lectures), counts the points it examines from ``examined + 1``
(the t of the decreasing step gamma_t = learning_rate / t), and returns
(n_mistakes, n_iter, converged); theta is updated in place and, after every update, a
copy of it is appended to ``trajectory`` when that is a list.
"""

import copy


def step_size(learning_rate, decreasing, t):
    """gamma_t: learning_rate, or learning_rate / t (sum = inf, sum of squares < inf)."""
    return learning_rate / t if decreasing else learning_rate


def record(theta, trajectory):
    """A copy of theta (a vector, or the multi-class rule's K vectors) on the trajectory."""
    if trajectory is not None:
        trajectory.append(copy.deepcopy(theta))


def cyclic_passes(rule, theta, examined, learning_rate, decreasing, max_iter, trajectory,
                  patience):
    """Passes over i = 1..n, correcting every mistake met ([MATH412])."""
    n_mistakes, t = 0, examined
    for n_pass in range(1, max_iter + 1):
        mistakes_in_pass = 0
        loss = 0.0
        for i in range(rule.n):
            t += 1
            if rule.mistake(theta, i):
                loss += rule.loss(theta, i)
                rule.correct(theta, i, step_size(learning_rate, decreasing, t))
                record(theta, trajectory)
                mistakes_in_pass += 1
        n_mistakes += mistakes_in_pass
        if mistakes_in_pass == 0:
            return n_mistakes, n_pass, True
        if patience.no_improvement(loss):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


def batch_passes(rule, theta, examined, learning_rate, decreasing, max_iter, trajectory,
                 patience):
    """[NN-Notes], Algorithm 5: correct the first mistake of a scan from i = 1, rescan.
    A pass (for ``patience``) ends after every n-th examination, mid-scan or not."""
    n = rule.n
    n_mistakes = seen = 0
    cap = max_iter * n
    loss = 0.0
    while True:
        first_mistake = None
        for i in range(n):
            if seen == cap:
                return n_mistakes, max_iter, False
            if seen > 0 and seen % n == 0:
                if patience.no_improvement(loss):
                    return n_mistakes, seen // n, False
                loss = 0.0
            seen += 1
            if rule.mistake(theta, i):
                loss += rule.loss(theta, i)
                first_mistake = i
                break
        if first_mistake is None:  # "else output w^(t)"
            return n_mistakes, (seen + n - 1) // n, True
        rule.correct(theta, first_mistake,
                     step_size(learning_rate, decreasing, examined + seen))
        record(theta, trajectory)
        n_mistakes += 1


def random_passes(rule, theta, examined, learning_rate, decreasing, max_iter, trajectory,
                  patience, generator):
    """[Wainwright-L2]: pick i uniformly in m(theta^t) (listed by index), until it is empty."""
    n = rule.n
    n_mistakes = 0
    loss = 0.0
    for t in range(1, max_iter * n + 1):
        mistakes = [i for i in range(n) if rule.mistake(theta, i)]
        if not mistakes:
            return n_mistakes, (t - 1) // n + 1, True
        if t > 1 and (t - 1) % n == 0:
            if patience.no_improvement(loss):
                return n_mistakes, (t - 1) // n, False
            loss = 0.0
        i = mistakes[generator.randbelow(len(mistakes))]
        loss += rule.loss(theta, i)
        rule.correct(theta, i, step_size(learning_rate, decreasing, examined + t))
        record(theta, trajectory)
        n_mistakes += 1
    return n_mistakes, max_iter, False


def uniform_passes(rule, theta, examined, learning_rate, decreasing, max_iter, trajectory,
                   patience, generator):
    """[MATH412]: repeat t <- t + 1, pick (x_i, y_i) at random, update if it is a mistake;
    stop after a pass (n draws) that leaves no mistake at all."""
    n = rule.n
    n_mistakes, t = 0, examined
    for n_pass in range(1, max_iter + 1):
        loss = 0.0
        for _ in range(n):
            t += 1
            i = generator.randbelow(n)
            if rule.mistake(theta, i):
                loss += rule.loss(theta, i)
                rule.correct(theta, i, step_size(learning_rate, decreasing, t))
                record(theta, trajectory)
                n_mistakes += 1
        if not any(rule.mistake(theta, i) for i in range(n)):
            return n_mistakes, n_pass, True
        if patience.no_improvement(loss):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


def run_order(order, rule, theta, examined, learning_rate, decreasing, max_iter,
              trajectory, patience, generator):
    """(n_mistakes, n_iter, converged) of ``order``'s passes (the draws from
    ``generator`` for "random" and "uniform")."""
    if order == "cyclic":
        return cyclic_passes(rule, theta, examined, learning_rate, decreasing, max_iter,
                             trajectory, patience)
    if order == "batch":
        return batch_passes(rule, theta, examined, learning_rate, decreasing, max_iter,
                            trajectory, patience)
    passes = random_passes if order == "random" else uniform_passes
    return passes(rule, theta, examined, learning_rate, decreasing, max_iter, trajectory,
                  patience, generator)
