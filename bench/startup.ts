import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { tempDir } from '../test/helpers/stores.ts';
import { buildCompiledService, sleep } from './support.ts';

const BIN = 'bin/native-explorer.js';
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 7);

/**
 * Start-up of the compiled CLI, as a user meets it: `native-explorer help`, and `serve` on an index
 * that exists already (the devnet restored from its chain log; the API alone with --source none),
 * timed from the spawn to the first 200 of GET /v2/status.
 */
export async function startupBench(): Promise<void> {
    buildCompiledService();
    const help = medianOf(Array.from({ length: ROUNDS }, () => {
        const started = process.hrtime.bigint();
        const result = spawnSync(process.execPath, [BIN, 'help'], { stdio: 'ignore' });
        if (result.status !== 0) throw new Error('native-explorer help failed');
        return Number(process.hrtime.bigint() - started) / 1e6;
    }));

    const dir = tempDir();
    try {
        const first = spawnServe(dir.path, []);
        await waitForLine(first, /devnet ready/);
        await stop(first);
        const devnet: number[] = [];
        const devnetUp: number[] = [];
        const apiOnly: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
            devnet.push(await timeToFirstAnswer(dir.path, [], '/v2/status'));
            devnetUp.push(await timeToFirstAnswer(dir.path, [], '/v2/devnet/manifest'));
            apiOnly.push(await timeToFirstAnswer(dir.path, ['--source', 'none'], '/v2/status'));
        }
        console.log(`\n## Start-up (compiled CLI, median of ${ROUNDS})\n`);
        console.log('| measure | ms |');
        console.log('|---|---|');
        console.log(`| \`native-explorer help\` (spawn to exit) | ${help.toFixed(0)} |`);
        console.log(`| \`native-explorer serve\` on an existing devnet: spawn to first 200 of GET /v2/status | ${medianOf(devnet).toFixed(0)} |`);
        console.log(`| the same: spawn to first 200 of GET /v2/devnet/manifest (the devnet restored and running) | ${medianOf(devnetUp).toFixed(0)} |`);
        console.log(`| \`native-explorer serve --source none\` on the same index: spawn to first 200 | ${medianOf(apiOnly).toFixed(0)} |`);
    } finally {
        dir.remove();
    }
}

let nextPort = 18_600;

function spawnServe(dataDir: string, extra: string[], port = nextPort++): ChildProcess & { port: number } {
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--block-interval-ms', '200', '--liteserver-port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    return Object.assign(child, { port });
}

async function timeToFirstAnswer(dataDir: string, extra: string[], path: string): Promise<number> {
    const started = process.hrtime.bigint();
    const child = spawnServe(dataDir, extra);
    const url = `http://127.0.0.1:${child.port}${path}`;
    for (;;) {
        if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
        const ok = await fetch(url).then(r => r.status === 200, () => false);
        if (ok) break;
        await sleep(5);
    }
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    await stop(child);
    return elapsed;
}

function waitForLine(child: ChildProcess, line: RegExp): Promise<void> {
    return new Promise((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', chunk => {
            out += chunk;
            if (line.test(out)) resolve();
        });
        child.once('exit', code => reject(new Error(`serve exited with ${code} before ${line}`)));
    });
}

async function stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGINT');
    await exited;
}

function medianOf(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}
