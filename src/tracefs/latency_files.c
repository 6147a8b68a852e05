/*
 * tracehunt: the latency tracers' own directories, hwlat_detector/ (width,
 * window, mode: kernel/trace/trace_hwlat.c) and osnoise/ (cpus, period_us,
 * runtime_us, stop_tracing_us, stop_tracing_total_us, print_stack,
 * timerlat_period_us, timerlat_align_us, options: trace_osnoise.c), of
 * the top level only.
 */
#include "tracefs/tracefs.h"
#include "model/osnoise.h"

/* The trace_min_max_param each value file shows (its i_private). */
static const struct {
	const char *file, *param;
} th_min_max_files[] = {
	{ "hwlat_detector/width", "hwlat_width" },
	{ "hwlat_detector/window", "hwlat_window" },
	{ "osnoise/period_us", "osnoise_period" },
	{ "osnoise/runtime_us", "osnoise_runtime" },
	{ "osnoise/stop_tracing_us", "osnoise_stop_tracing_in" },
	{ "osnoise/stop_tracing_total_us", "osnoise_stop_tracing_total" },
	{ "osnoise/print_stack", "osnoise_print_stack" },
	{ "osnoise/timerlat_period_us", "timerlat_period" },
	{ "osnoise/timerlat_align_us", "timerlat_align_us" },
};
#define TH_NMINMAX (sizeof(th_min_max_files) / sizeof(th_min_max_files[0]))

static const char *th_min_max_param(const char *file)
{
	unsigned i;

	for (i = 0; i < TH_NMINMAX; i++)
		if (strcmp(file, th_min_max_files[i].file) == 0)
			return th_min_max_files[i].param;
	return NULL;
}

/**
 * th_missing_min_max - a value file of hwlat_detector/ or osnoise/: its
 * trace_min_max_param is in the kernel (CONFIG_HWLAT_TRACER,
 * CONFIG_OSNOISE_TRACER, CONFIG_TIMERLAT_TRACER)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_min_max(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len)
{
	const char *param = th_min_max_param(ref->file);

	if (param && th_ksymbol(param))
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: this kernel has no %s (its "
		 "tracer is not built)", ref->file, param ? param : "such file");
	return buf;
}

/**
 * th_cat_min_max - trace_min_max_read(): "%llu\n" of *param.val
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_min_max(struct th_tr *tr, const struct th_tref *ref)
{
	const char *param = th_min_max_param(ref->file);
	uint64_t v;

	if (!param || !th_min_max_value(param, &v)) {
		fprintf(fp, "ftrace cat: %s: %s cannot be read\n", ref->file,
			param ? param : "its value");
		return;
	}
	fprintf(fp, "%llu\n", (unsigned long long)v);
}

/**
 * th_missing_hwlat_mode - hwlat_detector/mode: the hwlat tracer's thread
 * modes (thread_mode_str, v5.14)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_hwlat_mode(struct th_tr *tr, const struct th_tref *ref,
				  char *buf, size_t len)
{
	if (th_ksymbol("thread_mode_str") && th_ksymbol("hwlat_data"))
		return NULL;
	return "ftrace cat: hwlat_detector/mode: this kernel has no hwlat "
	       "thread modes";
}

/**
 * th_cat_hwlat_mode - s_mode_show() and s_mode_stop(): the modes, the
 * current one in brackets
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_hwlat_mode(struct th_tr *tr, const struct th_tref *ref)
{
	char names[8][32];
	int cur, n = th_hwlat_modes(names, 8, &cur), i;

	if (n < 0) {
		fprintf(fp, "ftrace cat: %s: hwlat_data cannot be read\n",
			ref->file);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(fp, i == cur ? "[%s]%s" : "%s%s", names[i],
			i < n - 1 ? " " : "");
	fputc('\n', fp);
}

/**
 * th_missing_osnoise - osnoise/options and osnoise/cpus: the osnoise
 * tracer (CONFIG_OSNOISE_TRACER)
 * @tr: the trace array
 * @ref: the file
 * @buf: room for the reason
 * @len: its size
 */
const char *th_missing_osnoise(struct th_tr *tr, const struct th_tref *ref,
			       char *buf, size_t len)
{
	const char *sym = strcmp(ref->file, "osnoise/cpus") == 0 ?
			  "osnoise_cpumask" : "osnoise_options_str";

	if (th_ksymbol(sym))
		return NULL;
	snprintf(buf, len, "ftrace cat: %s: this kernel has no %s (no osnoise "
		 "tracer)", ref->file, sym);
	return buf;
}

/**
 * th_cat_osnoise_options - s_options_show() over OSN_DEFAULTS..OSN_MAX-1
 * and s_options_stop(): each name, with NO_ when off (DEFAULTS: on while
 * the options are OSN_DEFAULT_OPTIONS, OSNOISE_WORKLOAD alone), a space
 * after each
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_osnoise_options(struct th_tr *tr, const struct th_tref *ref)
{
	char names[16][32];
	ulong opts;
	int n = th_osnoise_options(names, 16, &opts), i, on;

	if (n < 0) {
		fprintf(fp, "ftrace cat: %s: osnoise_options cannot be read\n",
			ref->file);
		return;
	}
	for (i = 0; i < n; i++) {
		/* OSN_DEFAULT_OPTIONS: the bit of OSNOISE_WORKLOAD (1) */
		on = i == 0 ? opts == 0x2 : (opts >> i) & 1;
		fprintf(fp, "%s%s ", on ? "" : "NO_", names[i]);
	}
	fputc('\n', fp);
}

/**
 * th_cat_osnoise_cpus - osnoise_cpus_read(): "%*pbl\n" of osnoise_cpumask
 * (ranges "0-1,3")
 * @tr: the trace array
 * @ref: the file
 */
void th_cat_osnoise_cpus(struct th_tr *tr, const struct th_tref *ref)
{
	ulong bits[NR_CPUS / 64 + 1];
	int nbits, i, j, first = TRUE;

	if (!th_osnoise_cpumask(bits, NR_CPUS / 64 + 1, &nbits)) {
		fprintf(fp, "ftrace cat: %s: osnoise_cpumask cannot be read\n",
			ref->file);
		return;
	}
#define TH_BIT(n) ((bits[(n) / 64] >> ((n) % 64)) & 1)
	for (i = 0; i < nbits; i = j) {
		if (!TH_BIT(i)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < nbits && TH_BIT(j); j++)
			;
		fprintf(fp, j - 1 > i ? "%s%d-%d" : "%s%d", first ? "" : ",",
			i, j - 1);
		first = FALSE;
	}
#undef TH_BIT
	fputc('\n', fp);
}
