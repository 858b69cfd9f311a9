"""Runnable, offline examples (run each as a script: ``.venv/bin/python cookbook/<name>.py``).

``scripted_langchain`` and ``scripted_llamaindex`` hold the scripted stand-ins for real models
that the agent examples use; the tests import the same ones (``cookbook.scripted_...``).
"""
