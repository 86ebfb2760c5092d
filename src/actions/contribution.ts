import type { ActionDraft } from './action.ts';

/**
 * Nanograms an action moves to (+) or from (−) `account`, as far as the action itself explains
 * them. An event's `extra` is the account's gram flow minus these: fees (<0) or refunds (>0).
 */
export function gramContribution(a: ActionDraft, account: string): bigint {
    if (!a.success) return 0n;
    const dir = (from: string, to: string, amount: bigint) => (from === to ? 0n : account === from ? -amount : account === to ? amount : 0n);
    switch (a.type) {
        case 'NativeTransfer':
            return dir(a.sender, a.recipient, a.amount);
        case 'SmartContractExec':
            return dir(a.executor, a.contract, a.attached);
        case 'GasRelay':
            return account === a.relayer ? -a.amount : 0n;
        case 'NftPurchase':
            return dir(a.buyer, a.seller, a.amount);
        case 'AuctionBid':
            return dir(a.bidder, a.auction, a.amount);
        case 'Purchase':
            return a.amount.kind === 'native' ? dir(a.source, a.destination, a.amount.amount) : 0n;
        case 'Subscribe':
            return dir(a.subscriber, a.beneficiary, a.amount);
        case 'ElectionsDepositStake':
            return dir(a.staker, a.elector, a.amount);
        case 'ElectionsRecoverStake':
            return dir(a.elector, a.staker, a.amount);
        case 'DepositStake':
            return dir(a.staker, a.pool, a.amount);
        case 'WithdrawStake':
            return dir(a.pool, a.staker, a.amount);
        case 'JettonTransfer':
            // Only a wrapped-native (pTON) transfer with both ends known moves grams as such.
            return a.wrappedNative && a.sender !== undefined && a.recipient !== undefined ? dir(a.sender, a.recipient, a.amount) : 0n;
        case 'JettonSwap':
            if (account !== a.userWallet) return 0n;
            if (a.in.kind === 'native') return -a.in.amount;
            return a.out.kind === 'native' ? a.out.amount : 0n;
        case 'LiquidityDeposit':
            // Grams put into the pool: out of `from`, into the vault that took them.
            return a.tokens.reduce((sum, t) => {
                if (t.asset.kind !== 'native') return sum;
                return sum + (account === a.from ? -t.asset.amount : 0n) + (account === t.vault ? t.asset.amount : 0n);
            }, 0n);
        default:
            return 0n;
    }
}
