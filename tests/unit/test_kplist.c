/*
 * Unit tests for lib/kplist.c.  The k/r lines are also checked against the
 * live kernel by tests/test_kprobes.py; the jprobe path exists in no
 * reachable Debian kernel, so it is covered here on constructed input.
 */
#include "unit.h"
#include "kplist.h"

int main(void)
{
	struct kpl_syms s = { 0xffffffff811a2120ULL, 0xffffffff81150000ULL };
	struct kpl_syms none = { 0xffffffff811a2120ULL, 0 };
	struct kpl_probe p = { 0xffffffff813669e0ULL, 0xffffffffc0201000ULL,
			       KPL_FLAG_FTRACE, KPL_FLAG_FTRACE };
	char out[256];

	CHECK(kpl_type(&p, &s) == 'k');
	kpl_format(&p, 'k', "vfs_read", 0, NULL, NULL, out, sizeof(out));
	CHECK_STR(out, "ffffffff813669e0  k  vfs_read+0x0    [FTRACE]\n");

	/* a jprobe: setjmp_pre_handler as the pre handler (kernels < 4.15) */
	p.pre_handler = 0xffffffff81150000ULL;
	p.flags = p.site_flags = 0;
	CHECK(kpl_type(&p, &s) == 'j');
	CHECK(kpl_type(&p, &none) == 'k');
	kpl_format(&p, 'j', "do_fork", 0, NULL, NULL, out, sizeof(out));
	CHECK_STR(out, "ffffffff813669e0  j  do_fork+0x0    \n");

	/* kretprobe, disabled, in a module function */
	p.pre_handler = 0xffffffff811a2120ULL;
	p.flags = KPL_FLAG_DISABLED;
	p.site_flags = KPL_FLAG_DISABLED | KPL_FLAG_FTRACE;
	CHECK(kpl_type(&p, &s) == 'r');
	kpl_format(&p, 'r', "th_fn", 0x10, "th_mod", NULL, out, sizeof(out));
	CHECK_STR(out, "ffffffff813669e0  r  th_fn+0x10  th_mod [DISABLED][FTRACE]\n");

	/* gone wins over disabled; an optimized aggregate child */
	p.flags = KPL_FLAG_GONE | KPL_FLAG_DISABLED;
	p.site_flags = KPL_FLAG_OPTIMIZED;
	kpl_format(&p, 'k', "f", 5, "", NULL, out, sizeof(out));
	CHECK_STR(out, "ffffffff813669e0  k  f+0x5    [GONE][OPTIMIZED]\n");

	/* no symbol: the %pS text */
	p.flags = p.site_flags = 0;
	kpl_format(&p, 'k', NULL, 0, NULL, "0xffffffff813669e0", out,
		   sizeof(out));
	CHECK_STR(out, "ffffffff813669e0  k  0xffffffff813669e0 \n");

	/* too small a buffer is refused */
	CHECK(kpl_format(&p, 'k', "vfs_read", 0, NULL, NULL, out, 10) == -1);
	return unit_done("test_kplist");
}
