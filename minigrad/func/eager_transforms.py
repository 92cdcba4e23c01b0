"""Reverse-mode transforms: ``grad``, ``grad_and_value``, ``vjp``, ``jacrev``, as ``torch.func``.

torch.func builds these on "levels": each transform wraps its inputs so that the gradients it
takes see only its own inputs, and unwraps its results so they carry nothing of it. minigrad
has one autograd graph, so a transform does the same with that graph:

- **wrap**: each input to differentiate becomes a tensor of the transform's own: an alias
  (``x.view_as(x)``) of an input that already requires grad, so an enclosing transform (or the
  learner's own ``backward``) still reaches ``x`` through it; otherwise a fresh leaf that
  requires grad (keeping a forward-mode tangent if an enclosing ``jvp`` gave ``x`` one).
  Gradients are taken with respect to these tensors, never to ``x`` itself, so the inner and
  outer derivatives of ``grad(grad(f))`` do not mix ("perturbation confusion").
- **differentiate** with ``create_graph=True``, so the gradient is itself recorded and an
  enclosing transform can differentiate it again (``grad(grad(f))``, ``jacrev(jacrev(f))``,
  ``hessian``).
- **unwrap**: a result whose graph reaches only the transform's fresh leaves is detached, so
  at the top level results have no ``grad_fn``, as in torch; a result that also depends on
  something outside (an enclosing transform's input, a tensor the learner made with
  ``requires_grad=True``) keeps its graph, so transforms compose with each other and with
  ``backward``.

Inside vmap, ``grad`` and ``jacrev`` given batched tensors run on the batch
(``_grad_and_value_of_batch``, ``_jacrev_of_batch``): the samples do not interact, so each
sample's gradient is the gradient of the outputs' sum with respect to the batch (a Jacobian's
rows, seeds that are rows of the identity for every sample at once), and ``f`` runs once, as
torch's; vjp runs per sample.
"""

from __future__ import annotations

from functools import wraps

from minigrad._creation import eye, ones_like, zeros_like
from minigrad._dtype import get_default_dtype
from minigrad._ops import _vmap_hook
from minigrad._ops.join import cat
from minigrad._tensor import Tensor
from minigrad._tensor_str import tensor_str
from minigrad.autograd import api
from minigrad.autograd.forward_grad import set_tangent, tangent_of
from minigrad.autograd.grad_mode import inference_mode, is_grad_enabled
from minigrad.func._batched import (
    BatchedTensor,
    Unbatchable,
    holds_batched,
    refuse_batched,
    transform_per_sample,
)
from minigrad.func._pytree import (
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_unflatten,
    treespec_pprint,
)
from minigrad.func.vmap import _levels as _vmap_levels
from minigrad.func.vmap import vmap

__all__ = ["grad", "grad_and_value", "vjp", "jacrev"]


# --- argnums: which positional arguments to differentiate -----------------------------------

