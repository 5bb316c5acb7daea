"""Projected SGD ([MATH412], Algorithm 1) with numpy vectors (see refml.linear.sgd).

The stochastic gradient is a Python callable, which no kernel can call, so there is no
hot core to compile: this runs refml's loop unchanged (the same floats, the same random
stream) and only hands ``stochastic_gradient`` numpy arrays and returns numpy arrays.
LogisticRegression(solver="sgd") has its own kernel (refml_fast/linear/logistic_kernels.py).
"""

import numpy as np

from refml.linear import sgd as reference
from refml.linear.sgd import SGDResult


def projected_sgd(stochastic_gradient, theta0, n_steps, *, step=1.0, power=0.5, radius=None,
                  average=True, random_state=None):
    def gradient_of_list(theta, rng):
        return np.asarray(stochastic_gradient(np.asarray(theta, dtype=np.float64), rng),
                          dtype=np.float64).tolist()

    result = reference.projected_sgd(gradient_of_list, np.asarray(theta0, dtype=np.float64)
                                     .tolist(), n_steps, step=step, power=power,
                                     radius=radius, average=average,
                                     random_state=random_state)
    as_array = (lambda v: None if v is None else np.asarray(v, dtype=np.float64))
    return SGDResult(*(as_array(v) for v in result))


projected_sgd.__doc__ = reference.projected_sgd.__doc__
