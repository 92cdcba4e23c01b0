"""Widgets that lessons show but whose plumbing a learner need not read.

A lesson keeps the idea (the function it studies, the loops it compares) in its own cells and
passes them in; the sliders, the redraw callback and the matplotlib figure live here. As the
authoring rules ask, every widget is a ``VBox`` of controls above a view whose ``value`` the
controls' callbacks replace, so nothing is printed from a callback (nbval would see it).
"""

from __future__ import annotations

import base64
import io
import time

import ipywidgets as w
import matplotlib.pyplot as plt
import numpy as np

import minigrad
from coursekit.i18n import _


def _png(fig) -> bytes:
    """The figure as PNG bytes, and the figure closed (so the notebook does not show it too)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def figure_html(fig, dpi: int = 80) -> str:
    """The figure as an ``<img>`` for an ``HTML`` widget's ``value`` (and closed): how a
    widget callback shows a plot without printing into the cell (an ``Output`` widget would,
    under nbval)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    plt.close(fig)
    return f"<img src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'>"


def _best_time(fn, *args, repeats=3) -> float:
    """The best of ``repeats`` wall times of ``fn(*args)``, in milliseconds."""
    best = float("inf")
    for _repeat in range(repeats):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return 1000 * best


def jacobian_cost_png(by_forward, by_reverse, n_in: int, n_out: int) -> bytes:
    """Bars of the measured time of both Jacobian loops for ``tanh(W x)`` with ``n_in`` inputs
    and ``n_out`` outputs, on minigrad; the title names the faster mode and reverse mode's
    node calls (the list ``by_reverse`` returns). The two Jacobians must agree."""
    rng = np.random.default_rng(n_in * 100 + n_out)
    weight = minigrad.tensor(rng.standard_normal((n_out, n_in)).astype(np.float32))

    def layer(v):
        return minigrad.tanh(weight @ v)

    x = minigrad.tensor(rng.standard_normal(n_in).astype(np.float32))
    J_fwd, _calls = by_forward(layer, x)
    J_rev, calls = by_reverse(layer, x)
    assert np.allclose(J_fwd.numpy(), J_rev.numpy(), atol=1e-5), "the two Jacobians differ"
    t_fwd = _best_time(by_forward, layer, x)
    t_rev = _best_time(by_reverse, layer, x)

    fig, ax = plt.subplots(figsize=(6, 2.6))
    labels = [_("reverse mode\n({n} node calls)").format(n=len(calls)),
              _("forward mode\n({n} dual passes)").format(n=n_in)]
    bars = ax.barh(labels, [t_rev, t_fwd], color=["tab:orange", "tab:blue"])
    ax.bar_label(bars, fmt="%.2f ms")
    ax.set_xlim(0, 1.3 * max(t_fwd, t_rev))
    ax.set_xlabel(_("measured time for the full Jacobian (ms, minigrad)"))
    title = _("Jacobian {m} x {n}: reverse mode was faster") if t_rev < t_fwd else \
        _("Jacobian {m} x {n}: forward mode was faster")
    ax.set_title(title.format(m=n_out, n=n_in))
    fig.tight_layout()
    return _png(fig)


def jacobian_cost_widget(by_forward, by_reverse, n_in: int = 8, n_out: int = 1):
    """Two sliders (inputs, outputs) above the chart of ``jacobian_cost_png``."""
    n_slider = w.IntSlider(value=n_in, min=1, max=32, description=_("inputs n"))
    m_slider = w.IntSlider(value=n_out, min=1, max=32, description=_("outputs m"))
    chart = w.Image(value=jacobian_cost_png(by_forward, by_reverse, n_in, n_out), format="png")

    def redraw(change):
        chart.value = jacobian_cost_png(by_forward, by_reverse, n_slider.value, m_slider.value)

    n_slider.observe(redraw, names="value")
    m_slider.observe(redraw, names="value")
    return w.VBox([w.HBox([n_slider, m_slider]), chart])
