"""The model-facing argument schema of the LangChain tool and its validation messages."""

from __future__ import annotations

from pydantic import ValidationError

from .._framework import ModelArguments, ToolOptions, arguments_model
from .._registry import Registry
from .._router import SchemaRouter

ARGS_MODEL_NAME = "SchemaRouterArguments"


def build_args_schema(
    router: SchemaRouter | Registry, *, options: ToolOptions | None = None
) -> ModelArguments:
    """``query: str`` plus the optional canonical arguments of the routes the router could pick
    under *options* (default: the read-only endpoints)."""
    return arguments_model(router, options=options, model_name=ARGS_MODEL_NAME)


def validation_message(error: ValidationError | object, *, max_errors: int = 5) -> str:
    """A short, model-readable account of invalid tool arguments (no stack trace, no input echo)."""
    if not isinstance(error, ValidationError):
        return "The tool arguments are invalid. Fix them and call the tool again."
    problems = []
    for item in error.errors(include_url=False, include_input=False)[:max_errors]:
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        problems.append(f"{where}: {item['msg']}")
    return "Invalid tool arguments: " + "; ".join(problems) + ". Fix them and call the tool again."
