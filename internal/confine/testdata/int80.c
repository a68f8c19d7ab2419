// int80 connects to the Unix socket at argv[1] and writes to it through
// the i386 system call ABI (int 0x80), which an x86-64 process may use.
#include <stdio.h>
#include <string.h>
#include <sys/un.h>
static struct sockaddr_un sa;
static long i386(long nr, long a, long b, long c) {
  long ret;
  __asm__ volatile ("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
  return ret;
}
int main(int argc, char **argv) {
  long fd = i386(359, 1 /*AF_UNIX*/, 1 /*STREAM*/, 0);
  printf("i386 socket: %ld\n", fd);
  if (fd < 0) return 1;
  sa.sun_family = 1; strcpy(sa.sun_path, argv[1]);
  long r = i386(362, fd, (long)&sa, sizeof sa);
  printf("i386 connect: %ld\n", r);
  if (r < 0) return 1;
  r = i386(4, fd, (long)"escaped via int 0x80\n", 21);
  printf("write: %ld\n", r);
  return 0;
}
