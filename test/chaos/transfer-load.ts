/**
 * The chaos runs' load: signed transfers posted to a running service's POST /v2/blockchain/message
 * (which answers once the message is in a block), in a loop per seeded wallet:
 *   - bob-v5r1: `bulkSize` plain transfers to fresh addresses (the benchmarks' bulk transfer);
 *   - bob-v4r2: 3 plain transfers and a DPTS jetton transfer to alice;
 *   - faucet (v4r2): 4 plain transfers (as in the benchmarks' load);
 *   - alice-v3r2: a bounceable transfer to nobody (it bounces back), a DUSD jetton transfer to
 *     bob-v4r2 and a DUSD mint to bob-v5r1 (alice is the DUSD admin): traces of several
 *     transactions and jetton operations, wallet and master rows changing every block.
 * Seqnos come from the devnet's chain log (its committed account states), then count up while the
 * service accepts; a rejected or cut-off message makes the loop read the chain log again.
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Address, Cell, beginCell, comment, internal, loadShardAccount, type MessageRelaxed } from '@ton/core';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { JETTON_TON, jettonMintBody, jettonTransferBody, jettonWalletAddress } from '../../src/chain/devnet/contracts/jetton.ts';
import { sleep } from '../helpers/crash-child.ts';
import { openReadOnly } from '../helpers/ingest-checks.ts';

export interface DevnetManifestAccounts {
    accounts: Array<{ name: string; kind: string; address: string; secret_key?: string; workchain_id?: number }>;
}

export class LoadStats {
    accepted = 0;
    rejected = 0;
    /** Requests that died with the service (connection reset or timed out). */
    cutOff = 0;
}

export class TransferLoad {
    private stopped = false;
    private readonly loops: Promise<void>[];

    constructor(private readonly base: string, private readonly chainFile: string, manifest: DevnetManifestAccounts, bulkSize: number, private readonly stats: LoadStats) {
        const entry = (name: string) => {
            const account = manifest.accounts.find(a => a.name === name);
            if (!account) throw new Error(`the devnet manifest has no ${name}`);
            return account;
        };
        const alice = DevnetWallet.fromManifest(entry('alice-v3r2'));
        const bobV4 = DevnetWallet.fromManifest(entry('bob-v4r2'));
        const bobV5 = DevnetWallet.fromManifest(entry('bob-v5r1'));
        const faucet = DevnetWallet.fromManifest(entry('faucet'));
        const dollar = Address.parseRaw(entry('DUSD').address);
        const points = Address.parseRaw(entry('DPTS').address);
        const fresh = () => new Address(0, randomBytes(32));
        const plain = (value: bigint) => internal({ to: fresh(), value, bounce: false });
        const jettonTransfer = (owner: Address, master: Address, to: Address, amount: bigint, n: number) => internal({
            to: jettonWalletAddress(owner, master), value: JETTON_TON.transfer + 10_000_000n, bounce: true,
            body: jettonTransferBody({ queryId: BigInt(n), amount, destination: to, responseDestination: owner, forwardTonAmount: 1n, forwardPayload: beginCell().storeUint(0, 32).storeStringTail(`chaos ${n}`).endCell() }),
        });
        this.loops = [
            this.loop(bobV5, () => Array.from({ length: bulkSize }, () => plain(10_000_000n))),
            this.loop(bobV4, n => [plain(20_000_000n), plain(20_000_000n), plain(20_000_000n), jettonTransfer(bobV4.address, points, alice.address, 1_000n, n)]),
            this.loop(faucet, () => Array.from({ length: 4 }, () => plain(20_000_000n))),
            this.loop(alice, n => [
                internal({ to: fresh(), value: 20_000_000n, bounce: true, body: comment(`chaos bounce ${n}`) }),
                jettonTransfer(alice.address, dollar, bobV4.address, 1_000n, n),
                internal({
                    to: dollar, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: true,
                    body: jettonMintBody({ queryId: BigInt(n), to: bobV5.address, amount: 1_000n, from: dollar, responseAddress: alice.address }),
                }),
            ]),
        ];
    }

    async stop(): Promise<void> {
        this.stopped = true;
        await Promise.all(this.loops);
    }

    private async loop(wallet: DevnetWallet, messages: (n: number) => MessageRelaxed[]): Promise<void> {
        let seqno: number | null = null;
        for (let n = 0; !this.stopped; n++) {
            seqno ??= this.committedSeqno(wallet);
            if (seqno === null) {
                await sleep(50);
                continue;
            }
            const boc = (await wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 60, messages(n))).toBoc().toString('base64');
            try {
                const response = await fetch(`${this.base}/blockchain/message`, {
                    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }), signal: AbortSignal.timeout(15_000),
                });
                await response.arrayBuffer();
                if (response.status === 200) {
                    this.stats.accepted++;
                    seqno++;
                } else {
                    this.stats.rejected++;
                    seqno = null;
                    await sleep(20);
                }
            } catch {
                this.stats.cutOff++;
                seqno = null;
                await sleep(20);
            }
        }
    }

    /** The wallet's seqno in the chain log's committed state; null until it is deployed. */
    private committedSeqno(wallet: DevnetWallet): number | null {
        if (!existsSync(this.chainFile)) return null;
        const db = openReadOnly(this.chainFile);
        try {
            const row = db.prepare('SELECT shard_account FROM accounts WHERE address = ?').get(`0:${wallet.address.hash.toString('hex')}`) as { shard_account: Buffer } | undefined;
            if (!row) return null;
            const state = loadShardAccount(Cell.fromBoc(row.shard_account)[0].beginParse()).account?.storage.state;
            if (state?.type !== 'active' || !state.state.data) return null;
            return DevnetWallet.seqnoFromData(wallet.kind, state.state.data);
        } catch {
            return null; // the chain log is not created yet
        } finally {
            db.close();
        }
    }
}
