"""What the compiled rules of both engines share (numba): their answers as bit strings."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def pack(values, out, at):
    """The nonzero entries of ``values`` as the bits of ``out`` from byte ``at`` on
    (little-endian, as ``int.from_bytes(..., "little")`` reads them)."""
    for i in range(len(values)):
        if values[i]:
            out[at + (i >> 3)] |= np.uint8(1 << (i & 7))
