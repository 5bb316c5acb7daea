"""A mutation run: do refml's tests and theorem checks catch small faults in its lectures?

    python -m conformance.mutants [--sample 80] [--seed 0] [--jobs 2] [--timeout 240]

Draws ``--sample`` mutants, each one small fault in one function of a chapter of refml
(never in core's plumbing, in ``__init__``, ``__repr__``, the parameter checks, what an
estimator declares to scikit-learn's test harness, or an error message):

- a comparison flipped at its boundary (< and <=, > and >=) or negated (== and !=);
- an arithmetic operator swapped (+ and -, * and /);
- a numeric constant changed (an integer n to n + 1, a float c to 2c, 0.0 to 1.0);
- an off-by-one loop (``range(n)`` to ``range(n - 1)``, ``range(a, b)`` to
  ``range(a + 1, b)``).

For each mutant, a copy of refml, its tests and the conformance suite gets the mutated
module (rewritten from its syntax tree), then the chapter's tests run (``pytest -x``, the
gallery and Dask steps aside; refml_fast is the installed one, so the parity tests compare
the mutated refml with it) and, if they all pass, the chapter's theorem checks at their
quick counts, parity (item 18) and the metamorphic relations (item 20) included.  A mutant is
*caught* when either fails or runs past ``--timeout`` seconds (a fault that makes a loop
endless).  The report gives the share caught and every survivor with its line and fault,
for a reader to judge: a survivor may be equivalent (a flipped comparison whose operands
are never equal changes nothing), or a gap to close with a check.
"""

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from conformance.equivalent_mutants import EQUIVALENT

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# chapter -> (its refml test files, the theorem items that check it)
CHAPTERS = {
    "bayes": (["test_bayes.py", "test_distributions.py", "test_losses.py"], "1,2,3,14,20"),
    "linear": (["test_logistic.py", "test_logistic_solvers.py", "test_logistic_blocks.py",
                "test_sgd.py", "test_least_squares.py", "test_separability.py",
                "test_partial_fit.py"],
               "7,8,9,11,20"),
    "discriminant": (["test_discriminant.py", "test_partial_fit.py"], "6,19,20"),
    "perceptron": (["test_perceptron.py", "test_partial_fit.py"], "4,11,20"),
    "neighbors": (["test_neighbors.py", "test_partitions.py"], "5,20"),
    "svm": (["test_svm.py", "test_svm_multiclass.py", "test_smo_newton.py",
             "test_smo_shrinking.py"], "10,11,20"),
    "density": (["test_density.py", "test_density_flat.py", "test_naive_bayes.py"],
                "12,13,19,20"),
    "tree": (["test_tree.py", "test_tree_growth.py", "test_tree_options.py"], "17,20"),
    "ensemble": (["test_ensemble.py"], "15,16,20"),
}
# Checks across chapters that every chapter's run includes (the gaps a mutation run found).
EVERY_CHAPTER = ["test_mutation_gaps.py"]
SKIPPED_FUNCTIONS = ("__init__", "__repr__", "_check_params", "__sklearn_tags__",
                     "_expected_failed_checks")
FLIPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
         ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
SELECTION = "not plot and not dask"


# ----------------------------------------------------------------------------------------
# The mutants: (module path, site number, description) and the mutated source.

def sites(tree):
    """Every (node, kind) that may be mutated, in a fixed order: inside functions, outside
    raise statements and f-strings."""
    found = []

    def visit(node, inside, protected):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside = node.name not in SKIPPED_FUNCTIONS
        protected = protected or isinstance(node, (ast.Raise, ast.JoinedStr, ast.Assert))
        if inside and not protected:
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
                    type(node.ops[0]) in FLIPS:
                found.append((node, "compare"))
            elif isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
                found.append((node, "binop"))
            elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
                found.append((node, "constant"))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "range" and 1 <= len(node.args) <= 2:
                found.append((node, "range"))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Expr) and isinstance(getattr(child, "value", None),
                                                          ast.Constant):
                continue                                   # docstrings
            visit(child, inside, protected)

    visit(tree, False, False)
    return found


def mutate(node, kind):
    """Apply the fault in place; return its description."""
    if kind == "compare":
        old = type(node.ops[0])
        node.ops[0] = FLIPS[old]()
        return f"{old.__name__} -> {FLIPS[old].__name__}"
    if kind == "binop":
        old = type(node.op)
        node.op = SWAPS[old]()
        return f"{old.__name__} -> {SWAPS[old].__name__}"
    if kind == "constant":
        old = node.value
        node.value = (old + 1) if isinstance(old, int) else (2.0 * old if old else 1.0)
        return f"constant {old!r} -> {node.value!r}"
    if len(node.args) == 1:
        node.args[0] = ast.BinOp(node.args[0], ast.Sub(), ast.Constant(1))
        return "range(n) -> range(n - 1)"
    node.args[0] = ast.BinOp(node.args[0], ast.Add(), ast.Constant(1))
    return "range(a, b) -> range(a + 1, b)"


def chapter_modules():
    modules = []
    for chapter in CHAPTERS:
        folder = os.path.join(ROOT, "refml", chapter)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py") and name != "__init__.py":
                modules.append((chapter, os.path.relpath(os.path.join(folder, name), ROOT)))
    return modules


