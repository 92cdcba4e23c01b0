"""gradcheck: is a backward formula right? Compare it with finite differences.

For every input element ``x_k``, the *numerical* Jacobian column is the central difference
``(f(x + eps e_k) - f(x - eps e_k)) / (2 eps)``; for every output element, the *analytical*
Jacobian row is one backward pass with a one-hot ``grad_output``. Both are laid out as torch
lays them out, ``(input.numel(), output.numel())``, and compared with
``|analytical - numerical| <= atol + rtol * |numerical|``. Use float64 inputs: with float32,
``eps = 1e-6`` is lost in rounding. ``gradgradcheck`` runs the same test on the function that
computes the gradient, which checks the second derivatives.

This is torch's "slow mode": ``fast_mode``, batched checks and ``check_undefined_grad`` are
not implemented (the last is accepted and ignored).
"""

from __future__ import annotations

import warnings

import numpy as np

from minigrad._creation import empty
from minigrad._dtype import float64
from minigrad._tensor import Tensor
from minigrad.autograd import forward_ad
from minigrad.autograd.api import grad

FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


class GradcheckError(RuntimeError):
    """Raised by gradcheck when a check fails (a RuntimeError, as torch's is)."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, list | tuple) else (x,)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _diff_inputs(inputs):
    return [x for x in inputs if _is_tensor(x) and x.requires_grad]


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _check_inputs(inputs) -> None:
    found = False
    for idx, x in enumerate(inputs):
        if _is_tensor(x) and x.requires_grad:
            if x._data.dtype != np.float64:
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision "
                              "floating point or complex. This check will likely fail if all "
                              "the inputs are not of double precision floating point or "
                              "complex. ", stacklevel=3)
            # an empty tensor has no elements to overlap (torch: _debug_has_internal_overlap)
            if x.numel() and any(st == 0 and sz > 1 for st, sz in zip(x.stride(), x.shape)):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                    "inputs that are non-overlapping to be able to compute the numerical "
                    "gradients correctly. You should call .contiguous on the input before "
                    "passing it to gradcheck.")
            found = True
    if not found:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")


# --- the two Jacobians ----------------------------------------------------------------------------
def _numerical_jacobian(func, inputs, eps):
    """``result[j][i]``: d(output i)/d(differentiable input j), ``(in.numel, out.numel)``.

    Each input element is nudged in place (in its NumPy array, so no version bump) and put
    back afterwards."""
    def values():
        return [o._data.copy() for o in _as_tuple(func(*inputs)) if _is_tensor(o)]

    result = []
    for x in _diff_inputs(inputs):
        columns = []
        for idx in np.ndindex(x._data.shape):
            orig = x._data[idx].copy()
            x._data[idx] = orig - eps        # torch's order: minus first (matters for RNG)
            minus = values()
            x._data[idx] = orig + eps
            plus = values()
            x._data[idx] = orig
            columns.append([_central_difference(p, m, eps) for p, m in zip(plus, minus)])
        n_out = len(columns[0]) if columns else len(values())
        result.append([_rows(columns, i, x, values) for i in range(n_out)])
    return result


def _central_difference(plus, minus, eps):
    """``(f(x + eps) - f(x - eps)) / (2 eps)`` in the output's dtype, as torch computes it
    (a float32 function gets a float32 Jacobian, printed without a dtype)."""
    return ((Tensor._make(plus) - Tensor._make(minus)) / (2 * eps))._data.reshape(-1)


def _rows(columns, i, x, values):
    if columns:
        return np.stack([c[i] for c in columns])
    return np.zeros((0, values()[i].size))


def _analytical_jacobian(inputs, output, nondet_tol, check_grad_dtypes):
    """One backward per output element, twice, to check backward is deterministic."""
    diff = _diff_inputs(inputs)
    first, types_ok, sizes_ok = _vjp_rows(diff, output)
    second, _, _ = _vjp_rows(diff, output)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    for a, b in zip(first, second):
        if a.shape != b.shape or not np.all(np.abs(a - b) <= nondet_tol):
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and "
                "grad_output multiple times gives different values, although analytical "
                "gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG)
    return first


def _vjp_rows(diff, output):
    jac = [np.zeros((x.numel(), output.numel()), dtype=x._data.dtype) for x in diff]
    types_ok = sizes_ok = True
    flat = np.zeros(output.numel(), dtype=output._data.dtype)
    for k in range(output.numel()):
        flat[:] = 0
        flat[k] = 1
        seed = Tensor._make(flat.reshape(output._data.shape).copy())
        grads = grad(output, diff, seed, retain_graph=True, allow_unused=True)
        for j, (g, x) in enumerate(zip(grads, diff)):
            if g is None:
                continue
            if g.shape != x.shape:
                sizes_ok = False
                continue
            if g.dtype is not x.dtype:
                types_ok = False
            jac[j][:, k] = g._data.reshape(-1)
    return jac, types_ok, sizes_ok


def _forward_jacobian(func, inputs, out_sizes):
    """Forward mode: one dual pass per input element gives one row of every Jacobian (an input
    of no elements: no pass, and Jacobians of no rows, one column per output element)."""
    result = []
    for x in _diff_inputs(inputs):
        rows = []
        for k in range(x.numel()):
            onehot = np.zeros(x.numel(), dtype=x._data.dtype)
            onehot[k] = 1
            with forward_ad.dual_level():
                dual = forward_ad.make_dual(x.detach(), Tensor._make(onehot.reshape(x.shape)))
                args = [dual if a is x else a for a in inputs]
                outs = [o for o in _as_tuple(func(*args)) if _is_tensor(o)]
                tangents = [forward_ad.unpack_dual(o).tangent for o in outs]
            rows.append([np.zeros(o.numel()) if t is None else t._data.reshape(-1)
                         for o, t in zip(outs, tangents)])
        result.append([np.stack([r[i] for r in rows]).astype(x._data.dtype) if rows
                       else np.zeros((0, size), dtype=x._data.dtype)
                       for i, size in enumerate(out_sizes)])
    return result


def _notallclose_msg(analytical, numerical, output_idx, input_idx, forward=False) -> str:
    mode = "computed with forward mode " if forward else ""
    return (f"Jacobian {mode}mismatch for output {output_idx:d} with respect to input "
            f"{input_idx:d},\nnumerical:{Tensor._make(numerical)}\n"
            f"analytical:{Tensor._make(analytical)}\n")


# --- the public checks ----------------------------------------------------------------------------
def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """True if the analytical Jacobians match finite differences; else raises
    ``GradcheckError`` with both Jacobians (or returns False with ``raise_exception=False``)."""
    if fast_mode or check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("minigrad's gradcheck implements torch's slow mode only "
                                  "(fast_mode and batched checks are not supported)")
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
                          check_forward_ad, check_backward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, check_forward_ad,
               check_backward_ad) -> bool:
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable_outputs(func_out)
    numerical = _numerical_jacobian(func, inputs, eps)  # [input][output]
    if not outputs:
        for per_input in numerical:
            if any(np.any(n != 0) for n in per_input):
                raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    keep = [i for i, o in enumerate(o for o in func_out if _is_tensor(o)) if o.requires_grad]
    numerical = [[per_input[i] for i in keep] for per_input in numerical]
    if check_backward_ad:
        for i, out in enumerate(outputs):
            analytical = _analytical_jacobian(inputs, out, nondet_tol, check_grad_dtypes)
            for j, (a, n) in enumerate(zip(analytical, (p[i] for p in numerical))):
                if not np.allclose(a, n.astype(a.dtype), rtol=rtol, atol=atol):
                    raise GradcheckError(_notallclose_msg(a, n, i, j))
    if check_forward_ad:
        forward = _forward_jacobian(func, inputs, [o.numel() for o in func_out if _is_tensor(o)])
        for j, per_input in enumerate(forward):
            for i, k in enumerate(keep):
                a, n = per_input[k], numerical[j][i]
                if not np.allclose(a, n.astype(a.dtype), rtol=rtol, atol=atol):
                    raise GradcheckError(_notallclose_msg(a, n, i, j, forward=True))
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False,
                  masked: bool = False) -> bool:
    """gradcheck of ``(inputs, grad_outputs) -> autograd.grad(func(inputs), inputs,
    grad_outputs, create_graph=True)``: second derivatives against finite differences of the
    first. Missing ``grad_outputs`` are random in [-1, 1), drawn from the global generator as
    torch's ``make_tensor`` draws them (``uniform_``), so later random numbers stay torch's."""
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _differentiable_outputs(func(*inputs))
        grad_outputs = tuple(
            empty(o.shape, dtype=o.dtype if o.dtype.is_floating_point else float64)
            .uniform_(-1, 1).requires_grad_()
            for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(grad_outputs)

    def new_func(*args):
        outs = _differentiable_outputs(func(*args[:-n]))
        diff = _diff_inputs(args[:-n])
        grads = grad(outs, diff, args[-n:], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, fast_mode=fast_mode)
