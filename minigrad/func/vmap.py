"""``vmap``: a function of one sample made a function of a batch, as ``torch.func.vmap``.

As torch does, vmap calls the function once, on batched tensors (``_batched.py``): each
input becomes a ``BatchedTensor`` holding the whole batch, and every op on one goes to its
batching rule, which computes all samples at once with ordinary ops on the batch, so the
graph holds torch's ops (``vmap(torch.sin)(x).grad_fn`` is SinBackward0). Ops without a rule
run per sample and are stacked (torch's fallback). ``grad``, ``jacrev`` and ``jvp`` given a
batched tensor run on the batch too (``eager_transforms.py``, ``forward_transforms.py``: f
once); other transforms (``vjp``, ``jacfwd``...) run per sample and stack, as those do when
f cannot run on the batch. Each
output's batch dim then moves to its ``out_dims`` (a ``movedim``); an output that does not
depend on the batch is expanded; ``chunk_size`` splits the batch (``tensor_split``) and joins
the chunks' outputs (``cat``). Nested vmaps nest batched tensors (one level each).

What batched tensors cannot run, vmap runs once per sample on ``x.select(in_dim, i)``,
stacking the results along ``out_dims`` (as it once always did): a function whose ops reach
minigrad code that reads a sample's values directly (an op minigrad reaches without its
argument parser), differentiates through a batched tensor (``backward``, ``vjp``), or draws
random numbers with ``randomness`` 'same' or 'different'. (The learner's own reads,
``tolist()``, ``numpy()``, ``item()``, get torch's errors, as in torch.) There, an output
with ``out_dims=None`` must be the same for every sample (torch's error otherwise).

Randomness (``randomness=``) is watched through ``minigrad._random.draw_hook``: 'error'
refuses any random number drawn inside vmap (torch's error); 'same' replays, for every
sample, the generator state the first sample started from, so every sample gets the numbers
torch draws once for all of them (and the generator ends where torch's does); 'different'
lets the samples draw one after another: every sample gets different numbers, but not
always the numbers torch's single batched draw gives (float32 uniforms agree, and normals
while the whole batch draws fewer than 16, which torch also draws one at a time; larger
normal draws and float64 uniforms do not). Only the shapes and that samples differ hold.

One more difference, in minigrad's favour: torch fails to expand an output that does not
depend on the batch to ``out_dims`` other than 0; minigrad expands it there.
"""

from __future__ import annotations

import functools
import itertools

from minigrad import _random
from minigrad._ops import _vmap_hook
from minigrad._ops.join import cat, stack
from minigrad._tensor import Tensor
from minigrad.func import _batched
from minigrad.func._batched import BatchedTensor, Unbatchable
from minigrad.func._pytree import broadcast_to_and_flatten, tree_flatten, tree_unflatten

__all__ = ["vmap"]


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``func`` mapped over dimension ``in_dims`` of its inputs (an int, or a tuple shaped like
    the arguments, None for an argument that is not batched); the results are stacked at
    ``out_dims``."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _process_inputs(in_dims, args, func)
        try:
            return _batched_call(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs,
                                 out_dims, randomness, chunk_size)
        except Unbatchable:  # the function reads a sample's values: run it per sample
            pass
        return _loop(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs, out_dims,
                     randomness)

    return wrapped


_levels = []  # the levels of the vmaps running on batched tensors now, innermost last


def _batched_call(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs, out_dims,
                  randomness, chunk_size):
    """The function called once on batched tensors; with ``chunk_size``, once per chunk of
    the batch (``tensor_split``), the chunks' outputs joined by ``cat``, as torch does."""
    if chunk_size is None:
        return _flat_call(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs,
                          out_dims, randomness)
    sizes = [chunk_size] * (batch_size // chunk_size) + (
        [batch_size % chunk_size] if batch_size % chunk_size else [])
    split_idxs = tuple(itertools.accumulate(sizes)) or (batch_size,)
    pieces = [a.tensor_split(split_idxs, dim=d) if d is not None else [a] * len(split_idxs)
              for a, d in zip(flat_args, flat_in_dims)]
    outputs = []
    for chunk in zip(*pieces):
        size = next(a.size(d) for a, d in zip(chunk, flat_in_dims) if d is not None)
        if size == 0:
            continue
        outputs.append(_flat_call(func, size, flat_in_dims, list(chunk), args_spec, kwargs,
                                  out_dims, randomness))
    if not outputs:
        return _flat_call(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs,
                          out_dims, randomness)
    flat_chunks = [tree_flatten(out)[0] for out in outputs]
    flat_out_dims = _flat_out_dims(outputs[0], out_dims, func)
    joined = [cat([c[k] for c in flat_chunks], dim=od) if od is not None else flat_chunks[0][k]
              for k, od in enumerate(flat_out_dims)]
    return tree_unflatten(joined, tree_flatten(outputs[0])[1])


