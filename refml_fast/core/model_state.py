"""A model loaded from a file refml saved, in refml_fast's representation
(``refml.core.model_files``): refml keeps its learned state in lists, refml_fast in numpy
arrays; the values are the same.

``from_reference(model)`` turns every learned list of numbers (rectangular, of any depth)
into a float64 array (int64 when every entry is an integer), the labels of ``classes_``
into the array ``labels_as_numpy`` makes, and a tree's node lists into its arrays.  Left as
lists: the hyper-parameters, what refml_fast itself keeps as lists (``KEPT_AS_LISTS``), and
lists of other things (the members of an ensemble, each converted as it is loaded).  ``PER_ROW``
names the lists that refml_fast keeps as lists of arrays (one per class).
"""

import numbers

import numpy as np

from refml.core import interop
from refml.tree.split import Tree

KEPT_AS_LISTS = ("class_count_", "class_prior_", "class_log_prior_", "loss_curve_",
                 "n_mistakes_", "trajectory_", "bin_low_", "bin_high_", "bin_width_",
                 "bin_counts_")
PER_ROW = ("class_data_", "bandwidth_cholesky_", "_factors")
# partial_fit's running state: the entries refml_fast keeps as arrays
STREAM_ARRAYS = ("scatter", "theta")
# lists of indices refml_fast keeps as int64 arrays, empty ones too (an empty list has no
# numbers to tell its kind by)
INDEX_ARRAYS = ("dependent_features_",)


def from_reference(model):
    params = set(model.get_params(deep=False)) if hasattr(model, "get_params") else set()
    for name, value in list(vars(model).items()):
        if name in params or name in KEPT_AS_LISTS:
            continue
        if name == "classes_" and isinstance(value, list):
            model.classes_ = interop.labels_as_numpy(value)
        elif name in PER_ROW and isinstance(value, list):
            setattr(model, name, [as_array(v) for v in value])
        elif name == "_stream" and isinstance(value, dict):
            for key in STREAM_ARRAYS:
                if isinstance(value.get(key), list):
                    value[key] = as_array(value[key])
        elif name in INDEX_ARRAYS and isinstance(value, list):
            setattr(model, name, np.asarray(value, dtype=np.int64))
        elif isinstance(value, Tree):
            tree_arrays(value)
        elif isinstance(value, list) and is_numeric(value):
            setattr(model, name, as_array(value))


def is_numeric(value):
    """A non-empty list whose leaves are all numbers (bools excepted)."""
    if isinstance(value, list):
        return bool(value) and all(is_numeric(v) for v in value)
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def as_array(value):
    array = np.asarray(value)
    return array.astype(np.int64) if array.dtype.kind in "iu" else array.astype(np.float64)


def tree_arrays(tree):
    for name in Tree.FIELDS:
        values = getattr(tree, name)
        kind = np.float64 if name in ("threshold", "value", "impurity",
                                      "weighted_n_node_samples") else np.int64
        setattr(tree, name, np.asarray(values, dtype=kind))
