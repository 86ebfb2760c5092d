import type { IndexedWallet } from '../store/read/wallets.ts';
import { RawJson, toJson } from '../json/json.ts';

/**
 * WalletsByPublicKeys (spec 2.11): one item per requested key, in request order, duplicates kept.
 * Each wallet's text is written once, however many times its key is asked for.
 */
export function presentWalletsByPublicKeys(keys: string[], wallets: IndexedWallet[]) {
    const byKey = new Map<string, RawJson[]>();
    for (const wallet of wallets) {
        const presented = byKey.get(wallet.publicKey) ?? [];
        presented.push(new RawJson(toJson(presentWallet(wallet))));
        byKey.set(wallet.publicKey, presented);
    }
    return { items: keys.map(key => ({ public_key: key, wallets: byKey.get(key) ?? [] })) };
}

/** Wallet (spec 2.11). */
function presentWallet(wallet: IndexedWallet) {
    // A v5r1 wallet has extensions where a v4 wallet has plugins.
    const pluginType = wallet.interfaces.includes('wallet_v5r1') ? 'extension' : 'plugin';
    return {
        address: wallet.address,
        is_wallet: true,
        balance: wallet.balance,
        stats: {
            nfts_count: wallet.stats.nfts,
            jettons_count: wallet.stats.jettons,
            multisig_count: wallet.stats.multisigs,
            staking_count: wallet.stats.stakingPools,
        },
        plugins: wallet.plugins.map(address => ({ address, type: pluginType, status: 'active' })),
        status: wallet.status,
        last_activity: wallet.lastUtime,
        get_methods: new RawJson(wallet.getMethodsJson),
        last_lt: wallet.lastTxLt,
        interfaces: wallet.interfaces,
        signature_disabled: wallet.signatureAllowed === undefined ? undefined : !wallet.signatureAllowed,
    };
}
