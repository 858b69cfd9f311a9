"""What the model reads about a router: a short description, and the tool surface that keeps
description and arguments current as the registry and the tool's settings change."""

from __future__ import annotations

from pydantic import BaseModel

from .._contracts import FieldSpec
from .arguments import ModelArguments, arguments_model
from .options import RegistrySource, ToolOptions, model_routes, registry_of

__all__ = ["ToolSurface", "describe_tool", "record_fields"]


def record_fields(router: RegistrySource, *, options: ToolOptions | None = None) -> dict[str, FieldSpec]:
    """The fields the routes of :func:`model_routes` can return, by canonical name.

    Only fields written at the top level under their own name (the default ``result_path``)
    are listed; when routes disagree, the first route by path that declares a JSON Schema
    or a description gives it.
    """
    out: dict[str, FieldSpec] = {}
    for route in model_routes(router, options=options):
        for spec in route.endpoint.fields:
            if list(spec.result_location) != [spec.name]:
                continue
            known = out.get(spec.name)
            if known is None or (known.json_schema is None and spec.json_schema is not None):
                out[spec.name] = spec
    return out


def describe_tool(
    router: RegistrySource,
    *,
    options: ToolOptions | None = None,
    max_fields: int = 24,
    max_aliases: int = 3,
    intro: str | None = None,
) -> str:
    """A few lines for the model: what the router can answer, from which providers, how to ask.

    Only the routes the planner could pick under *options* count (see :func:`model_routes`).
    """
    routes = model_routes(router, options=options)
    fields: dict[str, list[str]] = {}
    for route in routes:
        for spec in route.endpoint.fields:
            aliases = fields.setdefault(spec.name, [])
            for alias in spec.aliases:
                if alias not in aliases and alias != spec.name:
                    aliases.append(alias)
    providers = sorted({r.tool.explicit_provider or r.tool.name for r in routes})
    lines = [
        intro
        or "Looks up records from registered data sources and returns them with the source that answered."
    ]
    if fields:
        shown = []
        for name in sorted(fields)[:max_fields]:
            aliases = fields[name][:max_aliases]
            shown.append(f"{name} (aka {', '.join(aliases)})" if aliases else name)
        more = len(fields) - max_fields
        lines.append(
            "Fields it can answer: " + "; ".join(shown) + (f"; and {more} more." if more > 0 else ".")
        )
    else:
        lines.append("No data source is registered yet.")
    if providers:
        lines.append("Providers: " + ", ".join(providers) + ".")
    lines.append(
        "Put the question in `query`, naming the property you need; add optional arguments "
        "(such as a formula) only to narrow the search."
    )
    return "\n".join(lines)


class ToolSurface:
    """What the model sees of a router - description and arguments - per registry version
    and tool settings.

    Both cover exactly the routes the planner could pick under *options* (the tool's own
    settings; see :func:`model_routes`). ``refresh()`` rebuilds them when
    ``registry.version`` or the options changed and returns True then. A fixed
    *description* given by the application is kept as is.
    """

    def __init__(
        self,
        router: RegistrySource,
        *,
        options: ToolOptions | None = None,
        model_name: str = "SchemaRouterArguments",
        description: str | None = None,
        selection: bool = False,
    ) -> None:
        self._registry = registry_of(router)
        self._selection = selection
        self._model_name = model_name
        self._fixed_description = description
        self.options = options or ToolOptions()
        self._version: int | None = None
        self.description = ""
        self.arguments = ModelArguments(model=BaseModel, arguments=())
        self.refresh()

    @property
    def version(self) -> int | None:
        """The registry version the surface was built from."""
        return self._version

    def refresh(self, options: ToolOptions | None = None) -> bool:
        """Rebuild for the current registry and *options* (default: the current options)."""
        version = self._registry.version
        if options is not None and options is not self.options and options != self.options:
            self.options, self._version = options, None
        if version == self._version:
            return False
        selectable = sorted(record_fields(self._registry, options=self.options)) if self._selection else None
        self.arguments = arguments_model(
            self._registry, options=self.options, model_name=self._model_name, selectable_fields=selectable
        )
        self.description = self._fixed_description or describe_tool(self._registry, options=self.options)
        hidden = self.arguments.hidden
        if hidden and not self._fixed_description:
            self.description += (
                f"\n{len(hidden)} more optional argument(s) are not listed as keys: pass any of them "
                "in `filters` by name."
            )
        self._version = version
        return True
