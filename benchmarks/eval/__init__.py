"""``make eval``: the router's reading of real questions over real documents (see ``docs/evaluation.md``)."""
