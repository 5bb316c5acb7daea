"""The Sphinx extension behind the refml site (docs/conf.py loads it).

A chapter page (docs/chapters/*.md) is assembled from the repository, never copied into it:

- ``refml-code-pair``: a step of the algorithm, refml's function in one tab and refml_fast's
  kernel for the same step in the other, both included from the source;
- ``refml-figure``: a figure of refml's gallery, drawn at build time, with its caption;
- ``refml-theorems``: the chapter's rows of ``python -m conformance --quick``, run at build
  time (in a second process while the pages are read);
- ``refml-run-panel``: the chapter's tour section, editable, run in the reader's browser by
  Pyodide on refml's wheel, both served by the site itself;
- ``refml-api``: autodoc of the chapter's public names (its ``__all__``).

At the end of the build, MathJax and Pyodide are copied from the npm packages in
docs/_site/node_modules into ``_static``, and refml's wheel into ``_static/wheels``: the
built site asks the network for nothing.
"""

import glob
import html
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

LOG = logging.getLogger(__name__)
SITE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(SITE))
MODULES = os.path.join(SITE, "node_modules")
FIGURES = "_generated/figures"          # under the source folder docs/ (git-ignored)

# What the run panel loads of the pyodide package (the rest is documentation and types).
PYODIDE_FILES = ["pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json"]

# The conformance modules that check one chapter, by their number; t18_parity_NAME checks
# the chapter NAME, and the others (t18_parity_online, t19_streaming, t20_metamorphic) go
# to the chapters whose public names their titles mention, or else to every chapter.
MODULE_CHAPTERS = {
    "t01": "bayes", "t02": "bayes", "t03": "bayes", "t04": "perceptron",
    "t05": "neighbors", "t06": "discriminant", "t07": "linear", "t08": "linear",
    "t09": "linear", "t10": "svm", "t11": "linear", "t12": "density", "t13": "density",
    "t14": "ensemble", "t15": "ensemble", "t16": "ensemble", "t17": "tree",
}
CHAPTERS = ["bayes", "linear", "discriminant", "perceptron", "neighbors", "svm", "density",
            "tree", "ensemble"]


# --- build steps that run beside the reading of the pages ------------------------------------

