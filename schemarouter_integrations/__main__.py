"""``python -m schemarouter_integrations``: the same command line as the console script."""

from ._cli import main

main()
