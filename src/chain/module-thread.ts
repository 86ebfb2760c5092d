import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The module `name` next to `base` (an `import.meta.url`): `.ts` run through tsx in tests and benchmarks, `.js` once built. */
export function siblingModule(name: string, base: string): URL {
    return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * A worker thread running `module`; from source it registers tsx before loading it (a worker does not inherit the loader).
 *
 * `npm start`, the bin and the bench size the main thread's young generation with
 * `--max-semi-space-size`, and V8 lets that flag override a thread's `resourceLimits`. The main
 * isolate keeps the size it started with, so the flag is cleared before a thread starts: each
 * thread then gets the young generation it asks for (the devnet's producer a large one, the reading
 * threads a smaller one; docs/BENCHMARKS.md).
 */
export function startModuleThread(module: URL, options: WorkerOptions): Worker {
    for (const flag of flagsBeforeThread(options)) setFlagsFromString(flag);
    return module.pathname.endsWith('.ts')
        ? new Worker(`import('tsx/esm/api').then(api => { api.register(); return import(${JSON.stringify(module.href)}); });`, { ...options, eval: true })
        : new Worker(module, options);
}

/** The V8 flags set before a thread of `options` starts: the semi-space flag cleared when the thread sizes its young generation. */
export function flagsBeforeThread(options: WorkerOptions): string[] {
    return options.resourceLimits?.maxYoungGenerationSizeMb !== undefined ? ['--max-semi-space-size=0'] : [];
}