def _validate_argnum(argnum, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _wrap_argnums(argnums, num_args: int):
    if not isinstance(argnums, int | tuple):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        return _validate_argnum(argnums, num_args)
    argnums = tuple(_validate_argnum(a, num_args) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return argnums


def slice_argnums(args: tuple, argnums, as_tuple: bool = True):
    """The arguments ``argnums`` names: one (a tuple of one if ``as_tuple``) or a tuple."""
    argnums = _wrap_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return (args[argnums],) if as_tuple else args[argnums]
    return tuple(args[i] for i in argnums)


def replace_argnums(args: tuple, argnums, new):
    """``args`` with the arguments ``argnums`` names replaced by ``new`` (as sliced)."""
    argnums = _wrap_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return tuple(new if i == argnums else a for i, a in enumerate(args))
    return tuple(new[argnums.index(i)] if i in argnums else a for i, a in enumerate(args))


# --- one transform's level: wrapping inputs, unwrapping results ------------------------------

_active_levels = []  # the transforms running now, outermost first


class Level:
    """One call of a transform, and whether its caller records. Its fresh leaves point to it
    (``_func_level``); used as a context manager around the call, so that the levels inside
    know which levels enclose them."""

    def __init__(self):
        self.outer_grad_enabled = is_grad_enabled()

    def __enter__(self):
        _active_levels.append(self)
        _vmap_hook.transforms += 1
        if not hasattr(self, "number"):  # torch's level: its depth among the transforms
            self.number = _vmap_hook.transforms + _vmap_hook.active
        return self

    def __exit__(self, *exc):
        _active_levels.remove(self)
        _vmap_hook.transforms -= 1
        return False

    def wrap(self, x):
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        if x.requires_grad:
            alias = x.view_as(x)
            alias.grad_fn._func_level = self  # (printed as x at this level: _repr_in_levels)
            alias._func_source = x
            return alias
        leaf = x.detach()
        leaf._is_inference = False  # (torch's wrapper of an inference tensor is not one)
        leaf.requires_grad_()
        leaf._func_level = self
        tangent = tangent_of(x)
        if tangent is not None:  # an enclosing jvp's direction stays with the input
            set_tangent(leaf, tangent)
        return leaf

    def unwrap(self, t):
        """``t`` without this level's graph (see the module's docstring)."""
        if not isinstance(t, Tensor):
            return t
        if isinstance(t, BatchedTensor):  # (vmap(vjp_fn)'s rows) the batch's own graph
            return BatchedTensor(self.unwrap(t._value), t._bdim, t._level)
        tangent = tangent_of(t)  # an enclosing jvp's tangent, itself unwrapped
        keep = not t.requires_grad or (self.outer_grad_enabled and self._reaches_outside(t))
        if tangent is None or not _records(tangent):
            if keep:
                return t
            out = t.detach()
        else:
            out = t.detach() if not keep else t.view_as(t)
            tangent = self.unwrap(tangent)
        if tangent is not None:
            set_tangent(out, tangent)
        return out

    def unwrap_tree(self, tree):
        return tree_map(self.unwrap, tree)

    def _outside(self, leaf) -> bool:
        """Whether a leaf is outside this level: the learner's own, or an enclosing
        transform's (a finished inner transform's leaves are nobody's now)."""
        owner = leaf.__dict__.get("_func_level")
        return owner is None or (owner is not self and owner in _active_levels)

    def _reaches_outside(self, t) -> bool:
        """Whether ``t``'s graph reaches a leaf outside this level."""
        if t.grad_fn is None:
            return self._outside(t)
        seen, todo = {id(t.grad_fn)}, [t.grad_fn]
        while todo:
            node = todo.pop()
            variable = getattr(node, "variable", None)
            if variable is not None and self._outside(variable):
                return True
            for nxt, _ in node.next_functions:
                if nxt is not None and id(nxt) not in seen:
                    seen.add(id(nxt))
                    todo.append(nxt)
        return False


# --- printing inside a transform ------------------------------------------------------------

class ForwardLevel:
    """A jvp running by forward mode (dual tensors): what its tensors print as."""

    def __init__(self):
        self.number = _vmap_hook.transforms + _vmap_hook.active


forward_levels = []  # the forward-mode jvps running now, outermost first


def _levels_of(t):
    """The running levels ``t`` belongs to (its graph reaches their inputs), innermost first,
    and whether it also reaches a leaf of the learner's that requires grad."""
    owners, outside = set(), False
    own = t.__dict__.get("_func_level")
    if own is not None:
        owners.add(own)
    elif t.grad_fn is None:
        outside = t.requires_grad
    todo = [t.grad_fn] if t.grad_fn is not None else []
    seen = {id(n) for n in todo}
    while todo:
        node = todo.pop()
        owner = node.__dict__.get("_func_level")
        if owner is not None:
            owners.add(owner)
        variable = getattr(node, "variable", None)
        if variable is not None:
            owner = variable.__dict__.get("_func_level")
            if owner is not None:
                owners.add(owner)
            else:
                outside = True
        for nxt, _ in node.next_functions:
            if nxt is not None and id(nxt) not in seen:
                seen.add(id(nxt))
                todo.append(nxt)
    running = sorted((lv for lv in owners if lv in _active_levels), key=lambda lv: -lv.number)
    return running, outside


def _repr_in_levels(plain_repr):
    """``repr(t)`` inside grad, vjp, jvp...: torch's tensors there are wrapped, one
    GradTrackingTensor per transform they belong to, around the value the transform outside
    it sees (the learner's own tensor for an input that required grad; otherwise the numbers,
    with the graph only if they reach a leaf of the learner's that requires grad)."""
    def __repr__(self, *, tensor_contents=None):
        if not (_active_levels or forward_levels) or isinstance(self, BatchedTensor):
            return plain_repr(self, tensor_contents=tensor_contents)
        levels, outside = _levels_of(self) if _active_levels else ([], False)
        if forward_levels and tangent_of(self) is not None:  # a dual tensor of the jvp's
            levels = sorted([*levels, forward_levels[-1]], key=lambda lv: -lv.number)
        if not levels:
            return plain_repr(self, tensor_contents=tensor_contents)
        text, levels = _outside_text(self, levels, outside)
        return _wrapped_in(levels, text)

    return __repr__


def _outside_text(t, levels, outside):
    """``t`` as the transform outside its levels sees it, and the levels to print around."""
    source = t.__dict__.get("_func_source")
    if source is not None:  # an input that required grad: the input, as outside sees it
        return repr(source), [t.grad_fn._func_level]
    fn = t.grad_fn if outside else None
    return tensor_str(t._data, dtype_name=t.dtype.name,
                      is_default_dtype=t.dtype is get_default_dtype(), requires_grad=outside,
                      grad_fn_name=fn and type(fn).__name__), levels


def _wrapped_in(levels, text):
    for level in reversed(levels):
        inner = "\n".join("    " + line if line else line for line in text.split("\n"))
        text = f"GradTrackingTensor(lvl={level.number}, value=\n{inner}\n)"
    return text


def _batched_repr_in_levels(plain_repr):
    """``repr(x)`` of a batched tensor inside ``grad`` or ``jvp`` run on the batch
    (``vmap(grad(f))``): torch's GradTrackingTensor around the BatchedTensor of the values
    outside sees."""
    def __repr__(self, *, tensor_contents=None):
        value = self._value
        if not (_active_levels or forward_levels) or isinstance(value, BatchedTensor):
            return plain_repr(self, tensor_contents=tensor_contents)
        levels, outside = _levels_of(value) if _active_levels else ([], False)
        if forward_levels and tangent_of(value) is not None:  # a dual of jvp on the batch
            levels = sorted([*levels, forward_levels[-1]], key=lambda lv: -lv.number)
        levels = [lv for lv in levels if lv.number > self._level]
        if not levels:
            return plain_repr(self, tensor_contents=tensor_contents)
        text, levels = _outside_text(value, levels, outside)
        inner = "\n".join("    " + line if line else line for line in text.split("\n"))
        return _wrapped_in(levels, f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, "
                                   f"value=\n{inner}\n)")

    return __repr__


Tensor.__repr__ = _repr_in_levels(Tensor.__repr__)  # (str() calls it: Tensor.__str__)
BatchedTensor.__repr__ = BatchedTensor.__str__ = _batched_repr_in_levels(BatchedTensor.__repr__)


def _records(t) -> bool:
    """Whether ``t`` has a graph: a batched tensor (jacfwd's tangents) by its batch's."""
    while isinstance(t, BatchedTensor):
        t = t._value
    return t.requires_grad


def autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=True, create_graph=True):
    """``autograd.grad`` over the outputs that require grad; zeros for unreached inputs.

    The graph is kept (torch frees only its own level's graph; here there is one graph, which
    an enclosing transform still has to go back through)."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or [None] * len(outputs))
             if o.requires_grad]
    if not pairs:
        return tuple(zeros_like(x) for x in inputs)
    outs, gos = zip(*pairs)
    grads = api.grad(outs, inputs, None if grad_outputs is None else gos,
                     retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)
    return tuple(zeros_like(x) if g is None else g for g, x in zip(grads, inputs))


def _tensors_only(tree, level):
    def check(x):
        if not isinstance(x, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
        return level.unwrap(x)
    return tree_map(check, tree)


def _refuse_batched_output(output) -> None:
    """An output batched by an enclosing vmap though the inputs are not (the function closes
    over the vmap's sample: ``vmap(lambda x: grad(lambda w: (w * x).sum())(w))``): minigrad's
    graph cannot differentiate a batched tensor, so that vmap runs once per sample."""
    if _vmap_hook.active and holds_batched(output):
        raise Unbatchable


def _split_aux(output, has_aux: bool, api_name: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api_name}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    return output


# --- grad and grad_and_value ----------------------------------------------------------------

def grad_and_value(func, argnums=0, has_aux: bool = False):
    """``grad`` that also returns ``func``'s value: ``(gradient, value)``, or
    ``(gradient, (value, aux))`` with ``has_aux``."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        if holds_batched((args, kwargs)):  # inside vmap: on the batch, else per sample
            try:
                return _grad_and_value_of_batch(func, argnums, has_aux, args, kwargs)
            except _NotOnTheBatch:
                pass
            return transform_per_sample(wrapper, args, kwargs)
        # differentiates even under an outer no_grad or inference_mode (torch turns both off)
        with Level() as level, inference_mode(False):
            diff_args = slice_argnums(args, argnums, as_tuple=False)
            diff_args = tree_map(level.wrap, diff_args)
            args = replace_argnums(args, argnums, diff_args)
            output = func(*args, **kwargs)
            output, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            _check_scalar_output(output)
            flat_diff, spec = tree_flatten(diff_args)
            if _vmap_hook.active and holds_batched(output):  # f closes over vmap's samples
                return _per_sample_grads(output, flat_diff, spec, level, aux if has_aux
                                         else None, has_aux)
            grads = autograd_grad((output,), flat_diff, create_graph=True)
            grad_input = level.unwrap_tree(tree_unflatten(list(grads), spec))
            output = level.unwrap(output)
            if has_aux:
                return grad_input, (output, _tensors_only(aux, level))
            return grad_input, output

    return wrapper


def _check_scalar_output(output) -> None:
    """torch's errors for a function whose gradient ``grad`` cannot take."""
    if not isinstance(output, Tensor):
        raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                           f"Tensor, got {type(output)}")
    if output.dim() != 0:
        raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                           f"scalar Tensor, got tensor with {output.dim()} dims. Maybe "
                           "you wanted to use the vjp or jacrev APIs instead?")


