import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Tests that run the service as a process run the package's command (`bin/native-explorer.js` over
 * the compiled `dist/`), as users do; the test runner builds it first. From the sources through tsx
 * every start took about twice as long: tsx resolves and loads each module through its loader
 * thread, in the main thread, every API worker and every worker thread.
 */
export const COMMAND = fileURLToPath(new URL('../../bin/native-explorer.js', import.meta.url));

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let checked = false;

/** The command and its arguments, once the build is known to be as new as every source file. */
export function builtCommand(args: string[]): [string, string[]] {
    if (!checked) {
        const built = statSync(join(ROOT, 'dist', '.built'), { throwIfNoEntry: false })?.mtimeMs;
        const newest = newestUnder(join(ROOT, 'src'));
        if (built === undefined || built < newest.mtimeMs) {
            throw new Error(`the built service in dist/ is ${built === undefined ? 'missing' : `older than ${newest.path}`}: `
                + 'run `npm run build` (the test runner, `npm test`, does it first)');
        }
        checked = true;
    }
    return [COMMAND, args];
}

function newestUnder(dir: string): { path: string; mtimeMs: number } {
    let newest = { path: dir, mtimeMs: 0 };
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        const candidate = entry.isDirectory() ? newestUnder(path) : { path, mtimeMs: statSync(path).mtimeMs };
        if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
    }
    return newest;
}
