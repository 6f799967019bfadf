/* fsfault: an LD_PRELOAD shim that numbers, logs, fails or cuts short the file-system calls a process makes
 * under one directory. scripts/fs-faults.py builds it (cc -shared) and drives the campaigns; see there.
 *
 * Calls: open (open, open64, openat, openat64, creat), write (write, pwrite, pwrite64, writev), fsync (fsync
 * and fdatasync of a file), dirsync (the same of a directory), rename (rename, renameat, renameat2), unlink
 * (unlink, unlinkat, rmdir), mkdir (mkdir, mkdirat), link (link, linkat) and truncate (ftruncate). Only calls
 * on paths under FSFAULT_ROOT (an absolute, resolved path) count; every process of the run shares one
 * numbering through FSFAULT_STATE (a file of at least 4 KiB, mapped shared) and serialises its counted calls
 * with a lock on it, so that the log's order is the order the calls took effect.
 *
 * FSFAULT_MODE:
 *   count  log every counted call to FSFAULT_LOG;
 *   fail   also make the FSFAULT_NTH-th call of kind FSFAULT_KIND fail with EIO (logged as failed); with
 *          FSFAULT_MATCH, the n-th of those on a path holding that text;
 *   crash  log, and at the FSFAULT_NTH-th counted call of any kind kill the process group with SIGKILL before
 *          the call takes effect: a power cut. Names a rename or an unlink would drop are first kept as hard
 *          links in FSFAULT_BACKUP, so that the campaign can undo what a power cut would have undone.
 *
 * A log line: seq, kind, pid, status (ok, failed), path, second path or "-", inode, size after the call, and a
 * note (open: created or existed; rename/unlink: the backup's name or "-"; unlink of a directory: dir).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum kind { K_OPEN, K_WRITE, K_FSYNC, K_DIRSYNC, K_RENAME, K_UNLINK, K_MKDIR, K_LINK, K_TRUNCATE, K_KINDS };
static const char *const NAMES[K_KINDS] = {"open",   "write", "fsync", "dirsync", "rename",
                                           "unlink", "mkdir", "link",  "truncate"};
enum mode { M_OFF, M_COUNT, M_FAIL, M_CRASH };

struct shared {
    uint64_t seq;
    uint64_t per_kind[K_KINDS];
    uint64_t matching; /* calls of the kind to fail whose path holds FSFAULT_MATCH */
};

