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
# # 10 · Visualising graphs
#
# Every lesson so far has drawn its graphs. This one is about the drawing tool itself: what
# each box and arrow means, which options change the picture, and how to watch a backward
# pass run node by node.
#
# **Goals.** After this lesson you can
#
# * draw the backward graph of any tensor with `make_dot` and read it (output, nodes, leaves);
# * use its options: `params` to name tensors, `show_attrs` and `show_saved` to see what each
#   node kept for backward, `show_values` to write values and gradients on the boxes;
# * put minigrad's graph next to torch's for the same code and spot a difference;
# * step through `backward()` in the order the engine really runs the nodes, and see
#   gradients add up where a tensor was used twice;
# * draw the same graph with the real torchviz and say where it differs from `viz.make_dot`;
# * fold a big graph (one box per layer of a model, or per step of a loop) and expand a block.
#
# **Time:** about 35 minutes.
#
# `make_dot` here is the course's own drawing function, in `coursekit.viz`. It follows
# [torchviz](https://github.com/szagoruyko/pytorchviz)'s `make_dot` (same arguments, same
# colours, same boxes) and works on minigrad tensors *and* torch tensors. Section 7 draws with
# the real torchviz next to it and shows where the two differ; section 8 shows what torchviz
# cannot do: fold a big graph into one box per layer or per loop step. It needs the Graphviz
# `dot` program; without it, `viz.show` prints how to install it and gives you the DOT text
# instead.

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
# ## 1. A first drawing
#
# A tiny linear model: a weight vector `w` and a bias `b` that we want gradients for, and an
# input `x` that is just data. The output is `z = x·w + b`.
#
# As in every lesson, the cell below runs twice, once on torch and once on minigrad, and the
# last line confirms that both engines printed the same thing and built the same tensors.

