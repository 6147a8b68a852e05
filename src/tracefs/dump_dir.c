/*
 * tracehunt: "ftrace dump -d DIR": a trace-cmd-style directory of one
 * trace array (events/header_page, events/header_event, the event
 * formats, kallsyms, saved_cmdlines and every CPU's
 * per_cpu/cpuN/trace_pipe_raw as trace-cmd keeps them: the rows with a
 * "write" column, their bytes from render/trace_dump.h), and every other
 * file "ftrace ls" lists for the array as "ftrace cat" prints it; written
 * under DIR.tmpXXXXXX and renamed to DIR when complete.
 */
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <dirent.h>
#include "tracefs/tracefs.h"
#include "render/trace_dump.h"

/* What the writers share: the source and the temporary tree. */
struct th_dump_dir {
	struct th_dump_src src;
	const char *tmp;
	struct th_tr *tr;
	const struct th_tfile *row;	/* th_dir_printed()'s */
	int err;
};

/*
 * Remove our own temporary tree (depth-bounded, no symlinks followed:
 * O_NOFOLLOW|O_DIRECTORY opens only a real directory).  No lstat(): built
 * on a newer glibc it binds lstat@GLIBC_2.33, which bullseye's 2.31 (the
 * crash that opens 5.10 dumps) lacks, and the extension does not load.
 */
static void th_rm_tree(const char *path, int depth)
{
	struct dirent *de;
	DIR *d;
	int fd;

	fd = depth < 8 ? open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			      O_CLOEXEC) : -1;
	if (fd >= 0) {
		if ((d = fdopendir(fd)) == NULL) {
			close(fd);
		} else {
			while ((de = readdir(d))) {
				char sub[PATH_MAX];

				if (!strcmp(de->d_name, ".") ||
				    !strcmp(de->d_name, ".."))
					continue;
				if (snprintf(sub, sizeof(sub), "%s/%s", path,
					     de->d_name) < (int)sizeof(sub))
					th_rm_tree(sub, depth + 1);
			}
			closedir(d);
		}
	}
	remove(path);
}

/* Create DIR/REL's parents and, with FD, DIR/REL open for writing in
 * *FD; errno value. */
static int th_dir_open(const char *dir, const char *rel, int *fd)
{
	char path[PATH_MAX];
	char *sl;
	int e;

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	for (sl = strchr(path + strlen(dir) + 1, '/'); sl;
	     sl = strchr(sl + 1, '/')) {
		*sl = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			e = errno;
			*sl = '/';
			return e;
		}
		*sl = '/';
	}
	if (!fd)
		return 0;
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	return *fd < 0 ? errno : 0;
}

/* Create DIR/REL (parents too) with LEN bytes of DATA (no DATA: the
 * parents only); errno value. */
static int th_dir_file(const char *dir, const char *rel, const char *data,
		       size_t len)
{
	int fd, e = th_dir_open(dir, rel, data ? &fd : NULL);

	if (e || !data)
		return e;
	e = th_write_all(fd, data, len);
	if (close(fd) < 0 && !e)
		e = errno;
	return e;
}

/* One of the text files of render/trace_dump.h. */
static int th_dir_text(struct th_dump_dir *d, const char *rel,
		       enum th_dump_what what)
{
	struct th_sb b = TH_SB_GROW;
	int e;

	th_dump_text(&d->src, what, &b);
	e = th_dir_file(d->tmp, rel, b.buf ? b.buf : "", b.pos);
	free(b.buf);
	return e;
}

/**
 * th_dump_dir_header_page - events/header_page: the sub-buffer header's fields
 * @d: the directory being written
 * @ref: the row's file
 */
int th_dump_dir_header_page(struct th_dump_dir *d, const struct th_tref *ref)
{
	return th_dir_text(d, ref->file, TH_DUMP_HEADER_PAGE);
}

/**
 * th_dump_dir_header_event - events/header_event: the entry header's
 * @d: the directory being written
 * @ref: the row's file
 */
