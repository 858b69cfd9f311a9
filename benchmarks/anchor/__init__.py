"""The side-by-side comparison with the anchor, PyPI ``schemarouter`` 0.17.0.

``shapes`` (the scenarios as plain data) and ``protocol`` (JSON-lines loop, timers) are
standard library only and shared by the two workers: ``ours_side`` runs in our virtual
environment, ``anchor_side`` in the anchor's (``environment``); ``worker`` starts and talks
to them; ``benchmarks/anchor_bench.py`` alternates them and reports.

How the anchor's API was learnt: only from its documentation, never from its source files.
Sources: the wheel's ``schemarouter-0.17.0.dist-info/METADATA`` (README: ``SchemaRouter()``,
``PlanRequest``, ``router.plan``, ``await router.execute(plan)``, ``add_callable``/``add_tool``/
``add_bound_tool``); the project's documentation pages (``docs/`` of JDeun/SchemaRouter, as
published at jdeun.github.io/SchemaRouter): *Provider-aware access fallback*
(``ToolSpec(provider=, access_mode=)``, ``PlanRequest(fallback_scope="cross_provider",
max_fallbacks=3)``, ``InvocationUnavailableError`` as the only fallback trigger,
``mark_access_available``), *Python tools* (``add_bound_tool(tool, invoker)`` with an
endpoint-style invoker ``invoker(endpoint_name, arguments)``), *Batch, streaming, and events*
(``await router.ainvoke(request)``, ``router.plan_executable``, ``execute(plan)`` does not
replan), *Planning and field projection* and *Tool and endpoint contracts* (``ParameterSpec``
as the logical argument keys, ``FieldSpec`` output fields); and ``inspect.signature`` of
``SchemaRouter``, its methods and the models (``EndpointSpec(output_fields=, parameters=,
input_schema=, read_only=)``, ``FieldSpec(name=, aliases=, path=)``,
``ExecutionPlan(calls=, fallback_routes=)``, ``FallbackRoute.alternatives``,
``ToolResult(tool=, data=)``, ``add_tool(tool, replace=)``).

Calls used on the anchor: ``SchemaRouter()``, ``add_tool(spec)``, ``add_tool(spec,
replace=True)``, ``add_bound_tool(spec, invoker)``, ``plan(request)``,
``plan_executable(request)``, ``await ainvoke(request)``, ``await execute(plan)``,
``mark_access_available(tool, endpoint)``.

Differences between the two sides' scenarios, all forced by the APIs:
- the anchor's endpoints also declare ``parameters=[ParameterSpec(name="formula")]``: it takes
  its argument allowlist from them (without it ``formula`` is dropped as undeclared); ours
  reads the same allowlist from ``input_schema``, which both declare;
- the anchor's invokers are endpoint-style ``(endpoint, arguments)``, ours take a ``ToolCall``;
- the anchor's ``ainvoke``/``execute`` return a list of ``ToolResult`` (``.data``), ours one
  ``ToolResult`` (``.records``); both answer ``band_gap`` 0.62 from ``oqmd_api.search``;
- the healthy route answers one lone record on both sides (``invoke_bench`` uses
  ``records_path=["data"]``, which the anchor does not have);
- cold plans: ours re-registers one tool with ``register(spec)``, the anchor with
  ``add_tool(spec, replace=True)``; only the description changes; both untimed.
"""
