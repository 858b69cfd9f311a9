"""The tools users compare the router's registration with, each run in its own venv (see
:mod:`.environment`); never imported into the package's process."""
