/* The launch: loads the code object, lays out the dispatch (kernarg segment, dispatch packet), initialises
 * each wave's SGPRs and VGPRs from the kernel descriptor, and runs every workgroup's waves in step up to
 * each s_barrier. Workgroups run one after another (they share nothing but global memory). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "emu_internal.h"

/* Our own regions at addresses no caller buffer is near (the target places buffers low). */
#define EMU_KERNARG_BASE 0x7ffe00000000ull
#define EMU_DISPATCH_BASE 0x7ffe10000000ull
#define EMU_QUEUE_BASE 0x7ffe20000000ull
#define EMU_POISON 0xbadc0de5u

static void init_wave(emu_launch_state *st, emu_wave *w, const uint32_t gid[3], unsigned first_item,
                      unsigned nitems, const uint32_t gsz[3]) {
  const emu_kd *kd = &st->kd;
  memset(w->s, 0, sizeof w->s);
  for (int i = 0; i < 106; i++) w->s[i] = EMU_POISON; /* SGPRs the hardware does not set are undefined */
  w->vm.head = w->vm.count = w->lgkm.head = w->lgkm.count = w->vs.head = w->vs.count = 0;
  memset(w->vpend, 0, sizeof w->vpend);
  memset(w->spend, 0, sizeof w->spend);
  w->npend = 0;
  w->scc = 0;
  w->done = w->at_barrier = w->jump = 0;
  w->pc = kd->entry;
  w->lanes = st->wave32 ? 32 : 64;
  /* user SGPRs in the order of kernel_code_properties bits (AMDGPUUsage, "Initial Kernel Execution State"):
   * private segment buffer (4), dispatch ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2),
   * flat scratch init (2), private segment size (1) */
  unsigned s = 0, p = kd->code_properties;
  if (p & 1) { w->s[s] = w->s[s + 1] = w->s[s + 2] = w->s[s + 3] = 0; s += 4; }
  if (p & 2) { w->s[s] = (uint32_t)EMU_DISPATCH_BASE; w->s[s + 1] = (uint32_t)(EMU_DISPATCH_BASE >> 32); s += 2; }
  if (p & 4) { w->s[s] = (uint32_t)EMU_QUEUE_BASE; w->s[s + 1] = (uint32_t)(EMU_QUEUE_BASE >> 32); s += 2; }
  if (p & 8) { w->s[s] = (uint32_t)EMU_KERNARG_BASE; w->s[s + 1] = (uint32_t)(EMU_KERNARG_BASE >> 32); s += 2; }
  if (p & 16) { w->s[s] = w->s[s + 1] = 0; s += 2; }
  if (p & 32) { w->s[s] = w->s[s + 1] = 0; s += 2; }
  if (p & 64) { w->s[s] = kd->private_segment_fixed_size; s += 1; }
  /* system SGPRs follow the USER_SGPR_COUNT user SGPRs (rsrc2 [5:1]): workgroup id x, y, z (rsrc2 bits
   * 7, 8, 9), workgroup info (bit 10), private segment wave offset (bit 0) */
  s = (kd->rsrc2 >> 1) & 0x1f;
  if (kd->rsrc2 & (1u << 7)) w->s[s++] = gid[0];
  if (kd->rsrc2 & (1u << 8)) w->s[s++] = gid[1];
  if (kd->rsrc2 & (1u << 9)) w->s[s++] = gid[2];
  if (kd->rsrc2 & (1u << 10)) w->s[s++] = 0;
  if (kd->rsrc2 & 1) w->s[s++] = 0;
  w->s[124] = EMU_POISON; /* M0 and VCC are undefined at entry */
  w->s[106] = w->s[107] = EMU_POISON;
  uint64_t ex = nitems >= 64 ? ~0ull : (1ull << nitems) - 1;
  w->s[126] = (uint32_t)ex;
  w->s[127] = w->lanes == 64 ? (uint32_t)(ex >> 32) : 0;
  w->exec = ex;
  /* VGPRs: poison, then work-item ids. rsrc2 ENABLE_VGPR_WORKITEM_ID [12:11]: 0 x, 1 x y, 2 x y z in v0..v2;
   * gfx11 packs them into v0 (x [9:0], y [19:10], z [29:20]) */
  for (unsigned r = 0; r < st->prog.nvgpr; r++)
    for (unsigned l = 0; l < 64; l++) w->v[r][l] = EMU_POISON;
  unsigned idm = (kd->rsrc2 >> 11) & 3;
  /* ids counted up from the wave's first work-item (divisions per lane cost more than the whole kernel) */
  uint32_t x = first_item % gsz[0], y = (first_item / gsz[0]) % gsz[1], z = first_item / (gsz[0] * gsz[1]);
  for (unsigned l = 0; l < nitems; l++, x++) {
    if (x == gsz[0]) {
      x = 0;
      if (++y == gsz[1]) y = 0, z++;
    }
    if (st->prog.gen == EMU_GFX11) {
      w->v[0][l] = x | (idm >= 1 ? y << 10 : 0) | (idm >= 2 ? z << 20 : 0);
    } else {
      w->v[0][l] = x;
      if (idm >= 1 && st->prog.nvgpr > 1) w->v[1][l] = y;
      if (idm >= 2 && st->prog.nvgpr > 2) w->v[2][l] = z;
    }
  }
}

