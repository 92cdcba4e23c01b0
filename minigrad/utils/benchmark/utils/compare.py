"""``torch.utils.benchmark.utils.compare``: ``Compare``, the table of many Measurements that
torch prints: a block per label, a row per (threads, env, sub-label or statement), a column
per description, each cell the median in the unit of the block's fastest measurement.
Optionally trimmed to each measurement's significant figures, coloured (ANSI codes) by how
far a cell is from the best of its row or column, and marked where the runs spread widely.
"""

from __future__ import annotations

import enum
import itertools
import math

from minigrad.utils.benchmark.utils import common

__all__ = ["Colorize", "Compare"]

BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(x: float) -> int:
    """``int(torch.tensor(x).log10().ceil())``: the digits before the point."""
    return math.ceil(common._float32_log10(x))


class _Column:
    """One description's cells: a number format wide enough for the column's largest value,
    with as many decimals as its least precise measurement allows (one if not trimmed)."""

    def __init__(self, grouped_results, time_scale: float, time_unit: str,
                 trim_significant_figures: bool, highlight_warnings: bool) -> None:
        self._grouped_results = grouped_results
        self._flat_results = list(itertools.chain.from_iterable(grouped_results))
        self._time_scale = time_scale
        self._time_unit = time_unit
        self._trim_significant_figures = trim_significant_figures
        self._highlight_warnings = highlight_warnings and any(
            r.has_warnings for r in self._flat_results if r)
        leading = [_leading_digits(r.median / time_scale) if r else None
                   for r in self._flat_results]
        unit_digits = max(d for d in leading if d is not None)
        if trim_significant_figures:
            decimal_digits = min(max(m.significant_figures - d, 0)
                                 for d, m in zip(leading, self._flat_results, strict=True)
                                 if m is not None and d is not None)
        else:
            decimal_digits = 1
        length = unit_digits + decimal_digits + (1 if decimal_digits else 0)
        self._template = (f"{{:>{length}.{decimal_digits}f}}"
                          f"{{:>{7 if self._highlight_warnings else 0}}}")

    def get_results_for(self, group):
        return self._grouped_results[group]

    def num_to_str(self, value: float | None, estimated_sigfigs: int, spread: float | None):
        if value is None:
            return " " * len(self.num_to_str(1, estimated_sigfigs, None))
        if self._trim_significant_figures:
            value = common.trim_sigfig(value, estimated_sigfigs)
        marker = (f" (! {spread * 100:.0f}%)"
                  if self._highlight_warnings and spread is not None else "")
        return self._template.format(value, marker)


def optional_min(seq):
    values = list(seq)
    return min(values) if values else None


class _Row:
    def __init__(self, results, row_group, render_env, env_str_len, row_name_str_len,
                 time_scale, colorize, num_threads=None) -> None:
        self._results = results
        self._row_group = row_group
        self._render_env = render_env
        self._env_str_len = env_str_len
        self._row_name_str_len = row_name_str_len
        self._time_scale = time_scale
        self._colorize = colorize
        self._columns: tuple[_Column, ...] = ()
        self._num_threads = num_threads

    def register_columns(self, columns: tuple[_Column, ...]) -> None:
        self._columns = columns

    def as_column_strings(self) -> list[str]:
        first = next(r for r in self._results if r is not None)
        env = (f"({first.env})" if self._render_env else "").ljust(self._env_str_len + 4)
        output = ["  " + env + first.as_row_name]
        for m, column in zip(self._results, self._columns or (), strict=False):
            if m is None:
                output.append(column.num_to_str(None, 1, None))
            else:
                output.append(column.num_to_str(
                    m.median / self._time_scale, m.significant_figures,
                    m.iqr / m.median if m.has_warnings else None))
        return output

    @staticmethod
    def color_segment(segment, value, best_value):
        if value <= best_value * 1.01 or value <= best_value + 100e-9:
            return BEST + BOLD + segment + TERMINATE * 2
        if value <= best_value * 1.1:
            return GOOD + BOLD + segment + TERMINATE * 2
        if value >= best_value * 5:
            return VERY_BAD + BOLD + segment + TERMINATE * 2
        if value >= best_value * 2:
            return BAD + segment + TERMINATE * 2
        return segment

    def row_separator(self, overall_width):
        if self._num_threads is None:
            return []
        return [f"{self._num_threads} threads: ".ljust(overall_width, "-")]

    def finalize_column_strings(self, column_strings, col_widths):
        best_values = [-1] * len(column_strings)
        if self._colorize == Colorize.ROWWISE:
            row_min = min(r.median for r in self._results if r is not None)
            best_values = [row_min] * len(column_strings)
        elif self._colorize == Colorize.COLUMNWISE:
            best_values = [optional_min(r.median for r in column.get_results_for(self._row_group)
                                        if r is not None)
                           for column in self._columns or ()]
        row_contents = [column_strings[0].ljust(col_widths[0])]
        for text, width, result, best in zip(column_strings[1:], col_widths[1:], self._results,
                                             best_values, strict=False):
            text = text.center(width)
            if self._colorize != Colorize.NONE and result is not None and best is not None:
                text = self.color_segment(text, result.median, best)
            row_contents.append(text)
        return row_contents


