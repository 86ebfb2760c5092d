import type { ActionDraft, EncryptedComment, TransferNote } from '../action.ts';
import { jettonPreviewJson, nftItemJson, priceJson } from './assets.ts';
import type { PresentContext } from './context.ts';
import { oracleRequestJson, tokenStakeJson } from './token-staking.ts';
import { liquidityDepositJson } from './liquidity.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';

/** The detail member of an Action (named like its type), with exactly the schema's fields. */
export function actionDetailJson(a: ActionDraft, ctx: PresentContext): Record<string, unknown> {
    const acc = ctx.accounts;
    const opt = (raw: string | undefined) => (raw === undefined ? undefined : acc(raw));
    const facts = ctx.facts;
    // A transfer that never reached the recipient's wallet (a failed send) knows neither it nor the jetton.
    const known = (raw: string | undefined) => (raw === undefined || raw === UNKNOWN_ADDRESS ? undefined : raw);
    const knownJetton = (master: string | undefined) => (known(master) === undefined ? undefined : jettonPreviewJson(facts, master));
    switch (a.type) {
        case 'NativeTransfer':
            return clean({ sender: acc(a.sender), recipient: acc(a.recipient), amount: a.amount, ...noteJson(a) });
        case 'ExtraCurrencyTransfer':
            return clean({
                sender: acc(a.sender), recipient: acc(a.recipient), amount: a.amount.toString(),
                currency: ctx.currencies.preview(a.currencyId), ...noteJson(a),
            });
        case 'ContractDeploy':
            return { address: a.address, interfaces: a.interfaces };
        case 'JettonTransfer':
            return clean({
                sender: opt(a.sender), recipient: opt(a.recipient), senders_wallet: a.sendersWallet, recipients_wallet: known(a.recipientsWallet),
                amount: a.amount.toString(), jetton: knownJetton(a.master), ...noteJson(a),
            });
        case 'FlawedJettonTransfer':
            return clean({
                sender: opt(a.sender), recipient: opt(a.recipient), senders_wallet: a.sendersWallet, recipients_wallet: known(a.recipientsWallet),
                sent_amount: a.sentAmount.toString(), received_amount: a.receivedAmount.toString(), jetton: knownJetton(a.master), ...noteJson(a),
            });
        case 'JettonBurn':
            return { sender: acc(a.sender), senders_wallet: a.sendersWallet, amount: a.amount.toString(), jetton: jettonPreviewJson(facts, a.master) };
        case 'JettonMint':
            return { recipient: acc(a.recipient), recipients_wallet: a.recipientsWallet, amount: a.amount.toString(), jetton: jettonPreviewJson(facts, a.master) };
        case 'NftItemTransfer':
            return clean({ nft: a.nft, sender: opt(a.sender), recipient: opt(a.recipient), payload: a.payload, ...noteJson(a) });
        case 'Subscribe':
            return {
                subscriber: acc(a.subscriber), subscription: a.subscription, beneficiary: acc(a.beneficiary), admin: acc(a.admin),
                amount: a.amount, price: priceJson(facts, { kind: 'native', amount: a.amount }), initial: a.initial,
            };
        case 'UnSubscribe':
            return { subscriber: acc(a.subscriber), subscription: a.subscription, beneficiary: acc(a.beneficiary), admin: acc(a.admin) };
        case 'AuctionBid':
            return clean({
                auction_type: a.auctionType, amount: priceJson(facts, { kind: 'native', amount: a.amount }), bidder: acc(a.bidder), auction: acc(a.auction),
                nft: a.nft === undefined ? undefined : nftItemJson(facts, a.nft, acc),
            });
        case 'NftPurchase':
            return {
                auction_type: a.auctionType, amount: priceJson(facts, { kind: 'native', amount: a.amount }), nft: nftItemJson(facts, a.nft, acc),
                seller: acc(a.seller), buyer: acc(a.buyer),
            };
        case 'DepositStake':
            return clean({
                amount: a.amount, staker: acc(a.staker), pool: acc(a.pool), implementation: a.implementation,
                stake_meta: a.stakeMeta ? priceJson(facts, a.stakeMeta) : undefined,
            });
        case 'WithdrawStake':
            return { amount: a.amount, staker: acc(a.staker), pool: acc(a.pool), implementation: a.implementation };
        case 'WithdrawStakeRequest':
            return clean({
                amount: a.amount, staker: acc(a.staker), pool: acc(a.pool), implementation: a.implementation,
                stake_meta: a.stakeMeta ? priceJson(facts, a.stakeMeta) : undefined,
            });
        case 'ElectionsDepositStake':
        case 'ElectionsRecoverStake':
            return { amount: a.amount, staker: acc(a.staker) };
        case 'JettonSwap': {
            const out: Record<string, unknown> = {
                dex: a.dex, amount_in: '', amount_out: '', user_wallet: acc(a.userWallet), router: acc(a.router),
            };
            if (a.in.kind === 'native') Object.assign(out, { native_in: a.in.amount, gram_in: a.in.amount });
            else Object.assign(out, { amount_in: a.in.amount.toString(), jetton_master_in: jettonPreviewJson(facts, a.in.master) });
            if (a.out.kind === 'native') Object.assign(out, { native_out: a.out.amount, gram_out: a.out.amount });
            else Object.assign(out, { amount_out: a.out.amount.toString(), jetton_master_out: jettonPreviewJson(facts, a.out.master) });
            return out;
        }
        case 'LiquidityDeposit':
            return liquidityDepositJson(a, ctx);
        case 'SmartContractExec':
            return clean({
                executor: acc(a.executor), contract: acc(a.contract), native_attached: a.attached, gram_attached: a.attached,
                operation: contractOperation(a.operation), payload: a.payload || undefined,
            });
        case 'DomainRenew':
            return { domain: a.domain, contract_address: a.contractAddress, renewer: acc(a.renewer) };
        case 'Purchase':
            return {
                // Invoice metadata lives in the payment provider's store, which this service does not have: no `metadata`.
                source: acc(a.source), destination: acc(a.destination), invoice_id: a.invoiceId, amount: priceJson(facts, a.amount),
            };
        case 'AddExtension':
        case 'RemoveExtension':
            return { wallet: acc(a.wallet), extension: a.extension };
        case 'SetSignatureAllowedAction':
            return { wallet: acc(a.wallet), allowed: a.allowed };
        case 'GasRelay':
            return { amount: a.amount, relayer: acc(a.relayer), target: acc(a.target) };
        case 'WithdrawXTR':
            return { user: acc(a.user), amount: a.amount.toString() };
        case 'DepositXTR':
        case 'BuyXTR':
            return { recipient: acc(a.recipient), amount: a.amount.toString() };
        case 'DepositTokenStake':
        case 'WithdrawTokenStakeRequest':
            return tokenStakeJson(a, ctx);
        case 'OracleRequest':
            return oracleRequestJson(a, ctx);
    }
}

/** The operation names the API uses in place of some decoder names. */
function contractOperation(operation: string): string {
    if (operation === '') return 'Call';
    if (operation === 'JettonCallTo') return 'JettonAdminAction';
    return operation;
}

function noteJson(n: TransferNote): { comment?: string; encrypted_comment?: { encryption_type: string; cipher_text: string } } {
    const out: { comment?: string; encrypted_comment?: { encryption_type: string; cipher_text: string } } = {};
    if (n.comment !== undefined) out.comment = n.comment;
    if (n.encryptedComment) out.encrypted_comment = encryptedJson(n.encryptedComment);
    return out;
}

function encryptedJson(e: EncryptedComment): { encryption_type: string; cipher_text: string } {
    return { encryption_type: e.encryptionType, cipher_text: e.cipherText.toString('hex') };
}

/** Drops undefined members (the schemas are closed and have no nulls). */
function clean(o: Record<string, unknown>): Record<string, unknown> {
    for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
    return o;
}
