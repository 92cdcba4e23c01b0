"""Time the same workloads on minigrad and torch, in one process, on a single thread each.

Run it with ``./course bench`` (or ``python benchmarks/bench.py``). For every workload it prints
the best time of a few forward+backward runs on each engine and the ratio minigrad / torch.
Each workload has a target ratio (``TARGETS``, from issue 12): minigrad is pure Python on top of
NumPy, so on tiny tensors it pays its per-operation bookkeeping where torch runs C++, while on
big matrices both wait for their BLAS. The two engines are timed in alternating rounds, so a
burst of load on a shared machine slows both rather than one, and each workload runs in a
fresh Python process of its own, so what one workload leaves behind (garbage for Python's
collector, a fragmented heap for torch's allocator) does not slow the next. Times include
Python's garbage collector, as a learner's own program would meet it.

Workloads (sizes at the default scale; ``--quick`` shrinks them to a smoke test):

* ``chain``     3,000 small element-wise ops (mul, add, tanh on 16 numbers), then backward:
                pure per-op overhead, forward and backward.
* ``mlp``       one training step of a 784 -> 256 -> 10 MLP on a batch of 64, MSE loss,
                written with plain tensor ops, plus an SGD update: big matmuls, few ops.
* ``long``      the same chain with 100,000 ops: the engine must not recurse, and must stay
                linear in the graph size.
* ``slices``    100 pieces of 128x128 put into a zeros tensor by slice assignment, then
                backward; ``cat``: the same result from ``cat``. As lesson 08 shows, slice
                assignment is much slower in backward (each CopySlices clones the whole
                gradient), so both the engine ratios and the slice/cat ratio per engine print.

Before timing, the gradients of both engines are compared, so a fast but wrong engine
does not go unnoticed.
"""

from __future__ import annotations

import os
import sys

# One thread for NumPy's BLAS and torch, set before either is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import minigrad  # noqa: E402

# The most minigrad may take, as a multiple of torch's time (issue 12's targets; the long
# chain and slices must be no worse than when the issue was written).
TARGETS = {"chain": 2.5, "mlp": 1.15, "long": 2.5, "slices": 0.8, "cat": 3.0}
ROUNDS = 5  # alternating rounds per workload: minigrad, torch, minigrad, torch...
ENGINES = {"minigrad": minigrad, "torch": torch}

# name -> (default size, quick size); the size is the workload's main count.
SIZES = {
    "chain": (3_000, 30),
    "mlp": (64, 4),
    "long": (100_000, 300),
    "slices": ((100, 128), (5, 8)),
}


# --- the workloads -----------------------------------------------------------------------------
# Each ``make_*`` takes an engine module (minigrad or torch), the size and the shared NumPy
# data, and returns ``(run, leaves)``: ``run()`` does one forward+backward, ``leaves`` are the
# tensors whose ``.grad`` is compared between the engines.


def _leaf(lib, array):
    return lib.tensor(array.copy(), requires_grad=True)


def make_chain(lib, n_ops, data):
    x = _leaf(lib, data["x"])
    c = lib.tensor(data["c"].copy())

    def run():
        x.grad = None
        y = x
        for i in range(n_ops):
            k = i % 3
            if k == 0:
                y = y * c
            elif k == 1:
                y = y + 0.01
            else:
                y = y.tanh()
        y.sum().backward()

    return run, [x]


