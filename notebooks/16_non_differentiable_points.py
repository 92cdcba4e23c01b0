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
# # 16 · Gradients where the derivative does not exist
#
# `relu` has a corner at 0, `abs` too, `sqrt` a vertical tangent, `max` a tie when two
# entries are equal. Mathematics says "no derivative here"; autograd must still return a
# number, because training will land on these points (a ReLU input is exactly 0 more often than
# you would think, in float16 all the time). This lesson is about the numbers torch returns
# there, why, and the traps they set: the NaN that appears in a gradient although every value
# of the forward pass was finite.
#
# **Goals.** By the end you can:
#
# * state the rules torch follows at points where a function is not differentiable, and
#   predict the gradient of `relu`, `abs`, `clamp`, `sqrt`, `max`, `maximum` and `norm` there;
# * explain why two formulas for the same function (`relu(x)` and `clamp(x, min=0)`,
#   `v.norm()` and `(v ** 2).sum().sqrt()`) can have different gradients at one point;
# * explain where a NaN gradient comes from when the forward pass has none
#   ($0 \cdot \infty$), and fix `torch.where` with the "double where" pattern;
# * tell a fix from a non-fix (`nan_to_num` on the output does not clean the gradient), and
#   let `detect_anomaly` name the node that made the NaN.
#
# **Time:** about 30 minutes. You should know lesson 03 (`backward`, `.grad`) and lesson 14,
# section 6 (`detect_anomaly`).

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
# ## 1. The rules
#
# [Autograd mechanics](https://docs.pytorch.org/docs/stable/notes/autograd.html#gradients-for-non-differentiable-functions)
# lists, in order, what torch's formulas return at a point $x$ of $f$:
#
# 1. $f$ is differentiable at $x$: the gradient, as everywhere else.
# 2. $f$ is convex near $x$ (a corner pointing down, as `abs` at 0): of all the slopes that
#    stay below the graph (the *subgradients*), the one closest to 0. It is the direction of
#    steepest descent.
# 3. $f$ is concave near $x$: the same for $-f$ (the smallest *supergradient*).
# 4. $f$ is defined at $x$ and has a limit of slopes: that limit, even if it is infinite
#    (`sqrt` at 0 gives `inf`); when several limits exist, any one of them.
# 5. $f$ is not defined at $x$ (`sqrt(-1)`, `log(-1)`, most functions at NaN): any value, and
#    it may even raise. Most formulas give NaN.
# 6. $f$ is not a mathematical function (random, or not deterministic): not differentiable;
#    backward raises if it needs it.
#
# These are goals that the formula of each op is written towards, not a check that runs: the
# gradient you get is what the op's backward formula computes at that point. The rest of the
# lesson puts them to work.

# %% [markdown]
# ## 2. Corners: `relu`, `abs`, `clamp`
#
# At 0, `relu` has slopes 0 on the left and 1 on the right: every slope between 0 and 1 is a
# subgradient, and rule 2 picks the smallest, 0. For `abs` the slopes run from $-1$ to $1$,
# and again 0 is picked. Predict the gradients at $x = -1, 0, 1$ before you run the cell:

# %%
# %%both x_relu x_abs
x_relu = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
torch.relu(x_relu).sum().backward()
x_abs = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
x_abs.abs().sum().backward()
print("relu:", x_relu.grad)
print("abs: ", x_abs.grad)

# %% [markdown]
# Now the same function as `relu`, written as `clamp(x, min=0)`. It is the same function, so
# the same rule should give 0 at 0. It does not:

# %%
# %%both x_clamp x_max0
x_clamp = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
x_clamp.clamp(min=0.0).sum().backward()
x_max0 = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
torch.maximum(x_max0, torch.zeros(3)).sum().backward()
print("clamp(x, min=0):     ", x_clamp.grad)
print("maximum(x, zeros(3)):", x_max0.grad)

