#!/usr/bin/env python3
"""Compares the render passes a frame recorded with what turnip emitted for them.

Inputs: the recorded passes (`--recorded-json` of `tilegraph run` or a gallery example: per render
group in recording order, each attachment's resource, format, size, samples and load/store/resolve)
and the events `events.lua` printed while cffdump decoded the frame's command stream.

The stream is cut into render pass instances by the render-mode markers: `RM6_BYPASS` starts a
pass rendered to memory; `RM6_BINNING` starts a tiled pass; `RM6_GMEM` starts a tile, and the
first tile of a tiled pass without a binning pass is the one at window offset (0,0). In a tile,
`CP_EVENT_WRITE(BLIT)` of `RB_BLIT_INFO.TYPE` LOAD or CLEAR loads or clears an attachment's GMEM
range (on the a750, a CLEAR in a pass rendered to memory fills the attachment's memory: its
generic clear; other chips' blit events there touch no attachment), and STORE (or STORE_AND_CLEAR) under `RM6_RESOLVE` writes it to memory: to the
attachment's own memory (a store) or elsewhere (a resolve). Float MSAA resolves read GMEM through
the 2D engine (`CP_BLIT` with a source inside GMEM). In a pass rendered to memory, load and store
ops do nothing; clears are 2D fills of the attachment (or draws, for MSAA) and resolves 2D blits
from it.

Stream passes are matched to recorded groups in order by their attachments (colour count, depth);
a stream pass that matches no group and only clears is one wgpu added to zero-initialise a texture
before the frame, and is listed as such.
"""

import argparse
import json
import sys

GMEM_BASE = 0x100000  # MSM_PARAM_GMEM_BASE of the freedreno shim
# RB_BLIT_INFO.TYPE (a6xx_blit_event_type): what a blit event does.
BLIT_STORE, BLIT_STORE_AND_CLEAR, BLIT_CLEAR, BLIT_LOAD = 0, 1, 2, 3

# Render-mode markers under the names Mesa 25's register database gives them, from the a6xx names
# of older databases.
MODES = {
    "RM6_BYPASS": "RM6_DIRECT_RENDER",
    "RM6_BINNING": "RM6_BIN_VISIBILITY",
    "RM6_GMEM": "RM6_BIN_RENDER_START",
    "RM6_RESOLVE": "RM6_BIN_RESOLVE",
    "RM6_ENDVIS": "RM6_BIN_END_OF_DRAWS",
}
# Markers inside a pass that neither start nor end one.
PASSING = ("RM6_BIN_END_OF_DRAWS", "RM6_BIN_RENDER_END")


def parse_kv(fields):
    out = {}
    for f in fields:
        if "=" in f:
            k, v = f.split("=", 1)
            out[k] = v
    return out


def state_of(kv):
    """Attachment registers of one event: colour MRTs (memory base, GMEM offset) and depth/stencil."""
    mrts = int(kv.get("mrts", "0"), 16)
    colour = []
    for n in range(mrts):
        base, gmem, _info = kv[f"mrt{n}"].split("/")
        colour.append((int(base, 16), int(gmem, 16)))
    d_base, d_gmem, d_info = kv["depth"].split("/")
    s_base, s_gmem, s_info = kv["stencil"].split("/")
    depth = None
    if int(d_info, 16) & 0x7:  # RB_DEPTH_BUFFER_INFO.DEPTH_FORMAT != DEPTH6_NONE
        depth = [(int(d_base, 16), int(d_gmem, 16))]
        if int(s_info, 16) & 0x1:  # RB_STENCIL_INFO.SEPARATE_STENCIL
            depth.append((int(s_base, 16), int(s_gmem, 16)))
    binc = int(kv.get("bin", "0"), 16)
    return {
        "colour": colour,
        "depth": depth,
        "win": int(kv.get("win", "0"), 16),
        "bin": ((binc & 0x3F) << 5, ((binc >> 8) & 0x7F) << 4),
    }


class Pass:
    def __init__(self, mode, submit):
        self.mode = mode  # "gmem" or "sysmem"
        self.submit = submit
        self.binning = False
        self.tiles = 0
        self.bin = None
        self.draws = 0
        self.blits = []  # (kind, gmem offset or None, address, extra)
        self.state = None  # the attachment registers, last seen in this pass
        self.group = None
        self.extra = None


