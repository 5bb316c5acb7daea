// The run panel of a chapter page: the chapter's tour section, run by Pyodide in this page.
// Pyodide and refml's wheel come from this site's own _static folder; nothing else is
// fetched.  The edited source replaces the section's module, then refml's own command line
// runs it, so the unedited code prints what `python -m refml tour --section N` prints.
"use strict";

(function () {
  const root = document.documentElement.dataset.content_root || "./";
  let pyodideReady = null;

  function loadScript(url) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = resolve;
      script.onerror = () => reject(new Error("could not load " + url));
      document.head.appendChild(script);
    });
  }

  async function startPyodide(wheel, status) {
    status.textContent = "loading Python (Pyodide, from this site)...";
    await loadScript(root + "_static/pyodide/pyodide.js");
    const pyodide = await loadPyodide({ indexURL: root + "_static/pyodide/" });
    status.textContent = "installing refml's wheel...";
    const response = await fetch(root + "_static/wheels/" + wheel);
    if (!response.ok) {
      throw new Error("the wheel " + wheel + " is missing (" + response.status + ")");
    }
    pyodide.unpackArchive(await response.arrayBuffer(), "wheel");
    return pyodide;
  }

  const RUNNER = `
import contextlib, io, sys, types
import refml.tour
from refml.__main__ import main

def run_section(name, number, source):
    module = types.ModuleType(f"refml.tour.{name}")
    module.__file__ = f"refml/tour/{name}.py"
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    sys.modules[module.__name__] = module
    setattr(refml.tour, name, module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(["tour", "--section", str(number)])
        except SystemExit as stop:
            if stop.code not in (None, 0):
                print(f"exit status {stop.code}")
        except Exception:
            import traceback
            traceback.print_exc()
    return out.getvalue()
`;

  function setUp(panel) {
    const code = panel.querySelector(".refml-run-code");
    const output = panel.querySelector(".refml-run-output");
    const status = panel.querySelector(".refml-run-status");
    const button = panel.querySelector(".refml-run-button");
    const original = code.value;
    panel.querySelector(".refml-reset-button").addEventListener("click", () => {
      code.value = original;
    });
    button.addEventListener("click", async () => {
      button.disabled = true;
      output.textContent = "";
      panel.dataset.state = "running";
      try {
        if (pyodideReady === null) {
          pyodideReady = startPyodide(panel.dataset.wheel, status).then(async (pyodide) => {
            await pyodide.runPythonAsync(RUNNER);
            return pyodide;
          });
        }
        const pyodide = await pyodideReady;
        status.textContent = "running...";
        await new Promise((resolve) => setTimeout(resolve, 20));   // let the status paint
        const started = performance.now();
        const runSection = pyodide.globals.get("run_section");
        output.textContent = runSection(panel.dataset.module, Number(panel.dataset.section),
                                        code.value);
        runSection.destroy();
        status.textContent = "done in " + ((performance.now() - started) / 1000).toFixed(1) +
          " s";
        panel.dataset.state = "done";
      } catch (error) {
        pyodideReady = null;
        status.textContent = "failed";
        output.textContent = String(error);
        panel.dataset.state = "failed";
      } finally {
        button.disabled = false;
      }
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".refml-run").forEach(setUp);
  });
})();
