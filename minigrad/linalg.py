"""torch.linalg: the part of it minigrad has.

Norms (``vector_norm``, ``matrix_norm``, ``norm``), determinants (``det``, ``slogdet``), the
inverse (``inv``, ``inv_ex``), linear systems (``solve``, ``solve_ex``), the products
(``cross``, ``vecdot``, ``matmul``, ``multi_dot``, ``matrix_power``, ``diagonal``) and
``vander``, each an op of ``minigrad/_ops/`` with torch's signature, node and derivatives.
What needs an SVD, an eigendecomposition, QR or Cholesky (svd, eigh, qr, lstsq, pinv...) is
left out on purpose: those names raise one clear error (``_left_out.py``).
"""

from minigrad import _left_out
from minigrad._ops import composites as _composites
from minigrad._ops import determinant as _determinant
from minigrad._ops import linalg_names as _names
from minigrad._ops import matrix_norms as _norms
from minigrad._ops import multi_dot as _multi_dot
from minigrad._ops import solve as _solve
from minigrad._ops.inverse import _LinAlgError as LinAlgError

vector_norm = _norms.vector_norm.as_function
matrix_norm = _norms.matrix_norm.as_function
norm = _norms.norm.as_function
det = _determinant.det.as_function
slogdet = _determinant.slogdet.as_function
inv = _names.inv.as_function
inv_ex = _names.inv_ex.as_function
solve = _solve.solve.as_function
solve_ex = _solve.solve_ex.as_function
cross = _names.cross.as_function
matmul = _names.matmul.as_function
diagonal = _names.diagonal.as_function
matrix_power = _names.matrix_power.as_function
vecdot = _multi_dot.vecdot.as_function
multi_dot = _multi_dot.multi_dot
vander = _composites.linalg_vander.as_function

__all__ = ["LinAlgError", "cross", "det", "diagonal", "inv", "inv_ex", "matmul", "matrix_norm",
           "matrix_power", "multi_dot", "norm", "slogdet", "solve", "solve_ex", "vecdot",
           "vander", "vector_norm"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