def make_mlp(lib, batch, data):
    x = lib.tensor(data["inputs"][:batch].copy())
    target = lib.tensor(data["targets"][:batch].copy())
    params = [_leaf(lib, data[k]) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def run():
        for p in params:
            p.grad = None
        h = (x @ w1.t() + b1).relu()
        y = h @ w2.t() + b2
        loss = ((y - target) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= 0.01 * p.grad

    return run, params


def _pieces(lib, count, side, data):
    return [_leaf(lib, data["pieces"][i, :side, :side]) for i in range(count)]


def make_slices(lib, size, data):
    count, side = size
    pieces = _pieces(lib, count, side, data)

    def run():
        for p in pieces:
            p.grad = None
        out = lib.zeros(count * side, side)
        for i, p in enumerate(pieces):
            out[i * side:(i + 1) * side] = p
        (out * out).sum().backward()

    return run, pieces


def make_cat(lib, size, data):
    count, side = size
    pieces = _pieces(lib, count, side, data)

    def run():
        for p in pieces:
            p.grad = None
        out = lib.cat(pieces, 0)
        (out * out).sum().backward()

    return run, pieces


def shared_data(quick: bool) -> dict:
    """The inputs, made once with NumPy and copied into both engines (their RNGs differ)."""
    rng = np.random.default_rng(0)
    f = np.float32
    count, side = SIZES["slices"][1 if quick else 0]
    return {
        "x": rng.standard_normal(16).astype(f),
        "c": rng.uniform(0.9, 1.1, 16).astype(f),
        "inputs": rng.standard_normal((64, 784)).astype(f),
        "targets": rng.standard_normal((64, 10)).astype(f),
        "w1": (rng.standard_normal((256, 784)) / 28).astype(f),
        "b1": np.zeros(256, f),
        "w2": (rng.standard_normal((10, 256)) / 16).astype(f),
        "b2": np.zeros(10, f),
        "pieces": rng.standard_normal((count, side, side)).astype(f),
    }


# --- timing ---------------------------------------------------------------------------------


def best_time(run, repeat: int, budget: float) -> float:
    """Best of up to ``repeat`` runs; stops early once ``budget`` seconds are used (always
    at least one run)."""
    best = float("inf")
    spent = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        spent += elapsed
        if spent > budget:
            break
    return best


def check_grads(name, grads) -> None:
    """The two engines must agree before their speeds are worth comparing."""
    for got, want in zip(grads["minigrad"], grads["torch"]):
        if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
            raise SystemExit(f"bench: {name}: minigrad's gradient differs from torch's "
                             f"(max abs diff {np.abs(got - want).max():.3g})")


def measure(name, make, size, data, repeat, budget) -> dict:
    """Time one workload on both engines. The first run is the warm-up; its gradients
    (taken before any SGD update changes the weights) are compared between the engines."""
    runs, grads = {}, {}
    for engine, lib in ENGINES.items():
        run, leaves = make(lib, size, data)
        run()
        grads[engine] = [p.grad.numpy().copy() for p in leaves]
        runs[engine] = run
    check_grads(name, grads)
    times = dict.fromkeys(ENGINES, float("inf"))
    for _ in range(ROUNDS):
        for engine, run in runs.items():
            times[engine] = min(times[engine], best_time(run, repeat, budget / ROUNDS))
    return times


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:8.2f} s "
    return f"{seconds * 1e3:8.2f} ms"


def report_line(label: str, times: dict, target: float) -> str:
    ratio = times["minigrad"] / times["torch"]
    verdict = "ok" if ratio <= target else "MISS"
    return (f"{label:<28}{fmt_time(times['minigrad'])}  {fmt_time(times['torch'])}  "
            f"ratio {ratio:7.2f}x  target {target:4.2f}x  {verdict}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes: a smoke test of the script, not a measurement")
    parser.add_argument("--repeat", type=int, default=20,
                        help=f"timed runs per round, workload and engine ({ROUNDS} rounds; "
                             "the best is kept; default 20)")
    parser.add_argument("--budget", type=float, default=3.0,
                        help="seconds per workload and engine, over all rounds, after which "
                             "a round stops early (default 3)")
    parser.add_argument("--only", nargs="*", choices=["chain", "mlp", "long", "slices"],
                        help="run only these workloads")
    parser.add_argument("--same-process", action="store_true",
                        help="run every workload in this process (by default each runs in a "
                             "fresh process: after the long chain, torch's slice assignment "
                             "alone was seen to take 10 times longer)")
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    scale = 1 if args.quick else 0
    data = shared_data(args.quick)
    chosen = args.only or ["chain", "mlp", "long", "slices"]

    print(f"minigrad {minigrad.__version__} vs torch {torch.__version__}, numpy "
          f"{np.__version__}, one thread each; best of {ROUNDS} alternating rounds of up to "
          f"{args.repeat} runs after a warm-up"
          f"{' (--quick sizes)' if args.quick else ''}")
    print(f"{'workload (forward+backward)':<28}{'minigrad':>11}  {'torch':>11}  "
          "ratio minigrad/torch")
    start = time.perf_counter()
    if len(chosen) > 1 and not args.same_process:
        return _each_in_its_own_process(chosen, args, start)
    results = {}
    plans = {"chain": ("chain", make_chain), "mlp": ("mlp", make_mlp),
             "long": ("long", make_chain)}
    for key in chosen:
        size = SIZES[key][scale]
        if key == "slices":
            count, side = size
            slices = measure("slices", make_slices, size, data, args.repeat, args.budget)
            cat = measure("cat", make_cat, size, data, args.repeat, args.budget)
            print(report_line(f"slices: {count} x [{side}, {side}]", slices, TARGETS["slices"]))
            print(report_line(f"cat:    {count} x [{side}, {side}]", cat, TARGETS["cat"]))
            for engine in ENGINES:
                print(f"  {engine:<9} slice assignment / cat: "
                      f"{slices[engine] / cat[engine]:6.2f}x slower")
            results["slices"], results["cat"] = slices, cat
            continue
        name, make = plans[key]
        times = measure(name, make, size, data, args.repeat, args.budget)
        label = {"chain": f"chain: {size:,} ops", "mlp": f"mlp step: batch {size}",
                 "long": f"long chain: {size:,} ops"}[key]
        print(report_line(label, times, TARGETS[key]))
        if key in ("chain", "long"):
            per_op = {e: t / size * 1e6 for e, t in times.items()}
            print(f"  per op (forward+backward): minigrad {per_op['minigrad']:.1f} us, "
                  f"torch {per_op['torch']:.1f} us")
        results[key] = times
    misses = [k for k, t in results.items() if t["minigrad"] / t["torch"] > TARGETS[k]]
    print(f"total {time.perf_counter() - start:.1f} s; "
          f"{len(results) - len(misses)}/{len(results)} within their targets"
          f"{'; missed: ' + ', '.join(misses) if misses else ''}")
    return 0


VERDICT = re.compile(r"ratio\s+[\d.]+x\s+target\s+[\d.]+x\s+(ok|MISS)$")


def _each_in_its_own_process(chosen, args, start) -> int:
    """Run this script once per workload (``--only KEY --same-process``) and print what each
    reports, under one header and one total line."""
    misses, done = [], 0
    for key in chosen:
        command = [sys.executable, __file__, "--only", key, "--same-process",
                   "--repeat", str(args.repeat), "--budget", str(args.budget)]
        if args.quick:
            command.append("--quick")
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            raise SystemExit(f"bench: the {key} workload failed (exit status {proc.returncode})")
        for line in proc.stdout.splitlines()[2:-1]:  # its own header and total line left out
            print(line, flush=True)
            verdict = VERDICT.search(line)
            if verdict:
                done += 1
                if verdict[1] == "MISS":
                    label = line.split(":")[0]
                    misses.append({"mlp step": "mlp", "long chain": "long"}.get(label, label))
    print(f"total {time.perf_counter() - start:.1f} s; {done - len(misses)}/{done} within their "
          f"targets{'; missed: ' + ', '.join(misses) if misses else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
