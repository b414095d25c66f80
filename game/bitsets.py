"""Sets as ints: bit ``i`` set when ``i`` is in the set (cells, placements). The one statement
of the operations the solvers run millions of times; compiled with the propagation engine
(see ``game/compiled.py``)."""

from __future__ import annotations

from typing import Iterator


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def union(table: tuple[int, ...], mask: int) -> int:
    """The union of ``table[i]`` over the set bits ``i`` of ``mask``."""
    found = 0
    while mask:                              # highest first: no negation, so fewer long ints made
        i = mask.bit_length() - 1
        found |= table[i]
        mask ^= 1 << i
    return found


def meet(table: tuple[int, ...], mask: int, within: int) -> int:
    """``within`` intersected with ``table[i]`` for every set bit ``i`` of ``mask``."""
    while mask:
        i = mask.bit_length() - 1
        within &= table[i]
        mask ^= 1 << i
    return within


def within(table: tuple[int, ...], mask: int, cells: int) -> int:
    """The set bits ``i`` of ``mask`` whose ``table[i]`` lies within ``cells``."""
    found, left = 0, mask
    while left:
        i = left.bit_length() - 1
        bit = 1 << i
        left ^= bit
        if not table[i] & ~cells:
            found |= bit
    return found


# Cells on a board whose rows lie ``stride`` bits apart: a spare bit ends each row, so a shift
# by one never wraps onto the next row (``game.ships``).

def orthogonal(mask: int, stride: int, board: int) -> int:
    """The cells of ``board`` beside those of ``mask``, across and down."""
    return ((mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)) & board


def diagonal(mask: int, stride: int, board: int) -> int:
    """The cells of ``board`` diagonal to those of ``mask``."""
    up, down = stride + 1, stride - 1
    return ((mask << up) | (mask << down) | (mask >> up) | (mask >> down)) & board


def component(seed: int, within: int, stride: int) -> int:
    """The orthogonally connected part of the cells ``within`` that holds those of ``seed``."""
    grown = seed
    while True:
        wider = grown | orthogonal(grown, stride, within)
        if wider == grown:
            return grown
        grown = wider


def int_of(numbers: list[int]) -> int:
    """The set of ``numbers`` as an int (bit ``n`` set for each ``n``)."""
    if not numbers:
        return 0
    buffer = bytearray(max(numbers) // 8 + 1)
    for n in numbers:
        buffer[n >> 3] |= 1 << (n & 7)
    return int.from_bytes(buffer, "little")


def kept(memo: dict, key, value, limit: int):
    """``value``, kept in ``memo`` under ``key``: a memo that holds ``limit`` entries is
    emptied first, so memory stays bounded however long a search runs."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value
