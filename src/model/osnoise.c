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
