#!/usr/bin/env python3
"""Compares the render passes a frame recorded with what panvk 25 made of them on Mali-G610.

Inputs: the recorded passes (`--recorded-json` of `tilegraph run` or a gallery example) and
pandecode's dump of every submit's command stream (panvk with `PANVK_DEBUG=interpret`, patch 0002:
pandecode's CS interpreter follows each submit's registers statically, as nothing runs on the
panfrost noop shim). Each `RUN_FRAGMENT` the interpreter reaches prints the framebuffer descriptor
(FBD) of that render pass instance; from it:

- the tile: `Effective Tile Size` (pixels a tile; panvk's `pan_select_tile_size`: the tile-buffer
  budget, half the chip's tile buffer, over the colour bytes a pixel rounded up to a power of two,
  at most 32×32 on v10) and `Color Buffer Allocation` (tile-buffer bytes the colour takes);
- per colour render target: clear (`Clean Pixel Write Enable`, set from `loadOp` CLEAR and never
  forced without AFBC), write-back (`Write Enable`), preload (the pre-frame 0 shader, mode
  INTERSECT or ALWAYS, with an enabled blend descriptor for that target);
- depth/stencil: clear (`ZS Clean Pixel Write Enable` of the ZS/CRC extension), write-back
  (`Z Write Enable` / `S Write Enable`), preload (the pre-frame 1 shader writing depth, or stencil
  from the shader);
- resolves: panvk resolves after the pass with vk_meta, a render pass of its own into the resolve
  target: the fragment jobs right after a group with resolves, one single-sampled target each.

Fragment jobs are matched to recorded groups in order by their attachments (colour count, depth,
samples, size); a job that matches no group and draws nothing but clears is wgpu's
zero-initialisation of a texture, any other is listed as outside the plan.
"""

import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import attachment_label, plan_op  # noqa: E402

INSTR = re.compile(r"^ (?: [0-9a-f]{2}){8} ")
SUBMIT = re.compile(r"^Submit CS \d+ on subqueue (\d+)")


def blocks(path):
    """The lines pandecode printed for each RUN_FRAGMENT it interpreted, in stream order."""
    out = []
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if INSTR.match(line) or SUBMIT.match(line) or line.startswith("Init subqueue"):
                if cur is not None:
                    out.append(cur)
                    cur = None
                if INSTR.match(line) and "RUN_FRAGMENT" in line:
                    cur = []
                continue
            if cur is not None:
                cur.append(line)
    if cur is not None:
        out.append(cur)
    # A RUN_FRAGMENT inside an exception handler is printed without a descriptor.
    return [b for b in out if any(l.strip().startswith("Framebuffer @") for l in b)]


def kv(line):
    s = line.strip()
    if ": " in s:
        k, v = s.split(": ", 1)
        return k, v
    return None, None


def parse_job(lines):
    job = {"params": {}, "rts": [], "zs": {}, "pre": {0: None, 1: None}, "draw": False}
    section = None
    sub = None
    blend_rt = None
    for line in lines:
        s = line.strip()
        m = re.match(r"Pre frame (\d) @", s)
        if m:
            section = ("pre", int(m.group(1)))
            job["pre"][int(m.group(1))] = {"blend": {}, "z": False, "s": False}
            continue
        if s.startswith("Post frame"):
            section = ("post",)
            continue
        if s.startswith("Framebuffer @"):
            section = ("fb",)
            continue
        if s.startswith("ZS CRC Extension:"):
            section = ("zs",)
            continue
        m = re.match(r"Color Render Target (\d+):", s)
        if m:
            section = ("rt",)
            job["rts"].append({})
            sub = None
            continue
        if s.startswith("Color Render Targets @"):
            section = ("rts",)
            continue
        k, v = kv(line)
        if k is None:
            if s.endswith(":"):
                sub = s[:-1]
                m = re.match(r"Blend RT (\d+)", s)
                blend_rt = int(m.group(1)) if m else None
            continue
        if section is None or section == ("fb",):
            # The first Parameters block (before any pre-frame shader) and the FBD's own agree.
            job["params"].setdefault(k, v)
        elif section[0] == "pre":
            pre = job["pre"][section[1]]
            if k == "Enable" and blend_rt is not None:
                pre["blend"][blend_rt] = v == "true"
            elif k == "Depth write enable":
                pre["z"] = v == "true"
            elif k == "Stencil from shader":
                pre["s"] = v == "true"
        elif section == ("zs",):
            job["zs"][k] = v
        elif section == ("rt",):
            job["rts"][-1][(sub + "." + k) if sub in ("RGB", "AFBC", "YUV") else k] = v
    return job


