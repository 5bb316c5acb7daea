"""The multi-class perceptron (beyond the lectures, which state the perceptron for two
classes): one weight vector theta_k per class, the prediction argmax_k theta_k'x~.

Point i of class c is a *mistake* when some other class scores at least as high,

    max_{k != c} theta_k'x~_i >= theta_c'x~_i,

the binary rule's y theta'x~ <= 0 read class against class (a tie is a mistake).  The
*rival* r is the first class k != c with the largest score, and a mistake moves the true
class's vector towards x~ and the rival's away:

    theta_c <- theta_c + gamma_t x~_i,    theta_r <- theta_r - gamma_t x~_i.

The four orders of ``refml.perceptron.orders`` run unchanged on this rule.

The mistake bound (``refml.perceptron.theorem.multiclass_mistake_bound``) is Theorem 2.3
through Kesler's construction: the update is the binary one on the K(d + 1)-vector
z = (e_c - e_r) (x) x~, whose squared length is 2 ||x~||^2, so on data that some
Theta* = (theta*_1, ..., theta*_K) separates with margin
delta = min_i min_{k != c_i} (theta*_{c_i} - theta*_k)'x~_i / ||Theta*||_F > 0, the number
of updates is at most 2 R^2 / delta^2.
"""

from refml.core import linalg


class ClassesRule:
    """The multi-class rule on rows x~_i with class codes c_i in 0..K-1; theta is the list
    of the K vectors theta_k (``refml.perceptron.orders`` asks it what a mistake is)."""

    def __init__(self, rows, codes):
        self.rows, self.codes, self.n = rows, codes, len(rows)

    def rival(self, theta, i):
        """(r, theta_c'x~_i - theta_r'x~_i): the first class r != c_i of largest score."""
        x, c = self.rows[i], self.codes[i]
        rival, best = -1, 0.0
        for k in range(len(theta)):
            if k == c:
                continue
            score = linalg.dot(theta[k], x)
            if rival < 0 or score > best:
                rival, best = k, score
        return rival, linalg.dot(theta[c], x) - best

    def mistake(self, theta, i):
        """Not (theta_c'x~ - theta_r'x~ > 0): a tie, or a NaN score, is a mistake."""
        return not self.rival(theta, i)[1] > 0.0

    def loss(self, theta, i):
        """max(0, theta_r'x~ - theta_c'x~), the multi-class perceptron loss."""
        margin = self.rival(theta, i)[1]
        return 0.0 if margin > 0.0 else -margin

    def correct(self, theta, i, gamma):
        r, _ = self.rival(theta, i)
        x, c = self.rows[i], self.codes[i]
        for j in range(len(x)):
            theta[c][j] += gamma * x[j]
            theta[r][j] -= gamma * x[j]