class _NotOnTheBatch(Exception):  # noqa: N818 - a signal, not an error
    """grad cannot run on the batch: it runs per sample instead."""


def _grad_and_value_of_batch(func, argnums, has_aux, args, kwargs):
    """``grad_and_value`` inside vmap, on the whole batch: the samples do not interact, so
    the gradient of each sample's output with respect to its own inputs is the gradient of
    the outputs' sum with respect to the batch (an unbatched input expanded along it first).
    ``func`` runs once, on batched tensors, as torch's does. What cannot run on the batch
    (nested vmaps, a function reading a sample's values, an output not batched) raises
    ``_NotOnTheBatch`` before or ``Unbatchable`` during the call: per sample then."""
    level_no, size = _batch_of([leaf for leaf in tree_flatten((args, kwargs))[0]
                                if isinstance(leaf, BatchedTensor)])
    try:
        with Level() as level, inference_mode(False):
            args, physical, _, spec = _batch_inputs(args, argnums, level, level_no, size)
            output = func(*args, **kwargs)
            output, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            _check_scalar_output(output)
            if not (isinstance(output, BatchedTensor) and output._level == level_no
                    and not isinstance(output._value, BatchedTensor)):
                raise _NotOnTheBatch
            total = output._value
            grads = autograd_grad((total,), [p for p, _ in physical], (ones_like(total),),
                                  create_graph=True)
            grad_input = tree_unflatten([BatchedTensor(level.unwrap(g), bdim, level_no)
                                         for g, (_, bdim) in zip(grads, physical)], spec)
            if isinstance(argnums, int):  # (the spec of the inputs' tuple)
                grad_input = grad_input[0]
            value = BatchedTensor(level.unwrap(total), output._bdim, level_no)
            if has_aux:
                return grad_input, (value, _tensors_only(aux, level))
            return grad_input, value
    except Unbatchable:
        raise _NotOnTheBatch from None


