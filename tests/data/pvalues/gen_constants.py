"""The constant tables of src/special/ (erf.rs, student.rs, dd.rs), printed
as Rust literals for comparison with the source.

Run from the repository root with the project's virtual environment:
    /work/venv/bin/python tests/data/pvalues/gen_constants.py
Values are mpmath at 50 digits (mpmath 1.4.1 produced the committed ones),
rounded once to doubles; the expansion coefficients are exact rationals
(fractions) rounded once. The unit tests of src/special check every table
independently (recurrences, series between neighbouring nodes).
"""

import math
from fractions import Fraction

import mpmath

mpmath.mp.dps = 50


def lo(v):
    """The trailing double of v as a double-word."""
    return float(v - mpmath.mpf(float(v)))


def main():
    print("// erf.rs NODES: erfcx(k/4), k = 0..=12")
    for k in range(13):
        x = mpmath.mpf(k) / 4
        print(f"    {float(mpmath.erfc(x) * mpmath.exp(x * x))!r},")
    print("// dd.rs LN_2.lo, ONE_THIRD.lo; erf.rs FRAC_1_SQRT_2_DD.lo")
    print(repr(lo(mpmath.log(2))), repr(lo(mpmath.mpf(1) / 3)), repr(lo(1 / mpmath.sqrt(2))))
    print("// student.rs GAMMA_RATIO: Γ((ν + 1)/2)/Γ(ν/2), ν = 1..=31")
    for nu in range(1, 32):
        a = mpmath.mpf(nu) / 2
        print(f"    {float(mpmath.gamma(a + 0.5) / mpmath.gamma(a))!r},")
    print("// student.rs EXPANSION_COEFFICIENTS: (sinh(v/2)/(v/2))^(-1/2) = Σ c_k v^(2k)")
    # J. C. P. Miller's recurrence for h = g^α, g = Σ g_j w^j, w = v².
    k_max = 16
    g = [Fraction(1, 4**j * math.factorial(2 * j + 1)) for j in range(k_max)]
    alpha = Fraction(-1, 2)
    h = [Fraction(1)]
    for k in range(1, k_max):
        h.append(sum(((alpha + 1) * j - k) * g[j] * h[k - j] for j in range(1, k + 1)) / k)
    for c in h:
        print(f"    {float(c)!r},  // {c}" if c.denominator < 10**12 else f"    {float(c)!r},")


if __name__ == "__main__":
    main()
