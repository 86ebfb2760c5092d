/**
 * The read side keeps answers and lookups while the index generation stays where it was. Here the
 * index changes underneath every kind of reader, with no block written in between (the devnet paused),
 * and each reader must answer from what the index says now:
 * - the writer's own process;
 * - `serve --source none` beside it, sharing its data directory (SQLite) or database (PostgreSQL);
 * - `serve --source none --workers 2` beside it, every worker asked.
 * What changes is what the caches are keyed on: an account's interfaces (kept traces, transaction
 * texts in account pages and block lists, `is_wallet`), a jetton's metadata (jetton history), and the
 * index heads once the devnet resumes (status).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { createTestDatabase } from '../helpers/stores.ts';
import { ClusterChild, onEveryWorker, send } from '../cluster/cluster-child.ts';
import { accountNamed, manifestOf } from './api-call.ts';

interface Reader {
    name: string;
    base: string;
    /** Runs `read` so that it reaches every process answering for this reader. */
    everywhere(read: () => Promise<void>): Promise<void>;
}

/** What alice's answers say, as one reader reads them now. */
interface Seen {
    traceWallet: boolean;
    pageWallets: boolean[];
    blockWallet: boolean;
    jettonNames: string[];
}

async function get(url: string): Promise<any> {
    const answer = await send(url);
    assert.equal(answer.status, 200, `${url}: ${answer.text}`);
    return answer.body;
}

async function seen(base: string, alice: string, probe: { root: string; block: string }): Promise<Seen> {
    const trace = await get(`${base}/traces/${probe.root}`);
    const page = await get(`${base}/blockchain/accounts/${alice}/transactions?limit=100`);
    const block = await get(`${base}/blockchain/blocks/${probe.block}/transactions`);
    const history = await get(`${base}/accounts/${alice}/jettons/history?limit=100`);
    return {
        traceWallet: trace.transaction.account.is_wallet,
        pageWallets: page.transactions.map((t: any) => t.account.is_wallet),
        blockWallet: block.transactions.find((t: any) => t.hash === probe.root).account.is_wallet,
        jettonNames: [...new Set<string>(history.operations.map((o: any) => o.jetton.name))].sort(),
    };
}

