"""Fitted models as files that load without pickle (beyond the lectures).

    from refml.core.model_files import save_model, load_model
    save_model(model, "model.json")
    model = load_model("model.json")                      # the package it was saved from
    model = load_model("model.json", package="refml")     # or the other one

A pickle can run any code when it is loaded, so a model from an untrusted source must not
be unpickled.  A model file is JSON (the standard library writes and reads it): the
estimator's public class name, the package that saved it, and its attributes (the
hyper-parameters and the learned state) as typed values:

- None, True/False, integers, strings and floats (non-finite floats as
  ``{"__float__": "inf"}``: the file is strict JSON);
- lists, tuples (``{"__tuple__": [...]}``) and dicts (``{"__dict__": [[key, value], ...]}``,
  so keys keep their type);
- numpy arrays of numbers, booleans or labels (``{"__array__": dtype, "shape", "data"}``);
- refml's random generator (its 64-bit state);
- objects of an allowed class only: the public classes of refml and refml_fast (estimators
  and distributions, by public name) and the few classes that hold learned state (the
  tree's arrays, the single-class voter of bagging).

Loading builds nothing else: each allowed object is made with ``cls.__new__(cls)`` and its
attributes are set, no ``__init__``, ``__setstate__`` or other code of the file's choosing
runs; anything outside the list above is refused with ValueError.  Then the model checks
itself (``check_loaded``): the hyper-parameters as ``fit`` checks them, and the learned
arrays' widths against ``n_features_in_`` and ``classes_``.

Between the packages: refml keeps its learned state in lists, refml_fast in numpy arrays.
A file saved by one loads into the other with the state converted (arrays to lists for
refml; the other way by ``refml_fast.core.model_state`` for refml_fast), and the two give
the same predictions, as they do after fitting.  What refml_fast derives from the learned
state alone (the k-NN search structure, the forest's packed trees, QDA's transposed
factors) is never saved: it is rebuilt on load (``_restore_derived``).

Limits: the checks catch a file that is malformed or inconsistent in its shapes, not one
whose numbers were altered consistently (it loads, and predicts what those numbers say).
refml's code indexes Python lists (an inconsistency it missed raises IndexError at worst);
refml_fast's compiled kernels do not check bounds, so load a file you do not trust into
refml first.
"""

import json
import math

FORMAT = "refml-model"
VERSION = 1
PACKAGES = ("refml", "refml_fast")
# Not saved: the snapshot of the hyper-parameters (taken again on load), and what a class
# lists in its ``_derived_state`` (derived from the learned state; ``_restore_derived``
# rebuilds it on load).
NOT_SAVED = ("_fitted_params",)
NUMERIC_KINDS = "biuf"


# ----------------------------------------------------------------------------------------
# Writing.

def save_model(model, path):
    """Write ``model`` (any estimator of refml or refml_fast) to ``path`` as JSON."""
    with open(path, "w", encoding="utf-8") as file:
        file.write(dumps(model))


def dumps(model):
    """The model file's text."""
    package = _package_of(model)
    document = {"format": FORMAT, "version": VERSION, "package": package,
                "class": type(model).__name__, "state": _encode_object(model)}
    return json.dumps(document, allow_nan=False, separators=(",", ":"))


def converted(model, package):
    """``loads(dumps(model), package)`` without the text in between: the file's values go
    from one package's objects to the other's in memory, through the same encoding, reader
    and checks (refml_fast's twins, ``refml_fast.runtime.spec_first``)."""
    model_package = _package_of(model)
    if package not in PACKAGES:
        raise ValueError(f"package={package!r}: must be one of {PACKAGES}")
    loaded = Reader(package).build(model_package, type(model).__name__,
                                   _encode_object(model))
    check_loaded(loaded)
    return loaded


def _package_of(obj):
    root = type(obj).__module__.split(".")[0]
    if root not in PACKAGES or type(obj).__name__ not in _public_classes(root):
        raise TypeError(f"save_model saves estimators of refml and refml_fast, not "
                        f"{type(obj).__module__}.{type(obj).__name__}")
    return root


def _encode(value):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"__float__": repr(value)}
    if isinstance(value, list):
        return list(value) if _finite_numbers(value) else [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"__dict__": [[_encode(k), _encode(v)] for k, v in value.items()]}
    kind = type(value)
    if kind.__module__ == "numpy":
        if kind.__name__ == "ndarray":
            return _encode_array(value)
        if hasattr(value, "item"):                  # a numpy scalar: the Python value
            return _encode(value.item())
    if kind.__name__ == "Generator" and kind.__module__ == "refml.core.random":
        return {"__generator__": value.state}
    if _allowed_object(value):
        return {"__object__": [_package_of_any(value), kind.__name__],
                "state": _encode_object(value)}
    raise TypeError(f"save_model cannot save a value of type {kind.__module__}."
                    f"{kind.__name__} (a function or an object of another library?)")


