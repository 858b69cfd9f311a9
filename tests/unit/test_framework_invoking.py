"""``invoking``: the face's tool invocation is current inside the block only."""

from __future__ import annotations

import pytest

from schemarouter_integrations._framework import ToolInvocation, current_invocation, invoking

OUTER = ToolInvocation("outer", "call-1", "langchain")
INNER = ToolInvocation("inner", None, "llamaindex")


def test_invoking_makes_the_invocation_current_inside_the_block_only() -> None:
    with invoking(OUTER):
        assert current_invocation() is OUTER
    assert current_invocation() is None


def test_invoking_none_leaves_the_current_invocation_as_it_was() -> None:
    with invoking(OUTER):
        with invoking(None):
            assert current_invocation() is OUTER
        assert current_invocation() is OUTER


def test_nested_invoking_restores_the_outer_invocation() -> None:
    with invoking(OUTER):
        with invoking(INNER):
            assert current_invocation() is INNER
        assert current_invocation() is OUTER


def test_invoking_restores_the_invocation_when_the_block_raises() -> None:
    with pytest.raises(LookupError), invoking(OUTER):
        raise LookupError("boom")
    assert current_invocation() is None
