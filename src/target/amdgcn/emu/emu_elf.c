/* The code object: an ELF64 shared object (AMDGPUUsage, "Code Object"). Finds .text, the kernel symbol and
 * its 64-byte kernel descriptor "<kernel>.kd", with every offset bounds-checked: the object may be garbage. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "emu_internal.h"

static int in_range(size_t len, uint64_t off, uint64_t size) { return off <= len && size <= len - off; }

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

int emu_elf_load(const void *obj, size_t len, const char *kernel, emu_kd *kd, const uint8_t **text, char *why,
                 size_t why_cap) {
  const uint8_t *b = obj;
  memset(kd, 0, sizeof *kd);
  if (!obj || len < sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG) || b[EI_CLASS] != ELFCLASS64) {
    snprintf(why, why_cap, "code object is not an ELF64 file");
    return -1;
  }
  Elf64_Ehdr eh;
  memcpy(&eh, b, sizeof eh);
  if (eh.e_machine != EM_AMDGPU) {
    snprintf(why, why_cap, "code object is not for AMDGPU (e_machine %u)", eh.e_machine);
    return -1;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || !in_range(len, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)) ||
      eh.e_shstrndx >= eh.e_shnum) {
    snprintf(why, why_cap, "code object has no valid section table");
    return -1;
  }
  Elf64_Shdr sh[eh.e_shnum ? eh.e_shnum : 1];
  memcpy(sh, b + eh.e_shoff, (size_t)eh.e_shnum * sizeof(Elf64_Shdr));
  const Elf64_Shdr *strs = &sh[eh.e_shstrndx];
  if (!in_range(len, strs->sh_offset, strs->sh_size)) {
    snprintf(why, why_cap, "section names out of the file");
    return -1;
  }
  int text_i = -1, sym_i = -1;
  for (int i = 0; i < eh.e_shnum; i++) {
    if (sh[i].sh_name >= strs->sh_size) continue;
    const char *nm = (const char *)b + strs->sh_offset + sh[i].sh_name;
    size_t room = strs->sh_size - sh[i].sh_name;
    if (sh[i].sh_type == SHT_PROGBITS && strnlen(nm, room) == 5 && !strncmp(nm, ".text", 5)) text_i = i;
    if (sh[i].sh_type == SHT_SYMTAB || (sh[i].sh_type == SHT_DYNSYM && sym_i < 0)) sym_i = i;
  }
  if (text_i < 0 || sym_i < 0 || !in_range(len, sh[text_i].sh_offset, sh[text_i].sh_size) ||
      !in_range(len, sh[sym_i].sh_offset, sh[sym_i].sh_size) || sh[sym_i].sh_link >= eh.e_shnum) {
    snprintf(why, why_cap, "code object lacks .text or a symbol table");
    return -1;
  }
  const Elf64_Shdr *ss = &sh[sh[sym_i].sh_link];
  if (!in_range(len, ss->sh_offset, ss->sh_size)) {
    snprintf(why, why_cap, "symbol names out of the file");
    return -1;
  }
  char kdname[256];
  snprintf(kdname, sizeof kdname, "%s.kd", kernel);
  uint64_t nsym = sh[sym_i].sh_size / sizeof(Elf64_Sym);
  int found = 0;
  Elf64_Sym kds;
  for (uint64_t i = 0; i < nsym; i++) {
    Elf64_Sym s;
    memcpy(&s, b + sh[sym_i].sh_offset + i * sizeof s, sizeof s);
    if (s.st_name >= ss->sh_size) continue;
    const char *nm = (const char *)b + ss->sh_offset + s.st_name;
    if (strnlen(nm, ss->sh_size - s.st_name) == strlen(kdname) && !strcmp(nm, kdname)) {
      kds = s;
      found = 1;
      break;
    }
  }
  if (!found) {
    snprintf(why, why_cap, "kernel descriptor symbol '%s' not found in the code object", kdname);
    return -1;
  }
  /* the descriptor's file offset: through the section holding its address */
  if (kds.st_shndx == SHN_UNDEF || kds.st_shndx >= eh.e_shnum) {
    snprintf(why, why_cap, "'%s' is not defined in a section", kdname);
    return -1;
  }
  const Elf64_Shdr *ks = &sh[kds.st_shndx];
  if (kds.st_value < ks->sh_addr || kds.st_value - ks->sh_addr > ks->sh_size ||
      ks->sh_size - (kds.st_value - ks->sh_addr) < 64 || !in_range(len, ks->sh_offset + (kds.st_value - ks->sh_addr), 64)) {
    snprintf(why, why_cap, "'%s' does not hold a 64-byte kernel descriptor", kdname);
    return -1;
  }
  const uint8_t *d = b + ks->sh_offset + (kds.st_value - ks->sh_addr);
  /* AMDGPUUsage "Kernel Descriptor for GFX6-GFX12": byte offsets of each field */
  kd->group_segment_fixed_size = rd32(d + 0);
  kd->private_segment_fixed_size = rd32(d + 4);
  kd->kernarg_size = rd32(d + 8);
  kd->kernel_code_entry_byte_offset = (int64_t)rd64(d + 16);
  kd->rsrc3 = rd32(d + 44);
  kd->rsrc1 = rd32(d + 48);
  kd->rsrc2 = rd32(d + 52);
  kd->code_properties = (uint16_t)(d[56] | d[57] << 8);
  kd->kd_vaddr = kds.st_value;
  kd->text_vaddr = sh[text_i].sh_addr;
  kd->text_off = sh[text_i].sh_offset;
  kd->text_size = sh[text_i].sh_size;
  uint64_t entry = kd->kd_vaddr + (uint64_t)kd->kernel_code_entry_byte_offset;
  if (entry < kd->text_vaddr || entry >= kd->text_vaddr + kd->text_size || (entry & 3)) {
    snprintf(why, why_cap, "kernel entry 0x%llx (descriptor + %lld) is not inside .text", (unsigned long long)entry,
             (long long)kd->kernel_code_entry_byte_offset);
    return -1;
  }
  kd->entry = entry - kd->text_vaddr;
  *text = b + kd->text_off;
  return 0;
}
