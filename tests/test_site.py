"""The built documentation site, read as a reader would: headless Chromium over every page.

Run by .ci/run after ``python docs/_site/build.py`` (``pytest -m site``; the ``docs`` extra
and Debian's chromium).  The site is served on localhost, and every request that leaves
localhost is refused and counted: the site must need none.  Screenshots of two pages are
saved in build/site-test/ for a person to look at.
"""

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from urllib.parse import urldefrag, urljoin

import pytest

pytestmark = pytest.mark.site

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = os.environ.get("REFML_SITE", os.path.join(REPO, "build", "site"))
SHOTS = os.path.join(REPO, "build", "site-test")
CHROMIUM = os.environ.get("REFML_CHROMIUM", "/usr/bin/chromium")
CHAPTERS = ["bayes", "linear", "discriminant", "perceptron", "neighbors", "svm", "density",
            "tree", "ensemble"]
PAGES = (["index.html", "theorems.html", "design.html", "style.html", "lectures.html",
          "benchmarks.html", "performance.html", "scale.html"]
         + [f"chapters/{name}.html" for name in CHAPTERS])
# The chapter whose run panel is executed, and its section of python -m refml tour.
RUN_CHAPTER, RUN_SECTION = "perceptron", 2


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def base_url():
    if not os.path.exists(os.path.join(SITE, "index.html")):
        pytest.fail(f"no site in {SITE}: build it first with python docs/_site/build.py")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=SITE))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


