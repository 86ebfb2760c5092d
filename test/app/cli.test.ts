import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { SEED_STEPS } from '../../src/chain/devnet/seed.ts';
import { startDevnetService, waitForSeed } from '../helpers/devnet-service.ts';
import { createTestDatabase, tempDir } from '../helpers/stores.ts';
import { blockFile, mainnetSkip, readSummary } from '../helpers/fixtures.ts';
import { accountNamed, call, manifestOf } from '../api/api-call.ts';
import { builtCommand } from '../helpers/built-command.ts';

/** The CLI as users run it: the package's command over the build. */
function cli(args: string[]): ChildProcess {
    return spawn(...builtCommand(args), { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the CLI to its end without blocking this process (which may be serving the API the CLI calls). */
async function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = cli(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', chunk => { stdout += chunk; });
    child.stderr!.on('data', chunk => { stderr += chunk; });
    const [code] = await once(child, 'exit');
    return { code, stdout, stderr };
}

test('help prints the commands and options and exits 0', async () => {
    const { code, stdout } = await runCli(['help']);
    assert.equal(code, 0);
    for (const word of ['serve', 'import-blocks', 'sign-transfer', '--data-dir', '--api', '--db']) assert.ok(stdout.includes(word), word);
});

test('serve prints each seed step as it is indexed, one line when the devnet is ready, and one when it stops', async () => {
    const dir = tempDir();
    try {
        const child = cli(['serve', '--data-dir', dir.path, '--port', '0', '--liteserver-port', '0', '--block-interval-ms', '50']);
        let stdout = '';
        child.stdout!.on('data', chunk => { stdout += chunk; });
        const ready = new Promise<void>((resolve, reject) => {
            child.stdout!.on('data', () => /devnet ready/.test(stdout) && resolve());
            child.once('exit', code => reject(new Error(`serve exited with ${code}: ${stdout}`)));
        });
        await ready;
        const exited = once(child, 'exit');
        child.kill('SIGINT');
        const [code] = await exited;
        assert.equal(code, 0);

        const lines = stdout.trim().split('\n');
        const steps = lines.filter(line => line.startsWith('seeding '));
        assert.equal(steps.length, SEED_STEPS.length);
        steps.forEach((line, i) => assert.equal(line, `seeding ${i + 1}/${SEED_STEPS.length}: ${SEED_STEPS[i].label}`));
        const readyLine = lines.findIndex(line => line.startsWith('devnet ready: seed activity indexed up to masterchain block '));
        assert.ok(readyLine > lines.indexOf(steps.at(-1)!), 'the ready line follows the last seed step');
        assert.match(lines.at(-1)!, /^native-explorer: stopped; index at (masterchain|basechain) block \d+$/);
        assert.equal(lines.filter(line => line.includes('stopped')).length, 1);
    } finally {
        dir.remove();
    }
});

test('import-blocks indexes block files once, and a second run finds them indexed', { skip: mainnetSkip }, async () => {
    const dir = tempDir();
    try {
        const files = [blockFile('block-5'), blockFile('block-4')];
        const first = await runCli(['import-blocks', '--data-dir', dir.path, ...files]);
        assert.equal(first.code, 0, first.stderr);
        const transactions = readSummary('block-5').tx_quantity + readSummary('block-4').tx_quantity;
        assert.match(first.stdout, new RegExp(`^indexed 2 new block\\(s\\) with ${transactions} transaction\\(s\\); 0 already in the index$`, 'm'));
        const again = await runCli(['import-blocks', '--data-dir', dir.path, ...files]);
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /^indexed 0 new block\(s\) with 0 transaction\(s\); 2 already in the index$/m);
    } finally {
        dir.remove();
    }
});

describe('sign-transfer', () => {
    test('without a running service it says to start one, with no raw error', async () => {
        const port = await closedPort();
        const { code, stderr } = await runCli(['sign-transfer', 'alice-v3r2', `0:${'11'.repeat(32)}`, '1000', '--api', `http://127.0.0.1:${port}`]);
        assert.equal(code, 1);
        assert.match(stderr, new RegExp(`^no service answers at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): start the devnet with \`npm start\` first`));
        assert.doesNotMatch(stderr, /ENOENT|\n\s+at /);
    });

    test('an unknown wallet name lists the seeded wallets; a bad address is named', async () => {
        const service = await startDevnetService();
        try {
            const api = service.url.replace(/\/$/, '');
            const unknown = await runCli(['sign-transfer', 'carol', `0:${'11'.repeat(32)}`, '1000', '--api', api]);
            assert.equal(unknown.code, 1);
            assert.match(unknown.stderr, /^no seeded wallet named 'carol'; wallets: faucet, alice-v3r2, /);
            const bad = await runCli(['sign-transfer', 'alice-v3r2', 'nowhere', '1000', '--api', api]);
            assert.equal(bad.code, 1);
            assert.match(bad.stderr, /^'nowhere' is not an address/);
        } finally {
            await service.dispose();
        }
    });

    const backends: Array<{ name: string; url?: string }> = [{ name: 'SQLite' }];
    if (process.env.TEST_PG_URL) backends.push({ name: 'PostgreSQL', url: process.env.TEST_PG_URL });
    for (const backend of backends) {
        test(`signs with the seqno the running service indexed (${backend.name} index), transfer after transfer`, async () => {
            let database: { url: string; drop(): Promise<void> } | undefined;
            if (backend.url) database = await createTestDatabase(backend.url);
            const service = await startDevnetService(database ? { databaseUrl: database.url } : {});
            try {
                await waitForSeed(service);
                const api = service.url.replace(/\/$/, '');
                const bob = accountNamed(await manifestOf(service.base), 'bob-v4r2');
                for (let i = 0; i < 2; i++) {
                    const before = accountNamed(await manifestOf(service.base), 'alice-v3r2').seqno!;
                    const signed = await runCli(['sign-transfer', 'alice-v3r2', bob.address, '1000000', `cli transfer ${i}`, '--api', api]);
                    assert.equal(signed.code, 0, signed.stderr);
                    const boc = signed.stdout.trim();
                    assert.match(boc, /^[A-Za-z0-9+/]+=*$/);
                    const sent = await call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: { boc } });
                    assert.equal(sent.status, 200, sent.text);
                    assert.equal(accountNamed(await manifestOf(service.base), 'alice-v3r2').seqno, before + 1);
                }
            } finally {
                await service.dispose();
                await database?.drop();
            }
        });
    }
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise(resolve => server.close(resolve));
    return port;
}
