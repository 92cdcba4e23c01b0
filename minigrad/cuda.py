"""``torch.cuda`` as a CPU-only torch has it: no GPU, and torch's error when one is asked for.

minigrad computes with NumPy on the CPU only. Lesson code that checks
``torch.cuda.is_available()`` takes its CPU branch; code that insists on ``"cuda"`` gets the
error a CPU-only torch raises.
"""

from __future__ import annotations

from minigrad import _dtype

NOT_COMPILED = "Torch not compiled with CUDA enabled"  # torch's words, kept verbatim


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def _lazy_init() -> None:
    """What torch calls before touching a GPU: here it always raises torch's error."""
    raise AssertionError(NOT_COMPILED)


def is_initialized() -> bool:
    return False


def manual_seed(seed) -> None:
    """Seeding the GPU generators: with no GPU torch quietly does nothing, and so does this
    (lesson code often seeds both)."""


manual_seed_all = manual_seed


def empty_cache() -> None:
    """Nothing is cached where there is no GPU; torch returns quietly too."""


def memory_allocated(device=None) -> int:
    return 0


def current_device() -> int:
    _lazy_init()


def get_device_name(device=None) -> str:
    _lazy_init()


def synchronize(device=None) -> None:
    _lazy_init()


class _UnavailableType(type):
    """torch.cuda's legacy tensor types (``torch.cuda.FloatTensor``): a CPU-only torch has
    them, since old books name them (``set_default_tensor_type('torch.cuda.FloatTensor')``),
    but no tensor is ever one of them, and making one raises torch's error."""

    is_cuda = True

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type {cls.__module__}.{cls.__name__} not available. {NOT_COMPILED}.")

    def __instancecheck__(cls, obj) -> bool:
        return False


FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, \
    ByteTensor, BoolTensor = (
        _UnavailableType(d.legacy_name, (), {"dtype": d, "__module__": "minigrad.cuda"})
        for d in (_dtype.float32, _dtype.float64, _dtype.float16, _dtype.int64, _dtype.int32,
                  _dtype.int16, _dtype.int8, _dtype.uint8, _dtype.bool))


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562): say what is here."""
    raise AttributeError(f"minigrad.cuda has only what a CPU-only torch answers (is_available, "
                         f"device_count, manual_seed...); {name!r} needs a GPU, which minigrad "
                         "never uses")
