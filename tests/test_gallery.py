"""The gallery and the command lines: every figure renders and is not blank, the index
captions every figure, missing matplotlib is a clear exit 2, and the tour's and the
conformance table's command lines guide instead of silently doing nothing."""

import subprocess
import sys

import pytest

from refml.__main__ import main as refml_main

MIN_FIGURES = 12


def run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True)


@pytest.mark.plot
def test_every_figure_renders_non_blank_with_an_index(tmp_path, lib):
    """Drawn with refml, and with refml_fast as ``gallery --fast`` draws them (numpy arrays
    where refml gives lists: classes_, predictions, probabilities)."""
    import matplotlib.image
    import numpy as np

    from refml import gallery

    paths = gallery.write(str(tmp_path), lib, show=lambda line: None)
    figures = gallery.figures()
    assert len(paths) == len(figures) >= MIN_FIGURES
    index = (tmp_path / "index.md").read_text()
    for figure, path in zip(figures, paths):
        pixels = matplotlib.image.imread(path)[..., :3]
        assert pixels.shape[0] >= 400 and pixels.shape[1] >= 600, figure.name
        # A blank (or one-colour) image has no variance; a drawn figure has plenty.
        assert float(np.var(pixels)) > 0.005, figure.name
        assert f"({figure.name}.png)" in index and figure.caption in index
        assert "[" in figure.caption and "refml." in figure.caption  # lecture key, module


def test_the_gallery_without_matplotlib_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from refml.__main__ import main\n"
            f"sys.exit(main(['gallery', {str(tmp_path)!r}]))")
    done = run("-c", code)
    assert done.returncode == 2
    assert "pip install" in done.stderr and "plot" in done.stderr
    assert not list(tmp_path.iterdir())


def test_the_gallery_lists_its_figures_and_refuses_unknown_ones(capsys):
    assert refml_main(["gallery", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) >= MIN_FIGURES and listed[0].startswith("pass_fail_bayes")
    with pytest.raises(SystemExit) as exit_:
        refml_main(["gallery", "--only", "no_such_figure"])
    assert exit_.value.code == 2
    assert "no_such_figure" in capsys.readouterr().err


def test_tour_lists_sections_and_runs_them_by_number_or_name(capsys):
    assert refml_main(["tour", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in listed[:2]] == [["1", "pass_fail"],
                                                         ["2", "perceptron"]]
    assert refml_main(["tour", "--section", "5"]) == 0
    by_number = capsys.readouterr().out
    assert "1 section(s)" in by_number and "5. Maximum margin" in by_number
    assert refml_main(["tour", "--section", "max_margin"]) == 0
    by_name = capsys.readouterr().out
    assert by_name.splitlines()[:3] == by_number.splitlines()[:3]


@pytest.mark.parametrize("section", ["8", "0", "kde"])
def test_tour_refuses_an_unknown_section(capsys, section):
    with pytest.raises(SystemExit) as exit_:
        refml_main(["tour", "--section", section])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert f"unknown section {section!r}" in error and "--list" in error


@pytest.mark.parametrize("only", ["99", "1,99", "x"])
def test_conformance_refuses_unknown_theorems(only):
    done = run("-m", "conformance", "--only", only, "--no-fast")
    assert done.returncode == 2
    assert "no theorem numbered" in done.stderr or "comma-separated" in done.stderr


def test_conformance_help_is_plain_text_with_the_theorem_list():
    done = run("-m", "conformance", "--help")
    assert done.returncode == 0 and "``" not in done.stdout
    assert "--seed SEED  seed of every theorem's instance generator" in done.stdout
    assert " 1  Bayes optimality" in done.stdout and "18  " in done.stdout


def test_conformance_table_fits_in_100_columns_and_explains_the_slack():
    done = run("-m", "conformance", "--only", "1,3,11", "--quick", "--no-fast")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert any(line.startswith("worst slack:") for line in lines)
    rows = lines[2:lines.index("")]
    numbers = {line[:2].strip() for line in rows if line[:2].strip()}
    assert numbers == {"1", "3", "11"}


@pytest.mark.fast
def test_fast_says_it_compiles_when_the_cache_is_cold():
    import os

    code = "from refml.__main__ import _library; _library(True)"
    cold = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, REFML_NUMBA_CACHE="0"))
    assert cold.returncode == 0 and "compiling its Numba kernels" in cold.stdout


def test_the_command_lines_tell_their_version():
    import refml

    for module in ("refml", "conformance"):
        done = run("-m", module, "--version")
        assert done.returncode == 0 and done.stdout.strip().endswith(refml.__version__), module


def test_refml_alone_prints_its_help():
    done = run("-m", "refml")
    assert done.returncode == 0
    assert "usage: python -m refml" in done.stdout and "tour" in done.stdout
    assert "gallery" in done.stdout and done.stderr == ""


def test_the_gallery_needs_a_directory(tmp_path):
    done = subprocess.run([sys.executable, "-m", "refml", "gallery"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 2 and "gallery DIR" in done.stderr
    assert not list(tmp_path.iterdir())          # nothing written into the current folder


def test_a_closed_pipe_ends_the_tour_quietly():
    """``python -m refml tour | head -3``: the reader goes away; no traceback follows."""
    tour = subprocess.Popen([sys.executable, "-m", "refml", "tour"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    tour.stdout.readline()
    tour.stdout.close()                               # as head does after its lines
    _, error = tour.communicate(timeout=600)
    assert b"Traceback" not in error and b"BrokenPipe" not in error, error
    assert tour.returncode == 1


@pytest.mark.fast
def test_the_benchmark_runner_lists_its_workloads_and_refuses_unknown_ones():
    listed = run("-m", "benchmarks.run", "--list")
    assert listed.returncode == 0
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert {"knn", "svm", "logreg", "tree"} <= set(names)
    unknown = run("-m", "benchmarks.run", "nosuch")
    assert unknown.returncode == 2 and "nosuch" in unknown.stderr
    assert all(name in unknown.stderr for name in names)
    assert "Traceback" not in unknown.stderr and "---" not in unknown.stdout
