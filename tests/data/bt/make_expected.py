"""Reference values for tests/features/pairwise.rs: Bradley–Terry fits of
choix, Crowd-Kit and an independent SciPy optimiser on Crowd-Kit's own test
fixtures and on generated comparisons.

Run from the repository root in a virtual environment with the reference
packages (versions recorded in the output's "versions" field):

    python -m venv /tmp/bt-ref && /tmp/bt-ref/bin/pip install choix==0.4.1 crowd-kit==1.4.2 scipy
    /tmp/bt-ref/bin/python tests/data/bt/make_expected.py

It rewrites tests/data/bt/expected.json. Every double is written as a string
holding Python's shortest round-trip repr (read back exactly by Rust's
`str::parse::<f64>`).

What is computed, per data set (records [first, second, vote, worker], vote
0 = first won, 1 = second won, 2 = tie; "shown_in_order": whether first is
the item a worker saw first):

- "ml": the maximum-likelihood Bradley–Terry scores (Davidson's model with
  ties), centred, found by this script's own optimiser: SciPy's BFGS on the
  negative log-likelihood with its analytic gradient, written here in NumPy,
  then Newton steps on a finite-difference Hessian until the gradient's
  largest component is below 1e-11. With "prior_sd" σ the objective adds
  Σθ²/(2σ²). "tie" is ν (absent without ties), "loglik" the log-likelihood.
- "se": standard errors of the centred scores from the observed information,
  the finite-difference Hessian H of the negative log-posterior over (θ, ln ν):
  the θ block of H⁺ (no prior; the singular value along the flat direction,
  ~1e-10 from the differences, cut by rcond=1e-9; H⁺ is already centred) or P·(H⁻¹)_θθ·P
  (prior; P the centring projection).
- "choix_ilsr", "choix_mm": choix.ilsr_pairwise / mm_pairwise with alpha=0
  and tol=1e-12 (sets without ties; their fixed points are the ML).
- "choix_opt": choix.opt_pairwise(alpha, method="Newton-CG", tol=1e-12), whose
  penalty is alpha·Σθ², i.e. a prior with σ² = 1/(2·alpha) (its docstring's
  "variance 1/alpha" is off by a factor 2: the objective is what counts).
- "crowdkit_bt": crowdkit.aggregation.BradleyTerry(n_iter=100, tol=1e-5)
  strengths p as ln p − mean(ln p), its log-likelihood, and whether it reached
  the ML (to 1e-6). Its loop stops after two updates whatever n_iter and tol
  (`p_old = p_new` makes the two names one array, so the change it measures
  is 0 from the third iteration on).
- "noisy_ml": the noisy Bradley–Terry model of Crowd-Kit's NoisyBradleyTerry,
  P(answer) = r_w·σ(±(s_first − s_second)) + (1 − r_w)·σ(±q_w), at its
  maximum likelihood (regularization_ratio 0), found by this script's own
  optimiser over (s, q, γ) with r = σ(γ), β = σ(q): centred scores,
  reliabilities, biases, log-likelihood, and the optimiser's final gradient
  (over the free coordinates: a worker whose reliability goes to 1 is fixed
  there, "at_one", and their bias, which then has no information, left out),
  and "se", the scores' standard errors from the finite-difference Hessian
  over the free coordinates, as for "se" above.
- "noisy_map": the same with a Gaussian prior N(0, σ²) on the scores
  ("prior_sd"), the objective the crate fits with a prior.
- "crowdkit_noisy": NoisyBradleyTerry(n_iter=100, tol=1e-5) scores as
  logit(score) − mean, skills, biases, the model's log-likelihood at them,
  and "gradient_error": the largest difference between Crowd-Kit's own
  `_compute_gradient` and a central difference of its own
  `_compute_log_likelihood` at its starting point (its gradient writes the
  bias derivative one slot off and assigns, not accumulates, per worker).
"""

import json
import pathlib

import choix
import crowdkit
import numpy as np
import pandas as pd
import scipy
from crowdkit.aggregation import BradleyTerry, NoisyBradleyTerry
from scipy.optimize import minimize
from scipy.special import expit, logsumexp

OUT = pathlib.Path(__file__).with_name("expected.json")


def r(x):
    return repr(float(x))


def rl(xs):
    return [r(x) for x in xs]


# --- Davidson–Bradley–Terry, written for this script -----------------------


