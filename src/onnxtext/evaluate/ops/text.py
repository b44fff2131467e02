"""String operators: StringConcat, StringSplit, StringNormalizer, RegexFullMatch, TfIdfVectorizer, and
onnxruntime's com.microsoft Tokenizer (skl2onnx's text vectorizers)."""

from __future__ import annotations

import re

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel


def _obj(values, shape) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out.reshape(shape)


@kernel("", "StringConcat", 20)
def string_concat(x, y):
    a, b = np.broadcast_arrays(x, y)
    return _obj([str(p) + str(q) for p, q in zip(a.reshape(-1), b.reshape(-1), strict=True)], a.shape)


@kernel("", "StringSplit", 20)
def string_split(x, *, delimiter=None, maxsplit=None):
    flat = [str(s) for s in x.reshape(-1)]
    ms = -1 if maxsplit is None else maxsplit
    if delimiter:
        parts = [s.split(delimiter, ms) for s in flat]
    else:
        parts = [s.split(None, ms) if ms >= 0 else s.split() for s in flat]
    width = max((len(p) for p in parts), default=0)
    padded = [p + [""] * (width - len(p)) for p in parts]
    y = _obj([v for p in padded for v in p], x.shape + (width,))
    z = np.array([len(p) for p in parts], dtype=np.int64).reshape(x.shape)
    return y, z


@kernel("", "StringNormalizer", 10)
def string_normalizer(x, *, case_change_action="NONE", is_case_sensitive=0, locale="", stopwords=None):
    flat = [str(s) for s in x.reshape(-1)]
    if stopwords:
        if is_case_sensitive:
            stop = set(stopwords)
            flat = [s for s in flat if s not in stop]
        else:
            stop = {w.lower() for w in stopwords}
            flat = [s for s in flat if s.lower() not in stop]
    if case_change_action == "LOWER":
        flat = [s.lower() for s in flat]
    elif case_change_action == "UPPER":
        flat = [s.upper() for s in flat]
    if not flat:
        flat = [""]
    shape = (1, len(flat)) if x.ndim == 2 else (len(flat),)
    return _obj(flat, shape)


@kernel("", "RegexFullMatch", 20)
def regex_full_match(x, *, pattern):
    rx = _compile(pattern, "pattern")
    return np.array([rx.fullmatch(str(s)) is not None for s in x.reshape(-1)], dtype=np.bool_).reshape(x.shape)


