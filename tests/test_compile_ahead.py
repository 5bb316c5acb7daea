"""python -m refml_fast compile fills the kernel cache ahead, and a first call that will
compile says so once (refml_fast.runtime.cache.announce_compilation)."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.fast


def run(*args):
    return subprocess.run([sys.executable, "-m", "refml_fast", *args], capture_output=True,
                          text=True, timeout=600)


def test_compile_lists_and_warms_the_estimators_it_is_asked_for():
    listed = run("compile", "--list")
    assert listed.returncode == 0 and "SVC" in listed.stdout.split()
    done = run("compile", "--only", "GaussianNB,LeastSquaresClassifier")
    assert done.returncode == 0, done.stderr
    assert "[ 1/2] GaussianNB ..." in done.stdout and " s\n" in done.stdout
    assert "compiled (or loaded) in" in done.stdout


def test_compile_refuses_an_unknown_name():
    done = run("compile", "--only", "GaussianNB,Nope")
    assert done.returncode == 2 and "Nope" in done.stderr


def test_a_first_call_that_compiles_says_so_once_per_chapter(monkeypatch, capsys):
    import numpy as np

    import refml_fast
    from refml_fast.runtime import cache

    monkeypatch.setattr(cache, "_ANNOUNCED", set())
    monkeypatch.setattr(cache, "chapter_cached", lambda chapter: chapter != "svm")
    X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    refml_fast.SVC().fit(X, y)
    refml_fast.SVC(kernel="rbf").fit(X, y)
    refml_fast.GaussianNB().fit(X, y)
    err = capsys.readouterr().err
    assert err.count("refml_fast: SVC's first call compiles the svm kernels") == 1
    assert "GaussianNB" not in err and "python -m refml_fast compile" in err


def test_the_user_wide_cache_of_a_read_only_install_is_checked_and_dropped_when_stale(
        tmp_path, monkeypatch):
    """Numba caches in its user-wide folder when the package's folders are read-only: that
    folder counts as a cache place, a stale digest empties it, and a kernel there counts
    as cached for its chapter."""
    import os

    from numba.core.caching import UserWideCacheLocator

    from refml_fast.runtime import cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    svm = os.path.join(cache.PACKAGE, "svm", "m.py")
    place = tmp_path / "numba" / UserWideCacheLocator.get_suitable_cache_subpath(svm)
    place.mkdir(parents=True)
    (place / "smo.f-10.py311.nbi").write_bytes(b"index")
    assert str(place) in cache.user_wide_places()
    assert cache.chapter_cached("svm")
    cache.drop_stale_kernels(places=[str(place)], digest="another")
    assert not (place / "smo.f-10.py311.nbi").exists()
    assert (place / cache.SOURCES_MARK).read_text() == "another"
