/*
 * tracehunt: the model's one reader of the BPF dispatchers (struct
 * bpf_dispatcher, kernel/bpf/dispatcher.c): DEFINE_BPF_DISPATCHER(xdp)'s
 * bpf_dispatcher_xdp, whose image calls the XDP programs directly.
 * Until Linux kernel commit c86df29d11df ("bpf: Convert BPF_DISPATCHER to
 * use static_call() (not ftrace)") (in v6.2, and in the stable kernels
 * it went back to; not Debian's 5.10), bpf_dispatcher_update() made the
 * dispatcher function jump to the half of the image in use with
 * bpf_arch_text_poke() on the function's ftrace site, its record left
 * disabled.
 */
#include "model/bpf.h"

static struct {
	int filled;
	ulong xdp;			/* bpf_dispatcher_xdp */
	long func, image, image_off;	/* in struct bpf_dispatcher */
} bd;

static void bd_fill(void)
{
	if (bd.filled)
		return;
	bd.filled = 1;
	bd.xdp = th_symbol("bpf_dispatcher_xdp");
	bd.func = th_member("bpf_dispatcher", "func");
	bd.image = th_member("bpf_dispatcher", "image");
	bd.image_off = th_member("bpf_dispatcher", "image_off");
}

int th_bpf_dispatcher_jump(ulong site, ulong target)
{
	ulong func, image;
	unsigned int off;

	bd_fill();
	if (!bd.xdp || bd.func < 0 || bd.image < 0 || bd.image_off < 0)
		return FALSE;
	if (!th_read_ulong(bd.xdp + bd.func, &func, "bpf_dispatcher.func") ||
	    !th_read_ulong(bd.xdp + bd.image, &image,
			   "bpf_dispatcher.image") ||
	    !th_read_uint(bd.xdp + bd.image_off, &off,
			  "bpf_dispatcher.image_off"))
		return FALSE;
	/* (the ftrace site: the function's start, or behind its endbr64) */
	return func && image && site >= func && site <= func + 4 &&
	       target == image + off;
}