def parts(recs):
    a = np.array([x[0] for x in recs])
    b = np.array([x[1] for x in recs])
    v = np.array([x[2] for x in recs])
    return a, b, (v == 0) * 1.0, (v == 1) * 1.0, (v == 2) * 1.0


def davidson(x, recs, n, ties):
    """The records' parts, θ, ln ν, each record's half difference h and the
    log of its normaliser e^h + e^-h + ν."""
    a, b, wa, wb, t = parts(recs)
    th = x[:n]
    lam = x[n] if ties else -np.inf
    h = (th[a] - th[b]) / 2
    logd = logsumexp(np.stack([h, -h, np.full_like(h, lam)]), axis=0)
    return a, b, wa, wb, t, th, lam, h, logd


def nll(x, recs, n, ties, tau):
    _, _, wa, wb, t, th, lam, h, logd = davidson(x, recs, n, ties)
    ll = (wa - wb) * h - logd
    if ties:
        ll = ll + t * lam
    return -ll.sum() + 0.5 * tau * np.sum(th**2)


def grad(x, recs, n, ties, tau):
    a, b, wa, wb, t, th, lam, h, logd = davidson(x, recs, n, ties)
    pa, pb = np.exp(h - logd), np.exp(-h - logd)
    dh = wa - wb - (pa - pb)
    g = np.zeros_like(x)
    np.add.at(g, a, -0.5 * dh)
    np.add.at(g, b, 0.5 * dh)
    g[:n] += tau * th
    if ties:
        pt = np.exp(lam - logd)
        g[n] = -(t - pt).sum()
    return g


def fd_hessian(f_grad, x, eps=1e-5):
    k = len(x)
    H = np.zeros((k, k))
    for i in range(k):
        e = np.zeros(k)
        e[i] = eps
        H[:, i] = (f_grad(x + e) - f_grad(x - e)) / (2 * eps)
    return (H + H.T) / 2


def polish(fun, jac, x, tol=1e-11, steps=50):
    """Newton steps with a finite-difference Hessian and backtracking."""
    for _ in range(steps):
        g = jac(x)
        if np.max(np.abs(g)) < tol:
            break
        H = fd_hessian(jac, x)
        step = -np.linalg.lstsq(H, g, rcond=None)[0]
        t, f0 = 1.0, fun(x)
        while t > 1e-12 and fun(x + t * step) > f0 + 1e-4 * t * g @ step:
            t /= 2
        x = x + t * step
    return x


def bt_reference(recs, n, prior_sd=None):
    ties = any(v == 2 for _, _, v, _ in recs)
    tau = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    k = n + (1 if ties else 0)
    fun = lambda x: nll(x, recs, n, ties, tau)  # noqa: E731
    jac = lambda x: grad(x, recs, n, ties, tau)  # noqa: E731
    x0 = np.zeros(k)
    if ties:
        x0[n] = np.log(0.5)
    res = minimize(fun, x0, jac=jac, method="BFGS", options={"gtol": 1e-9, "maxiter": 10000})
    x = polish(fun, jac, res.x)
    x[:n] -= x[:n].mean()
    g = jac(x)
    H = fd_hessian(jac, x)
    P = np.eye(n) - 1.0 / n
    if tau == 0:
        cov = np.linalg.pinv(H, rcond=1e-9, hermitian=True)[:n, :n]
    else:
        cov = P @ np.linalg.inv(H)[:n, :n] @ P
    out = {
        "scores": rl(x[:n]),
        "loglik": r(-nll(x, recs, n, ties, 0.0)),
        "gradient": r(np.max(np.abs(g))),
        "se": rl(np.sqrt(np.diag(cov))),
    }
    if ties:
        out["tie"] = r(np.exp(x[n]))
    return out


def bt_loglik(theta, recs, n):
    return -nll(np.asarray(theta, float), recs, n, False, 0.0)


# --- the noisy model ---------------------------------------------------------


def noisy_split(x, n, w):
    return x[:n], x[n : n + w], x[n + w :]


def noisy(x, recs, n, w):
    """The records' items a, b, sign y (+1: first won), worker k, and per
    record r_k, σ(y·(s_a − s_b)), σ(y·q_k) and the answer's probability."""
    s, q, gam = noisy_split(x, n, w)
    a = np.array([z[0] for z in recs])
    b = np.array([z[1] for z in recs])
    y = np.where(np.array([z[2] for z in recs]) == 0, 1.0, -1.0)
    k = np.array([z[3] for z in recs])
    rr = expit(gam[k])
    f = expit(y * (s[a] - s[b]))
    c = expit(y * q[k])
    return a, b, y, k, rr, f, c, rr * f + (1 - rr) * c


