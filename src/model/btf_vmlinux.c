/*
 * tracehunt: the vmlinux BTF of the dump (btf_vmlinux.h): the bytes
 * between __start_BTF and __stop_BTF, read in pieces, indexed once.
 */
#include "model/btf_vmlinux.h"

/* the most a .BTF section is believed to hold (7.2: 5.2 MB) */
#define TH_BTF_MAX	(256UL << 20)
#define TH_BTF_CHUNK	(1UL << 20)

static struct {
	int read;
	struct bt_btf btf;
	unsigned char *data;
	int ok;
} th_kbtf;

static void th_btf_load(void)
{
	ulong start = th_ksymbol("__start_BTF");
	ulong stop = th_ksymbol("__stop_BTF");
	ulong n, at;

	if (!start || !stop) {
		th_warn("the dump has no BTF (__start_BTF, __stop_BTF): the "
			"functions' arguments print as \"()\"");
		return;
	}
	if (stop <= start || stop - start > TH_BTF_MAX) {
		th_damaged("BTF", start, "__stop_BTF %lx makes a section of "
			   "%ld bytes", stop, (long)(stop - start));
		return;
	}
	n = stop - start;
	th_kbtf.data = malloc(n);
	if (!th_kbtf.data)
		return;
	for (at = 0; at < n; at += TH_BTF_CHUNK) {
		ulong len = MIN(TH_BTF_CHUNK, n - at);

		if (!th_read(start + at, th_kbtf.data + at, len, "BTF")) {
			th_warn("the dump's BTF at %lx cannot be read (%lx): "
				"the functions' arguments print as \"()\"",
				start, start + at);
			return;
		}
	}
	if (bt_open(&th_kbtf.btf, th_kbtf.data, n) < 0) {
		th_damaged("BTF", start, "not decoded: %s", th_kbtf.btf.err);
		return;
	}
	th_kbtf.ok = TRUE;
}

const struct bt_btf *th_btf_vmlinux(void)
{
	const char *tag;

	if (!th_kbtf.read) {
		th_kbtf.read = TRUE;
		tag = th_damage_tag("btf");
		th_btf_load();
		th_damage_tag(tag);
		if (!th_kbtf.ok) {
			free(th_kbtf.data);
			th_kbtf.data = NULL;
		}
	} else
		th_damage_replay("btf");
	return th_kbtf.ok ? &th_kbtf.btf : NULL;
}