# %% [markdown]
# Three formulas for one function, three gradients at 0: `relu` gives 0, `clamp` 1 (its
# backward lets the gradient through wherever `min <= x <= max`, bounds included), and
# `maximum` 0.5 (at a tie it splits the gradient between its two inputs, half each). Each op
# made its own choice, and each is a subgradient, so gradient descent works with any of them.
# What you must not do is *assume* one: if your code depends on the gradient at exactly 0
# (tests comparing two implementations often do), check which op you call.
#
# The graphs show who decides: the node's backward formula, not the function it computes.

# %%
viz.show(viz.make_dot(compare.get("x_clamp").clamp(min=0.0).sum(),
                      params={"x": compare.get("x_clamp")}))

# %% [markdown]
# ### Try it: slide through a corner
#
# The slider moves $x$; the plot shows the function and, in orange, the tangent line with the
# slope torch's backward returns at $x$ (minigrad's slope is compared and printed too). Stop at
# 0 and switch functions: `relu`, `clamp` and `maximum` draw the same curve with three
# different lines at the corner.

# %%
from coursekit.widgets import figure_html

FUNCTIONS = {
    "relu(x)": lambda lib, t: lib.relu(t),
    "clamp(x, min=0)": lambda lib, t: t.clamp(min=0.0),
    "maximum(x, 0)": lambda lib, t: lib.maximum(t, lib.zeros(())),
    "abs(x)": lambda lib, t: t.abs(),
    "sqrt(x)": lambda lib, t: t.sqrt(),
}


def slope(lib, name, value):
    t = lib.tensor(value, requires_grad=True)
    FUNCTIONS[name](lib, t).backward()
    return t.grad.item()


def redraw(change=None):
    name, value = chooser.value, x_slider.value
    ours, theirs = slope(minigrad, name, value), slope(torch, name, value)
    grid = torch.linspace(-1.5, 1.5, 301)
    curve = FUNCTIONS[name](torch, grid.clamp(min=0.0) if name == "sqrt(x)" else grid)
    y0 = FUNCTIONS[name](torch, torch.tensor(max(value, 0.0) if name == "sqrt(x)" else value))
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.plot(grid, curve, label=name)
    if np.isfinite(theirs):
        ax.plot(grid, y0.item() + theirs * (grid - value), label=f"slope {theirs:g}")
    ax.set_ylim(-1.6, 1.6)
    ax.axvline(value, color="grey", lw=0.5)
    ax.legend(loc="upper left")
    plot.value = figure_html(fig)
    same = (ours == theirs) or (np.isnan(ours) and np.isnan(theirs))
    report.value = (f"x = {value:+.2f}: torch's gradient {theirs:g}, minigrad's {ours:g} "
                    f"{'✓' if same else '✗ DIFFERENT'}")


x_slider = widgets.FloatSlider(value=0.0, min=-1.0, max=1.0, step=0.25, description="x",
                               continuous_update=False)
chooser = widgets.Dropdown(options=list(FUNCTIONS), value="relu(x)", description="f")
plot, report = widgets.HTML(), widgets.Label()
x_slider.observe(redraw, names="value")
chooser.observe(redraw, names="value")
redraw()
widgets.VBox([widgets.HBox([chooser, x_slider]), report, plot])

# %% [markdown]
# ## 3. Ties: `max`, `amax`, `max(dim)`, `sort`
#
# `max` of `[1, 3, 3]` is 3, reached twice. Which entry is "the" maximum? A reduction over
# everything (`x.max()`, `x.amax()`) cannot say, and splits the gradient evenly among the tied
# entries (rule 4's "any one of them" made symmetric). A reduction along a dimension returns an
# *index* too (`x.max(dim=0)` gives values and indices), and the gradient goes to that index
# only: one entry, chosen by the forward pass. `sort` and `topk` also pick one.

# %%
# %%both a b c d
a = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
a.max().backward()
b = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
b.amax().backward()
c = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
values, indices = c.max(dim=0)
values.backward()
d = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
d.sort(descending=True).values[0].backward()
print("max():     ", a.grad)
print("amax():    ", b.grad)
print("max(dim=0):", c.grad, " index", indices.item())
print("sort:      ", d.grad)

