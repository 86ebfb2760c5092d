import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, comment as commentBody, internal, type Address } from '@ton/core';
import type { Store } from '../../store/store.ts';
import type { DevnetManifest } from './manifest.ts';
import { DevnetWallet } from './wallets.ts';

export interface TransferRequest {
    from: string;
    to: Address;
    amount: bigint;
    comment?: string;
    bounce: boolean;
}

/**
 * A transfer signed by one of the devnet's seeded wallets, ready for POST /v2/blockchain/message.
 * The seqno is read from the wallet's data as last indexed (0 while the wallet is not deployed).
 */
export async function signedTransfer(dataDir: string, store: Store, request: TransferRequest): Promise<Cell> {
    const manifest = JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8')) as DevnetManifest;
    const account = manifest.accounts.find(a => a.name === request.from);
    if (!account?.secret_key) {
        throw new Error(`no seeded wallet named '${request.from}'; wallets: ${manifest.accounts.filter(a => a.secret_key).map(a => a.name).join(', ')}`);
    }
    const wallet = DevnetWallet.fromManifest(account);
    const state = await store.db.selectFrom('account_states').select(['status', 'data']).where('address', '=', account.address).executeTakeFirst();
    const seqno = state?.status === 'active' && state.data ? DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(state.data)[0]) : 0;
    return wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 120, [
        internal({ to: request.to, value: request.amount, bounce: request.bounce, body: request.comment ? commentBody(request.comment) : undefined }),
    ]);
}
