/*
 * Case 22: leaves marks that could outlive the game or reach another
 * sandbox: a key in its session and user keyrings, a SysV shared memory
 * segment and message queue, a POSIX message queue, files in /tmp,
 * /dev/shm and its own folder. On its first call it looks for the marks
 * an earlier game left (exit 42 for kernel objects or /tmp, /dev/shm;
 * exit 43 for its folder), then leaves them. The harness plays it twice.
 * Per turn it looks on every call (its folder aside: it lasts the game),
 * so nothing but its folder may reach its next call either. Expect an
 * ordinary game both times.
 */
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <linux/keyctl.h>
#include <mqueue.h>
#include <unistd.h>

#include "hostile.h"

#define IPC_KEY 0x41524e41	/* "ARNA" */

static int
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void
look(void)
{
	mqd_t q;

	if (syscall(SYS_request_key, "user", "arena-hostile", NULL,
	    KEY_SPEC_USER_KEYRING) >= 0)
		hostile_leak("found the key of an earlier game");
	if (shmget(IPC_KEY, 0, 0) != -1 || msgget(IPC_KEY, 0) != -1)
		hostile_leak("found the SysV objects of an earlier game");
	if ((q = mq_open("/arena-hostile", O_RDONLY)) != (mqd_t)-1)
		hostile_leak("found the POSIX queue of an earlier game");
	if (exists("/tmp/arena-hostile") || exists("/dev/shm/arena-hostile"))
		hostile_leak("found /tmp or /dev/shm files of an earlier game");
	/* Per turn, its folder is meant to last from call to call. */
	if (hostile_calls == 1 && exists("arena-hostile")) {
		fprintf(stderr, "persist: its folder kept a file\n");
		exit(HOSTILE_RESIDUE);
	}
}

static void
leave(void)
{
	const char *files[] = { "/tmp/arena-hostile",
	    "/dev/shm/arena-hostile", "arena-hostile" };
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 8 };

	if (syscall(SYS_add_key, "user", "arena-hostile", "x", 1,
	    KEY_SPEC_USER_KEYRING) < 0)
		perror("persist: add_key");
	if (shmget(IPC_KEY, 4096, IPC_CREAT | 0666) == -1)
		perror("persist: shmget");
	if (msgget(IPC_KEY, IPC_CREAT | 0666) == -1)
		perror("persist: msgget");
	if (mq_open("/arena-hostile", O_CREAT | O_RDWR, 0666, &attr) ==
	    (mqd_t)-1)
		perror("persist: mq_open");
	for (int i = 0; i < 3; i++)
		close(open(files[i], O_WRONLY | O_CREAT, 0666));
}

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	look();
	leave();
	hostile_pass_forever();
}
