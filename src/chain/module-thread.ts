import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The module `name` next to `base` (an `import.meta.url`): `.ts` run through tsx in tests and benchmarks, `.js` once built. */
export function siblingModule(name: string, base: string): URL {
    return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** A worker thread running `module`; from source it registers tsx before loading it (a worker does not inherit the loader). */
export function startModuleThread(module: URL, options: WorkerOptions): Worker {
    return module.pathname.endsWith('.ts')
        ? new Worker(`import('tsx/esm/api').then(api => { api.register(); return import(${JSON.stringify(module.href)}); });`, { ...options, eval: true })
        : new Worker(module, options);
}