def _flat_call(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs, out_dims,
               randomness):
    # torch's level: the depth among all running transforms (grad, jvp... count too)
    level = _vmap_hook.active + _vmap_hook.transforms + 1
    batched = [a if d is None else BatchedTensor(a, d, level)
               for a, d in zip(flat_args, flat_in_dims)]
    _levels.append(level)
    _batched.RANDOMNESS[level] = randomness
    _vmap_hook.call = _batched.call
    _vmap_hook.grad = _batched.batched_grad
    _vmap_hook.active += 1
    try:
        with _Randomness(randomness, batched=True):
            output = func(*tree_unflatten(batched, args_spec), **kwargs)
    finally:
        _vmap_hook.active -= 1
        _levels.pop()
        del _batched.RANDOMNESS[level]
    return _unwrap_outputs(output, out_dims, func, batch_size, level)


def _flat_out_dims(output, out_dims, func):
    """One out_dim per leaf of the output (torch's checks and message)."""
    spec = tree_flatten(output)[1]
    if isinstance(output, Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            return [out_dims]
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            return list(out_dims)
    else:
        flat = broadcast_to_and_flatten(out_dims, spec)
        if flat is not None:
            return flat
    raise ValueError(f"vmap({_get_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims "
                     "is not compatible with the structure of `outputs`. out_dims has "
                     f"structure {tree_flatten(out_dims)[1]} but outputs has structure {spec}.")


def _unwrap_outputs(output, out_dims, func, batch_size, level):
    """Each output's batch dim moved to its out_dim (a PermuteBackward0 when it moves); an
    output that does not depend on the batch is expanded to it (ExpandBackward0)."""
    name = _get_name(func)
    flat_out_dims = _flat_out_dims(output, out_dims, func)
    leaves, spec = tree_flatten(output)
    result = []
    for leaf, out_dim in zip(leaves, flat_out_dims):
        is_batched = isinstance(leaf, BatchedTensor) and leaf._level == level
        if out_dim is None:
            if is_batched:
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                                 "when out_dim is None")
            result.append(leaf)
            continue
        if not isinstance(leaf, Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(leaf)}. Did you mean to set out_dims= to None for "
                             "output?")
        n = leaf.dim() + 1
        if not -n <= out_dim < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, "
                             f"{n - 1}], but got {out_dim})")
        out_dim %= n
        if is_batched:
            value, bdim = leaf._value, leaf._bdim
            result.append(value if bdim == out_dim else value.movedim(bdim, out_dim))
        elif out_dim == 0:
            result.append(leaf.expand(batch_size, *leaf.shape))
        else:  # (torch fails here; minigrad expands at out_dim)
            shape = list(leaf.shape)
            shape.insert(out_dim, batch_size)
            result.append(leaf.unsqueeze(out_dim).expand(*shape))
    return tree_unflatten(result, spec)


def _loop(func, batch_size, flat_in_dims, flat_args, args_spec, kwargs, out_dims, randomness):
    """The function once per sample, the results stacked: for a function that reads its
    samples' values (or draws random numbers), which batched tensors cannot run."""
    outputs = []
    _vmap_hook.transforms += 1  # (torch's transforms are active: no backward() inside)
    try:
        with _Randomness(randomness) as watch:
            for i in range(max(batch_size, 1)):
                watch.next_sample()
                sample = [a if d is None else _batched.sample_of(a, d, i, batch_size)
                          for a, d in zip(flat_args, flat_in_dims)]
                outputs.append(func(*tree_unflatten(sample, args_spec), **kwargs))
    finally:
        _vmap_hook.transforms -= 1
    return _stack_outputs(outputs, out_dims, func, batch_size)


def _get_name(func) -> str:
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_get_name(func.func)}, ...)"
    return repr(func)


def _check_out_dims(out_dims, func) -> None:
    if isinstance(out_dims, int):
        return
    for leaf in tree_flatten(out_dims)[0]:
        if not (leaf is None or isinstance(leaf, int)):
            raise ValueError(
                f"vmap({_get_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, "
                "None or a python collection of ints representing where in the outputs the "
                "vmapped dimension should appear.")


