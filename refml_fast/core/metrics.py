"""Metrics have no hot core: refml_fast uses refml's functions as they are."""

from refml.core.metrics import accuracy_score, bias_variance_decomposition

__all__ = ["accuracy_score", "bias_variance_decomposition"]
