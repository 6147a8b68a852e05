/*
 * tracehunt: print_entries(), hist_trigger_entry_print(),
 * hist_trigger_print_key(), hist_trigger_print_val() and the Totals of
 * hist_trigger_show() (kernel/trace/trace_events_hist.c), over the map
 * model/tracing_map.c reads and the order lib/histsort.c gives.
 */
#include "render/hist_text.h"
#include "model/tracing_map.h"
#include "model/events.h"

#define FL(f, x)	((f)->flags & (f)->fl[TH_HFL_##x])
#define TH_HIST_STACK_DEPTH	16	/* HIST_STACKTRACE_DEPTH */

static uint64_t th_hist_u64(const unsigned char *key, unsigned int off,
			    unsigned int key_size)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < 8 && off + i < key_size; i++)
		v |= (uint64_t)key[off + i] << (8 * i);
	return v;
}

/* hist_trigger_stacktrace_print() */
static void th_hist_stack(const unsigned char *key, unsigned int off,
			  unsigned int key_size)
{
	char sym[512];
	unsigned int i;
	uint64_t ip;

	for (i = 0; i < TH_HIST_STACK_DEPTH &&
		    off + (i + 1) * 8 <= key_size; i++) {
		ip = th_hist_u64(key, off + i * 8, key_size);
		if (!ip)
			return;
		fprintf(fp, "%*c%s\n", 9, ' ',
			th_ksym_pS((ulong)ip, sym, sizeof(sym)));
	}
}

/* One key field of hist_trigger_print_key(); TRUE when multiline */
static int th_hist_key(const struct th_hist *h, const struct th_hist_field *f,
		       const struct th_tmap *t, const struct th_tmap_elt *e)
{
	unsigned int ks = t->m.key_size;
	uint64_t v = th_hist_u64(e->key, f->offset, ks);
	char buf[512];

	if (FL(f, HEX)) {
		fprintf(fp, "%s: %llx", f->name, (unsigned long long)v);
	} else if (FL(f, SYM)) {
		fprintf(fp, "%s: [%llx] %-45s", f->name, (unsigned long long)v,
			th_ksym_ps((ulong)v, buf, sizeof(buf)));
	} else if (FL(f, SYM_OFFSET)) {
		fprintf(fp, "%s: [%llx] %-55s", f->name, (unsigned long long)v,
			th_ksym_pS((ulong)v, buf, sizeof(buf)));
	} else if (FL(f, EXECNAME)) {
		fprintf(fp, "%s: %-16s[%10llu]", f->name, e->comm,
			(unsigned long long)v);
	} else if (FL(f, SYSCALL)) {
		if (!th_syscall_name(v, buf, sizeof(buf)) || !buf[0])
			th_strlcpy(buf, "unknown_syscall", sizeof(buf));
		fprintf(fp, "%s: %-30s[%3llu]", f->name, buf,
			(unsigned long long)v);
	} else if (FL(f, STACKTRACE)) {
		fputs(h->common_stacktrace ? "common_stacktrace:\n" :
		      "stacktrace:\n", fp);
		th_hist_stack(e->key, f->offset, ks);
		return TRUE;
	} else if (FL(f, LOG2)) {
		fprintf(fp, "%s: ~ 2^%-2llu", f->name, (unsigned long long)v);
	} else if (FL(f, BUCKET)) {
		fprintf(fp, "%s: ~ %llu-%llu", f->name, (unsigned long long)v,
			(unsigned long long)(v + f->buckets - 1));
	} else if (FL(f, STRING)) {
		fprintf(fp, "%s: %-50.*s", f->name,
			f->offset < ks ? (int)(ks - f->offset) : 0,
			f->offset < ks ? (const char *)e->key + f->offset : "");
	} else {
		fprintf(fp, "%s: %10llu", f->name, (unsigned long long)v);
	}
	return FALSE;
}

/* __get_percentage(): 100 times the percentage of VAL in TOTAL */
static unsigned int th_hist_pc(uint64_t val, uint64_t total)
{
	if (!total)
		return val ? UINT_MAX : 0;
	if (val < UINT64_MAX / 10000)
		return (unsigned int)(val * 10000 / total);
	total /= 10000;
	if (!total)
		return val ? UINT_MAX : 0;
	return (unsigned int)(val / total);
}

struct th_hist_stat {
	uint64_t max, total;
};

