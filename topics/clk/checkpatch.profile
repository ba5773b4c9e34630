# Message types checkpatch may report on this topic, each with its reason.
CAMELCASE  BUSx_NR_CLK is clk-exynos5433.c's existing constant for the BUS CMUs' clock count; patch 10 moves its use out of a macro, it does not name it
