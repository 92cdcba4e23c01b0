# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 14 · Memory and debugging
#
# To run backward, autograd has to keep some tensors from the forward pass: a multiplication
# needs its inputs again, an exponential its output. Those **saved tensors** are where the
# memory of training goes, and they explain two classic bugs: a training loop that slowly eats
# all memory, and a `backward()` that fails the second time. This lesson opens the nodes to see
# what they keep, and then uses autograd's own debugging tools.
#
# **Goals.** After this lesson you can
#
# 1. read what a node saved (`grad_fn._saved_self`, `_saved_other`, `_saved_result`) and say
#    why `mul` keeps its inputs, `exp` its output and `add` nothing;
# 2. explain when saved tensors are freed, what `retain_graph=True` changes, and the error
#    "Trying to backward through the graph a second time";
# 3. intercept every saved tensor with `saved_tensors_hooks` (count it, store it as float16 or
#    outside autograd) and trade memory for computation with **checkpointing**, by hand and
#    with `torch.utils.checkpoint` (and say why its random-number replay matters);
# 4. find and fix the `losses.append(loss)` leak;
# 5. find the operation whose backward made a NaN with `detect_anomaly`.
#
# **Time:** about 45 minutes. Lessons 03 (the graph is freed), 07 (version counters) and 09
# (custom Functions) come first.

# %%
# Run this cell first: it loads both engines and the course tools.
# %load_ext coursekit.compare
import numpy as np
import torch
import minigrad
import ipywidgets as widgets
import matplotlib.pyplot as plt
from coursekit import compare, viz
compare.session(reset=True)
compare.seed_all(0)

# %% [markdown]
# ## 1. What a node keeps
#
# Each node's backward is the chain rule for one operation, and it can only use what it kept
# from the forward pass. What it needs depends on the derivative:
#
# | forward | derivative | so the node keeps |
# |---|---|---|
# | `m = x * y` | $\partial m/\partial x = y$, $\partial m/\partial y = x$ | each input whose *partner* needs a gradient (both, when both do) |
# | `e = x.exp()` | $\partial e/\partial x = e^x = e$ | its **output** |
# | `a = x + y` | $1$ and $1$ | no tensor at all |
#
# torch shows what a node kept as attributes named `_saved_<name>`: `_saved_self` and
# `_saved_other` for the two operands, `_saved_result` for the output. They are not part of
# torch's public API (hence the underscore: they may change between versions), but the
# [autograd notes](https://docs.pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
# use them to show what a node keeps, and so do we.

# %%
# %%both x y m e a
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([0.5, -1.0], requires_grad=True)
m = x * y
e = x.exp()
a = x + y
print("mul kept self: ", m.grad_fn._saved_self, "  the very tensor x:", m.grad_fn._saved_self is x)
print("mul kept other:", m.grad_fn._saved_other)
print("exp kept result:", e.grad_fn._saved_result)
print("  equal to e:", torch.equal(e.grad_fn._saved_result, e),
      "  the same object as e:", e.grad_fn._saved_result is e)
print("add kept:", [name for name in dir(a.grad_fn) if name.startswith("_saved_")])

# %% [markdown]
# * `mul` kept `x` and `y` themselves, not copies: saving costs no memory *while you hold
#   `x` anyway*, but it keeps `x` alive as long as the graph lives.
# * `exp` kept its output. You get back a tensor with the same values (and memory), but not the
#   object `e`: a node that held its own output would hold itself (`e.grad_fn` is the node), a
#   reference cycle, so autograd keeps the output packed and unpacks it into a new tensor
#   when asked (the notes linked above say so too).
# * `add` kept only `alpha`, the number in `x + alpha * y` (1 here): no tensor.
#
# Other operations follow the same logic: `sin` keeps its input ($\cos x$ needs $x$),
# `tanh`, `sigmoid` and `relu` keep their output ($1 - t^2$, $s(1-s)$, "where was it
# positive"), `sum` and `mean` keep only sizes (`self_sym_sizes`, and for `mean` also
# `self_sym_numel`), no tensor:

# %%
# %%both x
for name, t in [("sin", x.sin()), ("tanh", x.tanh()), ("sigmoid", x.sigmoid()),
                ("relu", x.relu()), ("sum", x.sum()), ("mean", x.mean())]:
    print(f"{name:8s}", [field for field in dir(t.grad_fn) if field.startswith("_saved_")])

# %% [markdown]
# `viz.make_dot(..., show_saved=True)` draws the saved tensors as orange boxes tied to their
# nodes:

# %%
# %%both x y z
z = (x * y).exp() + x.sin()
print(z)

# %%
viz.show(viz.make_dot(compare.get("z"), params={"x": compare.get("x"), "y": compare.get("y")},
                      show_saved=True))