def _encode_object(obj):
    skipped = NOT_SAVED + tuple(getattr(type(obj), "_derived_state", ()))
    return {name: _encode(value) for name, value in vars(obj).items()
            if name not in skipped}


def _encode_array(array):
    if array.dtype.kind in NUMERIC_KINDS:
        dtype = array.dtype.name
    elif array.dtype.kind in "OU":
        dtype = "object"
    else:
        raise TypeError(f"save_model cannot save an array of dtype {array.dtype}")
    values = array.ravel().tolist()
    return {"__array__": dtype, "shape": list(array.shape),
            "data": values if _finite_numbers(values) else [_encode(v) for v in values]}


def _finite_numbers(values):
    """A list of ints and finite floats only, which the file holds as they are (a tree's
    node arrays: one test instead of a call for each value)."""
    return all(type(v) is int or (type(v) is float and math.isfinite(v)) for v in values)


# ----------------------------------------------------------------------------------------
# Reading.

def load_model(path, package=None):
    """The model in ``path``, as an estimator of ``package`` ("refml" or "refml_fast";
    None: the package that saved it).  ValueError for anything but a valid model file."""
    with open(path, encoding="utf-8") as file:
        return loads(file.read(), package)


def loads(text, package=None):
    """The model of a model file's text (``load_model``)."""
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"not a model file: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError("not a model file: no 'format': 'refml-model'")
    if document.get("version") != VERSION:
        raise ValueError(f"model file version {document.get('version')!r}: this refml "
                         f"reads version {VERSION}")
    source, name = document.get("package"), document.get("class")
    if source not in PACKAGES:
        raise ValueError(f"model file of package {source!r}: expected one of {PACKAGES}")
    target = package or source
    if target not in PACKAGES:
        raise ValueError(f"package={package!r}: must be one of {PACKAGES}")
    reader = Reader(target)
    model = reader.build(source, name, document.get("state"))
    check_loaded(model)
    return model


def _refuse_constant(name):
    raise ValueError(f"not a model file: bare {name} (non-finite floats are written as "
                     "{'__float__': ...})")


class Reader:
    """Decodes a file's values into objects of the target package."""

    def __init__(self, target):
        self.target = target

    def build(self, source, name, state):
        cls = self._allowed_class(source, name)
        if not isinstance(state, dict):
            raise ValueError(f"model file: the state of {name} is not an object")
        obj = cls.__new__(cls)
        for attribute, value in state.items():
            if not isinstance(attribute, str) or attribute.startswith("__"):
                raise ValueError(f"model file: attribute name {attribute!r} refused")
            obj.__dict__[attribute] = self.decode(value)
        convert = getattr(obj, "_from_reference_state", None)
        if convert is not None and source != self.target:
            convert()
        restore = getattr(obj, "_restore_derived", None)
        if restore is not None:
            restore()
        if hasattr(obj, "get_params") and _is_fitted(obj):
            from refml.core.interop import param_snapshot

            obj._fitted_params = param_snapshot(obj)
        return obj

    def decode(self, value):
        if value is None or isinstance(value, (bool, str, int)):
            return value
        if isinstance(value, float):
            return value
        if isinstance(value, list):
            return list(value) if _scalars(value) else [self.decode(v) for v in value]
        if not isinstance(value, dict) or len(value) not in (1, 2, 3):
            raise ValueError(f"model file: unexpected value {str(value)[:80]}")
        if "__float__" in value:
            text = value["__float__"]
            if text not in ("inf", "-inf", "nan"):
                raise ValueError(f"model file: float {text!r} refused")
            return float(text)
        if "__tuple__" in value:
            return tuple(self.decode(v) for v in _listed(value["__tuple__"]))
        if "__dict__" in value:
            pairs = _listed(value["__dict__"])
            if not all(isinstance(p, list) and len(p) == 2 for p in pairs):
                raise ValueError("model file: a dict is not a list of pairs")
            return {_hashable(self.decode(k)): self.decode(v) for k, v in pairs}
        if "__array__" in value:
            return self.array(value)
        if "__generator__" in value:
            from refml.core.random import Generator

            state = value["__generator__"]
            if not isinstance(state, int) or isinstance(state, bool) or not \
                    0 <= state < 2 ** 64:
                raise ValueError("model file: a generator's state is not a 64-bit integer")
            return Generator(state)
        if "__object__" in value:
            where = _listed(value["__object__"])
            if len(where) != 2:
                raise ValueError("model file: an object is named by [package, class]")
            return self.build(where[0], where[1], value.get("state"))
        raise ValueError(f"model file: unexpected value {str(value)[:80]}")

    def array(self, value):
        dtype, shape, data = value["__array__"], value.get("shape"), value.get("data")
        if not (isinstance(shape, list) and all(isinstance(s, int) and not isinstance(
                s, bool) and s >= 0 for s in shape) and isinstance(data, list)):
            raise ValueError("model file: an array needs a shape and a data list")
        if math.prod(shape) != len(data):
            raise ValueError(f"model file: an array of shape {shape} holds {len(data)} "
                             "values")
        items = list(data) if _scalars(data) else [self.decode(v) for v in data]
        allowed = (bool, int, float, str)
        if not all(isinstance(v, allowed) for v in items):
            raise ValueError("model file: an array holds something other than numbers, "
                             "booleans or strings")
        if self.target == "refml":
            return _nested(items, shape)
        import numpy

        if dtype == "object":
            array = numpy.empty(len(items), dtype=object)
            array[:] = items
            return array.reshape(shape)
        if dtype not in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                         "uint32", "uint64", "float32", "float64"):
            raise ValueError(f"model file: array dtype {dtype!r} refused")
        return numpy.array(items, dtype=dtype).reshape(shape)

    def _allowed_class(self, source, name):
        if source not in PACKAGES or not isinstance(name, str):
            raise ValueError(f"model file: class {source!r}.{name!r} refused")
        public = _public_classes(self.target)
        if name in public:
            return public[name]
        internal = _internal_classes()
        if name in internal:
            return internal[name]
        raise ValueError(f"model file: class {name!r} is not one of refml's estimators")


