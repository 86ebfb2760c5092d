import { formatRawAddress } from '../../ton/address.ts';
import type { GenesisSpec, GenesisWallet } from './genesis.ts';

export interface DevnetManifest {
    network: 'devnet';
    global_id: number;
    genesis_utime: number;
    accounts: Array<{
        name: string;
        kind: string;
        address: string;
        friendly_address: string;
        workchain_id: number;
        public_key?: string;
        secret_key?: string;
        wallet_id?: number;
    }>;
}

/** Every seeded account, with the keys of the wallets so users and tests can sign messages. */
export function buildManifest(genesis: GenesisSpec, wallets: GenesisWallet[]): DevnetManifest {
    return {
        network: 'devnet',
        global_id: genesis.globalId,
        genesis_utime: genesis.utime,
        accounts: wallets.map(({ name, wallet }) => ({
            name,
            kind: wallet.kind,
            address: formatRawAddress(wallet.address),
            friendly_address: wallet.address.toString({ bounceable: false, testOnly: true }),
            workchain_id: wallet.address.workChain,
            public_key: wallet.keys.publicKey.toString('hex'),
            secret_key: wallet.keys.secretKey.toString('hex'),
            wallet_id: wallet.walletId,
        })),
    };
}
