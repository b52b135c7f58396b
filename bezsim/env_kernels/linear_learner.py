"""The baseline agent's compiled steps (bezsim/rl/baseline.py): its epsilon-greedy choice
and its Monte Carlo update of a linear action-value, plain loops in float64 so that a training
run is a pure function of its seed on every machine."""

from __future__ import annotations

import numpy as np

from bezsim.engine.jit import njit
from bezsim.engine.rng import below


@njit(cache=True)
def _q(bias, weights, a, x, nz, n_nz):
    q = bias[a]
    for k in range(n_nz):
        j = nz[k]
        q += weights[a, j] * x[j]
    return q


@njit(cache=True)
def act(bias, weights, obs, mask, epsilon_ppm, stream, traj_x, traj_a, lengths, out):
    """Each slot's action (epsilon in parts per million), each decision remembered. The
    shared value is the same for every action of a decision, so the choice ignores it."""
    nz = np.empty(obs.shape[1], np.int64)
    for i in range(obs.shape[0]):
        n_nz = 0
        for j in range(obs.shape[1]):
            if obs[i, j] != 0.0:
                nz[n_nz] = j
                n_nz += 1
        n_legal = 0
        for a in range(mask.shape[1]):
            n_legal += mask[i, a]
        chosen = -1
        if below(stream, 1_000_000) < epsilon_ppm:
            k = below(stream, n_legal)
            for a in range(mask.shape[1]):
                if mask[i, a]:
                    if k == 0:
                        chosen = a
                        break
                    k -= 1
        else:
            best = -np.inf
            for a in range(mask.shape[1]):
                if mask[i, a]:
                    q = _q(bias, weights, a, obs[i], nz, n_nz)
                    if q > best:
                        best = q
                        chosen = a
        out[i] = chosen
        t = lengths[i]
        if t < traj_a.shape[1]:
            traj_x[i, t] = obs[i]
            traj_a[i, t] = chosen
            lengths[i] = t + 1


@njit(cache=True)
def learn(value, bias, weights, traj_x, traj_a, lengths, done, targets, alpha):
    """Every decision of each game that ended moved toward its target; memory cleared."""
    nz = np.empty(traj_x.shape[2], np.int64)
    for i in range(done.shape[0]):
        if not done[i]:
            continue
        for t in range(lengths[i]):
            x = traj_x[i, t]
            n_nz = 0
            for j in range(x.shape[0]):
                if x[j] != 0.0:
                    nz[n_nz] = j
                    n_nz += 1
            a = traj_a[i, t]
            q = _q(bias, weights, a, x, nz, n_nz)
            norm = 1.0                              # the bias's input
            for k in range(n_nz):
                q += value[nz[k]] * x[nz[k]]
                norm += 2.0 * x[nz[k]] * x[nz[k]]   # each input feeds two weights
            step = alpha * (targets[i] - q) / norm
            bias[a] += step
            for k in range(n_nz):
                weights[a, nz[k]] += step * x[nz[k]]
                value[nz[k]] += step * x[nz[k]]
        lengths[i] = 0


@njit(cache=True)
def average(mean_bias, mean_weights, bias, weights, rate):
    """The running average moved toward the weights by ``rate``."""
    for a in range(bias.shape[0]):
        mean_bias[a] += rate * (bias[a] - mean_bias[a])
        for j in range(weights.shape[1]):
            mean_weights[a, j] += rate * (weights[a, j] - mean_weights[a, j])