def _per_sample_grads(output, flat_diff, spec, level, aux, has_aux):
    """``grad`` inside vmap of a function of unbatched inputs that closes over the vmap's
    samples (``vmap(lambda x: grad(lambda w: (w * x).sum())(w))``): its output is batched,
    one value per sample; each sample's gradient is one row of their Jacobian, all the rows
    from one batched backward pass (``is_grads_batched``), so ``f`` ran once, as torch's.
    A batch vmap cannot take so (nested vmaps) runs per sample (``Unbatchable``)."""
    if not (isinstance(output, BatchedTensor) and output._level == _vmap_levels[-1]
            and not isinstance(output._value, BatchedTensor)):
        raise Unbatchable
    total = output._value
    rows = eye(total.shape[0], dtype=total.dtype)
    if total.requires_grad:
        grads = api.grad((total,), flat_diff, (rows,), retain_graph=True, create_graph=True,
                         allow_unused=True, is_grads_batched=True)
    else:
        grads = [None] * len(flat_diff)
    grads = [zeros_like(x).expand(total.shape[0], *x.shape) if g is None else g
             for g, x in zip(grads, flat_diff)]
    grad_input = tree_unflatten([BatchedTensor(level.unwrap(g), 0, output._level)
                                 for g in grads], spec)
    value = BatchedTensor(level.unwrap(total), output._bdim, output._level)
    if has_aux:
        return grad_input, (value, _tensors_only(aux, level))
    return grad_input, value


