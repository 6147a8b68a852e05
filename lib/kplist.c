/*
 * tracehunt: kprobes/list lines (see kplist.h).
 */
#include <stdio.h>
#include "kplist.h"

char kpl_type(const struct kpl_probe *p, const struct kpl_syms *s)
{
	if (s->pre_handler_kretprobe &&
	    p->pre_handler == s->pre_handler_kretprobe)
		return 'r';
	if (s->setjmp_pre_handler && p->pre_handler == s->setjmp_pre_handler)
		return 'j';
	return 'k';
}

int kpl_format(const struct kpl_probe *p, char type, const char *sym,
	       unsigned long off, const char *mod, const char *ps,
	       char *out, size_t len)
{
	unsigned int f = p->flags, sf = p->site_flags;
	int n;

	if (sym)
		n = snprintf(out, len, "%016llx  %c  %s+0x%x  %s ",
			     (unsigned long long)p->addr, type, sym,
			     (unsigned int)off, mod && *mod ? mod : " ");
	else
		n = snprintf(out, len, "%016llx  %c  %s ",
			     (unsigned long long)p->addr, type, ps ? ps : "");
	if (n < 0 || (size_t)n >= len)
		return -1;
	n += snprintf(out + n, len - n, "%s%s%s%s\n",
		      (f & KPL_FLAG_GONE) ? "[GONE]" : "",
		      ((f & KPL_FLAG_DISABLED) && !(f & KPL_FLAG_GONE)) ?
		      "[DISABLED]" : "",
		      (sf & KPL_FLAG_OPTIMIZED) ? "[OPTIMIZED]" : "",
		      (sf & KPL_FLAG_FTRACE) ? "[FTRACE]" : "");
	return (size_t)n < len ? n : -1;
}