static char root[PATH_MAX];
static size_t root_len;
static char backup_dir[PATH_MAX];
static enum mode mode = M_OFF;
static int fail_kind = -1;
static const char *match;
static uint64_t nth;
static struct shared *shared;
static int state_fd = -1;
static int log_fd = -1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define REAL(name) ((__typeof__(&name))real(#name))
static void *real(const char *name) { return dlsym(RTLD_NEXT, name); }

__attribute__((constructor)) static void init(void) {
    const char *m = getenv("FSFAULT_MODE"), *r = getenv("FSFAULT_ROOT"), *s = getenv("FSFAULT_STATE");
    const char *l = getenv("FSFAULT_LOG");
    if (!m || !r || !s || !l || strlen(r) >= sizeof root) return;
    strcpy(root, r);
    root_len = strlen(root);
    while (root_len > 1 && root[root_len - 1] == '/') root[--root_len] = 0;
    const char *b = getenv("FSFAULT_BACKUP"), *k = getenv("FSFAULT_KIND"), *n = getenv("FSFAULT_NTH");
    match = getenv("FSFAULT_MATCH");
    if (b) snprintf(backup_dir, sizeof backup_dir, "%s", b);
    if (n) nth = strtoull(n, NULL, 10);
    for (int i = 0; k && i < K_KINDS; i++)
        if (!strcmp(k, NAMES[i])) fail_kind = i;
    state_fd = REAL(open)(s, O_RDWR | O_CLOEXEC);
    log_fd = REAL(open)(l, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (state_fd < 0 || log_fd < 0) return;
    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED, state_fd, 0);
    if (shared == MAP_FAILED) return;
    mode = !strcmp(m, "count") ? M_COUNT : !strcmp(m, "fail") ? M_FAIL : !strcmp(m, "crash") ? M_CRASH : M_OFF;
}

/* The absolute path `path` names relative to `dirfd` (AT_FDCWD: the working directory), in `out`. */
static int absolute(int dirfd, const char *path, char *out, size_t size) {
    if (!path) return 0;
    if (path[0] == '/') return snprintf(out, size, "%s", path) < (int)size;
    char base[PATH_MAX];
    if (dirfd == AT_FDCWD) {
        if (!getcwd(base, sizeof base)) return 0;
    } else {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t n = readlink(link, base, sizeof base - 1);
        if (n < 0) return 0;
        base[n] = 0;
    }
    return snprintf(out, size, "%s/%s", base, path) < (int)size;
}

static int under_root(const char *abs) {
    return mode != M_OFF && !strncmp(abs, root, root_len) && (abs[root_len] == '/' || abs[root_len] == 0);
}

/* The path an open descriptor names, when it lies under the root. */
static int fd_under_root(int fd, char *out, size_t size) {
    if (mode == M_OFF) return 0;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, size - 1);
    if (n < 0) return 0;
    out[n] = 0;
    return under_root(out);
}

static void hold(void) {
    pthread_mutex_lock(&lock);
    flock(state_fd, LOCK_EX);
}

static void release(void) {
    flock(state_fd, LOCK_UN);
    pthread_mutex_unlock(&lock);
}

/* Numbers a counted call on `path` (the lock held). Returns -1 (errno EIO) when this call is the one to fail
 * (with FSFAULT_MATCH, the n-th of its kind on a path holding it); never returns when it is the one to cut power
 * before. */
static int enter(enum kind kind, const char *path, uint64_t *seq) {
    *seq = ++shared->seq;
    uint64_t of_kind = ++shared->per_kind[kind];
    if (mode == M_CRASH && *seq == nth) kill(0, SIGKILL);
    if (match && (int)kind == fail_kind) of_kind = strstr(path, match) ? ++shared->matching : 0;
    if (mode == M_FAIL && (int)kind == fail_kind && of_kind == nth) {
        errno = EIO;
        return -1;
    }
    return 0;
}

static void log_call(uint64_t seq, enum kind kind, const char *status, const char *path, const char *second,
                     const struct stat *st, const char *note) {
    char line[3 * PATH_MAX];
    int n = snprintf(line, sizeof line, "%llu\t%s\t%d\t%s\t%s\t%s\t%llu\t%lld\t%s\n", (unsigned long long)seq,
                     NAMES[kind], (int)getpid(), status, path, second ? second : "-",
                     st ? (unsigned long long)st->st_ino : 0ULL, st ? (long long)st->st_size : -1LL, note);
    if (n > 0) REAL(write)(log_fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Keeps what `path` names as a hard link in the backup folder; the link's name, or "-". */
static const char *keep(uint64_t seq, const char *path, char *out, size_t size) {
    struct stat st;
    if (mode != M_CRASH || !backup_dir[0] || lstat(path, &st) || S_ISDIR(st.st_mode)) return "-";
    snprintf(out, size, "%s/%llu", backup_dir, (unsigned long long)seq);
    return REAL(link)(path, out) ? "-" : out;
}

/* ---- open ---- */

static int counted_open(int dirfd, const char *path, int flags, mode_t perm, int (*call)(int, const char *, int, ...)) {
    char abs[PATH_MAX];
    if (!absolute(dirfd, path, abs, sizeof abs) || !under_root(abs)) return call(dirfd, path, flags, perm);
    hold();
    uint64_t seq;
    struct stat before;
    int existed = stat(abs, &before) == 0;
    if (enter(K_OPEN, abs, &seq)) {
        log_call(seq, K_OPEN, "failed", abs, NULL, NULL, "-");
        release();
        errno = EIO;
        return -1;
    }
    int fd = call(dirfd, path, flags, perm);
    int saved = errno;
    struct stat st;
    if (fd >= 0 && !fstat(fd, &st))
        log_call(seq, K_OPEN, "ok", abs, NULL, &st, existed ? "existed" : "created");
    release();
    errno = saved;
    return fd;
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

/* The mode argument of a variadic open, read inside the wrapper itself (va_start must be). */
#define PERM_OF(flags)                                                                                       \
    ({                                                                                                       \
        va_list ap_;                                                                                         \
        va_start(ap_, flags);                                                                                \
        mode_t perm_ = mode_arg(flags, ap_);                                                                 \
        va_end(ap_);                                                                                         \
        perm_;                                                                                               \
    })

int openat(int dirfd, const char *path, int flags, ...) {
    return counted_open(dirfd, path, flags, PERM_OF(flags), REAL(openat));
}
int openat64(int dirfd, const char *path, int flags, ...) {
    return counted_open(dirfd, path, flags, PERM_OF(flags), REAL(openat64));
}
int open(const char *path, int flags, ...) { return counted_open(AT_FDCWD, path, flags, PERM_OF(flags), REAL(openat)); }
int open64(const char *path, int flags, ...) {
    return counted_open(AT_FDCWD, path, flags, PERM_OF(flags), REAL(openat64));
}
int creat(const char *path, mode_t perm) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, perm); }
int creat64(const char *path, mode_t perm) { return open64(path, O_CREAT | O_WRONLY | O_TRUNC, perm); }

/* ---- calls on a descriptor: write, fsync, truncate ---- */

/* Runs `call` on `fd` as a counted call of `kind` when fd names a file under the root. */
#define ON_FD(fd, which, type, call)                                                                          \
    do {                                                                                                     \
        char path_[PATH_MAX];                                                                                \
        if (!fd_under_root(fd, path_, sizeof path_)) return call;                                            \
        hold();                                                                                              \
        struct stat st_;                                                                                     \
        enum kind kind_ = which;                                                                             \
        if (kind_ == K_FSYNC && !fstat(fd, &st_) && S_ISDIR(st_.st_mode)) kind_ = K_DIRSYNC;                 \
        uint64_t seq_;                                                                                       \
        if (enter(kind_, path_, &seq_)) {                                                                           \
            log_call(seq_, kind_, "failed", path_, NULL, NULL, "-");                                         \
            release();                                                                                       \
            errno = EIO;                                                                                     \
            return (type)-1;                                                                                 \
        }                                                                                                    \
        type result_ = call;                                                                                 \
        int saved_ = errno;                                                                                  \
        if (result_ != (type)-1 && !fstat(fd, &st_)) log_call(seq_, kind_, "ok", path_, NULL, &st_, "-");    \
        release();                                                                                           \
        errno = saved_;                                                                                      \
        return result_;                                                                                      \
    } while (0)

ssize_t write(int fd, const void *buf, size_t count) { ON_FD(fd, K_WRITE, ssize_t, REAL(write)(fd, buf, count)); }
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    ON_FD(fd, K_WRITE, ssize_t, REAL(pwrite)(fd, buf, count, offset));
}
ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
    ON_FD(fd, K_WRITE, ssize_t, REAL(pwrite64)(fd, buf, count, offset));
}
ssize_t writev(int fd, const struct iovec *iov, int count) {
    ON_FD(fd, K_WRITE, ssize_t, REAL(writev)(fd, iov, count));
}
int fsync(int fd) { ON_FD(fd, K_FSYNC, int, REAL(fsync)(fd)); }
int fdatasync(int fd) { ON_FD(fd, K_FSYNC, int, REAL(fdatasync)(fd)); }
int ftruncate(int fd, off_t length) { ON_FD(fd, K_TRUNCATE, int, REAL(ftruncate)(fd, length)); }
int ftruncate64(int fd, off64_t length) { ON_FD(fd, K_TRUNCATE, int, REAL(ftruncate64)(fd, length)); }

