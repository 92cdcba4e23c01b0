"""coursekit.widgets: the lesson widgets draw from real measurements and refuse wrong loops."""

import pytest

import minigrad
from coursekit import widgets
from minigrad.autograd import forward_ad as fwAD


def by_forward(f, x):
    """A Jacobian by one dual pass per input, as lesson 02 writes it (on minigrad)."""
    columns = []
    for j in range(x.numel()):
        direction = minigrad.zeros(x.numel())
        direction[j] = 1.0
        with fwAD.dual_level():
            y = f(fwAD.make_dual(x, direction))
            columns.append(fwAD.unpack_dual(y).tangent)
    return minigrad.stack(columns, dim=1), None


def by_reverse(f, x):
    """A Jacobian by one autograd.grad per output, with no node counting (an empty list)."""
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        pick = minigrad.zeros(y.numel())
        pick[i] = 1.0
        rows.append(minigrad.autograd.grad(y, x, grad_outputs=pick, retain_graph=True)[0])
    return minigrad.stack(rows), []


def test_jacobian_cost_png_is_a_png():
    assert widgets.jacobian_cost_png(by_forward, by_reverse, 3, 2).startswith(b"\x89PNG")


def test_jacobian_cost_png_rejects_loops_that_disagree():
    def wrong_reverse(f, x):
        J, calls = by_reverse(f, x)
        return 2 * J, calls

    with pytest.raises(AssertionError, match="differ"):
        widgets.jacobian_cost_png(by_forward, wrong_reverse, 3, 2)


def test_the_sliders_redraw_the_chart():
    box = widgets.jacobian_cost_widget(by_forward, by_reverse, n_in=2, n_out=1)
    n_slider, chart = box.children[0].children[0], box.children[1]
    before = chart.value
    n_slider.value = 5
    assert chart.value != before
