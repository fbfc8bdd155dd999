#!/usr/bin/env python3
"""Per graph, what turnip did with the plan: a Markdown table from the check's .summary files.

    python3 tools/tilers/summary.py target/tilers/runs [KIND-NAME ...]

One row per chip, mode (planned, naive) and tiling (TU_DEBUG=gmem, or the driver's own choice):
the plan's render passes, how many the driver tiled and how many it rendered to memory, the bins
of each tiled pass, and the GMEM loads, clears, stores and resolves it emitted (in memory, load and
store ops emit nothing; clears and resolves are counted where the 2D engine does them).
"""

import glob
import json
import os
import sys


def load(runs):
    out = {}
    for f in glob.glob(os.path.join(runs, "*.summary")):
        if f.endswith(".neg.summary"):
            continue
        for line in open(f):
            r = json.loads(line)
            case, mode, tiling, chip = r["label"].rsplit(".", 3)
            if not (chip.startswith("a") and chip[1:].isdigit()):
                continue  # another driver's case
            out.setdefault(case, []).append((chip, mode, tiling, r))
    return out


def table(rows):
    lines = [
        "| chip | mode | tiling | passes | tiled | in memory | bins per tiled pass | loads | clears | stores | resolves | checked |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = {"planned": 0, "naive": 1, "dont-care": 2}
    for chip, mode, tiling, r in sorted(rows, key=lambda x: (x[0], order.get(x[1], 9), x[2] != "gmem")):
        if r.get("failed"):
            lines.append(f"| {chip} | {mode} | {tiling} | failed to run | | | | | | | | |")
            continue
        plan = [p for p in r["passes"] if p["group"] is not None]
        bins = " ".join(str(p["tiles"]) for p in plan if p["mode"] == "gmem") or "-"
        lines.append(
            f"| {chip} | {mode} | {'forced (gmem)' if tiling == 'gmem' else 'driver'} | {len(plan)} | {r['gmem']} | {r['sysmem']} | {bins} "
            f"| {r['loads']} | {r['clears']} | {r['stores']} | {r['resolves']} | {r['attachments']} ({r['disagreements']} disagree) |"
        )
    return "\n".join(lines)


def main():
    runs = sys.argv[1]
    wanted = sys.argv[2:]
    data = load(runs)
    for case in wanted or sorted(data):
        if case not in data:
            continue
        print(f"#### {case}\n")
        print(table(data[case]))
        print()


if __name__ == "__main__":
    main()
