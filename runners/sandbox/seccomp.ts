// A small classic-BPF seccomp filter, handed to bwrap with `--seccomp FD`, that keeps user
// namespaces out of the sandbox: unshare() and clone() with CLONE_NEWUSER fail with EPERM, setns()
// fails with EPERM, and clone3() — whose flags live in memory a filter cannot read — returns ENOSYS
// so that libc falls back to clone(), which the filter can inspect. Everything else is allowed.
//
// Why not bwrap's own `--unshare-user --disable-userns`: the worker runs bwrap as root and the
// script then drops to a run-specific host uid with setpriv; inside a fresh user namespace only uid 0
// would be mapped and that switch would be impossible.
//
// Both the native ABI and the 32-bit compat ABI of the host are filtered (a 32-bit binary would
// otherwise reach unshare through its own syscall numbers), and x32 syscalls on x86-64 are refused.
import { endianness } from 'node:os';

/** struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[0] (little-endian hosts; the flags of unshare and clone fit in them). */
const OFFSET_ARG0_LOW = 16;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_NEWUSER = 0x10000000;
const X32_SYSCALL_BIT = 0x40000000;

interface AbiNumbers {
  audit: number;
  unshare: number;
  clone: number;
  clone3: number;
  setns: number;
  /** x86-64 only: syscall numbers with this bit set are the x32 ABI. */
  x32Bit?: number;
}

/** Syscall numbers per ABI (from the kernel's syscall tables), keyed by the host architecture. */
const ABIS: Record<string, AbiNumbers[]> = {
  x64: [
    { audit: 0xc000003e, unshare: 272, clone: 56, clone3: 435, setns: 308, x32Bit: X32_SYSCALL_BIT },
    { audit: 0x40000003, unshare: 310, clone: 120, clone3: 435, setns: 346 },
  ],
  arm64: [
    { audit: 0xc00000b7, unshare: 97, clone: 220, clone3: 435, setns: 268 },
    { audit: 0x40000028, unshare: 337, clone: 120, clone3: 435, setns: 375 },
  ],
};

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const stmt = (code: number, k: number): Insn => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Insn => ({ code, jt, jf, k });

/** The instructions for one ABI, entered with the syscall number already loaded. */
function abiBlock(abi: AbiNumbers): Insn[] {
  const deny = stmt(BPF_RET_K, RET_ERRNO | EPERM);
  const out: Insn[] = [stmt(BPF_LD_W_ABS, OFFSET_NR)];
  if (abi.x32Bit) out.push(jump(BPF_JGE_K, abi.x32Bit, 0, 1), deny);
  out.push(
    jump(BPF_JEQ_K, abi.clone3, 0, 1), stmt(BPF_RET_K, RET_ERRNO | ENOSYS),
    jump(BPF_JEQ_K, abi.setns, 0, 1), deny,
    jump(BPF_JEQ_K, abi.unshare, 1, 0),
    jump(BPF_JEQ_K, abi.clone, 0, 3),
    stmt(BPF_LD_W_ABS, OFFSET_ARG0_LOW),
    jump(BPF_JSET_K, CLONE_NEWUSER, 0, 1), deny,
    stmt(BPF_RET_K, RET_ALLOW),
  );
  return out;
}

/** Whether this host's architecture has a filter here (little-endian only: the flags offset assumes it). */
export function noUserNamespaceFilterSupported(arch: string = process.arch): boolean {
  return ABIS[arch] !== undefined && endianness() === 'LE';
}

/** The filter as the bytes of a `struct sock_filter[]`, what bwrap reads from its `--seccomp` fd. */
export function noUserNamespaceFilter(arch: string = process.arch): Buffer {
  const abis = ABIS[arch];
  if (!abis) throw new Error(`no seccomp filter for architecture ${arch}`);
  const blocks = abis.map(abiBlock);
  // Dispatch on the architecture: entry i jumps over the entries after it, the catch-all refusal
  // (an ABI not listed gets EPERM for everything) and the blocks before block i.
  const dispatch = abis.map((abi, i) => {
    const before = blocks.slice(0, i).reduce((n, b) => n + b.length, 0);
    return jump(BPF_JEQ_K, abi.audit, abis.length - 1 - i + 1 + before, 0);
  });
  const insns: Insn[] = [stmt(BPF_LD_W_ABS, OFFSET_ARCH), ...dispatch, stmt(BPF_RET_K, RET_ERRNO | EPERM), ...blocks.flat()];
  const buf = Buffer.alloc(insns.length * 8);
  insns.forEach((ins, i) => {
    buf.writeUInt16LE(ins.code, i * 8);
    buf.writeUInt8(ins.jt, i * 8 + 2);
    buf.writeUInt8(ins.jf, i * 8 + 3);
    buf.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return buf;
}
