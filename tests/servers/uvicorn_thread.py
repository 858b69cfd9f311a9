"""Moved to ``cookbook/services/uvicorn_thread.py`` (shared by the demo, the cookbook and the tests).

This name stays an alias of that module, so ``tests.servers.uvicorn_thread`` and
``cookbook.services.uvicorn_thread`` are one module object (monkeypatching either patches both).
"""

import sys

from cookbook.services import uvicorn_thread as _module

sys.modules[__name__] = _module