def noisy_nll(x, recs, n, w):
    p = noisy(x, recs, n, w)[-1]
    return -np.log(p).sum()


def noisy_grad(x, recs, n, w):
    a, b, y, k, rr, f, c, p = noisy(x, recs, n, w)
    g = np.zeros_like(x)
    ds = rr * f * (1 - f) * y / p
    np.add.at(g, a, -ds)
    np.add.at(g, b, ds)
    np.add.at(g, n + k, -(1 - rr) * c * (1 - c) * y / p)
    np.add.at(g, n + w + k, -(f - c) * rr * (1 - rr) / p)
    return g


def noisy_reference(recs, n, w, seed, prior_sd=None):
    tau = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    fun = lambda x: noisy_nll(x, recs, n, w) + 0.5 * tau * np.sum(x[:n] ** 2)  # noqa: E731

    def jac(x):
        g = noisy_grad(x, recs, n, w)
        g[:n] += tau * x[:n]
        return g

    best = None
    rng = np.random.default_rng(seed)
    for start in range(4):
        x0 = np.concatenate([np.zeros(n), np.zeros(w), np.full(w, 2.0)])
        if start:
            x0 = x0 + rng.normal(0, 0.5, len(x0))
        res = minimize(
            fun,
            x0,
            jac=jac,
            method="L-BFGS-B",
            options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-10},
        )
        if best is None or res.fun < best.fun:
            best = res
    x = best.x.copy()
    # A worker the model explains fully has its maximum at r = 1 (γ = ∞):
    # fix those at γ = 40 (r = 1 − 4e-18) and polish the other coordinates.
    fixed = np.zeros(len(x), bool)
    fixed[n + w :] = x[n + w :] > 10
    fixed[n : n + w] = fixed[n + w :]  # their leaning has no information
    x[n + w :][fixed[n + w :]] = 40.0
    free = ~fixed

    def sub(fn):
        def f(y):
            z = x.copy()
            z[free] = y
            out = fn(z)
            return out[free] if np.ndim(out) else out

        return f

    y = polish(sub(fun), sub(jac), x[free], tol=1e-10, steps=40)
    x[free] = y
    s, q, gam = noisy_split(x, n, w)
    # Standard errors of the centred scores over the free coordinates (the
    # θ block of the inverse does not depend on how the workers'
    # parameters are written: γ and q here, r and β in the crate).
    H = fd_hessian(sub(jac), x[free])
    P = np.eye(n) - 1.0 / n
    if tau == 0:
        cov = np.linalg.pinv(H, rcond=1e-9, hermitian=True)[:n, :n]
    else:
        cov = P @ np.linalg.inv(H)[:n, :n] @ P
    return {
        "scores": rl(s - s.mean()),
        "reliability": rl(expit(gam)),
        "bias": rl(expit(q)),
        "loglik": r(-noisy_nll(x, recs, n, w)),
        "gradient": r(np.max(np.abs(jac(x)[free]))),
        "at_one": [int(k) for k in np.nonzero(fixed[n + w :])[0]],
        "se": rl(np.sqrt(np.maximum(np.diag(cov), 0))),
    }


# --- data ---------------------------------------------------------------------


def generate(n, m, workers, seed, nu=0.0, reliabilities=None, biases=None, sd=1.0):
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, sd, n)
    recs = []
    for _ in range(m):
        i = int(rng.integers(n))
        j = int((i + rng.integers(1, n)) % n)
        k = int(rng.integers(workers))
        if reliabilities is not None and rng.random() > reliabilities[k]:
            v = 0 if rng.random() < biases[k] else 1
        else:
            h = (theta[i] - theta[j]) / 2
            z = np.array([np.exp(h), np.exp(-h), nu])
            v = int(rng.choice(3, p=z / z.sum()))
        recs.append([i, j, v, k])
    return recs


def strongly_connected(recs, n):
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    rows, cols = [], []
    for i, j, v, _ in recs:
        if v in (0, 2):
            rows.append(i)
            cols.append(j)
        if v in (1, 2):
            rows.append(j)
            cols.append(i)
    g = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    return connected_components(g, connection="strong")[0] == 1


def generate_connected(n, m, w, seed, **kw):
    """The first seed from `seed` on (steps of 1000) whose graph of wins is
    strongly connected (the ML is finite)."""
    while True:
        recs = generate(n, m, w, seed, **kw)
        if strongly_connected(recs, n):
            return recs, seed
        seed += 1000


