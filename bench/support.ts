import { spawn, type ChildProcess } from 'node:child_process';
import { Cell } from '@ton/core';
import type { Store } from '../src/store/store.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';

/** A seeded wallet's current seqno, from its data as indexed. */
export async function seqnoOf(store: Store, wallet: DevnetWallet): Promise<number> {
    const row = await store.db.selectFrom('account_states').select(['data']).where('address', '=', `0:${wallet.address.hash.toString('hex')}`).executeTakeFirstOrThrow();
    return DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(row.data!)[0]);
}

/** `serve --source none` over a data directory in its own process, as users run the API over an index. */
export async function startApiProcess(dataDir: string): Promise<{ base: string; server: ChildProcess }> {
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--source', 'none', '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout!.on('data', chunk => {
            out += chunk;
            const match = /serving (http:\/\/\S+)\/v2/.exec(out);
            if (match) resolve(match[1]);
        });
        server.on('exit', code => reject(new Error(`API server exited with ${code}`)));
    });
    return { base, server };
}

export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}