class Reader:
    """A page of the browser that records console errors and refuses the network."""

    def __init__(self, browser, base_url):
        self.base = base_url
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.errors, self.outside, self.failed = [], [], []
        self.page.on("console", lambda message: message.type == "error"
                     and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("requestfailed", lambda request: request.url.startswith(self.base)
                     and self.failed.append(request.url))
        self.page.on("response", lambda response: response.status >= 400
                     and self.failed.append(f"{response.status} {response.url}"))
        self.page.route("**/*", self.only_local)

    def only_local(self, route):
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def open(self, path):
        self.page.goto(self.base + path, wait_until="load")
        # MathJax (deferred) typesets after the load event; its startup promise settles
        # when every formula of the page is done.
        self.page.wait_for_function("!document.querySelector('.math') || (window.MathJax"
                                    " && MathJax.startup && MathJax.startup.promise)")
        self.page.evaluate("async () => { if (window.MathJax && MathJax.startup)"
                           " await MathJax.startup.promise; await document.fonts.ready; }")
        self.page.wait_for_load_state("networkidle")
        return self.page


@pytest.fixture
def reader(browser, base_url):
    reader = Reader(browser, base_url)
    yield reader
    reader.page.close()


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_clean_and_renders_every_figure_and_formula(reader, path):
    page = reader.open(path)
    formulas = page.locator(".math").count()
    rendered = page.locator(".math mjx-container").count()
    math_errors = page.locator("mjx-merror").count()
    images = page.evaluate("Array.from(document.images).map(i => [i.src, i.naturalWidth])")
    assert reader.errors == [], f"console errors on {path}: {reader.errors}"
    assert reader.failed == [], f"requests that failed on {path}: {reader.failed}"
    assert reader.outside == [], f"{path} asked the network for {reader.outside}"
    assert rendered == formulas and math_errors == 0, (path, formulas, rendered, math_errors)
    broken = [src for src, width in images if width == 0]
    assert broken == [], f"images that did not render on {path}: {broken}"
    if path.startswith("chapters/"):
        assert formulas >= 3, f"{path} shows {formulas} formulas: the chapter's lecture"
        assert len(images) >= 1, f"{path} shows no figure"
        assert page.locator(".sd-tab-set").count() >= 2, "refml and refml_fast in tabs"
        assert page.locator("table.refml-theorems tbody tr").count() >= 1
        assert page.locator(".refml-run").count() == 1
        assert page.locator("dl.py").count() >= 1, "the chapter's API"


def test_figure_and_formula_counts(reader):
    """The site as a whole: every gallery figure appears, and the chapters' formulas."""
    figures, formulas = set(), 0
    for name in CHAPTERS:
        page = reader.open(f"chapters/{name}.html")
        figures.update(page.evaluate(
            "Array.from(document.querySelectorAll('figure.refml-figure img'))"
            ".filter(i => i.naturalWidth > 0).map(i => i.src.split('/').pop())"))
        formulas += page.locator(".math mjx-container").count()
    from refml import gallery

    expected = {f"{figure.name}.png" for figure in gallery.figures()}
    assert {re.sub(r"\.[0-9a-f]+\.png$", ".png", name) for name in figures} == expected
    assert formulas >= 60


def test_every_internal_link_resolves(reader, base_url):
    pending, seen, anchors = [base_url + "index.html"], set(), {}
    missing = []
    while pending:
        url = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        page = reader.open(url[len(base_url):])
        anchors[url] = set(page.evaluate(
            "Array.from(document.querySelectorAll('[id]')).map(e => e.id)"))
        for href in page.evaluate(
                "Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
            target, fragment = urldefrag(urljoin(url, href))
            if not target.startswith(base_url):
                continue
            if target.endswith(".html") or target.endswith("/"):
                pending.append(target)
            if fragment:
                missing.append((url, target, fragment))
    assert reader.errors == [] and reader.outside == []
    unresolved = [(source, target, fragment) for source, target, fragment in missing
                  if target in anchors and fragment not in anchors[target]]
    unvisited = [target for _, target, _ in missing if target not in anchors]
    assert unresolved == [] and unvisited == [], (unresolved, unvisited)
    assert reader.failed == [], reader.failed
    assert len(seen) >= len(PAGES)


def cpython_tour(section):
    """What CPython prints for the section, without the timing line."""
    printed = subprocess.run([sys.executable, "-m", "refml", "tour", "--section", str(section)],
                             capture_output=True, text=True, check=True, cwd=REPO).stdout
    return without_timing(printed)


def without_timing(text):
    return re.sub(r"^\(\d+\.\d s\)$", "(time)", text.strip(), flags=re.M)


def test_run_panel_prints_what_cpython_prints_and_reruns_an_edit(reader):
    os.makedirs(SHOTS, exist_ok=True)
    page = reader.open(f"chapters/{RUN_CHAPTER}.html")
    panel = page.locator(".refml-run")
    assert panel.get_attribute("data-section") == str(RUN_SECTION)
    panel.locator(".refml-run-button").click()
    page.wait_for_function("document.querySelector('.refml-run').dataset.state !== 'running'",
                           timeout=240_000)
    assert panel.get_attribute("data-state") == "done", panel.locator(
        ".refml-run-output").inner_text()
    printed = panel.locator(".refml-run-output").inner_text()
    assert without_timing(printed) == cpython_tour(RUN_SECTION)
    panel.scroll_into_view_if_needed()
    page.screenshot(path=os.path.join(SHOTS, f"{RUN_CHAPTER}-run-panel.png"))

    # The reader edits the section and runs it again: the edit takes effect.
    code = panel.locator(".refml-run-code")
    code.fill(code.input_value().replace("def run(lib, show):",
                                         "def run(lib, show):\n    show('edited in the page')",
                                         1))
    panel.locator(".refml-run-button").click()
    page.wait_for_function("document.querySelector('.refml-run').dataset.state !== 'running'",
                           timeout=120_000)
    edited = panel.locator(".refml-run-output").inner_text()
    assert "edited in the page" in edited and edited.count("Theorem 2.3") >= 1
    panel.locator(".refml-reset-button").click()
    assert "edited in the page" not in code.input_value()
    assert reader.errors == [] and reader.outside == [] and reader.failed == []


def test_screenshots_of_two_pages(reader):
    os.makedirs(SHOTS, exist_ok=True)
    for path, name in [("index.html", "landing"), ("chapters/svm.html", "svm")]:
        page = reader.open(path)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)
        assert os.path.getsize(os.path.join(SHOTS, f"{name}.png")) > 20_000
