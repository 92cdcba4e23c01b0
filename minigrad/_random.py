"""torch's CPU random numbers: its generator and its sampling algorithms, bit for bit.

torch's CPU generator is a Mersenne Twister (mt19937) seeded with the low 32 bits of the
seed; NumPy has the same engine (``np.random.MT19937``), which is given torch's seeding here
and used for raw 32-bit draws. On top of it, torch's recipes (ATen's TransformationHelper.h,
Distributions.h, cpu/DistributionTemplates.h, DistributionKernels.cpp, Randperm):

- uniform floats: float32 keeps 24 bits of one 32-bit draw, float64 53 bits of a 64-bit draw
  (two 32-bit draws, the first as the high half), then ``x * (to - from) + from``;
- normal floats, 16 or more: all the uniforms first, then Box-Muller on blocks of 16 (the
  first 8 give the radii, the last 8 the angles; a remainder redoes the last 16 with fresh
  uniforms). float32 uses the AVX2 kernel's ``log256_ps``/``sincos256_ps`` (Cephes
  polynomials, with the compiler's fused multiply-adds), ported below, or, where torch runs
  its kernels without AVX2 (``ATEN_CPU_CAPABILITY=default``, an old processor), the scalar
  ``normal_fill_16`` with the C library's ``logf``, ``cosf``, ``sinf`` (called through
  ctypes: NumPy's float32 functions round differently); float64 uses the C library's
  ``log``, ``cos``, ``sin``, which Python's ``math`` module calls too;
- normal floats, fewer than 16: one at a time in float64, Box-Muller with ``log1p``, the sine
  half cached in the generator for the next draw;
- integers in [low, high): ``draw % (high - low) + low`` (a 64-bit draw for ranges of 2**28
  or more), as ``randint`` and ``random_(from, to)`` draw them; ``random_()`` reduces one draw
  modulo the dtype's range; randperm swaps ``i`` with ``i + draw % (n - i)``;
- bernoulli_(p): a float64 uniform per element, 1 where it is below p (the kernel torch runs
  without MKL or on a processor that is not Intel's; see ``bernoulli``);
- exponential and geometric numbers: a float64 uniform through ``-log1p(-u) / lambd`` or
  ``ceil(log(u) / log1p(-p))``, with the C library's log1p and log;
- the generator's state as torch's 5056 bytes (``Engine.get_state``/``from_state``).

float16 runs the float32 recipes and rounds to half: a uniform is the float32 one (with the
bounds as given) rounded, and one rounded up to ``to`` becomes ``from``; normals take the
float32 samples, with their own remainder rule (``_normal_half``).
"""

from __future__ import annotations

import ctypes
import functools
import math

import numpy as np

from minigrad._numeric import aten_capability, fma32, fma64, torch_fuses

DEFAULT_SEED = 67280421310721  # torch's seed before any manual_seed
_F = np.float32
# Set by minigrad.func.vmap while it runs, called with the engine before any number is drawn:
# vmap refuses random ops (randomness='error') or replays one sample's numbers ('same').
draw_hook = None


def _mt19937_key(seed: int) -> np.ndarray:
    """The 624 words of mt19937's state for a 32-bit seed (its reference ``init_genrand``)."""
    key = np.empty(624, np.uint32)
    s = seed & 0xFFFFFFFF
    key[0] = s
    for i in range(1, 624):
        s = (1812433253 * (s ^ (s >> 30)) + i) & 0xFFFFFFFF
        key[i] = s
    return key


