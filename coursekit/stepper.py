"""Step through a backward pass node by node, in the order the engine really ran them.

``BackwardStepper(loss, params)`` runs ``loss.backward()`` once while recording, for every
node the engine calls, the gradients it received and the gradients it sent on. The order is
not recomputed here: it is recorded with the hooks torch's nodes have, and minigrad's too, so
one code path serves both engines. ``register_prehook`` on every node: each call is a node
starting to run, with the gradients it received; ``register_hook``: the gradients it sent on.
Then ``frame(k)`` draws the graph at step ``k``: the node running now in gold, the nodes
already run in pale green, each edge that has carried a gradient labelled with it (blue), and,
where several gradients meet (fan-in), their sum written on the node. ``widget()`` puts the
frames behind a play button and a slider.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import graphviz
import ipywidgets as w

from coursekit import viz
from coursekit.i18n import _

CURRENT, DONE = "gold", "palegreen"


@dataclass
class Step:
    """One node run by the engine: what arrived (``grads_in``) and what it sent (``grads_out``,
    one per ``next_functions`` entry)."""

    node: object
    grads_in: tuple
    grads_out: tuple


def record(output, gradient, fns) -> list[Step]:
    """Run ``output.backward(gradient)`` with a pre-hook (order, gradients in) and a hook
    (gradients out) on every node of ``fns``; minigrad or torch alike. The hooks are removed
    afterwards, whatever happens."""
    order, sent, handles = [], {}, []

    def watch(fn):
        def before(grad_outputs):  # the node starts to run: the gradients it received
            order.append((fn, tuple(grad_outputs)))

        def after(grad_inputs, grad_outputs):  # it has run: the gradients it sends on
            sent[fn] = tuple(grad_inputs)

        handles.append(fn.register_prehook(before))
        handles.append(fn.register_hook(after))

    try:
        for fn in fns:
            watch(fn)
        output.backward(gradient)
    finally:
        for h in handles:
            h.remove()
    return [Step(fn, g, sent.get(fn, ())) for fn, g in order]


class BackwardStepper:
    """The backward pass of ``output`` as a sequence of frames (runs ``backward`` once)."""

    def __init__(self, output, params=None, gradient=None, show_values=False):
        self.output = output
        self.walk = viz.GraphWalk(output, params, show_values=show_values)
        self.steps = record(output, gradient, list(self.walk.fn_ids))

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def order(self) -> list[str]:
        """Names of the nodes in the order they ran."""
        return [type(s.node).__name__ for s in self.steps]

    def _edge_labels(self, k):
        ids = self.walk.fn_ids
        labels = {}
        first = self.steps[0]
        if first.node is self.output.grad_fn and first.grads_in[0] is not None:
            labels[(ids[first.node], self.walk.ids(self.output))] = viz.fmt(first.grads_in[0])
        for step in self.steps[:k + 1]:
            head = ids[step.node]
            for i, ((u, _nr), g) in enumerate(zip(step.node.next_functions, step.grads_out)):
                if u is not None and g is not None:
                    labels[(head, i)] = viz.fmt(g)
            if hasattr(step.node, "variable") and step.grads_in and step.grads_in[0] is not None:
                leaf = self.walk.ids(step.node.variable)
                labels[(leaf, head)] = viz.fmt(step.grads_in[0])
        return labels

    def _fan_in(self, k):
        """For the current node: the gradients its consumers sent, when there are several."""
        node = self.steps[k].node
        parts = []
        for step in self.steps[:k]:
            for (u, _nr), g in zip(step.node.next_functions, step.grads_out):
                if u is node and g is not None:
                    parts.append(viz.fmt(g))
        if len(parts) < 2 or not self.steps[k].grads_in or self.steps[k].grads_in[0] is None:
            return []
        return [("grad", " + ".join(parts) + " = " + viz.fmt(self.steps[k].grads_in[0]))]

    def frame(self, k: int):
        """The graph at step ``k`` (0-based) as a ``graphviz.Digraph``."""
        if not 0 <= k < len(self.steps):
            raise IndexError(f"step {k} out of range for {len(self.steps)} steps")
        ids = self.walk.fn_ids
        highlight = {ids[s.node]: DONE for s in self.steps[:k]}
        current = ids[self.steps[k].node]
        highlight[current] = CURRENT
        dot = viz._digraph()
        dot.attr(label=_("step {k}/{n}: {node}").format(
            k=k + 1, n=len(self.steps), node=type(self.steps[k].node).__name__),
            fontname="monospace")
        viz._fill(dot, self.walk, highlight, self._edge_labels(k), {current: self._fan_in(k)})
        viz._resize(dot)
        return dot

    def html(self, k: int) -> str:
        """The frame as inline SVG, or its DOT text and the install hint without ``dot``."""
        dot = self.frame(k)
        try:
            return dot.pipe(format="svg", encoding="utf-8")
        except graphviz.ExecutableNotFound:
            return f"<pre>{html.escape(viz.INSTALL_HINT)}\n\n{html.escape(dot.source)}</pre>"

    def widget(self):
        """A play button and a slider over the steps, above the current frame."""
        last = len(self.steps) - 1
        play = w.Play(value=0, min=0, max=last, step=1, interval=1200, description=_("play"))
        slider = w.IntSlider(value=0, min=0, max=last, description=_("step"))
        w.jslink((play, "value"), (slider, "value"))
        view = w.HTML(self.html(0))

        def update(change):
            view.value = self.html(change["new"])

        slider.observe(update, names="value")
        box = w.VBox([w.HBox([play, slider]), view])
        box.slider, box.view = slider, view
        return box


def step_through(output, params=None, gradient=None):
    """Run backward on ``output`` and return the stepping widget (a notebook one-liner)."""
    return BackwardStepper(output, params, gradient).widget()
