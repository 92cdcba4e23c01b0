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
# # 00 · Welcome: how this course works
#
# This course explains how PyTorch's **autograd** works: how a graph is recorded while your
# code runs, how [`backward()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html) walks it, and why things like `retain_graph`, `no_grad`,
# `detach` or in-place operations behave the way they do. You only need basic PyTorch:
# making tensors, doing arithmetic on them, calling `backward()`.
#
# **Goals of this page**
#
# - Know the two engines the course runs side by side: real `torch` and `minigrad`.
# - Read a `%%both` cell: what it runs, what it compares, what the `✓` line means.
# - See what happens when the engines disagree, and how errors are shown.
# - Draw a backward graph, with values and gradients, and redraw it from a slider.
# - Find your way through the lessons and their exercises, and know what minigrad covers.
#
# **Time:** about 15 minutes.

# %% [markdown]
# ## The set-up cell
#
# Every lesson starts with the same cell. Run it first. It loads both engines, the
# `%%both` cell magic, and the two course tools: `compare` (runs a cell on both engines)
# and `viz` (draws graphs). The tools come from `coursekit`, the course's own package, kept
# apart from the engine: `minigrad` is only the autograd engine, and never needs them. The cell
# also fixes the random seeds, so every run prints the same numbers.

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
# ## 1. Two engines, one API
#
# **torch** is the real PyTorch (version 2.13). **minigrad** is a small autograd engine
# written for this course in plain Python and NumPy. It has the same names and the same
# behaviour as torch for everything the course needs: `minigrad.tensor`, [`requires_grad`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.requires_grad.html),
# [`grad_fn`](https://docs.pytorch.org/docs/stable/notes/autograd.html#how-autograd-encodes-the-history), `backward()`, `no_grad()`, `retain_grad()`, custom `Function`s, a little of
# `nn` and `optim`...
#
# Why a second engine? torch's autograd is written in C++, spread over many files. minigrad
# does the same job in a few thousand lines of Python that you can open from a notebook.
# When a lesson says "the engine keeps a counter per tensor", you can read the counter.
#
# The two look alike:

# %%
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(t * 2)
print(m * 2)
print(t.dtype, t.shape)
print(m.dtype, m.shape)

# %% [markdown]
# The values and the `grad_fn` are the same. The only visible difference is the prefix:
# minigrad's types print as `minigrad.float32` and `minigrad.Size`, because they are
# minigrad's own objects.
#
# minigrad's package documentation says where to start reading it:

# %%
print(minigrad.__doc__)

# %% [markdown]
# ## 2. Every cell runs twice: `%%both`
#
# Most code cells in the lessons start with `%%both`, followed by the names of the tensors
# to check. The cell is written with `torch`. It runs **twice**: once with the real torch,
# once with `minigrad` standing in for `torch` (even `import torch` inside the cell gives
# minigrad). Then the two runs are compared:
#
# - everything printed, every warning and every error message;
# - for each named tensor: its values, `.grad`, `requires_grad`, `is_leaf`, `grad_fn`,
#   and the shape of the whole backward graph behind it.
#
# If anything differs the cell raises an error, so a lesson cannot be stored (or pass the
# course's tests) while minigrad disagrees with torch. When they agree you see torch's
# output and one line starting with `✓`:

# %%
# %%both x y
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(y)
print(x.grad)

# %% [markdown]
# Read the `✓` line as a list of what was checked: the printed output, `x` and its gradient
# `x.grad`, and `y` (its value and its graph). Values are compared with a tolerance of about
# one part in 100,000, because NumPy and torch may round the last bit of a float differently.
#
# **Two namespaces.** Each engine keeps its own variables from cell to cell, so a later
# `%%both` cell can keep using `x` and `y`. After each cell, torch's variables are also
# copied into the notebook itself, so outside `%%both` the name `x` is a torch tensor.
# `compare.get("x")` fetches minigrad's `x`:

# %%
print(type(x).__module__, type(x).__name__)
print(type(compare.get("x")).__module__, type(compare.get("x")).__name__)
print(compare.get("x").grad)

# %% [markdown]
# Three options can follow the names: `--engine minigrad` shows minigrad's run instead of
# torch's (its `minigrad.` prefixes are spelled `torch.` so that both read alike),
# `--no-graph` skips the graph comparison, and `--quiet` hides the output.

