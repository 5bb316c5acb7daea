"""Warnings that point at the caller's line, not at refml's.

A warning raised deep inside ``fit`` would name refml's file as its place with a fixed
``stacklevel``, and the right level depends on the path taken (refml or refml_fast, a
pipeline or a direct call).  ``warn`` counts the frames instead: the warning's place is the
first frame outside refml and refml_fast, the user's line.
"""

import sys
import warnings

PACKAGES = ("refml", "refml_fast")


def warn(message, category=UserWarning):
    """``warnings.warn(message, category)`` at the first frame outside refml's packages."""
    warnings.warn(message, category, stacklevel=caller_stacklevel())


def caller_stacklevel():
    """The ``stacklevel`` that names the first frame outside refml and refml_fast, seen from
    the function that calls ``warnings.warn`` (which itself is level 1)."""
    frame = sys._getframe(2)       # the caller of ``warn``
    level = 2
    while frame is not None and in_packages(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
        level += 1
    return level


def in_packages(module_name):
    return module_name.split(".", 1)[0] in PACKAGES
