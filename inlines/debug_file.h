/* The DWARF of a binary: its own, or that of its separate debug file (one
 * given, or the one its build-id names under DEBUG_DIR/.build-id/), opened
 * with libdw (with libdwfl for an object file such as a kernel module,
 * whose DWARF needs its relocations applied). Every refusal is one line saying what to do; the caller exits
 * 2 on it (bad input, nothing done).
 */
#ifndef IC_DEBUG_FILE_H
#define IC_DEBUG_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

/* Where separate debug files live on Debian (-dbg and -dbgsym packages). */
#define IC_DEBUG_DIR_DEFAULT "/usr/lib/debug"

struct ic_debug_file {
	int fd, debug_fd;          /* -1 when not open */
	Elf *elf, *debug_elf;      /* debug_elf NULL: the DWARF is the binary's own */
	Dwarf *dw;
	Dwfl *dwfl;                /* an object file's: relocates its DWARF */
	char debug_path[4096];     /* the file the DWARF comes from */
	uint64_t info_bytes;       /* .debug_info, uncompressed */
	int build_id_checked;      /* a separate debug file's build-id was compared */
};

/* Opens path's DWARF; debug (may be NULL) is its debug file, debug_dir where
 * to look one up by build-id when path has no DWARF of its own. Returns 0,
 * or -1 with one line (no newline) in err. Call ic_debug_file_close either
 * way. */
int ic_debug_file_open(struct ic_debug_file *f, const char *path, const char *debug,
		       const char *debug_dir, char *err, size_t errlen);
void ic_debug_file_close(struct ic_debug_file *f);

#endif /* IC_DEBUG_FILE_H */