# %% [markdown]
# Four orange boxes: `MulBackward0` keeps `self` and `other` ($x$ and $y$), `ExpBackward0` its
# `result`, `SinBackward0` its `self` ($x$ again: the same tensor, saved twice, costs its
# memory once). `AddBackward0` has none.
#
# Every saved *tensor* `_saved_<name>` has a twin `_raw_saved_<name>`: the `SavedTensor`
# object itself, the box autograd keeps the tensor in (its `register_hooks` method is the
# per-tensor version of section 3's hooks). Saved numbers have no twin: `AddBackward0` has
# `_saved_alpha` and no `_raw_saved_alpha`.

# %%
# %%both m
print(m.grad_fn._raw_saved_self)

# %% [markdown]
# ### Look inside: minigrad's saved tensor
#
# minigrad's `SavedTensor` is the same box. When backward reads it, `unpack` checks the version
# counter (lesson 07), rebuilds a saved output, or hands the packed value to an unpack hook
# (section 3); `release` is what backward calls when it is done with the node:

# %%
import inspect
print(inspect.getsource(minigrad.autograd.graph.SavedTensor.unpack))
print(inspect.getsource(minigrad.autograd.graph.SavedTensor.release))

# %% [markdown]
# ## 2. When saved tensors are freed
#
# As soon as `backward()` has used a node, it frees what the node saved (`release` above): a
# graph is normally used once, and the saved tensors are most of its memory. The nodes
# themselves stay, so the graph still *looks* complete, but reading a saved tensor now fails:

# %%
# %%both x y loss
loss = ((x * y).exp()).sum()
loss.backward()
print(x.grad)

# %%
# %%both
loss.grad_fn.next_functions[0][0]._saved_result

# %% [markdown]
# The same message comes when you call `backward()` a second time, because the first call
# freed what the second needs:

# %%
# %%both x
loss.backward()

# %% [markdown]
# [`retain_graph=True`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
# tells backward to keep the saved tensors. Then a second backward works
# (and adds to `.grad` once more, as always), and the saved tensors can still be read. The last
# backward should leave `retain_graph` out, so the memory is freed.

# %%
# %%both x y loss
x.grad = y.grad = None
loss = ((x * y).exp()).sum()
loss.backward(retain_graph=True)
print("still saved:", loss.grad_fn.next_functions[0][0]._saved_result)
loss.backward()
print("x.grad after two backward passes:", x.grad)

# %% [markdown]
# ## 3. Hooks on every saved tensor
#
# [`torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`](https://docs.pytorch.org/docs/stable/autograd.html#torch.autograd.graph.saved_tensors_hooks)
# is a `with` block. Inside it, every time an operation saves a tensor, autograd calls
# `pack_hook(tensor)` and keeps **whatever it returns** instead of the tensor; in backward it
# calls `unpack_hook(that)` to get a tensor back. With hooks that only print, we see what the
# graph of `x.sin().exp()` saves and when it reads it:

# %%
# %%both x
def pack_print(t):
    print("  pack:  ", tuple(t.shape), "from", type(t.grad_fn).__name__)
    return t

def unpack_print(t):
    print("  unpack:", tuple(t.shape))
    return t

x.grad = None
with torch.autograd.graph.saved_tensors_hooks(pack_print, unpack_print):
    print("forward")
    out = x.sin().exp().sum()
print("backward")
out.backward()

# %% [markdown]
# Two packs in the forward pass: `sin` saved its input `x` (a leaf, no `grad_fn`) and `exp`
# saved its output. In backward, each is unpacked once, by the node that needs it (`exp`'s first,
# because backward runs from the end). `sum` saved no tensor (only a shape, which the hooks do
# not see).
#
# ### Counting
#
# A pack hook that adds up `t.numel()` measures how much a forward pass keeps for backward. Here
# is a small network in the course's style: a `block` is one layer, and `network` stacks
# `depth` of them, with the same weight `W` for simplicity.

# %%
# %%both W X
# same_random(*shape): the same float32 normal numbers on both engines (lesson 00)
W = torch.tensor(same_random(16, 16) / 4, requires_grad=True)
X = torch.tensor(same_random(8, 16))

def block(h, W):
    return (h @ W).tanh()

def layers(h, W, n):
    for _ in range(n):
        h = block(h, W)
    return h

def network(X, W, depth):
    return layers(X, W, depth).pow(2).mean()

def saved_elements(fn, *args):
    """fn(*args), and how many tensor elements its graph saved for backward."""
    sizes = []
    def pack(t):
        sizes.append(t.numel())
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn(*args)
    return out, sum(sizes)

for depth in (1, 2, 4, 8):
    print(f"depth {depth}: saved {saved_elements(network, X, W, depth)[1]} elements")

