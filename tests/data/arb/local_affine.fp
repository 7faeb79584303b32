!!ARBfp1.0
# result = a * program.local[0] + program.local[1]
PARAM scale = program.local[0];
PARAM bias = program.local[1];
TEMP a;
TEX a, fragment.texcoord[0], texture[0], 2D;
MAD result.color, a, scale, bias;
END
