"""Field words: the words of every field's name and description, indexed at registration.

Exact surfaces (semantic ids, names, aliases; :mod:`.routes`) name a field only when the
question writes the whole surface ("energy above hull"). Real APIs name fields in
snake_case that a question rarely spells out: ``is_stable`` ("Is Fe2O3 stable?"),
``formation_energy_per_atom`` ("formation energy of NaCl"), ``nsites`` ("number of sites").
Field-word matching reads such questions; need extraction tries it only for the question's
words that no exact surface covered (see ``_planning/need.py``).

**Words of a field.** Its *name words* are the content words of its name (camelCase and
snake_case split, stop words and numbers left out: ``formation_energy_per_atom`` ->
formation, energy, atom; ``is_stable`` -> stable); its *description words* those of its
description. Fields with the same words share one :class:`FieldProfile`.

**When a question word meets a field word.** *Strongly* when they share a form (the word,
its singular candidates and their derived bases, :func:`.words.meeting_forms`: "stability"
meets ``stable``, "sites" meets ``site``); *weakly* (name words only) when one begins or ends
with the other and the shorter has 3 letters or more ("sites" in ``nsites``, ``num`` in
"number"). A description word meets only strongly.

**The rule.** A *window* is a run of adjacent content words of the question (stop words in
between are skipped; a scope word ends it) that each meet a name or description word of the
field; a window may take in a stretch an exact surface matched only when each of its words
meets a name word of the field (then that exact match gives way: "formation energy" is
``formation_energy_per_atom``, not ``energy``). The words of the field's name that the window
lacks count against it, and, weaker, those of its description. The field is a reading of the
window when it meets more of its name words than it lacks and a word of the window that no
exact surface covered meets one of them (a word met only in a description does not turn
"pull requests" into another field), or when the window holds every word of its description
(``n``, described "Refractive index", for "refractive index"), or when it meets every word
of a symbol-named field (``e_ionic``, its letter aside) and its other words are description
words ("ionic dielectric constant"), or when it holds the quantity a unit of the description
measures ("magnetic moment" for a field "in μB", :mod:`.units`). Readings are ranked by: more
window words, fewer name words lacked, more name words met strongly, fewer description words
lacked, semantic id, position in the question; the best readings whose windows do not
overlap are taken, best first. So "number of sites" is ``nsites``
("sites" in its name, "number" in its description "Total number of sites in the structure",
no name word lacked) ahead of ``num_magnetic_sites`` (lacks its distinctive "magnetic").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .._contracts import FieldSpec
from .._text import is_unspaced_char
from .units import measured
from .words import CONTRACT_MIN_LETTERS, meeting_forms, text_words

AFFIX_MIN_LETTERS = 3
"""The shorter word of a weak (begins / ends with) meeting has at least this many letters."""
DESCRIPTION_WORDS = 40
"""Description words kept per field (the first ones): enough for any short description."""

ProfileKey = tuple[tuple[str, ...], tuple[str, ...]]
Rank = tuple[int, int, int, int, str]


@lru_cache(maxsize=65536)
def profile_key(name: str, description: str) -> ProfileKey:
    """The distinct name words and description words of a field, in order."""
    names = tuple(dict.fromkeys(text_words(name)))
    described = tuple(dict.fromkeys(text_words(description)))[:DESCRIPTION_WORDS] if description else ()
    quantities = [w for quantity in measured(described) for w in quantity if w not in described]
    return names, (*described, *dict.fromkeys(quantities))  # "in μB": magnetic, moment


@lru_cache(maxsize=65536)
def field_vocabulary(name: str, description: str) -> frozenset[str]:
    """Every form of the words of a field's name and description (see :func:`profile_key`):
    the field's own vocabulary, against which planning reads a term one route at a time."""
    names, described = profile_key(name, description)
    return frozenset(
        form for word in (*names, *described) for form in meeting_forms(word, CONTRACT_MIN_LETTERS)
    )


def _keys(spec: FieldSpec) -> list[ProfileKey]:
    """The profiles of a field: its name's words, and each alias's words in their place (an
    alias of two words or more names the field as its name does: "Space Group Symbol" for
    ``symbol``), each with the field's description words. A one-word alias, and an alias in
    an unspaced script, is read as an exact surface only."""
    keys = [profile_key(spec.name, spec.description)]
    for alias in spec.aliases:
        if not any(is_unspaced_char(c) for c in alias):
            key = profile_key(alias, spec.description)
            if len(key[0]) > 1 and key not in keys:
                keys.append(key)
    return keys