def summarise(job):
    """One fragment job as attachment slots: colour targets with a surface, then depth/stencil."""
    p = job["params"]
    pre0, pre1 = job["pre"][0], job["pre"][1]
    mode0, mode1 = p.get("Pre Frame 0", "Never"), p.get("Pre Frame 1", "Never")
    colour = []
    for i, rt in enumerate(job["rts"]):
        base = rt.get("RGB.Base", "0x0")
        if rt.get("Write Enable") != "true" and int(base, 16) == 0:
            continue  # a target slot without a surface
        ops = set()
        if rt.get("Clean Pixel Write Enable") == "true":
            ops.add("clear")
        if rt.get("Write Enable") == "true":
            ops.add("store")
        if mode0 != "Never" and pre0 and pre0["blend"].get(i):
            ops.add("load")
        colour.append({"rt": i, "base": int(base, 16), "format": rt.get("Internal Format"),
                       "msaa": rt.get("Writeback MSAA"), "ops": ops})
    depth = None
    z_write = p.get("Z Write Enable") == "true"
    s_write = p.get("S Write Enable") == "true"
    zs_surface = p.get("Has ZS CRC Extension") == "true" and job["zs"].get("ZS Writeback Base", "0x0") != "0x0"
    if z_write or s_write or zs_surface:
        ops = set()
        if job["zs"].get("ZS Clean Pixel Write Enable") == "true":
            ops.add("clear")
        if z_write or s_write:
            ops.add("store")
        if mode1 != "Never" and pre1 and (pre1["z"] or pre1["s"]):
            ops.add("load")
        depth = {"format": p.get("Z Internal Format"), "ops": ops,
                 "preload": sorted(a for a, on in (("z", pre1 and pre1["z"]), ("s", pre1 and pre1["s"])) if on)}
    return {
        "width": int(p.get("Width", "0")),
        "height": int(p.get("Height", "0")),
        "samples": int(p.get("Sample Count", "1")),
        "tile": int(p.get("Effective Tile Size", "0")),
        "cbuf": int(p.get("Color Buffer Allocation", "0")),
        "layer": int(p.get("Internal layer index", "0")),
        "draws": int(p.get("Tiler", "0x0"), 16) != 0,
        "colour": colour,
        "depth": depth,
    }


def read_jobs(path):
    return [summarise(parse_job(b)) for b in blocks(path)]




def instances(jobs):
    """Fragment jobs grouped into render pass instances: a job of a later layer (a multiview
    pass runs one job a view) continues the instance before it."""
    out = []
    for j in jobs:
        if j["layer"] > 0 and out and out[-1]["views"] == j["layer"]:
            out[-1]["views"] += 1
            continue
        out.append({**j, "views": 1, "group": None, "extra": None, "resolves": []})
    return out


def signature_of_group(g):
    a = (g["color"] + [g["depth"]] if g["depth"] else g["color"])[0]
    samples = max(x["samples"] for x in g["color"] + ([g["depth"]] if g["depth"] else []))
    return (len(g["color"]), g["depth"] is not None, samples, a["width"], a["height"])


def signature_of(inst):
    return (len(inst["colour"]), inst["depth"] is not None, inst["samples"], inst["width"], inst["height"])


def is_resolve(inst):
    """A vk_meta resolve: one single-sampled target drawn into without load or clear."""
    return (inst["samples"] == 1 and len(inst["colour"]) == 1 and inst["depth"] is None
            and inst["colour"][0]["ops"] == {"store"} and inst["draws"])


def match(groups, insts):
    """Assigns instances to groups in order; the resolves panvk runs after a group follow it."""
    gi = 0
    i = 0
    while i < len(insts):
        inst = insts[i]
        i += 1
        if gi < len(groups) and inst["draws"] and signature_of(inst) == signature_of_group(groups[gi]):
            g = groups[gi]
            inst["group"] = gi
            gi += 1
            views = g.get("multiview") or 1
            for a in g["color"]:
                if not a.get("resolve"):
                    continue
                for _ in range(views):
                    if i < len(insts) and is_resolve(insts[i]):
                        inst["resolves"].append(a["resource"])
                        insts[i]["extra"] = "resolve of " + a["resource"]
                        i += 1
        elif not inst["draws"]:
            inst["extra"] = "no draws (wgpu's zero-initialisation)"
        else:
            inst["extra"] = "unmatched"
    return gi


