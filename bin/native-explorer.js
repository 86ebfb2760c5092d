#!/usr/bin/env node
// Runs the TypeScript entry point through tsx, so the package works without a build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const result = spawnSync(process.execPath, [tsx, entry, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
