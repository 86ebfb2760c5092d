import type { JettonMetadata } from '../../ton/jetton/jetton-preview.ts';
import { loadMultisigOrderActions, sentMessages, type MultisigAction } from '../../ton/interfaces/multisig-order.ts';
import type { IndexDb } from '../schema.ts';
import { toBigInt, toNumber } from '../schema.ts';
import { readAmong } from './among.ts';
import { accountInterfaces } from './accounts.ts';
import { jettonMetadata } from './jettons.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';

/** A multisig v2 order as indexed from its newest state, with what its risk needs to be shown. Addresses are raw. */
export interface IndexedMultisigOrder {
    address: string;
    multisig: string;
    orderSeqno: bigint;
    threshold: number;
    sentForExecution: boolean;
    /** The order's own copy of the signers, by index. */
    signers: string[];
    /** The signers whose approval bit is set, by ascending index. */
    signedBy: string[];
    approvalsNum: number;
    /** Unix seconds. */
    expirationDate: bigint;
    /**
     * Unix seconds: the utime of the transaction that processed the order's first `init`; when that
     * transaction is not indexed (an index started after the order was made), the oldest indexed
     * transaction of the order, the latest time it can have been made.
     */
    creationDate: bigint;
    /** By ascending action index. */
    actions: MultisigAction[];
    /** The multisig's balance now, in nanograms: what a send-all (mode 128) message can take; 0 when the index holds no state of it. */
    multisigBalance: bigint;
    /** What the index knows of the accounts the order's messages go to. */
    destinations: OrderDestinations;
}

export interface OrderDestinations {
    /** Verified jetton wallets. */
    jettonWallets: Map<string, { master: string; owner: string }>;
    /** Metadata of those wallets' masters, where indexed. */
    jettons: Map<string, JettonMetadata>;
    nftItems: Map<string, { index: bigint; owner: string | null }>;
    /** Interfaces of the destinations, the NFT owners and the multisig. */
    interfaces: Map<string, string[]>;
}

/** The order at `address`, or undefined when the index holds no (initialised) multisig order there. */
export async function multisigOrder(db: IndexDb, address: string): Promise<IndexedMultisigOrder | undefined> {
    const row = await db.selectFrom('multisig_orders').selectAll().where('address', '=', address).executeTakeFirst();
    if (!row) return undefined;
    const actions = loadMultisigOrderActions(readBoc(row.actions)[0]);
    const targets = [...new Set(sentMessages(actions).flatMap(({ message }) => message.info.type === 'internal' ? [message.info.dest.toRawString()] : []))];
    const [multisigState, destinations, creationDate] = await Promise.all([
        db.selectFrom('account_states').select('balance').where('address', '=', row.multisig).executeTakeFirst(),
        destinationFacts(db, targets, row.multisig),
        row.creation_date !== null ? Promise.resolve(toBigInt(row.creation_date)) : oldestActivity(db, address),
    ]);
    return {
        address: row.address,
        multisig: row.multisig,
        orderSeqno: BigInt(row.order_seqno),
        threshold: toNumber(row.threshold),
        sentForExecution: toNumber(row.sent_for_execution) !== 0,
        signers: JSON.parse(row.signers) as string[],
        signedBy: JSON.parse(row.signed_by) as string[],
        approvalsNum: toNumber(row.approvals_num),
        expirationDate: toBigInt(row.expiration_date),
        creationDate,
        actions,
        multisigBalance: multisigState ? toBigInt(multisigState.balance) : 0n,
        destinations,
    };
}

async function destinationFacts(db: IndexDb, targets: string[], multisig: string): Promise<OrderDestinations> {
    const [wallets, items] = await Promise.all([
        readAmong(db, 'address', targets, condition => db.selectFrom('jetton_wallets').select(['address', 'master', 'owner'])
            .where(condition).where('verified', '=', 1).execute()),
        readAmong(db, 'address', targets, condition => db.selectFrom('nft_items').select(['address', 'item_index', 'owner'])
            .where(condition).execute()),
    ]);
    const owners = items.flatMap(item => item.owner !== null ? [item.owner] : []);
    const [jettons, interfaces] = await Promise.all([
        jettonMetadata(db, wallets.map(wallet => wallet.master)),
        accountInterfaces(db, [...targets, ...owners, multisig]),
    ]);
    return {
        jettonWallets: new Map(wallets.map(wallet => [wallet.address, { master: wallet.master, owner: wallet.owner }])),
        jettons,
        nftItems: new Map(items.map(item => [item.address, { index: BigInt(item.item_index), owner: item.owner }])),
        interfaces,
    };
}

/** The utime of the account's oldest indexed transaction, else of its state. */
async function oldestActivity(db: IndexDb, address: string): Promise<bigint> {
    const oldest = await db.selectFrom('transactions').select('utime').where('account', '=', address).orderBy('lt', 'asc').limit(1).executeTakeFirst();
    if (oldest) return toBigInt(oldest.utime);
    const state = await db.selectFrom('account_states').select('last_utime').where('address', '=', address).executeTakeFirst();
    return state ? toBigInt(state.last_utime) : 0n;
}