class Engine:
    """mt19937 seeded as torch seeds it, and torch's cached normal sample."""

    def __init__(self, seed: int):
        self.seed = seed
        self._bits = np.random.MT19937()
        self._fresh_key = _mt19937_key(seed)  # the words before any draw: torch's next_ is 0
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": self._fresh_key, "pos": 624}}
        self.next_double_normal = None
        self.float_normal_tail = bytes(8)  # a float sample torch keeps but never draws here

    def get_state(self) -> np.ndarray:
        """torch's CPUGeneratorImplState, byte for byte (5056 bytes): seed, ``left``,
        ``seeded``, ``next``, the 624 words widened to 64 bits, the legacy normal fields (the
        cached normal sample in ``normal_y``), then the float sample torch's CPU kernels never
        cache. NumPy's ``pos`` (draws used since the last twist) is torch's ``next``, with
        ``left = 625 - next``; right after seeding torch says ``left=1, next=0``."""
        st = self._bits.state["state"]
        key, pos = st["key"], int(st["pos"])
        nxt = 0 if pos == 624 and np.array_equal(key, self._fresh_key) else pos
        state = np.zeros(5056, np.uint8)
        head = np.array([self.seed & 0xFFFF_FFFF_FFFF_FFFF], np.uint64).view(np.uint8)
        state[0:8] = head
        state[8:16] = np.array([625 - pos if pos < 624 else 1, 1], np.int32).view(np.uint8)
        state[16:24] = np.array([nxt], np.uint64).view(np.uint8)
        state[24:5016] = key.astype(np.uint64).view(np.uint8)
        if self.next_double_normal is not None:
            state[5024:5032] = np.array([self.next_double_normal], np.float64).view(np.uint8)
            state[5040:5044] = np.array([1], np.int32).view(np.uint8)
        state[5048:5056] = np.frombuffer(self.float_normal_tail, np.uint8)
        return state

    @classmethod
    def from_state(cls, state: np.ndarray) -> Engine:
        """The engine a CPUGeneratorImplState describes (``get_state``'s inverse); None when
        torch's mt19937 would call it invalid."""
        seed = int(state[0:8].view(np.uint64)[0])
        left, seeded = (int(v) for v in state[8:16].view(np.int32))
        nxt = int(state[16:24].view(np.uint64)[0]) & 0xFFFF_FFFF
        if not (seeded and 0 < left <= 624 and nxt <= 624):
            return None
        engine = cls.__new__(cls)
        engine.seed = seed
        engine._bits = np.random.MT19937()
        key = state[24:5016].view(np.uint64).astype(np.uint32)
        engine._fresh_key = key if nxt == 0 else np.empty(0, np.uint32)
        engine._bits.state = {"bit_generator": "MT19937",
                              "state": {"key": key, "pos": 624 if left == 1 else nxt}}
        valid = state[5040:5044].view(np.int32)[0]
        engine.next_double_normal = float(state[5024:5032].view(np.float64)[0]) if valid else None
        tail = state[5048:5056].copy()
        tail[4:] = (0, 0, 0, 0) if not tail[4] else (1, 0, 0, 0)  # the flag; padding is zero
        engine.float_normal_tail = (tail if tail[4] else np.zeros(8, np.uint8)).tobytes()
        return engine

    def random(self, n: int) -> np.ndarray:
        """n 32-bit draws (torch's ``random()``)."""
        if draw_hook is not None:
            draw_hook(self)
        return self._bits.random_raw(n).astype(np.uint32) if n else np.empty(0, np.uint32)

    def random64(self, n: int) -> np.ndarray:
        """n 64-bit draws, each made of two 32-bit ones, the first as the high half."""
        if draw_hook is not None:
            draw_hook(self)
        raw = self._bits.random_raw(2 * n)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]


