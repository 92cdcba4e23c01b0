"""``vmap``: a function of one sample made a function of a batch, as ``torch.func.vmap``.

torch pushes the batch dimension into every operation (batched tensors and batching rules).
minigrad runs the function once per sample instead, on ``x.select(in_dim, i)``, and stacks
the results along ``out_dims``: the same values and shapes, one Python call per sample. Since
``select`` and ``stack`` are differentiable, vmap composes with the other transforms
(``vmap(grad(f))`` gives per-sample gradients, ``grad(vmap(f))``, nested vmaps).

What the loop cannot see, it infers:

- an output with ``out_dims=None`` must not depend on the batch: torch knows from its batched
  tensors; here the output must be the same for every sample, else it is refused with torch's
  error (so an output that is batched but happens to be equal everywhere is accepted);
- ``chunk_size`` only changes how torch groups the work, not the results; it is checked and
  otherwise has nothing to do in a loop.

Randomness (``randomness=``) is watched through ``minigrad._random.draw_hook``: 'error'
refuses any random number drawn inside vmap (torch's error); 'same' replays, for every
sample, the generator state the first sample started from, so every sample gets the numbers
torch draws once for all of them (and the generator ends where torch's does); 'different'
lets the samples draw one after another: every sample gets different numbers, but not
always the numbers torch's single batched draw gives (float32 uniforms agree, and normals
while the whole batch draws fewer than 16, which torch also draws one at a time; larger
normal draws and float64 uniforms do not). Only the shapes and that samples differ hold.

One more difference, in minigrad's favour: torch fails to expand an output that does not
depend on the batch to ``out_dims`` other than 0 (and, with ``chunk_size``, to take
``out_dims=(0,)`` for a single tensor); the loop stacks such outputs like any other.
"""

from __future__ import annotations

import functools

from minigrad import _random
from minigrad._ops.join import stack
from minigrad._tensor import Tensor
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
        outputs = []
        with _Randomness(randomness) as watch:
            for i in range(max(batch_size, 1)):
                watch.next_sample()
                sample = [a if d is None else _sample(a, d, i, batch_size)
                          for a, d in zip(flat_args, flat_in_dims)]
                outputs.append(func(*tree_unflatten(sample, args_spec), **kwargs))
        return _stack_outputs(outputs, out_dims, func, batch_size)

    return wrapped


def _sample(x, dim: int, i: int, batch_size: int):
    """Sample ``i`` of ``x``; for an empty batch, zeros shaped like a sample: the function
    runs on them once so that the empty results get their shapes."""
    if batch_size == 0:
        return x.new_zeros(x.shape[:dim] + x.shape[dim + 1:])
    return x.select(dim, i)


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
    for watch in _active:
        watch.before_draw(engine)


class _Randomness:
    """One vmap's randomness mode, installed as the generator's draw hook while it runs."""

    def __init__(self, randomness: str):
        self.randomness = randomness
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
