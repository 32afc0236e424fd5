// Completes package-lock.json for npm ci after `npm install`.
//
// npm writes no lock entry for a platform-specific optional dependency that the registry did not
// return (the binaries of @biomejs/biome, rollup and TypeScript 7 for other platforms), and npm ci
// then refuses the lock as out of sync. This adds each missing one as npm lists it from a complete registry:
// optional, with its os, cpu and libc, so npm ci skips it on other platforms.
//
// Usage: node .ci/complete-lock.mjs [package-lock.json]
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const meta of Object.values(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pkgs[key]) continue;
    const m = /(?:cli|rollup|typescript)-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z]+))?$/.exec(name);
    if (!m) {
      console.error('cannot parse', name);
      continue;
    }
    const [, os, cpu, abi] = m;
    const entry = { version, dev: meta.dev, optional: true, os: [os], cpu: [cpu] };
    if (abi && /^gnu/.test(abi)) entry.libc = ['glibc'];
    if (abi && /^musl/.test(abi)) entry.libc = ['musl'];
    if (!meta.dev) delete entry.dev;
    pkgs[key] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log('added', added);
