/**
 * A one-line progress bar on standard error, drawn only on a terminal and only once the work has
 * lasted a moment (short runs print nothing), redrawn at most ten times a second.
 */
export interface Progress {
  update(fraction: number, note?: string): void;
  done(note?: string): void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr, delayMs = 400): Progress {
  const start = Date.now();
  const tty = Boolean(stream.isTTY);
  let last = 0;
  let shown = false;
  const draw = (fraction: number, note = '') => {
    const width = 30;
    const f = Math.max(0, Math.min(1, fraction));
    const filled = Math.round(f * width);
    const secs = ((Date.now() - start) / 1000).toFixed(1);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(f * 100).toFixed(0).padStart(3)}% ${secs} s ${note}\x1b[K`);
    shown = true;
  };
  return {
    update(fraction, note) {
      if (!tty) return;
      const now = Date.now();
      if (now - start < delayMs || now - last < 100) return;
      last = now;
      draw(fraction, note);
    },
    done(note) {
      if (!tty || !shown) return;
      draw(1, note);
      stream.write('\n');
    },
  };
}