# %%
# %%both x w b z
w = torch.ones(5, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
x = torch.ones(5)
z = x.dot(w) + b
print(z)

# %% [markdown]
# After a `%%both` cell, the names it defined exist twice: `compare.get("z")` is minigrad's
# `z`, and the plain name `z` in the notebook is torch's. We draw minigrad's graph:

# %%
viz.show(viz.make_dot(compare.get("z")))

# %% [markdown]
# How to read it:
#
# * The **green** box at the bottom is the tensor you asked for, `z`. Its first line is its
#   name (empty: we did not give one), the second its shape (`()` is a scalar).
# * The **grey** boxes are the backward nodes, the `grad_fn` objects: `AddBackward0` is
#   `z.grad_fn`, `DotBackward0` made the dot product. Their names are torch's.
# * The **light blue** boxes are leaves that require a gradient, each behind an
#   `AccumulateGrad` node: that node's job is to add the incoming gradient into the leaf's
#   `.grad`.
# * Arrows follow the forward pass (from an input to the operation that used it), as in
#   torchviz. `backward()` walks them the other way, from the green box up to the blue ones.
#
# Where is `x`? It does not require a gradient, so no gradient will ever flow into it: autograd
# keeps no edge to it (the matching entry in `next_functions` is `None`) and the drawing has no
# box for it. Only the leaves that require gradients appear.

# %% [markdown]
# ### `params`: naming the boxes
#
# The unnamed blue boxes are hard to tell apart. `params` is a dictionary from names to
# tensors; every tensor found in it gets its name written in its box. Naming `x` does not make
# it appear: it is still not part of the graph.

# %%
mg_params = {"x": compare.get("x"), "w": compare.get("w"), "b": compare.get("b")}
viz.show(viz.make_dot(compare.get("z"), params=mg_params))

# %% [markdown]
# The picture is only a rendering of DOT text, which you can print (or paste into any Graphviz
# viewer). The text is deterministic: node numbers come from the order in which the walk meets
# the nodes, never from memory addresses, so the same code always gives the same text. Drawn
# from torch's tensors, it is exactly the same:

# %%
torch_params = {"x": x, "w": w, "b": b}
dot_minigrad = viz.make_dot(compare.get("z"), params=mg_params)
dot_torch = viz.make_dot(z, params=torch_params)
print(dot_minigrad.source)
print("same DOT text for torch:", dot_minigrad.source == dot_torch.source)

# %% [markdown]
# ### Look inside: how the walk finds the boxes
#
# The walker starts at `z.grad_fn` and follows `next_functions`, exactly the pairs the engine
# follows during `backward()`. A node with a `variable` attribute is an `AccumulateGrad`, and
# `variable` is its leaf. These are the lines of `coursekit.viz` that do it:

# %%
import inspect
print(inspect.getsource(viz.GraphWalk._add_fns))

# %% [markdown]
# ## 2. What each node saved: `show_attrs` and `show_saved`
#
# For the rest of the lesson we use a slightly bigger function of two scalars:
#
# $$u = x\,y, \qquad v = \sin x, \qquad s = u + v, \qquad z = s^2 \qquad\text{at } x = 2,\ y = 3.$$
#
# `x` is used twice (in `u` and in `v`), which will matter when we step through backward.

# %%
# %%both x y u v s z
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
u = x * y
v = torch.sin(x)
s = u + v
z = s ** 2
print(z)

# %% [markdown]
# To compute its gradients later, each node keeps what its local derivative needs:
# `MulBackward0` needs both factors (∂(xy)/∂x = y and ∂(xy)/∂y = x), `SinBackward0` needs its
# input (for cos x), `PowBackward0` needs its base and the exponent. `AddBackward0` needs
# nothing but the number `alpha` (from `a + alpha * b`, here 1).
#
# * `show_attrs=True` lists these inside each node: plain values as they are, tensors as
#   `[saved tensor]`.
# * `show_saved=True` also draws each saved tensor as an **orange** box tied to its node.

# %%
mg = {k: compare.get(k) for k in ("x", "y")}
viz.show(viz.make_dot(compare.get("z"), params=mg, show_attrs=True, show_saved=True))

# %% [markdown]
# The orange boxes are named after the argument they came from (`self` is the first input,
# `other` the second). `MulBackward0` kept `x` and `y`, `SinBackward0` kept `x` as well,
# and `PowBackward0` kept `s`. This is the memory a graph costs you between the forward and
# the backward pass.
#
# `backward()` frees the saved tensors once it has used them (unless you pass
# `retain_graph=True`). Draw the same graph after a backward pass and the orange boxes are gone;
# the plain numbers (`exponent`, `alpha`) stay:

# %%
# %%both x y z
z.backward()
print(x.grad, y.grad)

# %%
viz.show(viz.make_dot(compare.get("z"), params=mg, show_attrs=True, show_saved=True))

# %% [markdown]
# That is also why a second `backward()` on the same graph fails: the tensors the formulas
# need are gone. This is the error you will meet, with torch's message:

# %%
# %%both x
z.backward()

# %% [markdown]
# ## 3. Values and gradients on the drawing: `show_values`
#
# `show_values=True` writes on each box the tensor's **value** (green) and, once a backward
# pass has filled it, its **gradient** (blue). This is an addition of the course: torchviz has
# no such option.
#
# Leaves are always known. An intermediate tensor is known only if you name it in `params`,
# and its gradient only shows if you asked autograd to keep it with `retain_grad()` before
# `backward()` (lesson 04); otherwise `.grad` of a non-leaf stays `None`.

# %%
# %%both x y u v s z
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
u = x * y
v = torch.sin(x)
s = u + v
z = s ** 2
for t in (u, v, s):
    t.retain_grad()
z.backward()
print(f"dz/dx = {x.grad.item():.4f}, dz/dy = {y.grad.item():.4f}")

# %%
names = ("x", "y", "u", "v", "s")
mg = {k: compare.get(k) for k in names}
viz.show(viz.make_dot(compare.get("z"), params=mg, show_values=True))

# %% [markdown]
# Check a few numbers against the chain rule, reading the boxes from the bottom up:
#
# * z = s², so dz/ds = 2s = 2 · 6.909 = 13.82 (the blue line on `s`).
# * s = u + v passes 13.82 unchanged to both `u` and `v`.
# * u = x·y, so dz/dy = 13.82 · x = 27.64, and u's share of dz/dx is 13.82 · y = 41.46.
# * v = sin x, so v's share of dz/dx is 13.82 · cos 2 = −5.751.
# * `x` was used twice, so its gradient is the sum of both shares: 41.46 − 5.751 = 35.71.

# %% [markdown]
# ## 4. minigrad next to torch
#
# `viz.side_by_side` draws two graphs in one picture, minigrad's on the left and torch's on the
# right, each with its own `params` (the names must point at each engine's own tensors). It
# takes the same options as `make_dot`.

# %%
torch_named = {"x": x, "y": y, "u": u, "v": v, "s": s}  # torch's tensors
viz.show(viz.side_by_side(compare.get("z"), z, params=mg, torch_params=torch_named,
                          show_values=True))

# %% [markdown]
# The two are the same box for box, and every `%%both` cell checks this for you: it walks
# both graphs and fails if a node's name or its inputs differ. The drawings are a way to *see*
# what that check compares.
#
# **What a node saves.** With `show_saved` you see what each node keeps for backward, and both
# engines keep only what the gradients they will really compute need. Back to the model of
# section 1, where `x` is data: the gradient for `w` needs `x`, but nothing needs `w`, because
# no gradient is computed for `x`. So the dot product saves `x` alone (torch lists its other
# slot, `tensor`, as `None`), on both engines:

# %%
# %%both z2
w = torch.ones(5, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
x = torch.ones(5)
z2 = x.dot(w) + b

# %%
mg2 = {k: compare.get(k) for k in ("x", "w", "b")}
torch2 = {"x": x, "w": w, "b": b}
viz.show(viz.side_by_side(compare.get("z2"), z2, params=mg2, torch_params=torch2,
                          show_attrs=True, show_saved=True))

# %% [markdown]
# Two differences you may meet with `show_attrs`: minigrad names a few plain attributes
# differently (its `SumBackward0` shows `self_shape` where torch shows `self_sym_sizes`), and
# to find what a node saved, `viz` reads torch's `_saved_<name>` attributes but minigrad's
# dictionary `z.grad_fn._saved` (minigrad has both; torch only the attributes). Knowing both
# ways is why one drawing function serves both engines.

# %% [markdown]
# ## 5. Stepping through backward
#
# A drawing shows the finished graph. `coursekit.stepper` shows the backward pass as it
# happens: `BackwardStepper(z, params)` runs `z.backward()` once, recording every node the
# engine runs, the gradients it received and the ones it sent on. It records them with two
# hooks on every node, which both engines have: `register_prehook` (called as the node starts,
# with the gradients it received) and `register_hook` (called after it, with the gradients it
# sent on). So the printed order below is what each engine really did, and the `%%both` check
# confirms they did the same:

# %%
# %%both x y z
from coursekit.stepper import BackwardStepper

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
u = x * y
v = torch.sin(x)
s = u + v
z = s ** 2
stepper = BackwardStepper(z, {"x": x, "y": y})
print(len(stepper), "steps:", stepper.order)

# %% [markdown]
# Why `SinBackward0` before `MulBackward0`? Both are ready once `AddBackward0` has run. The
# engine keeps ready nodes in a priority queue and runs the most recently *created* node first:
# `sin` was recorded after `*`, so it goes first. `AccumulateGrad` nodes jump the queue. Here
# are the lines of minigrad's engine that set this order:

# %%
from minigrad.autograd import engine
print(inspect.getsource(engine._Ready))

# %% [markdown]
# `stepper.frame(k)` draws the graph at step `k` (counting from 0). The node running now is
# gold, the nodes already run are pale green, and each edge that has carried a gradient is
# labelled with it in blue. Here is step 5 (`k = 4`), where `x`'s `AccumulateGrad` runs: two
# gradients arrived at it, one through `sin` and one through `*`, and the node shows their sum.

# %%
mg_stepper = compare.get("stepper")
viz.show(mg_stepper.frame(4))

# %% [markdown]
# `stepper.widget()` (or the one-liner `step_through(z, params)`) puts all the frames behind a
# play button and a slider. Press play, or drag the slider, and watch the gradient travel from
# `z` up to the leaves.

# %%
mg_stepper.widget()

# %% [markdown]
# The stepper really ran `backward()`, so the graph is now spent: calling `z.backward()` again
# gives the error of section 2. To step once more, run the cell that builds the stepper
# again: it builds a fresh graph.

# %% [markdown]
# ## 6. Try it: move x and y
#
# Drag the sliders: the cell rebuilds `z = (x·y + sin x)²` with minigrad, runs `backward()`, and
# redraws the graph with values and gradients. Things to try: at x = 0 the sum
# s = x·y + sin x is 0, so every gradient is 0. With y = −0.5, slide x to about ±1.0: there
# y + cos x is close to 0, so `dz/dx` almost vanishes while `dz/dy` does not. And watch the
# share of `dz/dx` coming through `sin` change sign with cos x as x passes ±1.6.
#
# (Widget callbacks call minigrad directly; they are plain Python, not `%%both` cells. The
# picture is an HTML widget holding the SVG text that Graphviz renders, replaced on every move.)

# %%
def graph_svg(x, y):
    """Build z = (x*y + sin x)**2 with minigrad, run backward, and draw it as SVG text."""
    xs = minigrad.tensor(x, requires_grad=True)
    ys = minigrad.tensor(y, requires_grad=True)
    u = xs * ys
    v = minigrad.sin(xs)
    s = u + v
    z = s ** 2
    for t in (u, v, s):
        t.retain_grad()
    z.backward()
    dot = viz.make_dot(z, params=dict(x=xs, y=ys, u=u, v=v, s=s), show_values=True)
    return dot.pipe(format="svg", encoding="utf-8")


x_slider = widgets.FloatSlider(value=2.0, min=-3.0, max=3.0, step=0.1, description="x")
y_slider = widgets.FloatSlider(value=3.0, min=-3.0, max=3.0, step=0.1, description="y")
picture = widgets.HTML(graph_svg(x_slider.value, y_slider.value))


def redraw(change):
    picture.value = graph_svg(x_slider.value, y_slider.value)


x_slider.observe(redraw, names="value")
y_slider.observe(redraw, names="value")
widgets.VBox([widgets.HBox([x_slider, y_slider]), picture])

# %% [markdown]
# ## 7. The real torchviz, side by side
#
# The course environment installs torchviz itself (pinned at version 0.0.3, the latest), so we
# can compare. We build a fresh `z = (x·y + sin x)²`, then draw torch's `z` twice: once with
# `torchviz.make_dot`, once with `viz.make_dot`.

# %%
# %%both x y z
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = (x * y + torch.sin(x)) ** 2
print(z)

# %% [markdown]
# torchviz names each box after the Python `id()` of its object, a memory address that is
# different on every run. `viz.stable_ids` renumbers them `t0, t1, ...` in order, so the
# notebook's stored output stays the same; it changes nothing else. `viz.beside` puts two
# finished drawings in one picture.

# %%
import torchviz

named = {"x": x, "y": y}  # torch's tensors: torchviz only knows torch
theirs = viz.stable_ids(torchviz.make_dot(z, params=named))
ours = viz.make_dot(z, params=named)
print("same boxes and arrows:", viz.structure(theirs) == viz.structure(ours))
theirs_attrs = viz.stable_ids(torchviz.make_dot(z, params=named, show_attrs=True))
ours_attrs = viz.make_dot(z, params=named, show_attrs=True)
print("with show_attrs=True too:", viz.structure(theirs_attrs) == viz.structure(ours_attrs))
viz.show(viz.beside(torchviz=theirs, coursekit_viz=ours))

# %% [markdown]
# `viz.structure` counts each box (its label and colour) and each arrow (which box to which
# box), ignoring the ids: the two drawings are the same picture, with `show_attrs=True` as
# well. Three things differ, though.
#
# **1. Values and gradients.** `show_values` is the course's addition; torchviz's `make_dot`
# has no such argument, so Python refuses the call:

# %%
try:
    torchviz.make_dot(z, params=named, show_values=True)
except TypeError as error:
    print("TypeError:", error)

# %% [markdown]
# **2. Saved tensors that are also leaves.** torchviz draws a saved tensor as the box named
# after its `id()`. When the saved tensor *is* a leaf (here `MulBackward0` saved `x` and `y`,
# and `SinBackward0` saved `x`), reading it back gives the leaf's own Python object, so
# torchviz draws no new box: it relabels the leaf's box, and the last label written wins
# (`x` turns into an orange box named `self`). `viz.make_dot` draws one orange box per saved
# slot, next to the node that saved it.

# %%
mul_node = z.grad_fn.next_functions[0][0].next_functions[0][0]
print(type(mul_node).__name__, "saved x itself:", mul_node._saved_self is x)
theirs_saved = viz.stable_ids(torchviz.make_dot(z, params=named, show_saved=True))
ours_saved = viz.make_dot(z, params=named, show_saved=True)
viz.show(viz.beside(torchviz=theirs_saved, coursekit_viz=ours_saved))

# %% [markdown]
# **3. After `backward()`.** Backward frees the saved tensors (section 2, and torch's notes on
# [saved tensors](https://docs.pytorch.org/docs/stable/notes/autograd.html#saved-tensors)). Reading
# `grad_fn._saved_self` after that raises a `RuntimeError`, and torchviz 0.0.3 reads every
# `_saved_` attribute without catching it, so `make_dot(..., show_saved=True)` (and
# `show_attrs=True`) fails with torch's error. Plain `make_dot(z)` still works.
# `viz.make_dot` catches that error and leaves the freed tensors out.

# %%
z.backward()
for option in ("show_saved", "show_attrs"):
    try:
        torchviz.make_dot(z, params=named, **{option: True})
    except RuntimeError as error:
        print(f"torchviz, {option}=True -> RuntimeError: {str(error)[:95]}...")
after = viz.make_dot(z, params=named, show_saved=True, show_attrs=True)
print("viz.make_dot after backward: orange boxes?", "orange" in after.source)

# %% [markdown]
# ## 8. Folding big graphs
#
# A real model's graph has hundreds of boxes, and torchviz draws every one of them: its
# `make_dot` has no way to fold part of the graph away. `viz.make_dot` takes a `fold`
# argument: a list of **blocks**, each drawn as one khaki box with its name, the number of
# boxes it hides and the shapes going in and out. `expand=[...]` names the blocks to draw in
# full, inside a dashed frame.
#
# `viz.record_modules(model)` records one block per call of each child of a model. Here is a
# small MLP, `nn.Sequential` of `Linear` and `Tanh` layers, with the same weights on both
# engines:

# %%
# %%both loss
from coursekit import viz

model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(),
                            torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(same_random(*p.shape)))
data = torch.tensor(same_random(2, 3))
with viz.record_modules(model) as layers:
    loss = model(data).pow(2).mean()
print(layers.names)
print(loss)

# %%
mg_model, mg_layers = compare.get("model"), compare.get("layers")
mg_named = dict(mg_model.named_parameters())
viz.show(viz.make_dot(compare.get("loss"), params=mg_named, fold=mg_layers))

# %% [markdown]
# Each `Linear` box hides 6 boxes: `AddmmBackward0` (the fused `bias + input @ weight.T`, see
# [`nn.Linear`](https://docs.pytorch.org/docs/stable/generated/torch.nn.Linear.html)),
# `TBackward0` (the transpose), two `AccumulateGrad` and the two parameters. Expand the
# middle layer:

# %%
viz.show(viz.make_dot(compare.get("loss"), params=mg_named, fold=mg_layers,
                      expand=["2: Linear"]))

# %% [markdown]
# How does `make_dot` know which boxes a block holds? A block only records the tensors that
# went in and came out. The boxes it folds are those reachable backward from its outputs, minus
# those reachable from its inputs (built before it ran), minus any box that something outside
# the block also uses. The last rule matters for loops, below. The same rules read
# `next_functions` on both engines, so torch's folded drawing has the same DOT text:

# %%
from coursekit import fold
print(inspect.getsource(fold.block_nodes))
torch_folded = viz.make_dot(loss, params=dict(model.named_parameters()), fold=layers)
mg_folded = viz.make_dot(compare.get("loss"), params=mg_named, fold=mg_layers)
print("same DOT text for torch:", torch_folded.source == mg_folded.source)

# %% [markdown]
# ### A 20-step loop
#
# A recurrence `h ← tanh(W h + xₜ)`, run for 20 steps with one weight `W`, is how a small RNN
# reads a sequence. Record each step as a block with `blocks.add(name, outputs, inputs)`
# (it returns `outputs`, so it fits inside the loop):

# %%
# %%both W h
from coursekit import viz

W = torch.tensor(same_random(3, 3) * 0.5, requires_grad=True)
xs = torch.tensor(same_random(20, 3))
h = torch.zeros(3)
steps = viz.Blocks()
for t in range(20):
    h = steps.add(f"step {t}", torch.tanh(W.mv(h) + xs[t]), inputs=h)
out = h.sum()
print(out)

# %% [markdown]
# Unfolded, the graph is a long chain of boxes (the count is printed below). Folded, it has
# one box per step, and `W` stays outside: all 20 steps use it, so by the third rule it belongs
# to none of them, and an arrow from its `AccumulateGrad` goes into every step. Pick steps in the list to expand them
# (ctrl-click or shift-click to pick several):

# %%
mg_out, mg_steps = compare.get("out"), compare.get("steps")
mg_W = {"W": compare.get("W")}
count = sum(viz.structure(viz.make_dot(mg_out, params=mg_W))[0].values())
folded_count = sum(viz.structure(viz.make_dot(mg_out, params=mg_W, fold=mg_steps))[0].values())
print(f"boxes: {count} unfolded, {folded_count} folded")
viz.fold_widget(mg_out, mg_steps, params=mg_W)

# %% [markdown]
# ## Summary
#
# * `make_dot(z)` draws the backward graph of `z`: the output in green, backward nodes in grey,
#   leaves that require grad in light blue behind their `AccumulateGrad`. Tensors that do not
#   require a gradient are not drawn.
# * `params` names boxes; `show_attrs` lists what each node kept; `show_saved` draws saved
#   tensors in orange (gone after `backward()`); `show_values` writes values and gradients
#   (intermediate ones need a name in `params` and `retain_grad()`).
# * `side_by_side` puts minigrad's graph next to torch's; the graphs match, and so does the
#   order the engines run the nodes in, and what each node saves.
# * `BackwardStepper` and `step_through` replay a real backward pass node by node; a leaf
#   used twice receives the sum of two gradients.
# * The real torchviz draws the same boxes and arrows, but has no values, merges a saved leaf
#   into the leaf's box, and fails with `show_saved`/`show_attrs` after `backward()`.
# * `fold=blocks` draws each block (a layer from `record_modules`, a loop step from
#   `Blocks.add`) as one box; `expand=[...]` or `fold_widget` opens blocks again.
#
# ## Self-check
#
# 1. In `z = x.dot(w) + b`, why is there no box for `x`?
#
# <details><summary>Answer</summary>
#
# `x` does not require a gradient. Autograd records no edge to it (its entry in
# `next_functions` is `None`), and `make_dot` only draws what it reaches through
# `next_functions`. Naming it in `params` does not change that.
# </details>
#
# 2. You drew a graph with `show_saved=True` after calling `backward()` and saw no orange
#    boxes. Why, and how would you keep them?
#
# <details><summary>Answer</summary>
#
# `backward()` frees the tensors saved for backward as soon as each node has used them. Draw
# before calling `backward()`, or call `backward(retain_graph=True)`.
# </details>
#
# 3. With `show_values=True` the box of `s` shows a value but no gradient. What is missing?
#
# <details><summary>Answer</summary>
#
# `s` is not a leaf, so its gradient is not kept unless you call `s.retain_grad()` before
# `backward()`. (It must also be named in `params` for its value to appear.)
# </details>
#
# 4. In the stepper, `x`'s `AccumulateGrad` shows `-5.751 + 41.46 = 35.71`. Where do the two
#    numbers come from?
#
# <details><summary>Answer</summary>
#
# `x` was used twice, in `u = x·y` and in `v = sin x`. Each use sends back its own share:
# 13.82 · y = 41.46 through the product and 13.82 · cos 2 = −5.751 through the sine. The
# gradients of the uses of a tensor add up.
# </details>
#
# 5. Both `SinBackward0` and `MulBackward0` are ready after `AddBackward0`. Which runs first,
#    and why?
#
# <details><summary>Answer</summary>
#
# `SinBackward0`: among ready nodes, the engine runs the one created last, and `sin` was
# recorded after the product.
# </details>
#
# 6. `torchviz.make_dot(z, show_saved=True)` worked before `z.backward()` and raises after it.
#    Why?
#
# <details><summary>Answer</summary>
#
# `backward()` frees the tensors each node saved. torchviz reads every `_saved_...` attribute,
# and reading a freed one raises torch's `RuntimeError`; torchviz does not catch it.
# </details>
#
# 7. In the folded 20-step loop, why is `W` not inside `step 0`, although step 0 uses it?
#
# <details><summary>Answer</summary>
#
# Every step uses `W`. A box that something outside a block also uses is left out of the
# block, so `W` (and its `AccumulateGrad`) stays in the drawing with an arrow into each step.
# </details>
#
# **Exercises:** `exercises/10_visualising_graphs.ipynb`. Next: lesson 11, non-scalar outputs.
