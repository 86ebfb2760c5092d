import type { DevnetManifest } from '../chain/devnet/manifest.ts';

/** The devnet's manifest with each seeded wallet's current seqno (0 until it is deployed), so clients can sign for it. */
export function manifestWithSeqnos(manifest: DevnetManifest, seqnos: ReadonlyMap<string, number>): DevnetManifest {
    return {
        ...manifest,
        accounts: manifest.accounts.map(account => (account.secret_key ? { ...account, seqno: seqnos.get(account.address) ?? 0 } : account)),
    };
}