def uniform(engine: Engine, n: int, dtype, low=0.0, high=1.0) -> np.ndarray:
    """torch's uniform_real_distribution: ``x * (to - from) + from`` with x in [0, 1), where
    a result rounded up to ``to`` becomes ``from`` (the interval is half-open). One fused
    multiply-add where torch's build for this CPU fuses it (``torch_fuses``), the product
    rounded first otherwise (measured: 15,000 draws per dtype, bit for bit either way)."""
    if dtype == np.float16:  # computed in float32, then rounded to half (and checked again)
        value = uniform(engine, n, np.float32, low, high).astype(np.float16)
        return np.where(value == np.float16(high), np.float16(low), value)
    if dtype == np.float64:
        x = (engine.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        if (low, high) == (0.0, 1.0):
            return x
        lo, hi = low, high
        value = fma64(x, hi - lo, lo) if torch_fuses() else x * (hi - lo) + lo
    else:
        x = (engine.random(n) & np.uint32((1 << 24) - 1)).astype(_F) * _F(2.0 ** -24)
        if (low, high) == (0.0, 1.0):
            return x
        lo, hi = _F(low), _F(high)
        value = fma32(x, hi - lo, lo) if torch_fuses() else x * (hi - lo) + lo
    return np.where(value == hi, lo, value).astype(dtype)


def normal(engine: Engine, n: int, dtype, mean=0.0, std=1.0) -> np.ndarray:
    if dtype == np.float16:
        return _normal_half(engine, n, mean, std)
    if n < 16:
        return normal_serial(engine, n, dtype, mean, std)
    data = uniform(engine, n, dtype)
    fill = _float32_fill() if dtype == np.float32 else _normal_fill_float64
    blocks = n // 16
    data[:16 * blocks] = fill(data[:16 * blocks].reshape(blocks, 16), mean, std).reshape(-1)
    if n % 16:  # torch redoes the last 16 with fresh uniforms
        data[n - 16:] = fill(uniform(engine, 16, dtype).reshape(1, 16), mean, std).reshape(-1)
    return data


def normal_serial(engine: Engine, n: int, dtype, mean=0.0, std=1.0) -> np.ndarray:
    """torch's serial normal kernel (fewer than 16 numbers, or a non-contiguous tensor): one
    float64 sample at a time, scaled in float64, rounded to float32 (then to half)."""
    values = np.array([_normal_double(engine) for _ in range(n)], dtype=np.float64)
    values = fma64(values, std, mean) if torch_fuses() else values * std + mean
    return values.astype(np.float32).astype(dtype) if dtype != np.float64 else values


def _normal_half(engine: Engine, n: int, mean, std) -> np.ndarray:
    """float16 normals, as measured against torch: the float32 samples rounded to half, except
    that a remainder (``n % 16``) draws no uniforms of its own: the last 16 are computed from
    the 16 draws that follow the full blocks."""
    if n < 16 or n % 16 == 0:
        return normal(engine, n, np.float32, mean, std).astype(np.float16)
    blocks = n // 16
    full = normal(engine, 16 * blocks, np.float32, mean, std)
    last = _normal_fill_float32(uniform(engine, 16, np.float32).reshape(1, 16), mean, std)
    return np.concatenate([full[:n - 16], last.reshape(-1)]).astype(np.float16)


def _normal_double(engine: Engine) -> float:
    """One sample of torch's normal_distribution<double>: Box-Muller, the sine half kept."""
    if draw_hook is not None:
        draw_hook(engine)
    if engine.next_double_normal is not None:
        value, engine.next_double_normal = engine.next_double_normal, None
        return value
    u1, u2 = uniform(engine, 2, np.float64)
    r = math.sqrt(-2.0 * math.log1p(-u2))
    theta = 2.0 * math.pi * u1
    engine.next_double_normal = r * math.sin(theta)
    return r * math.cos(theta)


def _normal_fill_float64(blocks, mean, std):
    _log, _cos, _sin = (np.frompyfunc(f, 1, 1) for f in (math.log, math.cos, math.sin))
    u1, u2 = 1 - blocks[:, :8], blocks[:, 8:]
    radius = np.sqrt(-2 * _log(u1).astype(np.float64))
    theta = 2.0 * math.pi * u2
    cos = fma64(radius * _cos(theta).astype(np.float64), std, mean)
    sin = fma64(radius * _sin(theta).astype(np.float64), std, mean)
    return np.concatenate([cos, sin], axis=1)


def _float32_fill():
    """The float32 kernel torch runs on this processor: without AVX2, the scalar one."""
    return _normal_fill_scalar32 if aten_capability() == "default" else _normal_fill_float32


@functools.cache
def _c_float_functions():
    """The C library's ``logf``, ``cosf``, ``sinf`` as NumPy functions of float32 arrays, or
    correctly rounded stand-ins where the process has no C library's ``logf`` (almost always
    the same numbers)."""
    try:
        libm = ctypes.CDLL(None)  # the process's own symbols: Python itself links libm
        functions = []
        for name in ("logf", "cosf", "sinf"):
            fn = getattr(libm, name)
            fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
            functions.append(np.frompyfunc(fn, 1, 1))
    except (OSError, AttributeError, TypeError):  # (Windows: no CDLL(None))
        return tuple(lambda x, f=f: f(x.astype(np.float64)) for f in (np.log, np.cos, np.sin))
    return tuple(lambda x, f=f: f(x) for f in functions)


def _normal_fill_scalar32(blocks, mean, std):
    """torch's scalar normal_fill_16 (float) on each row of 16 uniforms: ``theta`` computed
    in double and rounded, the radius and ``radius * cos`` in float, then ``* std + mean``
    rounded once (measured: as a fused multiply-add, or in double)."""
    logf, cosf, sinf = _c_float_functions()
    u1, u2 = _F(1) - blocks[:, :8], blocks[:, 8:]
    theta = (2.0 * math.pi * u2.astype(np.float64)).astype(_F)
    radius = np.sqrt(_F(-2) * np.asarray(logf(u1), _F))
    m, s = _F(mean), _F(std)
    return np.concatenate([fma32(radius * np.asarray(cosf(theta), _F), s, m),
                           fma32(radius * np.asarray(sinf(theta), _F), s, m)], axis=1)


def _normal_fill_float32(blocks, mean, std):
    """torch's normal_fill_16_AVX2 on each row of 16 uniforms."""
    u1, u2 = _F(1) - blocks[:, :8], blocks[:, 8:]
    radius = np.sqrt(_F(-2) * _log256_ps(u1))
    sin, cos = _sincos256_ps(_F(2 * math.pi) * u2)
    m, s = _F(mean), _F(std)
    return np.concatenate([fma32(radius * cos, s, m), fma32(radius * sin, s, m)], axis=1)


def _log256_ps(x):
    """avx_mathfun's log256_ps (Cephes' logf), float32, with the FMAs the compiler makes."""
    x = np.maximum(x, _F(1.17549435e-38))
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(_F) + _F(1)
    x = ((bits & ~0x7F800000) | _F(0.5).view(np.int32)).view(_F)  # mantissa in [0.5, 1)
    small = x < _F(0.707106781186547524)
    x = (x - _F(1)) + np.where(small, x, _F(0))
    e = e - np.where(small, _F(1), _F(0))
    z = x * x
    y = np.full_like(x, _F(7.0376836292e-2))
    for p in (-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
              -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1):
        y = fma32(y, x, _F(p))
    y = fma32(y * x, z, e * _F(-2.12194440e-4))
    y = fma32(z, _F(-0.5), y)
    return fma32(e, _F(0.693359375), x + y)


def _sincos256_ps(x):
    """avx_mathfun's sincos256_ps (Cephes' sinf and cosf), float32, with the FMAs."""
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = ((x * _F(1.27323954473516)).astype(np.int32) + 1) & ~1  # octant, made even
    y = j.astype(_F)
    sign_sin = sign_sin ^ ((j & 4) != 0)
    sign_cos = (~(j - 2) & 4) != 0
    use_cos_poly_for_sin = (j & 2) != 0
    for dp in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):
        x = fma32(y, _F(dp), x)
    z = x * x
    c = fma32(fma32(_F(2.443315711809948e-5), z, _F(-1.388731625493765e-3)), z,
             _F(4.166664568298827e-2))
    c = fma32(c * z, z, -(z * _F(0.5))) + _F(1)
    s = fma32(fma32(_F(-1.9515295891e-4), z, _F(8.3321608736e-3)), z, _F(-1.6666654611e-1))
    s = fma32(s * z, x, x)
    sin = np.where(use_cos_poly_for_sin, c, s)
    cos = np.where(use_cos_poly_for_sin, s, c)
    return np.where(sign_sin, -sin, sin), np.where(sign_cos, -cos, cos)


