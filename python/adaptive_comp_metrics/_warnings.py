"""The warnings of SciPy's correlation functions, with SciPy's hierarchy."""

from __future__ import annotations


class DegenerateDataWarning(RuntimeWarning):
    """Data for which a statistic is not defined, or inaccurate (SciPy's
    ``scipy.stats.DegenerateDataWarning``)."""


class ConstantInputWarning(DegenerateDataWarning):
    """An input is constant, so a correlation is not defined: its value is
    NaN (SciPy's ``scipy.stats.ConstantInputWarning``). Raised where a batch
    of coefficients (``pearsonr(..., axis=)``, a 2-D ``spearmanr``) has such
    entries; a single coefficient of a constant input raises ``ValueError``."""


class NearConstantInputWarning(DegenerateDataWarning):
    """An input is nearly constant, ``||x - mean(x)|| < eps**0.75 |mean(x)|``,
    so the subtraction of its mean loses most digits and the coefficient may
    be inaccurate (SciPy's ``scipy.stats.NearConstantInputWarning``)."""
