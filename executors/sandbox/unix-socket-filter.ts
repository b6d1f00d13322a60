// A seccomp filter (classic BPF, loaded by bwrap --seccomp FD) for calls no person approved:
// socket(AF_UNIX) fails with EACCES, so no unix socket anywhere connects (an ssh agent or an
// editor's server in the home, beyond the known places secret-masks.ts hides), nor io_uring
// (which could open one past the filter), nor another ABI's syscalls (x32, i386). socketpair,
// pipes and already open sockets work: child processes, bash's fd 3, node's stdio are untouched.
// The network is another namespace's business (--unshare-net); this covers what a read-only
// bind does not stop (a socket's connect needs no write to the mount).

/** The fd bwrap reads the filter from (fd 3 carries the command: command-text.ts). */
export const SECCOMP_FD = 4;

/** One classic BPF instruction: code, jump if true, jump if false, constant. */
type Instruction = readonly [code: number, jt: number, jf: number, k: number];

const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000; // SECCOMP_RET_ALLOW
const REFUSE = 0x00050000 | 13; // SECCOMP_RET_ERRNO | EACCES
const AF_UNIX = 1;
const X32_BIT = 0x40000000;

/** struct seccomp_data: nr at 0, arch at 4, args[0] (its low word, little-endian) at 16. */
const NR = 0;
const ARCH = 4;
const FIRST_ARG = 16;

/** The architectures Custode runs on: audit arch, socket's and io_uring_setup's numbers. */
const ARCHITECTURES: Readonly<
  Record<string, { audit: number; socket: number; ioUringSetup: number }>
> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425 },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

/** The program as instructions; jumps count the instructions they skip. */
function program(arch: { audit: number; socket: number; ioUringSetup: number }): Instruction[] {
  return [
    [LOAD_WORD, 0, 0, ARCH],
    [JUMP_EQUAL, 1, 0, arch.audit],
    [RETURN, 0, 0, REFUSE], // another ABI (i386's socketcall, say)
    [LOAD_WORD, 0, 0, NR],
    [JUMP_AT_LEAST, 5, 0, X32_BIT],
    [JUMP_EQUAL, 4, 0, arch.ioUringSetup],
    [JUMP_EQUAL, 0, 2, arch.socket],
    [LOAD_WORD, 0, 0, FIRST_ARG],
    [JUMP_EQUAL, 1, 0, AF_UNIX],
    [RETURN, 0, 0, ALLOW],
    [RETURN, 0, 0, REFUSE],
  ];
}

/**
 * The filter's bytes for this machine (struct sock_filter, native byte order), or undefined on
 * an architecture it does not know (the call then runs without it).
 */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const known = ARCHITECTURES[arch];
  if (known === undefined) return undefined;
  const instructions = program(known);
  const bytes = Buffer.alloc(instructions.length * 8);
  instructions.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k, i * 8 + 4);
  });
  return bytes;
}
