import { formatRawAddress } from '../ton/address.ts';
import { jettonPreview } from '../ton/jetton/jetton-preview.ts';
import { changingParameters, sentMessages } from '../ton/interfaces/multisig-order.ts';
import { presentRisk, type JettonPreviewJson, type NftItemJson, type RiskJson } from '../risk/present-risk.ts';
import { walletRisk } from '../risk/wallet-risk.ts';
import type { IndexedMultisigOrder } from '../store/read/multisig-orders.ts';
import { AccountDirectory } from './account-address.ts';

export interface MultisigOrderJson {
    address: string;
    order_seqno: string;
    threshold: number;
    sent_for_execution: boolean;
    signers: string[];
    approvals_num: number;
    expiration_date: bigint;
    risk: RiskJson;
    creation_date: bigint;
    signed_by: string[];
    multisig_address: string;
    changing_parameters?: { threshold: number; signers: string[]; proposers: string[] };
}

/**
 * MultisigOrder (spec 2.15). The risk is what the order's send_message actions take from the
 * multisig, read as a signed wallet message's are (a send-all message valued at the multisig's
 * balance now); `changing_parameters` is the last update_multisig_params action, absent without one.
 */
export async function presentMultisigOrder(order: IndexedMultisigOrder): Promise<MultisigOrderJson> {
    const { destinations } = order;
    const accounts = new AccountDirectory(destinations.interfaces);
    const accountAddress = (address: string) => accounts.accountAddress(address);
    const risk = await presentRisk(walletRisk(sentMessages(order.actions)), {
        jettonWallet: address => destinations.jettonWallets.get(address),
        jettonPreview: master => destinations.jettons.has(master) ? jettonPreview(master, destinations.jettons.get(master)) as JettonPreviewJson : undefined,
        nftItem: address => nftItem(order, address, accountAddress),
        accountAddress,
    }, { wallet: order.multisig, walletBalance: order.multisigBalance });
    const update = changingParameters(order.actions);
    return {
        address: order.address,
        order_seqno: order.orderSeqno.toString(),
        threshold: order.threshold,
        sent_for_execution: order.sentForExecution,
        signers: order.signers,
        approvals_num: order.approvalsNum,
        expiration_date: order.expirationDate,
        risk,
        creation_date: order.creationDate,
        signed_by: order.signedBy,
        multisig_address: order.multisig,
        ...(update && {
            changing_parameters: {
                threshold: update.threshold,
                signers: update.signers.map(formatRawAddress),
                proposers: update.proposers.map(formatRawAddress),
            },
        }),
    };
}

function nftItem(order: IndexedMultisigOrder, address: string, accountAddress: (address: string) => NftItemJson['owner']): NftItemJson | undefined {
    const item = order.destinations.nftItems.get(address);
    if (!item) return undefined;
    const json: NftItemJson = { address, index: BigInt.asIntN(64, item.index), verified: false, metadata: {}, approved_by: [], trust: 'none' };
    if (item.owner !== null) json.owner = accountAddress(item.owner);
    return json;
}