# %% [markdown]
# Each extra layer adds $8\cdot16 + 16\cdot16 + 8\cdot16 = 512$ elements: `@` keeps `h`
# (for `W.grad`) and `W` (for the gradient of `h`), `tanh` keeps its output. The first layer
# keeps 256: `X` (for `W.grad`) and its `tanh` output; it does not save `W`, because `X` needs
# no gradient. The final `.pow(2)` keeps its input, 128 more: 384 at depth 1. Memory grows
# with depth.
# (The hook counts *saves*: `W`, saved by every layer, is one tensor, and so is a layer's
# output, saved by its `tanh` and again by the next `@`. Such a tensor is counted each time but
# its memory is paid once; what is new in each layer is its output, $8 \cdot 16 = 128$
# elements.)
#
# ### Storing saved tensors differently
#
# Since autograd keeps whatever the pack hook returns, the hooks decide *how* saved tensors are
# stored. Two examples:
#
# * **Half precision**: pack as `float16`, unpack as `float32`. Half the memory, at the price of
#   a slightly wrong gradient (float16 has about 3 significant digits).
# * **Outside autograd**: pack as a NumPy copy (a stand-in for writing to disk), unpack with
#   [`torch.from_numpy`](https://docs.pytorch.org/docs/stable/generated/torch.from_numpy.html). Autograd's graph then holds only the NumPy array, not a tensor
#   (with a real disk store it would hold just a file name); the gradient is exact.

# %%
# %%both W grad_exact grad_numpy grad_half~1e-3
def grad_of_W(pack, unpack):
    W.grad = None
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = network(X, W, 4)
    loss.backward()
    return W.grad

grad_exact = grad_of_W(lambda t: t, lambda t: t)
grad_half = grad_of_W(lambda t: t.to(torch.float16), lambda t: t.to(torch.float32))
grad_numpy = grad_of_W(lambda t: t.detach().numpy().copy(), lambda a: torch.from_numpy(a))
print("float16: gradient changed", not torch.equal(grad_half, grad_exact),
      "  relative error below 1%:",
      ((grad_half - grad_exact).abs().max() / grad_exact.abs().max()).item() < 0.01)
print("numpy copy: exact", torch.equal(grad_numpy, grad_exact))

# %% [markdown]
# (The `%%both` line compares `grad_half` with torch's only to 1e-3 of its largest entry
# (`grad_half~1e-3`), the others to float32 precision. A float32 number lying near the middle
# between two float16 numbers rounds one way or the other depending on its last bit, and the
# last bit of `tanh` can differ between CPUs: torch's float32 functions are accurate to one
# float32 step, not always to the nearest number. So the float16 gradient itself can differ
# from one computer to another by more than float32 rounding, though never by float16's
# precision.)
#
# torch ships one such pair:
# [`torch.autograd.graph.save_on_cpu()`](https://docs.pytorch.org/docs/stable/autograd.html#torch.autograd.graph.save_on_cpu)
# packs every saved tensor by copying it from the GPU to the computer's main memory, and
# unpacks by copying it back. When you train on a GPU, this frees GPU memory at the cost of
# the copies. Here everything is already on the CPU, so it changes nothing:

# %%
# %%both W
W.grad = None
with torch.autograd.graph.save_on_cpu():
    loss = network(X, W, 4)
loss.backward()
print(torch.equal(W.grad, grad_exact))

# %% [markdown]
# ## 4. Checkpointing: recompute instead of saving
#
# The other way to save memory is to save *less*: keep only a block's input, and when backward
# reaches the block, run its forward pass again (this time recording) and backpropagate through
# that fresh little graph. That is **gradient checkpointing** (also called activation
# checkpointing): one more forward pass of each block, in exchange for the memory of its
# intermediate results. torch has it as
# [`torch.utils.checkpoint`](https://docs.pytorch.org/docs/stable/checkpoint.html), and so does
# minigrad. First we build the idea ourselves with a custom Function (lesson 09), then we use
# the real one.

