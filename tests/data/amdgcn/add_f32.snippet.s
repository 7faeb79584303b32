v_add_f32_e32 v4, v2, v3
