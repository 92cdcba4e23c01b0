"""coursekit: the minigrad course's own tools, kept apart from the engine.

* ``coursekit.compare``: run a lesson cell on torch and on minigrad and check they agree
  (the ``%%both`` cell magic: ``%load_ext coursekit.compare``);
* ``coursekit.compare_hints``: first-run hints every kernel of the course loads;
* ``coursekit.viz``: draw the backward graph of minigrad and torch tensors;
* ``coursekit.stepper``: step through a backward pass node by node;
* ``coursekit.grading``: check helpers for exercises and the grader
  (``python -m coursekit.grading``);
* ``coursekit.notebooks``: build lesson, solution and exercise notebooks from their sources.

coursekit imports minigrad (and torch, Jupyter, Graphviz, ...); minigrad never imports coursekit.
This file imports none of the modules above, so loading one of them (every kernel loads
``coursekit.compare_hints``) stays cheap: ``from coursekit import compare, viz``.
"""