int th_dump_dir_header_event(struct th_dump_dir *d, const struct th_tref *ref)
{
	return th_dir_text(d, ref->file, TH_DUMP_HEADER_EVENT);
}

/**
 * th_dump_dir_kallsyms - kallsyms: the symbols the recorded events need
 * @d: the directory being written
 * @ref: the row's file
 */
int th_dump_dir_kallsyms(struct th_dump_dir *d, const struct th_tref *ref)
{
	return th_dir_text(d, ref->file, TH_DUMP_KALLSYMS);
}

/**
 * th_dump_dir_cmdlines - saved_cmdlines of the tasks the events name
 * @d: the directory being written
 * @ref: the row's file
 */
int th_dump_dir_cmdlines(struct th_dump_dir *d, const struct th_tref *ref)
{
	return th_dir_text(d, ref->file, TH_DUMP_CMDLINES);
}

/**
 * th_dump_dir_format - events/SYSTEM/EVENT/format of every event whose
 * names make a path
 * @d: the directory being written
 * @ref: the row's file
 */
int th_dump_dir_format(struct th_dump_dir *d, const struct th_tref *ref)
{
	const char *sys, *name, *text;
	char rel[256];
	size_t len;
	int i, e = 0;

	for (i = 0; !e && i < th_dump_nformats(); i++) {
		text = th_dump_format(i, &sys, &name, &len);
		snprintf(rel, sizeof(rel), "events/%s/%s/%s", sys, name,
			 ref->file);
		if (!strchr(sys, '/') && !strchr(name, '/'))
			e = th_dir_file(d->tmp, rel, text, len);
	}
	return e;
}

/**
 * th_dump_dir_pipe_raw - per_cpu/cpuN/trace_pipe_raw of every CPU of the
 * ring buffer
 * @d: the directory being written
 * @ref: the row's file
 */
int th_dump_dir_pipe_raw(struct th_dump_dir *d, const struct th_tref *ref)
{
	char rel[256];
	int i, e = 0, fd;

	for (i = 0; !e && i < d->src.rb.ncpus; i++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/%s",
			 d->src.rb.cpus[i].cpu, ref->file);
		e = th_dir_open(d->tmp, rel, &fd);
		if (e)
			break;
		e = th_dump_pipe_raw(&d->src, i, fd);
		if (close(fd) < 0 && !e)
			e = errno;
	}
	return e;
}

/* One file of d->row as "ftrace cat" prints it: crash's fp pointed at
 * the file while the row's print function runs. */
static void th_dir_printed(const char *name, void *arg)
{
	struct th_dump_dir *d = arg;
	struct th_tref ref;
	char why[256];
	FILE *f, *save;
	int fd;

	if (d->err || !th_tracefs_ref(d->row, name, &ref) ||
	    (d->row->missing && d->row->missing(d->tr, &ref, why, sizeof(why))))
		return;
	d->err = th_dir_open(d->tmp, name, &fd);
	if (d->err)
		return;
	if (!(f = fdopen(fd, "w"))) {
		d->err = errno;
		close(fd);
		return;
	}
	save = fp;
	fp = f;
	d->row->print(d->tr, &ref);
	fp = save;
	if (fclose(f) != 0)
		d->err = errno;
}

/*
 * Every row in the table's order: a row with a "write" column as trace-cmd
 * keeps the file (render/trace_dump.h), any other printed row as "ftrace
 * cat" prints each of its files.
 */
static int th_dump_dir_rows(struct th_dump_dir *d)
{
	const struct th_tfile *row;
	struct th_tref ref;
	int e = 0;

	for (row = th_tfiles; !e && row->name; row++) {
		if (row->write) {
			ref.file = row->name;
			ref.cpu = -1;
			ref.option = NULL;
			e = row->write(d, &ref);
		} else if (row->print) {
			d->row = row;
			d->err = 0;
			th_tracefs_row_files(d->tr, row, th_dir_printed, d);
			e = d->err;
		}
	}
	return e;
}

/* Write TR's rows into TMP/SUB (SUB "" for the global array, else
 * instances/NAME, created here), and say so under DIR/SUB; an errno
 * value, or -1 when the reason is said already. */
