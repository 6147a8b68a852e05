/*
 * tracehunt: the osnoise, timerlat and hwlat tracers' state.  The only
 * file that reads struct osnoise_data and struct hwlat_data.
 */
#include "model/osnoise.h"

static struct {
	int init;
	long tainted;
} oso;

static void th_osnoise_off(void)
{
	oso.init = 1;
	oso.tainted = th_member("osnoise_data", "tainted");
}

int th_osnoise_tainted(void)
{
	ulong d = th_ksymbol("osnoise_data");
	unsigned char v;

	if (!oso.init)
		th_osnoise_off();
	if (!d || oso.tainted < 0 ||
	    !th_read(d + oso.tainted, &v, 1, "osnoise_data.tainted"))
		return -1;
	if (v > 1)
		th_damaged("osnoise_data", d, "tainted %u is no bool", v);
	return v != 0;
}

/**
 * th_min_max_value - *param.val of the struct trace_min_max_param PARAM
 * (a static of trace_hwlat.c or trace_osnoise.c: the i_private of the file
 * trace_min_max_read() prints)
 * @param: the param's symbol ("hwlat_width", "osnoise_period", ...)
 * @val: the u64 it points to
 *
 * Return: FALSE when the kernel has no such param or it cannot be read.
 */
int th_min_max_value(const char *param, uint64_t *val)
{
	static long off_val = -2;
	ulong p = th_ksymbol(param), v;

	if (off_val == -2)
		off_val = th_member("trace_min_max_param", "val");
	return p && off_val >= 0 &&
	       th_read_ulong(p + off_val, &v, "trace_min_max_param.val") &&
	       v && th_read(v, val, sizeof(*val), "trace_min_max_param *val");
}

/* The string ARR[I] of a static char *ARR[] into BUF. */
static int th_str_of(const char *arr, int i, char *buf, int len)
{
	ulong a = th_ksymbol(arr), p;
	long n = th_array_len(arr);

	buf[0] = '\0';
	return a && n > 0 && i >= 0 && i < n &&
	       th_read_ulong(a + i * sizeof(ulong), &p, arr) && p &&
	       th_read_cstr(p, buf, len, arr);
}

/**
 * th_hwlat_modes - the hwlat tracer's thread modes (thread_mode_str[])
 * and the current one (hwlat_data.thread_mode)
 * @names: room for MAX names of 32 bytes
 * @max: its size
 * @cur: the current mode
 *
 * Return: the number of modes, -1 without the hwlat tracer.
 */
int th_hwlat_modes(char (*names)[32], int max, int *cur)
{
	static long off = -2;
	ulong d = th_ksymbol("hwlat_data");
	long n = th_array_len("thread_mode_str");
	int i;

	if (off == -2)
		off = th_member("hwlat_data", "thread_mode");
	if (!d || off < 0 || n <= 0 || n > max ||
	    !th_read_int(d + off, cur, "hwlat_data.thread_mode"))
		return -1;
	for (i = 0; i < n; i++)
		if (!th_str_of("thread_mode_str", i, names[i], 32))
			return -1;
	return n;
}

/**
 * th_osnoise_options - osnoise_options (a bit per OSN_*) and their names
 * (osnoise_options_str[OSN_MAX])
 * @names: room for MAX names of 32 bytes
 * @max: its size
 * @opts: the bits
 *
 * Return: the number of options (OSN_MAX), -1 without the osnoise tracer.
 */
int th_osnoise_options(char (*names)[32], int max, ulong *opts)
{
	ulong o = th_ksymbol("osnoise_options");
	long n = th_array_len("osnoise_options_str");
	int i;

	if (!o || n <= 0 || n > max ||
	    !th_read_ulong(o, opts, "osnoise_options"))
		return -1;
	for (i = 0; i < n; i++)
		if (!th_str_of("osnoise_options_str", i, names[i], 32))
			return -1;
	return n;
}

/**
 * th_osnoise_cpumask - osnoise_cpumask as a bitmap of
 * at most NBITS CPUs, and nr_cpu_ids, the bits the kernel prints
 * @bits: room for NWORDS longs
 * @nwords: its size
 * @nbits: nr_cpu_ids
 *
 * Return: FALSE without the osnoise tracer or when unreadable.
 */
int th_osnoise_cpumask(ulong *bits, int nwords, int *nbits)
{
	ulong m = th_ksymbol("osnoise_cpumask"), n = th_ksymbol("nr_cpu_ids");
	unsigned int ids;

	if (!m || !n || !th_read(n, &ids, sizeof(ids), "nr_cpu_ids") ||
	    ids == 0 || ids > (unsigned)nwords * 8 * sizeof(ulong))
		return FALSE;
	*nbits = ids;
	return th_read(m, bits, ((ids + 63) / 64) * sizeof(ulong),
		       "osnoise_cpumask");
}
