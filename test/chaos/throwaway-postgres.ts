import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of the test's own (Debian's binaries, run as the postgres user, trust auth,
 * loopback only, on a free port) that the test may stop and start at will, leaving the shared
 * server alone. `available()` says why one cannot be had here, or null.
 */
export interface ThrowawayPostgres {
    url: string;
    port: number;
    stop(): void;
    start(): void;
    dispose(): void;
}

function binDir(): string | null {
    const root = '/usr/lib/postgresql';
    if (!existsSync(root)) return null;
    const versions = readdirSync(root).filter(v => existsSync(join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
    return versions.length ? join(root, versions[0], 'bin') : null;
}

export function throwawayPostgresUnavailable(): string | null {
    if (process.getuid?.() !== 0) return 'needs root (to run the PostgreSQL binaries as the postgres user)';
    if (!binDir()) return 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin';
    try {
        execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
        return 'no postgres user';
    }
    return null;
}

async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise(resolve => server.close(resolve));
    return port;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
    const bin = binDir()!;
    const dir = mkdtempSync(join(tmpdir(), 'ne-chaos-pg-'));
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    const data = join(dir, 'data');
    const asPostgres = (program: string, args: string[]) =>
        execFileSync('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { stdio: 'pipe', timeout: 60_000 });
    asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    const start = () => asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    const stop = () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    start();
    let running = true;
    return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        stop() {
            stop();
            running = false;
        },
        start() {
            start();
            running = true;
        },
        dispose() {
            try {
                if (running) stop();
            } finally {
                rmSync(dir, { recursive: true, force: true });
            }
        },
    };
}
