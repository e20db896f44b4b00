/* Case 14a: on its first call opens an AF_VSOCK socket and connects to
 * the host (CID 2). A socket is already a leak (exit 42). Expect an
 * ordinary game (EPERM/EAFNOSUPPORT) or SV. */
#include <sys/socket.h>

#include <linux/vm_sockets.h>
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	struct sockaddr_vm a = { .svm_family = AF_VSOCK, .svm_cid = 2,
	    .svm_port = 9999 };
	int fd;

	if (hostile_wait() == 0)
		return 0;
	fd = socket(AF_VSOCK, SOCK_STREAM, 0);
	if (fd != -1) {
		if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
			hostile_leak("connected to the host over vsock");
		hostile_leak("opened an AF_VSOCK socket");
	}
	perror("vsock: socket");
	hostile_pass_forever();
}
