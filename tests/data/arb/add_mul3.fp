!!ARBfp1.0
# result = (a + b) * 3.0, a from texture unit 0 and b from unit 1, one texel per pixel.
TEMP a, b, s;
TEX a, fragment.texcoord[0], texture[0], 2D;
TEX b, fragment.texcoord[0], texture[1], 2D;
ADD s, a, b;
MUL result.color, s, 3.0;
END