# %%
# %%both W X
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        ctx.save_for_backward(*inputs)      # only the inputs: nothing inside fn is recorded
        return fn(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        inputs = [t.detach().requires_grad_(t.requires_grad) for t in ctx.saved_tensors]
        with torch.enable_grad():
            output = ctx.fn(*inputs)        # forward again, recording this time
        output.backward(grad_output)        # backward through the fresh graph
        return (None, *(t.grad for t in inputs))


def checkpointed_network(X, W, depth, segment=4):
    """network, with each run of `segment` layers checkpointed as one block."""
    h = X
    for _ in range(depth // segment):
        h = Checkpoint.apply(lambda h, W: layers(h, W, segment), h, W)
    return h.pow(2).mean()

for depth in (4, 8, 16):
    print(f"depth {depth:2d}: plain {saved_elements(network, X, W, depth)[1]:5d}, "
          f"checkpointed {saved_elements(checkpointed_network, X, W, depth)[1]:5d} elements")

# %% [markdown]
# With 4 layers, one segment, the checkpointed network saves 512 elements: the segment's two
# inputs, `h` ($8 \cdot 16 = 128$) and `W` ($16 \cdot 16 = 256$), which `save_for_backward`
# keeps, and 128 more for the last line, `h.pow(2)`, which keeps its input (the segment's
# output) outside any checkpoint. Each further segment adds its `h` and `W`, 384: 896 for 8
# layers, 1664 for 16. The plain network adds 512 per layer (section 3): 1920, 3968, 8064. The
# memory now grows with the number of segments, not of layers. While backward runs, one
# segment's graph exists again for a moment (the one being recomputed), so the peak is that
# much higher, still far below the plain network's. The gradient is the same:

# %%
# %%both W grad_checkpointed
W.grad = None
loss = checkpointed_network(X, W, 4)
loss.backward()
grad_checkpointed = W.grad
print(torch.allclose(grad_checkpointed, grad_exact))

# %% [markdown]
# [`torch.enable_grad()`](https://docs.pytorch.org/docs/stable/generated/torch.enable_grad.html)
# is needed in `backward`, because backward runs with gradient recording off.
#
# ### Why `W` goes through `apply`
#
# `checkpointed_network` passes `W` to `apply` as an input. What if the segment read `W` from
# outside instead, as `block` could (a closure), and `apply` got only `h`? Then the
# recomputation still reaches the real `W`: `output.backward(grad_output)` in
# `Checkpoint.backward` is a backward pass *inside* the backward pass, and it adds into
# `W.grad`. But the graph autograd knows has no edge from the checkpoint's node to `W`:
# `W`'s gradient arrives behind autograd's back, and two things go wrong.
#
# First, a Function's output requires grad only if one of its inputs does. In the first
# segment the only input is `X`, which requires none, so nothing after it is recorded, and
# `backward()` has nothing to go back through:

# %%
# %%both
def captured_network(X, W, depth, segment=4):
    """checkpointed_network, but each segment reads W from outside."""
    h = X
    for _ in range(depth // segment):
        h = Checkpoint.apply(lambda h: layers(h, W, segment), h)
    return h.pow(2).mean()

loss = captured_network(X, W, 4)
print("loss.requires_grad:", loss.requires_grad)
loss.backward()

# %% [markdown]
# Second, when the input does require grad (here a copy of `X` made a leaf), `backward()`
# gives `W` the right `.grad`, by that inner backward pass. But
# [`torch.autograd.grad(loss, W)`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.grad.html)
# only follows the graph's edges, finds none that reaches `W`, and refuses. With `W` passed to
# `apply`, `W` is an input of the node and both work:

# %%
# %%both W grad_through_apply
X_leaf = X.clone().requires_grad_()
W.grad = None
captured_network(X_leaf, W, 4).backward()
print("W captured, backward(): right W.grad:", torch.allclose(W.grad, grad_exact))
grad_through_apply, = torch.autograd.grad(checkpointed_network(X, W, 4), W)
print("W through apply, autograd.grad:", torch.allclose(grad_through_apply, grad_exact))
torch.autograd.grad(captured_network(X_leaf, W, 4), W)

# %% [markdown]
# ### The real thing: `torch.utils.checkpoint`
#
# [`torch.utils.checkpoint.checkpoint(fn, *args, use_reentrant=False)`](https://docs.pytorch.org/docs/stable/checkpoint.html#torch.utils.checkpoint.checkpoint)
# returns `fn(*args)`, and runs `fn` again in backward. It comes in two versions, chosen by
# `use_reentrant`, and torch wants you to choose: leaving the argument out still works (it
# means `True`, which is still the default), with a warning (its threat of an error "starting
# in PyTorch 2.9" has not come true in 2.13):

# %%
# %%both
out = torch.utils.checkpoint.checkpoint(block, X, W)

# %% [markdown]
# * **`use_reentrant=True`** is our `Checkpoint`, grown up: a custom Function (its node is
#   `CheckpointFunctionBackward`) that runs `fn` under `no_grad`, keeps the arguments, and in
#   backward runs `fn` again and calls backward on that, a backward pass inside the backward
#   pass ("re-entrant"). It has our Function's limits: its node has edges only to the tensors
#   passed as arguments (a weight read from outside gets its `.grad` only from the inner
#   backward pass, as above), and `torch.autograd.grad` is refused.
# * **`use_reentrant=False`**, the recommended one, runs `fn` normally, so the graph is the real
#   one (the output's `grad_fn` is `fn`'s last node, here `TanhBackward0`), but inside a pair of
#   saved-tensor hooks (section 3): the pack hook keeps a small placeholder instead of each
#   tensor, and the first unpack in backward runs `fn` again to get them all back. Since the
#   graph is the real one, a weight read from outside gets its gradient, and
#   `torch.autograd.grad` works.

# %%
# %%both W grad_reentrant grad_nonreentrant grad_captured
from torch.utils.checkpoint import checkpoint

for use_reentrant in (True, False):
    h = checkpoint(layers, X, W, 4, use_reentrant=use_reentrant)
    print(f"use_reentrant={use_reentrant}: h.grad_fn is", type(h.grad_fn).__name__)

def real_checkpointed_network(X, W, depth, use_reentrant, segment=4):
    """network, with each run of `segment` layers in torch.utils.checkpoint."""
    h = X
    for _ in range(depth // segment):
        h = checkpoint(layers, h, W, segment, use_reentrant=use_reentrant)
    return h.pow(2).mean()

W.grad = None
real_checkpointed_network(X, W, 4, True).backward()
grad_reentrant = W.grad
print("use_reentrant=True, backward():", torch.allclose(grad_reentrant, grad_exact))
grad_nonreentrant, = torch.autograd.grad(real_checkpointed_network(X, W, 4, False), W)
print("use_reentrant=False, autograd.grad:", torch.allclose(grad_nonreentrant, grad_exact))
h = checkpoint(lambda h: layers(h, W, 4), X, use_reentrant=False)     # W read from outside
grad_captured, = torch.autograd.grad(h.pow(2).mean(), W)
print("use_reentrant=False, W captured:", torch.allclose(grad_captured, grad_exact))
torch.autograd.grad(real_checkpointed_network(X, W, 4, True), W)

# %% [markdown]
# What do they keep? The count of section 3, for the plain network, our `Checkpoint` and
# torch's checkpoint in both modes:

# %%
# %%both
for depth in (4, 8, 16):
    print(f"depth {depth:2d}: plain {saved_elements(network, X, W, depth)[1]:5d}, "
          f"Checkpoint {saved_elements(checkpointed_network, X, W, depth)[1]:5d}, "
          f"reentrant {saved_elements(real_checkpointed_network, X, W, depth, True)[1]:5d}, "
          f"non-reentrant {saved_elements(real_checkpointed_network, X, W, depth, False)[1]:5d}"
          " elements")

# %% [markdown]
# Both of torch's modes keep exactly what ours keeps: each segment's arguments `h` and `W`.
# The reentrant one saves them in its Function; the non-reentrant one keeps them as saved
# tensors of its own (so our counting hook sees them), plus a placeholder (no tensor) for each
# tensor `fn` would have saved: its own saved-tensor hooks, active inside the block, replace
# them before ours could count them.
#
# ### Random numbers: the recomputation must draw the same ones
#
# Recomputing gives the forward's values again only if the block computes the same thing the second
# time. A block with
# [dropout](https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.dropout.html) does
# not: it zeroes each value with probability `p=0.5`, so about half of them (and doubles the rest),
# and the recomputation draws new random numbers. Our `Checkpoint` then computes the gradient of
# another network than the one that made the loss, and says nothing. torch's checkpoint saves the
# state of the random number generator before the forward pass and restores it for the recomputation
# (`preserve_rng_state=True`, the default), so the same elements are dropped. (minigrad's generator
# draws torch's numbers after the same `torch.manual_seed`, so here both engines even drop the same
# elements.)

# %%
# %%both g_plain g_hand g_real g_unpreserved
def noisy_block(h, W):
    return torch.nn.functional.dropout((h @ W).tanh(), p=0.5)

def grad_with(run):
    """W's gradient through noisy_block called by run, from the same seed each time."""
    W.grad = None
    torch.manual_seed(0)
    run(noisy_block, X, W).pow(2).mean().backward()
    return W.grad

g_plain = grad_with(lambda fn, *args: fn(*args))
g_hand = grad_with(Checkpoint.apply)
g_real = grad_with(lambda fn, *args: checkpoint(fn, *args, use_reentrant=False))
g_unpreserved = grad_with(lambda fn, *args: checkpoint(fn, *args, use_reentrant=False,
                                                       preserve_rng_state=False))
print("the same gradient as without checkpointing?")
print("  our Checkpoint:                           ", torch.allclose(g_hand, g_plain))
print("  torch.utils.checkpoint:                   ", torch.allclose(g_real, g_plain))
print("  torch.utils.checkpoint, no RNG state kept:", torch.allclose(g_unpreserved, g_plain))

# %% [markdown]
# No error, no warning: only a wrong gradient, for other dropout masks than the forward's. Keep
# `preserve_rng_state=True` (saving and restoring the generator's state costs little) unless
# the block draws no random numbers. `use_reentrant=True` replays the state the same way.
#
# ### What it costs, and when it pays
#
# Counting the calls of `block` in one forward and backward pass of 8 layers:

# %%
# %%both
calls = []

def counted_layers(h, W, n):
    for _ in range(n):
        calls.append(1)
        h = block(h, W)
    return h

def calls_of(loss_fn):
    """How many times block runs for one forward and one backward pass."""
    calls.clear()
    loss_fn().backward()
    return len(calls)

print("plain:     ", calls_of(lambda: counted_layers(X, W, 8).pow(2).mean()))
def two_checkpointed_segments():
    h = checkpoint(counted_layers, X, W, 4, use_reentrant=False)
    h = checkpoint(counted_layers, h, W, 4, use_reentrant=False)
    return h.pow(2).mean()

print("checkpoint:", calls_of(two_checkpointed_segments))

# %% [markdown]
# Each checkpointed layer runs twice: one more forward pass in all. A backward pass costs about two
# forward passes, so a training step takes about a third longer ($1 + 1 + 2$ forward passes' worth
# instead of $1 + 2$). In exchange, the activations kept (the layers' outputs, here each `tanh`'s)
# go from one per layer to one per segment, plus one segment's graph while it is recomputed: $n$
# layers cut into $\sqrt n$ segments of $\sqrt n$ layers keep about $2\sqrt n$ activations instead
# of $n$.
#
# * It pays when activations fill the memory (deep networks, big batches, long sequences) and
#   the memory saved buys something: a bigger batch or model, or a training run that fits at
#   all.
# * It does not pay when everything fits anyway (the step only gets slower), nor for a block
#   that saves little besides its input (checkpointing one matrix product keeps its input
#   anyway).
#
# [`torch.utils.checkpoint.checkpoint_sequential(model, segments, x, use_reentrant=False)`](https://docs.pytorch.org/docs/stable/checkpoint.html#torch.utils.checkpoint.checkpoint_sequential)
# cuts an `nn.Sequential` into segments and checkpoints each but the last for you.
#
# ## 5. The `losses.append(loss)` leak
#
# A tensor keeps its `grad_fn` alive, the node keeps the nodes before it, and each node keeps
# what it saved until backward frees it. So a list of losses keeps whole graphs alive. To
# watch this happen, the hooks below keep a **weak** reference to each packed box: the box
# disappears from `alive` as soon as autograd lets go of it, and `saved_alive()` counts the
# elements autograd still holds. (The box holds `t.detach()`: holding `t` itself, an output
# whose `grad_fn` holds the box, would be a reference cycle.)

# %%
# %%both W
import weakref

class Box:
    def __init__(self, t):
        self.t = t.detach()

alive = weakref.WeakSet()

def pack_box(t):
    box = Box(t)
    alive.add(box)
    return box

def unpack_box(box):
    return box.t

meter = torch.autograd.graph.saved_tensors_hooks(pack_box, unpack_box)

def saved_alive():
    return sum(box.t.numel() for box in alive)

def batch(step):
    """The step-th batch of data, the same on both engines."""
    rng = np.random.default_rng(step)
    return torch.tensor(rng.standard_normal((8, 16), dtype=np.float32))

print("saved elements alive now:", saved_alive())

# %% [markdown]
# An evaluation loop that forgot `torch.no_grad()` and records each batch's loss. No backward
# ever runs, so nothing is freed, and the list holds every graph:

# %%
# %%both
def evaluate(steps, keep):
    history = []
    with meter:
        for step in range(steps):
            loss = network(batch(step), W, 2)
            history.append(keep(loss))
    return history

history = evaluate(5, keep=lambda loss: loss)
print("append(loss):          ", saved_alive(), "elements alive")
history = evaluate(5, keep=lambda loss: loss.item())
print("append(loss.item()):   ", saved_alive(), "elements alive")
history = evaluate(5, keep=lambda loss: loss.detach())
print("append(loss.detach()): ", saved_alive(), "elements alive")
del history

# %% [markdown]
# Five batches, five graphs of 896 elements each, all alive. With
# [`loss.item()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.item.html) (a
# Python number) or `loss.detach()` (a tensor without history) nothing of the graphs survives
# the loop. (Better still, evaluate under `torch.no_grad()`: then nothing is saved at all.)
#
# In a *training* loop, `backward()` frees the saved tensors each step, but the list still
# keeps every step's nodes, and the same happens with `total = total + loss`. Counting the
# nodes reachable from the list:

# %%
# %%both
def nodes_reachable(tensors):
    """How many nodes can be reached from the grad_fn of these tensors."""
    seen, todo = set(), [t.grad_fn for t in tensors if torch.is_tensor(t)]
    while todo:
        node = todo.pop()
        if node is not None and node not in seen:
            seen.add(node)
            todo.extend(fn for fn, _ in node.next_functions)
    return len(seen)

def train(steps, keep):
    history = []
    with meter:
        for step in range(steps):
            loss = network(batch(step), W, 2)
            loss.backward()
            history.append(keep(loss))
    return history

for how, keep in (("loss", lambda loss: loss), ("loss.item()", lambda loss: loss.item())):
    history = train(5, keep)
    print(f"append({how}): {saved_alive()} saved elements, "
          f"{nodes_reachable(history)} nodes reachable")
del history

# %% [markdown]
# The saved tensors are gone (backward freed them), but 5 steps keep 5 small graphs alive, each
# of 6 nodes (two `MmBackward0`, two `TanhBackward0`, `PowBackward0`, `MeanBackward0`), plus
# the `AccumulateGrad` of `W` that they share: $5 \cdot 6 + 1 = 31$. Nodes are small, yet over a
# long training run they add up, and anything a node keeps outside its saved tensors is never
# freed by backward (a tensor a custom Function stored as `ctx.t = t`, say). Keep numbers, not
# tensors: `losses.append(loss.item())`.
#
# The widget runs the evaluation loop (minigrad, without backward) for the number of steps you
# choose and plots the saved elements alive after each step, with and without the fix.

# %% jupyter={"source_hidden": true}
import base64
import io

MG = {name: compare.get(name) for name in ("network", "batch", "meter", "saved_alive", "W")}


def alive_per_step(steps, keep):
    """Saved elements alive after each step of a minigrad evaluation loop."""
    history, counts = [], []
    with MG["meter"]:
        for step in range(steps):
            loss = MG["network"](MG["batch"](step), MG["W"], 2)
            history.append(keep(loss))
            del loss
            counts.append(MG["saved_alive"]())
    return counts


def redraw(change=None):
    steps = steps_slider.value
    leak = alive_per_step(steps, lambda loss: loss)
    fixed = alive_per_step(steps, lambda loss: loss.item())
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    ax.plot(range(1, steps + 1), leak, "o-", label="history.append(loss)")
    ax.plot(range(1, steps + 1), fixed, "s--", label="history.append(loss.item())")
    ax.set(xlabel="steps", ylabel="saved elements alive", xlim=(0.5, 20.5),
           ylim=(-500, 19000), title=f"{steps} steps: {leak[-1]} vs {fixed[-1]} elements")
    ax.set_xticks(range(0, 21, 5))
    ax.legend(loc="upper left")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    view.value = f"<img src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'>"


steps_slider = widgets.IntSlider(value=5, min=1, max=20, description="steps",
                                 continuous_update=False)
view = widgets.HTML()
steps_slider.observe(redraw, names="value")
redraw()
widgets.VBox([steps_slider, view])

# %% [markdown]
# The leaking line grows by 896 elements a step, without end; the fixed one stays at 0 (the
# `del loss` in the loop drops the current step's graph too; without it, one graph would be
# alive at a time).
#
# ## 6. Where did the NaN come from? `detect_anomaly`
#
# A NaN in a gradient is hard to trace: once one appears, it spreads to everything computed
# from it, and the `.grad` you look at says nothing about where it started. A classic source is
# [`torch.where`](https://docs.pytorch.org/docs/stable/generated/torch.where.html) around a function that is undefined somewhere, to "protect" it:

# %%
# %%both x
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
y = torch.where(x > 0, x.sqrt(), 0.0)
print(y)
y.sum().backward()
print(x.grad)

# %% [markdown]
# The forward pass is fine, but `x.grad[0]` is NaN. `where` does not stop `sqrt` from being
# computed at 0; it only sends a gradient of 0 to that entry. `SqrtBackward0` then computes
# $\frac{0}{2\sqrt 0} = \frac{0}{0} = \text{NaN}$.
#
# [`torch.autograd.detect_anomaly()`](https://docs.pytorch.org/docs/stable/autograd.html#torch.autograd.detect_anomaly)
# finds such a node for you. Inside it, every node remembers the stack of the forward call that
# created it, and backward checks every node's output: the first NaN raises a `RuntimeError`
# naming the node, after a warning showing where its forward was called. That stack contains
# file paths that differ from machine to machine, so this cell catches the warnings and prints
# only their first line and the line of *this* cell (`"<cell>"` is how the comparison tool names
# its cells; in your own notebook you see your file and the source line):

# %%
# %%both x
import warnings

x.grad = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            y = torch.where(x > 0, x.sqrt(), 0.0)
            y.sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", error)

for warning in caught:
    lines = str(warning.message).splitlines()
    print("warning:", lines[0])
    for line in lines:
        if line.strip().startswith('File "<cell>"'):
            print("   ", line.strip())

# %% [markdown]
# The first warning says that anomaly mode is on (it slows everything down: use it for
# debugging only). The second names `SqrtBackward0` and line 8 of the cell's code (the tool
# does not count the `%%both` line), the `x.sqrt()` line. The fix: make the value inside the
# `where` safe, so the unused branch has a finite derivative too.

# %%
# %%both x
x.grad = None
safe_x = torch.where(x > 0, x, 1.0)          # 1.0 where sqrt would be undefined; any value > 0
y = torch.where(x > 0, safe_x.sqrt(), 0.0)
y.sum().backward()
print(x.grad)

# %% [markdown]
# Anomaly mode names the first node whose backward *returns* NaN, which is not always the
# culprit. The length of a zero vector, `(v ** 2).sum().sqrt()`, has an infinite slope at 0:
# `SqrtBackward0` returns `inf` (not NaN), `SumBackward0` copies that `inf` to every entry,
# and the NaN appears two nodes later, in `PowBackward0`, as $\infty \cdot 2v = \infty \cdot 0$:

# %%
# %%both
v = torch.zeros(3, requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the same two warnings as above (the second names PowBackward0)
    with torch.autograd.detect_anomaly():
        (v ** 2).sum().sqrt().backward()

# %% [markdown]
# The fix: compute the length with
# [`v.norm()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.norm.html) (which
# calls `torch.linalg.vector_norm`, hence its node's name). Its backward is one node for the
# whole formula, $v / \lVert v \rVert$, and torch special-cases the zero vector: there the
# gradient is 0 instead of $0 / 0$. (The length has a corner at 0,
# like $|x|$, so no slope is the true one; 0 is the choice that keeps training going.) Away
# from 0 it is the usual gradient:

# %%
# %%both v u
v = torch.zeros(3, requires_grad=True)
v.norm().backward()
print("at 0:       ", v.grad, type(v.norm().grad_fn).__name__)
u = torch.tensor([3.0, 4.0, 0.0], requires_grad=True)
u.norm().backward()
print("at (3, 4, 0):", u.grad)

# %% [markdown]
# ### Look inside: anomaly mode in minigrad
#
# minigrad's engine calls every node through `checked_apply` while anomaly mode is on:

# %%
print(inspect.getsource(minigrad.autograd.anomaly_mode.checked_apply))

# %% [markdown]
# ## Where minigrad differs from torch
#
# * minigrad's `torch.linalg` has only part of torch's (norms, determinants, `solve`, `inv`; no
#   decompositions such as `svd` or `eigh`). Section 6 calls `v.norm()`, which both engines
#   compute as `torch.linalg.vector_norm` (the same node, `LinalgVectorNormBackward0`).
# * minigrad's tensors are always on the CPU, so its `save_on_cpu` keeps saved tensors as they
#   are (torch's copies them to the CPU and back).
# * minigrad's nodes also list everything they saved in a dict, `grad_fn._saved` (torch has
#   no such attribute); the `_saved_<name>` attributes read the same saved tensors.
# * Everything else (which op keeps what, the errors, the hooks, anomaly mode's messages and
#   the node it names) is the same on both engines, as the checked cells show.

# %% [markdown]
# ## Self-check
#
# 1. `a` and `b` both require grad. Which tensors does the graph of `y = (a * b).tanh()`
#    save, and why? And if only `a` required grad?
# 2. You read `z.grad_fn._saved_self` after `z.backward()` and get "Trying to backward through
#    the graph a second time...". Why, and what are the two ways out?
# 3. A pack hook returns `t.to(torch.float16)`. What do you gain, and what do you lose?
# 4. What does a checkpointed block keep for backward, and what does it cost? When is
#    `use_reentrant=False` needed?
# 5. `valid_losses.append(criterion(model(x), y))` runs inside an evaluation loop without
#    `torch.no_grad()`. What stays alive, and what are the fixes?
# 6. Anomaly mode reports "Function 'PowBackward0' returned nan values in its 0th output."
#    Must the bug be in the power?
# 7. A block with dropout is checkpointed by a hand-made Function like section 4's
#    `Checkpoint`. Nothing fails. What is wrong, and what does `torch.utils.checkpoint` do
#    about it?
#
# <details><summary>Answers</summary>
#
# 1. `mul` keeps `a` and `b` (each one's derivative is the other), `tanh` keeps its output
#    ($1 - \tanh^2$ needs only that). If only `a` required grad, `mul` would keep only `b`
#    (the gradient of `a` needs `b`; `a` would only be needed for `b`'s gradient).
# 2. The first backward freed the saved tensors. Read them before backward, or pass
#    `retain_graph=True` to the backward (and leave it out of the last one).
# 3. Half the memory of every saved tensor; the gradient is computed from rounded values
#    (about 3 significant digits), so it is slightly wrong.
# 4. Only its inputs. In backward it runs its forward pass again: extra computation (about a
#    third more per training step when everything is checkpointed). `use_reentrant=False` is
#    needed for `torch.autograd.grad` (or `backward(inputs=...)`) and for weights the block
#    reads from outside instead of taking them as arguments; it is the recommended mode
#    anyway.
# 5. Every batch's whole graph with all its saved tensors, because no backward frees them.
#    Append `loss.item()` (or `loss.detach()`), and evaluate under `torch.no_grad()`.
# 6. No: it names the first node whose backward *returned* NaN. An `inf` from the node before
#    (e.g. `sqrt` at 0) becomes NaN there. (For a length, `v.norm()` has gradient 0 at 0.)
# 7. The recomputation draws new random numbers, so backward differentiates a network with
#    other dropout masks than the one that made the loss: a wrong gradient, silently.
#    `torch.utils.checkpoint` saves the random generator's state before the forward pass and
#    restores it for the recomputation (`preserve_rng_state=True`, the default).
#
# </details>
#
# **Exercises:** `exercises/14_memory_and_debugging.ipynb`. Next: lesson 15, the capstone: build your own engine.