def _scalars(values):
    """A list of plain values only (numbers, strings, booleans, None), each its own
    decoding."""
    return all(type(v) in SCALARS for v in values)


SCALARS = (int, float, str, bool, type(None))


def _listed(value):
    if not isinstance(value, list):
        raise ValueError("model file: expected a list")
    return value


def _hashable(key):
    if isinstance(key, list):
        raise ValueError("model file: a dict key is a list")
    return key


def _nested(items, shape):
    """A flat list as nested lists of ``shape`` (row-major)."""
    if not shape:
        return items[0]
    if len(shape) == 1:
        return list(items)
    step = math.prod(shape[1:])
    return [_nested(items[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _is_fitted(obj):
    return any(name.endswith("_") and not name.startswith("_") for name in vars(obj))


# ----------------------------------------------------------------------------------------
# The allowed classes, and the check after loading.

def _library(name):
    """refml, or refml_fast through the entry point refml_fast registers (refml never
    imports it by name); looked up once per process (a scan of the installed packages'
    entry points took 5 ms, for each of a forest's hundred trees)."""
    import refml

    if name == "refml":
        return refml
    if "refml_fast" not in _FOUND:
        from importlib.metadata import entry_points

        found = list(entry_points(group="refml.backends", name="fast"))
        if not found:
            raise ValueError("package='refml_fast' needs refml_fast installed (the fast "
                             "extra)")
        _FOUND["refml_fast"], _ = found[0].load()()
    return _FOUND["refml_fast"]


_FOUND = {}


def _public_classes(name):
    library = _library(name)
    return {public: getattr(library, public) for public in library.__all__
            if isinstance(getattr(library, public), type)}


def _internal_classes():
    """The classes that hold learned state inside an estimator, as the estimators declare
    them (``_state_classes``: the tree's node arrays, bagging's single-class voter)."""
    return {inner.__name__: inner for cls in _public_classes("refml").values()
            for inner in getattr(cls, "_state_classes", ())}


def _allowed_object(value):
    kind = type(value)
    if kind in _internal_classes().values():
        return True
    root = kind.__module__.split(".")[0]
    return root in PACKAGES and _public_classes(root).get(kind.__name__) is kind


def _package_of_any(value):
    root = type(value).__module__.split(".")[0]
    return root if root in PACKAGES else "refml"


WIDE = ("coef_", "means_", "theta_", "var_", "support_vectors_", "_fit_X")


def check_loaded(model):
    """The checks a loaded model must pass: its hyper-parameters as ``fit`` checks them,
    and the widths of its learned matrices against n_features_in_ and classes_."""
    if hasattr(model, "_check_params") and hasattr(model, "n_features_in_"):
        try:
            model._check_params(None)
        except (TypeError, AttributeError):
            pass                  # checks that need the data: the shapes below stand in
    width = getattr(model, "n_features_in_", None)
    if width is not None and (not isinstance(width, int) or width < 1):
        raise ValueError(f"model file: n_features_in_ = {width!r}")
    for name in WIDE:
        if width is None or name not in vars(model):
            continue
        rows = vars(model)[name]
        rows = rows.tolist() if hasattr(rows, "tolist") else rows
        for row in rows:
            if isinstance(row, list) and len(row) != width:
                raise ValueError(f"model file: {name} has rows of {len(row)} features, "
                                 f"n_features_in_ is {width}")
