"""The kernel-limit engine: analysis of log k(x, t z) per sign region (analysis), the numeric
cross-check (numeric_check) and the null sets of key pairs where (LIM) fails (null_sets). The rules
that conclude from them are in uapcheck/rules/limit.py."""
