#!/usr/bin/env python3
"""GMEM loads, clears, stores and resolves turnip emitted in one replay's command stream.

    python3 tools/tilers/replay_counts.py EVENTS

EVENTS: what `cffdump --script tools/tilers/events.lua` printed for the stream. Counted per
render pass rendered in GMEM and per attachment (a GMEM offset): loaded, cleared, written out
(a store or a resolve). Passes without draws, wgpu's zero-initialisation of a texture loaded
before anything wrote it, are counted apart (`zero_init`): a clear in place of such a load
makes wgpu drop them. Prints one JSON object.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import read_passes  # noqa: E402


def counts(path):
    out = {"passes": 0, "tiled": 0, "loads": 0, "clears": 0, "writes": 0, "zero_init": 0}
    for p in read_passes(path, a7xx=True):
        if p.draws == 0:
            out["zero_init"] += 1
            continue
        out["passes"] += 1
        if p.mode != "gmem":
            continue
        out["tiled"] += 1
        for kind, key in (("load", "loads"), ("clear", "clears")):
            out[key] += len({g for k, g, _ in p.blits if k == kind})
        out["writes"] += len({(g, a) for k, g, a in p.blits if k in ("out", "out2d")})
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(json.dumps(counts(sys.argv[1])))