function readersOf(kind: 'sqlite' | 'postgres'): void {
    const pgUrl = process.env.TEST_PG_URL;
    const skip = kind === 'postgres' && !pgUrl ? 'TEST_PG_URL is not set' : false;
    describe(`answers follow the index underneath every reader (${kind})`, { skip }, () => {
        let writer: DevnetService;
        let dropDatabase: () => Promise<void> = async () => undefined;
        const children: ClusterChild[] = [];
        const readers: Reader[] = [];
        let alice = '';
        let probe = { root: '', block: '' };

        before(async () => {
            let databaseUrl: string | null = null;
            if (kind === 'postgres') {
                const database = await createTestDatabase(pgUrl!);
                databaseUrl = database.url;
                dropDatabase = () => database.drop();
            }
            writer = await startDevnetService(databaseUrl ? { databaseUrl } : {});
            await waitForSeed(writer);
            const db = [...(databaseUrl ? ['--db', databaseUrl] : []), '--anon-rps', '1000000'];
            const single = new ClusterChild(writer.dataDir, ['--source', 'none', ...db]);
            const workers = new ClusterChild(writer.dataDir, ['--source', 'none', '--workers', '2', ...db]);
            children.push(single, workers);
            await Promise.all(children.map(child => child.start(false)));
            readers.push(
                { name: 'the writer', base: writer.base, everywhere: read => read() },
                { name: '--source none', base: single.base, everywhere: read => read() },
                { name: '--source none --workers 2', base: workers.base, everywhere: read => onEveryWorker(workers, 2, 6, read) },
            );

            const manifest = await manifestOf(writer.base);
            alice = accountNamed(manifest, 'alice-v3r2').address;
            const page = await get(`${writer.base}/blockchain/accounts/${alice}/transactions?limit=100`);
            const root = page.transactions.find((t: any) => t.in_msg?.msg_type === 'ext_in_msg');
            assert.ok(root, 'alice sent at least one external transfer');
            probe = { root: root.hash, block: root.block };
            // No block from here on but where a test resumes the devnet: only what a test changes moves the generation.
            await pause();
        });

        /** Pauses the devnet and waits until the indexer has written the blocks produced before. */
        async function pause(): Promise<void> {
            await writer.devnet!.pause();
            let last = -1;
            for (;;) {
                const seqno = writer.indexer!.lastIndexed!.block.id.seqno;
                if (seqno === last) return;
                last = seqno;
                await new Promise(resolve => setTimeout(resolve, 500));
            }
        }

        after(async () => {
            await Promise.all(children.map(child => (child.alive ? child.terminate(60_000) : undefined)));
            await writer?.dispose();
            await dropDatabase();
        });

        /** Changes rows as the indexer would, moving the index generation in the same transaction. */
        async function change(apply: (trx: any) => Promise<unknown>): Promise<void> {
            await writer.store.db.transaction().execute(async trx => {
                await apply(trx);
                await trx.updateTable('index_generation').set(eb => ({ generation: eb('generation', '+', 1) })).where('id', '=', 1).execute();
            });
        }

        /**
         * Reads with `read` and checks with `check` on every process of every reader until the check
         * holds: at once on SQLite, whose readers read the generation with every answer; within 5 s on
         * PostgreSQL, whose readers learn it from a notification a moment after the commit.
         */
        async function everywhere<T>(what: string, read: (base: string) => Promise<T>, check: (seen: T) => void): Promise<void> {
            for (const reader of readers) {
                await reader.everywhere(async () => {
                    const deadline = Date.now() + (kind === 'postgres' ? 5_000 : 0);
                    for (;;) {
                        try {
                            check(await read(reader.base));
                            return;
                        } catch (error) {
                            if (!(error instanceof assert.AssertionError)) throw error;
                            if (Date.now() > deadline) throw new assert.AssertionError({ message: `${reader.name}: ${what}: ${error.message}` });
                        }
                        await new Promise(resolve => setTimeout(resolve, 50));
                    }
                });
            }
        }

        const expectEverywhere = (what: string, check: (seen: Seen) => void) => everywhere(what, base => seen(base, alice, probe), check);

        it("an account's interfaces changed: traces, account pages and block lists say so at once, and again once changed back", async () => {
            await expectEverywhere('alice is a wallet', now => {
                assert.equal(now.traceWallet, true);
                assert.ok(now.pageWallets.length >= 2 && now.pageWallets.every(Boolean));
                assert.equal(now.blockWallet, true);
            });
            const row = await writer.store.db.selectFrom('account_states').select('interfaces').where('address', '=', alice).executeTakeFirstOrThrow();
            await change(trx => trx.updateTable('account_states').set({ interfaces: '[]' }).where('address', '=', alice).execute());
            await expectEverywhere('alice is no wallet any more', now => {
                assert.equal(now.traceWallet, false);
                assert.ok(now.pageWallets.every(wallet => !wallet));
                assert.equal(now.blockWallet, false);
            });
            await change(trx => trx.updateTable('account_states').set({ interfaces: row.interfaces }).where('address', '=', alice).execute());
            await expectEverywhere('alice is a wallet again', now => {
                assert.equal(now.traceWallet, true);
                assert.ok(now.pageWallets.every(Boolean));
                assert.equal(now.blockWallet, true);
            });
        });

        it("a jetton's metadata changed: jetton history shows the new name", async () => {
            await expectEverywhere('the seeded names', now => assert.ok(now.jettonNames.includes('Devnet Dollar'), now.jettonNames.join(', ')));
            const master = await writer.store.db.selectFrom('jetton_masters').select(['address', 'metadata'])
                .where('metadata', 'like', '%Devnet Dollar%').executeTakeFirstOrThrow();
            const renamed = JSON.stringify({ ...JSON.parse(master.metadata), name: 'Renamed Dollar' });
            try {
                await change(trx => trx.updateTable('jetton_masters').set({ metadata: renamed }).where('address', '=', master.address).execute());
                await expectEverywhere('the new name', now => {
                    assert.ok(now.jettonNames.includes('Renamed Dollar'), now.jettonNames.join(', '));
                    assert.ok(!now.jettonNames.includes('Devnet Dollar'));
                });
            } finally {
                await change(trx => trx.updateTable('jetton_masters').set({ metadata: master.metadata }).where('address', '=', master.address).execute());
            }
            await expectEverywhere('the seeded names again', now => assert.ok(now.jettonNames.includes('Devnet Dollar')));
        });

        /** Every reader's status names the index's head as the writer last wrote it. */
        async function statusEverywhere(): Promise<void> {
            const head = writer.indexer!.lastIndexed!.block.id;
            await everywhere(`the head at ${head.seqno}`, base => get(`${base}/status`), status => {
                assert.equal(status.heads.find((h: any) => h.workchain_id === head.workchain)?.seqno, head.seqno);
            });
        }

        it('the devnet resumed: every reader\'s status shows the new head', async () => {
            await statusEverywhere();
            const before = writer.indexer!.lastIndexed!.block.id.seqno;
            await writer.devnet!.resume();
            const deadline = Date.now() + 30_000;
            while (writer.indexer!.lastIndexed!.block.id.seqno < before + 3) {
                assert.ok(Date.now() < deadline, 'the devnet wrote no new blocks after it resumed');
                await new Promise(resolve => setTimeout(resolve, 25));
            }
            await pause();
            await statusEverywhere();
        });
    });
}

readersOf('sqlite');
readersOf('postgres');