# %% [markdown]
# ## 4. Vertical tangents and infinite slopes
#
# `sqrt` is defined at 0, and its slope $\frac{1}{2\sqrt x}$ grows without bound as $x \to 0$:
# rule 4 gives `inf`. `log` at 0 is $-\infty$ with slope $\frac 1x = \infty$. An infinite
# gradient is honest, but it rarely survives the next multiplication:

# %%
# %%both s l
s = torch.tensor([0.0, 4.0], requires_grad=True)
s.sqrt().sum().backward()
l = torch.tensor([0.0, 1.0], requires_grad=True)
l.log().sum().backward()
print("sqrt:", s.grad)
print("log: ", l.grad)

# %% [markdown]
# ## 5. Where a NaN comes from: $0 \cdot \infty$
#
# The chain rule multiplies local derivatives. If one factor is infinite and another is 0, the
# product is NaN, even though each value of the forward pass was a plain number. Take the
# length of a vector, $\|v\| = \sqrt{\sum v_i^2}$, at $v = 0$: `sqrt`'s slope is `inf`, and
# `pow`'s is $2v = 0$. torch's `norm` knows this corner: it is convex there, and rule 2
# returns 0 (its backward formula masks the zero vector). The hand-written formula has no such
# mask:

# %%
# %%both v1 v2
v1 = torch.zeros(3, requires_grad=True)
v1.norm().backward()
v2 = torch.zeros(3, requires_grad=True)
(v2 ** 2).sum().sqrt().backward()
print("v.norm():               ", v1.grad)
print("(v ** 2).sum().sqrt():  ", v2.grad)

# %% [markdown]
# Same function, same point: 0 from the op that knows its corner, NaN from the composition of
# two ops that each followed its own rule. When you can, use the op that covers the whole
# formula (`norm`, `logsumexp`, `binary_cross_entropy_with_logits`, `log_softmax`): its
# backward handles the corners the pieces cannot see.
#
# ## 6. The `torch.where` trap
#
# A classic: a function that is only defined for $x > 0$, guarded by `where`:
# `torch.where(x > 0, x.sqrt(), 0.0)`. The values are fine everywhere. The gradients are not:

# %%
# %%both x
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
y = torch.where(x > 0, x.sqrt(), 0.0)
y.sum().backward()
print(y)
print(x.grad)

# %% [markdown]
# `where` does not stop `sqrt` from running on *every* entry: `x.sqrt()` is computed for the
# whole tensor before `where` picks. Backward, `where` sends a gradient of 0 to the entries of
# `sqrt` it did not pick, and `SqrtBackward0` multiplies that 0 by its local slope
# $\frac{1}{2\sqrt x}$: $0 \cdot \frac{1}{2 \cdot \text{NaN}} = \text{NaN}$ at $-1$ and
# $0 \cdot \infty = \text{NaN}$ at 0. The 0 of `where` cannot cancel what is not a number.
#
# The fix keeps the unsafe op away from the bad inputs, with a first `where` on its *input*
# (any harmless value, here 1), and the original `where` on the output: the "double where".

# %%
# %%both x
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
safe_x = torch.where(x > 0, x, 1.0)           # sqrt never sees a bad value
y = torch.where(x > 0, safe_x.sqrt(), 0.0)    # and its results there are not used
y.sum().backward()
print(y)
print(x.grad)

# %% [markdown]
# Here is the graph of the safe version: two `WhereBackward0` nodes, the lower one between
# `x` and `SqrtBackward0`.

# %%
viz.show(viz.make_dot(compare.get("y"), params={"x": compare.get("x")}))

# %% [markdown]
# ## 7. Non-fixes, and a real one for the gradient itself
#
# Two tempting repairs do not work. Masking *after* the fact (`y * (x > 0)`) is the same as
# `where`: a 0 times NaN. And
# [`torch.nan_to_num`](https://docs.pytorch.org/docs/stable/generated/torch.nan_to_num.html)
# on the *output* replaces the NaN values of the forward pass, but its backward only zeroes the
# gradient where its input was not finite. At $-1$ that 0 reaches `SqrtBackward0`, which turns
# it into NaN again; at 0, `sqrt`'s value was a finite 0, so the gradient passes untouched and
# meets `sqrt`'s infinite slope:

