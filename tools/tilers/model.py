#!/usr/bin/env python3
"""DESIGN 2.7's Adreno tile model next to what turnip decided, per render group.

    python3 tools/adreno/model.py target/adreno/runs

The model: bins = ceil(W x H x bytes / GMEM), bytes = the sum of texel bytes x samples over the
group's colour and depth attachments, GMEM 512 KiB (a618, no profile of its own), 1 MiB (a630),
1.5 MiB (a660); a one-pass group without MSAA `may_be_direct` (rendered to memory by the driver's
heuristics). Turnip: the bins of the tiled pass (TU_DEBUG=gmem), and tiled or memory when left to
itself (its first-frame rule: at most 5 draws and no MSAA attachment go to memory).

With --summary: a few lines of how far the model and the driver agree, instead of the JSON rows.
"""

import collections
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


CCUS = {"618": 1, "630": 2, "660": 3}


def turnip_rule_bins(atts, w, h, chip, avoid_ccu=False):
    """Turnip 22.3's own bin count for a pass (tu_render_pass_gmem_config and
    tu_tiling_config_update_tile_layout): each attachment gets a share of GMEM in aligned blocks,
    the frame starts as one bin aligned to 32x32 (96 wide with 3 CCUs) and the longer side is
    cut into more columns or rows until a bin fits the smallest share."""
    gmem = GMEM[chip] - (CCUS[chip] * 16 * 1024 if avoid_ccu else 0)
    align_w, align_h, max_w, max_h = (96 if CCUS[chip] == 3 else 32), 32, 1024, 1008
    shift = 3
    cpps = []
    for a in atts:
        b = BYTES.get(a["format"], 4)
        if a["format"] == "Depth32FloatStencil8":
            cpps += [4 * a["samples"], a["samples"]]
            cpp1 = a["samples"] == 1
        else:
            cpps.append(b * a["samples"])
            cpp1 = b * a["samples"] == 1
        if cpp1 and align_w % 64:
            align_w *= 2
            shift -= 1
    gmem_align = (1 << shift) * align_w * align_h
    blocks = gmem // gmem_align
    total = sum(cpps)
    pixels = None
    for cpp in cpps:
        al = max(1, cpp >> shift)
        n = max((blocks * cpp // total) & ~(al - 1), al)
        blocks -= n
        total -= cpp
        px = n * gmem_align // cpp
        pixels = px if pixels is None else min(pixels, px)

    def npot(v, a):
        return (v + a - 1) // a * a

    cw = ch = 1
    tw, th = npot(w, align_w), npot(h, align_h)
    while tw > max_w:
        cw += 1
        tw = npot(-(-w // cw), align_w)
    while th > max_h:
        ch += 1
        th = npot(-(-h // ch), align_h)
    while tw * th > pixels:
        if tw > max(align_w, th):
            cw += 1
            tw = npot(-(-w // cw), align_w)
        else:
            ch += 1
            th = npot(-(-h // ch), align_h)
    return cw * ch, (tw, th)


def resolves_through_2d(atts):
    """A resolve the blit event cannot do (blit_can_resolve: sRGB, snorm, channels over 10 bits
    such as every float format, RG8): turnip then keeps the CCU's share of GMEM free."""
    for a in atts:
        f = a["format"]
        if a.get("resolve") and (
            "Srgb" in f or "Snorm" in f or "Float" in f or "16" in f or "32" in f
            or f in ("Rg8Unorm", "Rg8Uint")
        ):
            return True
    return False


def group_bytes(g):
    atts = list(g["color"]) + ([g["depth"]] if g["depth"] else [])
    return sum(BYTES.get(a["format"], 4) * a["samples"] for a in atts), atts


def summary(rows):
    tiled = [r for r in rows if r["turnip_bins"] is not None]
    print(f"bins, model lower bound ceil(W x H x bytes / GMEM) against turnip's (TU_DEBUG=gmem), {len(tiled)} tiled groups:")
    for chip in sorted({r["chip"] for r in tiled}):
        t = [r for r in tiled if r["chip"] == chip]
        ratios = [r["turnip_bins"] / r["model_bins"] for r in t]
        print(f"  a{chip}: equal in {sum(1 for r in t if r['turnip_bins'] == r['model_bins'])} of {len(t)},"
              f" turnip more in {sum(1 for r in t if r['turnip_bins'] > r['model_bins'])},"
              f" fewer in {sum(1 for r in t if r['turnip_bins'] < r['model_bins'])}; turnip / model {min(ratios):.2f} to {max(ratios):.2f}")
    same = sum(1 for r in tiled if r["rule_bins"] == r["turnip_bins"])
    print(f"  turnip's own rule (aligned GMEM shares, less the CCU's when a resolve needs the 2D engine,"
          f" a grid of 32x32-aligned bins, 96 wide on a660)"
          f" gives its bin count in {same} of {len(tiled)}")
    forced_memory = [r for r in rows if r["turnip_bins"] is None]
    if forced_memory:
        kinds = collections.Counter(f"{r['case']} {r['group']} ({r['views']} views)" for r in forced_memory)
        print("  rendered to memory even when tiling is forced: " + ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items())))
    left = [r for r in rows if r["turnip_memory"] is not None and r["turnip_bins"] is not None]
    agree = sum(1 for r in left if r["turnip_memory"] == r["model_direct"])
    print(f"memory or tiles, model may_be_direct (one pass, no MSAA) against turnip's first-frame choice: {agree} of {len(left)} agree")
    diff = collections.Counter((r["case"], r["group"], r["model_direct"], r["turnip_memory"], r["draws"])
                               for r in left if r["turnip_memory"] != r["model_direct"])
    for (case, group, model, memory, draws), n in sorted(diff.items()):
        print(f"  {case} {group}: model {'may be direct' if model else 'tiled'}, turnip {'memory' if memory else 'tiled'}"
              f" ({draws} draws; on {n} chip(s))")


def report_summary(rows):
    """The library's tile report (`tilegraph run --recorded-json`, planned groups, a630 and a660)
    against what turnip did: its bins when tiling is forced, its first-frame choice left alone."""
    have = [r for r in rows if r["report_bins"] is not None]
    if not have:
        return
    tiled = [r for r in have if r["turnip_bins"] is not None]
    print(f"the tile report's Adreno entries against turnip, {len(have)} groups on a630 and a660:")
    same = sum(1 for r in tiled if r["report_bins"] == r["turnip_bins"])
    print(f"  bins: the report's equal turnip's in {same} of {len(tiled)} tiled groups")
    for r in tiled:
        if r["report_bins"] != r["turnip_bins"]:
            print(f"    {r['case']} {r['group']} a{r['chip']}: report {r['report_bins']}, turnip {r['turnip_bins']}")

    def agrees(r):
        if r["report_first"] == "tiled":
            return not r["turnip_memory"]
        if r["report_first"] == "memory":
            return r["turnip_memory"]
        return r["turnip_memory"] == (r["draws"] <= 5)

    left = [r for r in have if r["turnip_memory"] is not None]
    print(f"  first frame: the report's rule (with the draws turnip counted) agrees in"
          f" {sum(1 for r in left if agrees(r))} of {len(left)}")
    for r in left:
        if not agrees(r):
            print(f"    {r['case']} {r['group']} a{r['chip']}: report {r['report_first']},"
                  f" turnip {'memory' if r['turnip_memory'] else 'tiled'} ({r['draws']} draws)")


def main():
    if sys.argv[1] == "--summary":
        rows = collect(sys.argv[2])
        summary(rows)
        report_summary(rows)
        return
    json.dump(collect(sys.argv[1]), sys.stdout, indent=1)


def collect(runs):
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
            report = (g.get("adreno") or {}).get(chip)
            rows.append({
                "report_bins": report["bins"] if report else None,
                "report_first": report["first_frame"] if report else None,
                "case": case, "chip": chip, "group": "+".join(g["passes"]), "size": f"{w}x{h}",
                "bytes": b, "views": views, "model_bins": model,
                "turnip_bins": t["tiles"] if t["mode"] == "gmem" else None,
                "bin": t.get("bin"), "draws": t["draws"],
                "model_direct": direct,
                "rule_bins": turnip_rule_bins(atts, w, h, chip, resolves_through_2d(atts))[0],
                "rule_bin": turnip_rule_bins(atts, w, h, chip, resolves_through_2d(atts))[1],
                "turnip_memory": (a["mode"] == "sysmem") if a else None,
            })
    return rows


if __name__ == "__main__":
    main()
