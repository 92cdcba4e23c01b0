"""Forward-mode transforms: ``jvp``, ``jacfwd`` and ``hessian``, as ``torch.func``.

``jvp`` runs the function on dual tensors (``minigrad.autograd.forward_ad``): each op's
forward-mode rule carries the tangent along with the value. minigrad, like torch's
``forward_ad``, has a single dual level, so a ``jvp`` inside another (``jacfwd(jacfwd(f))``)
computes its product with reverse mode instead: with ``g(u) = J^T u`` (a vjp recorded with
``create_graph``, linear in ``u``), the vjp of ``g`` in direction ``v`` is ``J v``. The numbers
are the same Jacobian-vector product, summed in another order.

``jacfwd`` pushes the standard basis (one direction per input element) through ``jvp`` under
``vmap``, as torch does: the function runs once, its inputs' tangents batched tensors, and each
op's forward rule computes every direction at once through the batching rules (a rule that
cannot runs once per direction, torch's fallback). Its ``randomness`` argument means what
vmap's does. ``hessian`` is
``jacfwd(jacrev(f))``: forward over reverse, torch's choice.

Inside vmap, ``jvp`` given batched primals runs on the batch (``_jvp_of_batch``): the duals
are the batches themselves, and the function runs once, as torch's.
"""

from __future__ import annotations

from functools import wraps

from minigrad._creation import zeros_like
from minigrad._ops import _vmap_hook
from minigrad._tensor import Tensor
from minigrad.autograd.forward_ad import dual_level, make_dual, unpack_dual
from minigrad.autograd.forward_grad import _state
from minigrad.autograd.grad_mode import inference_mode, is_inference_mode_enabled
from minigrad.func._batched import BatchedTensor, Unbatchable, holds_batched, transform_per_sample
from minigrad.func._pytree import tree_flatten, tree_map, tree_unflatten
from minigrad.func.eager_transforms import (
    ForwardLevel,
    Level,
    _batch_of,
    _check_non_empty_tensor_output,
    _NotOnTheBatch,
    autograd_grad,
    forward_levels,
    jacrev,
    replace_argnums,
    slice_argnums,
    standard_basis,
)
from minigrad.func.vmap import vmap

__all__ = ["jvp", "jacfwd", "hessian", "linearize"]

_JVP = "jvp(f, primals, tangents)"


