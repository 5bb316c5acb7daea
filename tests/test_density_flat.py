"""One-dimensional density data given flat, and the scalar bandwidth_ (issue 14)."""

import pytest

from tests.helpers import as_list


def test_one_dimensional_data_may_come_flat_everywhere(lib):
    """n numbers are the column n x 1: estimators, predictions, CV risks, Silverman, and
    FiniteDistribution points; the answers equal those of the column."""
    x = [0.12, 0.4, 0.35, 0.8, 0.55, 0.61]
    column = [[v] for v in x]
    for make in (lambda: lib.KernelDensity(bandwidth=0.2), lambda: lib.Histogram(bins=3),
                 lambda: lib.KernelDensity(bandwidth="cv")):
        flat, rows = make().fit(x), make().fit(column)
        assert as_list(flat.pdf([0.3, 0.5])) == as_list(rows.pdf([[0.3], [0.5]]))
        assert as_list(flat.score_samples([0.3])) == as_list(rows.score_samples([[0.3]]))
    assert lib.kde_cv_risk(column, 0.2) == lib.kde_cv_risk(x, 0.2)
    assert lib.histogram_cv_risk(column, 4) == lib.histogram_cv_risk(x, 4)
    assert list(lib.silverman_bandwidth(x)) == list(lib.silverman_bandwidth(column))
    points = lib.FiniteDistribution([0, 1], [[0.3, 0.2], [0.1, 0.4]])
    assert as_list(points.points) == [[0.0], [1.0]] and points.bayes_risk() == 0.3
    with pytest.raises(ValueError, match="one variable"):
        lib.kde_cv_risk([[1.0, 2.0], [3.0, 4.0]], 0.2)


def test_kernel_density_has_a_scalar_bandwidth_in_one_dimension(lib):
    model = lib.KernelDensity(bandwidth=0.25).fit([0.0, 1.0, 3.0])
    assert model.bandwidth_ == 0.25 and isinstance(model.bandwidth_, float)
    silverman = lib.KernelDensity(bandwidth="silverman").fit([[0.0], [1.0], [2.0], [4.0]])
    assert silverman.bandwidth_ == lib.silverman_bandwidth([0.0, 1.0, 2.0, 4.0])[0]
    assert lib.KernelDensity().fit([[0.0, 1.0], [1.0, 0.0]]).bandwidth_ is None


@pytest.mark.parametrize("kernel", ["gaussian", "epanechnikov"])
def test_kernel_density_is_the_printed_one_dimensional_sum(lib, kernel):
    """KernelDensity's pdf (Cholesky factor, constant outside the sum) equals [Yan]'s
    1/(n h) sum_i K((x - X_i)/h), written out here with the printed kernels."""
    import math

    def K(u):
        if kernel == "gaussian":
            return math.exp(-u * u / 2) / math.sqrt(2 * math.pi)
        return 3 / (4 * math.sqrt(5)) * (1 - u * u / 5) if abs(u) < math.sqrt(5) else 0.0

    sample = [0.12, 0.4, 0.35, 0.8, 0.55, 0.61, 0.58]
    points = [-0.2, 0.0, 0.3, 0.5, 0.57, 1.1]
    h, n = 0.15, len(sample)
    model = lib.KernelDensity(kernel=kernel, bandwidth=h).fit(sample)
    for x, value in zip(points, as_list(model.pdf(points))):
        expected = sum(K((x - X_i) / h) for X_i in sample) / (n * h)
        assert math.isclose(value, expected, rel_tol=1e-12, abs_tol=1e-300)
    assert any(value > 0.5 for value in as_list(model.pdf(points)))
