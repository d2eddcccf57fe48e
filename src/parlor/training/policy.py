"""Fitting the learned move prior (``parlor.bots.policy``): a scorer whose within-group softmax
matches the root visit shares of a longer search (``scripts/policy_fit.py``).

The network is the value network's (``ValueNet``, one output: the score); its forward pass and
gradients are the evaluator training's (``parlor.training``), with the cross-entropy of each
root's softmax in place of the value loss.
"""

from __future__ import annotations

import time

import numpy as np

from parlor.bots.evaluator import ValueNet
from parlor.bots.policy import POLICY_KIND
from parlor.training import _forward, backward


def group_softmax(scores: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Softmax of ``scores`` within each group of consecutive rows (groups start at ``starts``)."""
    sizes = np.diff(np.append(starts, len(scores)))
    top = np.repeat(np.maximum.reduceat(scores, starts), sizes)
    e = np.exp(scores - top)
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def fit_policy(
    x: np.ndarray,
    target: np.ndarray,
    starts: np.ndarray,
    *,
    game: str,
    hidden: tuple[int, ...] = (),
    epochs: int = 300,
    lr: float = 0.003,
    l2: float = 1e-4,
    seed: int = 0,
    batch_groups: int = 256,
) -> ValueNet:
    """A scorer fitted by Adam on the cross-entropy of its within-group softmax against
    ``target`` (each group's visit shares, summing to 1). Rows of a group are consecutive;
    ``starts`` are the groups' first rows. Minibatches of whole groups, seeded."""
    rng = np.random.default_rng(seed)
    net = ValueNet.initial(game, x.shape[1], hidden, seed)
    params = [a for layer in net.layers for a in layer]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    ends = np.append(starts[1:], len(x))
    step = 0
    started = time.process_time()
    for _ in range(epochs):
        order = rng.permutation(len(starts))
        for b in range(0, len(order), batch_groups):
            chosen = np.sort(order[b : b + batch_groups])
            rows = np.concatenate([np.arange(starts[g], ends[g]) for g in chosen])
            sizes = ends[chosen] - starts[chosen]
            local_starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            acts, scores = _forward(net, x[rows])
            p = group_softmax(scores, local_starts)
            # d cross-entropy / d score: the softmax minus the target, per root
            grads = backward(net, acts, ((p - target[rows]) / len(chosen))[:, None].astype(np.float32))
            step += 1
            for j, (param, g) in enumerate(zip(params, grads)):
                if param.ndim == 2:
                    g = g + l2 * param
                m[j] = 0.9 * m[j] + 0.1 * g
                v[j] = 0.999 * v[j] + 0.001 * g * g
                param -= lr * (m[j] / (1 - 0.9**step)) / (np.sqrt(v[j] / (1 - 0.999**step)) + 1e-8)
    net.meta.update(
        kind=POLICY_KIND,
        hidden=list(hidden),
        epochs=epochs,
        lr=lr,
        l2=l2,
        seed=seed,
        groups=len(starts),
        rows=len(x),
        cpu_seconds=round(time.process_time() - started, 1),
    )
    return net
