"""The demo: the primary data API hangs; SchemaRouter and LangChain ``with_fallbacks`` side by side.

The demo ships inside the package (``schemarouter-integrations demo`` runs it from an installed
wheel with the ``[cli,langchain]`` extras); this script runs the same code from a checkout:
``python cookbook/demo.py [--width N] [--svg PATH]``, or ``make demo``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations._demo import main

if __name__ == "__main__":
    main()
