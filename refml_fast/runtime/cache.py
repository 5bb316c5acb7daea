"""The compiled kernels kept on disk between processes, and dropped whole when a source
changed.

``cache=True`` (``refml_fast.runtime.options.kernel``) keeps each kernel in the
__pycache__ folder beside its module, or under NUMBA_CACHE_DIR.  Numba checks a cached
kernel against its own file only, so this module drops every cached kernel of refml_fast
when any source of refml or refml_fast changed (``drop_stale_kernels``, run on import).
``REFML_NUMBA_CACHE=0`` turns the cache off.
"""

import hashlib
import os

CACHE = os.environ.get("REFML_NUMBA_CACHE", "1") != "0"
SOURCES_MARK = "refml_sources.sha256"
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # refml_fast/


def cold_cache():
    """True when the kernels will be compiled rather than loaded: the cache is off, or holds
    no kernel of this package yet (Numba keeps its index files, *.nbi, in __pycache__ next
    to the sources, or under NUMBA_CACHE_DIR)."""
    if not CACHE:
        return True
    for place in cache_places():
        for _, _, files in os.walk(place):
            if any(name.endswith(".nbi") for name in files):
                return False
    return True


def cache_places():
    """Where Numba keeps this package's compiled kernels: the package's folders (each
    chapter's __pycache__ beside its sources), NUMBA_CACHE_DIR when it is set, and Numba's
    user-wide folders for refml_fast's sources (``user_wide_places``)."""
    places = [PACKAGE]
    if os.environ.get("NUMBA_CACHE_DIR"):
        places.append(os.environ["NUMBA_CACHE_DIR"])
    return places + user_wide_places()


def user_wide_places():
    """Numba's user-wide cache folder of each refml_fast source folder that has one: where
    Numba keeps the kernels when the package's folders are read-only (an installation owned
    by another user, an image).  Each holds the kernels of that one source folder only."""
    from numba.core.caching import UserWideCacheLocator
    from numba.misc.appdirs import AppDirs

    root = AppDirs(appname="numba", appauthor=False).user_cache_dir
    places = []
    for folder, _, names in os.walk(PACKAGE):
        if "__pycache__" not in folder and any(name.endswith(".py") for name in names):
            name = UserWideCacheLocator.get_suitable_cache_subpath(os.path.join(folder, "m.py"))
            if os.path.isdir(os.path.join(root, name)):
                places.append(os.path.join(root, name))
    return places


def sources_digest(folders=None):
    """SHA-256 of the sources (*.py, every sub-package included) of refml_fast and refml
    (kernels bake refml's constants in), or of ``folders``."""
    digest = hashlib.sha256()
    for folder in folders or (PACKAGE, os.path.join(os.path.dirname(PACKAGE), "refml")):
        for root, _, names in sorted(os.walk(folder)) if os.path.isdir(folder) else []:
            for name in sorted(names):
                if name.endswith(".py"):
                    relative = os.path.relpath(os.path.join(root, name), folder)
                    digest.update(relative.encode())
                    with open(os.path.join(root, name), "rb") as source:
                        digest.update(source.read())
    return digest.hexdigest()


def drop_stale_kernels(places=None, digest=None):
    """Delete the cached kernels of this package when any source changed since they were
    compiled.  Numba checks a cached function against its own file only, so a kernel that
    calls a kernel of another module (they all do) would keep the callee's old code after
    that module changed: a tree grown with an old impurity, silently.  A mark file in each
    cache place records the sources' digest; a different digest removes the *.nbi/*.nbc
    files of refml_fast there (under NUMBA_CACHE_DIR only those in refml_fast's folders;
    a user-wide folder holds only refml_fast's).  Failures are ignored (a read-only
    package folder: Numba keeps the kernels in its user-wide folders, checked here too)."""
    if not CACHE:
        return
    digest = digest or sources_digest()
    user_wide = set(user_wide_places())          # each holds refml_fast's kernels only
    for place in places or cache_places():
        mark = os.path.join(place, "__pycache__" if place == PACKAGE else "", SOURCES_MARK)
        try:
            with open(mark) as stored:
                if stored.read() == digest:
                    continue
        except OSError:
            pass
        try:
            owned = place in user_wide
            for folder, _, files in os.walk(place):
                if not owned and "refml_fast" not in os.path.abspath(folder):
                    continue
                for name in files:
                    if name.endswith((".nbi", ".nbc")):
                        os.remove(os.path.join(folder, name))
            os.makedirs(os.path.dirname(mark), exist_ok=True)
            with open(mark, "w") as stored:
                stored.write(digest)
        except OSError:
            pass


_ANNOUNCED = set()
QUIET = [False]                  # ``python -m refml_fast compile`` prints its own progress


def announce_compilation(cls):
    """Say once per chapter and process, on stderr, that a first call is about to compile
    the chapter's kernels (when none of them is in the cache): a compile of several seconds
    is never silent."""
    chapter = chapter_of(cls)
    if chapter in _ANNOUNCED or QUIET[0]:
        return
    _ANNOUNCED.add(chapter)
    if CACHE and chapter_cached(chapter):
        return
    import sys

    print(f"refml_fast: {cls.__name__}'s first call compiles the {chapter} kernels for this "
          "machine (seconds, once: later processes load them from the cache"
          f"{'' if CACHE else ', which REFML_NUMBA_CACHE=0 turned off'}).  "
          "`python -m refml_fast compile` compiles every estimator ahead.", file=sys.stderr)


def chapter_of(cls):
    """refml_fast.svm.svc.SVC -> "svm"."""
    parts = cls.__module__.split(".")
    return parts[1] if len(parts) > 1 else ""


def chapter_cached(chapter):
    """True when the cache Numba reads holds a kernel of refml_fast's ``chapter``
    (refml_fast/svm, ...): under NUMBA_CACHE_DIR when it is set, in the folder Numba names for
    the chapter there (``<folder name>_<SHA-1 of the folder's path>``); otherwise in the
    chapter's __pycache__ or, the package being read-only, that folder of Numba's user-wide
    cache."""
    if not CACHE:
        return False
    from numba.core.caching import UserWideCacheLocator
    from numba.misc.appdirs import AppDirs

    source = os.path.join(PACKAGE, chapter)
    named = UserWideCacheLocator.get_suitable_cache_subpath(os.path.join(source, "m.py"))
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders = [os.path.join(os.environ["NUMBA_CACHE_DIR"], named)]
    else:
        folders = [os.path.join(source, "__pycache__"),
                   os.path.join(AppDirs(appname="numba", appauthor=False).user_cache_dir, named)]
    return any(os.path.isdir(folder) and any(name.endswith(".nbi")
                                             for name in os.listdir(folder))
               for folder in folders)


def command_line_backend():
    """(refml_fast, notice) for ``python -m refml ... --fast``, found through the entry point
    ``refml.backends`` so that refml never imports refml_fast; the notice (or None) tells
    that the kernels are about to be compiled."""
    import refml_fast

    notice = None
    if cold_cache():
        notice = ("refml_fast: compiling its Numba kernels (first run only, up to a minute; "
                  "later runs load them from the cache)...")
    return refml_fast, notice


drop_stale_kernels()
