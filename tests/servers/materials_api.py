"""Moved to ``cookbook/services/materials_api.py`` (shared by the demo, the cookbook and the tests).

This name stays an alias of that module, so ``tests.servers.materials_api`` and
``cookbook.services.materials_api`` are one module object (monkeypatching either patches both).
"""

import sys

from cookbook.services import materials_api as _module

sys.modules[__name__] = _module