def jvp(func, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J @ tangents)``: the output and its directional derivative along
    ``tangents`` (one per primal), or ``(output, jvp_out, aux)`` with ``has_aux``."""
    return jvp_with_argnums(func, primals, tangents, argnums=None, strict=strict,
                            has_aux=has_aux)


def jvp_with_argnums(func, primals, tangents, argnums, *, strict=False, has_aux=False):
    """jvp along the primals ``argnums`` names only (jacfwd's use); messages say ``jvp``."""
    if holds_batched(primals):  # inside vmap, batched primals: on the batch, else per sample
        try:
            return _jvp_of_batch(func, primals, tangents, argnums, strict, has_aux)
        except _NotOnTheBatch:
            pass
        return transform_per_sample(jvp_with_argnums, (func, primals, tangents, argnums),
                                    {"strict": strict, "has_aux": has_aux})
    # batched tangents alone (jacfwd's basis) go through the ops' forward rules batched
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    diff_args = primals if argnums is None else slice_argnums(primals, argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{_JVP}: Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, "
                           "tangents also must be. Got primals with structure "
                           f"{primals_spec} and tangents with structure {tangents_spec}")
    _check_tensors(flat_primals, "primals")
    _check_tensors(flat_tangents, "tangents")

    call = _caller(func, primals, argnums, has_aux)
    if _state.level is None:
        result = _forward(call, flat_primals, flat_tangents, primals_spec, strict)
    else:
        result = _double_vjp(call, flat_primals, flat_tangents, primals_spec, strict)
    out, tangent_out, aux, spec = result
    out, tangent_out = tree_unflatten(out, spec), tree_unflatten(tangent_out, spec)
    if has_aux:
        return out, tangent_out, _tensors_only(aux)
    return out, tangent_out


def _caller(func, primals, argnums, has_aux):
    """``func`` of the duals (the other primals as given): ``(output, aux)``."""
    def call(duals):
        args = duals
        if argnums is not None:
            args = replace_argnums(primals, argnums,
                                   duals[0] if isinstance(argnums, int) else duals)
        output = func(*args)
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise RuntimeError(f"{_JVP}: output of function f should be a tuple: "
                                   "(output, aux) if has_aux is True")
            return output
        return output, None
    return call


def _jvp_of_batch(func, primals, tangents, argnums, strict, has_aux):
    """``jvp`` inside vmap with batched primals, on the whole batch: the samples do not
    interact, so the duals are the batches themselves (primals and tangents with the batch
    dim first, an unbatched one expanded along it) and ``func`` runs once on them, as
    torch's does. What cannot (nested vmaps or dual levels, a function reading a sample's
    values, wrong arguments, whose errors the per-sample path gives) raises
    ``_NotOnTheBatch``."""
    if _state.level is not None or not isinstance(primals, tuple):
        raise _NotOnTheBatch
    level_no, size = _batch_of([leaf for leaf in tree_flatten((primals, tangents))[0]
                                if isinstance(leaf, BatchedTensor)])
    diff_args = primals if argnums is None else slice_argnums(primals, argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec or not flat_primals or not all(
            isinstance(t, Tensor) for t in (*flat_primals, *flat_tangents)):
        raise _NotOnTheBatch

    def physical(t):
        if isinstance(t, BatchedTensor):
            return t._value if t._bdim == 0 else t._value.movedim(t._bdim, 0)
        return t.expand(size, *t.shape)

    call = _caller(func, primals, argnums, has_aux)
    try:
        with dual_level():
            duals = []
            for p, t in zip(flat_primals, flat_tangents):
                primal, tangent = physical(p), physical(t)
                if primal.shape != tangent.shape or primal.dtype is not tangent.dtype:
                    raise _NotOnTheBatch
                duals.append(BatchedTensor(make_dual(primal, tangent), 0, level_no))
            _vmap_hook.transforms += 1
            forward_levels.append(ForwardLevel())
            try:
                output, aux = call(tree_unflatten(duals, primals_spec))
            finally:
                forward_levels.pop()
                _vmap_hook.transforms -= 1
            flat, spec = tree_flatten(output)
            _check_non_empty_tensor_output(flat, _JVP)
            outs, tangents_out = [], []
            for dual in flat:
                batched = isinstance(dual, BatchedTensor)
                if batched and (dual._level != level_no or isinstance(dual._value,
                                                                      BatchedTensor)):
                    raise _NotOnTheBatch
                primal, tangent = unpack_dual(dual._value if batched else dual)
                if tangent is None:
                    _independent(strict)
                    tangent = zeros_like(primal)
                if batched:
                    primal = BatchedTensor(primal, dual._bdim, level_no)
                    tangent = BatchedTensor(tangent, dual._bdim, level_no)
                outs.append(primal)
                tangents_out.append(tangent)
    except Unbatchable:
        raise _NotOnTheBatch from None
    out, tangent_out = tree_unflatten(outs, spec), tree_unflatten(tangents_out, spec)
    if has_aux:
        return out, tangent_out, _tensors_only(aux)
    return out, tangent_out


def _check_tensors(items, argname: str) -> None:
    if len(items) == 0:
        raise RuntimeError(f"{_JVP}: Expected {argname} to contain at least one Tensor.")
    for item in items:
        if not isinstance(item, Tensor):
            raise RuntimeError(f"{_JVP}: Expected {argname} to only contain Tensors, got "
                               f"{type(item)}")


def _independent(strict: bool) -> None:
    if strict:
        raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is "
                           "independent of the inputs. This is not allowed with strict=True.")


def _tensors_only(aux):
    def check(x):
        if not isinstance(x, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
        return x
    return tree_map(check, aux)


def _forward(call, flat_primals, flat_tangents, primals_spec, strict):
    """The jvp by forward mode: dual tensors through the function."""
    with dual_level():
        duals = [make_dual(p, t) for p, t in zip(flat_primals, flat_tangents)]
        _vmap_hook.transforms += 1  # (a custom Function inside checks it)
        forward_levels.append(ForwardLevel())
        try:
            output, aux = call(tree_unflatten(duals, primals_spec))
        finally:
            forward_levels.pop()
            _vmap_hook.transforms -= 1
        flat, spec = tree_flatten(output)
        _check_non_empty_tensor_output(flat, _JVP)
        outs, tangents = [], []
        for dual in flat:
            primal, tangent = unpack_dual(dual)
            if tangent is None:
                _independent(strict)
                tangent = zeros_like(primal)
            outs.append(primal)
            tangents.append(tangent)
    return outs, tangents, aux, spec


def _double_vjp(call, flat_primals, flat_tangents, primals_spec, strict):
    """The jvp by reverse mode, for a jvp inside another's dual level: ``J v`` as the vjp,
    along ``v``, of ``u -> J^T u``."""
    with Level() as level, inference_mode(False):
        inputs = [level.wrap(p) for p in flat_primals]
        output, aux = call(tree_unflatten(inputs, primals_spec))
        flat, spec = tree_flatten(output)
        _check_non_empty_tensor_output(flat, _JVP)
        cotangents = [level.wrap(zeros_like(o)) for o in flat]
        jt_u = autograd_grad(flat, inputs, cotangents, retain_graph=True, create_graph=True)
        jv = autograd_grad(jt_u, cotangents, flat_tangents, retain_graph=True,
                           create_graph=True)
        if strict and not all(o.requires_grad for o in flat):
            _independent(strict)
        outs = [level.unwrap(o) for o in flat]
        tangents = [level.unwrap(t) for t in jv]
    return outs, tangents, level.unwrap_tree(aux), spec


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian of ``func`` with respect to the arguments ``argnums`` names, by forward
    mode: one jvp whose tangents are the standard basis, batched by ``vmap`` (one direction
    per input element). Same shapes and nesting as ``jacrev``."""

    @wraps(func)
    def wrapper(*args):
        batched = transform_per_sample(wrapper, args)
        if batched is not _vmap_hook.PASS:  # inside vmap: per sample
            return batched
        if is_inference_mode_enabled():  # torch's transforms run with inference mode off
            with inference_mode(False):
                return wrapper(*args)
        primals = args if argnums is None else slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        numels = [p.numel() for p in flat_primals]
        basis = tree_unflatten(list(next(standard_basis(flat_primals))), primals_spec)

        def push_jvp(direction):
            output = jvp_with_argnums(func, args, direction, argnums=argnums, has_aux=has_aux)
            return (output[1], output[2]) if has_aux else output[1]

        results = vmap(push_jvp, randomness=randomness)(basis)
        aux = None
        if has_aux:
            results, aux = results
            aux = tree_map(lambda value: value[0], aux)
        jac_outs, spec = tree_flatten(results)
        jac = []
        for jac_out in jac_outs:
            pieces = jac_out.movedim(0, -1).split(numels, dim=-1)
            per_input = [piece.squeeze(-1) if p.dim() == 0 else piece.unflatten(-1, p.shape)
                         for piece, p in zip(pieces, flat_primals)]
            jac.append(tree_unflatten(per_input, primals_spec))
        if isinstance(argnums, int):
            jac = [j[0] for j in jac]
        jac = tree_unflatten(jac, spec)
        return (jac, aux) if has_aux else jac

    return wrapper


def hessian(func, argnums=0):
    """The Hessian of ``func`` with respect to the arguments ``argnums`` names:
    ``jacfwd(jacrev(func, argnums), argnums)``, forward over reverse as in torch."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: the output, and a function that gives the directional
    derivative at ``primals`` along any tangents, ``jvp_fn(*tangents)``, as ``jvp`` would
    (torch traces the derivative once into a graph; minigrad computes it again per call,
    with the same values). The tangents must match the primals' structure, shapes and dtypes."""
    output = func(*primals)
    _, output_spec = tree_flatten(output)
    flat_primals, primals_spec = tree_flatten(primals)
    metas = [(p.shape, p.device, p.dtype) for p in flat_primals]

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangents_spec} to have the same argspec "
                               f"as the primals {primals_spec}")
        for i, (t, meta) in enumerate(zip(flat_tangents, metas)):
            for what, mine, wanted in zip(("shape", "device", "dtype"),
                                          (t.shape, t.device, t.dtype), meta):
                if mine != wanted:
                    raise RuntimeError(f"tangent:{i} with {what} {mine} in flattened pytree "
                                       f"doesn't match the {what} {wanted} of the "
                                       "corresponding primal.")
        _, tangent_out = jvp(func, primals, tangents)
        flat, _ = tree_flatten(tangent_out)
        return tree_unflatten(flat, output_spec)

    return output, jvp_fn
