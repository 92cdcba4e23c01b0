"""``torch.backends.cpu``: which vectorised kernels torch runs on this CPU."""

from minigrad._numeric import aten_capability


def get_cpu_capability() -> str:
    """torch's answer (``AVX512``, ``AVX2``, ``DEFAULT``...), read as torch reads it."""
    return (aten_capability() or "DEFAULT").upper()