static int th_dump_dir_array(struct th_tr *tr, const char *tmp,
			     const char *dir, const char *sub)
{
	struct th_dump_dir d;
	char err[256], path[PATH_MAX];
	int e;

	if (snprintf(path, sizeof(path), "%s%s%s", tmp, *sub ? "/" : "",
		     sub) >= (int)sizeof(path))
		return ENAMETOOLONG;
	if (*sub && ((mkdir(path, 0755) < 0 && errno != EEXIST)))
		return errno;
	if (!th_dump_src_open(tr, &d.src, err, sizeof(err))) {
		fprintf(fp, "ftrace dump: %s%s%s: %s\n", dir, *sub ? "/" : "",
			sub, err);
		return -1;	/* said */
	}
	d.tmp = path;
	d.tr = tr;
	e = th_dump_dir_rows(&d);
	if (!e)
		fprintf(fp, "ftrace dump: %s%s%s: %d event formats, %d CPUs, "
			"%ld events\n", dir, *sub ? "/" : "", sub,
			th_dump_nformats(), d.src.rb.ncpus,
			th_dump_src_events(&d.src));
	th_dump_src_close(&d.src);
	return e;
}

/* The instances of -a, each under TMP/instances/NAME. */
static int th_dump_dir_instances(const char *tmp, const char *dir)
{
	struct th_tr *all = NULL;
	char sub[PATH_MAX];
	int i, n, e;

	if (snprintf(sub, sizeof(sub), "%s/instances", tmp) >=
	    (int)sizeof(sub))
		return ENAMETOOLONG;
	n = th_trace_arrays(&all);
	if (n > 1 && mkdir(sub, 0755) < 0 && errno != EEXIST)
		return errno;
	for (i = 1, e = 0; i < n && !e; i++) {
		if (!all[i].name[0] || strchr(all[i].name, '/') ||
		    !strcmp(all[i].name, ".") || !strcmp(all[i].name, "..")) {
			fprintf(fp, "ftrace dump: an instance at %lx has no name "
				"that makes a path: skipped\n", all[i].addr);
			continue;
		}
		snprintf(sub, sizeof(sub), "instances/%s", all[i].name);
		e = th_dump_dir_array(&all[i], tmp, dir, sub);
	}
	return e;
}

/**
 * th_dump_dir - "ftrace dump -d DIR [-i INSTANCE | -a]"
 * @inst: the instance, NULL for the global array
 * @all: -a: the global array and every instance under DIR/instances/NAME,
 *	as tracefs lays them out
 * @dir: the directory to create (never replaced)
 * @force: -f was given (it replaces files only: said so)
 */
void th_dump_dir(const char *inst, int all, const char *dir, int force)
{
	struct th_tr *tr = th_trace_array_by_name(inst ? inst : "");
	char *tmp = NULL;
	int e;

	if (!tr) {
		fprintf(fp, "ftrace dump: no trace instance \"%s\"\n", inst);
		return;
	}
	if (access(dir, F_OK) == 0) {
		fprintf(fp, "ftrace dump: %s exists%s\n", dir, force ?
			" (a directory is never replaced: remove it)" :
			" (use -f to replace a file)");
		return;
	}
	tmp = malloc(strlen(dir) + 16);
	if (!tmp)
		return;
	sprintf(tmp, "%s.tmpXXXXXX", dir);
	if (!mkdtemp(tmp)) {
		fprintf(fp, "ftrace dump: cannot create %s: %s\n", tmp,
			strerror(errno));
		free(tmp);
		return;
	}
	chmod(tmp, 0755);
	e = th_dump_dir_array(tr, tmp, dir, "");
	if (!e && all)
		e = th_dump_dir_instances(tmp, dir);
	if (!e && rename(tmp, dir) < 0)
		e = errno;
	if (e) {
		if (e > 0)
			fprintf(fp, "ftrace dump: writing %s failed: %s\n",
				dir, strerror(e));
		/* remove the partial tree (our own temporary name) */
		th_rm_tree(tmp, 0);
	}
	free(tmp);
}