def _affixes(word: str, longest: int | None = None) -> Iterator[str]:
    """The proper prefixes and suffixes of *word* of :data:`AFFIX_MIN_LETTERS`+ letters (and
    at most *longest*: no field word is longer, so a longer affix can meet none)."""
    top = len(word) if longest is None else min(len(word), longest + 1)
    for size in range(AFFIX_MIN_LETTERS, top):
        yield word[:size]
        yield word[-size:]


def _weakly(word: str, other: str, names: Sequence[str] = ()) -> bool:
    """One word begins with the other, the shorter of 3+ letters, or ends with it, the
    shorter of 4+ letters or the rest being another of *names* ("bandgap" ends with "gap"
    after "band"): otherwise a word's last three letters are most often a suffix
    ("function" ends with "ion"), not the word it meets."""
    short, long = (word, other) if len(word) <= len(other) else (other, word)
    if len(short) < AFFIX_MIN_LETTERS or len(short) == len(long):
        return False
    if long.startswith(short):
        return True
    return long.endswith(short) and (len(short) > AFFIX_MIN_LETTERS or long[: -len(short)] in names)


@dataclass(slots=True)
class FieldProfile:
    """The words of the fields that share them, and those fields' semantic ids."""

    names: tuple[str, ...]
    name_forms: tuple[frozenset[str], ...]
    described: tuple[str, ...]
    described_forms: tuple[frozenset[str], ...]
    all_described: frozenset[str]
    quantities: tuple[tuple[frozenset[str], ...], ...] = ()
    """Per quantity its description's units measure (:mod:`.units`), the forms of its words."""
    sids: Counter[str] = field(default_factory=Counter)
    count: int = 0

    @classmethod
    def of(cls, key: ProfileKey) -> FieldProfile:
        names, described = key
        described_forms = tuple(meeting_forms(w, CONTRACT_MIN_LETTERS) for w in described)
        return cls(
            names=names,
            name_forms=tuple(meeting_forms(w, CONTRACT_MIN_LETTERS) for w in names),
            described=described,
            described_forms=described_forms,
            all_described=frozenset().union(*described_forms),
            quantities=tuple(tuple(meeting_forms(w) for w in q) for q in measured(described)),
        )

    def first_sid(self) -> str:
        return min(self.sids)

    def name_meeting(self, word: str) -> list[int]:
        """Per name word: 2 when *word* meets it strongly, 1 weakly, 0 not."""
        forms = meeting_forms(word)
        out: list[int] = []
        for name, name_forms in zip(self.names, self.name_forms, strict=True):
            if forms & name_forms:
                out.append(2)
            elif any(_weakly(form, name, self.names) for form in forms):
                out.append(1)
            else:
                out.append(0)
        return out

    def meets(self, word: str) -> bool:
        """*word* meets a name word or a description word of the profile."""
        return bool(meeting_forms(word) & self.all_described) or any(self.name_meeting(word))

    def meets_name(self, word: str) -> bool:
        return any(self.name_meeting(word))

    def rank(self, window: Sequence[str], fresh: Sequence[str]) -> Rank | None:
        """The rank of the profile's reading of *window* (lower first), or None when the
        profile is no reading of it (see the module docstring). *fresh* are the window's
        words that no exact surface covered."""
        met = [0] * len(self.names)
        for word in window:
            for i, kind in enumerate(self.name_meeting(word)):
                met[i] = max(met[i], kind)
        strong = met.count(2)
        lacked = met.count(0)
        forms = frozenset().union(*(meeting_forms(w) for w in window))
        described_lacked = sum(1 for f in self.described_forms if not f & forms)
        if (
            not self._by_name(lacked, fresh)
            and (not self.described or described_lacked)
            and not self._named_and_described(met, fresh)
            and not any(all(f & forms for f in quantity) for quantity in self.quantities)
        ):
            return None
        return (-len(window), lacked, -strong, described_lacked, self.first_sid())

    def names_window(self, window: Sequence[str], fresh: Sequence[str]) -> bool:
        """True when the profile reads *window* through its name words (more of them met
        than lacked, one met by a *fresh* word), not only through its description: such a
        reading names the field, and weighs more in a partial answer."""
        met = [0] * len(self.names)
        for word in window:
            for i, kind in enumerate(self.name_meeting(word)):
                met[i] = max(met[i], kind)
        return self._by_name(met.count(0), fresh)

    def _by_name(self, lacked: int, fresh: Sequence[str]) -> bool:
        return len(self.names) - lacked > lacked and any(self.meets_name(w) for w in fresh)

    def _named_and_described(self, met: list[int], fresh: Sequence[str]) -> bool:
        """The name is a one-letter symbol and words (``e_ionic``), the window meets every
        word and each of its *fresh* words is a word of the description: the question names
        the field as its description says ("ionic dielectric constant" for ``e_ionic``,
        described "Ionic contribution to dielectric constant"), and no question writes the
        symbol's letter. (A name the window meets whole was named by the exact surface.)"""
        whole = [kind for name, kind in zip(self.names, met, strict=True) if len(name) > 1]
        return (
            0 < len(whole) < len(self.names)
            and all(whole)
            and bool(fresh)
            and all(meeting_forms(w) & self.all_described for w in fresh)
        )


