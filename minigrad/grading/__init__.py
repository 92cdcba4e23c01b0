"""Graded exercises: check helpers for notebooks, and a grader (``python -m minigrad.grading``).

Check cells import ``question`` from here. The grader itself (``minigrad.grading.grader``)
runs a learner's notebook in a fresh kernel and re-runs the checks of the reference solution;
it is imported only by the command line, so a notebook never loads Jupyter's client machinery.
"""

from minigrad.grading.checks import compare, question