def randint(engine: Engine, n: int, low: int, high: int) -> np.ndarray:
    span = high - low
    draws = engine.random64(n) if span >= 2 ** 28 else engine.random(n).astype(np.uint64)
    return (draws % np.uint64(span)).astype(np.int64) + low


def randperm(engine: Engine, n: int) -> np.ndarray:
    perm = np.arange(n, dtype=np.int64)
    draws = engine.random(max(n - 1, 0)).tolist()
    for i, draw in enumerate(draws):
        z = i + draw % (n - i)
        perm[i], perm[z] = perm[z], perm[i]
    return perm


# random_: whole numbers, as torch's random_kernel and random_from_to_kernel draw them.
_RANDOM_MODULUS = {"float16": 2**11 + 1, "float32": 2**24 + 1, "float64": 2**53 + 1,
                   "int64": 2**63, "int32": 2**31, "int16": 2**15, "int8": 2**7, "uint8": 2**8}


def random_bits(engine: Engine, n: int, dtype_name: str) -> np.ndarray:
    """``random_()``: a 64-bit draw for int64 and float64, a 32-bit one otherwise, reduced
    modulo the dtype's range (``2**digits + 1`` for floats; the low bit for bool)."""
    wide = dtype_name in ("int64", "float64")
    draws = engine.random64(n) if wide else engine.random(n).astype(np.uint64)
    if dtype_name == "bool":
        return (draws & np.uint64(1)).astype(np.int64)
    return (draws % np.uint64(_RANDOM_MODULUS[dtype_name])).astype(np.int64)


