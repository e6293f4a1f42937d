/** Small deterministic PRNG (mulberry32) so synthetic populations are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function flag(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * CPU seconds used so far by each thread of this process (Linux: /proc/self/task/<tid>/stat,
 * user + system time), by thread name. On a shared machine wall times vary with the load; CPU
 * time says what the work costs. Empty where /proc is not available.
 */
export function threadCpuSeconds(): Map<string, number> {
  const out = new Map<string, number>();
  const fs = require('fs') as typeof import('fs');
  let tids: string[] = [];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      out.set(`${name}#${tid}`, ticks / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** CPU seconds between two threadCpuSeconds() readings: the main thread, and all others (simulation threads, garbage collection, I/O). */
export function cpuBetween(before: Map<string, number>, after: Map<string, number>): { main: number; others: number } {
  const sum = { main: 0, others: 0 };
  const pid = String(process.pid);
  for (const [key, t] of after) {
    const d = t - (before.get(key) ?? 0);
    if (key.endsWith(`#${pid}`)) sum.main += d;
    else sum.others += d;
  }
  return sum;
}