def read_passes(path, a7xx=False, generic_clear=False):
    """Cuts the event log into render pass instances.

    With `cffdump --once` a pass's draw and tile-store command buffers are decoded for its first
    tile only; later tiles show just their `RM6_GMEM` marker. So a tile with events of its own
    (draws, blits, its `RM6_RESOLVE`) is the first tile of a new tiled pass, unless a binning pass
    started that pass just before.
    """
    passes = []
    cur = None
    submit = 0
    tile_open = False  # a GMEM marker seen, no event of that tile yet
    fresh_binning = False  # cur was started by RM6_BINNING and has no tile yet

    def tile_content():
        nonlocal cur, tile_open, fresh_binning
        if not tile_open:
            return
        tile_open = False
        if not fresh_binning or cur is None:
            cur = Pass("gmem", submit)
            passes.append(cur)
        fresh_binning = False
        cur.tiles += 1

    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            kind = parts[0]
            if kind not in ("S", "E", "M", "B", "2", "D") or len(parts) < 2 and kind not in ("S", "E"):
                continue
            if kind in ("S", "E"):
                # cffdump's "submits" are the dump's command streams: every IB1 of a submit, in
                # the order the CP runs them, so a pass (and its tiles) goes on across them.
                if kind == "S":
                    submit += 1
                continue
            mode = MODES.get(parts[1], parts[1])
            kv = parse_kv(parts[2:])
            if a7xx:
                kv["src"], kv["src_info"] = kv.get("src7", "0"), kv.get("src_info7", "0")
            st = state_of(kv)
            if kind == "M":
                if mode == "RM6_BIN_RENDER_START":
                    if tile_open:
                        # the previous tile had no events of its own: a later tile of cur
                        tile_open = False
                        if cur is not None and cur.mode == "gmem":
                            cur.tiles += 1
                    tile_open = True
                    continue
                if mode == "RM6_BIN_RESOLVE":
                    tile_content()
                    if cur is not None:
                        cur.state = st
                    continue
                if mode in PASSING:
                    continue
                if tile_open:
                    tile_open = False
                    if cur is not None and cur.mode == "gmem":
                        cur.tiles += 1
                if mode == "RM6_DIRECT_RENDER":
                    cur = Pass("sysmem", submit)
                    passes.append(cur)
                elif mode == "RM6_BIN_VISIBILITY":
                    cur = Pass("gmem", submit)
                    cur.binning = True
                    passes.append(cur)
                    fresh_binning = True
                else:
                    cur = None
                continue
            if mode == "RM6_BIN_RENDER_START":
                tile_content()
            if cur is None or (mode == "RM6_BIN_VISIBILITY"):
                continue
            # The bin size as the first tile programs it (a 2D-engine resolve leaves the
            # register unset).
            if cur.mode == "gmem" and mode in ("RM6_BIN_RENDER_START", "RM6_BIN_RESOLVE") and not cur.bin:
                cur.bin = st["bin"] if any(st["bin"]) else None
            if kind == "D":
                if mode in ("RM6_BIN_RENDER_START", "RM6_DIRECT_RENDER"):
                    cur.draws += 1
                    cur.state = st
            elif kind == "B":
                info = int(kv["info"], 16)
                gmem = int(kv["gmem"], 16)
                dst = int(kv["dst"], 16)
                kind_of = info & 0x3  # RB_BLIT_INFO.TYPE
                if kind_of == BLIT_LOAD:
                    cur.blits.append(("load", gmem, dst))
                elif kind_of == BLIT_CLEAR and cur.mode != "gmem" and generic_clear:
                    # The a750's generic clear: the blit event fills memory directly. (Other
                    # chips' blit events in a pass rendered to memory touch no attachment.)
                    cur.blits.append(("fill", None, dst))
                elif kind_of == BLIT_CLEAR:
                    cur.blits.append(("clear", gmem, dst))
                else:
                    cur.blits.append(("out", gmem, dst))
                    if kind_of == BLIT_STORE_AND_CLEAR:
                        # Stores the tile, then clears GMEM for the next tile's render.
                        cur.blits.append(("clear", gmem, dst))
            elif kind == "2":
                cntl = int(kv["cntl"], 16)
                src = int(kv["src"], 16)
                dst = int(kv["dst"], 16)
                if GMEM_BASE <= src < GMEM_BASE + (16 << 20) and mode == "RM6_BIN_RESOLVE":
                    cur.blits.append(("out2d", src - GMEM_BASE, dst))
                elif cntl & 0x80:  # SOLID_COLOR: a fill
                    cur.blits.append(("fill", None, dst))
                elif (int(kv.get("src_info", "0"), 16) >> 14) & 0x3:  # SAMPLES > 1: a resolve
                    cur.blits.append(("resolve2d", src, dst))
                # other 2D copies (copy passes, read-backs) are not the render pass's
    if tile_open and cur is not None and cur.mode == "gmem":
        cur.tiles += 1
    return passes


