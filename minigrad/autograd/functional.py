"""``autograd.functional``: vector-Jacobian, Jacobian-vector and Hessian products, and whole
Jacobians and Hessians, of a function given as a Python callable (torch's
``torch.autograd.functional``, ported function for function).

Each one calls the function on fresh leaves (``_grad_preprocess``), then runs ``grad()``:

* ``vjp``: ``v^T J``, one backward pass;
* ``jvp``: ``J v``, by torch's *double-backward trick*: ``g(u) = u^T J`` is linear in ``u``,
  so differentiating ``g`` with respect to a dummy ``u`` (zeros that require grad) in the
  direction ``v`` gives ``J v``, with reverse mode only;
* ``vhp`` / ``hvp``: ``v^T H`` and ``H v``, the same two ideas one order higher;
* ``jacobian`` / ``hessian``: one backward pass per output element (reverse mode), or one
  forward-mode pass per input element (``strategy="forward-mode"``).

``vectorize=True`` is accepted and gives the same results, but does not batch the passes as
torch's ``vmap`` does: minigrad has no ``vmap``.
"""

from __future__ import annotations

import numpy as np

from minigrad._creation import zeros, zeros_like
from minigrad._ops import REQUIRES_GRAD_UNDER_TRANSFORMS, _vmap_hook
from minigrad._ops.join import stack
from minigrad._tensor import Tensor
from minigrad.autograd import forward_ad, grad_mode
from minigrad.autograd.api import grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(inp, arg_name, fn_name):
    """``(was_it_a_tuple, items)``; only a tuple counts as several (a list is an error), as
    in torch."""
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or "
                                f"a tuple of Tensors but the value at index {i} has type "
                                f"{type(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the given {arg_name} has type {type(el)}.")
    return is_tuple, items


def _tuple_postprocess(res, to_unpack):
    """Unwrap the one-element levels the caller did not ask for as tuples."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph, need_graph):
    """Fresh leaves to differentiate with respect to; under ``create_graph`` an input that
    requires grad becomes a view of itself, so the result stays connected to its graph.
    Inside torch.func's transforms, the fresh leaf's ``requires_grad_()`` is torch's error."""
    if (_vmap_hook.active or _vmap_hook.transforms) and not all(
            create_graph and x.requires_grad for x in inputs):
        raise RuntimeError(REQUIRES_GRAD_UNDER_TRANSFORMS)
    return tuple(x.view_as(x) if create_graph and x.requires_grad
                 else x.detach().requires_grad_(need_graph) for x in inputs)


def _grad_postprocess(inputs, create_graph):
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(x.detach() for x in inputs)
    return tuple(_grad_postprocess(x, create_graph) for x in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got "
                               f"{len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but "
                               f"got {el_v.size()}.")


def _check_requires_grad(inputs, input_type, strict):
    """In strict mode, every result of a stage must depend on the inputs."""
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if inp.requires_grad:
            continue
        if input_type == "hessian":
            raise RuntimeError(
                f"The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should "
                "ensure that your function is thrice differentiable and that the hessian "
                "depends on the inputs.")
        if input_type == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).")
        if input_type == "grad_inputs":
            raise RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the "
                "user-provided function. This is not allowed in strict mode.")
        raise RuntimeError(
            f"Output {i} of the user-provided function does not require gradients. The outputs "
            "must be computed in a differentiable manner from the input when running in strict "
            "mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None,
                   is_grads_batched=False):
    """``grad()`` over the outputs that require grad only (``None`` for all if none does)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return grad(tuple(o for o, _ in kept), inputs, tuple(g for _, g in kept), allow_unused=True,
                create_graph=create_graph, retain_graph=retain_graph,
                is_grads_batched=is_grads_batched)


_STRICT_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
            "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """A missing gradient is zeros (an error in strict mode)."""
    res = ()
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_STRICT_NONE[stage].format(i=i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        res += (g,)
    return res


def _prepare_v(v, against, is_tuple, create_graph, fn_name):
    _, v = _as_tuple(v, "v", fn_name)
    v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
    _validate_v(v, against, is_tuple)
    return v


def _single_element_input(inputs):
    if len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the outputs and the vector-Jacobian product."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs),
                                              "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if v is not None:
            v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp")
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "back")
    return (_tuple_postprocess(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(res, create_graph), is_inputs_tuple))


def _inputs_and_v(inputs, v, create_graph, fn_name):
    """The inputs as a tuple ready to differentiate, and ``v`` checked against them (``v`` may
    be None only for a single one-element input), as jvp, vhp and hvp all start."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    if v is not None:
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, fn_name)
    else:
        _single_element_input(inputs)
    return is_inputs_tuple, inputs, v


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``, by the double-backward trick (see the module docstring)."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "jvp")
        is_outputs_tuple, outputs = _as_tuple(func(*inputs),
                                              "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, outputs, strict, create_graph, "back_trick")
    return (_tuple_postprocess(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(res, create_graph), is_outputs_tuple))


def _scalar_function_outputs(func, inputs, strict, fn_name):
    is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                          fn_name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    if is_outputs_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")
    return is_outputs_tuple, outputs


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)`` for a scalar function: the gradient, differentiated again."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "vhp")
        is_outputs_tuple, outputs = _scalar_function_outputs(func, inputs, strict, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back")
    return (_tuple_postprocess(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(res, create_graph), is_inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)``: the double-backward trick applied to the gradient."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "hvp")
        is_outputs_tuple, outputs = _scalar_function_outputs(func, inputs, strict, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back_trick")
    return (_tuple_postprocess(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(res, create_graph), is_inputs_tuple))


def _one_hot(n, k, like):
    data = np.zeros(n, dtype=like._data.dtype)
    data[k] = 1
    return Tensor._make(data.reshape(like._data.shape))


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
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs),
                                              "outputs of the user-provided function",
                                              "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                               "`vectorized=True` are not supported together. Please either set "
                               "`strict=False` or `vectorize=False`.")
        if vectorize:
            jac = _jacrev_batched(outputs, inputs, create_graph)
            return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))
        jac = ()
        for i, out in enumerate(outputs):
            rows = tuple([] for _ in inputs)
            flat = out.reshape(-1)
            for k in range(out.nelement()):
                vj = _autograd_grad((flat[k],), inputs, retain_graph=True,
                                    create_graph=create_graph)
                for j, (row, g, x) in enumerate(zip(rows, vj, inputs)):
                    if g is not None:
                        if strict and create_graph and not g.requires_grad:
                            raise RuntimeError(
                                "The jacobian of the user-provided function is independent of "
                                f"input {i}. This is not allowed in strict mode when "
                                "create_graph=True.")
                        row.append(g)
                    else:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {j}. This is not allowed in strict mode.")
                        row.append(zeros_like(x))
            jac += (tuple(_stack_rows(row, out.size() + x.size(), x)
                          for row, x in zip(rows, inputs)),)
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _standard_basis(tensors, numels):
    """torch's ``_construct_standard_basis_for``: one block per tensor, together the identity
    over all their elements (rows: every element of every tensor; block i: tensor i's)."""
    total, start, chunks = sum(numels), 0, []
    for t, n in zip(tensors, numels):
        chunk = t.new_zeros(total, n)
        chunk.diagonal(start).fill_(1)
        start -= n
        chunks.append(chunk)
    return tuple(chunks)


