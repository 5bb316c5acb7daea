"""Small helpers shared by the test modules."""


def as_list(values):
    """Predictions or arrays from either package as plain Python lists (nested for 2-D)."""
    return values.tolist() if hasattr(values, "tolist") else list(values)
