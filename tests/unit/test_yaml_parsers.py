"""YAML documents read with rapidyaml (the ``fast`` extra) give libyaml's data and libyaml's errors.

Every test of refused input runs with both parsers (the ``parser`` fixture); the scalar and
fallback corpora compare rapidyaml's answer with libyaml's directly.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from schemarouter_integrations.adapters import _documents, _yaml
from schemarouter_integrations.adapters._documents import DocumentError, parse_document

HAS_RAPIDYAML = _yaml._rapidyaml() is not None
needs_rapidyaml = pytest.mark.skipif(not HAS_RAPIDYAML, reason="rapidyaml (the fast extra) is not installed")


@pytest.fixture(params=["rapidyaml", "libyaml"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Registration parses YAML with this parser (rapidyaml cases skip without the extra)."""
    if request.param == "rapidyaml" and not HAS_RAPIDYAML:
        pytest.skip("rapidyaml (the fast extra) is not installed")
    if request.param == "libyaml":
        monkeypatch.setattr(_yaml, "_rapidyaml", lambda: None)
    return str(request.param)


@pytest.fixture
def without_the_extra(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``import ryml`` fails, as when the fast extra is not installed."""
    monkeypatch.setitem(sys.modules, "ryml", None)
    _yaml._rapidyaml.cache_clear()
    yield
    _yaml._rapidyaml.cache_clear()


def libyaml_answer(body: bytes) -> tuple[str, Any]:
    """What registration makes of *body* with libyaml: ("data", data) or ("error", message)."""
    try:
        return "data", _yaml.with_libyaml(body, max_nodes=_documents.MAX_DOCUMENT_NODES)
    except Exception as exc:  # any failure: the message is compared
        return "error", f"{type(exc).__name__}: {exc}"


def answer(body: bytes) -> tuple[str, Any]:
    try:
        return "data", _yaml.load_yaml(body, max_nodes=_documents.MAX_DOCUMENT_NODES)
    except Exception as exc:
        return "error", f"{type(exc).__name__}: {exc}"


def same(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    """Equal data in the same key order (or the same error)."""
    return json.dumps(a) == json.dumps(b)


def alias_bomb(levels: int = 9) -> bytes:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines).encode()


# -- refused input: the same typed errors with either parser ------------------------------


def test_an_alias_bomb_is_refused_by_its_node_count(parser: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_documents, "MAX_DOCUMENT_NODES", 10_000)
    with pytest.raises(DocumentError, match="expands to more than 10000 nodes"):
        parse_document(alias_bomb(), where="bomb.yaml")


def test_a_document_with_more_nodes_than_the_limit_is_refused(
    parser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_documents, "MAX_DOCUMENT_NODES", 100)
    body = ("items:\n" + "".join(f"- {i}\n" for i in range(200))).encode()
    with pytest.raises(DocumentError, match="expands to more than 100 nodes"):
        parse_document(body, where="big.yaml")


def test_a_nesting_bomb_is_refused_as_neither_json_nor_yaml(parser: str) -> None:
    with pytest.raises(DocumentError, match=r"deep\.yaml is neither JSON nor YAML"):
        parse_document(b"a: " + b"[" * 50_000, where="deep.yaml")


def test_a_document_nested_past_the_recursion_limit_is_refused(parser: str) -> None:
    body = b"a: " + b"[" * 900 + b"]" * 900
    with pytest.raises(DocumentError, match=r"deep\.yaml is neither JSON nor YAML: maximum recursion depth"):
        parse_document(body, where="deep.yaml")


@needs_rapidyaml
def test_rapidyaml_leaves_deep_nesting_to_libyaml() -> None:
    deep = _yaml.MAX_DEPTH + 1
    assert _yaml.with_rapidyaml(b"a: " + b"[" * deep + b"]" * deep, max_nodes=1_000) is _yaml.UNSURE
    shallow = _yaml.MAX_DEPTH - 1
    assert _yaml.with_rapidyaml(b"[" * shallow + b"]" * shallow, max_nodes=1_000) is not _yaml.UNSURE


def test_a_tag_that_would_build_an_object_is_refused(parser: str) -> None:
    body = b"a: !!python/object/apply:os.system ['echo hi']\n"
    with pytest.raises(DocumentError, match="could not determine a constructor"):
        parse_document(body, where="tag.yaml")


def test_broken_yaml_is_refused_naming_libyamls_reason(parser: str) -> None:
    with pytest.raises(DocumentError, match=r"broken\.yaml is neither JSON nor YAML: while scanning"):
        parse_document(b"a: 'never closed\nb: 1\n", where="broken.yaml")


def test_a_control_character_is_refused(parser: str) -> None:
    with pytest.raises(DocumentError, match="control characters are not allowed"):
        parse_document(b"a: x\x01y\n", where="ctl.yaml")


def test_a_stream_of_two_documents_is_refused(parser: str) -> None:
    with pytest.raises(DocumentError, match="expected a single document"):
        parse_document(b"a: 1\n---\nb: 2\n", where="two.yaml")


@needs_rapidyaml
def test_rapidyaml_leaves_an_alias_bomb_to_libyaml_without_expanding_it() -> None:
    assert _yaml.with_rapidyaml(alias_bomb(levels=30), max_nodes=10_000) is _yaml.UNSURE


# -- YAML 1.1 scalars as the default loader reads them -------------------------------------

SCALARS = {
    "booleans": "a: [yes, Yes, YES, no, On, off, true, False, y, n, yEs]",
    "nulls": "a: [~, null, Null, NULL, nULL, '', ]\nb:",
    "octal and other integers": "a: [017, 0o17, 0x1F, 0b101, 1_000, -0, +12, 190:20:30]",
    "floats": "a: [1e5, 1.0e5, 1.0e+5, 1., .5, 1.50, .inf, -.Inf, .nan, 190:20:30.15]",
    "timestamps": "a: [2001-12-14, 2001-12-14t21:59:43.10-05:00, 2001-12-14 21:59:43.10 -5, 2002-1-1 1:2:3]",
    "quoted look-alikes stay text": "a: ['yes', \"017\", '1e5', '~', '2001-12-14']",
    "block scalars stay text": "a: |\n  yes\nb: >-\n  017\n",
    "keys that resolve": "200: a\n1.50: b\nyes: c\n~: d\n2001-12-14: e\n0x1F: f\n'404': g\n",
    "later duplicate keys win": "a: 1\nb: 2\na: 3\n1: x\n'1': y\n",
    "escapes": "a: \"\\0\\a\\t\\n\\e\\ \\\"\\/\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F600\"\nb: 'it''s'",
    "folding and chomping": "a: >+\n  x\n\n  y\n\n\nb: |2-\n    x\n   y\nc: one\n  two\n\n  three\n",
    "flow collections": "a: [1, {b: c}, [d, e], 'f']\ng: {h: [], i: {}}\n",
    "a scalar document": "--- text",
    "a sequence document": "- a\n- yes\n- - b\n",
    "line endings CRLF": "a: 1\r\nb: |\r\n  x\r\n  y\r\n",
    "a byte order mark": "\ufeffa: 1\n",
}


@needs_rapidyaml
@pytest.mark.parametrize("text", SCALARS.values(), ids=SCALARS.keys())
def test_rapidyaml_reads_scalars_as_libyaml_does(text: str) -> None:
    body = text.encode()
    data = _yaml.with_rapidyaml(body, max_nodes=1_000)
    assert data is not _yaml.UNSURE
    assert same(("data", data), libyaml_answer(body))


# -- what rapidyaml leaves to libyaml ---------------------------------------------------------

LEFT_TO_LIBYAML = {
    "merge keys": "base: &b {p: 1}\nc:\n  <<: *b\n  q: 2\n",
    "an inline merge key": "c:\n  <<: {p: 1}\n  q: 2\n",
    "an anchor": "a: &x 1\nb: *x\n",
    "a standard tag": "a: !!str 123\n",
    "the value key": "a: =\n",
    "an empty document": "",
    "a comment alone": "# nothing\n",
    "a tab after a colon": "a:\t1\n",
    "a tab as indentation": "a:\n\tb: 1\n",
    "NEL, a line break to libyaml": "a: x\u0085y\n",
    "a line separator": "a: x\u2028y\n",
    "a control character in a comment": "a: 1 # \x01\n",
    "bytes that are not UTF-8": "a: 1 # \udcff\n",
    "a reserved indicator": "a: @x\n",
    "a closing bracket starting a plain scalar": "a: ]x\n",
    "a multi-line key in a flow mapping": "{a\n b: 1}\n",
    "an entry without a key": ": v\n",
    "a key over 1024 characters": "a" * 1100 + ": 1\n",
    "a long key written with escapes": '"' + "\\x41" * 300 + '": 1\n',
    "a directive": "%YAML 1.1\n---\na: 1\n",
    "a line break alone (CR)": "a: 1\rb: 2\r",
}


@needs_rapidyaml
@pytest.mark.parametrize("text", LEFT_TO_LIBYAML.values(), ids=LEFT_TO_LIBYAML.keys())
def test_what_rapidyaml_cannot_be_sure_of_is_read_by_libyaml(text: str) -> None:
    body = text.encode("utf-8", "surrogateescape")
    assert _yaml.with_rapidyaml(body, max_nodes=1_000) is _yaml.UNSURE
    assert same(answer(body), libyaml_answer(body))


@needs_rapidyaml
def test_a_long_key_written_as_is_is_read_by_rapidyaml() -> None:
    body = ("'/" + "segment/" * 40 + "': 1\n").encode()
    data = _yaml.with_rapidyaml(body, max_nodes=1_000)
    assert data is not _yaml.UNSURE
    assert same(("data", data), libyaml_answer(body))


# -- which parser ----------------------------------------------------------------------------


@needs_rapidyaml
def test_with_the_extra_rapidyaml_is_the_parser_in_use() -> None:
    assert _yaml.parser_in_use() == "rapidyaml"


def test_without_the_extra_libyaml_parses(without_the_extra: None) -> None:
    assert _yaml.parser_in_use() in {"libyaml", "pyyaml"}
    assert _yaml.with_rapidyaml(b"a: 1\n", max_nodes=10) is _yaml.UNSURE
    assert parse_document(b"a: yes\nb: [017]\n", where="doc.yaml") == {"a": True, "b": [15]}
