import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { builtCommand } from './built-command.ts';

/** Repository root: where the children run. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Settings the service reads from the environment; the child must only get what the test passes as flags. */
const SERVICE_ENV = ['HOST', 'PORT', 'DATA_DIR', 'DATABASE_URL', 'SOURCE', 'BLOCK_INTERVAL_MS', 'FAUCET_CAP', 'LOG_REQUESTS', 'LOG_LEVEL', 'SHUTDOWN_TIMEOUT_MS', 'NODE_TEST_CONTEXT'];

/** This process's environment without the service's settings (and the test runner's), for child processes. */
export function childEnv(): NodeJS.ProcessEnv {
    const env = { ...process.env };
    for (const name of SERVICE_ENV) delete env[name];
    return env;
}

/** Rejects with `what` after `ms`: every wait of the crash tests is bounded. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
        return await Promise.race([
            promise,
            new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
            }),
        ]);
    } finally {
        clearTimeout(timer);
    }
}

export const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

/** Until the kernel reports the process stopped (Linux /proc); elsewhere a short pause. */
export function waitStopped(pid: number): void {
    const stat = `/proc/${pid}/stat`;
    if (!existsSync(stat)) return busyWait(2);
    const until = performance.now() + 2_000;
    while (performance.now() < until) {
        const text = readFileSync(stat, 'utf8');
        const state = text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3);
        if (state === 'T' || state === 't') return;
    }
    throw new Error(`process ${pid} did not stop after SIGSTOP`);
}

export function busyWait(ms: number): void {
    const until = performance.now() + ms;
    while (performance.now() < until) {
        // a timer is too coarse for sub-millisecond pauses
    }
}

/** A `native-explorer serve` child process on a data directory. */
export class ServiceChild {
    readonly proc: ChildProcess;
    stdout = '';
    stderr = '';
    /** Resolves when the process has exited (never rejects). */
    readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
    private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;

    /** `extraArgs`: more `serve` flags (e.g. `--db postgres://…`). */
    constructor(dataDir: string, blockIntervalMs: number, extraArgs: string[] = []) {
        this.proc = spawn(...builtCommand([
            'serve', '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--liteserver-port', '0', '--block-interval-ms', String(blockIntervalMs),
            ...extraArgs,
        ]), { cwd: REPO_ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
        this.proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => { this.stdout += chunk; });
        this.proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => { this.stderr += chunk; });
        this.exited = new Promise(resolve => {
            this.proc.once('exit', (code, signal) => {
                this.exitInfo = { code, signal };
                resolve(this.exitInfo);
            });
        });
    }

    get alive(): boolean {
        return this.exitInfo === null;
    }

    /** Waits for the "serving http://…/v2" line (printed once the devnet, the indexer and the API run); returns the /v2 base URL. */
    async ready(timeoutMs: number): Promise<string> {
        const started = Date.now();
        while (Date.now() - started < timeoutMs) {
            const match = /serving (http:\/\/\S+?)\/v2 /.exec(this.stdout);
            if (match) return `${match[1]}/v2`;
            if (!this.alive) throw new Error(`the service exited before it was ready (${JSON.stringify(this.exitInfo)}): ${this.stderr.trim()}`);
            await sleep(10);
        }
        throw new Error(`the service did not print its URL within ${timeoutMs} ms; stdout: ${this.stdout.trim()} stderr: ${this.stderr.trim()}`);
    }

    /** SIGKILL (no cleanup in the child at all), then waits for the exit. */
    async kill(timeoutMs = 10_000): Promise<void> {
        if (this.alive) this.proc.kill('SIGKILL');
        await withTimeout(this.exited, timeoutMs, 'the killed service to exit');
    }

    /** SIGTERM (graceful stop) and waits for the exit; returns the exit code. */
    async terminate(timeoutMs: number): Promise<number | null> {
        if (this.alive) this.proc.kill('SIGTERM');
        const { code } = await withTimeout(this.exited, timeoutMs, 'the service to stop after SIGTERM');
        return code;
    }
}
