"""Moved to ``cookbook/services/optimade_server.py`` (shared by the demo, the cookbook and the tests).

This name stays an alias of that module, so ``tests.servers.optimade_server`` and
``cookbook.services.optimade_server`` are one module object (monkeypatching either patches both).
"""

import sys

from cookbook.services import optimade_server as _module

sys.modules[__name__] = _module
