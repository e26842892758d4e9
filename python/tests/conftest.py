"""Shared generated data for the tests."""

import numpy as np
import pytest


def cases(seed=0):
    """(name, x, y) pairs: untied, tied, correlated, small and large, float32."""
    rng = np.random.default_rng(seed)
    out = []
    for n in (2, 3, 5, 10, 33, 34, 100, 1000, 5000):
        x = rng.random(n)
        out.append((f"untied-{n}", x, x + rng.normal(0, 0.5, n)))
    for n in (5, 40, 300):
        x = rng.integers(0, 4, n).astype(float)
        y = x + rng.integers(0, 3, n)
        out.append((f"tied-{n}", x, y))
    x = rng.random(200)
    out.append(("anti", x, -x + rng.normal(0, 0.1, 200)))
    out.append(("float32", x.astype(np.float32), (x + rng.random(200)).astype(np.float32)))
    return out


def close(a, b, tol=1e-12):
    """Relative-or-absolute agreement to ``tol``."""
    return abs(a - b) <= tol * max(1.0, abs(b))


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
