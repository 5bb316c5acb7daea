"""Shared plumbing of every chapter: estimator base classes, validation, the representation
rule, the random stream, linear algebra, and the public-name table (docs/design.md section 1).
"""
