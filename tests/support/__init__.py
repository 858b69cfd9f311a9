"""Plain helpers shared by the tests (fixtures live in the ``conftest.py`` files).

``fakes``      FakeClock: deterministic monotonic time and an instant sleep
``seed``       the seed's provider landscape as contracts, FakeInvoker, ``seed_router``
``execution``  a seeded router on fake time, hand-built calls and plans, gated invokers
``health``     a manually stepped monitor sleep, scripted probes, ``health_router``
``http``       trusted invokers over real HTTP for the MP-like loopback API
``langchain``  the tool over the seed, tool-call messages, an agent over the scripted model
``llamaindex`` capturing handlers, scripted function-calling and ReAct LLMs
``fleet``      routers sharing cooldowns through a real redis-server
``questions``  a GitHub-like API (operations ranked by their texts), Si records told apart by identity

The real loopback servers are in ``tests/servers``; the scripted chat models the cookbook
shows are in ``cookbook/scripted_langchain.py`` and ``cookbook/scripted_llamaindex.py``.
"""
