"""Losses over numpy: refml's functions (no hot core), with sequences returned as arrays."""

import functools

import numpy as np

import refml.bayes.losses as reference
from refml.bayes.losses import empirical_risk

__all__ = ["zero_one_loss", "square_loss", "logistic_loss", "perceptron_loss", "hinge_loss",
           "empirical_risk"]


def _returning_arrays(loss):
    """The refml loss; a list result (a sequence was given) comes back as a float64 array."""
    @functools.wraps(loss)
    def wrapped(a, y=None):
        value = loss(a, y)
        return np.asarray(value, dtype=np.float64) if isinstance(value, list) else value
    return wrapped


zero_one_loss = _returning_arrays(reference.zero_one_loss)
square_loss = _returning_arrays(reference.square_loss)
logistic_loss = _returning_arrays(reference.logistic_loss)
perceptron_loss = _returning_arrays(reference.perceptron_loss)
hinge_loss = _returning_arrays(reference.hinge_loss)