def _jacrev_batched(outputs, inputs, create_graph):
    """``jacobian(vectorize=True)``, as torch computes it: the gradients of all the flattened
    outputs at once, batched over a basis of their elements (``is_grads_batched``), split
    back per output. An input no output needs gets expanded zeros, as torch's."""
    numels = tuple(out.numel() for out in outputs)
    flat = tuple(out.reshape(-1) for out in outputs)
    vj = _autograd_grad(flat, inputs, _standard_basis(outputs, numels),
                        create_graph=create_graph, is_grads_batched=True)
    vj = [zeros_like(x).expand((sum(numels), *x.shape)) if g is None else g
          for g, x in zip(vj, inputs)]
    per_input = [[jac.view(*out.shape, *x.shape) for jac, out in zip(g.split(numels), outputs)]
                 for g, x in zip(vj, inputs)]
    return _grad_postprocess(tuple(zip(*per_input)), create_graph)


def _stack_rows(rows, shape, like):
    if not rows:  # an output with no element
        return zeros(*shape, dtype=like.dtype)
    return stack(rows, 0).view(shape)


def _jacfwd(func, inputs, strict, vectorize):
    """Forward mode: one dual pass per input element, whose output tangents are Jacobian
    columns. torch gives lists here where reverse mode gives tuples."""
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and '
                           '`strategy="forward-mode"` are not supported together (yet). Please '
                           'either set `strict=False` or `strategy="reverse-mode"`.')
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    columns, outputs, is_outputs_tuple = None, None, False
    for j, x in enumerate(inputs):
        for k in range(x.numel()):
            with forward_ad.dual_level():
                # every input dual, as in torch's one vmapped pass over a basis of all of
                # them: an output that needs only other inputs still has a (zero) tangent
                args = [forward_ad.make_dual(a, _one_hot(x.numel(), k, x) if m == j
                                             else zeros_like(a))
                        for m, a in enumerate(inputs)]
                outs = func(*args)
                is_outputs_tuple = isinstance(outs, tuple)
                outs = tuple(outs) if is_outputs_tuple else (outs,)
                if columns is None:
                    columns = [[[] for _ in inputs] for _ in outs]
                    outputs = [forward_ad.unpack_dual(o).primal for o in outs]
                for i, o in enumerate(outs):
                    t = forward_ad.unpack_dual(o).tangent
                    columns[i][j].append(zeros_like(o) if t is None else t)
    if outputs is None:  # no input element at all: one call for the outputs' shapes
        outs = func(*inputs)
        is_outputs_tuple = isinstance(outs, tuple)
        outputs = tuple(outs) if is_outputs_tuple else (outs,)
        columns = [[[] for _ in inputs] for _ in outputs]
    # as torch: its vmap's batch of tangents (the columns, along dim 0) moved last, then
    # split into the input's shape (a permuted view: ReshapeAliasBackward0 under a hessian)
    jac = [[_columns_last(stack(cols, 0)).reshape(*out.shape, *x.shape) if cols
            else zeros(*out.shape, *x.shape, dtype=out.dtype)
            for cols, x in zip(columns[i], inputs)]
           for i, out in enumerate(outputs)]
    return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _columns_last(batch):
    return batch.permute(*range(1, batch.dim()), 0)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Jacobian of the gradient of a scalar function: the inner Jacobian is built with
    ``create_graph=True`` so that the outer one can differentiate it again."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))
