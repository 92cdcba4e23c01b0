"""How close minigrad's float32 results are to torch's on this CPU: a report, not a test.

For each op of ``tests/float32_ulps.py`` (100k inputs in each of three ranges), the fraction of
forward values and gradients bit-identical to torch's, the largest distance in float32 steps
(ulps), and each engine's largest error as a fraction of its budget (<= 1: within it; the test
suite asserts that). The fractions depend on the CPU (torch's MKL, SLEEF and fused multiply-add
paths differ between processors and ``ATEN_CPU_CAPABILITY``), so they are printed with the
CPU's capabilities, never used as a floor.

    ./course bench --float32            (or python benchmarks/float32_report.py [--quick])
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch
from numpy._core._multiarray_umath import __cpu_features__

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import float32_ulps  # noqa: E402  (the repository root, put on the path above)


def capabilities() -> str:
    """torch's kernel capability and NumPy's SIMD features, as this process sees them."""
    numpy_simd = [name for name, on in __cpu_features__.items() if on]
    aten = torch.backends.cpu.get_cpu_capability()
    return (f"torch {torch.__version__}: ATen CPU capability {aten}"
            f"\nNumPy {np.__version__}: {' '.join(numpy_simd)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 inputs per range, not 100,000")
    parser.add_argument("--only", nargs="+", choices=sorted(float32_ulps.OPS), help="these ops")
    args = parser.parse_args(argv)
    print(capabilities())
    print(f"{'op':<11} {'result':<7} {'bit-identical':>13} {'max ulps':>9} "
          f"{'ours/budget':>12} {'torch/budget':>13}")
    worst = 0.0
    for name in args.only or float32_ulps.OPS:
        for key, s in float32_ulps.measure(name, n=1_000 if args.quick else float32_ulps.N).items():
            worst = max(worst, s["ours"])
            print(f"{name:<11} {key:<7} {100 * s['same']:>12.2f}% {s['ulps']:>9} "
                  f"{s['ours']:>12.3f} {s['torch']:>13.3f}")
    print(f"minigrad's largest error: {worst:.3f} of its budget"
          + ("" if worst <= 1 else "  OVER BUDGET"))
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
