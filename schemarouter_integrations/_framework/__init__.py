"""The framework core that the LangChain and LlamaIndex faces (and an MCP face) sit on.

Everything here depends only on the core package and pydantic, never on a framework; a
face only translates to its framework's types:

* ``options`` - :class:`ToolOptions`, the application's settings (scope, budget, preferred
  tools, fields) that the model never sees or sets, built from a face's keyword settings by
  :meth:`ToolOptions.from_settings`; :meth:`ToolOptions.request` turns the
  model's ``query`` and arguments into a :class:`PlanRequest`; :func:`model_routes`, the
  routes the planner could pick under those settings.
* ``canonical`` - :func:`canonical_arguments`: every canonical argument those routes
  accept, typed from its JSON Schema, and :func:`shown_arguments`, those the model is shown.
* ``arguments`` - :func:`arguments_model` / :class:`ModelArguments`: ``query`` plus the
  shown arguments as a pydantic model, and how to read its values back.
* ``names`` - :func:`model_facing_names`: the argument names every face shows
  (``_limit`` -> ``limit``), one-to-one with the wire names.
* ``surface`` - :func:`describe_tool`, a few lines telling the model what the router can
  answer; :class:`ToolSurface`, description and arguments rebuilt when the registry or the
  options change; :func:`record_fields`, the fields the routes can return.
* ``messages`` - :func:`result_content`, compact text from a :class:`ToolResult`;
  :func:`model_error_message`, the message a model can act on for routing errors, ``None``
  for errors that must propagate (programming and configuration errors);
  :func:`validation_message`, the account of invalid model arguments.
* ``gathering`` - :func:`gather_content`, the answers of a gather side by side per
  provider (``mode="gather"``).
* ``run`` - :func:`run_for_model`, one model call: validate the arguments, stream the run
  through the face's event hook, map the end to a :class:`ModelOutcome` (records text, or a
  message for the model, or the propagated error).
* ``invocation`` - :class:`ToolInvocation` / :func:`invoking` / :func:`current_invocation`:
  the face's tool name and tool-call id, current while a run streams (for tracing).
* ``summary`` - :func:`route_summary` / :func:`failure_summary`: JSON-able accounts of how a
  call ended, for traces and tool artifacts.
* ``drawing`` - :func:`claim_route_spans` / :func:`route_spans_drawn`: which layer draws
  route spans (``otel.instrument`` or OpenInference's LangChain tracer), so each is drawn once.
* ``events`` - :func:`trace_payload`, an event's JSON payload for traces without the bulky
  result; :func:`event_from_json`, the typed event back from its JSON payload.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .arguments import QUERY_DESCRIPTION as QUERY_DESCRIPTION
    from .arguments import ModelArguments as ModelArguments
    from .arguments import arguments_model as arguments_model
    from .arguments import python_type as python_type
    from .canonical import RESERVED_ARGUMENTS as RESERVED_ARGUMENTS
    from .canonical import CanonicalArgument as CanonicalArgument
    from .canonical import canonical_arguments as canonical_arguments
    from .drawing import claim_route_spans as claim_route_spans
    from .drawing import is_openinference_handler as is_openinference_handler
    from .drawing import route_spans_drawn as route_spans_drawn
    from .events import event_from_json as event_from_json
    from .events import trace_payload as trace_payload
    from .gathering import GathersRuns as GathersRuns
    from .gathering import gather_content as gather_content
    from .invocation import ToolInvocation as ToolInvocation
    from .invocation import current_invocation as current_invocation
    from .invocation import invoking as invoking
    from .messages import MODEL_ERRORS as MODEL_ERRORS
    from .messages import MODEL_FIXABLE_STATUSES as MODEL_FIXABLE_STATUSES
    from .messages import model_error_message as model_error_message
    from .messages import result_content as result_content
    from .messages import validation_message as validation_message
    from .names import FACE_RESERVED_NAMES as FACE_RESERVED_NAMES
    from .names import model_facing_names as model_facing_names
    from .names import shown_name as shown_name
    from .options import HasRegistry as HasRegistry
    from .options import Mode as Mode
    from .options import RegistrySource as RegistrySource
    from .options import ToolOptions as ToolOptions
    from .options import model_routes as model_routes
    from .run import EventHook as EventHook
    from .run import ModelOutcome as ModelOutcome
    from .run import StreamsRuns as StreamsRuns
    from .run import run_for_model as run_for_model
    from .summary import failure_summary as failure_summary
    from .summary import route_summary as route_summary
    from .surface import ToolSurface as ToolSurface
    from .surface import describe_tool as describe_tool
    from .surface import record_fields as record_fields


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".arguments": ("QUERY_DESCRIPTION", "ModelArguments", "arguments_model", "python_type"),
        ".canonical": ("RESERVED_ARGUMENTS", "CanonicalArgument", "canonical_arguments"),
        ".drawing": ("claim_route_spans", "is_openinference_handler", "route_spans_drawn"),
        ".events": ("event_from_json", "trace_payload"),
        ".gathering": ("GathersRuns", "gather_content"),
        ".invocation": ("ToolInvocation", "current_invocation", "invoking"),
        ".messages": (
            "MODEL_ERRORS",
            "MODEL_FIXABLE_STATUSES",
            "model_error_message",
            "result_content",
            "validation_message",
        ),
        ".names": ("FACE_RESERVED_NAMES", "model_facing_names", "shown_name"),
        ".options": ("HasRegistry", "Mode", "RegistrySource", "ToolOptions", "model_routes"),
        ".run": ("EventHook", "ModelOutcome", "StreamsRuns", "run_for_model"),
        ".summary": ("failure_summary", "route_summary"),
        ".surface": ("ToolSurface", "describe_tool", "record_fields"),
    },
)
