#!/usr/bin/env python3
"""The tile report's Adreno entries (DESIGN 2.7) next to what turnip decided, per render group.

    python3 tools/tilers/model.py --summary RUNS     a few lines of agreement, then each difference
    python3 tools/tilers/model.py RUNS               the rows as JSON

RUNS holds check.sh's cases. The report's entries come from the planned runs' recorded JSON
(`tilegraph run --recorded-json` and the gallery's: per render group `"adreno"`, the entries of
adreno-630, 650, 660 and 740 with the driver they follow, bins, bin and first-frame rule). Turnip's
side: the bins and bin size of the pass when tiling is forced (TU_DEBUG=gmem; a pass it still
renders to memory has no GMEM layout: the report's `fits` false), and when left to itself, whether
it rendered the pass to memory (its first-frame rule, judged with the draws it counted).
Chips without a profile (a730, a750) are left out.
"""

import glob
import json
import os
import sys

PROFILES = ("630", "650", "660", "740")


def collect(runs):
    rows = []
    for f in sorted(glob.glob(os.path.join(runs, "*.planned.gmem.a*.summary"))):
        forced = json.loads(open(f).readline())
        case, _, _, chip = forced["label"].rsplit(".", 3)
        chip = chip[1:]
        if chip not in PROFILES:
            continue
        auto_f = f.replace(".gmem.", ".auto.")
        auto = json.loads(open(auto_f).readline()) if os.path.exists(auto_f) else None
        groups = json.load(open(f.replace(".summary", ".json")))["groups"]
        tiled = {p["group"]: p for p in forced.get("passes", []) if p["group"] is not None}
        left = {p["group"]: p for p in (auto or {}).get("passes", []) if p["group"] is not None}
        for i, g in enumerate(groups):
            report = (g.get("adreno") or {}).get(chip)
            if i not in tiled or not report:
                continue
            t, a = tiled[i], left.get(i)
            gmem = t["mode"] == "gmem"
            rows.append({
                "case": case, "chip": chip, "group": "+".join(g["passes"]),
                "views": g.get("multiview") or 1, "driver": report["driver"],
                "report_fits": report["fits"], "report_bins": report["bins"],
                "report_bin": report["bin"], "report_first": report["first_frame"],
                "turnip_fits": gmem, "turnip_bins": t["tiles"] if gmem else None,
                "turnip_bin": t.get("bin") if gmem else None, "draws": t["draws"],
                "turnip_memory": (a["mode"] == "sysmem") if a else None,
            })
    return rows


def first_frame_agrees(r):
    if r["report_first"] == "tiled":
        return not r["turnip_memory"]
    if r["report_first"] == "memory":
        return r["turnip_memory"]
    return r["turnip_memory"] == (r["draws"] <= 5)


def summary(rows):
    if not rows:
        print("no planned groups on a chip with a profile")
        return
    drivers = sorted({r["driver"] for r in rows})
    print(f"the tile report's Adreno entries ({', '.join(drivers)}) against turnip on the shim, per profile:")
    for chip in PROFILES:
        rs = [r for r in rows if r["chip"] == chip]
        if not rs:
            continue
        fits = sum(r["report_fits"] == r["turnip_fits"] for r in rs)
        tiled = [r for r in rs if r["turnip_fits"] and r["report_fits"]]
        bins = sum(r["report_bins"] == r["turnip_bins"] for r in tiled)
        size = sum(list(r["report_bin"] or []) == list(r["turnip_bin"] or []) for r in tiled)
        left = [r for r in rs if r["turnip_memory"] is not None]
        first = sum(first_frame_agrees(r) for r in left)
        mv = [r for r in tiled if r["views"] > 1]
        mv_s = f", {len(mv)} multiview" if mv else ""
        print(f"  adreno-{chip}: fits {fits} of {len(rs)}, bins {bins} of {len(tiled)}, bin size {size} of"
              f" {len(tiled)}{mv_s}, first frame {first} of {len(left)}")
    for r in rows:
        tiled = r["turnip_fits"] and r["report_fits"]
        wrong = (r["report_fits"] != r["turnip_fits"]
                 or (tiled and (r["report_bins"] != r["turnip_bins"]
                                or list(r["report_bin"] or []) != list(r["turnip_bin"] or []))))
        if wrong:
            print(f"    {r['case']} {r['group']} a{r['chip']}: report {r['report_bins']} bins {r['report_bin']}"
                  f" fits {r['report_fits']}, turnip {r['turnip_bins']} bins {r['turnip_bin']}")
        if r["turnip_memory"] is not None and not first_frame_agrees(r):
            print(f"    {r['case']} {r['group']} a{r['chip']}: first frame, report {r['report_first']},"
                  f" turnip {'memory' if r['turnip_memory'] else 'tiled'} ({r['draws']} draws)")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summary(collect(sys.argv[2]))
    elif len(sys.argv) == 2:
        json.dump(collect(sys.argv[1]), sys.stdout, indent=1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