/* ---- calls on names: rename, unlink, mkdir, link ---- */

/* A counted call on one or two names; `keep_second` keeps what the call would drop at the second name (a
 * rename's target), `keep_first` at the first (an unlink's). */
static int on_names(enum kind kind, const char *first, const char *second, int keep_first, int keep_second,
                    const char *note, int (*call)(const void *), const void *args) {
    hold();
    uint64_t seq;
    if (enter(kind, first, &seq)) {
        log_call(seq, kind, "failed", first, second, NULL, "-");
        release();
        errno = EIO;
        return -1;
    }
    char backup[PATH_MAX];
    const char *kept = keep_first ? keep(seq, first, backup, sizeof backup)
                       : keep_second ? keep(seq, second, backup, sizeof backup)
                                     : "-";
    int result = call(args);
    int saved = errno;
    if (result == 0) {
        struct stat st;
        const char *now = second ? second : first;
        log_call(seq, kind, "ok", first, second, lstat(now, &st) ? NULL : &st, note ? note : kept);
    } else if (kept[0] == '/') {
        unlink(backup);
    }
    release();
    errno = saved;
    return result;
}

struct two_at {
    int from_dir;
    const char *from;
    int to_dir;
    const char *to;
    unsigned flags;
};

static int call_renameat2(const void *a) {
    const struct two_at *t = a;
    return REAL(renameat2)(t->from_dir, t->from, t->to_dir, t->to, t->flags);
}

