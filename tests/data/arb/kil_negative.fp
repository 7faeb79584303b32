!!ARBfp1.0
# Pixels whose texel has x < 0 are discarded and keep the framebuffer's poison.
TEMP a;
TEX a, fragment.texcoord[0], texture[0], 2D;
KIL a.xxxx;
MOV result.color, a;
END
