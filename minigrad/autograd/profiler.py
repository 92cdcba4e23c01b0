"""``torch.autograd.profiler``: which ops and backward nodes ran, how often, for how long.

Inside ``with profile() as prof:`` every op that records itself (``_ops/_core.record``)
leaves an event named as torch's ATen operator (``MulBackward0``'s op is ``aten::mul``),
every node the engine runs leaves two nested ones
(``autograd::engine::evaluate_function: MulBackward0`` around ``MulBackward0``), and
``record_function("name")`` blocks leave one each, with the events inside them as children.
``prof.key_averages().table()`` prints them in torch's layout.

The times are minigrad's own (``time.perf_counter_ns``). An op only reports itself once
its result exists, so its event spans from the previous event's boundary to that moment: the
NumPy work and the Python around it. Ops that skip recording (under ``no_grad``, where a
formula's ops run on plain arrays) and creation functions (``zeros``, ``randn``) are not
listed; torch lists its internal helpers too (``aten::empty``, ``aten::as_strided``...).

The hooks cost one attribute check when no profiler is running: ``_core.record`` asks
``_state.active`` per op, and the engine asks once per backward pass.
"""

from __future__ import annotations

import contextlib
import functools
import re
import time

from minigrad import _left_out

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]


class _ProfilerState:
    """The running profiler's events, its open spans (innermost last) and the time of the
    last event boundary."""

    active = False
    record_shapes = False
    events: list = []
    stack: list = []
    last = 0


_state = _ProfilerState()

# node class names whose op is not the snake_case of their stem
_ATEN_OVERRIDES = {"UnsafeView": "_unsafe_view"}


@functools.cache
def aten_name(node_name: str) -> str:
    """``MulBackward0`` -> ``aten::mul``, ``MseLossBackward0`` -> ``aten::mse_loss``."""
    stem = re.sub(r"Backward\d*$", "", node_name)
    name = _ATEN_OVERRIDES.get(stem) or re.sub(r"(?<!^)(?=[A-Z])", "_", stem).lower()
    return "aten::" + name


def _shapes(values) -> list:
    return [list(v.shape) if hasattr(v, "shape") and v is not None else [] for v in values]


class _NoDevice:
    """What torch's events say about memory and devices: minigrad measures neither."""

    cpu_memory_usage = self_cpu_memory_usage = 0
    device_time_total = self_device_time_total = device_time = 0.0
    device_memory_usage = self_device_memory_usage = 0
    flops = 0


class FunctionEvent(_NoDevice):
    """One span: a name, start and end in microseconds, the events nested inside it."""

    def __init__(self, id, name, start_us, end_us=None, input_shapes=None):  # noqa: A002
        self.id = id
        self.name = self.key = name
        self.time_range_start = start_us
        self.time_range_end = end_us
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.cpu_children = []
        self.cpu_parent = None
        self.count = 1
        self.node_id = -1
        self.is_async = False
        self.stack = []

    @property
    def cpu_time_total(self) -> float:
        return self.time_range_end - self.time_range_start

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    cpu_time = cpu_time_total

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} cpu_time="
                f"{_format_time(self.cpu_time_total)} start_us={self.time_range_start:.3f} "
                f"end_us={self.time_range_end:.3f} cpu_children="
                f"{[c.id for c in self.cpu_children]} input_shapes={self.input_shapes}>")


class FunctionEventAvg(_NoDevice):
    """The events of one key (name, and shapes when grouped by them) added together."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = None
        self.node_id = -1
        self.is_async = False
        self.stack = []
        self.cpu_parent = None

    def add(self, other):
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.cpu_parent = other.cpu_parent
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    @property
    def cpu_time(self) -> float:
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time="
                f"{_format_time(self.self_cpu_time_total)} cpu_time="
                f"{_format_time(self.cpu_time)} input_shapes={self.input_shapes}>")


def _format_time(time_us: float) -> str:
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_share(time_us: float, total_us: float) -> str:
    return "NaN" if total_us == 0 else f"{time_us * 100.0 / total_us:.2f}%"


class EventList(list):
    """A list of events (or of their averages) that prints as torch's table."""

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0):
        stats = {}
        for evt in self:
            key = (evt.key, str(evt.input_shapes)) if group_by_input_shapes else evt.key
            stats.setdefault(key, FunctionEventAvg()).add(evt)
        out = EventList(stats.values())
        if not group_by_input_shapes:
            for avg in out:
                avg.input_shapes = ""
        return out

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def total_average(self):
        total = FunctionEventAvg()
        for evt in self:
            total.add(evt)
        total.key = "Total"
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        return _build_table(self, sort_by, row_limit, max_name_column_width,
                            max_shapes_column_width, header, top_level_events_only, time_unit)

    def __str__(self) -> str:
        return self.table()


def _time_str(time_us: float, time_unit) -> str:
    scale = {"s": 1e6, "ms": 1e3, "us": 1.0}.get(time_unit)
    return _format_time(time_us) if scale is None else f"{time_us / scale:.3f}{time_unit}"


