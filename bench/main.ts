/**
 * `npm run bench -- <name> [options]`: speed and memory benchmarks. Results are printed; record
 * them in docs/performance.md with the command that produced them.
 */
import * as fs from 'fs';
import * as path from 'path';

const benches = ['engine', 'uk', 'us', 'api', 'synth', 'simulate', 'microsim'];

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const file = path.join(__dirname, `${name}.js`);
  if (!benches.includes(name) || !fs.existsSync(file)) {
    console.error(`usage: npm run bench -- <${benches.join('|')}> [options]`);
    process.exit(2);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  await (require(file) as { run(args: string[]): Promise<void> }).run(args);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