class Table:
    """The block of one label."""

    def __init__(self, results, colorize: Colorize, trim_significant_figures: bool,
                 highlight_warnings: bool) -> None:
        if len({r.label for r in results}) != 1:
            raise AssertionError("All results must share the same label")
        self.results = results
        self._colorize = colorize
        self._trim_significant_figures = trim_significant_figures
        self._highlight_warnings = highlight_warnings
        self.label = results[0].label
        self.time_unit, self.time_scale = common.select_unit(min(r.median for r in results))
        self.row_keys = common.ordered_unique([self.row_fn(r) for r in results])
        self.row_keys.sort(key=lambda key: key[:2])  # by threads and env; stable otherwise
        self.column_keys = common.ordered_unique([self.col_fn(r) for r in results])
        self.rows, self.columns = self.populate_rows_and_columns()

    @staticmethod
    def row_fn(m):
        return m.num_threads, m.env, m.as_row_name

    @staticmethod
    def col_fn(m):
        return m.description

    def populate_rows_and_columns(self):
        row_position = {key: i for i, key in enumerate(self.row_keys)}
        col_position = {key: j for j, key in enumerate(self.column_keys)}
        ordered = [[None] * len(self.column_keys) for _ in self.row_keys]
        for r in self.results:
            ordered[row_position[self.row_fn(r)]][col_position[self.col_fn(r)]] = r

        unique_envs = {r.env for r in self.results}
        render_env = len(unique_envs) > 1
        env_str_len = max(len(e) for e in unique_envs) if render_env else 0
        row_name_str_len = max(len(r.as_row_name) for r in self.results)

        rows, rows_by_group = [], []
        prior_num_threads, prior_env, row_group = -1, "", -1
        for (num_threads, env, _), row in zip(self.row_keys, ordered, strict=True):
            thread_transition = num_threads != prior_num_threads
            if thread_transition:
                prior_num_threads, prior_env = num_threads, ""
                row_group += 1
                rows_by_group.append([])
            rows.append(_Row(results=row, row_group=row_group,
                             render_env=render_env and env != prior_env,
                             env_str_len=env_str_len, row_name_str_len=row_name_str_len,
                             time_scale=self.time_scale, colorize=self._colorize,
                             num_threads=num_threads if thread_transition else None))
            rows_by_group[-1].append(row)
            prior_env = env

        columns = tuple(
            _Column(grouped_results=[tuple(row[j] for row in group) for group in rows_by_group],
                    time_scale=self.time_scale, time_unit=self.time_unit,
                    trim_significant_figures=self._trim_significant_figures,
                    highlight_warnings=self._highlight_warnings)
            for j in range(len(self.column_keys)))
        rows = tuple(rows)
        for row in rows:
            row.register_columns(columns)
        return rows, columns

    def render(self) -> str:
        string_rows = [["", *self.column_keys]]
        string_rows += [row.as_column_strings() for row in self.rows]
        num_cols = max(len(sr) for sr in string_rows)
        for sr in string_rows:
            sr.extend([""] * (num_cols - len(sr)))
        col_widths = [max(len(s) for s in col) for col in zip(*string_rows, strict=True)]
        lines = ["  |  ".join(s.center(w) for s, w in zip(string_rows[0], col_widths,
                                                            strict=True))]
        overall_width = len(lines[0])
        for string_row, row in zip(string_rows[1:], self.rows, strict=True):
            lines.extend(row.row_separator(overall_width))
            lines.append("  |  ".join(row.finalize_column_strings(string_row, col_widths)))
        has_warnings = self._highlight_warnings and any(r.has_warnings for r in self.results)
        title = f" {self.label or ''} ".center(overall_width - 2, "-")
        note = ("(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n"
                if has_warnings else "")
        return (f"[{title}]\n" + "\n".join(lines) + "\n\n"
                f"Times are in {common.unit_to_english(self.time_unit)}s ({self.time_unit}).\n"
                + note)


class Compare:
    """Prints many Measurements as tables (``print(compare)`` or ``compare.print()``):
    replicates of one task are merged first; ``trim_significant_figures()``, ``colorize()``
    and ``highlight_warnings()`` change the printout."""

    def __init__(self, results) -> None:
        self._results: list[common.Measurement] = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self) -> str:
        return "\n".join(self._render())

    def extend_results(self, results) -> None:
        """Adds Measurements to the table."""
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        self._trim_significant_figures = True

    def colorize(self, rowwise=False) -> None:
        """Colours cells by the best of their column (or of their row)."""
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self) -> None:
        self._highlight_warnings = True

    def print(self) -> None:
        print(str(self))

    def _render(self) -> list[str]:
        by_label: dict = {}
        for r in common.Measurement.merge(self._results):
            by_label.setdefault(r.label, []).append(r)
        return [self._layout(group) for group in by_label.values()]

    def _layout(self, results) -> str:
        return Table(results, self._colorize, self._trim_significant_figures,
                     self._highlight_warnings).render()
