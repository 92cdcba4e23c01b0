"""The MLP step of ``bench.py`` on minigrad, torch and a NumPy peer (MyGrad), in float32 and
float64: is minigrad's remaining gap to torch the price of NumPy, or its own?

Run it with ``./course bench --peers``, which first installs MyGrad 2.5.0 into
``.venv/peers/`` (outside the course's environment: it is not a dependency of the course).
Each engine runs the same step (784 -> 256 -> 10, batch 64, MSE loss, SGD update, one thread)
in alternating rounds; the best time of each is printed with its ratio to torch. Before
timing, the three engines' gradients are compared, so a fast but wrong step does not count.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one thread for every BLAS, set before any is loaded

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import minigrad  # noqa: E402

try:
    import mygrad  # noqa: E402
except ImportError:  # reported by main()
    mygrad = None


def _data(dtype):
    rng = np.random.default_rng(0)
    return {"x": rng.standard_normal((64, 784)).astype(dtype),
            "t": rng.standard_normal((64, 10)).astype(dtype),
            "w1": (rng.standard_normal((256, 784)) * 0.05).astype(dtype),
            "b1": np.zeros(256, dtype), "w2": (rng.standard_normal((10, 256)) * 0.05).astype(dtype),
            "b2": np.zeros(10, dtype)}


def torch_like_step(lib, d):
    """The step in torch's API (torch itself, or minigrad standing in for it)."""
    x, t = lib.tensor(d["x"].copy()), lib.tensor(d["t"].copy())
    params = [lib.tensor(d[k].copy(), requires_grad=True) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def step():
        for p in params:
            p.grad = None
        h = (x @ w1.t() + b1).relu()
        loss = ((h @ w2.t() + b2 - t) ** 2).mean()
        loss.backward()
        grads = [p.grad.numpy().copy() for p in params] if step.keep else None
        with lib.no_grad():
            for p in params:
                p -= 0.01 * p.grad
        return grads

    step.keep = False
    return step


def mygrad_step(d):
    """The same step in MyGrad's API (``constant=True`` for data, ``.T``, ``nnet.relu``)."""
    x, t = mygrad.tensor(d["x"].copy(), constant=True), mygrad.tensor(d["t"].copy(), constant=True)
    params = [mygrad.tensor(d[k].copy()) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def step():
        h = mygrad.nnet.relu(x @ w1.T + b1)
        loss = mygrad.mean((h @ w2.T + b2 - t) ** 2)
        loss.backward()
        grads = [np.array(p.grad) for p in params] if step.keep else None
        for p in params:
            p.data -= 0.01 * p.grad
        return grads

    step.keep = False
    return step


def best_time(step, runs: int) -> float:
    start = time.perf_counter()
    for _ in range(runs):
        step()
    return (time.perf_counter() - start) / runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=100, help="steps per round")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if mygrad is None:
        print("MyGrad is not installed: `./course bench --peers` installs it into .venv/peers/.")
        return 1
    print(f"minigrad {minigrad.__version__}, torch {torch.__version__}, MyGrad "
          f"{mygrad.__version__}, numpy {np.__version__}; one thread each; best of "
          f"{args.rounds} alternating rounds of {args.runs} steps")
    for dtype in (np.float32, np.float64):
        d = _data(dtype)
        steps = {"minigrad": torch_like_step(minigrad, d), "torch": torch_like_step(torch, d),
                 "MyGrad": mygrad_step(d)}
        grads = {}
        for name, step in steps.items():  # the first step's gradients, compared
            step.keep = True
            grads[name] = step()
            step.keep = False
        for name in ("minigrad", "MyGrad"):
            for g, ref in zip(grads[name], grads["torch"]):
                np.testing.assert_allclose(g, ref, rtol=1e-3, atol=1e-5,
                                           err_msg=f"{name}'s gradients differ from torch's")
        best = dict.fromkeys(steps, float("inf"))
        for _ in range(args.rounds):
            for name, step in steps.items():
                best_time(step, 10)  # warm-up of this round
                best[name] = min(best[name], best_time(step, args.runs))
        print(f"{np.dtype(dtype).name} MLP step (784 -> 256 -> 10, batch 64):")
        for name, seconds in best.items():
            print(f"  {name:9s} {seconds * 1e3:7.3f} ms   {seconds / best['torch']:5.2f}x torch")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
