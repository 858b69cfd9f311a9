"""Units that say which quantity a field holds: a documented data table of well-known notation.

A field described "Total magnetization in μB" holds a magnetic moment: the Bohr magneton
(μB) is the unit of magnetic moment, so a question for the "magnetic moment" reads that field
(see :mod:`.fieldwords`). The table lists units whose quantity is unambiguous; a unit of
several quantities (eV: energy, band gap, work function...; GPa: modulus, pressure) is left
out. Units are matched as the normalised words of a description (``µB`` and ``μB`` alike).
"""

from __future__ import annotations

UNIT_QUANTITIES: dict[str, tuple[str, ...]] = {
    "μb": ("magnetic", "moment"),  # Bohr magneton
    "debye": ("dipole", "moment"),
    "thz": ("frequency",),
    "hz": ("frequency",),
}
"""Unit (as a normalised description word) -> the words of the quantity it measures."""


def measured(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The quantities the units among a description's *words* measure, in order."""
    return tuple(dict.fromkeys(UNIT_QUANTITIES[w] for w in words if w in UNIT_QUANTITIES))