class FieldWordIndex:
    """Profiles of every registered field and postings from word forms to them, kept current
    field by field as routes come and go (refcounted, like the surface index)."""

    def __init__(self) -> None:
        self.profiles: dict[ProfileKey, FieldProfile] = {}
        self._by_form: dict[str, set[ProfileKey]] = {}
        self._by_affix: dict[str, set[ProfileKey]] = {}
        self._longest = 0
        """The longest form ever posted: an upper bound on what a question word's affix can meet."""
        self._names: Counter[str] = Counter()
        """Every form of the name words of the profiles (refcounted): the documents' vocabulary."""

    def __len__(self) -> int:
        return len(self.profiles)

    def add(self, fields: Iterable[FieldSpec]) -> None:
        for spec in fields:
            for key in _keys(spec):
                profile = self.profiles.get(key)
                if profile is None:
                    profile = self.profiles[key] = FieldProfile.of(key)
                    self._post(key, profile, add=True)
                profile.count += 1
                profile.sids[spec.sid] += 1

    def remove(self, fields: Iterable[FieldSpec]) -> None:
        for spec in fields:
            for key in _keys(spec):
                self._release(key, spec.sid)

    def _release(self, key: ProfileKey, sid: str) -> None:
        """One field fewer behind the profile *key* (dropped with its last field)."""
        profile = self.profiles.get(key)
        if profile is None:
            return
        profile.count -= 1
        profile.sids[sid] -= 1
        if profile.sids[sid] <= 0:
            del profile.sids[sid]
        if profile.count <= 0:
            del self.profiles[key]
            self._post(key, profile, add=False)

    def is_name_word(self, word: str) -> bool:
        """True when a form of *word* is a word of some registered field's name or alias."""
        return any(form in self._names for form in meeting_forms(word))

    def mentions(self, word: str) -> bool:
        """True when *word* meets (strongly) a word of some registered field's name, alias or
        description."""
        return any(form in self._by_form for form in meeting_forms(word))

    def _post(self, key: ProfileKey, profile: FieldProfile, *, add: bool) -> None:
        names = [form for forms in profile.name_forms for form in forms]
        if add:
            self._names.update(names)
        else:
            self._names.subtract(names)
            for form in names:
                if self._names[form] <= 0:
                    del self._names[form]
        entries = [(self._by_form, form) for forms in profile.name_forms for form in forms]
        entries.extend((self._by_form, form) for form in profile.all_described)
        entries.extend((self._by_affix, affix) for name in profile.names for affix in _affixes(name))
        for table, entry in entries:
            if add:
                table.setdefault(entry, set()).add(key)
                self._longest = max(self._longest, len(entry))
                continue
            keys = table.get(entry)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del table[entry]

    def candidates(self, word: str) -> list[FieldProfile]:
        """The profiles a question *word* may meet, in a stable order."""
        found: set[ProfileKey] = set()
        for form in meeting_forms(word):
            found.update(self._by_form.get(form, ()))
            if len(form) >= AFFIX_MIN_LETTERS:
                found.update(self._by_affix.get(form, ()))  # field words that begin or end with it
            for affix in _affixes(form, self._longest):  # field words it begins or ends with
                found.update(self._by_form.get(affix, ()))
        return [self.profiles[key] for key in sorted(found)]
