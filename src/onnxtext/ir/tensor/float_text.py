"""Decimal text ⇄ binary floats, exactly: a decimal rounded correctly to a float format
(like ``strtof``, no double rounding; :func:`parse_float32`), and the shortest decimal that
reads back as the same value, in the tensors' style (:func:`format_float32`; float32 arrays
through orjson, the small float formats from a table per type)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt
import orjson

from onnxtext.ir.dtypes import BY_CODE, DType, float_format, round_to_format

__all__ = ["format_float32", "parse_float32", "float32_compact"]


def _sticky(texts: Sequence[str], d: npt.NDArray[np.float64], idx: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
    """-1/0/+1: is the exact decimal value of each ``texts[i]`` (i in idx) below, at or
    above ``d[i]`` in magnitude?"""
    out = np.zeros(len(idx), dtype=np.int8)
    for j, i in enumerate(idx.tolist()):
        # copy_abs() and comparisons are exact (abs() and subtraction would round).
        exact = Decimal(texts[i].strip()).copy_abs()
        approx = Decimal(float(d[i])).copy_abs()
        out[j] = 1 if exact > approx else (-1 if exact < approx else 0)
    return out


def _is_special(text: str) -> bool:
    return "n" in text or "N" in text


def _round_texts(
    dtype: DType, texts: Sequence[str], d: npt.NDArray[np.float64]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Round the decimal values ``texts`` (parsed to ``d``) to ``dtype`` codes, correctly
    (a float64 landing on a midpoint is settled from the text)."""
    r = round_to_format(dtype, d)
    bits, overflow, underflow = r.bits, r.overflow, r.underflow
    ties = np.flatnonzero(r.tie)
    if ties.size:
        st = _sticky(texts, d, ties)
        moved = st != 0
        if moved.any():
            sel = ties[moved]
            r2 = round_to_format(dtype, d[sel], sticky=st[moved])
            bits = bits.copy()
            overflow = overflow.copy()
            underflow = underflow.copy()
            bits[sel] = r2.bits
            overflow[sel] = r2.overflow
            underflow[sel] = r2.underflow
    return bits, overflow, underflow, r.exact


def _parse_floats(texts: Sequence[str]) -> npt.NDArray[np.float64]:
    return np.array(list(map(float, texts)), dtype=np.float64) if len(texts) else np.zeros(0, np.float64)


def _format_doubles(arr: npt.NDArray[np.float64]) -> list[str]:
    out = list(map(float.__repr__, arr.tolist()))
    nan = np.flatnonzero(np.isnan(arr))
    if nan.size:
        bits = arr[nan].view(np.uint64)
        for j, i in enumerate(nan.tolist()):
            b = int(bits[j])
            if b == 0x7FF8000000000000:
                out[i] = "nan"
            elif b == 0xFFF8000000000000:
                out[i] = "-nan"
            else:
                out[i] = f"0x{b:016x}"  # the bit pattern: a NaN with a payload
    return out


_POW10 = np.array([float(10**k) for k in range(0, 309)], dtype=np.float64)
_RECIP_OFF = 340
#: _RECIP[q + _RECIP_OFF] is 10**-q correctly rounded (q in -340..340).
_RECIP = np.array([float(f"1e{-q}") for q in range(-_RECIP_OFF, _RECIP_OFF + 1)], dtype=np.float64)


