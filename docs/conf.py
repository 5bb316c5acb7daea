"""Sphinx configuration of the refml site: ``python docs/_site/build.py`` builds it.

The machinery (the chapter directives, the figures drawn at build time, the theorem table,
the run panel, and the vendored MathJax and Pyodide) is docs/_site/refml_site.py.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))          # refml, refml_fast, conformance
sys.path.insert(0, os.path.join(HERE, "_site"))    # the site extension

import refml  # noqa: E402

project = "refml"
author = "the refml authors"
copyright = "the refml authors, MIT licence"
version = release = refml.__version__

extensions = ["myst_parser", "sphinx_design", "sphinx.ext.autodoc", "sphinx.ext.mathjax",
              "refml_site"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_site", "gallery", "_generated"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

# Nothing at reading time comes from the network: MathJax is copied into _static by
# refml_site (from the npm package in docs/_site/node_modules), and the theme uses the
# reader's own fonts.
mathjax_path = "mathjax/tex-chtml.js"
html_theme = "alabaster"
html_theme_options = {"font_family": "Georgia, 'Times New Roman', serif",
                      "head_font_family": "Georgia, 'Times New Roman', serif",
                      "code_font_family": "'DejaVu Sans Mono', Menlo, Consolas, monospace",
                      "page_width": "1180px", "sidebar_width": "230px",
                      "show_relbars": True}
html_static_path = ["_site/static"]
html_css_files = ["refml.css"]
html_title = f"refml {release}"
html_show_sourcelink = False
html_copy_source = False

autodoc_member_order = "bysource"
autodoc_typehints = "none"
nitpicky = True
