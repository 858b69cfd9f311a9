"""The tool spec's one-walk listener check answers as the two checks it replaces."""

from __future__ import annotations

from schemarouter_integrations.llamaindex._tool_spec import dispatcher, listening, observed, tracing_spans
from tests.support.llamaindex import capturing, recording_spans


def test_observed_is_false_like_the_two_checks_when_nothing_listens() -> None:
    assert observed(dispatcher) is (listening(dispatcher) or tracing_spans(dispatcher)) is False


def test_observed_sees_an_event_handler_like_listening() -> None:
    with capturing():
        assert observed(dispatcher) and listening(dispatcher)


def test_observed_sees_a_span_handler_like_tracing_spans() -> None:
    with recording_spans():
        assert observed(dispatcher) and tracing_spans(dispatcher) and not listening(dispatcher)
