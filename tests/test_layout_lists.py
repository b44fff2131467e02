"""Lists laid out in one pass (``layout.Bracketed``, ``Known``, ``Deferred``, runs) equal the general renderer.

A run (texts and lists whose one-line texts are known: a statement the print fast path writes)
is laid out by ``render`` in one pass, and a list of plain texts by the general renderer in one
step; both must write what the general renderer writes for the same groups spelled out
(``Group`` of the list's contents, a ``Known``'s or ``Deferred``'s document), at every width and
indentation. So does a list the general renderer meets whose items' one-line texts are known (a
graph head's inputs, outputs and initializers): it is laid out in one step.
"""

from __future__ import annotations

import random

import pytest

from onnxtext.syntax import layout
from onnxtext.syntax.layout import (
    HARDLINE,
    LINE,
    SOFTLINE,
    Bracketed,
    Deferred,
    Doc,
    Group,
    IfBroken,
    Indent,
    Known,
    LineSuffix,
    render,
)
from onnxtext.syntax.printer import graph_head_doc, statement_doc


def spelled_out(doc: Doc, made: dict[int, Doc] | None = None) -> Doc:
    """``doc`` with every list a plain ``Group`` of its contents and every ``Known`` or ``Deferred`` its
    document (``made``: each group spelled out once, so that an ``IfBroken`` names the group laid out)."""
    made = {} if made is None else made
    if isinstance(doc, list):
        return [spelled_out(d, made) for d in doc]
    if id(doc) in made:
        return made[id(doc)]
    out: Doc = doc
    if isinstance(doc, Bracketed):
        out = Group(spelled_out(doc.contents, made))  # its items (a text's document where it has one made later)
    elif isinstance(doc, Known):
        out = spelled_out(doc.doc, made)
    elif isinstance(doc, Deferred):
        out = spelled_out(doc.make(), made)
    elif isinstance(doc, Group):
        out = Group(spelled_out(doc.contents, made), tight=doc.tight)
    elif isinstance(doc, Indent):
        out = Indent(spelled_out(doc.contents, made))
    elif isinstance(doc, IfBroken):
        group = spelled_out(doc.group, made)
        assert isinstance(group, Group)
        out = IfBroken(group, spelled_out(doc.broken, made), spelled_out(doc.flat, made))
    made[id(doc)] = out
    return out


def general(doc: Doc, width: int, level: int = 0) -> str:
    return layout._render(spelled_out(doc), width, layout.INDENT, level * len(layout.INDENT))


def _word(rng: random.Random) -> str:
    return rng.choice(["x", "weight", '"a b"', "m.encoder.layer.1.attention.output.LayerNorm.bias", "0.5", "axis = 1"])


def _texts(rng: random.Random) -> list[str]:
    return [_word(rng) for _ in range(rng.randint(1, 5))]


def _attribute(rng: random.Random) -> Doc:
    """An attribute's document: a text, ``name = [...]``, or one that breaks inside groups (a tensor)."""
    kind = rng.randrange(3)
    if kind == 0:
        return _word(rng)
    if kind == 1:
        return ["perm", " = ", Bracketed("[", _texts(rng), "]"), ""]
    dims = Group(["[", Indent([SOFTLINE, layout.join([",", LINE], ["4", "4"])]), SOFTLINE, "]"], tight=True)
    numbers = Group(
        ["{", Indent([SOFTLINE, layout.Packed([_word(rng) for _ in range(rng.randint(1, 30))])]), SOFTLINE, "}"]
    )
    doc: Doc = ["value", " = ", ["float", dims], " ", numbers]
    return Known(render(doc, 1 << 30), doc)


def _statement(rng: random.Random) -> list[Doc]:
    """A statement's document as the print fast path makes it."""
    attrs = Bracketed("<", [_attribute(rng) for _ in range(rng.randint(1, 3))], ">") if rng.random() < 0.6 else None
    props = None
    if rng.random() < 0.5:
        entries: list[Doc] = [["doc_string: ", '"' + "d" * rng.randint(1, 60) + '"']]
        if rng.random() < 0.7:
            entries.append(
                [
                    "metadata_props: ",
                    Bracketed.of_texts(
                        "[", [f'"k{i}": "{"v" * rng.randint(1, 50)}"' for i in range(rng.randint(1, 4))], "]"
                    ),
                ]
            )
        props = Bracketed("@{", entries, "}")
    inputs = _texts(rng)
    return statement_doc(
        rng.choice([None, "", "Identity_102"]),
        [_word(rng) for _ in range(rng.choice([0, 1, 1, 1]))],
        rng.choice(["Relu", "com.microsoft.Gelu", "Op:over"]),
        attrs,
        Bracketed.of_texts("(", inputs, ")") if rng.random() < 0.9 else "()",
        props,
        inputs_first=rng.random() < 0.1,
    )


