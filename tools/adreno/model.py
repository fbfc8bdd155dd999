#!/usr/bin/env python3
"""DESIGN 2.7's Adreno tile model next to what turnip decided, per render group.

    python3 tools/adreno/model.py target/adreno/runs

The model: bins = ceil(W x H x bytes / GMEM), bytes = the sum of texel bytes x samples over the
group's colour and depth attachments, GMEM 512 KiB (a618, no profile of its own), 1 MiB (a630),
1.5 MiB (a660); a one-pass group without MSAA `may_be_direct` (rendered to memory by the driver's
heuristics). Turnip: the bins of the tiled pass (TU_DEBUG=gmem), and tiled or memory when left to
itself (its first-frame rule: at most 5 draws and no MSAA attachment go to memory).
"""

import glob
import json
import math
import os
import sys

GMEM = {"618": 512 * 1024, "630": 1024 * 1024, "660": 1536 * 1024}

BYTES = {
    "R8Unorm": 1, "R8Snorm": 1, "R8Uint": 1, "R8Sint": 1,
    "Rg8Unorm": 2, "Rg8Snorm": 2, "R16Float": 2, "R16Uint": 2, "R16Sint": 2, "R16Unorm": 2,
    "Depth16Unorm": 2,
    "Rgba8Unorm": 4, "Rgba8UnormSrgb": 4, "Bgra8Unorm": 4, "Bgra8UnormSrgb": 4, "Rgba8Snorm": 4,
    "Rgba8Uint": 4, "Rg16Float": 4, "Rg16Uint": 4, "R32Float": 4, "R32Uint": 4, "R32Sint": 4,
    "Rgb10a2Unorm": 4, "Rg11b10Ufloat": 4, "Rg11b10Float": 4, "Depth32Float": 4, "Depth24Plus": 4,
    "Depth24PlusStencil8": 4, "Depth32FloatStencil8": 5,
    "Rgba16Float": 8, "Rgba16Uint": 8, "Rgba16Unorm": 8, "Rg32Float": 8, "Rg32Uint": 8,
    "Rgba32Float": 16, "Rgba32Uint": 16,
}


def group_bytes(g):
    atts = list(g["color"]) + ([g["depth"]] if g["depth"] else [])
    return sum(BYTES.get(a["format"], 4) * a["samples"] for a in atts), atts


def main():
    runs = sys.argv[1]
    rows = []
    for f in sorted(glob.glob(os.path.join(runs, "*.planned.gmem.a*.summary"))):
        label = json.loads(open(f).readline())["label"]
        case, _, _, chip = label.rsplit(".", 3)
        chip = chip[1:]
        forced = json.loads(open(f).readline())
        auto_f = f.replace(".gmem.", ".auto.")
        auto = json.loads(open(auto_f).readline()) if os.path.exists(auto_f) else None
        rec = json.load(open(f.replace(".summary", ".json")))
        groups = rec["groups"]
        tiled = {p["group"]: p for p in forced.get("passes", []) if p["group"] is not None}
        left = {p["group"]: p for p in (auto or {}).get("passes", []) if p["group"] is not None}
        for i, g in enumerate(groups):
            if i not in tiled:
                continue
            b, atts = group_bytes(g)
            w, h = atts[0]["width"], atts[0]["height"]
            views = g.get("multiview") or 1
            model = math.ceil(w * h * b / GMEM[chip])
            msaa = any(a["samples"] > 1 for a in atts)
            direct = len(g["passes"]) == 1 and not msaa
            t = tiled[i]
            a = left.get(i)
            rows.append({
                "case": case, "chip": chip, "group": "+".join(g["passes"]), "size": f"{w}x{h}",
                "bytes": b, "views": views, "model_bins": model,
                "turnip_bins": t["tiles"] if t["mode"] == "gmem" else None,
                "bin": t.get("bin"), "draws": t["draws"],
                "model_direct": direct,
                "turnip_memory": (a["mode"] == "sysmem") if a else None,
            })
    json.dump(rows, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