int renameat2(int from_dir, const char *from, int to_dir, const char *to, unsigned flags) {
    char a[PATH_MAX], b[PATH_MAX];
    struct two_at args = {from_dir, from, to_dir, to, flags};
    if (!absolute(from_dir, from, a, sizeof a) || !absolute(to_dir, to, b, sizeof b) ||
        !(under_root(a) || under_root(b)))
        return call_renameat2(&args);
    return on_names(K_RENAME, a, b, 0, 1, NULL, call_renameat2, &args);
}
int renameat(int from_dir, const char *from, int to_dir, const char *to) {
    return renameat2(from_dir, from, to_dir, to, 0);
}
int rename(const char *from, const char *to) { return renameat2(AT_FDCWD, from, AT_FDCWD, to, 0); }

static int call_unlinkat(const void *a) {
    const struct two_at *t = a;
    return REAL(unlinkat)(t->from_dir, t->from, (int)t->flags);
}

int unlinkat(int dir, const char *path, int flags) {
    char a[PATH_MAX];
    struct two_at args = {dir, path, 0, NULL, (unsigned)flags};
    if (!absolute(dir, path, a, sizeof a) || !under_root(a)) return call_unlinkat(&args);
    return on_names(K_UNLINK, a, NULL, 1, 0, flags & AT_REMOVEDIR ? "dir" : NULL, call_unlinkat, &args);
}
int unlink(const char *path) { return unlinkat(AT_FDCWD, path, 0); }
int rmdir(const char *path) { return unlinkat(AT_FDCWD, path, AT_REMOVEDIR); }

static int call_mkdirat(const void *a) {
    const struct two_at *t = a;
    return REAL(mkdirat)(t->from_dir, t->from, (mode_t)t->flags);
}

int mkdirat(int dir, const char *path, mode_t perm) {
    char a[PATH_MAX];
    struct two_at args = {dir, path, 0, NULL, perm};
    if (!absolute(dir, path, a, sizeof a) || !under_root(a)) return call_mkdirat(&args);
    return on_names(K_MKDIR, a, NULL, 0, 0, NULL, call_mkdirat, &args);
}
int mkdir(const char *path, mode_t perm) { return mkdirat(AT_FDCWD, path, perm); }

static int call_linkat(const void *a) {
    const struct two_at *t = a;
    return REAL(linkat)(t->from_dir, t->from, t->to_dir, t->to, (int)t->flags);
}

int linkat(int from_dir, const char *from, int to_dir, const char *to, int flags) {
    char a[PATH_MAX], b[PATH_MAX];
    struct two_at args = {from_dir, from, to_dir, to, (unsigned)flags};
    if (!absolute(from_dir, from, a, sizeof a) || !absolute(to_dir, to, b, sizeof b) || !under_root(b))
        return call_linkat(&args);
    return on_names(K_LINK, a, b, 0, 0, NULL, call_linkat, &args);
}
int link(const char *from, const char *to) { return linkat(AT_FDCWD, from, AT_FDCWD, to, 0); }