static int check_launch(const gasp_emu_launch *l, gasp_emu_result *r) {
  if (!l || !r) return -1;
  memset(r, 0, sizeof *r);
  const char *why = NULL;
  if (!l->mcpu) why = "no mcpu";
  else if (!l->code_object || !l->code_object_len) why = "no code object";
  else if (!l->kernel || strlen(l->kernel) > 200) why = "no kernel name";
  else if (l->nregions < 0 || (l->nregions && !l->regions)) why = "bad regions";
  else if (l->kernarg_len && !l->kernarg) why = "kernarg length without bytes";
  if (why) {
    snprintf(r->detail, sizeof r->detail, "invalid launch: %s", why);
    r->cls = GASP_CLASS_ERROR;
    return -1;
  }
  return 0;
}

int gasp_emu_run(const gasp_emu_launch *l, gasp_emu_result *r) {
  if (check_launch(l, r)) return -1;
  emu_launch_state st;
  memset(&st, 0, sizeof st);
  st.l = l;
  st.r = r;
  r->cls = GASP_CLASS_PASS;
  st.prog.gen = emu_gen_of(l->mcpu);
  if (!st.prog.gen) {
    snprintf(r->detail, sizeof r->detail, "invalid launch: mcpu '%s' is not gfx900, gfx1030 or gfx1100", l->mcpu);
    r->cls = GASP_CLASS_ERROR;
    return -1;
  }
  const uint8_t *text;
  if (emu_elf_load(l->code_object, l->code_object_len, l->kernel, &st.kd, &text, r->detail, sizeof r->detail)) {
    r->cls = GASP_CLASS_LOAD;
    return 0;
  }
  st.prog.text = text;
  st.prog.text_len = st.kd.text_size;
  /* gfx10+: wave32 when kernel_code_properties ENABLE_WAVEFRONT_SIZE32 (bit 10); gfx9 is always wave64 */
  st.wave32 = st.prog.gen != EMU_GFX9 && (st.kd.code_properties & (1u << 10));
  /* rsrc1: GRANULATED_WORKITEM_VGPR_COUNT [5:0] in granules of 4 (gfx9, gfx10+ wave64) or 8 (gfx10+ wave32);
   * FLOAT_ROUND_MODE_32 [13:12]; FLOAT_DENORM_MODE_32 [17:16] (0 flush in+out, 1 flush out, 2 flush in,
   * 3 keep); IEEE_MODE [23] */
  unsigned gran = st.wave32 ? 8 : 4;
  st.prog.nvgpr = ((st.kd.rsrc1 & 0x3f) + 1) * gran;
  if (st.prog.nvgpr > 256) st.prog.nvgpr = 256;
  unsigned dm = (st.kd.rsrc1 >> 16) & 3;
  st.denorm_flush_src = dm == 0 || dm == 2;
  st.denorm_flush_dst = dm == 0 || dm == 1;
  st.ieee = (st.kd.rsrc1 >> 23) & 1;
  st.m0_code = st.prog.gen == EMU_GFX11 ? 125 : 124;
  st.null_code = st.prog.gen == EMU_GFX11 ? 124 : st.prog.gen == EMU_GFX10 ? 125 : 0xffff;
  if ((st.kd.rsrc1 >> 12) & 3) {
    r->cls = GASP_CLASS_UNSUPPORTED;
    snprintf(r->detail, sizeof r->detail, "kernel descriptor float round mode %u: only round-to-nearest-even is "
             "implemented by the emulator", (st.kd.rsrc1 >> 12) & 3);
    return 0;
  }
  if (emu_decode_prog(&st.prog)) {
    r->cls = GASP_CLASS_ERROR;
    snprintf(r->detail, sizeof r->detail, "out of memory decoding .text");
    emu_prog_free(&st.prog);
    return 0;
  }
  uint32_t grid[3], gsz[3];
  for (int i = 0; i < 3; i++) {
    grid[i] = l->grid_groups[i] ? l->grid_groups[i] : 1;
    gsz[i] = l->group_size[i] ? l->group_size[i] : 1;
  }
  uint64_t items = (uint64_t)gsz[0] * gsz[1] * gsz[2];
  if (items > 1024) {
    r->cls = GASP_CLASS_ERROR;
    snprintf(r->detail, sizeof r->detail, "invalid launch: %llu work-items per group (at most 1024)", (unsigned long long)items);
    emu_prog_free(&st.prog);
    return -1;
  }
  unsigned ws = st.wave32 ? 32 : 64, nw = (unsigned)((items + ws - 1) / ws);
  st.lds_size = st.kd.group_segment_fixed_size + l->dynamic_lds;
  if (st.lds_size > 65536) {
    r->cls = GASP_CLASS_RESOURCE;
    snprintf(r->detail, sizeof r->detail, "LDS of %u bytes exceeds the 64 KiB a workgroup can have", st.lds_size);
    emu_prog_free(&st.prog);
    return 0;
  }
  /* regions: the caller's, the kernarg segment, a dispatch packet (hsa_kernel_dispatch_packet_t) and a queue */
  uint8_t packet[64], queue[256], *karg = calloc(1, (l->kernarg_len ? l->kernarg_len : 4) + 256);
  st.regions = calloc((size_t)l->nregions + 3 + (size_t)st.kd.nseg, sizeof *st.regions);
  uint8_t *segmem[8] = {0};
  emu_wave *waves = calloc(nw, sizeof *waves);
  uint32_t (*vmem)[64] = calloc((size_t)nw * 259, sizeof *vmem);
  st.lds = calloc(1, st.lds_size ? st.lds_size : 1);
  if (!karg || !st.regions || !waves || !vmem || !st.lds) {
    r->cls = GASP_CLASS_ERROR;
    snprintf(r->detail, sizeof r->detail, "out of memory");
    goto out;
  }
  if (l->kernarg_len) memcpy(karg, l->kernarg, l->kernarg_len);
  memset(packet, 0, sizeof packet);
  memset(queue, 0, sizeof queue);
  uint16_t setup = (uint16_t)(l->group_size[2] > 1 || grid[2] > 1 ? 3 : l->group_size[1] > 1 || grid[1] > 1 ? 2 : 1);
  memcpy(packet + 2, &setup, 2);
  for (int i = 0; i < 3; i++) {
    uint16_t g = (uint16_t)gsz[i];
    uint32_t total = grid[i] * gsz[i];
    memcpy(packet + 4 + 2 * i, &g, 2);
    memcpy(packet + 12 + 4 * i, &total, 4);
  }
  memcpy(packet + 24, &st.kd.private_segment_fixed_size, 4);
  memcpy(packet + 28, &st.lds_size, 4);
  uint64_t ka = EMU_KERNARG_BASE;
  memcpy(packet + 40, &ka, 8);
  for (int i = 0; i < l->nregions; i++) st.regions[i] = l->regions[i];
  st.regions[l->nregions] = (gasp_emu_region){EMU_KERNARG_BASE, karg, l->kernarg_len};
  st.regions[l->nregions + 1] = (gasp_emu_region){EMU_DISPATCH_BASE, packet, sizeof packet};
  st.regions[l->nregions + 2] = (gasp_emu_region){EMU_QUEUE_BASE, queue, sizeof queue};
  st.nregions = l->nregions + 3;
  for (int i = 0; i < st.kd.nseg; i++) {
    segmem[i] = calloc(1, st.kd.seg[i].memsz ? st.kd.seg[i].memsz : 1);
    if (!segmem[i]) {
      r->cls = GASP_CLASS_ERROR;
      snprintf(r->detail, sizeof r->detail, "out of memory");
      goto out;
    }
    memcpy(segmem[i], (const uint8_t *)l->code_object + st.kd.seg[i].off, st.kd.seg[i].filesz);
    st.regions[st.nregions++] = (gasp_emu_region){EMU_CODE_BASE + st.kd.seg[i].vaddr, segmem[i], st.kd.seg[i].memsz};
  }
  st.budget = l->max_wave_instructions ? l->max_wave_instructions : 200000000ull;
  for (unsigned i = 0; i < nw; i++) {
    waves[i].v = vmem + (size_t)i * 259;
  }
  uint64_t executed = 0;
  for (uint32_t gz = 0; gz < grid[2] && !st.stop; gz++)
    for (uint32_t gy = 0; gy < grid[1] && !st.stop; gy++)
      for (uint32_t gx = 0; gx < grid[0] && !st.stop; gx++) {
        uint32_t gid[3] = {gx, gy, gz};
        /* LDS holds whatever the previous group left: poison, so a read before any write cannot pass as zero */
        memset(st.lds, 0xbd, st.lds_size ? st.lds_size : 1);
        for (unsigned i = 0; i < nw; i++) {
          unsigned first = i * ws, n = (unsigned)(items - first < ws ? items - first : ws);
          init_wave(&st, &waves[i], gid, first, n, gsz);
          waves[i].id = (int)(((uint64_t)(gz * grid[1] + gy) * grid[0] + gx) * nw + i);
        }
        /* run each wave until it ends or reaches a barrier; release the barrier when every live wave is there */
        for (;;) {
          unsigned live = 0, waiting = 0;
          for (unsigned i = 0; i < nw && !st.stop; i++) {
            emu_wave *w = &waves[i];
            while (!w->done && !w->at_barrier) {
              if (executed >= st.budget) {
                emu_fail(&st, w, GASP_CLASS_TIMEOUT, "instruction budget of %llu wave-instructions spent (wave %d at "
                         ".text+0x%llx): endless loop or far too much work", (unsigned long long)st.budget, w->id,
                         (unsigned long long)w->pc);
                break;
              }
              executed++;
              if (emu_exec_one(&st, w)) break;
            }
            if (st.stop) break;
            if (!w->done) live++, waiting += w->at_barrier;
          }
          if (st.stop || !live) break;
          if (waiting == live)
            for (unsigned i = 0; i < nw; i++) waves[i].at_barrier = 0;
        }
      }
  r->wave_instructions = executed;
out:
  for (int i = 0; i < 8; i++) free(segmem[i]);
  free(karg);
  free(st.regions);
  free(waves);
  free(vmem);
  free(st.lds);
  emu_prog_free(&st.prog);
  return 0;
}