def _build_table(events, sort_by, row_limit, max_name_width, max_shapes_width, header,
                 top_level_only, time_unit) -> str:
    """torch's text table: a right-aligned column per field, two spaces apart."""
    if len(events) == 0:
        return ""
    if sort_by is not None:
        events = sorted(events, key=lambda e: getattr(e, sort_by.replace("cuda", "device")),
                        reverse=True)
    has_shapes = any(e.input_shapes for e in events)
    name_width = min(max(len(e.key) for e in events) + 4, max_name_width)
    shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, max_shapes_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
               "# of Calls"]
    widths = [name_width] + [12] * 6
    if has_shapes:
        headers.append("Input Shapes")
        widths.append(shapes_width)
    row_format = "".join("{: >" + str(w) + "}  " for w in widths)
    separator = "".join("-" * w + "  " for w in widths)
    line_length = sum(w + 2 for w in widths) - 2
    total = sum(e.self_cpu_time_total for e in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [separator, row_format.format(*headers), separator]
    shown = 0
    for evt in events:
        if shown == row_limit:
            break
        if top_level_only and evt.cpu_parent is not None:
            continue
        shown += 1
        name = evt.key
        if len(name) >= max_name_width - 3:
            name = name[:max_name_width - 3] + "..."
        row = [name, _format_share(evt.self_cpu_time_total, total),
               _time_str(evt.self_cpu_time_total, time_unit),
               _format_share(evt.cpu_time_total, total),
               _time_str(evt.cpu_time_total, time_unit), _time_str(evt.cpu_time, time_unit),
               evt.count]
        if has_shapes:
            row.append(str(evt.input_shapes)[:shapes_width])
        lines.append(row_format.format(*row))
    lines += [separator, f"Self CPU time total: {_time_str(total, time_unit)}"]
    return "".join(line + "\n" for line in lines)


# --- recording ----------------------------------------------------------------------------
def _now_us() -> float:
    return time.perf_counter_ns() / 1000.0


def _add(evt) -> None:
    s = _state
    if s.stack:
        evt.cpu_parent = s.stack[-1]
        evt.cpu_parent.cpu_children.append(evt)
    s.events.append(evt)


def _open(name: str, shapes) -> FunctionEvent:
    now = _now_us()
    evt = FunctionEvent(len(_state.events), name, now, input_shapes=shapes)
    _add(evt)
    _state.stack.append(evt)
    _state.last = now
    return evt


def _close(evt) -> None:
    now = _now_us()
    evt.time_range_end = now
    if _state.stack and _state.stack[-1] is evt:
        _state.stack.pop()
    _state.last = now


def op(node_cls, inputs) -> None:
    """Called by ``_ops/_core.record`` for each op while a profiler runs."""
    now = _now_us()
    s = _state
    shapes = _shapes(inputs) if s.record_shapes else []
    evt = FunctionEvent(len(s.events), aten_name(node_cls.__name__), max(s.last, 0.0), now,
                        shapes)
    _add(evt)
    s.last = now


def profiled(evaluate):
    """The engine's ``evaluate_function`` wrapped in a node's two events, as torch has them."""
    def run(task, node, grads):
        name = node.name()
        outer = _open("autograd::engine::evaluate_function: " + name, [])
        inner = _open(name, _shapes(grads) if _state.record_shapes else [])
        try:
            return evaluate(task, node, grads)
        finally:
            _close(inner)
            _close(outer)
    return run


class record_function(contextlib.ContextDecorator):  # noqa: N801 - torch's name
    """A named span in the profile around a block (``with``) or each call (decorator)."""

    def __init__(self, name: str, args=None):
        self.name = name
        self.args = args
        self._events = []

    def __enter__(self):
        self._events.append(_open(self.name, []) if _state.active else None)
        return self

    def __exit__(self, *exc):
        evt = self._events.pop()
        if evt is not None and _state.active:
            _close(evt)
        return False


class profile:  # noqa: N801 - torch's name
    """Collect events while the block runs (torch.autograd.profiler.profile); CPU only.
    ``with_stack``, ``profile_memory``, ``with_flops`` and ``with_modules`` are accepted and
    ignored."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None):
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.entered = False
        self.function_events = None

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        # a profiler inside another one collects its own events, handed on to the outer one
        self._outer = ((_state.events, _state.stack, _state.record_shapes)
                       if _state.active else None)
        _state.events, _state.stack = [], []
        _state.record_shapes = self.record_shapes
        _state.last = _now_us()
        _state.active = True
        return self

    def __exit__(self, *exc):
        if not self.enabled:
            return False
        for evt in reversed(_state.stack):  # spans left open by an exception
            _close(evt)
        events = sorted(_state.events, key=lambda e: (e.time_range_start, e.id))
        self.function_events = EventList(events)
        _state.events, _state.stack = [], []
        if self._outer is not None:
            _state.events, _state.stack, _state.record_shapes = self._outer
            for evt in events:
                if evt.cpu_parent is None:
                    _add(evt)
                else:
                    _state.events.append(evt)
        else:
            _state.active = False
        return False

    def _check_finish(self):
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def events(self) -> EventList:
        self._check_finish()
        return self.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False) -> EventList:
        self._check_finish()
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None) -> str:
        self._check_finish()
        return self.function_events.table(sort_by, row_limit, max_src_column_width,
                                          max_name_column_width, max_shapes_column_width,
                                          header, top_level_events_only, time_unit)

    def total_average(self):
        self._check_finish()
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self) -> float:
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def __str__(self) -> str:
        self._check_finish()
        return str(self.function_events)


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
