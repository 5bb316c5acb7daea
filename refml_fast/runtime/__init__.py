"""The Numba runtime of refml_fast: compile options, thread scheduling, the kernel cache,
vector lanes, heaps (docs/design.md section 1).
"""
