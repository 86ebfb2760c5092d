#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=16
// The main thread (indexer and API) gets a young generation of 16 MB semi-spaces (V8 takes the size only at start):
// with block parsing in threads, 64 MB ones indexed no faster, held ~100 MB more and paused answers longer
// (docs/BENCHMARKS.md). Worker threads get the young generation they ask for, not this one (src/chain/module-thread.ts). Two malloc arenas instead of
// glibc's one a thread (up to 8 a core) hold ~100 MB less for the service's threads (glibc reads it only at start).
// The package's command: the compiled CLI in dist/ (built by `npm install` through `prepare`, or `npm run build`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
    process.stderr.write('native-explorer is not built yet: run `npm run build` (npm install does it) in the package folder\n');
    process.exit(1);
}
await import(entry.href);