def frame(recs):
    rows = []
    for i, j, v, k in recs:
        label = i if v == 0 else j
        rows.append([f"w{k}", f"i{i}", f"i{j}", f"i{label}"])
    return pd.DataFrame(rows, columns=["worker", "left", "right", "label"])


def from_strings(df, items):
    idx = {name: t for t, name in enumerate(items)}
    wk = {}
    recs = []
    for _, row in df.iterrows():
        k = wk.setdefault(row.worker, len(wk))
        i, j = idx[row.left], idx[row.right]
        recs.append([i, j, 0 if row.label == row.left else 1, k])
    return recs, list(wk), wk


def crowdkit_bt(recs, n):
    df = frame(recs)
    p = BradleyTerry(n_iter=100, tol=1e-5).fit(df).scores_
    theta = np.log(np.array([p[f"i{t}"] for t in range(n)]))
    return theta - theta.mean()


def crowdkit_noisy(recs, n, w):
    df = frame(recs)
    model = NoisyBradleyTerry(n_iter=100, tol=1e-5).fit(df)
    sc = np.array([model.scores_[f"i{t}"] for t in range(n)])
    logit = np.log(sc) - np.log1p(-sc)
    skills = np.array([model.skills_[f"w{k}"] for k in range(w)])
    biases = np.array([model.biases_[f"w{k}"] for k in range(w)])
    # The model's log-likelihood at Crowd-Kit's parameters (its scores are
    # σ(s): logit gives s back).
    x = np.concatenate(
        [logit, np.log(biases) - np.log1p(-biases), np.log(skills) - np.log1p(-skills)]
    )
    ll = -noisy_nll(x, recs, n, w)
    # Crowd-Kit's gradient against its own objective at its start.
    labels_df = df[["left", "right", "label"]].values
    from crowdkit.aggregation.utils import factorize

    unique_labels, np_data = factorize(labels_df)
    unique_workers, np_workers = factorize(df.worker.values)
    np_data = np_data + 1
    np.random.seed(0)
    x0 = np.random.rand(1 + unique_labels.size + 2 * unique_workers.size)
    args = (np_data, np_workers, unique_labels.size, unique_workers.size, 1e-5)
    g = NoisyBradleyTerry._compute_gradient(x0, *args)
    fd = np.zeros_like(x0)
    for t in range(len(x0)):
        e = np.zeros_like(x0)
        e[t] = 1e-6
        fd[t] = (
            NoisyBradleyTerry._compute_log_likelihood(x0 + e, *args)
            - NoisyBradleyTerry._compute_log_likelihood(x0 - e, *args)
        ) / 2e-6
    return {
        "scores": rl(logit - logit.mean()),
        "reliability": rl(skills),
        "bias": rl(biases),
        "loglik": r(ll),
        "gradient_error": r(np.max(np.abs(g - fd))),
    }


