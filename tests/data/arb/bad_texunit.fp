!!ARBfp1.0
TEX result.color, fragment.texcoord[0], texture[99], 2D;
END