# %%
# %%both x
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
y = torch.nan_to_num(x.sqrt(), nan=0.0, posinf=0.0)
y.sum().backward()
print(y)
print(x.grad)

# %% [markdown]
# If you cannot change the formula, you can still clean the *gradient*: a hook on `x`
# (lesson 04) receives the gradient before it is stored, and may return a replacement. That
# hides the problem rather than fixing it, so prefer the double where; but it is the right tool
# for a NaN you have understood and decided to ignore.

# %%
# %%both x
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
x.register_hook(lambda grad: torch.nan_to_num(grad, nan=0.0))
torch.where(x > 0, x.sqrt(), 0.0).sum().backward()
print(x.grad)

# %% [markdown]
# ## 8. Letting `detect_anomaly` find it
#
# In a big model you do not see the `where`; you see a NaN loss many steps later. Lesson 14's
# anomaly mode checks every node's result during backward and names the first one that
# returns NaN, with the forward line that created it:

# %%
# %%both
import warnings

x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")    # the long warning with the forward stack
    with torch.autograd.detect_anomaly():
        y = torch.where(x > 0, x.sqrt(), 0.0)
        y.sum().backward()

# %% [markdown]
# ## Where minigrad differs from torch
#
# * Nowhere in this lesson: every convention above (the corners, the ties, `norm`'s mask, the
#   NaN of `where`, `nan_to_num`'s backward, anomaly mode's message) is minigrad's too, as the
#   checked cells show. minigrad's formulas come from the same `derivatives.yaml` lines.
# * Its names print with a `minigrad.` prefix.

# %% [markdown]
# ## Self-check
#
# 1. What do `relu`, `clamp(x, min=0)` and `torch.maximum(x, torch.zeros(()))` give as the
#    gradient at $x = 0$, and why are all three acceptable?
# 2. `x = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)`. What is `x.grad` after
#    `x.max().backward()`? After `x.max(dim=0).values.backward()`?
# 3. Why is the gradient of `(v ** 2).sum().sqrt()` at $v = 0$ NaN, while no value in the
#    forward pass was NaN?
# 4. Why does `torch.where(x > 0, torch.log(x), 0.0)` give a NaN gradient at $x = 0$, and how
#    do you fix it?
# 5. You add `torch.nan_to_num` after the `log` of question 4. Is the gradient fixed?
#
# <details><summary>Answers</summary>
#
# 1. 0, 1 and 0.5. Each is a subgradient of the corner (any slope between 0 and 1), so each
#    is a valid direction for gradient descent; they differ because each op's backward formula
#    made its own choice (relu: the smallest, rule 2; clamp: let the gradient through at its
#    bounds; maximum: split a tie).
# 2. `[0.5, 0.5, 0.]` (a full reduction splits a tie evenly); with `dim=0` the whole gradient
#    goes to the index `max` returned: `[1., 0., 0.]`.
# 3. `sqrt`'s slope at 0 is `inf`, `pow`'s ($2v$) is 0, and the chain rule multiplies them:
#    $0 \cdot \infty = \text{NaN}$. `v.norm()` has its own formula, which returns 0 there.
# 4. `log` runs on every entry before `where` picks; backward, `where` sends 0 to the unused
#    entries and `LogBackward0` divides by $x = 0$: $0 / 0 = \text{NaN}$. Feed `log` a safe
#    input, `torch.log(torch.where(x > 0, x, 1.0))`, and keep the outer `where`.
# 5. No: `nan_to_num` zeroes the gradient where its input was not finite, and `LogBackward0`
#    then computes $0 / 0$ again. Only changing what `log` sees (or a hook on `x` that cleans
#    the gradient) helps.
#
# </details>
#
# **Exercises:** `exercises/16_non_differentiable_points.ipynb`.
