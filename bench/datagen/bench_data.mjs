// Command line of scripts/bench-data: parses sizes (flags, then BENCH_* environment variables,
// then defaults) and generates the datasets.
import { mkdirSync } from 'node:fs';
import { DEFAULT_SIZES, generateAll, quickSizes } from './datasets.mjs';

const kebab = (key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const envName = (key) => `BENCH_${kebab(key).replaceAll('-', '_').toUpperCase()}`;

function parse(argv) {
  const quick = argv.includes('--quick');
  const sizes = quick ? quickSizes() : { ...DEFAULT_SIZES };
  let out = null;
  let only = null;
  for (const key of Object.keys(sizes)) {
    if (process.env[envName(key)]) sizes[key] = Number(process.env[envName(key)]);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') continue;
    if (arg === '--out') { out = argv[++i]; continue; }
    if (arg === '--only') { only = argv[++i].split(','); continue; }
    const key = Object.keys(sizes).find((k) => `--${kebab(k)}` === arg);
    if (!key) {
      console.error(`bench-data: unknown option ${arg}`);
      process.exit(2);
    }
    sizes[key] = Number(argv[++i]);
  }
  for (const [key, value] of Object.entries(sizes)) {
    if (!Number.isInteger(value) || value < 1) {
      console.error(`bench-data: ${kebab(key)} must be a positive integer, got ${value}`);
      process.exit(2);
    }
  }
  return { sizes, out: out ?? (quick ? 'bench/data/quick' : 'bench/data'), only };
}

const { sizes, out, only } = parse(process.argv.slice(2));
mkdirSync(out, { recursive: true });
console.log(`bench-data -> ${out}: ${JSON.stringify(sizes)}`);
const started = Date.now();
await generateAll(out, sizes, { only });
console.log(`bench-data: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