# %%
# %%both y --engine minigrad
print(y.grad_fn)
print(y.grad_fn.next_functions)

# %% [markdown]
# Memory addresses change on every run, so the course prints them as `0x…`.

# %% [markdown]
# ## 3. When the engines disagree
#
# What does a failure look like? `compare.check` is the function behind `%%both`. Here it
# runs a line whose output cannot match: the name of the module called `torch` is `torch`
# in one run and `minigrad` in the other. We catch the error only to print it:

# %%
try:
    compare.check("print(torch.__name__)")
except AssertionError as error:
    print(error)

# %% [markdown]
# The message names what differs (`text`: the printed output) and shows a diff, torch's
# lines marked `-` and minigrad's `+`. In a lesson such a cell stops the notebook. So when
# you read a stored output with a `✓` under it, you know that minigrad produced the same
# thing.

# %% [markdown]
# ## 4. Errors are part of the lessons
#
# You will meet torch's error messages on purpose: calling `backward()` twice, changing a
# leaf in place, and so on. Such a cell simply contains the failing line. Both engines
# raise; if they raise the same error with the same message, the message is printed and
# the notebook carries on.
#
# Here a tensor that was never asked to track gradients is asked for one:

# %%
# %%both w
w = torch.tensor(2.0)
(w * 3).backward()

# %% [markdown]
# ## 5. Random numbers
#
# minigrad's random generator is torch's own (the same Mersenne Twister, seeded the same way,
# and the same recipes for `rand`, `randn`, `randint`, `randperm`), so after the same
# [`manual_seed`](https://docs.pytorch.org/docs/stable/generated/torch.manual_seed.html) both engines draw the same numbers. Each engine keeps its own generator,
# though, and outside `%%both` only torch draws: so inside a `%%both` cell, seed first.

# %%
# %%both a
torch.manual_seed(0)
a = torch.randn(2, 3)
print(a)

# %% [markdown]
# Another way, which needs no seed: `same_random(*shape)` returns a NumPy array that is
# identical in both runs, which you then turn into a tensor.

# %%
# %%both data
data = torch.tensor(same_random(2, 3))
print(data)

# %% [markdown]
# ## 6. Drawing a graph
#
# While you compute with tensors that require gradients, autograd records a **backward
# graph**. `viz.make_dot` draws it (it follows the `torchviz` package and works for torch and
# minigrad tensors alike); `viz.show` turns the drawing into an SVG picture.
#
# Let's draw the graph of `y = (x * x).sum()` from section 2, as minigrad recorded it:

# %%
viz.show(viz.make_dot(compare.get("y"), params={"x": compare.get("x")}))

# %% [markdown]
# How to read it:
#
# - the **light blue** box is a leaf tensor that requires gradients (`x`, shape `(3)`);
# - the **grey** boxes are backward nodes (`MulBackward0`, `SumBackward0`...): the steps
#   `backward()` will run; `AccumulateGrad` stores a gradient into a leaf's `.grad`;
# - the **green** box at the bottom is the output `y`;
# - arrows point the way the forward computation went; the gradient flows against them.
#   `x` is used twice by the multiplication (`x * x`), so two arrows lead from `x`'s
#   `AccumulateGrad` into `MulBackward0`.
#
# With `show_values=True` each named tensor also shows its value (green) and its gradient
# (blue). `viz.side_by_side` puts minigrad's drawing next to torch's, for the same code:

# %%
viz.show(viz.side_by_side(compare.get("y"), y,
                          params={"x": compare.get("x"), "y": compare.get("y")},
                          torch_params={"x": x, "y": y}, show_values=True))

# %% [markdown]
# The two graphs have the same nodes. Node names are the ones torch uses; in lesson 03 you
# will see that these nodes are real objects you can inspect.

# %% [markdown]
# ## 7. Your first widget
#
# Every lesson has at least one slider that recomputes something and redraws it. The
# callback (`draw_cubic` below) calls minigrad directly, as plain Python without `%%both`,
# because it runs again each time you move the slider; it writes its text and drawing into
# an HTML box under the slider. Move `x` and watch the value of `f = x³ − 2x` and its
# gradient `3x² − 2`:
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import html