def random_from_to(engine: Engine, n: int, span: int, base: int) -> np.ndarray:
    """``random_(from, to)``: ``draw % span + from`` (wrapping as int64 arithmetic does), the
    draw 64 bits wide for spans of 2**28 or more, as ``randint``'s."""
    draws = engine.random64(n) if span >= 2**28 else engine.random(n).astype(np.uint64)
    values = (draws % np.uint64(span)) + np.uint64(base & 0xFFFF_FFFF_FFFF_FFFF)
    return values.view(np.int64)


def random_full_range(engine: Engine, n: int) -> np.ndarray:
    """``random_(-2**63, None)``: one 64-bit draw read as a signed int64."""
    return engine.random64(n).view(np.int64)


def _c_log1p(x: np.ndarray) -> np.ndarray:
    """The C library's log1p, element by element (NumPy's differs in the last bit)."""
    return np.frompyfunc(math.log1p, 1, 1)(x).astype(np.float64)


def exponential(engine: Engine, n: int, dtype, lambd: float) -> np.ndarray:
    """torch's exponential_distribution<double>: a float64 uniform u, then
    ``-1 / lambd * log1p(-u)`` in float64, rounded to float32 (and float16 from that)."""
    u = uniform(engine, n, np.float64)
    value = (-1.0 / lambd) * _c_log1p(-u)
    return value.astype(np.float32).astype(dtype) if dtype != np.float64 else value


_DIGITS = {"float16": 11, "float32": 24, "float64": 53}


def _through(value: int, dtype_name: str) -> int:
    """``int64(scalar_t(value))``: value rounded to the float dtype and back (a value out of
    int64's range, infinity included, reads as int64's lowest, as x86 converts it)."""
    value = np.array(min(max(value, -(2**63)), 2**63 - 1), np.int64)
    with np.errstate(over="ignore"):
        rounded = float(value.astype(np.float32 if dtype_name == "float16" else dtype_name)
                        .astype(dtype_name))
    return int(rounded) if -(2.0**63) <= rounded < 2.0**63 else -(2**63)


def update_from(lo: int, dtype_name: str) -> int:
    """torch's update_from: move ``from`` right until ``from + 1`` survives the cast."""
    plus_1 = _through(lo + 1, dtype_name)
    if plus_1 < lo:
        n = abs(lo + 1).bit_length() - 1
        lo = plus_1 + (1 << (n - _DIGITS[dtype_name] + 1))
    return lo


def update_to(hi: int, dtype_name: str) -> int:
    """torch's update_to: move ``to`` left until ``to - 1`` stays below it after the cast."""
    minus_1 = _through(hi - 1, dtype_name)
    if minus_1 >= hi:
        n = abs(hi - 1).bit_length() - 1
        hi = minus_1 - (1 << (n - _DIGITS[dtype_name] + 1))
    return hi


def bernoulli(engine: Engine, n: int, p: float) -> np.ndarray:
    """torch's ``bernoulli_(p)`` for a number ``p``, element by element: a float64 uniform
    each, True where it is below ``p`` (``bernoulli_distribution<double>``). This is torch's
    kernel without MKL, and with MKL on a processor that is not Intel's; an Intel processor
    runs MKL's own generator (VSL_BRNG_MCG31, seeded with one 32-bit draw), whose numbers
    minigrad does not reproduce."""
    return uniform(engine, n, np.float64) < p


def geometric(engine: Engine, n: int, p: float) -> np.ndarray:
    """torch's geometric_distribution<double>: ``ceil(log(u) / log1p(-p))``, u a float64
    uniform, with the C library's log."""
    u = uniform(engine, n, np.float64)
    log = np.frompyfunc(lambda x: math.log(x) if x > 0 else -math.inf, 1, 1)
    return np.ceil(log(u).astype(np.float64) / math.log1p(-p))
