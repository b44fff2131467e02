"""The server is its table: every handler a module-level function, each registered by ``build_server``."""

from __future__ import annotations

import inspect

from onnxtext.lsp import requests
from onnxtext.lsp.requests import COMMANDS, FEATURES
from onnxtext.lsp.server import READS, build_server


def test_every_handler_is_a_module_level_function_of_requests() -> None:
    for feature in (*FEATURES, *(requests.Feature(name, None, h) for name, h in COMMANDS)):
        handler = feature.handler
        assert inspect.isfunction(handler) and "<locals>" not in handler.__qualname__, feature.name
        assert handler.__module__ == requests.__name__ and getattr(requests, handler.__name__) is handler, feature.name


def test_each_method_is_in_the_table_once() -> None:
    names = [f.name for f in FEATURES]
    assert len(names) == len(set(names))


def test_build_server_registers_exactly_the_table() -> None:
    server = build_server()
    manager = server.protocol.fm
    registered = {**manager.builtin_features, **manager.features}
    for feature in FEATURES:
        found = registered[feature.name]
        found = getattr(found, "func", found)  # pygls binds the server with partial
        if feature.freshness is not None:  # called over the snapshot its feature declares
            found = getattr(found, READS)
        assert found is feature.handler, feature.name
        if feature.options is not None:
            assert manager.feature_options[feature.name] == feature.options, feature.name
    assert set(manager.features) == {f.name for f in FEATURES}
    for name, handler in COMMANDS:
        found = manager.commands[name]
        assert getattr(found, "func", found) is handler, name


def test_a_handler_takes_a_snapshot_exactly_when_its_feature_declares_a_freshness() -> None:
    """Freshness is declared in the table, not chosen in code: a handler of a document request is
    given its snapshot and asks the host for none itself."""
    for feature in FEATURES:
        parameters = list(inspect.signature(feature.handler).parameters)
        assert (len(parameters) == 3) == (feature.freshness is not None), feature.name
        if feature.freshness is not None:
            assert parameters[2] == "snap", feature.name
    source = inspect.getsource(requests)
    for accessor in (".snapshot(", ".analysed(", ".last(", ".now(", ".settled(", "._parse_now("):
        assert accessor not in source, accessor