@pytest.mark.parametrize("seed", range(40))
def test_a_statement_is_laid_out_in_one_pass_as_the_general_renderer_lays_it_out(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        doc = _statement(rng)
        assert layout._lay_out_run(doc, 100, len(layout.INDENT), 0) is not None  # the one-pass way is taken
        for width in (12, 24, 40, 60, 80, 100, 140):
            for level in (0, 1, 3):
                assert render(doc, width, level=level) == general(doc, width, level), (width, level)


@pytest.mark.parametrize("seed", range(20))
def test_a_list_of_plain_texts_is_laid_out_in_one_step_as_its_group(seed: int) -> None:
    """Inside any document (the general renderer's branch), with comments held back before it."""
    rng = random.Random(seed)
    for _ in range(20):
        inner = Bracketed(rng.choice(["(", "<", "["]), _texts(rng), rng.choice([")", ">", "]"]))
        assert inner.texts is not None
        before: list[Doc] = ["head", LineSuffix("  # c")] if rng.random() < 0.3 else ["head "]
        doc: Doc = Indent([*before, Group([inner, LINE, "tail"]), " ", Bracketed("{", _texts(rng), "}")])
        for width in (8, 20, 40, 80):
            assert render(doc, width) == general(doc, width)


def test_what_a_run_cannot_lay_out_goes_to_the_general_renderer() -> None:
    """A group it does not know, a first text with spaces (which the line start drops)."""
    outputs = statement_doc(None, ["a", "b"], "Split", None, Bracketed.of_texts("(", ["x"], ")"), None)
    spaced = ["  x = ", Bracketed.of_texts("(", ["y"], ")")]
    for doc in (outputs, spaced):
        assert layout._lay_out_run(doc, 10, 3, 0) is None
        assert render(doc, 10) == general(doc, 10)
    assert render(spaced, 10) == "x = (y)"


def test_known_breaks_only_inside_its_groups() -> None:
    """A document with a line break outside its groups cannot stand as its one-line text."""
    assert Known("a b", ["a", LINE, "b"]).fits is False
    assert Known("a [b]", ["a ", Group(["[", SOFTLINE, "b", "]"])]).fits is True
    broken = Bracketed("<", [Known("a b", ["a", LINE, "b"])], ">")
    assert broken.flat == "" and render([broken], 4) == general([broken], 4)


def _value(rng: random.Random) -> Deferred:
    """A graph head's item as the print fast path makes it: its one-line text (None: it has none) and
    its document, which breaks only inside its groups (a type's dims, a literal's numbers)."""
    dims = Bracketed("[", [_word(rng) for _ in range(rng.randint(1, 4))], "]")
    doc: Doc = ["float", Group(dims.contents, tight=True), " ", _word(rng)]
    if rng.random() < 0.4:
        numbers = [_word(rng) for _ in range(rng.randint(1, 40))]
        doc += [" = ", Group(["{", Indent([SOFTLINE, layout.Packed(numbers)]), SOFTLINE, "}"])]
    if rng.random() < 0.1:  # no one-line text: a line break in it
        broken: Doc = [*doc, " = ", "{", Indent([HARDLINE, _word(rng)]), HARDLINE, "}"]
        return Deferred(None, lambda: broken)
    return Deferred(render(doc, 1 << 30), lambda: doc)


@pytest.mark.parametrize("seed", range(30))
def test_a_graph_head_is_laid_out_as_the_general_renderer_lays_it_out(seed: int) -> None:
    """Its lists (of plain texts, of texts or items whose documents are made where needed, of entries
    and ``Known`` items) laid out in one step where the general renderer meets them, before ``IfBroken``
    and after a property block, at every width and indentation."""
    rng = random.Random(seed)
    made = 0
    for _ in range(10):

        def values(open_: str, close: str) -> Doc:
            if rng.random() < 0.15:
                return open_ + close
            if rng.random() < 0.2:
                return Bracketed.of_texts(open_, _texts(rng), close)
            values = [_value(rng) for _ in range(rng.randint(1, 6))]
            if rng.random() < 0.5:  # texts whose documents are made by index where they do not fit
                items: list[str | Deferred] = [v.text if v.text is not None else v for v in values]
                return Bracketed.of_items(open_, items, close, lambda k: values[k].make())
            return Bracketed.of_items(open_, values, close)

        props = Bracketed("@{", [["doc_string: ", '"' + "d" * rng.randint(1, 40) + '"']], "}")
        attrs = Bracketed("<", [_attribute(rng) for _ in range(rng.randint(1, 3))], ">")
        inits = values("<", ">")
        doc = graph_head_doc(
            props if rng.random() < 0.3 else None,
            _word(rng),
            values("(", ")"),
            values("(", ")"),
            (inits if not isinstance(inits, str) else None) if rng.random() < 0.7 else None,
        )
        doc = [doc, HARDLINE, attrs]
        for width in (12, 24, 40, 60, 100, 140):
            for level in (0, 1, 2):
                assert render(doc, width, level=level) == general(doc, width, level), (width, level)
        made += 1
    assert made == 10


def test_an_item_without_a_one_line_text_breaks_its_list() -> None:
    """Its document is laid out alone on its lines (a line break follows it); the list has no one-line text."""
    item = Deferred(None, lambda: ["a", HARDLINE, "b"])
    listed = Bracketed.of_items("(", ["x", item], ")")
    assert listed.flat == "" and listed.laid
    assert render(["f ", listed], 100) == general(["f ", listed], 100) == "f (\n   x,\n   a\n   b\n)"