def attachment_slots(p):
    """Per attachment of a stream pass: (label, memory addresses, GMEM offsets)."""
    st = p.state
    if st is None:
        return None
    slots = [(f"c{i}", {base}, {gmem}) for i, (base, gmem) in enumerate(st["colour"])]
    if st["depth"]:
        slots.append(("d", {b for b, _ in st["depth"]}, {g for _, g in st["depth"]}))
    return slots


def emitted(p, slot, all_addresses):
    """What the stream did to one attachment: a set of load, clear, store, resolve."""
    _, addrs, gmems = slot
    ops = set()
    for kind, gmem, addr in p.blits:
        if p.mode == "gmem":
            if kind in ("load", "clear") and gmem in gmems:
                ops.add(kind)
            elif kind in ("out", "out2d") and gmem in gmems:
                ops.add("store" if addr in addrs else "resolve")
        else:
            if kind == "fill" and addr in addrs:
                ops.add("clear")
            elif kind == "resolve2d" and gmem in addrs:
                ops.add("resolve")
    return ops


def expected(att, mode):
    """What the plan's ops should make the driver emit for one attachment."""
    ops = set()
    if mode == "gmem":
        if att["load"] == "load":
            ops.add("load")
        elif att["load"] == "clear":
            ops.add("clear")
        # A read-only depth (the plan's store `none`: nothing written) reaches the driver as
        # Load + Store: wgpu-core gives a read-only channel those ops, and a tiler writes the
        # unchanged tile back.
        if att["store"] in ("store", "none"):
            ops.add("store")
        if att.get("resolve"):
            ops.add("resolve")
    else:
        # In memory, loads and stores are no work; a clear is a fill (a draw for MSAA, not seen
        # here) and a resolve a 2D blit.
        if att["load"] == "clear" and att.get("samples", 1) == 1:
            ops.add("clear")
        if att.get("resolve"):
            ops.add("resolve")
    return ops


def plan_op(att):
    s = att["load"] + "/" + att["store"]
    if att.get("resolve"):
        s += "+resolve"
    return s


def attachment_label(att):
    """An attachment as the tables name it: its resource, format and samples."""
    samples = f" x{att['samples']}" if att["samples"] > 1 else ""
    return f"{att['resource']} ({att['format']}{samples})"


def signature_of_group(g):
    return (len(g["color"]), g["depth"] is not None)


def signature_of_pass(p):
    st = p.state
    if st is None:
        return None
    return (len(st["colour"]), bool(st["depth"]))


def only_clears(p):
    return p.draws == 0 and all(k in ("clear", "fill", "out", "out2d") for k, _, _ in p.blits)


