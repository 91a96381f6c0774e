/* codesize's proofs of the forms the compiler could undo (see codesize.c):
 * clone's distinct copies, inline's and mark's no call, extern's calls to
 * its own copy, and the nolock forms' objects free of locked instructions
 * (objdump -d).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codesize_util.h"

/* Is this objdump instruction text locked: a lock prefix, or xchg with a
 * memory operand (locked without one)? xchg of two registers is not (gas
 * pads with `xchg %ax,%ax`). */
static int cs_insn_locked(const char *insn)
{
	if (strncmp(insn, "lock", 4) == 0 && (insn[4] == '\0' || insn[4] == ' ' || insn[4] == '\t'))
		return 1;
	return strncmp(insn, "xchg", 4) == 0 && strchr(insn, '(') != NULL;
}

/* The nolock forms' proof: objdump -d of each object, no locked instruction.
 * Fails the point (one line) at the first one found. */
static void cs_prove_lock_free(const struct cs_point *pt, const char *objdump, const char *path)
{
	char fn[256] = "?", *line = NULL;
	size_t cap = 0;
	int fd[2], status = 0;
	pid_t pid;
	FILE *f;

	if (pipe(fd) != 0 || (pid = fork()) < 0)
		cs_fail(1, "cannot run %s: %s", objdump, strerror(errno));
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execlp(objdump, objdump, "-d", "--no-show-raw-insn", path, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if (!f)
		cs_fail(1, "cannot read %s's output: %s", objdump, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		char *p = line, *lt;
		unsigned long long addr;
		int len;

		line[strcspn(line, "\n")] = '\0';
		/* "0000000000000000 <name>:" starts a function. */
		if (sscanf(line, "%llx <%n", &addr, &len) == 1 && (lt = strrchr(line, '>')) &&
		    lt[1] == ':') {
			snprintf(fn, sizeof fn, "%.*s", (int)(lt - line - len), line + len);
			continue;
		}
		/* "   1c:\tlock xadd %eax,(%rdi)" is an instruction. */
		while (*p == ' ')
			p++;
		if (!(*p >= '0' && *p <= '9') && !(*p >= 'a' && *p <= 'f'))
			continue;
		while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
			p++;
		if (*p++ != ':')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (cs_insn_locked(p)) {
			while ((lt = strchr(p, '\t')))
				*lt = ' ';
			cs_fail(CS_EXIT_PROOF, "point %s: %s: a locked instruction in %s, '%s', but form "
				"%s has no lock", pt->prefix, path, fn, p, ic_form_names[pt->id.form]);
		}
	}
	free(line);
	fclose(f);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		cs_fail(CS_EXIT_PROOF, "point %s: %s -d %s failed (exit %d): cannot prove form %s "
			"lock-free", pt->prefix, objdump, path,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1, ic_form_names[pt->id.form]);
}

static int cs_target_cmp(const void *a, const void *b)
{
	const struct cs_target *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* What the point's form promises (codesize.c's comment), from what its objects call. */
void cs_prove(struct cs_point *pt)
{
	uint64_t want = (uint64_t)pt->id.sites * cs_ops_per_site(pt);
	size_t distinct = 0;

	switch (pt->id.form) {
	case IC_FORM_CLONE:
		if (pt->wrong[0])
			cs_fail(CS_EXIT_PROOF, "point %s: %s", pt->prefix, pt->wrong);
		qsort(pt->targets, pt->ntargets, sizeof *pt->targets, cs_target_cmp);
		for (size_t i = 0; i < pt->ntargets; i++)
			distinct += i == 0 || cs_target_cmp(&pt->targets[i - 1], &pt->targets[i]) != 0;
		if (distinct != want)
			cs_fail(CS_EXIT_PROOF, "point %s: the sites call %zu distinct copies, not %" PRIu64
				" (sites x ops): copies folded or inlined", pt->prefix, distinct, want);
		break;
	case IC_FORM_INLINE:
	case IC_FORM_INLINE_NOLOCK:
	case IC_FORM_MARK:
		if (pt->queue_calls != 0)
			cs_fail(CS_EXIT_PROOF, "point %s: %" PRIu64 " calls (the first to %s), but form %s "
				"%s", pt->prefix, pt->queue_calls, pt->first_call, ic_form_names[pt->id.form],
				pt->id.form == IC_FORM_MARK ? "calls nothing" :
				"inlines every one: it could not be inlined");
		break;
	case IC_FORM_EXTERN:
	case IC_FORM_EXTERN_NOLOCK:
		if (pt->wrong[0])
			cs_fail(CS_EXIT_PROOF, "point %s: %s", pt->prefix, pt->wrong);
		if (pt->queue_calls != want)
			cs_fail(CS_EXIT_PROOF, "point %s: %" PRIu64 " calls to the extern copy, not %" PRIu64
				" (sites x ops)%s", pt->prefix, pt->queue_calls, want,
				pt->queue_calls < want ? ": some were inlined" : "");
		break;
	default:
		return;
	}
}

/* The nolock forms: no locked instruction in any of the point's objects. */
void cs_prove_objects(const struct cs_point *pt, const char *objdump)
{
	if (pt->id.form != IC_FORM_INLINE_NOLOCK && pt->id.form != IC_FORM_EXTERN_NOLOCK)
		return;
	for (size_t j = 0; j < pt->nobjs; j++) {
		uint32_t i = cs_load(pt->objs[j]);   /* may move cs_objs */
		struct cs_obj *o = cs_obj_at(i);

		/* A series object serves many points: proved once. */
		if (!o->lock_free)
			cs_prove_lock_free(pt, objdump, pt->objs[j]);
		o->lock_free = 1;
	}
}

