!!ARBfp1.0
MOV result.color, missing;
END
