"""MCP servers as access paths (``SchemaRouter.add_mcp``).

* ``route`` - :func:`build_mcp_route`: one endpoint per selected MCP tool, and
  :class:`McpInvoker`, which calls them over one session;
* ``contract`` - :func:`mcp_contract`: the endpoints of the listed tools and resources;
* ``session`` - :class:`McpSession`: the session kept open between calls (stdio
  subprocess, streamable HTTP or in-process server), re-established after a failure, and
  the adapter's one error map;
* ``probe`` - :func:`mcp_ping_probe`, a health probe that pings the session;
* ``entry`` - :func:`mcp_route_arguments`, the ``add_mcp`` arguments of a landscape entry
  (imports no MCP SDK);
* ``kind`` - how the landscape adds an ``mcp`` entry (its row in the table of kinds).

This package imports nothing itself, so the landscape file can use ``entry`` without the
``mcp`` extra installed.
"""