def expected(att):
    """What panvk makes of the plan's ops for one attachment: LOAD preloads, CLEAR clears,
    DONT_CARE neither; every attachment is written back (panvk 25 never reads the store op); a
    resolve is a render pass of its own after the group."""
    ops = {"store"}
    if att["load"] == "load":
        ops.add("load")
    elif att["load"] == "clear":
        ops.add("clear")
    if att.get("resolve"):
        ops.add("resolve")
    return ops


def tile_text(inst):
    return f"{inst['tile']} px, {inst['cbuf']} B tib" + (f", {inst['views']} views" if inst["views"] > 1 else "")


def compare(rec, insts):
    groups = rec["groups"]
    matched = match(groups, insts)
    rows, problems = [], []
    stats = {"passes": 0, "loads": 0, "clears": 0, "stores": 0, "resolves": 0, "extra": 0,
             "discard_written": 0, "tiles": []}
    if matched != len(groups):
        problems.append(f"{len(groups)} render groups recorded, {matched} matched in the stream")
    checked = 0
    for inst in insts:
        if inst["group"] is None:
            if inst["extra"] and inst["extra"].startswith("resolve of"):
                continue
            stats["extra"] += 1
            rows.append(("(outside the plan)", inst["extra"], tile_text(inst),
                         "", ",".join(sorted(set().union(*[c["ops"] for c in inst["colour"]] or [set()]))) or "-"))
            continue
        g = groups[inst["group"]]
        stats["passes"] += 1
        stats["tiles"].append({"group": inst["group"], "passes": g["passes"], "tile": inst["tile"],
                               "cbuf": inst["cbuf"], "width": inst["width"], "height": inst["height"]})
        slots = [c["ops"] for c in inst["colour"]] + ([inst["depth"]["ops"]] if inst["depth"] else [])
        atts = g["color"] + ([g["depth"]] if g["depth"] else [])
        for att, ops in zip(atts, slots):
            got = set(ops)
            if att["resource"] in inst["resolves"]:
                got.add("resolve")
            want = expected(att)
            checked += 1
            for k, n in (("load", "loads"), ("clear", "clears"), ("store", "stores"), ("resolve", "resolves")):
                if k in got:
                    stats[n] += 1
            note = ""
            if att["store"] in ("discard", "none") and "store" in got:
                stats["discard_written"] += 1
                note = "  (written back: panvk ignores the store op)"
            ok = got == want
            if not ok:
                problems.append(f"{'+'.join(g['passes'])} {att['resource']}: plan {plan_op(att)} expects "
                                f"{sorted(want)}, panvk emitted {sorted(got)}")
            rows.append(("+".join(g["passes"]), attachment_label(att), tile_text(inst),
                         plan_op(att), (",".join(sorted(got)) or "-") + note + ("" if ok else "  <-- DISAGREES")))
        if len(slots) != len(atts):
            problems.append(f"{'+'.join(g['passes'])}: {len(atts)} attachments recorded, {len(slots)} in the stream")
    return rows, problems, checked, stats


# panvk's tile-buffer budget on each profile's chip: half the tile buffer pan_props.c lists
# (panfrost_query_optimal_tib_size), and the largest tile its architecture takes
# (panfrost_max_effective_tile_size: 32x32 from v10, 16x16 before).
CHIPS = {"mali-g71": (4096, 256), "mali-g52": (8192, 256), "mali-g610": (16384, 1024), "mali-g720": None}


