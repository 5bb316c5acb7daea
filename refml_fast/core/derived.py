"""What an estimator derives from its learned state at its first use (beyond the lectures).

Some answers need a structure computed from the learned attributes alone: k-NN's search
structure, a forest's trees packed into one table.  It is held in a ``Derived`` object
apart from the estimator's own attributes, so that the call that fills it leaves those
attributes as they were (scikit-learn's check_dict_unchanged).  A pickle or a copy holds it
empty and the next use fills it again; refml's model files never save it (the estimator's
``_derived_state``).
"""


class Derived:
    """Filled in place by the first use; pickled and copied empty."""

    def __getstate__(self):
        return {}

    def __setstate__(self, state):
        pass
