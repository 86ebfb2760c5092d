import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Address, internal } from '@ton/core';
import { DevnetSource } from '../src/chain/devnet/devnet-source.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';
import { walletSeqno } from '../src/chain/devnet/seed.ts';
const dir = mkdtempSync(join(tmpdir(), 'zz-load-'));
const devnet = new DevnetSource({ dataDir: dir, blockIntervalMs: 10, faucetCap: 10n ** 12n });
await devnet.start();
while (!devnet.seeded) await devnet.nextBlock();
const manifest = devnet.manifest();
const walletOf = (name: string) => DevnetWallet.fromManifest(manifest.accounts.find(x => x.name === name)!);
const bulk = walletOf('bob-v5r1');
const small = walletOf('faucet');
const chain = (devnet as any).chain;
let bulkSeqno = await walletSeqno(chain, bulk);
let smallSeqno = await walletSeqno(chain, small);
const t = performance.now();
let txs = 0;
const ac = new AbortController();
void (async () => { for await (const item of devnet.blocksAfter(null, ac.signal)) { txs += item.block.transactions.length; } })();
const ROUNDS = Number(process.env.ROUNDS ?? 30);
for (let i = 0; i < ROUNDS; i++) {
  const bulkMessages = Array.from({ length: 255 }, () => internal({ to: new Address(0, randomBytes(32)), value: 10_000_000n, bounce: false }));
  const smallMessages = Array.from({ length: 4 }, () => internal({ to: new Address(0, randomBytes(32)), value: 20_000_000n, bounce: false }));
  await Promise.all([
    devnet.submit(async utime => bulk.transfer(bulkSeqno, utime + 60, bulkMessages)),
    devnet.submit(async utime => small.transfer(smallSeqno, utime + 60, smallMessages)),
  ]);
  bulkSeqno++; smallSeqno++;
}
const s = (performance.now() - t) / 1000;
console.log('produced rounds', ROUNDS, 'in', s.toFixed(1), 's', 'tx/s produced', (ROUNDS * 263 / s).toFixed(0));
ac.abort();
await devnet.stop();