def shape(area):
    """A tile area as width x height, the width the larger."""
    w = 1 << ((area.bit_length() - 1 + 1) // 2)
    return f"{w}x{area // w}"


def model_rows(runs):
    """Per planned graph case and group: the crate's Mali tile next to panvk's."""
    import glob
    import os

    rows = []
    for f in sorted(glob.glob(os.path.join(runs, "*.planned.mali-g610.summary"))):
        case = os.path.basename(f).split(".")[0]
        plan_f = os.path.join(runs, case + ".mali-plan.json")
        if not os.path.exists(plan_f):
            continue
        run = json.loads(open(f).readline())
        plan = json.load(open(plan_f))
        by_passes = {tuple(g["passes"]): g for g in plan["groups"] if g.get("tile")}
        for t in run.get("tiles", []):
            g = by_passes.get(tuple(t["passes"]))
            if g is None:
                continue
            entries = {e["profile"]: e for e in g["tile"]}
            rows.append({"case": case, "group": "+".join(t["passes"]), "driver_tile": t["tile"],
                         "driver_tib": t["cbuf"], "model": entries})
    return rows


def model_report(rows):
    if not rows:
        print("no planned graph case with a plan to compare")
        return
    print("| case | group | model B/px | mali-g610 model tile | fits | panvk tile (G610) | tib B | tib B/px | agrees |")
    print("|---|---|---|---|---|---|---|---|---|")
    tile_ok = fits_ok = 0
    for r in rows:
        e = r["model"]["mali-g610"]
        model_area = e["tile"][0] * e["tile"][1]
        driver_fits = r["driver_tile"] >= 256
        same_tile = model_area == r["driver_tile"]
        same_fits = e["fits"] == driver_fits
        tile_ok += same_tile
        fits_ok += same_fits
        per_px = r["driver_tib"] / r["driver_tile"] if r["driver_tile"] else 0
        print(f"| {r['case']} | {r['group']} | {e['bytes_per_pixel']} | {e['tile'][0]}x{e['tile'][1]} | {e['fits']} "
              f"| {shape(r['driver_tile'])} | {r['driver_tib']} | {per_px:g} | "
              f"{'tile and fits' if same_tile and same_fits else 'fits only' if same_fits else 'NO'} |")
    n = len(rows)
    print(f"mali-g610 model vs panvk 25.0 (run): fits agrees on {fits_ok} of {n} groups, tile size on {tile_ok} of {n}")
    # panvk's rule on the other chips for the same tile-buffer bytes: arithmetic only, as panvk 25
    # opens no Bifrost device (G71, G52) and has no v12 path (G720).
    for prof, chip in CHIPS.items():
        if prof == "mali-g610":
            continue
        if chip is None:
            print(f"{prof}: not checked (panvk 25.0 has no Valhall v12 path)")
            continue
        budget, largest = chip
        agree_fits = agree_tile = 0
        for r in rows:
            e = r["model"][prof]
            tib_bpp = r["driver_tib"] / r["driver_tile"] if r["driver_tile"] else 0
            need = 1 << max(0, math.ceil(math.log2(tib_bpp))) if tib_bpp >= 1 else 1
            area = max(16, min(budget // need, largest))
            agree_fits += e["fits"] == (area >= 256)
            agree_tile += e["tile"][0] * e["tile"][1] == area
        print(f"{prof} model vs panvk's rule (computed, not run: half of {budget * 2} B, at most {shape(largest)}): "
              f"fits agrees on {agree_fits} of {n} groups, tile size on {agree_tile} of {n}")


def model_main(argv):
    ap = argparse.ArgumentParser(prog="mali.py model")
    ap.add_argument("--runs", required=True)
    args = ap.parse_args(argv)
    model_report(model_rows(args.runs))
    return 0


def main():
    if sys.argv[1:2] == ["model"]:
        return model_main(sys.argv[2:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--recorded", required=True)
    ap.add_argument("--dump", required=True, help="pandecode's dump of the run (PANDECODE_DUMP_FILE)")
    ap.add_argument("--label", required=True)
    ap.add_argument("--summary", help="write one JSON line for the case here")
    args = ap.parse_args()

    rec = json.load(open(args.recorded))
    insts = instances(read_jobs(args.dump))
    rows, problems, checked, stats = compare(rec, insts)
    disagreements = len(problems)
    print(f"### {args.label}")
    hdr = ("group", "attachment", "tile", "plan", "panvk emitted")
    widths = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(5)]
    for r in [hdr] + rows:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    for pr in problems:
        print("  DISAGREEMENT: " + pr)
    print(f"  {checked} attachments, {disagreements} disagreements; {stats['passes']} render passes;"
          f" emitted {stats['loads']} preloads, {stats['clears']} clears, {stats['stores']} write-backs,"
          f" {stats['resolves']} resolves ({stats['discard_written']} written back where the plan discards)"
          + (f"; {stats['extra']} pass(es) outside the plan" if stats["extra"] else ""))
    if args.summary:
        with open(args.summary, "w") as f:
            f.write(json.dumps({"label": args.label, "attachments": checked, "disagreements": disagreements,
                                **stats}) + "\n")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
