import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { startService, type RunningService } from '../src/app.ts';
import { openStore } from '../src/store/store.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { DEVNET_EXTRA_CURRENCIES_FILE } from '../src/chain/devnet/extra-currency.ts';
import { SEED_STEPS } from '../src/chain/devnet/seed.ts';
import { toNumber } from '../src/store/schema.ts';
import { tempDir } from '../test/helpers/stores.ts';
import { countIndexed, sleep, transferLoad, transferWallets } from './support.ts';

const TARGET_TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
/** BENCH_PROFILE=1: CPU profiles of both sides during the catch-up, summarized by self time. */
const PROFILE = process.env.BENCH_PROFILE === '1';
/** Block interval while the load is produced. */
const LOAD_INTERVAL_MS = 10;
/** Block interval while the follower catches up: the chain goes on (empty blocks), slowly. */
const QUIET_INTERVAL_MS = 1000;
/** Transfer rounds (a v5r1 transfer of 255 messages and a v4r2 one of 4) submitted and not yet in a block. */
const IN_FLIGHT = 2;

/**
 * Catch-up of a `--source lite` follower from the devnet's own liteserver over loopback: a devnet
 * of ≥ BENCH_TRANSACTIONS transactions (v5r1 transfers of 255 messages and v4r2 ones of 4), then a
 * follower in a process of its own (`serve --source lite --from-seqno 1`, a fresh SQLite index)
 * timed from its start until it has indexed the devnet's head. The devnet (and its liteserver)
 * stays in this process, so the two sides use separate cores, as on separate machines.
 */
export async function liteBench(): Promise<void> {
    const dir = tempDir('bench-lite-');
    const followerDir = tempDir('bench-lite-follower-');
    try {
        const built = await buildDevnet(dir.path);
        // The devnet again over the same chain, now quiet (a block a second): its liteserver first
        // brings its cell store and catalog up to the chain log (done once; a running devnet keeps them current).
        const restartStart = performance.now();
        const devnet = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, blockIntervalMs: QUIET_INTERVAL_MS });
        const liteserverSyncSeconds = (performance.now() - restartStart) / 1000;
        try {
            await catchUp(devnet, dir.path, followerDir.path, built, liteserverSyncSeconds);
        } finally {
            await devnet.stop();
        }
    } finally {
        dir.remove();
        followerDir.remove();
    }
}

interface BuiltDevnet {
    transactions: number;
    masterBlocks: number;
    seconds: number;
}

async function buildDevnet(dataDir: string): Promise<BuiltDevnet> {
    const service = await startService({ ...DEFAULT_CONFIG, dataDir, port: 0, liteserverPort: 0, blockIntervalMs: LOAD_INTERVAL_MS });
    const counts = countIndexed(service);
    try {
        while (counts.masterBlocks < SEED_STEPS.length + 2) await sleep(20);
        const start = performance.now();
        const run = await transferLoad(service, await transferWallets(service), counts, 255, TARGET_TRANSACTIONS, IN_FLIGHT);
        // every round sent is in a block; wait until it is indexed too
        const deadline = Date.now() + 60_000;
        while (run.rounds * (255 + 6) > counts.tx && Date.now() < deadline) await sleep(20);
        const seconds = (performance.now() - start) / 1000;
        const total = await service.store.db.selectFrom('transactions').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        return { transactions: toNumber(total.n as bigint), masterBlocks: await masterHead(service), seconds };
    } finally {
        await service.stop();
    }
}

/** The newest masterchain block in the service's index. */
async function masterHead(service: RunningService): Promise<number> {
    const row = await service.store.db.selectFrom('blocks').select(eb => eb.fn.max('seqno').as('seqno')).where('workchain', '=', -1).executeTakeFirstOrThrow();
    return toNumber(row.seqno as bigint);
}

