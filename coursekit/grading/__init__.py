"""Graded exercises: check helpers for notebooks, and a grader (``python -m coursekit.grading``).

Check cells import ``question`` from here. The grader itself (``coursekit.grading.grader``)
runs a learner's notebook in a fresh kernel and re-runs the checks of the reference solution;
it is imported only by the command line, so a notebook never loads Jupyter's client machinery.
"""

from coursekit.grading.checks import compare, question
