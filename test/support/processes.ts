import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * What the kernel says about processes and their listening sockets (Linux /proc), for tests of the local stack's
 * lifecycle: which processes a stack consists of, whether they are gone, and where they listen.
 */

interface ProcessStat {
  readonly pid: number;
  readonly ppid: number;
  /** R, S, Z (zombie: exited, not yet reaped), … */
  readonly state: string;
}

function stat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(ppid), state: state ?? '?' };
  } catch {
    return undefined;
  }
}

/** The process and all its descendants now alive (zombies excluded). */
export function processTree(root: number): number[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => stat(Number(name)) ?? []);
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const child of all) if (child.ppid === tree[i] && child.state !== 'Z') tree.push(child.pid);
  }
  return tree.filter((pid) => isAlive(pid));
}

/** Alive means running: a zombie has exited (it only waits for its parent to read its status). */
export function isAlive(pid: number): boolean {
  const found = stat(pid);
  return found !== undefined && found.state !== 'Z';
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Waits until none of the pids is alive; answers those still alive at the deadline. */
export async function waitUntilGone(pids: readonly number[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

export interface Listener {
  readonly pid: number;
  readonly address: string;
  readonly port: number;
}

/** Every TCP socket in LISTEN state owned by one of the pids, with its local address. */
export function listeners(pids: readonly number[]): Listener[] {
  const owner = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) owner.set(match[1]!, pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  const found: Listener[] = [];
  for (const [file, decode] of [
    ['/proc/net/tcp', decodeIpv4],
    ['/proc/net/tcp6', decodeIpv6],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, , state] = [fields[1]!, fields[2], fields[3]];
      const inode = fields[9]!;
      const pid = owner.get(inode);
      if (state !== '0A' || pid === undefined) continue; // 0A: LISTEN
      const [hexAddress, hexPort] = local.split(':') as [string, string];
      found.push({ pid, address: decode(hexAddress), port: Number.parseInt(hexPort, 16) });
    }
  }
  return found;
}

/** /proc/net/tcp addresses are the 4 bytes in host (little-endian) order. */
function decodeIpv4(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  return [...bytes].reverse().join('.');
}

function decodeIpv6(hex: string): string {
  const words = Buffer.from(hex, 'hex');
  // Four 32-bit words, each in host order.
  for (let i = 0; i < 16; i += 4) words.subarray(i, i + 4).reverse();
  if (words.subarray(0, 10).every((byte) => byte === 0) && words[10] === 0xff && words[11] === 0xff) {
    return `::ffff:${[...words.subarray(12)].join('.')}`;
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(words.readUInt16BE(i).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}
