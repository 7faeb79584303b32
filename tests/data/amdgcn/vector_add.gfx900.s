  s_load_dword s5, s[0:1], 0x18        ; n
  s_load_dword s6, s[0:1], 0x2c        ; group size x (u16)
  s_waitcnt lgkmcnt(0)
  s_and_b32 s6, s6, 0xffff
  s_mul_i32 s6, s2, s6
  v_add_u32_e32 v1, s6, v0
  v_cmp_gt_u32_e32 vcc, s5, v1
  s_and_saveexec_b64 s[12:13], vcc
  s_cbranch_execz .LBB0_2
  s_load_dwordx4 s[8:11], s[0:1], 0x0
  s_load_dwordx2 s[14:15], s[0:1], 0x10
  v_lshlrev_b32_e32 v1, 2, v1
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[8:9]
  global_load_dword v3, v1, s[10:11]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v3
  global_store_dword v1, v2, s[14:15]
.LBB0_2:
  s_endpgm