def site_count(path):
    """How many mutants the module at ``path`` (relative to the repository) can give."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return len(sites(ast.parse(file.read())))


def draw(sample, seed):
    """``sample`` mutants, drawn uniformly over all sites of all chapter modules."""
    everything = []
    for chapter, path in chapter_modules():
        everything += [(chapter, path, index) for index in range(site_count(path))]
    chosen = random.Random(seed).sample(everything, min(sample, len(everything)))
    return sorted(chosen), len(everything)


def mutated_source(path, index):
    """(the mutated module's source, the fault's line, its description)."""
    source, line, description, _ = mutant_of(path, index)
    return source, line, description


def mutant_of(path, index):
    """``mutated_source`` and the mutant's identity: (path, function, fault, the mutated
    expression as Python writes it), which does not depend on line numbers, for the table
    of judged equivalent mutants (``conformance.equivalent_mutants``)."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        tree = ast.parse(file.read())
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    node, kind = sites(tree)[index]
    line = node.lineno
    description = mutate(node, kind)
    expression = node
    while not isinstance(parent[expression], ast.stmt):
        expression = parent[expression]
    function = parent[expression]
    while not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        function = parent[function]
    identity = (path, function.name, description, ast.unparse(expression))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n", line, description, identity


# ----------------------------------------------------------------------------------------
# Running them.

def copy_repository(target):
    for part in ("refml", "tests", "conformance"):
        shutil.copytree(os.path.join(ROOT, part), os.path.join(target, part),
                        ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("conftest.py", "setup.cfg", "pyproject.toml"):
        shutil.copy(os.path.join(ROOT, name), target)


def commands_of(chapter):
    tests, items = CHAPTERS[chapter]
    return [[sys.executable, "-m", "pytest", "-q", "-x", "-m", SELECTION,
             "-p", "no:cacheprovider"] + [os.path.join("tests", t)
                                           for t in tests + EVERY_CHAPTER],
            [sys.executable, "-m", "conformance", "--quick", "--only", items + ",18"]]


def environment_of(work):
    """The copy's refml, tests and conformance first, then this checkout's refml_fast (an
    editable install's finder would otherwise give the installed checkout's, which need
    not be this one)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([work, ROOT]),
                PYTHONDONTWRITEBYTECODE="1")


def baseline_passes(chapter, work):
    """The chapter's checks pass on the unmutated copy (else nothing could be learned); a
    failing command's last lines are printed, to say what failed."""
    for command in commands_of(chapter):
        done = subprocess.run(command, cwd=work, env=environment_of(work),
                              capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
            print(f"{chapter}: {' '.join(command[1:5])} ... exited {done.returncode}:",
                  *tail, sep="\n  ", flush=True)
            return False
    return True


def run_one(mutant, work, timeout):
    chapter, path, index = mutant
    source, line, description, identity = mutant_of(path, index)
    if identity in EQUIVALENT:
        return {"path": path, "line": line, "fault": description, "seconds": 0.0,
                "verdict": "equivalent", "why": EQUIVALENT[identity]}
    target = os.path.join(work, path)
    with open(target, encoding="utf-8") as file:
        original = file.read()
    with open(target, "w", encoding="utf-8") as file:
        file.write(source)
    environment = environment_of(work)
    commands = commands_of(chapter)
    verdict = "survived"
    start = time.perf_counter()
    try:
        for label, command in zip(("tests", "theorems"), commands):
            left = timeout - (time.perf_counter() - start)
            try:
                done = subprocess.run(command, cwd=work, env=environment, timeout=max(left, 1),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                verdict = "caught (timeout)"
                break
            if done.returncode != 0:
                verdict = f"caught ({label})"
                break
    finally:
        with open(target, "w", encoding="utf-8") as file:
            file.write(original)
    return {"path": path, "line": line, "fault": description, "verdict": verdict,
            "seconds": time.perf_counter() - start}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance.mutants",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=80)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=240.0)
    args = parser.parse_args(argv)
    mutants, total = draw(args.sample, args.seed)
    print(f"{len(mutants)} mutants drawn (seed {args.seed}) from {total} sites in "
          f"{len(chapter_modules())} modules of refml's chapters", flush=True)
    works = [tempfile.mkdtemp(prefix="refml-mutants-") for _ in range(args.jobs)]
    try:
        for work in works:
            copy_repository(work)
        failing = [chapter for chapter in CHAPTERS if not baseline_passes(chapter, works[0])]
        if failing:
            print(f"the checks fail without any mutant for {', '.join(failing)}: fix that "
                  "first")
            return 1
        queues = [mutants[j::args.jobs] for j in range(args.jobs)]

        def worker(j):
            results = []
            for mutant in queues[j]:
                result = run_one(mutant, works[j], args.timeout)
                print(f"  {result['verdict']:18} {result['path']}:{result['line']} "
                      f"{result['fault']} ({result['seconds']:.0f} s)", flush=True)
                results.append(result)
            return results

        with ThreadPoolExecutor(args.jobs) as pool:
            results = [r for part in pool.map(worker, range(args.jobs)) for r in part]
    finally:
        for work in works:
            shutil.rmtree(work, ignore_errors=True)
    equivalent = [r for r in results if r["verdict"] == "equivalent"]
    caught = sum(1 for r in results if r["verdict"].startswith("caught"))
    print(f"\n{caught} of {len(results)} mutants caught ({100.0 * caught / len(results):.1f}%)")
    if equivalent:
        judged = len(results) - len(equivalent)
        print(f"{caught} of the {judged} not judged equivalent "
              f"({100.0 * caught / max(judged, 1):.1f}%); {len(equivalent)} judged equivalent "
              "(conformance/equivalent_mutants.py), not run:")
        for r in equivalent:
            print(f"  {r['path']}:{r['line']} {r['fault']}: {r['why']}")
    for r in sorted(results, key=lambda r: (r["path"], r["line"])):
        if r["verdict"] == "survived":
            print(f"survived: {r['path']}:{r['line']} {r['fault']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
