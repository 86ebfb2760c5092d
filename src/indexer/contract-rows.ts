import type { Transaction as DbTransaction } from 'kysely';
import type { BlockRecord } from '../chain/chain-source.ts';
import { parseTokenContent } from '../ton/jetton/token-content.ts';
import type { IndexDatabase } from '../store/schema.ts';
import type { InspectedAccount } from './inspect-accounts.ts';

type Trx = DbTransaction<IndexDatabase>;

/**
 * What the block's accounts are, as their get-methods told the inspector: wallets (by public key),
 * jetton masters and wallets, NFT items, each row as the account's newest state has it.
 */
export async function writeContractRows(trx: Trx, block: BlockRecord, inspected: Map<string, InspectedAccount>): Promise<void> {
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
