"""conformance: proof that refml and refml_fast agree, and that the lectures' theorems hold.

Each module ``tNN_*.py`` defines ``THEOREMS``, a list of ``Theorem`` (see ``_harness``).
``python -m conformance`` runs them all and prints the table of docs/design.md section 7; pytest
runs the same checks with fewer instances (``conformance/test_conformance.py``).
"""
