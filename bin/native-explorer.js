#!/usr/bin/env node
// The package's command: the compiled CLI in dist/ (built by `npm install` through `prepare`, or `npm run build`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
    process.stderr.write('native-explorer is not built yet: run `npm run build` (npm install does it) in the package folder\n');
    process.exit(1);
}
await import(entry.href);
