"""The games' dice in plain Python, for the plain-Python references (``reference_game.py``).

The same xorshift64* generator (Vigna 2016, seeded through splitmix64) as ``core/rng.py``,
written out without numba so that a reference imports no kernel: its 64-bit state lives in
two int32 slots of the game state, low word first, exactly as the engine keeps it, so a
reference and the engine draw the same dice from the same state. Each game's reference
makes its :class:`Dice` with its own ``RNG`` slot.
"""

from __future__ import annotations

from collections.abc import MutableSequence

MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
XORSHIFT_MULT = 0x2545F4914F6CDD1D


def splitmix64(x: int) -> int:
    """One splitmix64 scramble (Steele, Lea, Flood 2014) of a 64-bit integer."""
    z = (x + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def to_int32(u: int) -> int:
    """The signed 32-bit integer with the bits of ``u`` (how the state stores a word)."""
    u &= MASK32
    return u - (1 << 32) if u >= 1 << 31 else u


class Dice:
    """The generator kept in ``state[slot]`` and ``state[slot + 1]``."""

    def __init__(self, state: MutableSequence, slot: int) -> None:
        self.s = state
        self.slot = slot

    def _load(self) -> int:
        return (int(self.s[self.slot]) & MASK32) | ((int(self.s[self.slot + 1]) & MASK32) << 32)

    def _store(self, x: int) -> None:
        self.s[self.slot], self.s[self.slot + 1] = to_int32(x), to_int32(x >> 32)

    def seed(self, seed: int) -> None:
        x = splitmix64(seed & MASK64)
        self._store(x if x else GOLDEN)

    def next_u64(self) -> int:
        x = self._load()
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self._store(x)
        return (x * XORSHIFT_MULT) & MASK64

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) from the high 32 bits (Lemire's method)."""
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, from the last item down, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