def _probe(
    q: npt.NDArray[np.int64],
    x: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    lo_ratio: npt.NDArray[np.float64],
    lo_in: npt.NDArray[np.bool_],
    hi_in: npt.NDArray[np.bool_],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Is there a decimal ``D * 10**q`` (D >= 1 integer) in the rounding interval
    ``(x - hi*lo_ratio, x + hi)`` of each ``x`` (ends included where ``lo_in``/``hi_in``)?

    Returns (feasible, unsure, digits, choice_unsure): ``digits`` is the closer of the
    two candidates around ``x`` that is inside; ``unsure`` marks elements where this
    cannot be decided here, ``choice_unsure`` those where ``digits`` may be wrong:
    they need the exact computation.

    The scaled value ``s = x * 10**-q`` is computed with relative error below 2**-51; the
    margin ``s * 2**-49`` covers that. The interval half-widths are at least 2**-26
    relative to ``x`` in every format used, far more than the margin, so a candidate
    within the margin of ``x`` is inside whatever its side. Candidates too close to an
    interval end are settled exactly in float64 when they are integers below 2**53.
    """
    r = _RECIP[q + _RECIP_OFF]
    s = x * r
    th = hi * r
    tl = th * lo_ratio
    m = s * 2.0**-49 + 2.0**-50
    fl = np.floor(s)
    dl = s - fl
    dh = 1.0 - dl
    in_l = (dl + m < tl) & (fl >= 1)
    in_h = dh + m < th
    on_edge = (np.abs(dl - tl) <= m) | (np.abs(dh - th) <= m)
    close = in_l & in_h & (np.abs(dl - dh) <= m)
    pick_h = in_h & (~in_l | (dh < dl))
    hard = np.flatnonzero(on_edge | close)
    if hard.size:
        qh = q[hard]
        ok = (qh >= 0) & (qh <= 22) & (s[hard] < 2.0**52)
        e = hard[ok]
        if e.size:
            p = _POW10[q[e]]
            xe = x[e]
            f = fl[e]
            f = np.where(f * p > xe, f - 1, f)  # exact floor of x / 10**q
            f = np.where((f + 1) * p <= xe, f + 1, f)
            dlx = xe - f * p  # exact: integers below 2**53 and x
            dhx = (f + 1) * p - xe
            lo_abs = hi[e] * lo_ratio[e]
            il = (f >= 1) & ((dlx < lo_abs) | ((dlx == lo_abs) & lo_in[e]))
            ih = (dhx < hi[e]) | ((dhx == hi[e]) & hi_in[e])
            ph = ih & (~il | (dhx < dlx) | ((dhx == dlx) & (f % 2 == 1)))
            in_l[e], in_h[e], pick_h[e], fl[e] = il, ih, ph, f
            on_edge[e] = False
            close[e] = False
    feasible = in_l | in_h
    unsure = ~feasible & on_edge
    choice_unsure = on_edge | close
    return feasible, unsure, (fl + pick_h).astype(np.int64), choice_unsure


def _shortest(
    x: npt.NDArray[np.float64],
    lo: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    lo_incl: npt.NDArray[np.bool_],
    hi_incl: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The shortest decimals ``D * 10**Q`` in the rounding intervals
    ``[x - lo, x + hi]`` (ends included where ``*_incl``) of positive ``x``; of two
    equally short, the closer to ``x``. ``lo`` is ``hi`` or ``hi/2``, or (float8e8m0)
    ``hi/2``, and at least 2**-26 of ``x``.

    Vectorised in float64 with error bounds; elements too close to call are settled
    exactly with fractions (:func:`_shortest_exact`).
    """
    n = x.size
    lo_ratio = lo / hi
    width = lo + hi
    with np.errstate(divide="ignore"):
        # At q_sure the interval is wider than 10**q: it holds a decimal (with D >= 2).
        q_sure = np.ceil(np.log10(width)).astype(np.int64) - 1
        q_sure -= width * _RECIP[q_sure + _RECIP_OFF] <= 1.000001
        q_top = np.floor(np.log10(x)).astype(np.int64) + 2  # 10**q_top > x + hi: none
    digits = np.zeros(n, dtype=np.int64)
    q_out = np.zeros(n, dtype=np.int64)
    unsure = np.zeros(n, dtype=bool)
    # Try q_sure + 1, + 2, ... until infeasible: most values need q_sure or q_sure + 1.
    idx = np.arange(n)
    q_try = q_sure + 1
    d_prev: np.ndarray | None = None
    cu_prev: np.ndarray | None = None
    while idx.size:
        if idx.size == n:  # first round: no copies
            feasible, uns, d_try, cu_try = _probe(q_try, x, hi, lo_ratio, lo_incl, hi_incl)
        else:
            feasible, uns, d_try, cu_try = _probe(q_try, x[idx], hi[idx], lo_ratio[idx], lo_incl[idx], hi_incl[idx])
        unsure[idx[uns | (feasible & (q_try >= q_top[idx]))]] = True
        done = ~feasible | (q_try >= q_top[idx])
        fin = np.flatnonzero(done)
        if fin.size:
            sub = idx[fin]
            if d_prev is None or cu_prev is None:  # the answer is q_sure, not probed yet
                _, _, d_fin, cu_fin = _probe(q_try[fin] - 1, x[sub], hi[sub], lo_ratio[sub], lo_incl[sub], hi_incl[sub])
            else:
                d_fin, cu_fin = d_prev[fin], cu_prev[fin]
            digits[sub] = d_fin
            unsure[sub[cu_fin]] = True
            q_out[sub] = q_try[fin] - 1
        keep = ~done
        idx = idx[keep]
        q_try = q_try[keep] + 1
        d_prev = d_try[keep]
        cu_prev = cu_try[keep]
    for i in np.flatnonzero(unsure).tolist():
        digits[i], q_out[i] = _shortest_exact(
            float(x[i]), float(lo[i]), float(hi[i]), bool(lo_incl[i]), bool(hi_incl[i])
        )
    return digits, q_out


def _shortest_exact(x: float, lo: float, hi: float, lo_incl: bool, hi_incl: bool) -> tuple[int, int]:
    """:func:`_shortest` for one value, in exact rational arithmetic."""
    fx, flo, fhi = Fraction(x), Fraction(lo), Fraction(hi)
    k = math.floor(math.log10(x))
    for q in range(k + 2, k - 30, -1):
        scale = Fraction(10) ** q
        s = fx / scale
        base = math.floor(s)
        best: tuple[Fraction, int] | None = None
        for d in (base, base + 1):
            if d <= 0:
                continue
            diff = d * scale - fx
            ok = (-diff < flo or (-diff == flo and lo_incl)) if diff < 0 else (diff < fhi or (diff == fhi and hi_incl))
            if ok:
                key = (abs(diff), d % 2)
                if best is None or key < (best[0], best[1] % 2):
                    best = (abs(diff), d)
        if best is not None:
            return best[1], q
    raise AssertionError("no decimal found")  # pragma: no cover


def _format_decimals(
    negative: npt.NDArray[np.bool_], digits: npt.NDArray[np.int64], q: npt.NDArray[np.int64]
) -> np.ndarray:
    """Texts of ``±digits * 10**q`` in Python ``repr`` style: positional for
    1e-4 <= |v| < 1e16 (at least one digit after the point), else ``d.ddde±XX``."""
    n = digits.size
    out = np.empty(n, dtype=object)
    if n == 0:
        return out
    ndig = np.searchsorted(_POW10[:20], digits.astype(np.float64), side="right").astype(np.int64)
    exp10 = ndig - 1 + q
    positional = (exp10 >= -4) & (exp10 < 16)
    value = digits.astype(np.float64)
    value = np.where(q >= 0, value * _POW10[np.clip(q, 0, 308)], value / _POW10[np.clip(-q, 0, 308)])
    value = np.where(negative, -value, value)
    key = np.where(positional, np.maximum(1, -q), 1000 + ndig - 1)
    for k in np.unique(key).tolist():
        idx = np.flatnonzero(key == k)
        fmt = f"%.{k}f" if k < 1000 else f"%.{k - 1000}e"
        out[idx] = list(map(fmt.__mod__, value[idx].tolist()))
    return out


def _format_codes(
    x: npt.NDArray[np.float64],
    m_even: npt.NDArray[np.bool_],
    lo: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    lo_incl: npt.NDArray[np.bool_] | None = None,
    hi_incl: npt.NDArray[np.bool_] | None = None,
) -> np.ndarray:
    """Shortest texts for finite nonzero values ``x`` (signed) given their rounding intervals."""
    ax = np.abs(x)
    li = m_even if lo_incl is None else lo_incl
    hi_ = m_even if hi_incl is None else hi_incl
    digits, q = _shortest(ax, lo, hi, li, hi_)
    return _format_decimals(np.signbit(x), digits, q)


def _intervals(mbits: int, bias: int, codes_mag: npt.NDArray[np.int64]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For magnitude codes of a sign-magnitude binary format (finite, nonzero):
    the half-widths below and above of each value's rounding interval, and whether the
    mantissa is even (interval ends included)."""
    exp_field = codes_mag >> mbits
    frac = codes_mag & ((1 << mbits) - 1)
    emin = 1 - bias
    e = np.maximum(exp_field - bias, emin) - mbits  # quantum exponent
    half = ((e - 1 + 1023) << 52).view(np.float64)  # 2.0**(e-1), a normal float64 here
    lo = np.where((frac == 0) & (exp_field > 1), half / 2, half)
    return lo, half, (codes_mag & 1) == 0


@cache
def _literal_table(code: int) -> np.ndarray:
    """Canonical literal text of every code of a 16/8/6/4-bit float type."""
    from onnxtext.ir.dtypes import _value_table  # the exact values

    dtype = BY_CODE[code]
    fmt = float_format(dtype)
    codes = np.arange(1 << fmt.width, dtype=np.int64)
    values = _value_table(code)
    out = np.empty(codes.size, dtype=object)
    nan = np.isnan(values)
    out[nan] = [str(c) for c in codes[nan].tolist()]  # bit patterns, but for:
    if fmt.has_nan:
        out[fmt.nan_code(False)] = "nan"
        if fmt.style in ("ieee", "fn"):
            out[fmt.nan_code(True)] = "-nan"
    inf = np.isinf(values)
    out[inf] = np.where(values[inf] > 0, "inf", "-inf")
    zero = values == 0
    out[zero] = np.where(np.signbit(values[zero]), "-0.0", "0.0")
    fin = np.isfinite(values) & ~zero
    x = values[fin]
    if fmt.style == "e8m0":
        ax = np.abs(x)
        out[fin] = _format_codes(
            x, np.ones(x.shape, bool), ax / 4, ax / 2, np.ones(x.shape, bool), np.zeros(x.shape, bool)
        )
    else:
        mag = codes[fin] & (fmt.sign_bit - 1)
        lo, hi, even = _intervals(fmt.mbits, fmt.bias, mag)
        out[fin] = _format_codes(x, even, lo, hi)
    out.setflags(write=False)
    return out


def _format_float32(bits: npt.NDArray[np.uint32]) -> list[str]:
    if bits.size and not ((bits & 0x7F800000) == 0x7F800000).any():  # no NaN or infinity: all through orjson
        return _shortest_float32(bits.astype(np.uint32).view(np.float32))
    b = bits.astype(np.int64)
    n = b.size
    out = np.empty(n, dtype=object)
    if n == 0:
        return []
    mag = b & 0x7FFFFFFF
    exp_field = mag >> 23
    negative = (b >> 31) == 1
    is_nan = (exp_field == 0xFF) & ((mag & 0x7FFFFF) != 0)
    if is_nan.any():
        out[is_nan] = np.where(negative[is_nan], "-nan", "nan")
        payload = is_nan & (mag != 0x7FC00000)
        for i in np.flatnonzero(payload).tolist():  # NaNs with payloads print as their bit pattern
            out[i] = f"0x{int(b[i]) & 0xFFFFFFFF:08x}"
    is_inf = mag == 0x7F800000
    out[is_inf] = np.where(negative[is_inf], "-inf", "inf")
    zero = mag == 0
    out[zero] = np.where(negative[zero], "-0.0", "0.0")
    fin = ~(is_nan | is_inf | zero)
    if fin.any():
        out[fin] = _shortest_float32(b[fin].astype(np.uint32).view(np.float32))
    return out.tolist()  # type: ignore[no-any-return]


def _shortest_float32(x: npt.NDArray[np.float32]) -> list[str]:
    """The shortest texts of finite float32 values that read back to them.

    orjson (C) gives the digits (shortest, nearest to the value, as our own vectorised
    search does: checked value for value in the tests); its layout is the tensors' style
    for magnitudes in [1e-4, 1e13); the rest come from our own vectorised search.
    """
    texts = orjson.dumps(x, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].decode("ascii").split(",")
    odd = _laid_out_again(x)
    if odd.size:
        for i, text in zip(odd.tolist(), _general_float32(x[odd]), strict=True):
            texts[i] = text
    return texts


def _general_float32(x: npt.NDArray[np.float32]) -> list[str]:
    """Our own vectorised shortest search (the other float types' path), for the values
    orjson lays out otherwise (few, or a whole tensor of tiny values)."""
    mag = x.view(np.uint32).astype(np.int64) & 0x7FFFFFFF
    lo, hi, even = _intervals(23, 127, mag)
    return list(_format_codes(x.astype(np.float64), even, lo, hi))


def _laid_out_again(x: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
    """Which values orjson may lay out otherwise than the tensors' style (exponent form,
    or ``0.0000…``). Generous bounds: a value just below a power of ten may print as it."""
    ax = np.abs(x)
    return np.flatnonzero(((ax < np.float32(2e-4)) & (ax > 0)) | (ax >= np.float32(5e12)))


def _float32_text(x: npt.NDArray[np.float32]) -> str:
    """``", ".join(_shortest_float32(x))`` made as one string: no list of a million texts."""
    return float32_compact(x).replace(b",", b", ").decode("ascii")


def float32_compact(x: npt.NDArray[np.float32]) -> bytes:
    """``",".join(_shortest_float32(x))`` as ASCII bytes, made in C (orjson) but for the few values
    it lays out otherwise (finite values only)."""
    odd = _laid_out_again(x)
    if odd.size > x.size // 16:  # many tiny or huge values: patching the text item by item costs more
        return ",".join(_shortest_float32(x)).encode("ascii")
    if not odd.size:
        return orjson.dumps(x, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1]
    # orjson writes NaN as ``null``: each value to lay out again is made a NaN, and its text
    # replaces that ``null`` (a scan for the commas to find the values would cost more than orjson).
    marked = x.copy()
    marked[odd] = np.nan
    data = orjson.dumps(marked, option=orjson.OPT_SERIALIZE_NUMPY)
    view = memoryview(data)
    out: list[bytes | memoryview] = []
    at = 1  # after ``[``
    for text in _general_float32(x[odd]):
        null = data.find(b"n", at)
        if null < 0:  # pragma: no cover - the callers hold no NaN
            break
        out += [view[at:null], text.encode("ascii")]
        at = null + 4
    if len(out) != 2 * odd.size or data.find(b"n", at) >= 0:  # pragma: no cover - a NaN of its own
        return ",".join(_shortest_float32(x)).encode("ascii")
    out.append(view[at:-1])
    return b"".join(out)


def _layout(sign: str, digits: str, exp10: int) -> str:
    """Shortest significant ``digits`` (no leading or trailing zeros) times 10**``exp10``
    in the tensors' style: positional for exponents -4 to 15, else ``d.ddde±XX``."""
    q = exp10 - (len(digits) - 1)
    if not -4 <= exp10 < 16:
        return f"{sign}{digits[0]}{'.' + digits[1:] if len(digits) > 1 else ''}e{exp10:+03d}"
    if q >= 0:
        return f"{sign}{digits}{'0' * q}.0"
    if exp10 >= 0:
        return f"{sign}{digits[: exp10 + 1]}.{digits[exp10 + 1 :]}"
    return f"{sign}0.{'0' * (-exp10 - 1)}{digits}"


def format_float32(value: float) -> str:
    """The shortest text of a float32 value that reads back to it, in the tensors' style.

    One value at a time (attributes): numpy's scalar Dragon4 gives the shortest digits,
    laid out as :func:`_format_decimals` lays out a whole tensor.
    """
    f = np.float32(value)
    if f == 0 or not np.isfinite(f):
        return _format_float32(np.array([f], dtype=np.float32).view(np.uint32))[0]
    mantissa, _, exp_text = np.format_float_scientific(f, unique=True, trim="-").partition("e")
    sign = "-" if mantissa.startswith("-") else ""
    return _layout(sign, mantissa.lstrip("-").replace(".", ""), int(exp_text))


_FLT_MAX = float(np.finfo(np.float32).max)


def parse_float32(text: str) -> float:
    """The float32 nearest to a decimal text, rounded once (as C's strtof does).

    Going through float64 rounds twice, which can differ from one rounding only when the
    float64 lies exactly halfway between two float32 values: only then (and near
    overflow) does the exact path run.
    """
    d = float(text)
    if d != d or abs(d) == math.inf:
        return d
    if abs(d) < _FLT_MAX:
        f = np.float32(d)
        near = float(f)
        if near == d:
            return near
        other = float(np.nextafter(f, np.float32(math.copysign(math.inf, d - near))))
        if d - near != other - d:  # not a midpoint: rounding once or twice agrees
            return near
    bits, _, _, _ = _round_texts(BY_CODE[1], [text], _parse_floats([text]))
    return float(np.array(bits, dtype=np.uint32).view(np.float32)[0])
