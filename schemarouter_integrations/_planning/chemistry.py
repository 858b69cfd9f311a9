"""Chemical notation as general language: formulas, element names and anion names.

A question names a material by its formula ("SnO2", "Fe"), by an element's name ("iron",
"silicon's") or by a compound's name built from them ("silicon carbide", "oxides"). These
are not words of any document's vocabulary: they name the question's *subject*. The data
below is the periodic table (IUPAC symbols and English names) and the IUPAC names of the
monatomic anions ("-ide": oxide is O, carbide C): a documented data table of scientific
notation, the same for every source.

:func:`chemical_symbols` reads one question word: the element symbols it names (``None``
when it names none). A formula is read in its written case (``"SnO2"``: tin and oxygen;
``"I"`` or ``"US"`` are no formula: a formula of capitals alone needs a digit, and a single
one-letter symbol is a word).
"""

from __future__ import annotations

import re
from functools import lru_cache

_TABLE = (
    "H hydrogen He helium Li lithium Be beryllium B boron C carbon N nitrogen O oxygen F fluorine "
    "Ne neon Na sodium Mg magnesium Al aluminium Si silicon P phosphorus S sulfur Cl chlorine "
    "Ar argon K potassium Ca calcium Sc scandium Ti titanium V vanadium Cr chromium Mn manganese "
    "Fe iron Co cobalt Ni nickel Cu copper Zn zinc Ga gallium Ge germanium As arsenic Se selenium "
    "Br bromine Kr krypton Rb rubidium Sr strontium Y yttrium Zr zirconium Nb niobium "
    "Mo molybdenum Tc technetium Ru ruthenium Rh rhodium Pd palladium Ag silver Cd cadmium "
    "In indium Sn tin Sb antimony Te tellurium I iodine Xe xenon Cs caesium Ba barium "
    "La lanthanum Ce cerium Pr praseodymium Nd neodymium Pm promethium Sm samarium Eu europium "
    "Gd gadolinium Tb terbium Dy dysprosium Ho holmium Er erbium Tm thulium Yb ytterbium "
    "Lu lutetium Hf hafnium Ta tantalum W tungsten Re rhenium Os osmium Ir iridium Pt platinum "
    "Au gold Hg mercury Tl thallium Pb lead Bi bismuth Po polonium At astatine Rn radon "
    "Fr francium Ra radium Ac actinium Th thorium Pa protactinium U uranium Np neptunium "
    "Pu plutonium Am americium Cm curium Bk berkelium Cf californium Es einsteinium Fm fermium "
    "Md mendelevium No nobelium Lr lawrencium Rf rutherfordium Db dubnium Sg seaborgium "
    "Bh bohrium Hs hassium Mt meitnerium Ds darmstadtium Rg roentgenium Cn copernicium "
    "Nh nihonium Fl flerovium Mc moscovium Lv livermorium Ts tennessine Og oganesson"
)
_PAIRS = _TABLE.split()
SYMBOLS: frozenset[str] = frozenset(_PAIRS[0::2])
"""The element symbols of the periodic table."""
ELEMENT_NAMES: dict[str, str] = dict(zip(_PAIRS[1::2], _PAIRS[0::2], strict=True))
"""English element name -> symbol (with the US spellings "aluminum", "sulphur", "cesium")."""
ELEMENT_NAMES |= {"aluminum": "Al", "sulphur": "S", "cesium": "Cs"}
ANION_NAMES: dict[str, str] = {
    "hydride": "H",
    "boride": "B",
    "carbide": "C",
    "nitride": "N",
    "oxide": "O",
    "fluoride": "F",
    "silicide": "Si",
    "phosphide": "P",
    "sulfide": "S",
    "sulphide": "S",
    "chloride": "Cl",
    "arsenide": "As",
    "selenide": "Se",
    "bromide": "Br",
    "telluride": "Te",
    "iodide": "I",
}
"""IUPAC names of monatomic anions ("silicon *carbide*", "binary *oxides*") -> symbol."""

_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*(?:\.\d+)?)+")
_SYMBOL = re.compile(r"([A-Z][a-z]?)(\d*(?:\.\d+)?)")
_POSSESSIVE = re.compile(r"['\u2019]s?$")


@lru_cache(maxsize=4096)
def chemical_symbols(word: str) -> frozenset[str] | None:
    """The element symbols *word* (as written) names: a formula's ("SnO2" -> Sn, O), an
    element's name ("iron", "Silicon's" -> Fe, Si) or an anion's ("oxides" -> O); None for
    any other word."""
    bare = _POSSESSIVE.sub("", word)
    folded = bare.casefold()
    for name in (folded, folded[:-1] if folded.endswith("s") else ""):
        symbol = ELEMENT_NAMES.get(name) or ANION_NAMES.get(name)
        if symbol is not None:
            return frozenset({symbol})
    return formula_symbols(bare)


def formula_symbols(text: str) -> frozenset[str] | None:
    """The symbols of a chemical formula written in its case ("GaAs", "Fe2O3", "Si"); None when
    *text* is no formula (a symbol that is no element, capitals alone without a digit, one
    letter alone)."""
    if not _FORMULA.fullmatch(text):
        return None
    if len(text) == 1 or (text.isupper() and not any(c.isdigit() for c in text)):
        return None  # "I", "US", "CPU": words, not formulas
    symbols = [m.group(1) for m in _SYMBOL.finditer(text)]
    if not all(symbol in SYMBOLS for symbol in symbols):
        return None
    return frozenset(symbols)
