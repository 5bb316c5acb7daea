"""The layout of docs/design.md section 1: one package per chapter in both trees, an import
graph that is a tree of layers, and the 0.1 module paths still answering for old pickles.

The import graph is read from the sources (every ``import`` and ``from ... import``, at
module level or inside a function, and ``importlib.import_module`` with a literal name), so
an import hidden inside a function counts as much as one at the top.
"""

import ast
import pickle
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("refml", "refml_fast", "conformance", "benchmarks", "tests")

# The chapters and what each may import besides ``core`` (docs/design.md section 1).  The
# same table holds for refml_fast's chapters, whose modules may also import refml, and
# refml_fast's ``core`` and ``runtime``.
CHAPTERS = {
    "bayes": {"neighbors"},          # the plug-in rule's default estimate is 1-NN
    "linear": set(),
    "discriminant": set(),
    "perceptron": {"svm"},           # Theorem 2.3's bound at the max-margin separator
    "neighbors": set(),
    "svm": {"linear"},               # the max-margin separator asks the separability LP
    "density": set(),
    "tree": set(),
    "ensemble": {"tree"},            # forests are bagged trees
}
# Which top-level package may import which (nothing upward).
MAY_IMPORT = {
    "refml": {"refml"},
    "refml_fast": {"refml", "refml_fast"},
    "conformance": {"refml", "refml_fast", "conformance"},
    "benchmarks": {"refml", "refml_fast", "benchmarks"},
    "tests": {"refml", "refml_fast", "conformance", "benchmarks", "tests"},
}


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path, module, is_package):
    """Every module name an import statement of ``path`` names."""
    tree = ast.parse(path.read_text(), str(path))
    base = module if is_package else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")[: len(base.split(".")) - (node.level - 1)]
                stem = ".".join(parts + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            names.add(stem)
            names.update(f"{stem}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            names.add(node.args[0].value)
    return names


def import_graph():
    """{module: set of the project's modules it imports}, packages by their __init__."""
    files = {}
    for top in TOP:
        for path in (ROOT / top).rglob("*.py"):
            files[module_name(path)] = path
    graph = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        targets = set()
        for name in imported_names(path, module, is_package):
            while name and name not in files:
                name = name.rpartition(".")[0]
            # a package's own submodules, and a module's own packages, are not arrows
            if (name and name != module and not name.startswith(module + ".")
                    and not module.startswith(name + ".")):
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan, iteratively)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


GRAPH = import_graph()


def test_the_graph_is_read_from_every_package():
    assert len(GRAPH) > 200
    assert "refml.svm.svc" in GRAPH["refml_fast.svm.svc"]          # a known arrow is found


def test_the_import_graph_has_no_cycle():
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_package_imports_upward():
    upward = [(module, target) for module, targets in GRAPH.items() for target in targets
              if target.split(".")[0] not in MAY_IMPORT[module.split(".")[0]]]
    assert upward == []


def chapter_of(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def allowed_chapters(package, chapter):
    """The chapters of ``package`` that modules of ``chapter`` may import; None for the
    applications (the tour, the gallery, the command line), which may import any."""
    if chapter == "runtime":
        return set()
    if chapter == "core":
        return {"runtime"} if package == "refml_fast" else set()
    if chapter not in CHAPTERS:
        return None
    return {"core"} | ({"runtime"} if package == "refml_fast" else set()) | CHAPTERS[chapter]


@pytest.mark.parametrize("package", ["refml", "refml_fast"])
def test_each_chapter_imports_only_core_and_its_lower_chapters(package):
    wrong = []
    for module, targets in GRAPH.items():
        if module.split(".")[0] != package:
            continue
        allowed = allowed_chapters(package, chapter_of(module))
        for target in targets:
            other = chapter_of(target)
            if (allowed is not None and target.split(".")[0] == package
                    and other not in (None, chapter_of(module)) and other not in allowed):
                wrong.append((module, target))
    assert wrong == []


def test_both_trees_have_the_same_chapters():
    for package in ("refml", "refml_fast"):
        found = {path.parent.name for path in (ROOT / package).glob("*/__init__.py")}
        extra = {"refml": {"core", "tour", "gallery"}, "refml_fast": {"core", "runtime"}}
        assert found == set(CHAPTERS) | extra[package], package


@pytest.mark.fast
def test_each_chapter_exports_the_same_names_in_both_trees():
    import importlib

    for chapter in CHAPTERS:
        reference = importlib.import_module(f"refml.{chapter}")
        fast = importlib.import_module(f"refml_fast.{chapter}")
        assert sorted(reference.__all__) == sorted(fast.__all__), chapter
        for name in reference.__all__:
            assert getattr(reference, name) is not None and getattr(fast, name) is not None


OLD_PATHS = [("refml.logistic", "LogisticRegression"), ("refml.bagging", "BaggingClassifier"),
             ("refml.naive_bayes", "GaussianNB"), ("refml.histogram", "Histogram"),
             ("refml.least_squares", "LeastSquaresClassifier"), ("refml.svm", "SVC"),
             ("refml.tree", "DecisionTreeClassifier"), ("refml.neighbors", "KNeighborsClassifier"),
             pytest.param("refml_fast.logistic", "LogisticRegression", marks=pytest.mark.fast),
             pytest.param("refml_fast.svm", "SVC", marks=pytest.mark.fast)]


@pytest.mark.parametrize("old_module, name", OLD_PATHS)
def test_a_pickle_naming_a_module_of_0_1_still_loads(old_module, name):
    """A pickle names a class by module and name; one written by 0.1 names the module of
    0.1.  Protocol 2 writes the module as a line of text, so an old pickle is a new one with
    that line put back.  A module that is gone warns where its code went; a chapter that
    kept its name (refml.svm) exports the class itself."""
    import importlib

    import refml
    from refml.core import moved

    package = importlib.import_module(old_module.split(".")[0])
    cls = getattr(package, name)
    data = pickle.dumps(cls(), protocol=2)
    old = data.replace(cls.__module__.encode() + b"\n" + name.encode(),
                       old_module.encode() + b"\n" + name.encode())
    assert old != data
    gone = old_module in moved.MOVED or old_module in getattr(package, "MOVED", {})
    if gone:
        sys.modules.pop(old_module, None)        # an earlier test may have imported it
        with pytest.warns(DeprecationWarning, match="moved to"):
            loaded = pickle.loads(old)
    else:
        loaded = pickle.loads(old)
    assert type(loaded) is cls
    assert refml.__version__ >= "0.2"


def test_new_pickles_name_the_chapter_modules():
    import refml

    data = pickle.dumps(refml.SVC(), protocol=2)
    assert b"refml.svm.svc\nSVC" in data
