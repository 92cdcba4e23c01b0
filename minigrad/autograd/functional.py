"""``autograd.functional``: whole Jacobians (and Hessians) of a function, built from AD passes.

A Jacobian has one row per output element and one column per input element. Reverse mode gets
a *row* per backward pass (a one-hot ``grad_output``), so it suits few outputs; forward mode
gets a *column* per forward pass (a one-hot tangent), so it suits few inputs. Both loop over
the one-hot vectors: ``vectorize=True`` is accepted (torch needs it for forward mode) but does
not batch the passes as torch's ``vmap`` does; the results are the same.
"""

from __future__ import annotations

import numpy as np

from minigrad._creation import zeros
from minigrad._ops.join import stack
from minigrad._tensor import Tensor
from minigrad.autograd import forward_ad, grad_mode
from minigrad.autograd.api import grad

__all__ = ["jacobian", "hessian"]


def _as_tuple(x, arg_name, fn_name):
    is_tuple = isinstance(x, tuple | list)
    items = tuple(x) if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or "
                                f"a tuple of Tensors but the value at index {i} has type "
                                f"{type(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the given {arg_name} has type {type(el)}.")
    return is_tuple, items


def _prepare(inputs, create_graph):
    """Fresh leaves to differentiate with respect to (views, under create_graph, so the
    result stays connected to the caller's graph), as torch's ``_grad_preprocess``."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad
                 else x.detach().requires_grad_() for x in inputs)


def _one_hot(n, k, like):
    data = np.zeros(n, dtype=like._data.dtype)
    data[k] = 1
    return Tensor._make(data.reshape(like._data.shape))


def _shape_result(jac, out_tuple, in_tuple, seq=tuple):
    """Tensors for single inputs/outputs, else nested sequences (torch's forward mode gives
    lists where its reverse mode gives tuples)."""
    if not out_tuple and not in_tuple:
        return jac[0][0]
    if not out_tuple:
        return seq(jac[0])
    if not in_tuple:
        return tuple(row[0] for row in jac)
    return seq(seq(row) for row in jac)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: ``jac[i][j]`` has shape
    ``outputs[i].shape + inputs[j].shape``."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             'Hint: If your function has more outputs than inputs, "forward-mode" '
                             'tends to be more performant. Otherwise, prefer to use '
                             '"reverse-mode".')
    if strategy == "forward-mode":
        if strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and '
                               '`strategy="forward-mode"` are not supported together (yet). '
                               'Please either set `strict=False` or `strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-"
                                      "reverse Hessian isonly implemented for `vectorize=True`.")
    with grad_mode.enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        if strategy == "reverse-mode":  # torch's forward mode uses the inputs as they are
            inputs = _prepare(inputs, create_graph)
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                       "jacobian")
        if strategy == "forward-mode":
            jac = _forward_jacobian(func, inputs, outputs)
            return _shape_result(jac, out_tuple, in_tuple, seq=list)
        jac = _reverse_jacobian(inputs, outputs, create_graph, strict)
    return _shape_result(jac, out_tuple, in_tuple)


def _reverse_jacobian(inputs, outputs, create_graph, strict):
    for i, out in enumerate(outputs):
        if strict and not out.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require "
                               "gradients. The outputs must be computed in a differentiable "
                               "manner from the input when running in strict mode.")
    jac = []
    for i, out in enumerate(outputs):
        rows = [[] for _ in inputs]
        for k in range(out.numel()):
            grads = (None,) * len(inputs)
            if out.requires_grad:
                grads = grad(out, inputs, _one_hot(out.numel(), k, out), retain_graph=True,
                             create_graph=create_graph, allow_unused=True)
            for j, (g, x) in enumerate(zip(grads, inputs)):
                if g is None:
                    if strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is "
                                           f"independent of input {j}. This is not allowed in "
                                           "strict mode.")
                    g = zeros(*x.shape, dtype=x.dtype)
                rows[j].append(g)
        jac.append([_assemble(r, out, x, stack, zeros) for r, x in zip(rows, inputs)])
    return jac


def _assemble(rows, out, x, stack, zeros):
    if not rows:
        return zeros(*out.shape, *x.shape, dtype=x.dtype)
    return stack(rows, 0).reshape(*out.shape, *x.shape)


def _forward_jacobian(func, inputs, outputs):
    """One dual pass per input element: the tangents of the outputs are Jacobian columns."""
    columns = [[[] for _ in inputs] for _ in outputs]
    for j, x in enumerate(inputs):
        for k in range(x.numel()):
            with forward_ad.dual_level():
                args = [forward_ad.make_dual(x, _one_hot(x.numel(), k, x)) if m == j else a
                        for m, a in enumerate(inputs)]
                outs = func(*args)
                outs = outs if isinstance(outs, tuple | list) else (outs,)
                for i, o in enumerate(outs):
                    t = forward_ad.unpack_dual(o).tangent
                    columns[i][j].append(zeros(*o.shape, dtype=o.dtype) if t is None else t)
    jac = []
    for i, out in enumerate(outputs):
        row = []
        for j, x in enumerate(inputs):
            cols = columns[i][j]
            row.append(stack(cols, -1).reshape(*out.shape, *x.shape) if cols
                       else zeros(*out.shape, *x.shape, dtype=out.dtype))
        jac.append(row)
    return jac


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Jacobian of the gradient: the inner Jacobian is built with ``create_graph=True``
    so that the outer one can differentiate it again."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def jac_func(*inp):
        return jacobian(func, inp if in_tuple else inp[0], create_graph=True)

    return jacobian(jac_func, inputs if in_tuple else inputs[0], create_graph=create_graph,
                    strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)
