import type { Store } from '../../store/store.ts';
import { walletsByPublicKeys } from '../../store/read/wallets.ts';
import { multisigOrder } from '../../store/read/multisig-orders.ts';
import { walletSeqnos } from '../../store/read/wallet-seqnos.ts';
import type { DevnetManifest } from '../../chain/devnet/manifest.ts';
import { presentWalletsByPublicKeys } from '../../present/wallets.ts';
import { presentMultisigOrder } from '../../present/multisig-order.ts';
import { manifestWithSeqnos } from '../../present/devnet-manifest.ts';

/** Wallets by key, multisig orders and the devnet's wallets: read from the index as they are now. */
export class AccountAnswers {
    constructor(private readonly store: Store) {}

    async walletsByPublicKeys(keys: string[]) {
        return presentWalletsByPublicKeys(keys, await walletsByPublicKeys(this.store.db, keys));
    }

    /** The order at `address`, or undefined when the index holds none. */
    async multisigOrder(address: string) {
        const order = await multisigOrder(this.store.db, address);
        return order && presentMultisigOrder(order);
    }

    /** The devnet's manifest with each of its wallets' seqno as the index has it. */
    async devnetManifest(manifest: DevnetManifest) {
        const wallets = manifest.accounts.filter(account => account.secret_key).map(account => account.address);
        return manifestWithSeqnos(manifest, await walletSeqnos(this.store.db, wallets));
    }
}
