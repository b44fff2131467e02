"""ai.onnx.ml operators (the ones the backend suite tests and the common skl2onnx ones)."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel

ML = "ai.onnx.ml"


@kernel(ML, "ArrayFeatureExtractor", 1)
def array_feature_extractor(x, y):
    idx = np.asarray(y).astype(np.int64).reshape(-1)
    if np.any(idx >= x.shape[-1]) or np.any(idx < 0):
        raise KernelError("index out of range", input_index=1)
    out = x[..., idx]
    return out.reshape(x.shape[:-1] + (idx.size,)) if x.ndim > 1 else out.reshape(1, -1)


@kernel(ML, "Binarizer", 1)
def binarizer(x, *, threshold=0.0):
    return (x > threshold).astype(x.dtype)


def _post(scores: np.ndarray, post_transform: Any) -> np.ndarray:
    pt = post_transform
    if pt in (0, "NONE", None):
        return scores
    if pt in (1, "SOFTMAX"):
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    if pt in (2, "LOGISTIC"):
        return 1 / (1 + np.exp(-scores))
    if pt in (3, "SOFTMAX_ZERO"):
        nz = scores != 0
        e = np.where(nz, np.exp(scores - np.where(nz, scores, -np.inf).max(axis=1, keepdims=True)), 0)
        s = e.sum(axis=1, keepdims=True)
        return e / np.where(s == 0, 1, s)
    if pt in (4, "PROBIT"):
        from onnxtext.evaluate.ops._util import erf

        # inverse of the normal CDF via Newton on erf
        p = np.clip(scores, 1e-12, 1 - 1e-12)
        z = np.zeros_like(p)
        for _ in range(60):
            cdf = 0.5 * (1 + erf(z / np.sqrt(2)))
            pdf = np.exp(-z * z / 2) / np.sqrt(2 * np.pi)
            z = z - (cdf - p) / np.maximum(pdf, 1e-300)
        return z
    raise KernelError(f"unknown post_transform {post_transform!r}")


@kernel(ML, "LabelEncoder", 2)
def label_encoder(
    x,
    *,
    default_float=-0.0,
    default_int64=-1,
    default_string="_Unused",
    default_tensor=None,
    keys_floats=None,
    keys_int64s=None,
    keys_strings=None,
    keys_tensor=None,
    values_floats=None,
    values_int64s=None,
    values_strings=None,
    values_tensor=None,
):
    if keys_tensor is not None:
        keys = list(keys_tensor.reshape(-1))
    else:
        keys = keys_floats if keys_floats is not None else keys_int64s if keys_int64s is not None else keys_strings
    if values_tensor is not None:
        vals = values_tensor.reshape(-1)
        vdtype = values_tensor.dtype
        default = (
            default_tensor.reshape(-1)[0]
            if default_tensor is not None
            else ("_Unused" if vdtype.kind == "O" else -1 if vdtype.kind in "iu" else -0.0)
        )
    elif values_floats is not None:
        vals, vdtype, default = np.asarray(values_floats, dtype=np.float32), np.dtype(np.float32), default_float
    elif values_int64s is not None:
        vals, vdtype, default = np.asarray(values_int64s, dtype=np.int64), np.dtype(np.int64), default_int64
    else:
        vals = np.empty(len(values_strings or []), dtype=object)
        vals[:] = values_strings or []
        vdtype, default = np.dtype(object), default_string
    if keys is None:
        raise KernelError("LabelEncoder has no keys")
    table = {(_key(k)): v for k, v in zip(keys, vals, strict=False)}
    flat = [table.get(_key(v), default) for v in x.reshape(-1)]
    out = np.empty(len(flat), dtype=vdtype)
    out[:] = flat
    return out.reshape(x.shape)


def _key(v: Any) -> Any:
    if isinstance(v, (str, bytes)):
        return v.decode() if isinstance(v, bytes) else v
    if isinstance(v, (float, np.floating)):
        return float(v)
    return int(v)


# -- tree ensembles ---------------------------------------------------------------------------


def _walk(x, roots, feat, splits, modes, true_ids, true_leaf, false_ids, false_leaf, missing_true, members):
    """Leaf index reached in each tree by each sample: [n_samples, n_trees]."""
    n = x.shape[0]
    node = np.broadcast_to(np.asarray(roots, dtype=np.int64), (n, len(roots))).copy()
    leaf = np.full(node.shape, -1, dtype=np.int64)
    rows = np.arange(n)[:, None]
    active = np.ones(node.shape, dtype=bool)
    for _ in range(len(feat) + 1):
        if not active.any():
            break
        nd = np.where(active, node, 0)
        v = x[rows, feat[nd]]
        s = splits[nd]
        m = modes[nd]
        cond = np.select(
            [m == 0, m == 1, m == 2, m == 3, m == 4, m == 5],
            [v <= s, v < s, v >= s, v > s, v == s, v != s],
            default=False,
        )
        if members is not None and np.any(m == 6):
            cond = np.where(m == 6, members(nd, v), cond)
        cond = np.where(np.isnan(v), missing_true[nd].astype(bool), cond)
        nxt = np.where(cond, true_ids[nd], false_ids[nd])
        is_leaf = np.where(cond, true_leaf[nd], false_leaf[nd]).astype(bool)
        done = active & is_leaf
        leaf = np.where(done, nxt, leaf)
        node = np.where(active & ~is_leaf, nxt, node)
        active = active & ~is_leaf
    return leaf


@kernel(ML, "TreeEnsemble", 5)
def tree_ensemble(
    x,
    *,
    aggregate_function=1,
    leaf_targetids,
    leaf_weights,
    membership_values=None,
    n_targets,
    nodes_falseleafs,
    nodes_falsenodeids,
    nodes_featureids,
    nodes_hitrates=None,
    nodes_missing_value_tracks_true=None,
    nodes_modes,
    nodes_splits,
    nodes_trueleafs,
    nodes_truenodeids,
    post_transform=0,
    tree_roots,
):
    xf = x.astype(np.float64).reshape(x.shape[0], -1)
    modes = np.asarray(nodes_modes).astype(np.int64)
    nn_ = len(nodes_featureids)
    miss = np.asarray(nodes_missing_value_tracks_true if nodes_missing_value_tracks_true is not None else [0] * nn_)
    members = None
    if membership_values is not None and np.any(modes == 6):
        mv = np.asarray(membership_values, dtype=np.float64).reshape(-1)
        sets = []
        cur: list[float] = []
        for val in mv:
            if np.isnan(val):
                sets.append(cur)
                cur = []
            else:
                cur.append(val)
        if cur:
            sets.append(cur)
        set_of_node = np.full(nn_, -1)
        set_of_node[np.nonzero(modes == 6)[0]] = np.arange(int((modes == 6).sum()))
        width = max((len(s) for s in sets), default=1)
        table = np.full((max(len(sets), 1), width), np.nan)
        for i, sv in enumerate(sets):
            table[i, : len(sv)] = sv

        def members(nd, v):
            rows = table[np.maximum(set_of_node[nd], 0)]
            return (rows == v[..., None]).any(axis=-1)

    leaf = _walk(
        xf,
        tree_roots,
        np.asarray(nodes_featureids),
        np.asarray(nodes_splits, dtype=np.float64),
        modes,
        np.asarray(nodes_truenodeids),
        np.asarray(nodes_trueleafs),
        np.asarray(nodes_falsenodeids),
        np.asarray(nodes_falseleafs),
        miss,
        members,
    )
    w = np.asarray(leaf_weights, dtype=np.float64)[leaf]
    t = np.asarray(leaf_targetids)[leaf]
    out = _aggregate(w, t, n_targets, aggregate_function)
    return _post(out, post_transform).astype(x.dtype)


def _aggregate(w, t, n_targets, agg):
    n = w.shape[0]
    rows = np.broadcast_to(np.arange(n)[:, None], w.shape)
    if agg in (2, "MIN"):
        out = np.full((n, n_targets), np.inf)
        np.minimum.at(out, (rows, t), w)
        return np.where(np.isinf(out), 0, out)
    if agg in (3, "MAX"):
        out = np.full((n, n_targets), -np.inf)
        np.maximum.at(out, (rows, t), w)
        return np.where(np.isinf(out), 0, out)
    out = np.zeros((n, n_targets))
    np.add.at(out, (rows, t), w)
    if agg in (0, "AVERAGE"):
        out = out / w.shape[1]
    return out


# -- skl2onnx staples -------------------------------------------------------------------------


@kernel(ML, "LinearRegressor", 1)
def linear_regressor(x, *, coefficients=None, intercepts=None, post_transform="NONE", targets=1):
    c = np.asarray(coefficients, dtype=np.float64).reshape(targets, -1)
    y = x.astype(np.float64).reshape(x.shape[0], -1) @ c.T
    if intercepts is not None:
        y = y + np.asarray(intercepts, dtype=np.float64)
    return _post(y, post_transform).astype(np.float32)


@kernel(ML, "LinearClassifier", 1)
def linear_classifier(
    x,
    *,
    classlabels_ints=None,
    classlabels_strings=None,
    coefficients,
    intercepts=None,
    multi_class=0,
    post_transform="NONE",
):
    labels = classlabels_ints if classlabels_ints is not None else classlabels_strings
    n_classes = len(labels)
    c = np.asarray(coefficients, dtype=np.float64).reshape(-1, x.shape[1] if x.ndim > 1 else x.size)
    scores = x.astype(np.float64).reshape(x.shape[0], -1) @ c.T
    if intercepts is not None:
        scores = scores + np.asarray(intercepts, dtype=np.float64)
    if c.shape[0] == 1 and n_classes == 2:
        scores = np.concatenate([-scores, scores], axis=1)
        if post_transform in ("LOGISTIC",):
            scores = _post(scores, post_transform)
            idx = np.argmax(scores, axis=1)
            return _labels(labels, idx, classlabels_ints is not None), scores.astype(np.float32)
    scores = _post(scores, post_transform)
    idx = np.argmax(scores, axis=1)
    return _labels(labels, idx, classlabels_ints is not None), scores.astype(np.float32)


def _labels(labels, idx, ints):
    if ints:
        return np.asarray(labels, dtype=np.int64)[idx]
    arr = np.empty(len(labels), dtype=object)
    arr[:] = labels
    return arr[idx]


@kernel(ML, "Normalizer", 1)
def normalizer(x, *, norm="MAX"):
    xf = x.astype(np.float64)
    if norm == "MAX":
        d = np.max(xf, axis=1, keepdims=True)
    elif norm == "L1":
        d = np.sum(np.abs(xf), axis=1, keepdims=True)
    elif norm == "L2":
        d = np.sqrt(np.sum(xf * xf, axis=1, keepdims=True))
    else:
        raise KernelError(f"unknown norm {norm!r}")
    return (xf / np.where(d == 0, 1, d)).astype(np.float32)


@kernel(ML, "Scaler", 1)
def scaler(x, *, offset=None, scale=None):
    off = np.asarray(offset if offset is not None else [0.0], dtype=np.float64)
    sc = np.asarray(scale if scale is not None else [1.0], dtype=np.float64)
    return ((x.astype(np.float64) - off) * sc).astype(np.float32)


@kernel(ML, "ZipMap", 1)
def zip_map(x, *, classlabels_int64s=None, classlabels_strings=None):
    labels = classlabels_int64s if classlabels_int64s is not None else classlabels_strings
    return [
        {lab: float(v) for lab, v in zip(labels, row, strict=False)} for row in np.asarray(x).reshape(x.shape[0], -1)
    ]


@kernel(ML, "Imputer", 1)
def imputer(
    x, *, imputed_value_floats=None, imputed_value_int64s=None, replaced_value_float=0.0, replaced_value_int64=0
):
    if imputed_value_floats is not None:
        vals = np.asarray(imputed_value_floats, dtype=x.dtype)
        bad = np.isnan(x) if np.isnan(replaced_value_float) else x == replaced_value_float
    else:
        vals = np.asarray(imputed_value_int64s, dtype=x.dtype)
        bad = x == replaced_value_int64
    return np.where(bad, vals if vals.size > 1 else vals.reshape(()), x)


@kernel(ML, "FeatureVectorizer", 1)
def feature_vectorizer(*xs, inputdimensions=None):
    parts = [np.asarray(x, dtype=np.float32).reshape(x.shape[0], -1) for x in xs]
    return np.concatenate(parts, axis=1)


def _legacy_tree(x, attrs, n_targets, ids_key, weights_key, prefix):
    nodes_treeids = np.asarray(attrs["nodes_treeids"])
    nodes_nodeids = np.asarray(attrs["nodes_nodeids"])
    modes_s = attrs["nodes_modes"]
    mode_map = {
        "BRANCH_LEQ": 0,
        "BRANCH_LT": 1,
        "BRANCH_GTE": 2,
        "BRANCH_GT": 3,
        "BRANCH_EQ": 4,
        "BRANCH_NEQ": 5,
        "LEAF": -1,
    }
    modes = np.array([mode_map[m] for m in modes_s])
    key = {(int(t), int(n)): i for i, (t, n) in enumerate(zip(nodes_treeids, nodes_nodeids, strict=False))}
    trees = sorted(set(nodes_treeids.tolist()))
    roots = [
        key[(t, min(int(n) for tt, n in zip(nodes_treeids, nodes_nodeids, strict=False) if tt == t))] for t in trees
    ]
    nn_ = len(modes)
    true_ids = np.array([key.get((int(nodes_treeids[i]), int(attrs["nodes_truenodeids"][i])), i) for i in range(nn_)])
    false_ids = np.array([key.get((int(nodes_treeids[i]), int(attrs["nodes_falsenodeids"][i])), i) for i in range(nn_)])
    is_leaf = modes == -1
    # leaves are nodes whose mode is LEAF: walk until reaching one
    xf = x.astype(np.float64).reshape(x.shape[0], -1)
    n = xf.shape[0]
    node = np.broadcast_to(np.asarray(roots), (n, len(roots))).copy()
    rows = np.arange(n)[:, None]
    feat = np.asarray(attrs["nodes_featureids"])
    splits = np.asarray(attrs["nodes_values"], dtype=np.float64)
    miss = np.asarray(attrs.get("nodes_missing_value_tracks_true") or [0] * nn_)
    for _ in range(nn_ + 1):
        act = ~is_leaf[node]
        if not act.any():
            break
        v = xf[rows, feat[node]]
        s = splits[node]
        m = modes[node]
        cond = np.select(
            [m == 0, m == 1, m == 2, m == 3, m == 4, m == 5],
            [v <= s, v < s, v >= s, v > s, v == s, v != s],
            default=False,
        )
        cond = np.where(np.isnan(v), miss[node].astype(bool), cond)
        node = np.where(act, np.where(cond, true_ids[node], false_ids[node]), node)
    # contributions of each leaf node
    t_nodes = np.asarray(attrs[f"{prefix}_nodeids"])
    t_trees = np.asarray(attrs[f"{prefix}_treeids"])
    t_ids = np.asarray(attrs[ids_key])
    t_w = np.asarray(attrs[weights_key], dtype=np.float64)
    out = np.zeros((n, n_targets))
    for k in range(len(t_nodes)):  # one pass per leaf weight entry (vectorised over samples)
        idx = key[(int(t_trees[k]), int(t_nodes[k]))]
        hit = (node == idx).any(axis=1)
        out[:, int(t_ids[k])] += np.where(hit, t_w[k], 0)
    return out, len(roots)


@kernel(ML, "TreeEnsembleRegressor", 1)
def tree_ensemble_regressor(
    x, *, aggregate_function="SUM", base_values=None, n_targets=1, post_transform="NONE", **attrs
):
    out, ntrees = _legacy_tree(x, attrs, n_targets, "target_ids", "target_weights", "target")
    if aggregate_function == "AVERAGE":
        out = out / ntrees
    if base_values is not None:
        out = out + np.asarray(base_values)
    return _post(out, post_transform).astype(np.float32)


@kernel(ML, "TreeEnsembleClassifier", 1)
def tree_ensemble_classifier(
    x, *, base_values=None, classlabels_int64s=None, classlabels_strings=None, post_transform="NONE", **attrs
):
    labels = classlabels_int64s if classlabels_int64s is not None else classlabels_strings
    nc = len(labels)
    out, _ = _legacy_tree(x, attrs, nc, "class_ids", "class_weights", "class")
    if base_values is not None:
        out = out + np.asarray(base_values)
    if nc == 2 and len(set(attrs["class_ids"])) == 1:
        out[:, 0] = -out[:, 1] if post_transform != "NONE" else 1 - out[:, 1]
    scores = _post(out, post_transform)
    idx = np.argmax(scores, axis=1)
    return _labels(labels, idx, classlabels_int64s is not None), scores.astype(np.float32)


@kernel(ML, "CastMap", 1)
def cast_map(x, *, cast_to="TO_FLOAT", map_form="DENSE", max_map=1):
    keys = sorted(x)
    dt = {"TO_FLOAT": np.float32, "TO_INT64": np.int64, "TO_STRING": object}[cast_to]
    if map_form == "DENSE":
        vals = [x[k] for k in keys]
    else:
        vals = [x.get(i, 0) for i in range(max_map)]
    if dt is object:
        out = np.empty(len(vals), dtype=object)
        out[:] = [str(v) for v in vals]
        return out.reshape(1, -1)
    return np.asarray(vals, dtype=dt).reshape(1, -1)


@kernel(ML, "CategoryMapper", 1)
def category_mapper(x, *, cats_int64s=None, cats_strings=None, default_int64=-1, default_string="_Unused"):
    ints = list(cats_int64s or [])
    strs = list(cats_strings or [])
    if x.dtype == object:
        table = dict(zip(strs, ints, strict=False))
        return np.array([table.get(str(v), default_int64) for v in x.reshape(-1)], dtype=np.int64).reshape(x.shape)
    table2 = dict(zip(ints, strs, strict=False))
    out = np.empty(x.size, dtype=object)
    out[:] = [table2.get(int(v), default_string) for v in x.reshape(-1)]
    return out.reshape(x.shape)


@kernel(ML, "DictVectorizer", 1)
def dict_vectorizer(x, *, int64_vocabulary=None, string_vocabulary=None):
    vocab = list(int64_vocabulary) if int64_vocabulary else list(string_vocabulary or [])
    rows = x if isinstance(x, list) else [x]
    pos = {k: i for i, k in enumerate(vocab)}
    sample = next((v for r in rows for v in r.values()), 0.0)
    out = np.zeros(
        (len(rows), len(vocab)), dtype=np.asarray(sample).dtype if not isinstance(sample, float) else np.float32
    )
    for i, r in enumerate(rows):
        for k, v in r.items():
            j = pos.get(k)
            if j is not None:
                out[i, j] = v
    return out


@kernel(ML, "OneHotEncoder", 1)
def one_hot_encoder(x, *, cats_int64s=None, cats_strings=None, zeros=1):
    cats = list(cats_int64s) if cats_int64s else list(cats_strings or [])
    flat = [str(v) if x.dtype == object else int(v) for v in x.reshape(-1)]
    pos = {c: i for i, c in enumerate(cats)}
    idx = np.array([pos.get(v, -1) for v in flat], dtype=np.int64)
    if not zeros and np.any(idx < 0):
        raise KernelError("a value is not among the categories", input_index=0)
    out = (idx[:, None] == np.arange(len(cats))[None, :]).astype(np.float32)
    return out.reshape(x.shape + (len(cats),))


def _svm_kernel(x, sv, kernel_type, params):
    gamma, coef0, degree = (list(params) + [0.0, 0.0, 0.0])[:3] if params else (0.0, 0.0, 0.0)
    if kernel_type == "LINEAR":
        return x @ sv.T
    if kernel_type == "POLY":
        return (gamma * (x @ sv.T) + coef0) ** degree
    if kernel_type == "RBF":
        d = (x * x).sum(1)[:, None] + (sv * sv).sum(1)[None, :] - 2 * x @ sv.T
        return np.exp(-gamma * d)
    if kernel_type == "SIGMOID":
        return np.tanh(gamma * (x @ sv.T) + coef0)
    raise KernelError(f"unknown kernel_type {kernel_type!r}")


@kernel(ML, "SVMRegressor", 1)
def svm_regressor(
    x,
    *,
    coefficients=None,
    kernel_params=None,
    kernel_type="LINEAR",
    n_supports=0,
    one_class=0,
    post_transform="NONE",
    rho=None,
    support_vectors=None,
):
    xf = x.astype(np.float64).reshape(x.shape[0], -1)
    coef = np.asarray(coefficients, dtype=np.float64)
    if n_supports:
        sv = np.asarray(support_vectors, dtype=np.float64).reshape(n_supports, -1)
        k = _svm_kernel(xf, sv, kernel_type, kernel_params)
        y = k @ coef[:n_supports]
    else:
        y = xf @ coef
    y = y + (rho[0] if rho else 0.0)
    if one_class:
        y = np.where(y > 0, 1.0, -1.0)
    return _post(y.reshape(-1, 1), post_transform).astype(np.float32)


def _pairwise_coupling(nc: int, pairs: np.ndarray) -> np.ndarray:
    """Class probabilities from the one-vs-one ones (``pairs``: P(i beats j) for i < j in
    order), by libsvm's ``multiclass_probability`` (Wu, Lin and Weng 2004), as onnxruntime does."""
    r = np.zeros((nc, nc))
    iu = np.triu_indices(nc, 1)
    r[iu] = pairs
    r[(iu[1], iu[0])] = 1 - pairs
    q = -r.T * r  # Q[t, j] = -r[j, t] r[t, j] off the diagonal
    np.fill_diagonal(q, (r * r).sum(axis=0) - np.diag(r) ** 2)
    p = np.full(nc, 1.0 / nc)
    eps = 0.005 / nc
    for _ in range(max(100, nc)):
        qp = q @ p
        pqp = p @ qp
        if np.max(np.abs(qp - pqp)) < eps:
            break
        for t in range(nc):
            diff = (pqp - qp[t]) / q[t, t]
            p[t] += diff
            pqp = (pqp + diff * (diff * q[t, t] + 2 * qp[t])) / (1 + diff) ** 2
            p /= 1 + diff
            qp = (qp + diff * q[t]) / (1 + diff)
    return p


