"""Graded exercises: check helpers for notebooks, and a grader (``python -m coursekit.grading``).

Check cells import ``question`` from here. The grader itself (``coursekit.grading.grader``)
runs a learner's notebook in a sandboxed child process (``kernel``, driven by ``runner``) and
re-runs the checks of the reference solution; it is imported only by the command line, so a
notebook never loads the grader's machinery.
"""

from coursekit.grading.checks import compare, question
