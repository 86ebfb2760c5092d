import { Cell } from '@ton/core';
import type { Transaction as DbTransaction } from 'kysely';
import type { AccountStateRecord, BlockRecord } from '../chain/chain-source.ts';
import { parseTokenContent } from '../ton/jetton/token-content.ts';
import { memberEntries, multisigLayoutOf, readMultisigMembers } from '../ton/interfaces/multisig-data.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { insertInChunks } from '../store/chunks.ts';
import type { DerivedJettonOperations } from './jetton-operations.ts';
import { interfacesOf, type InspectedAccount } from './inspect-accounts.ts';
import { poolStakerRows } from '../store/pool-stakers.ts';

type Trx = DbTransaction<IndexDatabase>;

/** Wallets, jetton wallets and masters, and NFT items as the block left them. */
export async function writeTokenRows(trx: Trx, block: BlockRecord, inspected: Map<string, InspectedAccount>): Promise<void> {
    for (const state of block.accountStates ?? []) {
        const found = inspected.get(state.address);
        if (!found) continue;
        const { detected, verifiedJettonWallet } = found;
        const lt = state.lastTransLt;
        if (detected.wallet?.publicKey) {
            const row = {
                address: state.address,
                public_key: detected.wallet.publicKey,
                seqno: detected.wallet.seqno !== undefined ? BigInt(detected.wallet.seqno) : null,
                wallet_id: detected.wallet.walletId !== undefined ? BigInt(detected.wallet.walletId) : null,
                signature_allowed: detected.wallet.signatureAllowed === undefined ? null : detected.wallet.signatureAllowed ? 1 : 0,
                plugins: JSON.stringify(detected.wallet.plugins ?? detected.wallet.extensions ?? []),
                last_tx_lt: lt,
            };
            const { address: _a, ...update } = row;
            await trx.insertInto('wallets').values(row)
                .onConflict(oc => oc.column('address').doUpdateSet(update).where('wallets.last_tx_lt', '<=', lt)).execute();
        }
        if (detected.jettonWallet) {
            const row = {
                address: state.address,
                owner: detected.jettonWallet.owner,
                master: detected.jettonWallet.master,
                balance: detected.jettonWallet.balance.toString(),
                verified: verifiedJettonWallet ? 1 : 0,
                last_tx_lt: lt,
            };
            const { address: _a, ...update } = row;
            await trx.insertInto('jetton_wallets').values(row)
                .onConflict(oc => oc.column('address').doUpdateSet(update).where('jetton_wallets.last_tx_lt', '<=', lt)).execute();
        }
        if (detected.jettonMaster) {
            const master = detected.jettonMaster;
            const content = parseTokenContent(master.content);
            const previous = await trx.selectFrom('jetton_masters').select(['metadata_uri', 'metadata', 'metadata_status']).where('address', '=', state.address).executeTakeFirst();
            // A fetched document stays while the URI does; a new URI is fetched again (apart from ingestion).
            const keep = previous && previous.metadata_uri === (content.uri ?? null) && previous.metadata_status !== 'pending';
            const row = {
                address: state.address,
                total_supply: master.totalSupply.toString(),
                mintable: master.mintable ? 1 : 0,
                admin: master.admin,
                content: master.content.toBoc(),
                wallet_code_hash: master.walletCode.hash().toString('hex'),
                metadata: keep ? previous.metadata : JSON.stringify(content.onchain),
                metadata_uri: content.uri ?? null,
                metadata_status: keep ? previous.metadata_status : content.uri ? 'pending' as const : 'none' as const,
                last_tx_lt: lt,
            };
            const { address: _a, ...update } = row;
            await trx.insertInto('jetton_masters').values(row)
                .onConflict(oc => oc.column('address').doUpdateSet(update).where('jetton_masters.last_tx_lt', '<=', lt)).execute();
        }
        if (detected.nftItem?.initialized && detected.nftItem.content) {
            const item = detected.nftItem;
            const row = {
                address: state.address,
                collection: item.collection,
                item_index: item.index.toString(),
                owner: item.owner,
                content: item.content!.toBoc(),
                last_tx_lt: lt,
            };
            const { address: _a, ...update } = row;
            await trx.insertInto('nft_items').values(row)
                .onConflict(oc => oc.column('address').doUpdateSet(update).where('nft_items.last_tx_lt', '<=', lt)).execute();
        }
    }
}

/**
 * Replaces the members of every account the block touched with those its newest state names (none
 * when it is not, or no longer, a multisig). `current`: the block's states that are the accounts'
 * newest (see current-states.ts), so a block delivered out of order changes nothing.
 */
export async function writeMultisigMembers(trx: Trx, current: AccountStateRecord[], inspected: Map<string, InspectedAccount>): Promise<void> {
    for (let i = 0; i < current.length; i += 500) {
        const chunk = current.slice(i, i + 500);
        await trx.deleteFrom('multisig_members').where('multisig', 'in', chunk.map(state => state.address)).execute();
        const rows = chunk.flatMap(state => membersOf(state, inspected.get(state.address))
            .map(entry => ({ multisig: state.address, ...entry })));
        await insertInChunks(rows, 500, rowsChunk => trx.insertInto('multisig_members').values(rowsChunk).execute());
    }
}

/** Stakers of the staking pools among the block's accounts, as their newest states have them (see writeMultisigMembers). */
export async function writePoolStakers(trx: Trx, current: AccountStateRecord[], inspected: Map<string, InspectedAccount>): Promise<void> {
    for (let i = 0; i < current.length; i += 500) {
        const chunk = current.slice(i, i + 500);
        await trx.deleteFrom('pool_stakers').where('pool', 'in', chunk.map(state => state.address)).execute();
        const rows = chunk.flatMap(state => state.status === 'active'
            ? poolStakerRows(state.address, interfacesOf(state, inspected.get(state.address)), state.data)
            : []);
        await insertInChunks(rows, 500, rowsChunk => trx.insertInto('pool_stakers').values(rowsChunk).execute());
    }
}

function membersOf(state: AccountStateRecord, inspected: InspectedAccount | undefined) {
    const layout = multisigLayoutOf(interfacesOf(state, inspected));
    if (!layout || state.status !== 'active' || !state.data) return [];
    let data: Cell;
    try {
        data = Cell.fromBoc(state.data)[0];
    } catch {
        return [];
    }
    const members = readMultisigMembers(layout, data);
    return members ? memberEntries(members) : [];
}

/** Jetton operations of the block, and transfers completed by an internal_transfer received in it. */
export async function writeJettonOperations(trx: Trx, derived: DerivedJettonOperations): Promise<void> {
    await insertInChunks(derived.operations, 200, chunk => trx.insertInto('jetton_operations').values(chunk)
        .onConflict(oc => oc.column('transaction_hash').doNothing()).execute());
    for (const receipt of derived.receipts) {
        await trx.updateTable('jetton_operations')
            .set({ success: receipt.success ? 1 : 0, awaiting_message: null, destination_wallet: receipt.wallet })
            .where('awaiting_message', '=', receipt.message)
            .execute();
    }
}