def grad(func, argnums=0, has_aux: bool = False):
    """The gradient of a function that returns a scalar tensor, as a function of the same
    arguments: ``grad(f)(x)`` is d f / d x at ``x`` (``argnums`` picks the arguments, each may
    be a tensor or a tuple/list/dict of tensors). With ``has_aux``, ``f`` returns
    ``(value, aux)`` and ``grad`` returns ``(gradient, aux)``."""
    inner = grad_and_value(func, argnums, has_aux)

    @wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = inner(*args, **kwargs)  # (inside vmap, on the batch if it can)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


# --- vjp ------------------------------------------------------------------------------------

def vjp(func, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` is the vector-Jacobian product, one
    gradient per primal; with ``has_aux``, ``(output, vjp_fn, aux)``."""
    return vjp_with_argnums(func, *primals, has_aux=has_aux)


def vjp_with_argnums(func, *primals, argnums=None, has_aux: bool = False):
    """vjp differentiating only the primals ``argnums`` names (jacrev's use); error messages
    say ``vjp``, as torch's do."""
    refuse_batched(primals)
    with Level() as level, inference_mode(False):
        if argnums is None:
            diff_primals = tree_map(level.wrap, primals)
            primals = diff_primals
        else:
            diff_primals = tree_map(level.wrap, slice_argnums(primals, argnums, as_tuple=False))
            primals = replace_argnums(primals, argnums, diff_primals)
        primals_out = func(*primals)
        primals_out, aux = _split_aux(primals_out, has_aux, "vjp(f, *primals)")
        if has_aux:
            aux = _tensors_only(aux, level)
        flat_out, out_spec = tree_flatten(primals_out)
        _check_non_empty_tensor_output(flat_out, "vjp(f, *primals)")
        _refuse_batched_output(flat_out)
        flat_diff, diff_spec = tree_flatten(diff_primals)
        results = level.unwrap_tree(primals_out)
        for out in flat_out:
            if not out.is_floating_point():
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or "
                                   f"complex Tensors, got Tensor with dtype {out.dtype}")

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = is_grad_enabled()
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function. cotangents: "
                               f"{treespec_pprint(cot_spec)}, primal output: "
                               f"{treespec_pprint(out_spec)}")
        with level:  # back in the transform, as torch's vjp_fn (the ops' formulas see it)
            grads = autograd_grad(flat_out, flat_diff, flat_cot, retain_graph=retain_graph,
                                  create_graph=create_graph)
        return level.unwrap_tree(tree_unflatten(list(grads), diff_spec))

    vjp_fn.__name__, vjp_fn.__qualname__ = "wrapper", "_vjp_with_argnums.<locals>.wrapper"
    if has_aux:
        return results, vjp_fn, aux
    return results, vjp_fn


def _check_non_empty_tensor_output(output, api_name: str) -> None:
    if (len(output) == 1 and output[0] is None) or len(output) < 1:
        raise RuntimeError(f"{api_name}: Expected f to be a function that has non-empty output "
                           f"(got output = {output})")
    for o in output:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api_name}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(o)}")


# --- jacrev ---------------------------------------------------------------------------------

def standard_basis(tensors, chunk_size=None):
    """The rows of the identity over all the elements of ``tensors``, split between them, in
    chunks of at most ``chunk_size`` rows (one chunk without it): each chunk is a tuple with,
    for each tensor, an ``(n, *tensor.shape)`` tensor, ``n`` the chunk's rows."""
    numels = [t.numel() for t in tensors]
    total = sum(numels)
    if chunk_size is None or chunk_size >= total:
        chunk_size = total
    sizes = [total] if not total else [chunk_size] * (total // chunk_size) + (
        [total % chunk_size] if total % chunk_size else [])
    starts = [sum(numels[:i]) for i in range(len(numels))]
    for k, rows in enumerate(sizes):
        chunk = []
        for t, n, start in zip(tensors, numels, starts):
            block = t.new_zeros(rows, n)
            block.diagonal(k * chunk_size - start).fill_(1)
            chunk.append(block.view(rows, *t.shape))
        yield tuple(chunk)


def _batch_inputs(args, argnums, level, level_no, size):
    """The inputs to differentiate on the whole batch: each a fresh tensor of ``level``
    (``Level.wrap``) of the physical batch, an unbatched one expanded along it; the
    arguments with them batched, and ``[(physical, bdim)]``."""
    diff_args = slice_argnums(args, argnums)
    physical, batched = [], []
    flat_diff, spec = tree_flatten(diff_args)
    for d in flat_diff:
        if isinstance(d, BatchedTensor):
            p, bdim = level.wrap(d._value), d._bdim
        else:  # the same for every sample: expanded, each sample its own derivative
            p, bdim = level.wrap(d).expand(size, *d.shape), 0
        batched.append(BatchedTensor(p, bdim, level_no))
        physical.append((p, bdim))
    new = tree_unflatten(batched, spec)
    args = replace_argnums(args, argnums, new[0] if isinstance(argnums, int) else new)
    return args, physical, flat_diff, spec


def _batch_of(leaves):
    """(level, batch size) of the batched leaves, when all are the innermost running vmap's
    with plain physical tensors (else ``_NotOnTheBatch``)."""
    level_no = max(leaf._level for leaf in leaves)
    if any(isinstance(leaf._value, BatchedTensor) or leaf._level != level_no
           for leaf in leaves) or level_no != _vmap_levels[-1]:
        raise _NotOnTheBatch
    return level_no, leaves[0]._value.shape[leaves[0]._bdim]


def _jacrev_of_batch(func, argnums, has_aux, args):
    """``jacrev`` inside vmap with batched arguments, on the whole batch: ``func`` runs once
    on it (as torch's), then one backward pass whose batched seeds are the rows of the
    identity over a sample's output elements, each row seeding every sample at once (the
    samples do not interact)."""
    level_no, size = _batch_of([leaf for leaf in tree_flatten(args)[0]
                                if isinstance(leaf, BatchedTensor)])
    try:
        with Level() as level, inference_mode(False):
            args, physical, flat_primals, primals_spec = _batch_inputs(args, argnums, level,
                                                                       level_no, size)
            output = func(*args)
            output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
            flat_out, output_spec = tree_flatten(output)
            _check_non_empty_tensor_output(flat_out, "vjp(f, *primals)")
            if not all(isinstance(o, BatchedTensor) and o._level == level_no
                       and not isinstance(o._value, BatchedTensor)
                       and o.is_floating_point() for o in flat_out):
                raise _NotOnTheBatch
            outs = [o._value if o._bdim == 0 else o._value.movedim(o._bdim, 0)
                    for o in flat_out]
            numels = [o.numel() for o in flat_out]
            total = sum(numels)
            seeds, start = [], 0
            for out, n in zip(outs, numels):
                block = out.detach().new_zeros(total, n)
                block.diagonal(-start).fill_(1)
                seeds.append(block.view(total, 1, *out.shape[1:]).expand(total, *out.shape))
                start += n
            grads = api.grad(outs, [p for p, _ in physical], seeds, retain_graph=True,
                             create_graph=True, allow_unused=True, is_grads_batched=True)
            per_input = []
            for g, (p, bdim) in zip(grads, physical):
                if g is None:
                    g = p.detach().new_zeros(total, *p.shape)
                per_input.append(g.movedim(bdim + 1, 0).split(numels, dim=1))
            jac = tuple(
                tree_unflatten([BatchedTensor(level.unwrap(per_input[i][k].reshape(
                    size, *o.shape, *primal.shape)), 0, level_no)
                    for i, primal in enumerate(flat_primals)], primals_spec)
                for k, o in enumerate(flat_out))
            if isinstance(argnums, int):
                jac = tuple(j[0] for j in jac)
            jac = tree_unflatten(list(jac), output_spec)
            return (jac, _tensors_only(aux, level)) if has_aux else jac
    except Unbatchable:
        raise _NotOnTheBatch from None


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None,
           _preallocate_and_copy: bool = False):
    """The Jacobian of ``func`` with respect to the arguments ``argnums`` names, by reverse
    mode: ``func`` runs once, then the vector-Jacobian products of all the rows of the
    identity (one per element of the output) run at once, as ``vmap(vjp_fn)`` over them, as
    torch does; ``chunk_size`` rows at a time if given (the chunks joined by ``cat``; with 1,
    one plain ``vjp_fn`` call per row). For an output of shape ``O`` and an input of shape
    ``I`` the Jacobian has shape ``O + I``; several outputs or inputs give nested tuples
    (outputs outside, inputs inside)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @wraps(func)
    def wrapper(*args):
        if holds_batched(args):  # inside vmap: on the batch, else per sample
            if chunk_size is None:
                try:
                    return _jacrev_of_batch(func, argnums, has_aux, args)
                except _NotOnTheBatch:
                    pass
            return transform_per_sample(wrapper, args)
        out = vjp_with_argnums(func, *args, argnums=argnums, has_aux=has_aux)
        output, vjp_fn = out[0], out[1]
        flat_output, output_spec = tree_flatten(output)
        flat_primals, primals_spec = tree_flatten(slice_argnums(args, argnums))
        chunks = []
        for basis in standard_basis(flat_output, chunk_size):
            if chunk_size == 1:  # a plain loop, free of vmap's limits (as torch's)
                row = vjp_fn(tree_unflatten([b.squeeze(0) for b in basis], output_spec))
                chunks.append([g.unsqueeze(0) for g in tree_leaves(row)])
            else:
                chunks.append(tree_leaves(vmap(vjp_fn)(tree_unflatten(list(basis),
                                                                      output_spec))))
        per_input = chunks[0] if len(chunks) == 1 else [
            cat([c[i] for c in chunks]) for i in range(len(flat_primals))]
        numels = [o.numel() for o in flat_output]
        per_input = [jac.split(numels, dim=0) for jac in per_input]
        jac = tuple(
            tree_unflatten([per_input[i][k].view(*o.shape, *p.shape)
                            for i, p in enumerate(flat_primals)], primals_spec)
            for k, o in enumerate(flat_output))
        if isinstance(argnums, int):
            jac = tuple(j[0] for j in jac)
        jac = tree_unflatten(list(jac), output_spec)
        return (jac, out[2]) if has_aux else jac

    return wrapper