def _compile(pattern: str, what: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise KernelError(f"bad {what} {pattern!r}: {exc}") from None


def _matches(rx: re.Pattern[str], s: str) -> list[re.Match[str]]:
    """Every match of ``rx`` in ``s`` from left to right, an empty one stepping a character."""
    found = []
    pos = 0
    while pos <= len(s):
        m = rx.search(s, pos)
        if m is None:
            break
        found.append(m)
        pos = m.end() if m.end() > m.start() else m.start() + 1
    return found


def _split(text: str, rx: re.Pattern[str], least: int) -> list[str]:
    """The pieces of ``text`` between the matches of the separator ``rx``, of ``least`` characters or more."""
    pieces, start = [], 0
    for m in _matches(rx, text):
        pieces.append(text[start : m.start()])
        start = m.end() if m.end() > m.start() else m.start() + 1
    pieces.append(text[start:])
    return [p for p in pieces if len(p) >= least]


@kernel("com.microsoft", "Tokenizer", 1)
def tokenizer(x, *, mark, mincharnum, pad_value, separators=None, tokenexp=None):
    """onnxruntime's contrib Tokenizer: each string of a [C] or [N, C] tensor cut into tokens along a
    new last axis, padded to the longest row with ``pad_value`` (after the end mark 0x03 when
    ``mark``, which also puts 0x02 first). The tokens are the matches of ``tokenexp`` (one of at
    least ``mincharnum`` characters is taken, else the search goes on one character further), or
    the pieces between the matches of each regular expression of ``separators`` in turn; a single
    empty separator or the tokenexp "." cuts into characters. onnxruntime matches with RE2's longest
    match, this kernel with Python's ``re`` (leftmost first): they differ only on alternations."""
    if x.ndim not in (1, 2):
        raise KernelError(f"Tokenizer takes a tensor of rank 1 or 2, not {x.ndim}", input_index=0)
    if mincharnum < 1:
        raise KernelError(f"mincharnum must be positive, not {mincharnum}")
    if x.size == 0:
        return _obj([], x.shape[:1] + (0,) if x.ndim == 2 else (0,))
    seps = list(separators) if separators is not None else None
    if seps is None and not tokenexp:
        raise KernelError("Tokenizer needs 'separators' or a non-empty 'tokenexp'")
    if seps is not None and not seps:
        raise KernelError("'separators' must not be empty")
    chars = seps == [""] if seps is not None else tokenexp == "."
    if chars and mincharnum > 1:
        raise KernelError(f"mincharnum {mincharnum} is too big to cut into characters")
    rows: list[list[str]] = []
    if chars:
        rows = [list(str(v)) for v in x.reshape(-1)]
    elif seps is not None:
        patterns = [_compile(p, "separator") for p in seps]
        for v in x.reshape(-1):
            row = [str(v)]
            for rx in patterns:
                row = [t for text in row for t in _split(text, rx, mincharnum)]
                if not row:
                    break
            rows.append(row)
    else:
        rx = _compile(str(tokenexp), "tokenexp")
        for v in x.reshape(-1):
            text = str(v)
            row = []
            if len(text) >= mincharnum:
                pos = 0
                while pos <= len(text) and (m := rx.search(text, pos)) is not None:
                    if len(m.group(0)) >= mincharnum:
                        row.append(m.group(0))
                        pos = m.end()
                    else:
                        pos = m.start() + 1
            rows.append(row)
    width = max(len(r) for r in rows)
    if width == 0:
        return _obj([], x.shape + (0,))
    marks = (["\x02"], ["\x03"]) if mark else ([], [])
    cells = [marks[0] + r + marks[1] + [pad_value] * (width - len(r)) for r in rows]
    return _obj([t for r in cells for t in r], x.shape + (width + 2 * bool(mark),))


@kernel("", "TfIdfVectorizer", 9)
def tfidf_vectorizer(
    x,
    *,
    max_gram_length,
    max_skip_count,
    min_gram_length,
    mode,
    ngram_counts,
    ngram_indexes,
    pool_int64s=None,
    pool_strings=None,
    weights=None,
):
    pool = list(pool_int64s) if pool_int64s is not None else list(pool_strings or [])
    counts = list(ngram_counts) + [len(pool)]
    grams: dict[tuple, int] = {}
    k = 0
    for n in range(1, len(counts)):
        start, end = counts[n - 1], counts[n]
        for i in range(start, end, n):
            grams[tuple(pool[i : i + n])] = int(ngram_indexes[k])
            k += 1
    width = max(ngram_indexes) + 1 if len(ngram_indexes) else 0
    rows = x.reshape(1, -1) if x.ndim <= 1 else x
    out = np.zeros((rows.shape[0], width), dtype=np.float64)
    for r in range(rows.shape[0]):
        row = [v if isinstance(v, str) else int(v) for v in rows[r]]
        # no n-gram is longer than the row, no skip wider than it: the bounds need go no further
        for n in range(min_gram_length, min(max_gram_length, len(row)) + 1):
            skips = range(min(max_skip_count, len(row)) + 1) if n > 1 else [0]
            for sk in skips:
                stepw = sk + 1
                for i in range(len(row) - (n - 1) * stepw):
                    g = tuple(row[i + j * stepw] for j in range(n))
                    col = grams.get(g)
                    if col is not None:
                        out[r, col] += 1
    w = np.ones(width) if weights is None else np.asarray(weights, dtype=np.float64)
    if mode == "IDF":
        out = (out > 0) * w
    elif mode == "TFIDF":
        out = out * w
    res = out.astype(np.float32)
    return res.reshape(-1) if x.ndim <= 1 else res
