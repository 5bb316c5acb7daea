"""Build the refml site: ``python docs/_site/build.py [OUTPUT]`` (default build/site).

Installs the site's two npm packages (Pyodide and MathJax, pinned in package-lock.json) when
they are missing, then runs Sphinx strictly: warnings are errors, and so is a broken
cross-reference (nitpicky).  The build draws the gallery, runs ``python -m conformance
--quick`` and builds refml's wheel (docs/_site/refml_site.py).  Needs the ``docs`` extra.
"""

import os
import shutil
import subprocess
import sys
import time

SITE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(SITE)
REPO = os.path.dirname(DOCS)


def npm_packages():
    """npm ci in docs/_site unless node_modules matches package-lock.json already."""
    lock = os.path.join(SITE, "package-lock.json")
    stamp = os.path.join(SITE, "node_modules", ".package-lock.json")
    if os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(lock):
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("the site serves Pyodide and MathJax from the npm registry's packages: "
                 "install Node.js and npm (Debian: apt-get install npm)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=SITE,
                   check=True)


def main(argv):
    output = os.path.abspath(argv[0]) if argv else os.path.join(REPO, "build", "site")
    start = time.perf_counter()
    npm_packages()
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
               DOCS, output]
    status = subprocess.run(command, cwd=REPO).returncode
    if status == 0:
        print(f"the site is in {output} ({time.perf_counter() - start:.0f} s): open "
              f"{os.path.join(output, 'index.html')}, or serve it with python -m http.server "
              f"-d {output} to run the chapters in the browser")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