def main():
    sets = []
    # Crowd-Kit's fixtures (tests/aggregation/test_bt_aggregation.py).
    fixtures = {
        "crowdkit_abc": [["w1", "a", "b", "a"], ["w1", "b", "c", "b"], ["w1", "c", "a", "a"]],
        "crowdkit_equal": [["w1", "a", "b", "a"], ["w1", "b", "c", "b"], ["w1", "c", "a", "c"]],
    }
    for name, rows in fixtures.items():
        df = pd.DataFrame(rows, columns=["worker", "left", "right", "label"])
        items = ["a", "b", "c"]
        recs, workers, _ = from_strings(df, items)
        d = {
            "name": name,
            "items": items,
            "workers": workers,
            "records": recs,
            "shown_in_order": True,
        }
        p = BradleyTerry(n_iter=100, tol=1e-5).fit(df).scores_
        th = np.log(np.array([p[i] for i in items]))
        ll = bt_loglik(th, recs, 3) if np.all(np.isfinite(th)) else None
        d["crowdkit_bt"] = {
            "scores": rl(th - th.mean()) if ll is not None else None,
            "loglik": None if ll is None else r(ll),
        }
        model = NoisyBradleyTerry(n_iter=100, tol=1e-5).fit(df)
        sc = np.clip(np.array([model.scores_[i] for i in items]), 1e-300, 1 - 1e-16)
        sk = np.array([model.skills_[w] for w in workers])
        bi = np.array([model.biases_[w] for w in workers])
        lg = np.log(sc) - np.log1p(-sc)
        x = np.concatenate([lg, np.log(bi) - np.log1p(-bi), np.log(sk) - np.log1p(-sk)])
        d["crowdkit_noisy"] = {"loglik": r(-noisy_nll(x, recs, 3, 1))}
        if name == "crowdkit_equal":
            d["ml"] = bt_reference(recs, 3)
            d["crowdkit_bt"]["converged"] = True
        d["prior_sd"] = r(1.0)
        d["map"] = bt_reference(recs, 3, prior_sd=1.0)
        sets.append(d)

    # Generated sets without ties: choix, Crowd-Kit and the optimiser.
    for name, n, m, w, seed in [
        ("small", 8, 120, 3, 1),
        ("medium", 40, 1500, 12, 2),
        ("sparse", 60, 400, 5, 3),
    ]:
        recs, seed = generate_connected(n, m, w, seed)
        d = {
            "name": name,
            "seed": seed,
            "items": [str(i) for i in range(n)],
            "workers": [f"w{k}" for k in range(w)],
            "records": recs,
            "shown_in_order": True,
        }
        data = [(i, j) if v == 0 else (j, i) for i, j, v, _ in recs]
        d["ml"] = bt_reference(recs, n)
        d["choix_ilsr"] = rl(choix.ilsr_pairwise(n, data, alpha=0.0, tol=1e-12, max_iter=100000))
        d["choix_mm"] = rl(choix.mm_pairwise(n, data, alpha=0.0, tol=1e-12, max_iter=1000000))
        alpha = 0.05
        d["prior_sd"] = r(np.sqrt(1 / (2 * alpha)))
        d["choix_opt"] = rl(choix.opt_pairwise(n, data, alpha=alpha, method="Newton-CG", tol=1e-12))
        d["map"] = bt_reference(recs, n, prior_sd=np.sqrt(1 / (2 * alpha)))
        ck = crowdkit_bt(recs, n)
        ml = np.array([float(v) for v in d["ml"]["scores"]])
        d["crowdkit_bt"] = {
            "scores": rl(ck),
            "loglik": r(bt_loglik(ck, recs, n)),
            "converged": bool(np.max(np.abs(ck - ml)) < 1e-6),
        }
        sets.append(d)

    # Ties (Davidson), with and without a prior.
    for name, n, m, w, seed, nu in [
        ("ties", 12, 600, 4, 4, 0.6),
        ("ties_many", 30, 2000, 8, 5, 1.5),
    ]:
        recs, seed = generate_connected(n, m, w, seed, nu=nu)
        d = {
            "name": name,
            "seed": seed,
            "items": [str(i) for i in range(n)],
            "workers": [f"w{k}" for k in range(w)],
            "records": recs,
            "shown_in_order": True,
        }
        d["ml"] = bt_reference(recs, n)
        d["prior_sd"] = r(2.0)
        d["map"] = bt_reference(recs, n, prior_sd=2.0)
        sets.append(d)

    # The noisy model: careless workers with a leaning.
    for name, n, m, w, seed in [("noisy", 15, 3000, 8, 6), ("noisy_large", 40, 6000, 20, 7)]:
        rng = np.random.default_rng(seed + 100)
        rel = rng.uniform(0.3, 0.9, w)
        bias = rng.uniform(0.2, 0.8, w)
        recs, seed = generate_connected(n, m, w, seed, reliabilities=rel, biases=bias, sd=1.0)
        d = {
            "name": name,
            "seed": seed,
            "items": [str(i) for i in range(n)],
            "workers": [f"w{k}" for k in range(w)],
            "records": recs,
            "shown_in_order": True,
        }
        d["noisy_ml"] = noisy_reference(recs, n, w, seed)
        d["prior_sd"] = r(2.0)
        d["noisy_map"] = noisy_reference(recs, n, w, seed, prior_sd=2.0)
        d["crowdkit_noisy"] = crowdkit_noisy(recs, n, w)
        d["ml"] = bt_reference(recs, n)
        sets.append(d)

    out = {
        "versions": {
            "choix": choix.__version__ if hasattr(choix, "__version__") else "0.4.1",
            "crowd-kit": crowdkit.__version__ if hasattr(crowdkit, "__version__") else "1.4.2",
            "scipy": scipy.__version__,
            "numpy": np.__version__,
        },
        "sets": sets,
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print("wrote", OUT, len(sets), "sets")


if __name__ == "__main__":
    main()