def start_background_work(app):
    """Start the conformance run and the wheel build in other processes, and draw the
    figures here, while Sphinx has not yet read a page."""
    if not os.path.isdir(os.path.join(MODULES, "pyodide")):
        raise ExtensionError("docs/_site/node_modules is missing: build the site with "
                             "python docs/_site/build.py (it runs npm ci first)")
    work = tempfile.mkdtemp(prefix="refml-site-")
    app.refml_work = work
    app.refml_results = os.path.join(work, "conformance.json")
    env = dict(os.environ, PYTHONPATH=REPO)
    app.refml_conformance = subprocess.Popen(
        [sys.executable, "-m", "conformance", "--quick", "--json", app.refml_results],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    app.refml_wheel_dir = os.path.join(work, "wheels")
    app.refml_wheel_build = subprocess.Popen(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
         app.refml_wheel_dir, REPO], cwd=REPO, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    draw_figures(app)


def draw_figures(app):
    """Every gallery figure as a PNG under docs/_generated/figures, drawn by refml_fast when
    it is installed (the same pictures: its predictions are refml's) and by refml if not."""
    from refml import gallery

    try:
        lib = importlib.import_module("refml_fast")
        lib.Perceptron          # the names load lazily: this imports numba and numpy
    except ImportError:
        lib = importlib.import_module("refml")
    app.refml_gallery_lib = lib.__name__
    folder = os.path.join(app.srcdir, FIGURES)
    os.makedirs(folder, exist_ok=True)
    gallery.write(folder, lib, show=lambda line: LOG.info(line))


def finish_conformance(app):
    """The rows of the conformance run, waited for once."""
    if getattr(app, "refml_rows", None) is None:
        _, errors = app.refml_conformance.communicate()
        if not os.path.exists(app.refml_results):
            raise ExtensionError(f"python -m conformance --quick wrote no results:\n{errors}")
        with open(app.refml_results, encoding="utf-8") as handle:
            app.refml_rows = json.load(handle)
        failed = [row for row in app.refml_rows["checks"] if not row["ok"]]
        for row in failed:
            LOG.warning(f"conformance check failed: [{row['number']}] {row['title']}")
    return app.refml_rows


def wheel_path(app):
    """refml's wheel, built beside the pages; waited for once."""
    if getattr(app, "refml_wheel", None) is None:
        _, errors = app.refml_wheel_build.communicate()
        found = glob.glob(os.path.join(app.refml_wheel_dir, "refml-*.whl"))
        if app.refml_wheel_build.returncode != 0 or not found:
            raise ExtensionError(f"pip wheel of refml failed:\n{errors}")
        app.refml_wheel = found[0]
    return app.refml_wheel


def copy_vendored(app, exception):
    """MathJax, Pyodide and the wheel into the built site's _static."""
    if exception is not None or app.builder.format != "html":
        return
    static = os.path.join(app.outdir, "_static")
    mathjax = os.path.join(static, "mathjax")
    shutil.rmtree(mathjax, ignore_errors=True)
    shutil.copytree(os.path.join(MODULES, "mathjax", "es5"), mathjax,
                    ignore=shutil.ignore_patterns("sre", "*-full*.js", "mml-*.js",
                                                  "tex-mml-*.js", "tex-svg*.js"))
    pyodide = os.path.join(static, "pyodide")
    os.makedirs(pyodide, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(os.path.join(MODULES, "pyodide", name), pyodide)
    wheels = os.path.join(static, "wheels")
    shutil.rmtree(wheels, ignore_errors=True)
    os.makedirs(wheels)
    shutil.copy2(wheel_path(app), wheels)
    shutil.rmtree(app.refml_work, ignore_errors=True)


# --- directives -------------------------------------------------------------------------------

class GeneratedRst(SphinxDirective):
    """A directive that writes reStructuredText and parses it in place."""

    def parse_lines(self, lines):
        holder = nodes.container()
        self.state.nested_parse(StringList(lines, source=self.get_source_info()[0]),
                                self.content_offset, holder)
        return holder.children


class CodePair(GeneratedRst):
    """``refml-code-pair`` with options ``refml: path::object`` and ``fast: path::object``:
    the two functions in tabs, included from the source."""

    has_content = False
    option_spec = {"refml": directives.unchanged_required, "fast": directives.unchanged,
                   "refml-label": directives.unchanged, "fast-label": directives.unchanged}

    def tab(self, label, spec):
        path, _, name = spec.partition("::")
        if not os.path.exists(os.path.join(REPO, path)):
            raise self.error(f"{path} is not a file of the repository")
        self.env.note_dependency(os.path.join(REPO, path))
        lines = [f"   .. tab-item:: {label}", "",
                 f"      .. literalinclude:: /../{path}"]
        if name:
            lines.append(f"         :pyobject: {name}")
        lines += ["         :language: python", f"         :caption: {path}", ""]
        return lines

    def run(self):
        lines = [".. tab-set::", ""]
        lines += self.tab(self.options.get("refml-label", "refml"), self.options["refml"])
        if "fast" in self.options:
            lines += self.tab(self.options.get("fast-label", "refml_fast kernel"),
                              self.options["fast"])
        return self.parse_lines(lines)


class GalleryFigure(SphinxDirective):
    """``refml-figure NAME``: the gallery's figure NAME with its title and caption."""

    required_arguments = 1

    def run(self):
        from refml import gallery

        records = {figure.name: figure for figure in gallery.figures()}
        name = self.arguments[0]
        if name not in records:
            raise self.error(f"no gallery figure {name!r}; the figures: {', '.join(records)}")
        record = records[name]
        figure = nodes.figure(classes=["refml-figure"])
        figure += nodes.image(uri=f"/{FIGURES}/{name}.png", alt=record.title,
                              candidates={"*": f"{FIGURES}/{name}.png"})
        caption = nodes.caption()
        caption += nodes.strong(text=f"{record.title}. ")
        caption += nodes.Text(record.caption)
        caption += nodes.Text(f"  Drawn at build time by python -m refml gallery "
                              f"(with {self.env.app.refml_gallery_lib}).")
        figure += caption
        return [figure]


def chapter_of(row, public):
    """The chapters a conformance row belongs to."""
    prefix, suffix = row["module"][:3], row["module"][len("t18_parity_"):]
    if prefix in MODULE_CHAPTERS:
        return {MODULE_CHAPTERS[prefix]}
    if row["module"].startswith("t18_parity_") and suffix in CHAPTERS:
        return {suffix}
    words = set(re.findall(r"\w+", row["title"]))
    mentioned = {chapter for chapter, names in public.items() if words & set(names)}
    return mentioned or set(CHAPTERS)


class TheoremTable(SphinxDirective):
    """``refml-theorems CHAPTER`` (or ``all``): the chapter's rows of the conformance run."""

    required_arguments = 1

    def run(self):
        chapter = self.arguments[0]
        results = finish_conformance(self.env.app)
        public = {name: importlib.import_module(f"refml.{name}").__all__ for name in CHAPTERS}
        rows = [row for row in results["checks"]
                if chapter == "all" or chapter in chapter_of(row, public)]
        if not rows:
            raise self.error(f"no conformance check belongs to the chapter {chapter!r}")
        headers = ["#", "statement checked", "lecture source", "tried", "held", "worst slack"]
        widths = [4, 46, 30, 7, 7, 10]
        table = nodes.table(classes=["refml-theorems"])
        group = nodes.tgroup(cols=len(headers))
        table += group
        for width in widths:
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self.row(headers)
        body = nodes.tbody()
        group += body
        for row in rows:
            held = row["held"] == row["tried"] and row["tried"] > 0
            body += self.row([str(row["number"]), row["title"], row["source"],
                              str(row["tried"]), str(row["held"]),
                              row["worst_slack"]], classes=[] if held else ["failed"])
        held = sum(row["ok"] for row in rows)
        note = nodes.paragraph(text=(
            f"{held} of {len(rows)} checks held on every instance "
            f"({sum(row['tried'] for row in rows)} instances), measured while this site was "
            f"built: python -m conformance --quick (seed {results['seed']}, refml "
            f"{results['version']}, {results['when']}). Worst slack: the smallest distance "
            f"from violating the statement over the instances tried; 0 or more means it "
            f"held."))
        return [table, note]

    @staticmethod
    def row(cells, classes=()):
        row = nodes.row(classes=list(classes))
        for text in cells:
            entry = nodes.entry()
            entry += nodes.paragraph(text=text)
            row += entry
        return row


class RunPanel(SphinxDirective):
    """``refml-run-panel SECTION``: the tour section SECTION in an editable box, run by
    Pyodide in the reader's browser exactly as ``python -m refml tour --section N``."""

    required_arguments = 1

    def run(self):
        from refml import tour

        names = [name for name, _ in tour.available_sections()]
        section = self.arguments[0]
        if section not in names:
            raise self.error(f"no tour section {section!r}; the sections: {', '.join(names)}")
        path = os.path.join(REPO, "refml", "tour", f"{section}.py")
        self.env.note_dependency(path)
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        number = names.index(section) + 1
        wheel = os.path.basename(wheel_path(self.env.app))
        panel = f"""
<div class="refml-run" data-section="{number}" data-module="{section}" data-wheel="{wheel}">
  <p class="refml-run-head">Section {number} of <code>python -m refml tour</code>
  (<code>refml/tour/{section}.py</code>), run here by
  <a href="https://pyodide.org">Pyodide</a> on refml's wheel, both served by this site:
  nothing is sent anywhere. Edit the code and run it again.</p>
  <textarea class="refml-run-code" spellcheck="false" rows="24">{html.escape(source)}</textarea>
  <div class="refml-run-buttons">
    <button type="button" class="refml-run-button">Run in the browser</button>
    <button type="button" class="refml-reset-button">Reset the code</button>
    <span class="refml-run-status"></span>
  </div>
  <pre class="refml-run-output"></pre>
</div>
"""
        return [nodes.raw("", panel, format="html")]


class ChapterApi(GeneratedRst):
    """``refml-api CHAPTER``: autodoc of every name of ``refml.CHAPTER.__all__``."""

    required_arguments = 1

    def run(self):
        chapter = self.arguments[0]
        module = importlib.import_module(f"refml.{chapter}")
        lines = []
        for name in module.__all__:
            if isinstance(getattr(module, name), type):
                lines += [f".. autoclass:: refml.{chapter}.{name}", "   :members:", ""]
            else:
                lines += [f".. autofunction:: refml.{chapter}.{name}", ""]
        return self.parse_lines(lines)


# --- docstrings written as plain text, read as reStructuredText -----------------------------

LITERAL = re.compile(r"(``.+?``)")
TRAILING_UNDERSCORE = re.compile(r"(?<![\\\w])([A-Za-z][A-Za-z0-9_]*_)(?![\w`])")


def escape_text(line):
    """Escape what reStructuredText would misread in a line of plain prose: a name ending in
    an underscore (a reference to it), |x| (a substitution) and a lone * (emphasis); text
    between double backquotes is left alone."""
    pieces = LITERAL.split(line)
    for i in range(0, len(pieces), 2):
        piece = pieces[i].replace("|", "\\|").replace("*", "\\*")
        pieces[i] = TRAILING_UNDERSCORE.sub(lambda m: m.group(1)[:-1] + "\\_", piece)
    return "".join(pieces)


def plain_to_rst(app, what, name, obj, options, lines):
    """refml's docstrings are written to be read as plain text (formulas on indented lines
    right under a sentence, numpydoc-like sections, names ending in underscores): the API
    shows the first paragraph as prose and the rest exactly as the source has it, in a
    preformatted block, rather than guess at markup the author never wrote.  A chapter's
    docstring (a module) is written to render: its formulas are reStructuredText math."""
    if not lines or what == "module":
        return
    end = lines.index("") if "" in lines else len(lines)
    summary = " ".join(escape_text(line.strip()) for line in lines[:end])
    rest = lines[end:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    while rest and not rest[-1].strip():
        rest = rest[:-1]
    lines[:] = [summary, ""] + (["::", ""] + ["    " + line for line in rest] + [""]
                                if rest else [])


def setup(app):
    app.add_directive("refml-code-pair", CodePair)
    app.add_directive("refml-figure", GalleryFigure)
    app.add_directive("refml-theorems", TheoremTable)
    app.add_directive("refml-run-panel", RunPanel)
    app.add_directive("refml-api", ChapterApi)
    app.add_js_file("run_panel.js")
    app.connect("builder-inited", start_background_work)
    app.connect("autodoc-process-docstring", plain_to_rst, priority=600)
    app.connect("build-finished", copy_vendored)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
