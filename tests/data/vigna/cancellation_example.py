"""Exact weighted Kendall sums of the cancellation example of issue 15.

    weighted_kendall(x = [2, 3, 1], y = [1, 2, 1], u = [1e-16, 1e-31, 1e-5],
                     Combine::Multiplicative)

Every pair weight u_i·u_j is computed exactly with `fractions.Fraction` of the
f64 values (1e-16 as an f64 is not exactly 10⁻¹⁶), the sums exactly, and each
is printed rounded once to the nearest f64 (`float(Fraction)` rounds
correctly); τ = (C − D)/sqrt(untied_x·untied_y) is evaluated with mpmath at
200 digits and rounded once.

Run: /work/venv/bin/python tests/data/vigna/cancellation_example.py
Produced with Python 3.11.7, mpmath 1.4.1; the values are in
tests/correlation/vigna_exact.rs (`cancellation_example_of_issue_15`).
"""

from fractions import Fraction

import mpmath

mpmath.mp.dps = 200

x = [2.0, 3.0, 1.0]
y = [1.0, 2.0, 1.0]
u = [Fraction(v) for v in (1e-16, 1e-31, 1e-5)]


def sign(d):
    return (d > 0) - (d < 0)


sums = dict.fromkeys(
    ["total", "tied_x", "tied_y", "tied_xy", "untied_x", "untied_y", "concordant", "discordant"],
    Fraction(0),
)
for i in range(3):
    for j in range(i + 1, 3):
        w = u[i] * u[j]
        sx, sy = sign(x[i] - x[j]), sign(y[i] - y[j])
        sums["total"] += w
        sums["tied_x" if sx == 0 else "untied_x"] += w
        sums["tied_y" if sy == 0 else "untied_y"] += w
        if sx == 0 and sy == 0:
            sums["tied_xy"] += w
        elif sx * sy > 0:
            sums["concordant"] += w
        elif sx * sy < 0:
            sums["discordant"] += w

for name, value in sums.items():
    print(f"{name:11s} {float(value)!r}")
num = sums["concordant"] - sums["discordant"]
tau = (
    mpmath.mpf(num.numerator)
    / num.denominator
    / mpmath.sqrt(
        mpmath.mpf(sums["untied_x"].numerator)
        / sums["untied_x"].denominator
        * mpmath.mpf(sums["untied_y"].numerator)
        / sums["untied_y"].denominator
    )
)
print(f"tau         {float(tau)!r}")
print(f"tau (40 digits) {mpmath.nstr(tau, 40)}")
