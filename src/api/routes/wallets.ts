import type { FastifyInstance } from 'fastify';
import { parsePublicKey } from '../../ton/input.ts';
import { holdingsOf, multisigCountOf, stakingCountOf, walletsByPublicKeys } from '../../store/read/wallets.ts';
import { toNumber } from '../../store/schema.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

export function walletRoutes(services: ApiServices) {
    const { db } = services.store;
    return async (app: FastifyInstance) => {
        operation(app, 'getWalletsByPublicKeyBulk', async request => {
            const keys = (request.body.public_keys as string[]).map(parsePublicKey);
            const rows = await walletsByPublicKeys(db, keys);
            const addresses = rows.map(r => r.address);
            const [holdings, multisigs, stakes] = await Promise.all([holdingsOf(db, addresses), multisigCountOf(db, rows), stakingCountOf(db, addresses)]);
            const walletsOf = (key: string) => rows.filter(r => r.public_key === key).map(row => {
                const interfaces = JSON.parse(row.interfaces) as string[];
                const held = holdings.get(row.address)!;
                return {
                    address: row.address,
                    is_wallet: true,
                    balance: row.balance,
                    stats: { nfts_count: held.nfts, jettons_count: held.jettons, multisig_count: multisigs.get(row.address)!, staking_count: stakes.get(row.address)! },
                    plugins: (JSON.parse(row.plugins) as string[]).map(address => ({ address, type: interfaces.includes('wallet_v5r1') ? 'extension' : 'plugin', status: 'active' })),
                    status: row.status,
                    last_activity: toNumber(row.last_utime),
                    get_methods: JSON.parse(row.get_methods) as string[],
                    last_lt: row.last_tx_lt,
                    interfaces,
                    signature_disabled: row.signature_allowed === null ? undefined : toNumber(row.signature_allowed) === 0,
                };
            });
            // One item per requested key, in request order, duplicates kept.
            return { items: keys.map(key => ({ public_key: key, wallets: walletsOf(key) })) };
        });
    };
}
