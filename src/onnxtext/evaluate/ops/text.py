"""String operators: StringConcat, StringSplit, StringNormalizer, RegexFullMatch, TfIdfVectorizer."""

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
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise KernelError(f"bad pattern {pattern!r}: {exc}") from None
    return np.array([rx.fullmatch(str(s)) is not None for s in x.reshape(-1)], dtype=np.bool_).reshape(x.shape)


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
