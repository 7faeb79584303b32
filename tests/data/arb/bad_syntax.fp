!!ARBfp1.0
TEMP a;
MOV a, fragment.color;
FOO result.color, a;
END