def draw_cubic(change=None):
    x = minigrad.tensor(x_slider.value, requires_grad=True)
    f = x * x * x - 2 * x
    f.backward()
    message = (f"f = {f.item():.3f}   df/dx = {x.grad.item():.3f}   "
               f"(3x² − 2 = {3 * x_slider.value**2 - 2:.3f})")
    graph = viz.show(viz.make_dot(f, params={"x": x, "f": f}, show_values=True))
    view.value = f"<pre>{html.escape(message)}</pre>{graph.data}"


x_slider = widgets.FloatSlider(value=1.0, min=-2.0, max=2.0, step=0.25, description="x")
view = widgets.HTML()
x_slider.observe(draw_cubic, names="value")
draw_cubic()
widgets.VBox([x_slider, view])

# %% [markdown]
# ## 8. Look inside: what the check forgives
#
# The comparison is strict, with a short list of exceptions. They are all in one small
# function of `coursekit/compare.py`; here it is:

# %%
import inspect

print(inspect.getsource(compare.normalize))

# %% [markdown]
# ## Where minigrad differs from torch
#
# The course says so each time it matters. In short:
#
# - Types and names print with a `minigrad.` prefix: `minigrad.float32`, `minigrad.Size`,
#   and the leaf node's long name `minigrad::autograd::AccumulateGrad`.
# - Random numbers are torch's after the same seed (section 5).
# - minigrad runs on the CPU only, with NumPy arrays underneath, and is much slower.
#
# Everything else that the lessons show (values, gradients, graphs, warnings, error
# messages) is checked to be the same.
#
# ### Pasting code from PyTorch's own tutorials
#
# You can paste a cell from PyTorch's autograd tutorials into a `%%both` cell (or run it with
# `import minigrad as torch`). minigrad covers what those tutorials and the autograd notes use:
#
# - tensors, their operations and methods, views and in-place operations, dtypes and printing;
# - `backward`, `torch.autograd.grad`, hooks (on tensors, nodes and saved tensors), custom
#   `torch.autograd.Function`s, forward mode (`torch.autograd.forward_ad`),
#   `torch.autograd.functional`, `gradcheck`, `detect_anomaly`, the profiler
#   (`torch.autograd.profiler`, `torch.profiler`);
# - `torch.func` (`grad`, `vjp`, `jvp`, `jacrev`, `jacfwd`, `hessian`, `vmap`,
#   `functional_call`) and `torch.utils.checkpoint`;
# - `torch.nn` for fully connected networks: `Linear`, `Sequential`, the common activations,
#   `Dropout`, `Embedding`, `Flatten`, `LayerNorm`, the usual losses (`MSELoss`,
#   `CrossEntropyLoss`, `NLLLoss`, `L1Loss`, `BCELoss`, `BCEWithLogitsLoss`...);
#   `torch.optim`'s `SGD`, `Adam`, `AdamW`, `RMSprop`, `Adagrad`; `torch.save`/`torch.load`;
#   `torch.utils.data`'s `TensorDataset` and `DataLoader`.
#
# Left out on purpose: convolution, pooling, recurrent and batch-norm layers, `torchvision`
# and downloads, GPUs (`torch.cuda.is_available()` is `False`, as on a CPU-only torch),
# `torch.compile` and `torch.jit`, and the dispatch extension points (`__torch_function__`,
# `__torch_dispatch__`). Each of them raises one clear error that says so and what to use
# instead, never a wrong answer:

# %%
try:
    minigrad.nn.Conv2d(1, 8, kernel_size=3)
except AttributeError as error:
    print(f"{type(error).__name__}: {error}")

# %% [markdown]
# (In a `%%both` cell, torch would build the layer and minigrad would raise: the engines
# disagree, so the cell stops with both outputs side by side. That is how you find out, on
# the first line, that a pasted cell needs something minigrad leaves out.)

