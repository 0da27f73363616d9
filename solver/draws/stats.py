"""The few distributions an audit of draws needs, with the standard library alone.

* :func:`gamma_q`: the regularized upper incomplete gamma function ``Q(a, x)``,
  by its series (``x < a + 1``) or its continued fraction (Numerical Recipes,
  section 6.2, with Lentz's method);
* :func:`chi2_sf` and :func:`chi2_isf`: the chi-square distribution's upper
  tail and its inverse;
* :func:`ncx2_sf`: the noncentral chi-square's upper tail (a Poisson mixture
  of central ones);
* :func:`binom_sf`: the binomial distribution's upper tail ``P(X >= k)``.

>>> round(chi2_sf(3.841, 1), 4), round(chi2_sf(23.209, 10), 4)
(0.05, 0.01)
>>> round(chi2_isf(0.01, 1000), 2)
1106.97
>>> round(binom_sf(3, 4, 0.5), 4)
0.3125
"""

from __future__ import annotations

import math

__all__ = ["binom_sf", "chi2_isf", "chi2_sf", "gamma_q", "ncx2_sf"]

_EPS = 1e-15
_TINY = 1e-300
_STEPS = 100_000


def _series_p(a: float, x: float) -> float:
    """``P(a, x)`` by its series (converges fast for ``x < a + 1``)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_STEPS):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _fraction_q(a: float, x: float) -> float:
    """``Q(a, x)`` by its continued fraction (converges fast for ``x >= a + 1``)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _STEPS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function ``Q(a, x) = Γ(a, x) / Γ(a)``.

    >>> round(gamma_q(1, 1), 6) == round(math.exp(-1), 6)
    True
    >>> gamma_q(2, 0)
    1.0
    """
    if a <= 0 or x < 0:
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, not a={a!r}, x={x!r}")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _series_p(a, x))
    return min(1.0, _fraction_q(a, x))


def chi2_sf(x: float, df: float) -> float:
    """``P(X > x)`` for ``X`` chi-square distributed with ``df`` degrees of freedom."""
    if x <= 0:
        return 1.0
    return gamma_q(df / 2.0, x / 2.0)


def chi2_isf(p: float, df: float) -> float:
    """The ``x`` with ``chi2_sf(x, df) == p`` (by bisection), for ``0 < p < 1``."""
    if not 0 < p < 1:
        raise ValueError(f"chi2_isf needs 0 < p < 1, not {p!r}")
    low, high = 0.0, df + 10.0 * math.sqrt(2.0 * df) + 50.0
    while chi2_sf(high, df) > p:
        low, high = high, 2.0 * high
    for _ in range(200):
        middle = (low + high) / 2.0
        if chi2_sf(middle, df) > p:
            low = middle
        else:
            high = middle
        if high - low <= 1e-10 * high:
            break
    return (low + high) / 2.0


def ncx2_sf(x: float, df: float, nc: float) -> float:
    """``P(X > x)`` for ``X`` noncentral chi-square with ``df`` degrees of freedom
    and noncentrality ``nc``: by its definition, a Poisson mixture (of mean
    ``nc / 2``) of central chi-square tails of ``df + 2j`` degrees of freedom,
    summed from the Poisson's mode outwards until the weights left are
    negligible.

    >>> ncx2_sf(5.0, 3, 0) == chi2_sf(5.0, 3)
    True
    """
    half = nc / 2.0
    if half <= 0:
        return chi2_sf(x, df)
    mode = int(half)

    def weight(j: int) -> float:
        return math.exp(-half + j * math.log(half) - math.lgamma(j + 1))

    total = 0.0
    for steps in (range(mode, mode + _STEPS), range(mode - 1, -1, -1)):
        for j in steps:
            w = weight(j)
            total += w * chi2_sf(x, df + 2 * j)
            if w < 1e-17:
                break
    return min(1.0, total)


def _log_pmf(j: int, n: int, lp: float, lq: float) -> float:
    return (math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
            + j * lp + (n - j) * lq)


def binom_sf(k: int, n: int, p: float) -> float:
    """``P(X >= k)`` for ``X`` binomial with ``n`` trials of probability ``p``
    (summing the probabilities from the side of ``k`` away from the mean).

    >>> binom_sf(0, 10, 0.3), binom_sf(11, 10, 0.3)
    (1.0, 0.0)
    """
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0 or p >= 1.0:
        return 1.0 if p >= 1.0 else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    if k > n * p:  # the upper tail, whose terms fall from k on
        steps = range(k, n + 1)
        upper = True
    else:  # one minus the lower tail, whose terms fall from k - 1 down
        steps = range(k - 1, -1, -1)
        upper = False
    total = 0.0
    for j in steps:
        term = math.exp(_log_pmf(j, n, lp, lq))
        total += term
        if term < total * 1e-17:
            break
    return min(1.0, total) if upper else max(0.0, 1.0 - total)