async function catchUp(devnet: RunningService, devnetDir: string, followerDir: string, built: BuiltDevnet, liteserverSyncSeconds: number): Promise<void> {
    const head = await masterHead(devnet);
    const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), 'bench-lite-profile-')) : '';
    let session: Session | null = null;
    if (PROFILE) {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
    }
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const follower = startFollower(devnetDir, followerDir, PROFILE ? profileDir : null);
    let followerCpu = { user: 0, system: 0 };
    let seconds: number;
    let startupSeconds = 0;
    try {
        const base = await follower.base;
        startupSeconds = (performance.now() - start) / 1000;
        for (;;) {
            const status = await (await fetch(`${base}/v2/status`)).json() as { heads: Array<{ workchain_id: number; seqno: number }> };
            const master = status.heads.find(h => h.workchain_id === -1);
            if (master && master.seqno >= head) break;
            if (follower.exited) throw new Error('the follower exited');
            await sleep(100);
        }
        seconds = (performance.now() - start) / 1000;
        followerCpu = processCpu(follower.child.pid!);
    } finally {
        follower.child.kill('SIGTERM');
        await follower.done;
    }
    const liteCpu = process.cpuUsage(cpuBefore);
    let liteProfile: object | null = null;
    if (session) {
        liteProfile = (await session.post('Profiler.stop')).profile;
        session.disconnect();
    }
    const blocks = head;
    const index = await openStore({ dataDir: followerDir });
    const counted = await index.db.selectFrom('transactions').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const transactions = toNumber(counted.n as bigint);
    await index.close();
    console.log(`\n## Liteserver catch-up (a follower in its own process; the devnet and its liteserver in this one; loopback ADNL; ${cpus().length} cores)\n`);
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| devnet built (v5r1 255-message + v4r2 4-message transfers, block interval ${LOAD_INTERVAL_MS} ms) | ${built.transactions} transactions, ${built.masterBlocks} masterchain blocks in ${built.seconds.toFixed(1)} s |`);
    console.log(`| devnet restart, liteserver's cell store and catalog synced from the chain log (once) | ${liteserverSyncSeconds.toFixed(1)} s |`);
    console.log(`| follower catch-up from masterchain block 1 to ${head} (${transactions} transactions), process start included | ${seconds.toFixed(1)} s (start ${startupSeconds.toFixed(1)} s) |`);
    console.log(`| masterchain blocks/s | ${(blocks / seconds).toFixed(1)} |`);
    console.log(`| tx/s | ${(transactions / seconds).toFixed(0)} |`);
    console.log(`| tx/s after the follower's start | ${(transactions / (seconds - startupSeconds)).toFixed(0)} |`);
    console.log(`| liteserver side (devnet process, its producer thread included): CPU s (user+system) | ${((liteCpu.user + liteCpu.system) / 1e6).toFixed(1)} s |`);
    console.log(`| follower side (its process): CPU s (user+system) | ${((followerCpu.user + followerCpu.system) / 1e6).toFixed(1)} s |`);
    if (PROFILE) {
        writeFileSync(join(profileDir, 'liteserver.cpuprofile'), JSON.stringify(liteProfile));
        console.log(`\nCPU profiles in ${profileDir}`);
        summarizeProfile('liteserver side', liteProfile as CpuProfile);
        const file = readdirSync(profileDir).find(f => f.endsWith('.cpuprofile') && f !== 'liteserver.cpuprofile');
        if (file) summarizeProfile('follower side', JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile);
    }
}

function startFollower(devnetDir: string, dataDir: string, profileDir: string | null) {
    const args = [
        ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
        '--import', 'tsx', 'src/main.ts', 'serve', '--source', 'lite', '--liteservers', join(devnetDir, 'devnet-global.config.json'), '--from-seqno', '1',
        '--data-dir', dataDir, '--port', '0', '--liteserver-port', 'off', '--extra-currencies', DEVNET_EXTRA_CURRENCIES_FILE, '--anon-rps', '1000000',
    ];
    const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const state = { exited: false };
    let stderr = '';
    child.stderr!.on('data', chunk => {
        stderr += chunk;
        if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
    });
    const done = new Promise<void>(resolve => child.on('exit', () => {
        state.exited = true;
        resolve();
    }));
    const base = new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', chunk => {
            out += chunk;
            const match = /serving (http:\/\/\S+)\/v2/.exec(out);
            if (match) resolve(match[1]);
        });
        child.on('exit', code => reject(new Error(`the follower exited with ${code}: ${stderr.slice(-2000)}`)));
    });
    return { child, base, done, get exited() { return state.exited; } };
}

/** User and system CPU time of a process so far (Linux /proc), in microseconds. */
function processCpu(pid: number): { user: number; system: number } {
    try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
        const tick = 1e6 / 100;
        return { user: Number(fields[11]) * tick, system: Number(fields[12]) * tick };
    } catch {
        return { user: NaN, system: NaN };
    }
}

interface CpuProfile {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
    samples: number[];
    timeDeltas: number[];
}

/** The functions with the most self time, and the share of time idle. */
function summarizeProfile(label: string, profile: CpuProfile): void {
    const byId = new Map(profile.nodes.map(n => [n.id, n]));
    const self = new Map<string, number>();
    let total = 0;
    for (let i = 0; i < profile.samples.length; i++) {
        const node = byId.get(profile.samples[i])!;
        const dt = profile.timeDeltas[i] ?? 0;
        total += dt;
        const frame = node.callFrame;
        const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${frame.lineNumber + 1}` : '';
        const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
        self.set(key, (self.get(key) ?? 0) + dt);
    }
    console.log(`\n${label}: self time, top 25 (of ${(total / 1e6).toFixed(1)} s sampled)\n`);
    console.log('| function | ms | share |');
    console.log('|---|---|---|');
    for (const [key, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
        console.log(`| ${key.replace(/\|/g, '\\|')} | ${(us / 1000).toFixed(0)} | ${((us / total) * 100).toFixed(1)}% |`);
    }
}
