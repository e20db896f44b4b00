/*
 * Case 13: on its first call tries the network: TCP to the host's
 * 127.0.0.1:PORT (a listener the harness opened), UDP and TCP to
 * 1.1.1.1:53, PostgreSQL's unix socket SOCKET, and an abstract unix
 * socket. Usage: net PORT SOCKET. Any connection made is a leak (exit
 * 42). Expect an ordinary game (ENETUNREACH, ENOENT, ECONNREFUSED).
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include "hostile.h"

static int
try_inet(int type, const char *ip, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, type, 0), ok;

	if (fd == -1)
		return 0;
	a.sin_port = htons(port);
	inet_pton(AF_INET, ip, &a.sin_addr);
	ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	/* A UDP "connect" succeeds without a packet; a send proves a route. */
	if (ok && type == SOCK_DGRAM)
		ok = send(fd, "x", 1, 0) == 1;
	close(fd);
	return ok;
}

static int
try_unix(const char *path, int abstract)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), ok;

	if (fd == -1)
		return 0;
	snprintf(a.sun_path + abstract, sizeof a.sun_path - 1, "%s", path);
	ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	close(fd);
	return ok;
}

int
main(int argc, char **argv)
{
	if (argc < 3)	/* per turn, the board comes after */
		return 2;
	if (hostile_wait() == 0)
		return 0;
	if (try_inet(SOCK_STREAM, "127.0.0.1", atoi(argv[1])))
		hostile_leak("connected to the host's 127.0.0.1 listener");
	if (try_inet(SOCK_STREAM, "1.1.1.1", 53) ||
	    try_inet(SOCK_DGRAM, "1.1.1.1", 53))
		hostile_leak("reached 1.1.1.1:53");
	if (try_unix(argv[2], 0))
		hostile_leak("connected to PostgreSQL's socket");
	if (try_unix("arena-hostile", 1) || try_unix("/tmp/.X11-unix/X0", 0))
		hostile_leak("connected to a unix socket of the host");
	hostile_pass_forever();
}
