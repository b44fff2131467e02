"""``onnxtext rules``: every diagnostic code."""

from __future__ import annotations

import argparse

from onnxtext.cli.common import EXIT_OK, _Reporter


def cmd_rules(args: argparse.Namespace, report: _Reporter) -> int:
    """List every diagnostic code: parsing, lowering, the checker's rules, external data, runs."""
    from onnxtext.analysis.check import CODES

    for c in CODES.values():
        print(f"{c.code}  {c.severity.value:<7}  {c.name:<28}  {c.description}")
    return EXIT_OK
