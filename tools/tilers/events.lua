-- cffdump script (a6xx and a7xx): one line per event of a render pass, with raw register values,
-- for tools/tilers/compare.py to group into render passes and attachments.
--
--   S / E                            a submit starts / ends
--   M <mode> <regs>                  CP_SET_MARKER (RM6_DIRECT_RENDER, RM6_BIN_VISIBILITY,
--                                    RM6_BIN_RENDER_START, RM6_BIN_RESOLVE, ...)
--   B <regs>                         CP_EVENT_WRITE(BLIT) (CP_EVENT_WRITE7 on a7xx): a GMEM load,
--                                    clear, store or resolve
--   2 <regs>                         CP_BLIT: the 2D engine (sysmem clears and resolves, float MSAA resolves)
--   D <primtype> <regs>              a draw
--
-- <regs> is `name=hex` for the registers that say which attachment an event touches.

local mode = "NONE"

local function hex(v)
	return string.format("%x", math.floor(v))
end

local function reg(off)
	return regs.val(off)
end

local function reg64(off)
	return reg(off) + reg(off + 1) * 4294967296
end

local function state()
	local s = {}
	s[#s + 1] = "win=" .. hex(reg(0x8890))          -- RB_WINDOW_OFFSET
	s[#s + 1] = "bin=" .. hex(reg(0x80a1))          -- GRAS_BIN_CONTROL
	s[#s + 1] = "bin_br=" .. hex(reg(0x88d2))       -- RB_BLIT_SCISSOR_BR
	local mrts = reg(0x880c) & 0xf                  -- RB_FS_OUTPUT_CNTL1.MRT
	s[#s + 1] = "mrts=" .. hex(mrts)
	for n = 0, 7 do
		local base = 0x8820 + 8 * n
		s[#s + 1] = string.format("mrt%d=%s/%s/%s", n,
			hex(reg64(base + 5)),                    -- RB_MRT[n].BASE
			hex(reg(base + 7)),                      -- RB_MRT[n].BASE_GMEM
			hex(reg(base + 2)))                      -- RB_MRT[n].BUF_INFO
	end
	s[#s + 1] = "depth=" .. hex(reg64(0x8875)) .. "/" .. hex(reg(0x8877)) .. "/" .. hex(reg(0x8872))
	s[#s + 1] = "stencil=" .. hex(reg64(0x8884)) .. "/" .. hex(reg(0x8886)) .. "/" .. hex(reg(0x8881))
	return table.concat(s, " ")
end

function start_submit()
	io.write("S\n")
	mode = "NONE"
end

function end_submit()
	io.write("E\n")
end

function CP_SET_MARKER(pkt, size)
	mode = tostring(pkt[0].MODE)
	io.write("M ", mode, " ", state(), "\n")
end

function CP_EVENT_WRITE7(pkt, size)
	CP_EVENT_WRITE(pkt, size)
end

function CP_EVENT_WRITE(pkt, size)
	if tostring(pkt[0].EVENT) ~= "BLIT" then
		return
	end
	io.write("B ", mode,
		" info=", hex(reg(0x88e3)),                  -- RB_BLIT_INFO
		" gmem=", hex(reg(0x88d6)),                  -- RB_BLIT_BASE_GMEM
		" dst=", hex(reg64(0x88d8)),                 -- RB_BLIT_DST
		" dst_info=", hex(reg(0x88d7)),              -- RB_BLIT_DST_INFO
		" ", state(), "\n")
end

function CP_BLIT(pkt, size)
	io.write("2 ", mode,
		" cntl=", hex(reg(0x8c00)),                  -- RB_2D_BLIT_CNTL
		" src=", hex(reg64(0xb4c2)),                 -- SP_PS_2D_SRC (a6xx)
		" src_info=", hex(reg(0xb4c0)),              -- SP_PS_2D_SRC_INFO (a6xx)
		" src7=", hex(reg64(0xb2c2)),                -- SP_PS_2D_SRC (a7xx)
		" src_info7=", hex(reg(0xb2c0)),             -- SP_PS_2D_SRC_INFO (a7xx)
		" dst=", hex(reg64(0x8c18)),                 -- RB_2D_DST
		" ", state(), "\n")
end

function draw(primtype, nindx)
	local p = tostring(primtype)
	-- events and the 2D engine's blits (a7xx decodes CP_BLIT as a draw) are not draws
	if p:sub(1, 6) == "EVENT:" or p:sub(1, 8) == "BLIT_OP_" then
		return
	end
	io.write("D ", mode, " ", p, " ", state(), "\n")
end
