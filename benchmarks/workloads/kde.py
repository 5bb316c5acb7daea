"""docs/design.md section 8, ``kde1`` / ``kde5``: Gaussian KDE, 20,000 points evaluated at 20,000
points, d = 1 and d = 5, exact.

Data: training points and query points drawn from N(0, I_d) (seeded).  Both sides fit the
same points and return log densities at the same queries with the same bandwidth:
h = Silverman's factor (4/(n(d+2)))^(1/(d+4)) for unit variance, H = h^2 I (refml_fast:
``bandwidth=h``; scikit-learn: ``KernelDensity(kernel="gaussian", bandwidth=h,
atol=0, rtol=0)``, i.e. its tree-based evaluation with no approximation allowed, the
"exact" setting).  Both compute all 4 x 10^8 kernel terms.

The runner's "agree" column compares the returned values for equality: they are rounded
to 8 decimals first, so it is the fraction of log densities agreeing to about 1e-8.
"""

import numpy as np

N_POINTS = 20_000


def _make_data(d):
    def make_data(scale):
        rng = np.random.default_rng(5 + d)
        n = max(100, int(N_POINTS * scale))
        h = (4.0 / (n * (d + 2.0))) ** (1.0 / (d + 4.0))
        return {"X": rng.normal(size=(n, d)), "queries": rng.normal(size=(n, d)), "h": h}
    return make_data


def fast(data):
    import refml_fast

    model = refml_fast.KernelDensity(kernel="gaussian", bandwidth=data["h"]).fit(data["X"])
    return np.round(model.score_samples(data["queries"]), 8)


def sklearn(data):
    from sklearn.neighbors import KernelDensity

    model = KernelDensity(kernel="gaussian", bandwidth=data["h"], atol=0, rtol=0)
    return np.round(model.fit(data["X"]).score_samples(data["queries"]), 8)


def refml(data):
    import refml

    model = refml.KernelDensity(kernel="gaussian", bandwidth=data["h"])
    return np.round(model.fit(data["X"].tolist()).score_samples(data["queries"].tolist()), 8)


WORKLOADS = [
    {"name": f"kde{d}", "description": f"Gaussian KDE, d = {d}, exact",
     "make_data": _make_data(d), "fast": fast, "sklearn": sklearn, "refml": refml}
    for d in (1, 5)
]