/* hist_trigger_print_val() */
static void th_hist_val(const char *name, const struct th_hist_field *f,
			const struct th_hist_stat *st, uint64_t val)
{
	unsigned int pc, len, i;
	char bar[21];

	if (f && FL(f, PERCENT)) {
		pc = th_hist_pc(val, st->total);
		if (pc == UINT_MAX)
			fprintf(fp, " %s (%%):[ERROR]", name);
		else
			fprintf(fp, " %s (%%): %3u.%02u", name, pc / 100,
				pc % 100);
	} else if (f && FL(f, GRAPH)) {
		/* __fill_bar_str() */
		len = th_hist_pc(val, st->max);
		if (len == UINT_MAX) {
			th_strlcpy(bar, "[ERROR]", sizeof(bar));
		} else {
			len = len * 20 / 10000;
			for (i = 0; i < len && i < 20; i++)
				bar[i] = '#';
			while (i < 20)
				bar[i++] = ' ';
			bar[20] = '\0';
		}
		fprintf(fp, " %s: %20s", name, bar);
	} else if (f && FL(f, HEX)) {
		fprintf(fp, " %s: %10llx", name, (unsigned long long)val);
	} else {
		fprintf(fp, " %s: %10llu", name, (unsigned long long)val);
	}
}

/* hist_trigger_entry_print() */
static void th_hist_entry(const struct th_hist *h,
			  const struct th_hist_field *fs,
			  const struct th_hist_stat *st,
			  const struct th_tmap *t,
			  const struct th_tmap_elt *e)
{
	unsigned int i;
	int multi = FALSE;

	fputs("{ ", fp);
	for (i = h->n_vals; i < h->n_fields; i++) {
		if (i > h->n_vals)
			fputs(", ", fp);
		multi |= th_hist_key(h, &fs[i], t, e);
	}
	fputs(multi ? "}" : " }", fp);
	if (!h->no_hitcount)
		th_hist_val("hitcount", NULL, &st[0], e->sums[0]);
	for (i = 1; i < h->n_vals; i++) {
		if (FL(&fs[i], VAR) || FL(&fs[i], EXPR))
			continue;
		fputc(' ', fp);
		th_hist_val(fs[i].name, &fs[i], &st[i], e->sums[i]);
	}
	fputc('\n', fp);
}

/* The stats print_entries() gathers for .percent and .graph */
static void th_hist_stats(const struct th_hist *h,
			  const struct th_hist_field *fs,
			  const struct hs_entry *se, size_t n,
			  struct th_hist_stat *st)
{
	unsigned int j;
	size_t i;

	for (j = 0; j < h->n_vals; j++) {
		if (!FL(&fs[j], PERCENT) && !FL(&fs[j], GRAPH))
			continue;
		for (i = 0; i < n; i++) {
			uint64_t v = se[i].sums[j];

			st[j].total += v;
			if (st[j].max < v)
				st[j].max = v;
		}
	}
}

/* The entries of T in the order print_entries() prints them */
static struct hs_entry *th_hist_sorted(const struct th_hist *h,
				       const struct th_tmap *t)
{
	struct hs_entry *se = calloc(t->n ? t->n : 1, sizeof(*se));
	struct hs_key keys[16];
	unsigned int i;

	if (!se)
		return NULL;
	for (i = 0; i < t->n; i++) {
		se[i].key = t->elts[i].key;
		se[i].sums = t->elts[i].sums;
		se[i].priv = &t->elts[i];
	}
	for (i = 0; i < h->n_sort_keys && i < 16; i++) {
		keys[i].idx = h->sort[i].idx;
		keys[i].descending = h->sort[i].descending;
	}
	hs_sort(&t->m, se, t->n, keys, i, t->algo);
	return se;
}

/**
 * th_hist_entries_print - print_entries() and the Totals of
 * hist_trigger_show()
 * @h: the hist trigger (th_hist_read())
 */
int th_hist_entries_print(const struct th_hist *h)
{
	struct th_hist_field *fs = calloc(h->n_fields ? h->n_fields : 1,
					  sizeof(*fs));
	struct th_hist_stat st[HS_FIELDS_MAX];
	struct hs_entry *se = NULL;
	struct th_tmap t;
	unsigned int i;
	size_t k;
	int ok = fs != NULL && h->n_vals <= HS_FIELDS_MAX;

	for (i = 0; ok && i < h->n_fields; i++)
		ok = th_hist_field_read(h->fields[i], &fs[i]);
	if (!ok || !th_tmap_read(h->map, &t)) {
		free(fs);
		return FALSE;
	}
	se = th_hist_sorted(h, &t);
	if (!se) {
		th_tmap_free(&t);
		free(fs);
		return FALSE;
	}
	memset(st, 0, sizeof(st));
	th_hist_stats(h, fs, se, t.n, st);
	for (k = 0; k < t.n; k++)
		th_hist_entry(h, fs, st, &t, se[k].priv);
	fprintf(fp, "\nTotals:\n    Hits: %llu\n    Entries: %u\n"
		"    Dropped: %llu\n", (unsigned long long)t.hits,
		(unsigned int)t.n, (unsigned long long)t.drops);
	free(se);
	th_tmap_free(&t);
	free(fs);
	return TRUE;
}
