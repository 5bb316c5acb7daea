"""The Newton step that ends SMO's last phase (refml.svm.smo's ``newton_step``): its direction
and its length.  Beyond the lectures, and not in LIBSVM.

Why.  SMO's pairs can zig-zag for a long time among the points on the margin.  With the
linear kernel in d dimensions about d + 1 of them are free (0 < alpha_s < C), Q_FF is
ill-conditioned, and pair steps can take a hundred thousand steps to bring m - M from
3 tol down to tol (2,000 x 50, overlapping: 300-390 thousand pair steps, where LIBSVM took
110-130 thousand; with this step 21-67 thousand; the breast-cancer data unscaled, 569 x 30:
8.3 million pair steps, LIBSVM 4.8 million, with this step 0.31 million).  One Newton step
on the free set solves its equations at once; when the free set is not yet the final one,
the step still lowers f, and the box stops it at the first multiplier that must leave the
set.  It is tried after every shrinking (every min(n, 1000) pair steps), while
|F|^3 <= NEWTON_WORK times the pair steps' work in between (period times active points), so
that it never costs much more than those steps.

The direction.  The multipliers at 0 or C stay; over the free set F, minimise

    1/2 delta' Q_FF delta + G_F' delta   subject to   y_F' delta = 0.

The constraint is solved for the first free multiplier: delta = P z with
delta_0 = -y_0 sum_{a>0} y_a z_a (y_0^2 = 1), so every delta computed this way keeps
sum alpha_i y_i = 0 up to the rounding of that one sum.  Over z the problem is unconstrained,
minimise 1/2 z'R z + g~'z with R = P'Q_FF P and g~ = P'G_F, and its Newton step solves
(R + r I) z = -g~ by Cholesky, r = NEWTON_RIDGE times the mean Q_ss.  Without the ridge (and
unconstrained by the box) this is the exact minimiser of f over the free multipliers.  The
ridge keeps the matrix positive definite when R is singular (more free points than the
kernel has dimensions); along such flat directions z is long, and the box cuts it.  (Solving
H u = -G_F and H w = y_F with H = Q_FF + r I and combining u - nu w, the textbook route,
loses the constraint: when Q_FF is singular but the constraint removes its null direction,
u and w are 1e10 long there and their difference keeps 1e-7 of noise, which conformance 10
at seeds 0 and 31 found as sum alpha_i y_i = 1e-7.)

The length.  tau = 1, the Newton step of the ridged model, cut where the first multiplier
meets its bound.  Along delta = P z, f(alpha + tau delta) - f(alpha) = tau g + tau^2 c / 2
with the slope g = G_F' delta = g~'z = -z'(R + r I) z < 0 and the curvature
c = z'R z <= -g, so f falls by at least -g / 2 at tau = 1, and for every shorter tau.  No
line search stretches tau beyond 1: when the free set is already solved, delta is rounding
noise (1e-17) and c is 1e-33, so -g / c would multiply that noise by 1e15 (conformance 10 at
seed 31 found sum alpha_i y_i = 0.06 that way).
"""

from refml.core import linalg

NEWTON_RIDGE = 1e-10              # the ridge, relative to the mean Q_ss
NEWTON_WORK = 4                   # tried while |F|^3 <= this * period * active points


def newton_direction(Q, signs, G_F):
    """delta on F with y_F' delta = 0: delta_0 = -y_0 sum_{a>0} y_a z_a and delta_a = z_a,
    where (R + r I) z = -g~ (Cholesky), R = P'Q_FF P and g~ = P'G_F for that map P;
    None when the factorisation meets a pivot that is not positive."""
    size, y0 = len(Q), signs[0]
    mean_diagonal = 0.0
    for a in range(size):
        mean_diagonal += Q[a][a]
    ridge = NEWTON_RIDGE * (mean_diagonal / size)
    # column a of P is e_a - y_0 y_a e_0, so R_ab = p_a'Q p_b and g~_a = p_a'G_F (a, b >= 1)
    R = [[Q[a][b] - y0 * signs[b] * Q[a][0] - y0 * signs[a] * Q[0][b]
          + signs[a] * signs[b] * Q[0][0] + (ridge if a == b else 0.0)
          for b in range(1, size)] for a in range(1, size)]
    try:
        L = linalg.cholesky(R)
    except linalg.SingularMatrixError:
        return None
    z = linalg.cholesky_solve(L, [-(G_F[a] - y0 * signs[a] * G_F[0]) for a in range(1, size)])
    return [-y0 * linalg.dot(signs[1:], z)] + z


def newton_length(free, G_F, delta, alpha, C):
    """(tau, hit): tau = 1 cut where the first multiplier meets its bound (hit: its position
    in F, -1 if none); tau = 0 when delta is no descent direction (G_F' delta >= 0)."""
    slope = 0.0                                      # G_F' delta, left to right
    for a in range(len(delta)):
        slope += G_F[a] * delta[a]
    if not slope < 0.0:
        return 0.0, -1
    tau, hit = 1.0, -1
    for a in range(len(delta)):                      # a runs over F: s = free[a]
        s = free[a]
        if delta[a] > 0.0:
            room = (C - alpha[s]) / delta[a]
        elif delta[a] < 0.0:
            room = alpha[s] / -delta[a]
        else:
            continue
        if room < tau:
            tau, hit = room, a
    return tau, hit
