"""conformance: proof that refml and refml_fast agree, and that the lectures' theorems hold.

Each module ``tNN_*.py`` defines ``THEOREMS``, a list of ``Theorem`` (see ``_harness``).
``python -m conformance`` runs them all and prints the table of docs/design.md section 7; pytest
runs the same checks with fewer instances (``conformance/test_conformance.py``).
"""

import os

# Parity is between refml's code and refml_fast's kernels: refml_fast must not answer with
# refml's own code while its kernels are cold (refml_fast.runtime.spec_first).
os.environ["REFML_SPEC_FIRST"] = "0"