def _process_inputs(in_dims, args, func):
    """(batch size, in_dim per leaf of args, the leaves, args' structure), with torch's
    checks and messages."""
    name = _get_name(func)
    if not isinstance(in_dims, int | tuple):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to "
                         "be int or a (potentially nested) tuple matching the structure of "
                         f"inputs, got: {type(in_dims)}.")
    if len(args) == 0:
        raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add "
                         "inputs, or you are trying to vmap over a function with no inputs. "
                         "The latter is unsupported.")
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = broadcast_to_and_flatten(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not "
                         "compatible with the structure of `inputs`. in_dims has structure "
                         f"{tree_flatten(in_dims)[1]} but inputs has structure {args_spec}.")
    head = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): "
    for i, (arg, in_dim) in enumerate(zip(flat_args, flat_in_dims)):
        if not isinstance(in_dim, int) and in_dim is not None:
            raise ValueError(head + f"Got in_dim={in_dim} for an input but in_dim must be "
                             "either an integer dimension or None.")
        if isinstance(in_dim, int) and not isinstance(arg, Tensor):
            raise ValueError(head + f"Got in_dim={in_dim} for an input but the input is of type "
                             f"{type(arg)}. We cannot vmap over non-Tensor arguments, please "
                             "use None as the respective in_dim")
        if in_dim is not None and not -arg.dim() <= in_dim < arg.dim():
            raise ValueError(head + f"Got in_dim={in_dim} for some input, but that input is a "
                             f"Tensor of dimensionality {arg.dim()} so expected in_dim to "
                             f"satisfy -{arg.dim()} <= in_dim < {arg.dim()}.")
        if in_dim is not None and in_dim < 0:
            flat_in_dims[i] = in_dim % arg.dim()
    sizes = [a.size(d) for a, d in zip(flat_args, flat_in_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0], flat_in_dims, flat_args, args_spec


def _stack_outputs(outputs, out_dims, func, batch_size):
    """One output from the per-sample outputs: each tensor stacked at its out_dim."""
    name = _get_name(func)
    spec = tree_flatten(outputs[0])[1]

    def incompatible():
        return ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
                          "compatible with the structure of `outputs`. out_dims has structure "
                          f"{tree_flatten(out_dims)[1]} but outputs has structure {spec}.")

    if isinstance(outputs[0], Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            flat_out_dims = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            flat_out_dims = list(out_dims)
        else:
            raise incompatible()
    else:
        flat_out_dims = broadcast_to_and_flatten(out_dims, spec)
        if flat_out_dims is None:
            raise incompatible()
    per_sample = [tree_flatten(out)[0] for out in outputs]
    result = []
    for k, out_dim in enumerate(flat_out_dims):
        values = [flat[k] for flat in per_sample]
        if out_dim is None:
            if not all(_same(values[0], v) for v in values[1:]):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                                 "when out_dim is None")
            result.append(values[0])
            continue
        if not isinstance(values[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(values[0])}. Did you mean to set out_dims= to None for "
                             "output?")
        stacked = stack(values, dim=out_dim)
        result.append(stacked if batch_size else stacked.narrow(out_dim, 0, 0))
    return tree_unflatten(result, spec)


def _same(a, b) -> bool:
    """Whether two samples' outputs are the same (an output vmap may leave unbatched)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return a.shape == b.shape and a.dtype is b.dtype and bool((a == b).all())
    return a is b or (not isinstance(a, Tensor) and not isinstance(b, Tensor) and a == b)


# --- randomness -----------------------------------------------------------------------------

_active = []  # the vmaps running now, outermost first


def _on_draw(engine) -> None:
    """``_random.draw_hook`` while a vmap runs: each running vmap rules on the draw."""
    if any(watch.randomness == "error" for watch in _active):
        raise RuntimeError("vmap: called random operation while in randomness error mode. "
                           "Please either use the 'same' or 'different' randomness flags on "
                           "vmap or perform the randomness operation out of vmap")
    if any(watch.batched for watch in _active):  # one draw for a batch: per sample instead
        raise Unbatchable
    for watch in _active:
        watch.before_draw(engine)


class _Randomness:
    """One vmap's randomness mode, installed as the generator's draw hook while it runs."""

    def __init__(self, randomness: str, batched: bool = False):
        self.randomness = randomness
        self.batched = batched
        self.start = {}      # id(engine) -> (engine, its state before the first sample drew)
        self.touched = set()  # engines the current sample has drawn from

    def __enter__(self):
        self.previous = _random.draw_hook
        _active.append(self)
        _random.draw_hook = _on_draw
        return self

    def __exit__(self, *exc):
        _active.remove(self)
        _random.draw_hook = self.previous
        return False

    def next_sample(self) -> None:
        self.touched = set()

    def before_draw(self, engine) -> None:
        if self.randomness != "same" or id(engine) in self.touched:
            return
        self.touched.add(id(engine))
        if id(engine) not in self.start:
            self.start[id(engine)] = (engine, engine.get_state())
        else:  # every sample starts from where the first one started
            restored = _random.Engine.from_state(self.start[id(engine)][1])
            engine.__dict__.update(restored.__dict__)
