"""Comparing two fastpr.Evaluation results field by field, to a relative tolerance."""
import math

TOL = 1e-12


def assert_evaluations_close(actual, expected, tol=TOL):
    """Every field equal to ``tol`` relative (1e-14 absolute); counts exact; NaN where NaN."""
    a, b = actual.to_dict(), expected.to_dict()
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        if isinstance(y, int):
            assert x == y, (key, x, y)
        elif math.isnan(y):
            assert math.isnan(x), (key, x, y)
        else:
            assert math.isclose(x, y, rel_tol=tol, abs_tol=1e-14), (key, x, y)
