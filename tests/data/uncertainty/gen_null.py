"""Monte-Carlo null moments of the paper's weighted ρ_w and τ_w under random
rankings, from an independent NumPy implementation of Lombardo et al. (2020),
Eq. 8-9 (f(n) = 1/(n + n0)^2). Output: null.txt, one line per case:

    coefficient scheme n n0 permutations mean mean_se sd

Regenerate with `python3 gen_null.py > null.txt` (seeded)."""

import numpy as np

rng = np.random.default_rng(20201116)


def weights(a, b, n0, scheme):
    fa, fb = 1.0 / (a + n0) ** 2, 1.0 / (b + n0) ** 2
    w = {"additive": fa + fb, "first": fa, "second": fb, "multiplicative": fa * fb}[scheme]
    return w / w.sum()


def rho_w(a, b, w):
    ma, mb = (w * a).sum(), (w * b).sum()
    return (w * (a - ma) * (b - mb)).sum() / np.sqrt(
        (w * (a - ma) ** 2).sum() * (w * (b - mb) ** 2).sum()
    )


def tau_w(a, b, w):
    sa = np.sign(a[None, :] - a[:, None])
    sb = np.sign(b[None, :] - b[:, None])
    ww = w[None, :] * w[:, None]
    return (ww * sa * sb).sum() / (1.0 - (w * w).sum())


cases = [
    ("rho", "additive", 990, 2.0, 4000),
    ("rho", "first", 990, 2.0, 4000),
    ("rho", "multiplicative", 990, 2.0, 4000),
    ("rho", "additive", 50, 2.0, 20000),
    ("tau", "additive", 50, 2.0, 20000),
    ("tau", "additive", 990, 2.0, 400),
]
for coef, scheme, n, n0, m in cases:
    a = np.arange(1, n + 1, dtype=float)
    vals = np.empty(m)
    for k in range(m):
        b = rng.permutation(a)
        w = weights(a, b, n0, scheme)
        vals[k] = rho_w(a, b, w) if coef == "rho" else tau_w(a, b, w)
    print(
        coef,
        scheme,
        n,
        n0,
        m,
        float(vals.mean()),
        float(vals.std(ddof=1) / np.sqrt(m)),
        float(vals.std(ddof=1)),
    )