@kernel(ML, "SVMClassifier", 1)
def svm_classifier(
    x,
    *,
    classlabels_ints=None,
    classlabels_strings=None,
    coefficients=None,
    kernel_params=None,
    kernel_type="LINEAR",
    post_transform="NONE",
    prob_a=None,
    prob_b=None,
    rho=None,
    support_vectors=None,
    vectors_per_class=None,
):
    labels = classlabels_ints if classlabels_ints is not None else classlabels_strings
    nc = len(labels)
    xf = x.astype(np.float64).reshape(x.shape[0], -1)
    coef = np.asarray(coefficients, dtype=np.float64)
    rho_v = np.asarray(rho if rho is not None else [0.0], dtype=np.float64)
    if vectors_per_class:
        vpc = list(vectors_per_class)
        sv = np.asarray(support_vectors, dtype=np.float64).reshape(sum(vpc), -1)
        k = _svm_kernel(xf, sv, kernel_type, kernel_params)  # n, nsv
        starts = np.concatenate([[0], np.cumsum(vpc)])
        coef = coef.reshape(nc - 1, -1)
        votes = np.zeros((xf.shape[0], nc))
        scores = []
        p = 0
        for i in range(nc):  # one-vs-one pairs of classes
            for j in range(i + 1, nc):
                si, sj = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
                s = k[:, si] @ coef[j - 1, si] + k[:, sj] @ coef[i, sj] + rho_v[p]
                scores.append(s)
                votes[:, i] += s > 0
                votes[:, j] += s <= 0
                p += 1
        sc = np.stack(scores, axis=1)
        idx = np.argmax(votes, axis=1)
        if prob_a:  # Platt scaling of each pair, then libsvm's pairwise coupling: one probability per class
            pairs = 1 / (1 + np.exp(sc * np.asarray(prob_a, np.float64) + np.asarray(prob_b or [0.0], np.float64)))
            probabilities = np.stack([_pairwise_coupling(nc, row) for row in np.clip(pairs, 1e-7, 1 - 1e-7)])
            return _labels(labels, idx, classlabels_ints is not None), _post(probabilities, post_transform).astype(
                np.float32
            )
        if nc == 2:
            sc = np.concatenate([-sc, sc], axis=1) if post_transform == "NONE" else sc
        return _labels(labels, idx, classlabels_ints is not None), _post(sc, post_transform).astype(np.float32)
    lin = xf @ coef.reshape(-1, xf.shape[1]).T + rho_v
    if lin.shape[1] == 1:
        idx = (lin[:, 0] > 0).astype(np.int64)
        sc = np.concatenate([-lin, lin], axis=1)
    else:
        idx = np.argmax(lin, axis=1)
        sc = lin
    return _labels(labels, idx, classlabels_ints is not None), _post(sc, post_transform).astype(np.float32)
