#!/usr/bin/env python3
"""Reference figures for tests/test_engine_steadiness.c, computed here without
the code under test (and without GSL): Cochran's Q, DerSimonian-Laird's tau, the
Q-profile interval, the drift share and a Newey-West slope, from their
textbook definitions. Chi-square with an even df has a closed-form tail,
exp(-x/2) sum_{i<df/2} (x/2)^i / i!, inverted here by bisection.
Prints C initialisers; the test holds the engine to them."""
import math

def chi2_sf(x, df):
    assert df % 2 == 0
    h = x / 2.0
    return math.exp(-h) * sum(h ** i / math.factorial(i) for i in range(df // 2))

def chi2_ppf(p, df):
    lo, hi = 0.0, 1000.0
    for _ in range(300):
        mid = (lo + hi) / 2
        if 1 - chi2_sf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

def gen_q(y, se, tau2):
    w = [1 / (s * s + tau2) for s in se]
    mu = sum(wi * yi for wi, yi in zip(w, y)) / sum(w)
    return sum(wi * (yi - mu) ** 2 for wi, yi in zip(w, y)), mu

def solve(y, se, target):
    if gen_q(y, se, 0)[0] <= target:
        return 0.0
    lo, hi = 0.0, 1.0
    while gen_q(y, se, hi)[0] > target:
        hi *= 2
    for _ in range(300):
        mid = (lo + hi) / 2
        if gen_q(y, se, mid)[0] > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

def het(y, se):
    k = len(y)
    q, mu = gen_q(y, se, 0)
    w = [1 / s ** 2 for s in se]
    tau2 = max(0.0, (q - (k - 1)) / (sum(w) - sum(x * x for x in w) / sum(w)))
    lo = math.sqrt(solve(y, se, chi2_ppf(0.975, k - 1)))
    hi = math.sqrt(solve(y, se, chi2_ppf(0.025, k - 1)))
    return dict(mean=mu, q=q, p=chi2_sf(q, k - 1), tau=math.sqrt(tau2), tau_lo=lo, tau_hi=hi)

def inv2(m):
    d = m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return [[m[1][1] / d, -m[0][1] / d], [-m[1][0] / d, m[0][0] / d]]

def mul(a, b):
    return [[sum(a[i][r] * b[r][j] for r in range(2)) for j in range(2)] for i in range(2)]

def trend_share(y, se, t, tau):
    # Weighted least squares of y on (1, t), the residual moment estimate of tau^2.
    k = len(y)
    w = [1 / s ** 2 for s in se]
    X = [[1.0, ti] for ti in t]
    xtwx = [[sum(w[n] * X[n][i] * X[n][j] for n in range(k)) for j in range(2)] for i in range(2)]
    xtw2x = [[sum(w[n] ** 2 * X[n][i] * X[n][j] for n in range(k)) for j in range(2)] for i in range(2)]
    xtwy = [sum(w[n] * X[n][i] * y[n] for n in range(k)) for i in range(2)]
    inv = inv2(xtwx)
    beta = [inv[i][0] * xtwy[0] + inv[i][1] * xtwy[1] for i in range(2)]
    qe = sum(w[n] * (y[n] - beta[0] - beta[1] * t[n]) ** 2 for n in range(k))
    p = mul(inv, xtw2x)
    tau2r = max(0.0, (qe - (k - 2)) / (sum(w) - (p[0][0] + p[1][1])))
    return max(0.0, 1 - tau2r / tau ** 2)

def slope(x, y):
    k = len(x)
    mx, my = sum(x) / k, sum(y) / k
    sxx = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sxx
    a0 = my - b * mx
    e = [c - a0 - b * a for a, c in zip(x, y)]
    g = [(a - mx) * ei for a, ei in zip(x, e)]
    lag = max(1, int(4 * (k / 100) ** (2 / 9)))
    om = sum(gi * gi for gi in g)
    for l in range(1, lag + 1):
        om += 2 * (1 - l / (lag + 1)) * sum(g[i] * g[i - l] for i in range(l, k))
    se = math.sqrt(om * k / (k - 2)) / sxx
    r2 = 1 - sum(ei * ei for ei in e) / sum((c - my) ** 2 for c in y)
    return dict(b=b, se=se, r2=r2, lag=lag)

# Seven units that vary (df 6), seven that do not beyond their noise.
A_y = [0.10, 0.35, 0.22, 0.61, 0.05, 0.48, 0.30]
A_se = [0.05, 0.08, 0.04, 0.10, 0.06, 0.05, 0.07]
B_y = [0.010, -0.004, 0.006, 0.000, -0.008, 0.003, 0.001]
B_se = [0.006, 0.007, 0.005, 0.006, 0.008, 0.006, 0.007]
# Eleven units drifting in time (df 10).
C_t = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
C_y = [0.02 * ti / 10 + d for ti, d in zip(C_t, [0.03, -0.02, 0.01, 0.0, -0.03, 0.02, 0.01, -0.01, 0.02, -0.02, 0.0])]
C_se = [0.01] * 11
# A slope over twelve units in time order.
D_x = [0.1, 0.3, 0.2, 0.5, 0.7, 0.6, 0.9, 0.8, 1.1, 1.0, 1.3, 1.2]
D_y = [0.05, 0.21, 0.12, 0.31, 0.36, 0.33, 0.52, 0.41, 0.60, 0.58, 0.63, 0.70]

def fmt(d):
    return "{ " + ", ".join("%.12g" % d[key] for key in ("mean", "q", "p", "tau", "tau_lo", "tau_hi")) + " }"

print("A", fmt(het(A_y, A_se)))
print("B", fmt(het(B_y, B_se)))
hc = het(C_y, C_se)
print("C", fmt(hc), "trend share %.12g" % trend_share(C_y, C_se, C_t, hc["tau"]))
print("D", slope(D_x, D_y))