# %% [markdown]
# ## The map of the course
#
# | lesson | what you learn | exercises |
# | --- | --- | --- |
# | `00_welcome` | this page: the two engines, `%%both`, drawing graphs | (none) |
# | `01_computational_graphs` | forward and backward passes, the chain rule, dynamic graphs | `exercises/01_computational_graphs.ipynb` |
# | `02_forward_vs_reverse` | both modes by hand and in code, Jacobians, why reverse | `exercises/02_forward_vs_reverse.ipynb` |
# | `03_building_the_graph` | `grad_fn`, leaves, `backward()`, `retain_graph`, `.grad` | `exercises/03_building_the_graph.ipynb` |
# | `04_intermediate_gradients` | `retain_grad`, the non-leaf `.grad` warning, hooks | `exercises/04_intermediate_gradients.ipynb` |
# | `05_pausing_the_graph` | `no_grad`, `inference_mode`, `.data`, freezing layers | `exercises/05_pausing_the_graph.ipynb` |
# | `06_detach_and_clone` | shared memory, five ways to make `y`, `detach().clone()` | `exercises/06_detach_and_clone.ipynb` |
# | `07_inplace_and_leaves` | in-place operations, the leaf error, version counters | `exercises/07_inplace_and_leaves.ipynb` |
# | `08_slicing_pitfalls` | views, `CopySlices`, the version error, `cat` vs slices | `exercises/08_slicing_pitfalls.ipynb` |
# | `09_custom_functions` | `autograd.Function`, `ctx`, `gradcheck`, training models | `exercises/09_custom_functions.ipynb` |
# | `10_visualising_graphs` | `make_dot` options, values on the drawing, torchviz, folding big graphs | `exercises/10_visualising_graphs.ipynb` |
# | `11_non_scalar_outputs` | `backward(gradient=v)`, `autograd.grad`, Jacobians row by row and column by column | `exercises/11_non_scalar_outputs.ipynb` |
# | `12_higher_order_gradients` | `create_graph=True`, second derivatives, Hessian-vector products, a gradient penalty | `exercises/12_higher_order_gradients.ipynb` |
# | `13_broadcasting_in_backward` | why broadcast gradients are summed, `expand` vs `repeat`, `mean` vs `sum` | `exercises/13_broadcasting_in_backward.ipynb` |
# | `14_memory_and_debugging` | what nodes save, saved-tensor hooks, checkpointing, leaks, `detect_anomaly` | `exercises/14_memory_and_debugging.ipynb` |
# | `15_build_your_own_engine` | capstone: write your own small autograd, train a network with it, then read minigrad's engine | `exercises/15_build_your_own_engine.ipynb` |
# | `16_non_differentiable_points` | gradients at corners, ties and infinite slopes, NaN gradients and the double `where` | `exercises/16_non_differentiable_points.ipynb` |
# | `17_functional_transforms` | `torch.func`: `grad`, `jacrev` or `jacfwd`, Hessian-vector products, `vmap` and per-sample gradients | `exercises/17_functional_transforms.ipynb` |
#
# Each lesson from 01 on has exercises in the `exercises/` folder, with the same name, and
# reference solutions in `solutions/`. Try an exercise before you open its solution.

# %% [markdown]
# ## Self-check
#
# 1. A `%%both` cell printed its output and a `✓` line. What exactly was compared?
# 2. Outside `%%both`, is `x` a torch tensor or a minigrad tensor? How do you get the other one?
# 3. Inside a `%%both` cell, when do the two runs of `torch.randn(3)` print the same numbers?
# 4. In a drawing, what are the light blue boxes, and which way does the gradient flow
#    along the arrows?
#
# <details><summary>Answers</summary>
#
# 1. The printed output, warnings and errors of both runs, and for each tensor named after
#    `%%both`: values, `.grad`, `requires_grad`, `is_leaf`, `grad_fn` and the shape of its
#    backward graph.
# 2. A torch tensor (torch's results are copied into the notebook); `compare.get("x")` gives
#    minigrad's.
# 3. When the cell seeds first (`torch.manual_seed(0)`): minigrad's generator is torch's, so
#    from the same seed both draw the same numbers; without a seed in the cell, each engine's
#    generator may be somewhere else. `same_random(...)` with `torch.tensor(...)` also works.
# 4. Leaf tensors that require gradients. The arrows follow the forward computation; the
#    gradient flows the other way, from the output back to the leaves.
#
# </details>
#
# **Exercises:** this welcome has none; the graded exercises start with
# `exercises/01_computational_graphs.ipynb`. Grade your work from a terminal with
# `.venv/bin/python -m coursekit.grading exercises/` (each exercise notebook also checks every
# answer as you go).
#
# Next: **01 · Computational graphs**.
