"""Reference null moments of the top-weighted coefficients, to 40 digits.

For two untied rankings of n items, every one of the n! permutations pi of
the second ranking against the identity, the coefficient is evaluated from
its definition (Lombardo et al. 2020, Eq. 8-9) in mpmath at 50 digits:

    rho_w = sum_i w_i (a_i - abar)(b_i - bbar) / sqrt(sum w (a - abar)^2 * sum w (b - bbar)^2)
    tau_w = sum_{i<j} w_i w_j sgn(a_j - a_i) sgn(b_j - b_i) / sum_{i<j} w_i w_j

with w_i from f(a_i), f(b_i) by the scheme (additive f(a)+f(b), multiplicative
f(a)f(b), first f(a)), and the moments

    mean = E[G],  var = E[(G - mean)^2],  left = E[(G - mean)^2 1{G < mean}].

Run:  python tests/data/standardised/exact_mp.py > tests/data/standardised/exact_mp.txt
Produced with Python 3.11 and mpmath 1.4.1. Output columns:
    weigher scheme coefficient n mean var left
"""

import itertools
import math

import mpmath as mp

mp.mp.dps = 50

WEIGHERS = {
    "hyperbolic": lambda r: mp.mpf(1) / r,
    "quadratic0": lambda r: mp.mpf(1) / r**2,
    "quadratic1": lambda r: mp.mpf(1) / (r + 1) ** 2,
    "quadratic2": lambda r: mp.mpf(1) / (r + 2) ** 2,
    "logarithmic": lambda r: 1 / mp.log(r - 1 + mp.e),
}
SCHEMES = {
    "additive": lambda x, y: x + y,
    "multiplicative": lambda x, y: x * y,
    "first": lambda x, y: x,
}


def coefficient(kind, a, b, w):
    n = len(a)
    if kind == "rho":
        W = sum(w)
        ma = sum(wi * x for wi, x in zip(w, a)) / W
        mb = sum(wi * y for wi, y in zip(w, b)) / W
        cov = sum(wi * (x - ma) * (y - mb) for wi, x, y in zip(w, a, b))
        va = sum(wi * (x - ma) ** 2 for wi, x in zip(w, a))
        vb = sum(wi * (y - mb) ** 2 for wi, y in zip(w, b))
        return cov / mp.sqrt(va * vb)
    num = mp.mpf(0)
    den = mp.mpf(0)
    for i in range(n):
        for j in range(i + 1, n):
            s = (1 if a[j] > a[i] else -1) * (1 if b[j] > b[i] else -1)
            num += w[i] * w[j] * s
            den += w[i] * w[j]
    return num / den


def moments(weigher, scheme, kind, n):
    f = [WEIGHERS[weigher](r) for r in range(1, n + 1)]
    a = list(range(1, n + 1))
    values = []
    for p in itertools.permutations(range(n)):
        b = [p[i] + 1 for i in range(n)]
        w = [SCHEMES[scheme](f[i], f[p[i]]) for i in range(n)]
        values.append(coefficient(kind, a, b, w))
    count = math.factorial(n)
    mean = sum(values) / count
    var = sum((v - mean) ** 2 for v in values) / count
    left = sum((v - mean) ** 2 for v in values if v < mean) / count
    return mean, var, left


def main():
    for weigher in WEIGHERS:
        for scheme in SCHEMES:
            for kind in ("rho", "tau"):
                for n in range(3, 8):
                    m = moments(weigher, scheme, kind, n)
                    print(weigher, scheme, kind, n, *(mp.nstr(x, 25) for x in m))


if __name__ == "__main__":
    main()