def match(groups, passes):
    """Assigns stream passes with draws to groups in order; a pass without draws that only clears
    and stores is one wgpu added to zero-initialise a texture."""
    gi = 0
    for p in passes:
        sig = signature_of_pass(p)
        if gi < len(groups) and p.draws and sig == signature_of_group(groups[gi]):
            p.group = gi
            gi += 1
        elif only_clears(p):
            p.extra = "wgpu zero-init"
        else:
            p.extra = "unmatched"
    return gi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--recorded", required=True)
    ap.add_argument("--events", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--summary", help="append one JSON line per case here")
    args = ap.parse_args()

    rec = json.load(open(args.recorded))
    groups = rec["groups"]
    chip = args.label.rsplit(".a", 1)[-1].split(".")[0]
    # Chips of a7xx's third generation clear memory with the blit event (has_generic_clear).
    passes = read_passes(args.events, a7xx=chip.startswith("7"), generic_clear=chip == "750")
    # Every pass of the run: wgpu's zero-initialisations and the tool's own passes before the
    # frame are told apart by having no draws.
    frame_passes = passes
    matched = match(groups, frame_passes)

    rows = []
    disagreements = 0
    checked = 0
    problems = []
    if matched != len(groups):
        problems.append(f"{len(groups)} render groups recorded, {matched} matched in the stream")
        disagreements += len(groups) - matched
    all_addresses = set()
    for p in frame_passes:
        for slot in attachment_slots(p) or []:
            all_addresses |= slot[1]
    stats = {"gmem": 0, "sysmem": 0, "loads": 0, "clears": 0, "stores": 0, "resolves": 0, "extra": 0,
             "read_only_stores": 0}
    for p in frame_passes:
        if p.group is None:
            stats["extra"] += 1
            rows.append(("(outside the plan)", f"{p.draws} draws" if p.draws else "no draws", p.mode if p.mode == "sysmem" else f"gmem {p.tiles} bins", ",".join(sorted({k for k, _, _ in p.blits})) or "-", ""))
            continue
        g = groups[p.group]
        stats[p.mode] += 1
        slots = attachment_slots(p) or []
        atts = [("c%d" % i, a) for i, a in enumerate(g["color"])]
        if g["depth"]:
            atts.append(("d", g["depth"]))
        mode = p.mode
        mode_s = "memory" if mode == "sysmem" else (
            f"tiled {p.tiles} bin{'s' if p.tiles != 1 else ''} {(p.bin or (0, 0))[0]}x{(p.bin or (0, 0))[1]}" + (" +binning" if p.binning else ""))
        for (label, att), slot in zip(atts, slots):
            got = emitted(p, slot, all_addresses)
            want = expected(att, mode)
            checked += 1
            for k, n in (("load", "loads"), ("clear", "clears"), ("store", "stores"), ("resolve", "resolves")):
                if k in got:
                    stats[n] += 1
            note = ""
            if att["store"] == "none" and "store" in got:
                stats["read_only_stores"] += 1
                note = "  (read-only: wgpu hands over Store)"
            ok = got == want
            if not ok:
                disagreements += 1
                problems.append(f"{'+'.join(g['passes'])} {att['resource']}: plan {plan_op(att)} expects {sorted(want)}, driver emitted {sorted(got)} ({mode_s})")
            rows.append(("+".join(g["passes"]), attachment_label(att),
                         mode_s, plan_op(att), (",".join(sorted(got)) or "-") + note + ("" if ok else "  <-- DISAGREES")))
        if len(slots) != len(atts):
            disagreements += 1
            problems.append(f"{'+'.join(g['passes'])}: {len(atts)} attachments recorded, {len(slots)} in the stream")

    print(f"### {args.label}")
    widths = [max(len(str(r[i])) for r in rows + [("group", "attachment", "driver", "plan", "emitted")]) for i in range(5)]
    hdr = ("group", "attachment", "driver", "plan", "emitted")
    print("  " + "  ".join(h.ljust(w) for h, w in zip(hdr, widths)))
    for r in rows:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    for pr in problems:
        print("  DISAGREEMENT: " + pr)
    print(f"  {checked} attachments, {disagreements} disagreements; {stats['gmem']} tiled, {stats['sysmem']} in memory;"
          f" emitted {stats['loads']} loads, {stats['clears']} clears, {stats['stores']} stores, {stats['resolves']} resolves"
          + (f" ({stats['read_only_stores']} of read-only depth)" if stats["read_only_stores"] else "")
          + (f"; {stats['extra']} pass(es) outside the plan" if stats["extra"] else ""))
    if args.summary:
        with open(args.summary, "a") as f:
            f.write(json.dumps({"label": args.label, "attachments": checked, "disagreements": disagreements,
                                "passes": [{"group": p.group, "extra": p.extra, "mode": p.mode, "tiles": p.tiles,
                                            "bin": p.bin, "binning": p.binning, "draws": p.draws} for p in frame_passes],
                                **stats}) + "\n")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
